/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.c - a packetdrill script into a struct drill_script: the options
 * (--name=value), an init command, the events (a time, then a packet, a
 * socket call, a command or a code block) and a cleanup command. The
 * grammar is packetdrill's parser.y, written again as recursive descent;
 * the first error ends the parse with "path:line: expected WHAT, got TOKEN".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drill/parse.h"
#include "sim/xalloc.h"

void parse_expected(struct parser *p, const char *what)
{
    char got[64];
    tok_describe(peek(p), got, sizeof got);
    snprintf(p->err, (size_t)p->errlen, "%s:%d: expected %s, got %s", p->path, peek(p)->line, what, got);
    longjmp(p->fail, 1);
}

void parse_fail(struct parser *p, int line, const char *fmt, ...)
{
    int k = snprintf(p->err, (size_t)p->errlen, "%s:%d: ", p->path, line);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && k < p->errlen)
        vsnprintf(p->err + k, (size_t)(p->errlen - k), fmt, ap);
    va_end(ap);
    longjmp(p->fail, 1);
}

void expect_punct(struct parser *p, char c)
{
    if (!is_punct(peek(p), c)) {
        char w[8] = { '\'', c, '\'', 0 };
        parse_expected(p, w);
    }
    p->i++;
}

int64_t expect_int(struct parser *p, const char *what, int64_t lo, int64_t hi)
{
    const struct tok *t = peek(p);
    if (t->kind != TK_INT)
        parse_expected(p, what);
    if (t->i < lo || t->i > hi)
        parse_fail(p, t->line, "%s %lld out of range (%lld to %lld)", what, (long long)t->i, (long long)lo,
                    (long long)hi);
    p->i++;
    return t->i;
}

bool accept_word(struct parser *p, const char *w)
{
    if (peek(p)->kind == TK_WORD && !strcmp(peek(p)->text, w)) {
        p->i++;
        return true;
    }
    return false;
}

/* ---- expressions: a socket call's arguments and result ---- */

static struct drill_expr *new_expr(struct parser *p, enum drill_expr_kind k)
{
    struct drill_expr *e = xcalloc(1, sizeof *e);
    e->kind = k;
    if (!(p->nmade & (p->nmade + 1)))   /* 0, 1, 3, 7, ...: double the room */
        p->made = xrealloc(p->made, sizeof *p->made * (size_t)(2 * p->nmade + 2));
    p->made[p->nmade++] = e;
    return e;
}

static void add_kid(struct drill_expr *e, struct drill_expr *k)
{
    e->kids = xrealloc(e->kids, sizeof *e->kids * (size_t)(e->nkids + 1));
    e->kids[e->nkids++] = k;
}

static struct drill_expr *parse_expr(struct parser *p);

/* elements up to the closing character, comma-separated, into e */
static void parse_list_into(struct parser *p, struct drill_expr *e, char close)
{
    if (is_punct(peek(p), close)) {
        p->i++;
        return;
    }
    for (;;) {
        add_kid(e, parse_expr(p));
        if (is_punct(peek(p), ',')) {
            p->i++;
            continue;
        }
        char w[32];
        snprintf(w, sizeof w, "',' or '%c'", close);
        if (!is_punct(peek(p), close))
            parse_expected(p, w);
        p->i++;
        return;
    }
}

