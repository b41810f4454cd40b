/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.c - the terminal progress line (see progress.h).
 */
#include "sim/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static double progress_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* When the first line of this process began: a command's phases (build,
 * parameters, run, counters, copy) report once the whole has taken a
 * second, not each a second of its own, which would leave the terminal
 * blank through a run of phases that each take less. */
static double first_begun;

void progress_begin(struct progress *p, bool on)
{
    *p = (struct progress){ .on = on };
    p->t0 = p->last = on ? progress_clock() : 0;
    if (on && !first_begun)
        first_begun = p->t0;
}

bool progress_due(struct progress *p)
{
    if (!p->on)
        return false;
    double w = progress_clock();
    if (w - p->last <= 0.25 || w - first_begun <= 1.0)
        return false;
    p->last = w;
    return true;
}

void progress_show(struct progress *p, const char *fmt, ...)
{
    va_list ap;
    fputc('\r', stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    p->shown = true;
}

void progress_end(struct progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r%60s\r", "");
    p->shown = false;
}
