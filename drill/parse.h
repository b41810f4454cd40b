/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - the parser's state, shared by its two files: drill/parse.c
 * (the script, events, socket calls and their expressions) and
 * drill/parse_pkt.c (packets and TCP options).
 */
#ifndef NETSIM_DRILL_PARSE_H
#define NETSIM_DRILL_PARSE_H

#include <setjmp.h>
#include "drill/lex.h"
#include "drill/script.h"

struct parser {
    const char *path;
    struct tok *t;
    int n, i;
    char *err;
    int errlen;
    jmp_buf fail;                 /* the first error ends the parse */
    /* every expression made, so that a parse that fails half-way frees
     * those not yet hung on the script as well as those that are */
    struct drill_expr **made;
    int nmade;
};

static inline const struct tok *peek(const struct parser *p) { return &p->t[p->i]; }
static inline const struct tok *peek2(const struct parser *p)
{
    return &p->t[p->i + 1 < p->n ? p->i + 1 : p->n - 1];
}
static inline bool is_punct(const struct tok *t, char c) { return t->kind == TK_PUNCT && t->c == c; }

/* "path:line: expected WHAT, got TOKEN": says so and leaves the parse */
_Noreturn void parse_expected(struct parser *p, const char *what);
/* a semantic error at a line: "path:line: MSG" */
_Noreturn void parse_fail(struct parser *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void expect_punct(struct parser *p, char c);
int64_t expect_int(struct parser *p, const char *what, int64_t lo, int64_t hi);
bool accept_word(struct parser *p, const char *w);

/* parse_pkt.c: after the direction (< or >), the rest of the packet */
void parse_packet(struct parser *p, struct drill_packet *pk, bool inbound);

#endif