static struct drill_expr *parse_primary(struct parser *p)
{
    const struct tok *t = peek(p);
    struct drill_expr *e;
    switch (t->kind) {
    case TK_ELLIPSIS:
        p->i++;
        return new_expr(p, DE_ELLIPSIS);
    case TK_INT:
        p->i++;
        e = new_expr(p, DE_INT);
        e->num = t->i;
        return e;
    case TK_STRING:
        e = new_expr(p, DE_STRING);
        e->str = xstrdup(t->text);
        p->i++;
        while (peek(p)->kind == TK_STRING) {          /* "a" "b": one string */
            char *s = xasprintf("%s%s", e->str, peek(p)->text);
            free(e->str);
            e->str = s;
            p->i++;
        }
        if (peek(p)->kind == TK_ELLIPSIS) {
            e->str_more = true;
            p->i++;
        }
        return e;
    case TK_WORD:
        p->i++;
        if (is_punct(peek(p), '(')) {                  /* htons(8080), msg_iov(1) */
            p->i++;
            e = new_expr(p, DE_CALL);
            e->str = xstrdup(t->text);
            parse_list_into(p, e, ')');
        } else {
            e = new_expr(p, DE_WORD);
            e->str = xstrdup(t->text);
        }
        if (is_punct(peek(p), '=')) {                  /* sa_family=AF_INET, msg_iov(1)=[...] */
            p->i++;
            struct drill_expr *a = new_expr(p, DE_ASSIGN);
            a->str = xstrdup(t->text);
            add_kid(a, e);
            add_kid(a, parse_expr(p));
            return a;
        }
        return e;
    case TK_PUNCT:
        if (t->c == '[' || t->c == '{') {
            p->i++;
            e = new_expr(p, t->c == '[' ? DE_LIST : DE_STRUCT);
            parse_list_into(p, e, t->c == '[' ? ']' : '}');
            return e;
        }
        break;
    default:
        break;
    }
    parse_expected(p, "an expression");
}

static struct drill_expr *parse_expr(struct parser *p)
{
    struct drill_expr *e = parse_primary(p);
    while (is_punct(peek(p), '|')) {
        p->i++;
        struct drill_expr *o = new_expr(p, DE_OR);
        add_kid(o, e);
        add_kid(o, parse_primary(p));
        e = o;
    }
    return e;
}

/* ---- events ---- */

/* a time in microseconds: an integer or a float number of seconds */
static int64_t parse_time(struct parser *p)
{
    const struct tok *t = peek(p);
    double s;
    if (t->kind == TK_INT && !t->is_hex)
        s = (double)t->i;
    else if (t->kind == TK_FLOAT)
        s = t->f;
    else
        parse_expected(p, "a time");
    if (s < 0)
        parse_fail(p, t->line, "negative time");
    if (s > 1e6)
        parse_fail(p, t->line, "time %g s is beyond 10^6 s", s);
    p->i++;
    /* rounded, not truncated: 0.3 s is 300000 us, not 299999 */
    return llround(s * 1e6);
}

static void parse_event_time(struct parser *p, struct drill_event *ev)
{
    ev->line = peek(p)->line;
    if (is_punct(peek(p), '*')) {
        p->i++;
        ev->tkind = DT_ANY;
        return;
    }
    bool rel = is_punct(peek(p), '+');
    if (rel)
        p->i++;
    ev->t_us = parse_time(p);
    ev->tkind = rel ? DT_REL : DT_ABS;
    if (!is_punct(peek(p), '~'))
        return;
    p->i++;
    if (rel)
        expect_punct(p, '+');
    ev->t_end_us = parse_time(p);
    ev->tkind = rel ? DT_REL_RANGE : DT_ABS_RANGE;
    if (ev->t_end_us < ev->t_us)
        parse_fail(p, ev->line, "time range is backwards");
}

static void parse_call(struct parser *p, struct drill_call *c)
{
    if (peek(p)->kind == TK_ELLIPSIS) {               /* ... END call(...): a blocking call */
        p->i++;
        c->blocking = true;
        c->end_us = parse_time(p);
    }
    if (peek(p)->kind != TK_WORD)
        parse_expected(p, "a packet (< or >), a system call, a `command` or a %{ code }% block");
    c->name = xstrdup(peek(p)->text);
    p->i++;
    expect_punct(p, '(');
    int held = p->nmade;
    struct drill_expr *args = new_expr(p, DE_LIST);   /* the parser's until the list is whole */
    parse_list_into(p, args, ')');
    c->args = args->kids;
    c->nargs = args->nkids;
    free(args);
    p->made[held] = NULL;
    expect_punct(p, '=');
    int ret_line = peek(p)->line;
    c->ret = parse_expr(p);
    /* packetdrill wants a note after the errno; a word on the next line
     * is the next thing, not an errno */
    if (peek(p)->kind == TK_WORD && peek(p)->line == ret_line) {                   /* = -1 EINPROGRESS (Operation now in progress) */
        c->err = xstrdup(peek(p)->text);
        p->i++;
    }
    if (is_punct(peek(p), '(')) {                     /* the note: any words up to ')' */
        int line = peek(p)->line;
        p->i++;
        size_t len = 0;
        c->note = xstrdup("");   /* the call's from the start: an error below frees it with the script */
        while (!is_punct(peek(p), ')')) {
            if (peek(p)->kind == TK_EOF || peek(p)->line != line)
                parse_expected(p, "')' closing the note");
            const char *w = peek(p)->text ? peek(p)->text : "";
            c->note = xrealloc(c->note, len + strlen(w) + 2);
            len += (size_t)sprintf(c->note + len, "%s%s", len ? " " : "", w);
            p->i++;
        }
        p->i++;
    }
}

