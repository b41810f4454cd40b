/*
 * ss_line.c - building a socket's ss info line (ss_line.h).
 */
#include "sim/ss_line.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "sim/sim.h"

void ss_put(struct ss_line *l, const char *fmt, ...)
{
    if (l->len >= sizeof l->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->text + l->len, sizeof l->text - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

void ss_series(struct ss_line *l, const char *name, double v)
{
    char key[128];
    snprintf(key, sizeof key, "%sss.%s", l->prefix, name);
    sim_series(l->s, key, v);
}

void ss_u(struct ss_line *l, const char *name, uint64_t v)
{
    if (!v)
        return;
    ss_put(l, " %s:%" PRIu64, name, v);
    ss_series(l, name, (double)v);
}
