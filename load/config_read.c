/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_read.c - reading scenario text: a file or a string through
 * libinih, and "--set" overrides, into sections and keys, with the
 * "file:line: ..." errors for what is not valid text or syntax (the
 * contract is in load/load.h).
 *
 * Line numbers. Debian's libinih is built without INI_HANDLER_LINENO, so
 * ini_parse_stream() reads through our own reader (cfg_reader), which
 * counts lines; inih calls the handler right after the reader returned the
 * line holding the key, so the reader's count is the key's line.
 *
 * The reader also screens each line before inih sees it, because inih is
 * silent or lossy exactly where a user needs an error:
 *   - Section headers are parsed here and never passed on: inih does not
 *     tell the handler about a section without keys ("[sim]" left at its
 *     defaults), truncates headers past 49 characters and ignores anything
 *     after ']'. So the handler ignores inih's section argument and adds
 *     keys to the section the reader saw last.
 *   - inih joins an indented line to the previous value (Python-style
 *     continuation). We strip indentation instead, so "  key = v" is a
 *     key, and an indented line without '=' is the error "continuation
 *     lines are not supported".
 *   - A line that does not fit inih's buffer (INI_MAX_LINE, 200 bytes)
 *     would be cut in two; it is an error instead.
 * inih still splits "key = value" (or "key: value"), drops an inline
 * "; comment" (a ';' after whitespace) and trims both sides.
 */
#include "load/load.h"
#include "load/template_expr.h"
#include "sim/config_priv.h"
#include "sim/arith.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

/* An error quotes at most this much of a line: "'%.*s%s'", CFG_Q(len, p). */
#define CFG_QUOTE 60
#define CFG_Q(len, p) (int)((len) > CFG_QUOTE ? CFG_QUOTE : (len)), (p), ((len) > CFG_QUOTE ? "..." : "")

/* State shared by the reader and the handler during one load. */
struct cfg_loader {
    struct cfg *c;
    const char *p, *end;       /* text not yet read */
    int line;                  /* line the reader returned last */
    struct cfg_section *cur;   /* where keys go */
    int skip;                  /* cur is NULL because its header was bad: drop keys quietly */
    /* a template's header ([host s{1..16}]): its sections, tpl[i] for the
     * value tpl_lo + i (NULL where that one was a duplicate); its keys go
     * to each, "{}" and "{EXPR}" in a value replaced for the section's
     * number */
    struct cfg_section **tpl;
    int ntpl;
    long tpl_lo;
};

/* Section kinds, keys and names: one word of letters, digits and `extra`. */
static int cfg_is_word(const char *s, size_t n, const char *extra)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr(extra, s[i]))
            return 0;
    return 1;
}

/* "[kind PREFIX{LO..HI}SUFFIX]": a section for each number, named with
 * it, each getting the keys that follow (cfg_handler). */
static void cfg_load_template(struct cfg_loader *ld, const char *kind, size_t nkind, const char *w, size_t n)
{
    struct cfg *c = ld->c;
    size_t pre;
    long lo, hi;
    const char *suffix, *why;
    if (cfg_range(w, n, &pre, &lo, &hi, &suffix, &why) < 0) {
        cfg_report(c, ld->line, "bad template name '%.*s%s': %s", CFG_Q(n, w), why);
        return;
    }
    size_t nsuf = (size_t)(w + n - suffix);
    if ((pre && !cfg_is_word(w, pre, "_-")) || (nsuf && !cfg_is_word(suffix, nsuf, "_-"))) {
        cfg_report(c, ld->line, "bad template name '%.*s%s': letters, digits, '_' or '-' around {LO..HI}",
                   CFG_Q(n, w));
        return;
    }
    int count = (int)(hi - lo + 1);
    ld->tpl = xrealloc(ld->tpl, (size_t)count * sizeof *ld->tpl);
    for (int i = 0; i < count; i++) {
        char name[160];
        int len = snprintf(name, sizeof name, "%.*s%ld%.*s", (int)pre, w, lo + i, (int)nsuf, suffix);
        struct cfg_section *dup = cfg_findn(c, kind, nkind, name, (size_t)len);
        ld->tpl[i] = NULL;
        if (dup)
            cfg_report(c, ld->line, "duplicate section [%s%s%s] (first at line %d)", dup->kind, cfg_sep(dup),
                       dup->name, dup->line);
        else if (!strcmp(name, "sim"))
            cfg_report(c, ld->line, "a section cannot be named 'sim': --set sim.KEY and the recorded sim.KEY "
                       "name the [sim] section");
        else
            ld->tpl[i] = cfg_section_add(c, kind, nkind, name, (size_t)len, ld->line);
    }
    ld->ntpl = count;
    ld->tpl_lo = lo;
}