static void parse_event(struct parser *p, struct drill_event *ev)
{
    parse_event_time(p, ev);
    const struct tok *t = peek(p);
    if (is_punct(t, '<') || is_punct(t, '>')) {
        p->i++;
        ev->kind = DV_PACKET;
        parse_packet(p, &ev->pkt, t->c == '<');
    } else if (t->kind == TK_BACKQUOTE) {
        ev->kind = DV_COMMAND;
        ev->text = xstrdup(t->text);
        p->i++;
    } else if (t->kind == TK_CODE) {
        ev->kind = DV_CODE;
        ev->text = xstrdup(t->text);
        p->i++;
    } else {
        ev->kind = DV_CALL;
        parse_call(p, &ev->call);
    }
    /* packetdrill's rule: only an expected packet may be at any time or
     * in a range */
    if ((ev->tkind == DT_ANY || ev->tkind == DT_ABS_RANGE || ev->tkind == DT_REL_RANGE) &&
        !(ev->kind == DV_PACKET && !ev->pkt.inbound))
        parse_fail(p, ev->line, "a time %s can only be used with outbound packets",
                   ev->tkind == DT_ANY ? "'*'" : "range");
}

static bool at_event_start(const struct parser *p)
{
    const struct tok *t = peek(p);
    return t->kind == TK_INT || t->kind == TK_FLOAT || is_punct(t, '+') || is_punct(t, '*');
}

static void parse_script(struct parser *p, struct drill_script *s)
{
    while (peek(p)->kind == TK_OPTION) {
        const char *t = peek(p)->text, *eq = strchr(t, '=');
        struct drill_option o = { eq ? xstrndup(t, (size_t)(eq - t)) : xstrdup(t), NULL };
        if (eq) {
            /* "--define=CC=\"reno\"": the value as written, quotes off */
            size_t n = strlen(eq + 1);
            o.value = n >= 2 && eq[1] == '"' && eq[n] == '"' ? xstrndup(eq + 2, n - 2) : xstrdup(eq + 1);
        }
        p->i++;
        s->opts = xrealloc(s->opts, sizeof *s->opts * (size_t)(s->nopts + 1));
        s->opts[s->nopts++] = o;
    }
    if (peek(p)->kind == TK_BACKQUOTE) {
        s->init_cmd = xstrdup(peek(p)->text);
        s->init_line = peek(p)->line;
        p->i++;
    }
    int cap = 0;
    while (at_event_start(p)) {
        if (s->nev == cap) {
            cap = cap ? 2 * cap : 32;
            s->ev = xrealloc(s->ev, sizeof *s->ev * (size_t)cap);
        }
        struct drill_event *ev = &s->ev[s->nev++];
        memset(ev, 0, sizeof *ev);
        ev->pkt.win = ev->pkt.urg = ev->pkt.tos = -1;
        ev->pkt.ecn = DECN_UNSET;
        parse_event(p, ev);
    }
    if (peek(p)->kind == TK_BACKQUOTE) {
        s->cleanup_cmd = xstrdup(peek(p)->text);
        s->cleanup_line = peek(p)->line;
        p->i++;
    }
    if (peek(p)->kind != TK_EOF)
        parse_expected(p, s->nev ? "an event time (0.1, +0.1, *) or end of file" : "an event time (0.1, +0.1, *)");
    if (!s->nev)
        parse_fail(p, peek(p)->line, "a script needs at least one event");
}

