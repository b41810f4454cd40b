/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_range.c - the numeric range of a scenario's templates,
 * "PREFIX{LO..HI}SUFFIX" (sim/config.h): section names ([host s{1..64}])
 * and the host lists that name many (incast's servers = s{1..64}).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"

static int bound(const char **p, const char *e, long *v)
{
    const char *b = *p;
    long x = 0;
    while (*p < e && isdigit((unsigned char)**p) && *p - b < 9)
        x = x * 10 + (**p - '0'), (*p)++;
    if (*p == b || (*p < e && isdigit((unsigned char)**p)))
        return -1;               /* no digits, or more than nine */
    *v = x;
    return 0;
}

int cfg_range(const char *w, size_t n, size_t *pre, long *lo, long *hi, const char **suffix, const char **why)
{
    const char *e = w + n, *open = memchr(w, '{', n);
    if (!open)
        return 0;
    const char *p = open + 1;
    *why = "expected {LO..HI}, two whole numbers of at most nine digits, e.g. s{1..16}";
    if (bound(&p, e, lo) || e - p < 2 || p[0] != '.' || p[1] != '.')
        return -1;
    p += 2;
    if (bound(&p, e, hi) || p == e || *p != '}')
        return -1;
    if (memchr(p + 1, '{', (size_t)(e - p - 1)) || memchr(p + 1, '}', (size_t)(e - p - 1)) ||
        memchr(w, '}', (size_t)(open - w))) {
        *why = "one range a word";
        return -1;
    }
    if (*lo > *hi) {
        *why = "the range's first number is above its last";
        return -1;
    }
    if (*hi - *lo >= CFG_RANGE_MAX) {
        *why = "a range of more than 4096 values";
        return -1;
    }
    *pre = (size_t)(open - w);
    *suffix = p + 1;
    return 1;
}