/* Parses "[kind]" or "[kind name]" in b..e (b points at '['). */
static void cfg_load_header(struct cfg_loader *ld, const char *b, const char *e)
{
    struct cfg *c = ld->c;
    const char *close = memchr(b, ']', (size_t)(e - b));
    const char *w[3], *we[3], *p;
    int nw = 0, len = (int)(e - b);
    struct cfg_section *dup;

    ld->cur = NULL;
    ld->skip = 1;
    ld->ntpl = 0;
    if (!close) {
        cfg_report(c, ld->line, "section header '%.*s%s' has no ']'", CFG_Q(len, b));
        return;
    }
    for (p = close + 1; p < e && isspace((unsigned char)*p); p++)
        ;
    if (p < e && *p != ';' && *p != '#') {
        cfg_report(c, ld->line, "text after ']' in section header '%.*s%s'", CFG_Q(len, b));
        return;
    }
    for (p = b + 1; p < close && nw < 3;) {
        while (p < close && isspace((unsigned char)*p))
            p++;
        if (p == close)
            break;
        w[nw] = p;
        while (p < close && !isspace((unsigned char)*p))
            p++;
        we[nw++] = p;
    }
    len = (int)(close + 1 - b);
    if (nw == 0 || nw == 3) {
        cfg_report(c, ld->line, "bad section header '%.*s%s': expected [kind] or [kind name]", CFG_Q(len, b));
        return;
    }
    if (!isalpha((unsigned char)*w[0]) || !cfg_is_word(w[0], (size_t)(we[0] - w[0]), "_-")) {
        cfg_report(c, ld->line, "bad section kind '%.*s%s': use a letter, then letters, digits, '_' or '-'",
                   CFG_Q(we[0] - w[0], w[0]));
        return;
    }
    /* '.' separates a section's name from the key in --set and in the
     * recorded parameters (l.fwd.delay), and "sim" names the [sim] section
     * there: a name may be neither */
    const char *kind = w[0];
    size_t nkind = (size_t)(we[0] - w[0]);
    bool as_switch = nkind == 6 && !memcmp(kind, "switch", 6);
    if (as_switch) {             /* a host with a switch's defaults (cfg_switch_defaults) */
        kind = "host";
        nkind = 4;
    }
    if (nw == 2 && memchr(w[1], '{', (size_t)(we[1] - w[1]))) {
        cfg_load_template(ld, kind, nkind, w[1], (size_t)(we[1] - w[1]));
        for (int i = 0; i < ld->ntpl; i++)
            if (ld->tpl[i])
                ld->tpl[i]->as_switch = as_switch;
        return;
    }
    if (nw == 2 && !cfg_is_word(w[1], (size_t)(we[1] - w[1]), "_-")) {
        cfg_report(c, ld->line, "bad section name '%.*s%s': use letters, digits, '_' or '-' ('.' separates the "
                   "name from the key in --set and in the recorded parameters)", CFG_Q(we[1] - w[1], w[1]));
        return;
    }
    if (nw == 2 && we[1] - w[1] == 3 && !memcmp(w[1], "sim", 3)) {
        cfg_report(c, ld->line, "a section cannot be named 'sim': --set sim.KEY and the recorded sim.KEY name the "
                   "[sim] section");
        return;
    }
    if (nw == 1) {
        w[1] = we[1] = we[0];
    }
    dup = cfg_findn(c, kind, nkind, w[1], (size_t)(we[1] - w[1]));
    if (dup) {
        cfg_report(c, ld->line, "duplicate section [%s%s%s] (first at line %d)",
                   dup->kind, cfg_sep(dup), dup->name, dup->line);
        return;
    }
    ld->cur = cfg_section_add(c, kind, nkind, w[1], (size_t)(we[1] - w[1]), ld->line);
    ld->skip = ld->cur == NULL;
    if (ld->cur)
        ld->cur->as_switch = as_switch;
}

/* [switch NAME] is [host NAME] with cpu = ideal, itr = 0 and gro = off
 * unless the section sets them (docs/models/link.md, "Switches"), added
 * as if written on the header's line: recorded, and --set changes them. */
static void cfg_switch_defaults(struct cfg *c)
{
    static const char *const dflt[][2] = { { "cpu", "ideal" }, { "itr", "0" }, { "gro", "off" } };
    for (int i = 0; i < c->nsections; i++) {
        struct cfg_section *s = c->sections[i];
        if (!s->as_switch)
            continue;
        for (size_t k = 0; k < sizeof dflt / sizeof dflt[0]; k++)
            if (!cfg_key_find(s, dflt[k][0]))
                cfg_key_add(s, dflt[k][0], dflt[k][1], s->line);
    }
}

