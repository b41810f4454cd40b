/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lex.c - a packetdrill script's tokens. The rules follow packetdrill's
 * lexer (longest match): "1:1001(1000)" is INT ':' INT '(' INT ')', ".01"
 * a float, "0x1f" a hex integer, "-1" a negative integer, "1.2.3.4" an
 * IPv4 address, "..." an ellipsis; comments are // to the end of the line
 * and C's; `...` is a shell command and %{ ... }% a code block, each one
 * token whatever lines it spans. An IPv6 address has no token of its own
 * (its digits and colons lex as numbers, words and ':'), as none of the
 * scripts netsim runs writes one outside `ipv6 A > B:` prefixes, which the
 * parser does not take yet.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drill/lex.h"
#include "sim/xalloc.h"

static char *dup_n(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static bool is_word(int c) { return isalnum(c) || c == '_'; }

/* the length of an IPv4 address at s ([0-9]+ . x4), 0 if none */
static size_t ipv4_len(const char *s)
{
    size_t k = 0;
    for (int part = 0; part < 4; part++) {
        if (part) {
            if (s[k] != '.')
                return 0;
            k++;
        }
        size_t d = k;
        while (isdigit((unsigned char)s[k]))
            k++;
        if (k == d)
            return 0;
    }
    return is_word((unsigned char)s[k]) ? 0 : k;
}

struct tok *lex_all(const char *text, int *n)
{
    int cap = 64, cnt = 0, line = 1;
    struct tok *v = xmalloc(sizeof *v * (size_t)cap);
    const char *p = text;
    for (;;) {
        /* blanks and comments */
        for (;;) {
            if (*p == '\n')
                line++, p++;
            else if (isspace((unsigned char)*p))
                p++;
            else if (p[0] == '/' && p[1] == '/')
                while (*p && *p != '\n')
                    p++;
            else if (p[0] == '/' && p[1] == '*') {
                const char *e = strstr(p + 2, "*/");
                const char *end = e ? e + 2 : p + strlen(p);
                for (; p < end; p++)
                    line += *p == '\n';
            } else
                break;
        }
        if (cnt + 1 >= cap) {
            cap *= 2;
            v = xrealloc(v, sizeof *v * (size_t)cap);
        }
        struct tok *t = &v[cnt++];
        memset(t, 0, sizeof *t);
        t->line = line;
        if (!*p) {
            t->kind = TK_EOF;
            break;
        }
        const char *s = p;
        size_t k;
        if ((k = ipv4_len(p))) {
            t->kind = TK_IPV4;
            p += k;
        } else if (p[0] == '.' && p[1] == '.' && p[2] == '.') {
            t->kind = TK_ELLIPSIS;
            p += 3;
        } else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
            t->kind = TK_INT;
            t->is_hex = true;
            t->i = (int64_t)strtoull(p, (char **)&p, 16);
        } else if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '.') && (isdigit((unsigned char)p[1]) ||
                                                  (p[0] == '-' && p[1] == '.' && isdigit((unsigned char)p[2]))))) {
            /* [-]?[0-9]+ or [-]?[0-9]*[.][0-9]+, the longer; then a
             * word if letters follow the digits (packetdrill's words may
             * start with digits) */
            const char *q = p + (*p == '-');
            while (isdigit((unsigned char)*q))
                q++;
            bool fl = q[0] == '.' && isdigit((unsigned char)q[1]);
            if (fl) {
                q++;
                while (isdigit((unsigned char)*q))
                    q++;
            }
            if (*p != '-' && !fl && is_word((unsigned char)*q)) {
                while (is_word((unsigned char)*q))
                    q++;
                t->kind = TK_WORD;
            } else if (fl) {
                t->kind = TK_FLOAT;
                t->f = strtod(p, NULL);
            } else {
                t->kind = TK_INT;
                t->i = strtoll(p, NULL, 10);
            }
            p = q;
        } else if (is_word((unsigned char)*p)) {
            while (is_word((unsigned char)*p))
                p++;
            t->kind = TK_WORD;
        } else if (p[0] == '-' && p[1] == '-' && is_word((unsigned char)p[2])) {
            p += 2;
            s = p;
            while (is_word((unsigned char)*p))
                p++;
            /* --name=VALUE: the value runs to the next blank, as an IPv6
             * address (--local_ip=fd::1) has no token of its own */
            if (*p == '=')
                while (*p && !isspace((unsigned char)*p))
                    p++;
            t->kind = TK_OPTION;
        } else if (*p == '"' || *p == '`') {
            char q = *p++;
            s = p;
            while (*p && *p != q) {
                if (*p == '\\' && p[1])
                    p++;
                line += *p == '\n';
                p++;
            }
            if (!*p) {
                t->kind = TK_BAD;
                t->text = dup_n(q == '"' ? "an unclosed string" : "an unclosed `command`", q == '"' ? 18 : 21);
                continue;
            }
            t->kind = q == '"' ? TK_STRING : TK_BACKQUOTE;
            t->text = dup_n(s, (size_t)(p - s));
            p++;
            continue;
        } else if (p[0] == '%' && p[1] == '{') {
            const char *e = strstr(p + 2, "}%");
            if (!e) {
                t->kind = TK_BAD;
                t->text = dup_n("an unclosed %{ code block", 25);
                p += strlen(p);
                continue;
            }
            t->kind = TK_CODE;
            t->text = dup_n(p + 2, (size_t)(e - p - 2));
            for (; p < e + 2; p++)
                line += *p == '\n';
            continue;
        } else {
            t->kind = isprint((unsigned char)*p) ? TK_PUNCT : TK_BAD;
            t->c = *p++;
        }
        t->text = dup_n(s, (size_t)(p - s));
    }
    *n = cnt;
    return v;
}

void lex_free(struct tok *t, int n)
{
    for (int i = 0; i < n; i++)
        free(t[i].text);
    free(t);
}

void tok_describe(const struct tok *t, char *buf, int len)
{
    switch (t->kind) {
    case TK_EOF: snprintf(buf, (size_t)len, "end of file"); break;
    case TK_STRING: snprintf(buf, (size_t)len, "a string"); break;
    case TK_BACKQUOTE: snprintf(buf, (size_t)len, "a `command`"); break;
    case TK_CODE: snprintf(buf, (size_t)len, "a %%{ code }%% block"); break;
    case TK_OPTION: snprintf(buf, (size_t)len, "option '--%s'", t->text); break;
    case TK_BAD:
        if (t->text)
            snprintf(buf, (size_t)len, "%s", t->text);
        else
            snprintf(buf, (size_t)len, "character 0x%02x", (unsigned char)t->c);
        break;
    default: snprintf(buf, (size_t)len, "'%s'", t->text ? t->text : "?"); break;
    }
}
