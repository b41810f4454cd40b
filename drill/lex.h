/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lex.h - the tokens of a packetdrill script (drill/lex.c), for the
 * parser's files only.
 */
#ifndef NETSIM_DRILL_LEX_H
#define NETSIM_DRILL_LEX_H

#include <stdbool.h>
#include <stdint.h>

enum tok_kind {
    TK_EOF,
    TK_INT,                       /* 12, -1, 0x1f (hex: is_hex) */
    TK_FLOAT,                     /* .5, 0.100 */
    TK_WORD,                      /* [A-Za-z0-9_]+ that is not a number */
    TK_STRING,                    /* "..." (text: without the quotes, escapes kept) */
    TK_BACKQUOTE,                 /* `...` */
    TK_CODE,                      /* %{ ... }% (text: the inside) */
    TK_OPTION,                    /* --name or --name=VALUE (text: without the dashes) */
    TK_ELLIPSIS,                  /* ... */
    TK_IPV4,                      /* 192.168.0.1 */
    TK_PUNCT,                     /* one character: c */
    TK_BAD,                       /* a character no token starts with, or an unclosed one */
};

struct tok {
    enum tok_kind kind;
    int line;
    char c;                       /* TK_PUNCT */
    bool is_hex;
    int64_t i;                    /* TK_INT */
    double f;                     /* TK_FLOAT */
    char *text;                   /* malloc'ed: the token as written, or its inside */
};

/* All the tokens of text, ending with one TK_EOF; *n their count.
 * malloc'ed, free with lex_free. Never fails: what it cannot read is a
 * TK_BAD token, which the parser reports. */
struct tok *lex_all(const char *text, int *n);
void lex_free(struct tok *t, int n);
/* "'win'", "end of file", "'<'": a token for a message */
void tok_describe(const struct tok *t, char *buf, int len);

#endif
