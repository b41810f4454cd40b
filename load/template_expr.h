/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * template_expr.h - a template's value as one of its sections has it:
 * "{}" and "{EXPR}", an integer expression over the section's number n
 * ([link h{1..128}] with ends = h{}:eth0 leaf{(n-1)/16+1}:eth{(n-1)%16}),
 * replaced by their value. load/config_read.c calls it for each section
 * a template makes.
 *
 * EXPR: decimal numbers, n, binary + - * / %, unary -, parentheses (at
 * most TPL_EXPR_DEPTH deep) and spaces, with C's precedence and its
 * truncating / and % on long. Braces are an expression only when all
 * they hold is such text and an n, and the '{' does not follow a '$':
 * ranges (s{1..16}) and sweep axes (${a, b}) stay as written.
 */
#ifndef NETSIM_LOAD_TEMPLATE_EXPR_H
#define NETSIM_LOAD_TEMPLATE_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#define TPL_EXPR_DEPTH 64

/* Is s[0..len), the text between a '{' and the next '}', an expression? */
bool tpl_is_expr(const char *s, size_t len);

/* The expression s[0..len) for this n: 0 and *out, or -1 with one line
 * in why (at most nwhy bytes) quoting it and saying what was wrong: a
 * syntax error (what was expected where), a division or remainder by
 * zero, an overflow of long, or a value below 0. */
int tpl_expr_eval(const char *s, size_t len, long n, long *out, char *why, size_t nwhy);

/* value with every "{}" and "{EXPR}" replaced for section number n, in
 * a new string (free it); NULL with why as tpl_expr_eval's. */
char *tpl_expand(const char *value, long n, char *why, size_t nwhy);

#endif