static void script_free(struct drill_script *s, bool exprs);

struct drill_script *drill_parse(const char *path, const char *text, char *err, int errlen)
{
    struct parser p = { .path = path, .err = err, .errlen = errlen };
    p.t = lex_all(text, &p.n);
    struct drill_script *s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path);
    if (setjmp(p.fail)) {
        /* every expression, hung on the script or not, once; then the
         * script without its expressions */
        for (int i = 0; i < p.nmade; i++) {
            if (!p.made[i])
                continue;
            free(p.made[i]->kids);
            free(p.made[i]->str);
            free(p.made[i]);
        }
        free(p.made);
        lex_free(p.t, p.n);
        script_free(s, false);
        return NULL;
    }
    parse_script(&p, s);
    free(p.made);
    lex_free(p.t, p.n);
    return s;
}

struct drill_script *drill_parse_file(const char *path, char *err, int errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, (size_t)errlen, "%s: cannot open", path);
        return NULL;
    }
    size_t cap = 4096, n = 0, r;
    char *buf = xmalloc(cap);
    while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = 0;
    struct drill_script *s = drill_parse(path, buf, err, errlen);
    free(buf);
    return s;
}

void drill_expr_free(struct drill_expr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nkids; i++)
        drill_expr_free(e->kids[i]);
    free(e->kids);
    free(e->str);
    free(e);
}

/* exprs: free the calls' expressions too (false: a failed parse freed
 * every expression it made itself) */
static void script_free(struct drill_script *s, bool exprs)
{
    if (!s)
        return;
    for (int i = 0; i < s->nev; i++) {
        struct drill_event *ev = &s->ev[i];
        for (int k = 0; exprs && k < ev->call.nargs; k++)
            drill_expr_free(ev->call.args[k]);
        free(ev->call.args);
        if (exprs)
            drill_expr_free(ev->call.ret);
        free(ev->call.name);
        free(ev->call.err);
        free(ev->call.note);
        free(ev->text);
        for (int k = 0; k < ev->pkt.nopts; k++)
            free(ev->pkt.opts[k].blob);
        free(ev->pkt.icmp_type);
        free(ev->pkt.icmp_code);
    }
    for (int i = 0; i < s->nopts; i++) {
        free(s->opts[i].name);
        free(s->opts[i].value);
    }
    free(s->opts);
    free(s->ev);
    free(s->init_cmd);
    free(s->cleanup_cmd);
    free(s->path);
    free(s);
}

void drill_script_free(struct drill_script *s)
{
    script_free(s, true);
}

static void fmt_into(const struct drill_expr *e, char *buf, int len, int *at)
{
#define PUT(...) do { if (*at < len) *at += snprintf(buf + *at, (size_t)(len - *at), __VA_ARGS__); } while (0)
    switch (e->kind) {
    case DE_ELLIPSIS: PUT("..."); break;
    case DE_INT: PUT("%lld", (long long)e->num); break;
    case DE_WORD: PUT("%s", e->str); break;
    case DE_STRING: PUT("\"%s\"%s", e->str, e->str_more ? "..." : ""); break;
    case DE_OR:
        fmt_into(e->kids[0], buf, len, at);
        PUT("|");
        fmt_into(e->kids[1], buf, len, at);
        break;
    case DE_ASSIGN:
        fmt_into(e->kids[0], buf, len, at);
        PUT("=");
        fmt_into(e->kids[1], buf, len, at);
        break;
    case DE_LIST:
    case DE_STRUCT:
    case DE_CALL:
        if (e->kind == DE_CALL)
            PUT("%s(", e->str);
        else
            PUT("%c", e->kind == DE_LIST ? '[' : '{');
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                PUT(", ");
            fmt_into(e->kids[i], buf, len, at);
        }
        PUT("%c", e->kind == DE_LIST ? ']' : e->kind == DE_CALL ? ')' : '}');
        break;
    }
#undef PUT
}

void drill_expr_format(const struct drill_expr *e, char *buf, int len)
{
    int at = 0;
    if (len > 0)
        buf[0] = 0;
    fmt_into(e, buf, len, &at);
}
