/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * invariant.h - the accounting sums, stated where they change.
 *
 * A socket's memory, a queue's byte count, a scoreboard's totals, the
 * reassembly memory: each is a running sum kept beside what it sums, and
 * a bug that lets the two part shows up much later as a wrong figure, not
 * a crash. INVARIANT(cond) states the relation at the line that changes
 * the sum. It is checked in the sanitizer and fuzz builds (make check-asan
 * and make fuzz compile with -DNETSIM_INVARIANTS) and compiled out of
 * every other build, where the condition is not evaluated (sizeof keeps
 * it type-checked), so the packet path pays nothing.
 *
 * INVARIANT_SUM(n, cond) is for a relation whose check walks the
 * structure (a sum over a queue of n entries): checked at every change
 * while n is small, then at one change in 64 for each site, so that a
 * queue of 100 000 packets does not make the sanitizer run quadratic.
 * Which changes are checked depends on nothing but the count of calls:
 * the same run checks the same changes.
 */
#ifndef NETSIM_INVARIANT_H
#define NETSIM_INVARIANT_H

/* Prints the broken relation, where, and aborts (the sanitizers and the
 * fuzzers then report the stack). */
_Noreturn void invariant_failed(const char *cond, const char *file, int line, const char *func);

#ifdef NETSIM_INVARIANTS
#define INVARIANT(cond) ((cond) ? (void)0 : invariant_failed(#cond, __FILE__, __LINE__, __func__))
#define INVARIANT_SUM(n, cond)                                                                     \
    do {                                                                                           \
        static unsigned invariant_calls_;                                                          \
        if ((n) <= 64 || (++invariant_calls_ & 63) == 0)                                           \
            INVARIANT(cond);                                                                       \
    } while (0)
#define INVARIANTS_ON 1
#else
#define INVARIANT(cond) ((void)sizeof((cond) ? 1 : 0))
#define INVARIANT_SUM(n, cond) ((void)sizeof((n) + ((cond) ? 1 : 0)))
#define INVARIANTS_ON 0
#endif

/* INVARIANT_WALK(n, cond): cond walks n entries (packets, flows), each
 * likely a cache miss: checked at one change in max(64, n) for the site,
 * so that the walks cost about one entry a change however long the
 * queue. INVARIANT_SUM's one in 64 made a standing queue of 10 000
 * packets (qdisc_aqm.sh's pfifo limit 10000) take 70 % longer under the
 * invariants. Like it, which changes are checked depends only on the
 * count of calls and n. */
#ifdef NETSIM_INVARIANTS
#define INVARIANT_WALK(n, cond)                                                                                    \
    do {                                                                                                           \
        static uint64_t invariant_walk_calls_;                                                                     \
        if (++invariant_walk_calls_ >= 64 && invariant_walk_calls_ >= (uint64_t)(n)) {                             \
            invariant_walk_calls_ = 0;                                                                             \
            INVARIANT(cond);                                                                                       \
        }                                                                                                          \
    } while (0)
#else
#define INVARIANT_WALK(n, cond) ((void)sizeof((n) + ((cond) ? 1 : 0)))
#endif

#endif
