/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench_evq.c - raw event-queue throughput: the classic "hold" model, a
 * queue of N pending events where each step pops the earliest and pushes
 * it again a random time later. One push + one pop = 2 operations.
 * Not a test: `make bench` prints its figure for this build and machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "sim/event.h"

static void nop(struct event *ev) { (void)ev; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long steps = argc > 2 ? atol(argv[2]) : 20000000;
    struct evq q;
    evq_init(&q);
    struct event *ev = calloc((size_t)n, sizeof *ev);
    uint64_t x = 88172645463325252ULL;   /* xorshift: cheap, so the queue dominates */
    for (int i = 0; i < n; i++) {
        event_init(&ev[i], nop, NULL);
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        evq_push(&q, &ev[i], (simtime_t)(x % 1000000));
    }
    double t0 = now_s();
    for (long i = 0; i < steps; i++) {
        struct event *e = evq_pop(&q);
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        evq_push(&q, e, q.now + 1 + (simtime_t)(x % 1000000));
    }
    double dt = now_s() - t0;
    printf("event queue: %d pending, %ld pop+push pairs in %.3f s: %.1f M operations/s\n", n, steps, dt,
           2.0 * (double)steps / dt / 1e6);
    evq_free(&q);
    free(ev);
    return 0;
}