/* Does b..e hold '=' or ':' before any inline comment? (inih's own rule) */
static int cfg_has_separator(const char *b, const char *e)
{
    int was_space = 0;

    for (; b < e; b++) {
        if (*b == '=' || *b == ':')
            return 1;
        if (was_space && *b == ';')
            return 0;
        was_space = isspace((unsigned char)*b);
    }
    return 0;
}

/* The offset of the first byte in b..e that is not text: a control
 * character other than tab, or a byte that is not part of well-formed
 * UTF-8 (no overlong forms, surrogates or code points past U+10FFFF);
 * -1 if there is none. */
static long cfg_bad_byte(const char *b, const char *e)
{
    const unsigned char *p = (const unsigned char *)b, *end = (const unsigned char *)e;
    while (p < end) {
        unsigned c = *p;
        int n = 0;
        unsigned min = 0, cp;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return (long)(p - (const unsigned char *)b);
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            min = 0x10000;
        } else {
            return (long)(p - (const unsigned char *)b);
        }
        if (end - p <= n)
            return (long)(p - (const unsigned char *)b);
        cp = c & (0x3fu >> n);
        for (int i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return (long)(p - (const unsigned char *)b);
            cp = cp << 6 | (p[i] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return (long)(p - (const unsigned char *)b);
        p += n + 1;
    }
    return -1;
}

/*
 * inih's fgets(): returns the next physical line, screened as described at
 * the top of this file. Lines inih must not act on are returned as "\n".
 */
static char *cfg_reader(char *str, int num, void *stream)
{
    struct cfg_loader *ld = stream;
    const char *b = ld->p, *e, *nl;
    int indented;

    if (ld->p >= ld->end || num < 2)
        return NULL;
    nl = memchr(ld->p, '\n', (size_t)(ld->end - ld->p));
    e = nl ? nl : ld->end;
    ld->p = nl ? nl + 1 : ld->end;
    ld->line++;
    if (ld->line == 1 && e - b >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0)
        b += 3;   /* UTF-8 byte order mark */
    indented = b < e && isspace((unsigned char)*b);
    while (b < e && isspace((unsigned char)*b))
        b++;
    while (e > b && isspace((unsigned char)e[-1]))
        e--;

    strcpy(str, "\n");
    if (b == e)
        return str;
    /* Checked on every line, comments and headers too: one limit for every
     * line, and nothing that is not text reaches the database or JSON. */
    long bad = cfg_bad_byte(b, e);
    if (e - b > num - 2)
        cfg_report(ld->c, ld->line, "line too long (%ld characters, at most %d)", (long)(e - b), num - 2);
    else if (bad >= 0 && b[bad] == '\0')
        cfg_report(ld->c, ld->line, "line contains a NUL byte");
    else if (bad >= 0 && ((unsigned char)b[bad] < 0x20 || b[bad] == 0x7f))
        cfg_report(ld->c, ld->line, "control character 0x%02x in column %ld", (unsigned char)b[bad], bad + 1);
    else if (bad >= 0)
        cfg_report(ld->c, ld->line, "line is not valid UTF-8 (byte 0x%02x in column %ld)", (unsigned char)b[bad],
                   bad + 1);
    else if (*b == ';' || *b == '#')
        return str;
    else if (*b == '[')
        cfg_load_header(ld, b, e);
    else if (!cfg_has_separator(b, e) && indented)
        cfg_report(ld->c, ld->line, "continuation lines are not supported (indented line without '=')");
    else if (!cfg_has_separator(b, e))
        cfg_report(ld->c, ld->line, "expected 'key = value' or a [section] header, got '%.*s%s'", CFG_Q(e - b, b));
    else {
        memcpy(str, b, (size_t)(e - b));
        str[e - b] = '\n';
        str[e - b + 1] = '\0';
    }
    return str;
}

/* A template's key: to each of its sections, "{}" and "{EXPR}" in the
 * value replaced for the section's number (load/template_expr.h). */
static void cfg_template_key(struct cfg_loader *ld, const char *key, const char *value)
{
    if (!cfg_is_word(key, strlen(key), "_-.@")) {
        cfg_report(ld->c, ld->line, "bad key '%s': use letters, digits, '_', '-', '.' or '@'", key);
        return;
    }
    for (int i = 0; i < ld->ntpl; i++) {
        struct cfg_section *s = ld->tpl[i];
        if (!s)
            continue;
        struct cfg_key *k = cfg_key_find(s, key);
        if (k) {
            cfg_report(ld->c, ld->line, "[%s%s%s] duplicate key '%s' (first at line %d)", s->kind, cfg_sep(s),
                       s->name, key, k->line);
            break;
        }
        char why[400];
        char *v = tpl_expand(value, ld->tpl_lo + i, why, sizeof why);
        if (!v) {   /* once, not once a section */
            cfg_report(ld->c, ld->line, "[%s%s%s] %s: %s", s->kind, cfg_sep(s), s->name, key, why);
            break;
        }
        cfg_key_add(s, key, v, ld->line);
        free(v);
    }
}

/* inih's handler: one "key = value" on line ld->line. Always returns 1:
 * we record our own errors and want inih to go on. */
static int cfg_handler(void *user, const char *section, const char *key, const char *value)
{
    struct cfg_loader *ld = user;
    struct cfg_section *s = ld->cur;
    struct cfg_key *k;

    (void)section;   /* we track sections ourselves, see the top of the file */
    if (ld->ntpl) {
        cfg_template_key(ld, key, value);
        return 1;
    }
    if (!s) {
        if (!ld->skip)
            cfg_report(ld->c, ld->line, "key '%s' outside any section", key);
        return 1;
    }
    if (!*key) {
        cfg_report(ld->c, ld->line, "[%s%s%s] missing key name before '='", s->kind, cfg_sep(s), s->name);
        return 1;
    }
    /* '@': a kernel module's key names its variant, tcp.cc.cubic@6.1.beta */
    if (!cfg_is_word(key, strlen(key), "_-.@")) {
        cfg_report(ld->c, ld->line, "[%s%s%s] bad key '%s': use letters, digits, '_', '-', '.' or '@'",
                   s->kind, cfg_sep(s), s->name, key);
        return 1;
    }
    k = cfg_key_find(s, key);
    if (k) {
        cfg_report(ld->c, ld->line, "[%s%s%s] duplicate key '%s' (first at line %d)",
                   s->kind, cfg_sep(s), s->name, key, k->line);
        return 1;
    }
    cfg_key_add(s, key, value, ld->line);
    return 1;
}

static struct cfg *cfg_parse(struct cfg *c, const char *text, size_t len)
{
    struct cfg_loader ld = { .c = c, .p = text, .end = text + len };
    int before = c->nerrors;
    uint64_t h = fnv1a64(text, len);             /* of the bytes parsed */
    snprintf(c->source_hash, sizeof c->source_hash, "%016llx", (unsigned long long)h);
    int rc = ini_parse_stream(cfg_reader, &ld, cfg_handler, &ld);
    free(ld.tpl);
    cfg_switch_defaults(c);

    /* The reader hands inih only lines it accepts, so this is a safety net. */
    if (rc > 0 && c->nerrors == before)
        cfg_report(c, rc, "syntax error");
    else if (rc < 0)
        xoom();       /* -2: inih could not allocate */
    return c;
}

struct cfg *cfg_load_string(const char *name, const char *text)
{
    return cfg_load_bytes(name, text ? text : "", text ? strlen(text) : 0);
}

struct cfg *cfg_load_bytes(const char *name, const char *text, size_t len)
{
    return cfg_parse(cfg_new(name), text, len);
}

const char *cfg_source_hash(const struct cfg *c)
{
    return c->source_hash;
}

char *cfg_read(const char *path, size_t *lenp, char **why)
{
    struct stat st;
    FILE *f;
    char *buf;
    size_t len;
    int err = 0;

    *why = NULL;
    f = fopen(path, "r");
    if (!f) {
        *why = xasprintf("cannot open: %s", strerror(errno));
        return NULL;
    }
    /* A device (/dev/zero, a terminal) has no end; a pipe is read up to
     * the limit, like a file, and once: what was read is what runs and
     * what the run's scenario hash is of. */
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        *why = xasprintf("not a scenario file: %s", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
        fclose(f);
        return NULL;
    }
    if (S_ISREG(st.st_mode) && st.st_size > CFG_MAX_FILE) {
        *why = xasprintf("%lld bytes: a scenario file is at most %d bytes (16 MiB)", (long long)st.st_size,
                         CFG_MAX_FILE);
        fclose(f);
        return NULL;
    }
    buf = xmalloc(CFG_MAX_FILE + 2);
    len = fread(buf, 1, CFG_MAX_FILE + 1, f);
    if (ferror(f))
        err = errno ? errno : EIO;
    fclose(f);
    if (err) {
        *why = xasprintf("cannot read: %s", strerror(err));
        free(buf);
        return NULL;
    }
    if (len > CFG_MAX_FILE) {
        *why = xasprintf("more than %d bytes: a scenario file is at most 16 MiB", CFG_MAX_FILE);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    *lenp = len;
    return xrealloc(buf, len + 1);
}

struct cfg *cfg_load(const char *path)
{
    size_t len = 0;
    char *why, *buf = cfg_read(path, &len, &why);
    if (!buf) {
        struct cfg *c = cfg_new(path);
        cfg_report(c, -1, "%s", why);
        free(why);
        return c;
    }
    struct cfg *c = cfg_load_bytes(path, buf, len);
    free(buf);
    return c;
}

/* ---- overrides -------------------------------------------------------- */

static void cfg_trim(const char **b, const char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* A host exists because a link names it: "server" in some [link]'s
 * `ends = client:eth0 server:eth1` has no section of its own until the
 * world is built, yet --set server.KEY must reach it, as it reaches a
 * host that has one. */
static bool link_names_host(const struct cfg *c, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < c->nsections; i++) {
        const struct cfg_section *t = c->sections[i];
        const struct cfg_key *k = strcmp(t->kind, "link") ? NULL : cfg_key_find(t, "ends");
        for (const char *p = k ? k->value : ""; *p;) {
            while (*p == ' ' || *p == '\t')
                p++;
            const char *w = p;
            while (*p && *p != ' ' && *p != '\t' && *p != ':')
                p++;
            if ((size_t)(p - w) == n && n && !memcmp(w, name, n))
                return true;
            while (*p && *p != ' ' && *p != '\t')
                p++;
        }
    }
    return false;
}

int cfg_override(struct cfg *c, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = strchr(assignment, '.');
    const char *sb, *se, *kb, *ke, *vb, *ve;
    struct cfg_section *s = NULL;
    struct cfg_text list = { 0 };
    struct cfg_key *k;
    char *sel = NULL, *key = NULL, *value = NULL;
    int matches = 0, rc = -1;

    if (strlen(assignment) > CFG_MAX_LINE) {
        cfg_report(c, 0, "'%.*s...': longer than %d characters", CFG_QUOTE, assignment, CFG_MAX_LINE);
        return -1;
    }
    long bad = cfg_bad_byte(assignment, assignment + strlen(assignment));
    if (bad >= 0) {
        cfg_report(c, 0, "byte 0x%02x in column %ld is not UTF-8 text", (unsigned char)assignment[bad], bad + 1);
        return -1;
    }
    if (!eq || !dot || dot > eq) {
        cfg_report(c, 0, "'%s': expected section.key=value", assignment);
        return -1;
    }
    sb = assignment;
    se = dot;
    kb = dot + 1;
    ke = eq;
    vb = eq + 1;
    ve = vb + strlen(vb);
    cfg_trim(&sb, &se);
    cfg_trim(&kb, &ke);
    cfg_trim(&vb, &ve);
    sel = xstrndup(sb, (size_t)(se - sb));
    key = xstrndup(kb, (size_t)(ke - kb));
    value = xstrndup(vb, (size_t)(ve - vb));
    if (!*sel || !cfg_is_word(key, strlen(key), "_-.@")) {
        cfg_report(c, 0, "'%s': expected section.key=value", assignment);
        goto out;
    }
    /* A name selects first ("receiver"), then the kind of a nameless
     * section ("sim"); names are not unique across kinds. */
    for (int i = 0; i < c->nsections; i++) {
        struct cfg_section *t = c->sections[i];
        if (strcmp(t->name, sel) == 0) {
            s = t;
            cfg_text_add(&list, "%s[%s %s]", matches++ ? ", " : "", t->kind, t->name);
        }
    }
    if (matches > 1) {
        cfg_report(c, 0, "'%s': section name '%s' is ambiguous: %s", assignment, sel, list.p ? list.p : "");
        goto out;
    }
    if (!s)
        s = cfg_find(c, sel, "");
    if (!s && link_names_host(c, sel))
        s = cfg_section_ensure(c, "host", sel);   /* the [host NAME] the build would add */
    if (!s) {
        cfg_report(c, 0, "'%s': no section named '%s' and no section [%s]", assignment, sel, sel);
        goto out;
    }
    k = cfg_key_find(s, key);
    if (k) {
        cfg_key_replace(k, value);
        k->line = 0;
    } else {
        cfg_key_add(s, key, value, 0);
    }
    rc = 0;
out:
    free(list.p);
    free(sel);
    free(key);
    free(value);
    return rc;
}
