/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * template_expr.c - "{}" and "{EXPR}" in a template's values, for each
 * section the template makes (the contract is in load/template_expr.h).
 * A leaf-spine fabric's wiring is arithmetic on the host's number, host
 * 17 on leaf 2 port 0 with 16 a leaf, and this is that arithmetic.
 *
 * Braces already mean other things in a value, {LO..HI} ranges and
 * ${a, b} sweep axes, so only braces holding nothing but expression text
 * and an n are an expression: a range has its dots, an axis its '$', and
 * neither is touched.
 *
 * The arithmetic is C's on long, but nothing may go wrong quietly: a
 * wrapped or negative number would name a host or port nobody meant, so
 * an overflow (each operation checked), a division or remainder by zero
 * and a negative result are errors. A syntax error is reported before
 * any of these, as it is the same for every section and the one to fix
 * first. Parentheses recurse; their depth is bounded, so that no input
 * (the loader is fuzzed) can exhaust the stack.
 */
#include "load/template_expr.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* One expression being read and computed. */
struct ex {
    const char *b, *p, *e;   /* the text between the braces; p: next to read */
    long n;
    int depth;               /* parentheses open */
    bool failed;             /* an arithmetic error is in why; reading goes on for a syntax error */
    char *why;
    size_t nwhy;
};

static const char EX_CHARS[] = "0123456789n+-*/%() \t";

bool tpl_is_expr(const char *s, size_t len)
{
    bool has_n = false;
    for (size_t i = 0; i < len; i++) {
        if (!s[i] || !strchr(EX_CHARS, s[i]))
            return false;
        has_n |= s[i] == 'n';
    }
    return has_n;
}

static void ex_say(struct ex *x, const char *fmt, va_list ap)
{
    int k = snprintf(x->why, x->nwhy, "'{%.*s}': ", (int)(x->e - x->b), x->b);
    if (k >= 0 && (size_t)k < x->nwhy)
        vsnprintf(x->why + k, x->nwhy - (size_t)k, fmt, ap);
}

/* A syntax error, where x->p stands: always reported, reading stops. */
__attribute__((format(printf, 2, 3))) static int ex_syntax(struct ex *x, const char *fmt, ...)
{
    char what[120];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (x->p == x->e)
        snprintf(x->why, x->nwhy, "'{%.*s}': %s before '}'", (int)(x->e - x->b), x->b, what);
    else
        snprintf(x->why, x->nwhy, "'{%.*s}': %s at '%.*s}'", (int)(x->e - x->b), x->b, what,
                 (int)(x->e - x->p), x->p);
    return -1;
}

/* An arithmetic error: the first is kept, reading goes on. */
__attribute__((format(printf, 2, 3))) static void ex_arith(struct ex *x, const char *fmt, ...)
{
    if (x->failed)
        return;
    x->failed = true;
    va_list ap;
    va_start(ap, fmt);
    ex_say(x, fmt, ap);
    va_end(ap);
}

static void ex_space(struct ex *x)
{
    while (x->p < x->e && (*x->p == ' ' || *x->p == '\t'))
        x->p++;
}

static const char EX_OPERAND[] = "expected a number, 'n', '-' or '('";

static int ex_sum(struct ex *x, long *v);

static int ex_number(struct ex *x, long *v)
{
    const char *b = x->p;
    bool big = false;
    *v = 0;
    for (; x->p < x->e && *x->p >= '0' && *x->p <= '9'; x->p++)
        big |= __builtin_mul_overflow(*v, 10L, v) || __builtin_add_overflow(*v, (long)(*x->p - '0'), v);
    int digits = (int)(x->p - b);
    if (b[0] == '0' && digits > 1) {
        x->p = b;
        return ex_syntax(x, "expected a decimal number, not %.*s (C reads a leading 0 as octal)", digits, b);
    }
    if (big)
        ex_arith(x, "overflow: %.*s is above %ld", digits, b, LONG_MAX);
    return 0;
}

static int ex_primary(struct ex *x, long *v)
{
    ex_space(x);
    if (x->p < x->e && *x->p == 'n') {
        x->p++;
        *v = x->n;
        return 0;
    }
    if (x->p < x->e && *x->p >= '0' && *x->p <= '9')
        return ex_number(x, v);
    if (x->p == x->e || *x->p != '(')
        return ex_syntax(x, "%s", EX_OPERAND);
    if (x->depth == TPL_EXPR_DEPTH)
        return ex_syntax(x, "more than %d nested parentheses", TPL_EXPR_DEPTH);
    x->p++;
    x->depth++;
    if (ex_sum(x, v))
        return -1;
    x->depth--;
    ex_space(x);
    if (x->p == x->e)
        return ex_syntax(x, "expected ')'");
    if (*x->p != ')')
        return ex_syntax(x, "expected an operator or ')'");
    x->p++;
    return 0;
}

