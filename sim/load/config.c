/*
 * config.c - scenario files: loading with libinih, typed getters, and the
 * "file:line: ..." errors a user sees (the contract is in config.h).
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
 *
 * Storage is flat malloc'ed arrays owned by struct cfg. Lookups are linear:
 * a section holds a dozen keys and a scenario a dozen sections, so a hash
 * table would cost more code than it saves time. Sections are allocated
 * one by one because callers keep struct cfg_section pointers.
 */
#include "sim/load/load.h"
#include "sim/load/strindex.h"
#include "sim/load/units.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <float.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

struct cfg_key {
    char *key;
    char *value;
    int line;              /* 0: set with cfg_override ("--set") */
    int axis_reported;     /* the "is a sweep axis" error was recorded */
};

struct cfg_section {
    struct cfg *cfg;
    char *kind;
    char *name;            /* "" for "[kind]" */
    int line;
    int claimed;
    int unchecked;         /* cfg_unchecked(): no unknown-key report */
    struct cfg_key *keys;  /* in file order; overrides appended */
    int nkeys, capkeys;
    struct strindex kindex;   /* key name -> keys[] */
    char **asked;          /* keys a getter asked for, in ask order: the valid keys */
    int nasked, capasked;
};

struct cfg_param {
    char *key;             /* "kind name.key" */
    char *value;
};

struct cfg {
    char *file;
    struct cfg_section **sections;
    int nsections, capsections;
    struct strindex sindex;   /* kind, name -> sections[] */
    char **errors;
    int nerrors, caperrors;
    int more_errors;       /* past CFG_MAX_ERRORS: counted, not kept */
    char **warnings;
    int nwarnings, capwarnings;
    struct cfg_param *params;
    int nparams, capparams;
    int oom;               /* an allocation failed: counts as one more error */
    int finished;          /* cfg_finish() ran: do not report twice */
};

#define CFG_MAX_ERRORS 100
#define CFG_MAX_LINE 198         /* inih's INI_MAX_LINE (200) less the newline and NUL */
/* An error quotes at most this much of a line: "'%.*s%s'", CFG_Q(len, p). */
#define CFG_QUOTE 60
#define CFG_Q(len, p) (int)((len) > CFG_QUOTE ? CFG_QUOTE : (len)), (p), ((len) > CFG_QUOTE ? "..." : "")

/* A growing string for messages built from lists. */
struct cfg_text {
    char *p;
    size_t len;
    int oom;
};

/* State shared by the reader and the handler during one load. */
struct cfg_loader {
    struct cfg *c;
    const char *p, *end;       /* text not yet read */
    int line;                  /* line the reader returned last */
    struct cfg_section *cur;   /* where keys go */
    int skip;                  /* cur is NULL because its header was bad: drop keys quietly */
};

/* ---- small helpers ---------------------------------------------------- */

