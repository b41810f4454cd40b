/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - the one-line progress report on a terminal (stderr), as
 * iperf3 and rsync keep one: shown only once the command has taken a
 * second (a short run prints nothing), redrawn at most four times a
 * second, and erased when each piece of work is done, so that the results
 * below it start on a clean line.
 */
#ifndef NETSIM_PROGRESS_H
#define NETSIM_PROGRESS_H

#include <stdbool.h>

struct progress {
    bool on, shown;
    double t0, last;             /* monotonic seconds */
};

/* on: whether to report at all (stderr is a terminal, no --json). */
void progress_begin(struct progress *p, bool on);
/* Worth a line now? True at most every 0.25 s of this piece of work, and
 * only after the command's first second. */
bool progress_due(struct progress *p);
/* The line itself, after progress_due said so (printf-style). */
void progress_show(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_end(struct progress *p);

#endif