/* Unary minus is read in a loop, not by recursion: "- - - n" costs no
 * stack. Each negation is checked, as C's -LONG_MIN overflows. */
static int ex_unary(struct ex *x, long *v)
{
    int neg = 0;
    for (ex_space(x); x->p < x->e && *x->p == '-'; ex_space(x)) {
        x->p++;
        neg++;
    }
    if (ex_primary(x, v))
        return -1;
    for (; neg > 0; neg--) {
        long was = *v;
        if (__builtin_sub_overflow(0L, was, v))
            ex_arith(x, "overflow: -(%ld) is above %ld", was, LONG_MAX);
    }
    return 0;
}

static int ex_product(struct ex *x, long *v)
{
    if (ex_unary(x, v))
        return -1;
    for (;;) {
        ex_space(x);
        if (x->p == x->e || (*x->p != '*' && *x->p != '/' && *x->p != '%'))
            return 0;
        char op = *x->p++;
        long a = *v, r;
        if (ex_unary(x, &r))
            return -1;
        if (op == '*') {
            if (__builtin_mul_overflow(a, r, v))
                ex_arith(x, "overflow: %ld * %ld does not fit in a long (64 bits)", a, r);
        } else if (r == 0) {
            ex_arith(x, "%s by zero: %ld %c 0", op == '/' ? "division" : "remainder", a, op);
            *v = 0;
        } else if (a == LONG_MIN && r == -1) {
            ex_arith(x, "overflow: %ld %c -1 does not fit in a long (64 bits)", a, op);
            *v = 0;
        } else {
            *v = op == '/' ? a / r : a % r;
        }
    }
}

static int ex_sum(struct ex *x, long *v)
{
    if (ex_product(x, v))
        return -1;
    for (;;) {
        ex_space(x);
        if (x->p == x->e || (*x->p != '+' && *x->p != '-'))
            return 0;
        char op = *x->p++;
        long a = *v, r;
        if (ex_product(x, &r))
            return -1;
        if (op == '+' ? __builtin_add_overflow(a, r, v) : __builtin_sub_overflow(a, r, v))
            ex_arith(x, "overflow: %ld %c %ld does not fit in a long (64 bits)", a, op, r);
    }
}

int tpl_expr_eval(const char *s, size_t len, long n, long *out, char *why, size_t nwhy)
{
    struct ex x = { .b = s, .p = s, .e = s + len, .n = n, .why = why, .nwhy = nwhy };
    long v = 0;
    if (ex_sum(&x, &v))
        return -1;
    if (x.p < x.e && *x.p == ')')
        return ex_syntax(&x, "')' without its '('");
    if (x.p < x.e)
        return ex_syntax(&x, "expected an operator (+ - * / %%) or '}'");
    if (x.failed)
        return -1;
    if (v < 0) {
        snprintf(why, nwhy, "'{%.*s}' is %ld for n = %ld: a template's number cannot be negative (it names a "
                 "host, a port or a section)", (int)len, s, v, n);
        return -1;
    }
    *out = v;
    return 0;
}

char *tpl_expand(const char *value, long n, char *why, size_t nwhy)
{
    size_t len = strlen(value), opens = 0;
    for (const char *p = value; (p = strchr(p, '{')); p++)
        opens++;
    /* each replacement spends a '{' and at least one more byte, and
     * writes a long: at most 20 bytes */
    size_t cap = len + opens * 20 + 1;
    char *out = xmalloc(cap), *o = out;
    for (const char *p = value; *p;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        long v = 0;   /* set on every path that reads it; -O2 LTO cannot see that */
        if (close == p + 1) {
            v = n;   /* "{}", as before expressions, also after a '$' */
        } else if (close && (p == value || p[-1] != '$') && tpl_is_expr(p + 1, (size_t)(close - p - 1))) {
            if (tpl_expr_eval(p + 1, (size_t)(close - p - 1), n, &v, why, nwhy)) {
                free(out);
                return NULL;
            }
        } else {
            *o++ = *p++;
            continue;
        }
        o += snprintf(o, cap - (size_t)(o - out), "%ld", v);
        p = close + 1;
    }
    *o = '\0';
    return out;
}