static char *cfg_vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    int n;
    char *s;

    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || !(s = malloc((size_t)n + 1)))
        return NULL;
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static void cfg_text_add(struct cfg_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cfg_text_add(struct cfg_text *t, const char *fmt, ...)
{
    va_list ap;
    char *s, *p;
    size_t n;

    va_start(ap, fmt);
    s = cfg_vformat(fmt, ap);
    va_end(ap);
    if (!s || t->oom) {
        t->oom = 1;
        free(s);
        return;
    }
    n = strlen(s);
    p = realloc(t->p, t->len + n + 1);
    if (!p) {
        t->oom = 1;
        free(s);
        return;
    }
    memcpy(p + t->len, s, n + 1);
    t->p = p;
    t->len += n;
    free(s);
}

/* Returns arr with room for element n (reallocated if needed), or NULL. */
static void *cfg_grow(struct cfg *c, void *arr, int n, int *cap, size_t size)
{
    void *p;
    int ncap;

    if (n < *cap)
        return arr;
    ncap = *cap ? *cap * 2 : 8;
    p = realloc(arr, (size_t)ncap * size);
    if (!p) {
        c->oom = 1;
        return NULL;
    }
    *cap = ncap;
    return p;
}

static char *cfg_strndup(struct cfg *c, const char *s, size_t n)
{
    char *p = malloc(n + 1);

    if (!p) {
        c->oom = 1;
        return NULL;
    }
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static char *cfg_strdup(struct cfg *c, const char *s)
{
    return cfg_strndup(c, s, strlen(s));
}

/* " " between kind and name, or "" for a nameless section. */
static const char *cfg_sep(const struct cfg_section *s)
{
    return s->name[0] ? " " : "";
}

/* Adds an error unless the same text is already there: a value read for
 * each direction of a link, or by two components, is one mistake. Past
 * CFG_MAX_ERRORS only the count grows, so no input can make the list
 * (or the time to check it) grow without bound. */
static void cfg_push_error(struct cfg *c, char *msg)
{
    char **e;

    if (!msg) {
        c->oom = 1;
        return;
    }
    for (int i = 0; i < c->nerrors; i++)
        if (strcmp(c->errors[i], msg) == 0) {
            free(msg);
            return;
        }
    if (c->nerrors >= CFG_MAX_ERRORS) {
        c->more_errors++;
        free(msg);
        return;
    }
    e = cfg_grow(c, c->errors, c->nerrors, &c->caperrors, sizeof *e);
    if (!e) {
        free(msg);
        return;
    }
    c->errors = e;
    c->errors[c->nerrors++] = msg;
}

/* "file:LINE: msg"; LINE 0 means the value came from the command line
 * and gives "--set: msg"; LINE -1 gives "file: msg". NULL when out of
 * memory (recorded). */
static char *cfg_locate(struct cfg *c, int line, const char *fmt, va_list ap)
{
    struct cfg_text t = { 0 };
    char *msg = cfg_vformat(fmt, ap);

    if (!msg) {
        c->oom = 1;
        return NULL;
    }
    if (line > 0)
        cfg_text_add(&t, "%s:%d: %s", c->file, line, msg);
    else if (line == 0)
        cfg_text_add(&t, "--set: %s", msg);
    else
        cfg_text_add(&t, "%s: %s", c->file, msg);
    free(msg);
    if (t.oom) {
        free(t.p);
        c->oom = 1;
        return NULL;
    }
    return t.p;
}

static char *cfg_format_at(struct cfg *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *cfg_format_at(struct cfg *c, int line, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_locate(c, line, fmt, ap);
    va_end(ap);
    return msg;
}

static void cfg_report(struct cfg *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cfg_report(struct cfg *c, int line, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_locate(c, line, fmt, ap);
    va_end(ap);
    if (msg)
        cfg_push_error(c, msg);
}

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

struct cfg_key_probe {
    const struct cfg_section *s;
    const char *key;
};

static bool cfg_key_eq(const void *ctx, uint32_t id)
{
    const struct cfg_key_probe *p = ctx;
    return strcmp(p->s->keys[id].key, p->key) == 0;
}

static struct cfg_key *cfg_key_find(const struct cfg_section *s, const char *key)
{
    struct cfg_key_probe p = { s, key };
    int64_t i = strindex_find(&s->kindex, strindex_hash(STRINDEX_SEED, key, strlen(key)), cfg_key_eq, &p);
    return i < 0 ? NULL : &s->keys[i];
}

static struct cfg_key *cfg_key_add(struct cfg_section *s, const char *key, const char *value, int line)
{
    struct cfg *c = s->cfg;
    struct cfg_key *k = cfg_grow(c, s->keys, s->nkeys, &s->capkeys, sizeof *k);
    char *kk, *vv;

    if (!k)
        return NULL;
    s->keys = k;
    kk = cfg_strdup(c, key);
    vv = cfg_strdup(c, value);
    if (!kk || !vv) {
        free(kk);
        free(vv);
        return NULL;
    }
    if (strindex_add(&s->kindex, strindex_hash(STRINDEX_SEED, key, strlen(key)), (uint32_t)s->nkeys)) {
        c->oom = 1;
        free(kk);
        free(vv);
        return NULL;
    }
    k = &s->keys[s->nkeys++];
    memset(k, 0, sizeof *k);
    k->key = kk;
    k->value = vv;
    k->line = line;
    return k;
}

static int cfg_key_replace(struct cfg_section *s, struct cfg_key *k, const char *value)
{
    char *v = cfg_strdup(s->cfg, value);

    if (!v)
        return -1;
    free(k->value);
    k->value = v;
    k->axis_reported = 0;
    return 0;
}

/* ---- loading ---------------------------------------------------------- */

static struct cfg *cfg_new(const char *name)
{
    struct cfg *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->file = strdup(name ? name : "(string)");
    if (!c->file) {
        free(c);
        return NULL;
    }
    return c;
}

static uint32_t cfg_section_hash(const char *kind, size_t nkind, const char *name, size_t nname)
{
    return strindex_hash(strindex_hash(strindex_hash(STRINDEX_SEED, kind, nkind), "", 1), name, nname);
}

static struct cfg_section *cfg_section_add(struct cfg *c, const char *kind, size_t nkind,
                                           const char *name, size_t nname, int line)
{
    struct cfg_section **v = cfg_grow(c, c->sections, c->nsections, &c->capsections, sizeof *v);
    struct cfg_section *s;

    if (!v)
        return NULL;
    c->sections = v;
    s = calloc(1, sizeof *s);
    if (!s) {
        c->oom = 1;
        return NULL;
    }
    s->cfg = c;
    s->line = line;
    s->kind = cfg_strndup(c, kind, nkind);
    s->name = cfg_strndup(c, name, nname);
    if (!s->kind || !s->name ||
        strindex_add(&c->sindex, cfg_section_hash(kind, nkind, name, nname), (uint32_t)c->nsections)) {
        c->oom = 1;
        free(s->kind);
        free(s->name);
        free(s);
        return NULL;
    }
    c->sections[c->nsections++] = s;
    return s;
}

struct cfg_section_probe {
    const struct cfg *c;
    const char *kind, *name;
    size_t nkind, nname;
};

static bool cfg_section_eq(const void *ctx, uint32_t id)
{
    const struct cfg_section_probe *p = ctx;
    const struct cfg_section *s = p->c->sections[id];
    return strlen(s->kind) == p->nkind && memcmp(s->kind, p->kind, p->nkind) == 0 &&
           strlen(s->name) == p->nname && memcmp(s->name, p->name, p->nname) == 0;
}

static struct cfg_section *cfg_findn(const struct cfg *c, const char *kind, size_t nkind,
                                     const char *name, size_t nname)
{
    struct cfg_section_probe p = { c, kind, name, nkind, nname };
    int64_t i = strindex_find(&c->sindex, cfg_section_hash(kind, nkind, name, nname), cfg_section_eq, &p);
    return i < 0 ? NULL : c->sections[i];
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
    if (nw == 2 && !cfg_is_word(w[1], (size_t)(we[1] - w[1]), "_-.")) {
        cfg_report(c, ld->line, "bad section name '%.*s%s': use letters, digits, '_', '-' or '.'",
                   CFG_Q(we[1] - w[1], w[1]));
        return;
    }
    if (nw == 1) {
        w[1] = we[1] = we[0];
    }
    dup = cfg_findn(c, w[0], (size_t)(we[0] - w[0]), w[1], (size_t)(we[1] - w[1]));
    if (dup) {
        cfg_report(c, ld->line, "duplicate section [%s%s%s] (first at line %d)",
                   dup->kind, cfg_sep(dup), dup->name, dup->line);
        return;
    }
    ld->cur = cfg_section_add(c, w[0], (size_t)(we[0] - w[0]), w[1], (size_t)(we[1] - w[1]), ld->line);
    ld->skip = ld->cur == NULL;
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

/* inih's handler: one "key = value" on line ld->line. Always returns 1:
 * we record our own errors and want inih to go on. */
static int cfg_handler(void *user, const char *section, const char *key, const char *value)
{
    struct cfg_loader *ld = user;
    struct cfg_section *s = ld->cur;
    struct cfg_key *k;

    (void)section;   /* we track sections ourselves, see the top of the file */
    if (!s) {
        if (!ld->skip)
            cfg_report(ld->c, ld->line, "key '%s' outside any section", key);
        return 1;
    }
    if (!*key) {
        cfg_report(ld->c, ld->line, "[%s%s%s] missing key name before '='", s->kind, cfg_sep(s), s->name);
        return 1;
    }
    if (!cfg_is_word(key, strlen(key), "_-.")) {
        cfg_report(ld->c, ld->line, "[%s%s%s] bad key '%s': use letters, digits, '_', '-' or '.'",
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
    int rc = ini_parse_stream(cfg_reader, &ld, cfg_handler, &ld);

    /* The reader hands inih only lines it accepts, so this is a safety net. */
    if (rc > 0 && c->nerrors == before)
        cfg_report(c, rc, "syntax error");
    else if (rc < 0)
        c->oom = 1;   /* -2: inih could not allocate */
    if (c->oom) {
        cfg_free(c);
        return NULL;
    }
    return c;
}

struct cfg *cfg_load_string(const char *name, const char *text)
{
    struct cfg *c = cfg_new(name);

    if (!c)
        return NULL;
    if (!text)
        text = "";
    return cfg_parse(c, text, strlen(text));
}

struct cfg *cfg_load(const char *path)
{
    struct cfg *c = cfg_new(path);
    struct stat st;
    FILE *f;
    char *buf;
    size_t len;
    int err = 0;

    if (!c)
        return NULL;
    f = fopen(path, "r");
    if (!f) {
        cfg_report(c, -1, "cannot open: %s", strerror(errno));
        return c;
    }
    /* A device (/dev/zero, a terminal) has no end; a pipe is read up to
     * the limit, like a file. */
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        cfg_report(c, -1, "not a scenario file: %s", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
        fclose(f);
        return c;
    }
    if (S_ISREG(st.st_mode) && st.st_size > CFG_MAX_FILE) {
        cfg_report(c, -1, "%lld bytes: a scenario file is at most %d bytes (4 MiB)", (long long)st.st_size, CFG_MAX_FILE);
        fclose(f);
        return c;
    }
    buf = malloc(CFG_MAX_FILE + 2);
    if (!buf) {
        fclose(f);
        cfg_free(c);
        return NULL;
    }
    len = fread(buf, 1, CFG_MAX_FILE + 1, f);
    if (ferror(f))
        err = errno ? errno : EIO;
    fclose(f);
    if (err) {
        cfg_report(c, -1, "cannot read: %s", strerror(err));
        free(buf);
        return c;
    }
    if (len > CFG_MAX_FILE) {
        cfg_report(c, -1, "more than %d bytes: a scenario file is at most 4 MiB", CFG_MAX_FILE);
        free(buf);
        return c;
    }
    buf[len] = '\0';
    c = cfg_parse(c, buf, len);
    free(buf);
    return c;
}

void cfg_free(struct cfg *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nsections; i++) {
        struct cfg_section *s = c->sections[i];
        for (int j = 0; j < s->nkeys; j++) {
            free(s->keys[j].key);
            free(s->keys[j].value);
        }
        for (int j = 0; j < s->nasked; j++)
            free(s->asked[j]);
        free(s->keys);
        strindex_free(&s->kindex);
        free(s->asked);
        free(s->kind);
        free(s->name);
        free(s);
    }
    for (int i = 0; i < c->nerrors; i++)
        free(c->errors[i]);
    for (int i = 0; i < c->nwarnings; i++)
        free(c->warnings[i]);
    free(c->warnings);
    for (int i = 0; i < c->nparams; i++) {
        free(c->params[i].key);
        free(c->params[i].value);
    }
    free(c->sections);
    strindex_free(&c->sindex);
    free(c->errors);
    free(c->params);
    free(c->file);
    free(c);
}

/* ---- overrides -------------------------------------------------------- */

static void cfg_trim(const char **b, const char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
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
    sel = cfg_strndup(c, sb, (size_t)(se - sb));
    key = cfg_strndup(c, kb, (size_t)(ke - kb));
    value = cfg_strndup(c, vb, (size_t)(ve - vb));
    if (!sel || !key || !value)
        goto out;
    if (!*sel || !cfg_is_word(key, strlen(key), "_-.")) {
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
    if (!s) {
        cfg_report(c, 0, "'%s': no section named '%s' and no section [%s]", assignment, sel, sel);
        goto out;
    }
    k = cfg_key_find(s, key);
    if (k) {
        rc = cfg_key_replace(s, k, value);
        k->line = 0;
    } else {
        rc = cfg_key_add(s, key, value, 0) ? 0 : -1;
    }
out:
    free(list.p);
    free(sel);
    free(key);
    free(value);
    return rc;
}

/* ---- sections --------------------------------------------------------- */

int cfg_section_count(const struct cfg *c)
{
    return c->nsections;
}

struct cfg_section *cfg_section_at(const struct cfg *c, int i)
{
    return i >= 0 && i < c->nsections ? c->sections[i] : NULL;
}

struct cfg_section *cfg_find(const struct cfg *c, const char *kind, const char *name)
{
    if (!name)
        name = "";
    return cfg_findn(c, kind, strlen(kind), name, strlen(name));
}

const char *cfg_kind(const struct cfg_section *s) { return s->kind; }
const char *cfg_name(const struct cfg_section *s) { return s->name; }
int cfg_line(const struct cfg_section *s) { return s->line; }
const char *cfg_file(const struct cfg *c) { return c->file; }

int cfg_has(const struct cfg_section *s, const char *key)
{
    return cfg_key_find(s, key) != NULL;
}

/* ---- getters ---------------------------------------------------------- */

/* Adds key to the section's valid keys; returns 1 the first time. */
static int cfg_mark_asked(struct cfg_section *s, const char *key)
{
    char **v, *k;

    for (int i = 0; i < s->nasked; i++)
        if (strcmp(s->asked[i], key) == 0)
            return 0;
    v = cfg_grow(s->cfg, s->asked, s->nasked, &s->capasked, sizeof *v);
    if (!v)
        return 0;
    s->asked = v;
    k = cfg_strdup(s->cfg, key);
    if (!k)
        return 0;
    s->asked[s->nasked++] = k;
    return 1;
}

static void cfg_param_add(struct cfg_section *s, const char *key, const char *value)
{
    struct cfg *c = s->cfg;
    struct cfg_param *p = cfg_grow(c, c->params, c->nparams, &c->capparams, sizeof *p);
    struct cfg_text t = { 0 };
    char *v;

    if (!p)
        return;
    c->params = p;
    cfg_text_add(&t, "%s%s%s.%s", s->kind, cfg_sep(s), s->name, key);
    v = cfg_strdup(c, value);
    if (t.oom || !v) {
        c->oom = 1;
        free(t.p);
        free(v);
        return;
    }
    c->params[c->nparams].key = t.p;
    c->params[c->nparams++].value = v;
}

/*
 * The text a getter parses: the value given, else def. Marks the key known
 * and, on the first ask, records the parameter. Returns NULL (error
 * recorded on the first ask) for a missing required key; for a sweep axis
 * records the error and returns def.
 */
static const char *cfg_lookup(struct cfg_section *s, const char *key, const char *def)
{
    struct cfg_key *k = cfg_key_find(s, key);
    const char *text = k ? k->value : def;
    int first = cfg_mark_asked(s, key);

    if (first && text)
        cfg_param_add(s, key, text);
    if (k && strstr(k->value, "${")) {
        if (!k->axis_reported)
            cfg_error(s, key, "'%s' is a sweep axis: use `netsim sweep`, not `netsim run`", k->value);
        k->axis_reported = 1;
        return def;
    }
    if (!text && first)
        cfg_error(s, NULL, "missing key '%s'", key);
    return text;
}

union cfg_val {
    int64_t i;
    uint64_t u;
    double d;
};

/* The getters' types: each is one row of cfg_types[] below. */
enum cfg_type { CFG_TIME, CFG_RATE, CFG_SIZE, CFG_PERCENT, CFG_INT, CFG_DOUBLE, CFG_BOOL, CFG_CHOICE };

/* Which member of union cfg_val a type's values and bounds live in. */
enum cfg_field { CFG_I, CFG_U, CFG_D };

/* The bounds a getter was given, in its type's member; cfg_choice's list. */
struct cfg_limits {
    union cfg_val lo, hi;
    const char *const *choices;
};

/* "64 to 4096", or "at least"/"at most" when one side is open. */
static int cfg_why_range(struct cfg_text *why, const char *lo, const char *hi, int has_lo, int has_hi)
{
    if (has_lo && has_hi)
        cfg_text_add(why, "%s to %s", lo, hi);
    else if (has_lo)
        cfg_text_add(why, "at least %s", lo);
    else
        cfg_text_add(why, "at most %s", hi);
    return -1;
}

/* A time as a user would write it: the largest unit that divides it. */
static void cfg_fmt_time(char *buf, size_t n, union cfg_val v)
{
    static const struct { const char *unit; int64_t ps; } u[] = {
        { "s", PS_PER_S }, { "ms", PS_PER_MS }, { "us", PS_PER_US }, { "ns", PS_PER_NS }, { "ps", 1 },
    };
    simtime_t t = v.i;
    size_t i = 0;

    if (t == 0) {
        snprintf(buf, n, "0");
        return;
    }
    while (t % u[i].ps != 0)
        i++;
    snprintf(buf, n, "%lld%s", (long long)(t / u[i].ps), u[i].unit);
}

/* A size as a user would write it: bytes below 64K, else K/M/G/T if exact. */
static void cfg_fmt_size(char *buf, size_t n, union cfg_val val)
{
    static const char suffix[] = "KMGT";
    uint64_t v = val.u;
    int i = -1;

    if (v >= 65536)
        while (i < 3 && v % 1024 == 0) {
            v /= 1024;
            i++;
        }
    if (i >= 0)
        snprintf(buf, n, "%llu%c", (unsigned long long)v, suffix[i]);
    else
        snprintf(buf, n, "%llu", (unsigned long long)v);
}

static void cfg_fmt_int(char *buf, size_t n, union cfg_val v)
{
    snprintf(buf, n, "%lld", (long long)v.i);
}

static void cfg_fmt_double(char *buf, size_t n, union cfg_val v)
{
    snprintf(buf, n, "%g", v.d);
}

/* parse_bool() into the int64_t member, so that it fits a row. */
static int cfg_parse_bool(const char *text, int64_t *out, const char **why)
{
    int b;

    if (parse_bool(text, &b, why) < 0)
        return -1;
    *out = b;
    return 0;
}

/*
 * How each type is read: the units.h parser for its member, and for a
 * type with bounds how a bound is written after "expected" (in the key's
 * units: "1us to 10s", "at least 64K"). A bound at its member's limit is
 * open, except that a time's or a size's lower bound always shows ("0 to
 * 10s"). cfg_choice matches its list instead (cfg_parse_value).
 */
static const struct cfg_type_row {
    enum cfg_field field;
    int (*parse_i)(const char *text, int64_t *out, const char **why);
    int (*parse_u)(const char *text, uint64_t *out, const char **why);
    int (*parse_d)(const char *text, double *out, const char **why);
    void (*fmt)(char *buf, size_t n, union cfg_val bound);   /* NULL: no bounds */
    int lo_shown;
} cfg_types[] = {
    [CFG_TIME]    = { CFG_I, .parse_i = parse_time, .fmt = cfg_fmt_time, .lo_shown = 1 },
    [CFG_RATE]    = { CFG_U, .parse_u = parse_rate },
    [CFG_SIZE]    = { CFG_U, .parse_u = parse_size, .fmt = cfg_fmt_size, .lo_shown = 1 },
    [CFG_PERCENT] = { CFG_D, .parse_d = parse_percent },
    [CFG_INT]     = { CFG_I, .parse_i = parse_int, .fmt = cfg_fmt_int },
    [CFG_DOUBLE]  = { CFG_D, .parse_d = parse_double, .fmt = cfg_fmt_double },
    [CFG_BOOL]    = { CFG_I, .parse_i = cfg_parse_bool },
    [CFG_CHOICE]  = { CFG_I },
};

static int cfg_less(enum cfg_field f, union cfg_val a, union cfg_val b)
{
    return f == CFG_I ? a.i < b.i : f == CFG_U ? a.u < b.u : a.d < b.d;
}

/* Is the bound open: the lowest (lo) or highest value of its member? */
static int cfg_open(enum cfg_field f, union cfg_val v, int lo)
{
    if (f == CFG_I)
        return lo ? v.i == INT64_MIN : v.i == INT64_MAX;
    if (f == CFG_U)
        return lo ? v.u == 0 : v.u == UINT64_MAX;
    return lo ? !(v.d > -DBL_MAX) : !(v.d < DBL_MAX);
}

static int cfg_parse_choice(const char *text, const struct cfg_limits *lim, union cfg_val *v, struct cfg_text *why)
{
    for (int i = 0; lim->choices[i]; i++) {
        if (strcmp(text, lim->choices[i]) == 0) {
            v->i = i;
            return 0;
        }
    }
    cfg_text_add(why, "one of: ");
    for (int i = 0; lim->choices[i]; i++)
        cfg_text_add(why, "%s%s", i ? ", " : "", lim->choices[i]);
    return -1;
}

/* Parses text as `type` into *v, or returns -1 with why, the phrase after
 * "expected". */
static int cfg_parse_value(enum cfg_type type, const char *text, const struct cfg_limits *lim, union cfg_val *v,
                           struct cfg_text *why)
{
    const struct cfg_type_row *t = &cfg_types[type];
    union cfg_val x = { 0 };
    const char *w;
    int rc;

    if (type == CFG_CHOICE)
        return cfg_parse_choice(text, lim, v, why);
    if (t->field == CFG_I)
        rc = t->parse_i(text, &x.i, &w);
    else if (t->field == CFG_U)
        rc = t->parse_u(text, &x.u, &w);
    else
        rc = t->parse_d(text, &x.d, &w);
    if (rc < 0) {
        cfg_text_add(why, "%s", w);
        return -1;
    }
    if (t->fmt && (cfg_less(t->field, x, lim->lo) || cfg_less(t->field, lim->hi, x))) {
        char lo[32], hi[32];
        t->fmt(lo, sizeof lo, lim->lo);
        t->fmt(hi, sizeof hi, lim->hi);
        return cfg_why_range(why, lo, hi, t->lo_shown || !cfg_open(t->field, lim->lo, 1),
                             !cfg_open(t->field, lim->hi, 0));
    }
    *v = x;
    return 0;
}

/*
 * The common getter: look the key up, parse, and on a bad value record
 * "got 'x', expected ..." and fall back to the parsed default (0 without
 * one), so that building goes on and every error is reported at once.
 */
static union cfg_val cfg_get(struct cfg_section *s, const char *key, const char *def, enum cfg_type type,
                             const struct cfg_limits *lim)
{
    union cfg_val v = { 0 }, zero = { 0 };
    struct cfg_text why = { 0 };
    const char *text = cfg_lookup(s, key, def);

    if (!text)
        return zero;
    if (cfg_parse_value(type, text, lim, &v, &why) == 0) {
        free(why.p);
        return v;
    }
    cfg_error(s, key, "got '%s', expected %s", text, why.p ? why.p : "another value");
    free(why.p);
    if (!def || text == def)
        return zero;
    why = (struct cfg_text){ 0 };
    if (cfg_parse_value(type, def, lim, &v, &why) < 0)
        v = zero;
    free(why.p);
    return v;
}

simtime_t cfg_time(struct cfg_section *s, const char *key, const char *def, simtime_t min, simtime_t max)
{
    struct cfg_limits lim = { .lo.i = min, .hi.i = max < CFG_TIME_MAX ? max : CFG_TIME_MAX };
    return cfg_get(s, key, def, CFG_TIME, &lim).i;
}

uint64_t cfg_rate(struct cfg_section *s, const char *key, const char *def)
{
    struct cfg_limits lim = { 0 };
    return cfg_get(s, key, def, CFG_RATE, &lim).u;
}

uint64_t cfg_size(struct cfg_section *s, const char *key, const char *def, uint64_t min, uint64_t max)
{
    struct cfg_limits lim = { .lo.u = min, .hi.u = max };
    return cfg_get(s, key, def, CFG_SIZE, &lim).u;
}

int cfg_split_sizes(const char *text, uint64_t *out, int n)
{
    char buf[CFG_MAX_LINE + 1];
    if (strlen(text) >= sizeof buf)
        return -1;
    memcpy(buf, text, strlen(text) + 1);
    int k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        const char *why = NULL;
        if (k == n || parse_size(tok, &out[k], &why))
            return -1;
        k++;
    }
    return k == n ? 0 : -1;
}

double cfg_percent(struct cfg_section *s, const char *key, const char *def)
{
    struct cfg_limits lim = { 0 };
    return cfg_get(s, key, def, CFG_PERCENT, &lim).d;
}

int64_t cfg_int(struct cfg_section *s, const char *key, const char *def, int64_t min, int64_t max)
{
    struct cfg_limits lim = { .lo.i = min, .hi.i = max };
    return cfg_get(s, key, def, CFG_INT, &lim).i;
}

double cfg_double(struct cfg_section *s, const char *key, const char *def, double min, double max)
{
    struct cfg_limits lim = { .lo.d = min, .hi.d = max };
    return cfg_get(s, key, def, CFG_DOUBLE, &lim).d;
}

int cfg_bool(struct cfg_section *s, const char *key, const char *def)
{
    struct cfg_limits lim = { 0 };
    return (int)cfg_get(s, key, def, CFG_BOOL, &lim).i;
}

int cfg_choice(struct cfg_section *s, const char *key, const char *def, const char *const *choices)
{
    struct cfg_limits lim = { .choices = choices };
    return (int)cfg_get(s, key, def, CFG_CHOICE, &lim).i;
}

const char *cfg_str(struct cfg_section *s, const char *key, const char *def)
{
    const char *text = cfg_lookup(s, key, def);
    return text ? text : "";
}

/* ---- errors ----------------------------------------------------------- */

/* "file:line: [kind name] key: " + what + the message: at the key's line,
 * or the section's when there is no key. NULL when out of memory. */
static char *cfg_section_msg(struct cfg_section *s, const char *key, const char *what, const char *fmt, va_list ap)
{
    struct cfg_key *k = key ? cfg_key_find(s, key) : NULL;
    char *msg = cfg_vformat(fmt, ap), *out;

    if (!msg) {
        s->cfg->oom = 1;
        return NULL;
    }
    if (key)
        out = cfg_format_at(s->cfg, k ? k->line : s->line, "[%s%s%s] %s: %s%s", s->kind, cfg_sep(s), s->name, key,
                            what, msg);
    else
        out = cfg_format_at(s->cfg, s->line, "[%s%s%s]: %s%s", s->kind, cfg_sep(s), s->name, what, msg);
    free(msg);
    return out;
}

void cfg_error(struct cfg_section *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_section_msg(s, key, "", fmt, ap);
    va_end(ap);
    if (msg)
        cfg_push_error(s->cfg, msg);
}

void cfg_error_global(struct cfg *c, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_vformat(fmt, ap);
    va_end(ap);
    if (!msg) {
        c->oom = 1;
        return;
    }
    cfg_push_error(c, msg);
}

int cfg_errors(const struct cfg *c)
{
    return c->nerrors + c->more_errors + (c->oom ? 1 : 0);
}

void cfg_print_errors(const struct cfg *c, FILE *f)
{
    for (int i = 0; i < c->nerrors; i++)
        fprintf(f, "%s\n", c->errors[i]);
    if (c->more_errors)
        fprintf(f, "%s: ... and %d more errors\n", c->file, c->more_errors);
    if (c->oom)
        fprintf(f, "%s: out of memory\n", c->file);
}

void cfg_warning(struct cfg_section *s, const char *key, const char *fmt, ...)
{
    struct cfg *c = s->cfg;
    va_list ap;
    char *w, **v;

    va_start(ap, fmt);
    w = cfg_section_msg(s, key, "warning: ", fmt, ap);
    va_end(ap);
    if (!w)
        return;
    for (int i = 0; i < c->nwarnings; i++)
        if (strcmp(c->warnings[i], w) == 0) {
            free(w);
            return;
        }
    v = cfg_grow(c, c->warnings, c->nwarnings, &c->capwarnings, sizeof *v);
    if (!v || c->nwarnings >= CFG_MAX_ERRORS) {
        free(w);
        return;
    }
    c->warnings = v;
    c->warnings[c->nwarnings++] = w;
}

int cfg_warning_count(const struct cfg *c)
{
    return c->nwarnings;
}

const char *cfg_warning_at(const struct cfg *c, int i)
{
    return i >= 0 && i < c->nwarnings ? c->warnings[i] : NULL;
}

/* Each warning text once per process: the runs of a sweep rebuild the same
 * file, and forked workers inherit what the parent printed. */
static void cfg_print_new_warnings(const struct cfg *c, FILE *f)
{
    static char *printed[64];
    static int nprinted;

    for (int i = 0; i < c->nwarnings; i++) {
        int seen = 0;
        for (int j = 0; j < nprinted && !seen; j++)
            seen = strcmp(printed[j], c->warnings[i]) == 0;
        if (seen || nprinted == 64)
            continue;
        printed[nprinted] = strdup(c->warnings[i]);
        if (printed[nprinted])
            nprinted++;
        fprintf(f, "%s\n", c->warnings[i]);
    }
}

/* ---- validation ------------------------------------------------------- */

void cfg_claim(struct cfg_section *s)
{
    s->claimed = 1;
}

void cfg_unchecked(struct cfg_section *s)
{
    s->unchecked = 1;
}

static int cfg_strcmp_p(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "flow, host, link": kinds of claimed sections, sorted, each once. */
static void cfg_known_kinds(const struct cfg *c, struct cfg_text *t)
{
    const char **v = malloc((size_t)c->nsections * sizeof *v + 1);
    int n = 0;

    if (!v) {
        t->oom = 1;
        return;
    }
    for (int i = 0; i < c->nsections; i++)
        if (c->sections[i]->claimed)
            v[n++] = c->sections[i]->kind;
    qsort(v, (size_t)n, sizeof *v, cfg_strcmp_p);
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
            cfg_text_add(t, "%s%s", i ? ", " : "", v[i]);
    free(v);
}

static int cfg_was_asked(const struct cfg_section *s, const char *key)
{
    for (int i = 0; i < s->nasked; i++)
        if (strcmp(s->asked[i], key) == 0)
            return 1;
    return 0;
}

int cfg_finish(struct cfg *c)
{
    struct cfg_text kinds = { 0 };

    if (c->finished)
        return cfg_errors(c);
    c->finished = 1;
    cfg_print_new_warnings(c, stderr);
    cfg_known_kinds(c, &kinds);
    for (int i = 0; i < c->nsections; i++) {
        struct cfg_section *s = c->sections[i];
        struct cfg_text valid = { 0 };

        if (!s->claimed) {
            if (kinds.p)
                cfg_report(c, s->line, "unknown section [%s%s%s]; known kinds: %s", s->kind, cfg_sep(s), s->name, kinds.p);
            else
                cfg_report(c, s->line, "unknown section [%s%s%s]", s->kind, cfg_sep(s), s->name);
            continue;
        }
        if (s->unchecked)
            continue;
        for (int j = 0; j < s->nasked; j++)
            cfg_text_add(&valid, "%s%s", j ? ", " : "", s->asked[j]);
        for (int j = 0; j < s->nkeys; j++) {
            if (cfg_was_asked(s, s->keys[j].key))
                continue;
            if (valid.p)
                cfg_report(c, s->keys[j].line, "[%s%s%s] unknown key '%s'; valid keys: %s",
                           s->kind, cfg_sep(s), s->name, s->keys[j].key, valid.p);
            else
                cfg_report(c, s->keys[j].line, "[%s%s%s] unknown key '%s'; this section takes no keys",
                           s->kind, cfg_sep(s), s->name, s->keys[j].key);
        }
        if (valid.oom)
            c->oom = 1;
        free(valid.p);
    }
    if (kinds.oom)
        c->oom = 1;
    free(kinds.p);
    return cfg_errors(c);
}

/* ---- parameters, axes, raw access -------------------------------------- */

int cfg_param_count(const struct cfg *c)
{
    return c->nparams;
}

void cfg_param_at(const struct cfg *c, int i, const char **key, const char **value)
{
    *key = c->params[i].key;
    *value = c->params[i].value;
}

int cfg_has_axes(const struct cfg *c, const struct cfg_section **s, const char **key)
{
    for (int i = 0; i < c->nsections; i++) {
        const struct cfg_section *t = c->sections[i];
        for (int j = 0; j < t->nkeys; j++) {
            if (strstr(t->keys[j].value, "${")) {
                if (s)
                    *s = t;
                if (key)
                    *key = t->keys[j].key;
                return 1;
            }
        }
    }
    if (s)
        *s = NULL;
    if (key)
        *key = NULL;
    return 0;
}

int cfg_key_count(const struct cfg_section *s)
{
    return s->nkeys;
}

void cfg_key_at(const struct cfg_section *s, int i, const char **key, const char **value, int *line)
{
    if (key)
        *key = s->keys[i].key;
    if (value)
        *value = s->keys[i].value;
    if (line)
        *line = s->keys[i].line;
}

void cfg_set_value(struct cfg_section *s, const char *key, const char *value)
{
    struct cfg_key *k = cfg_key_find(s, key);

    if (k)
        cfg_key_replace(s, k, value);
    else
        cfg_key_add(s, key, value, s->line);
}

struct cfg_section *cfg_section_ensure(struct cfg *c, const char *kind, const char *name)
{
    struct cfg_section *s = cfg_find(c, kind, name);
    if (s)
        return s;
    return cfg_section_add(c, kind, strlen(kind), name, strlen(name), 0);
}
