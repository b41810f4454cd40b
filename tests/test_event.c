/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_event.c - the event queue and kernel-style timers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include "sim/event.h"

static int order[64], norder;

static void record(struct event *ev)
{
    order[norder++] = (int)(intptr_t)ev->ctx;
}

static void test_time_then_insertion_order(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct event e[5];
    simtime_t t[5] = { 30, 10, 20, 10, 30 };
    for (int i = 0; i < 5; i++) {
        event_init(&e[i], record, (void *)(intptr_t)i);
        evq_push(&q, &e[i], t[i]);
    }
    norder = 0;
    evq_run(&q, SIMTIME_NEVER);
    int want[5] = { 1, 3, 2, 0, 4 };
    assert_int_equal(norder, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(order[i], want[i]);
    assert_int_equal(q.now, 30);
    assert_int_equal(q.executed, 5);
    evq_free(&q);
}

static void test_cancel_and_move(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct event a, b, c;
    event_init(&a, record, (void *)1);
    event_init(&b, record, (void *)2);
    event_init(&c, record, (void *)3);
    evq_push(&q, &a, 100);
    evq_push(&q, &b, 200);
    evq_push(&q, &c, 300);
    evq_cancel(&q, &b);
    assert_false(event_pending(&b));
    evq_move(&q, &c, 50);
    norder = 0;
    evq_run(&q, 1000);
    assert_int_equal(norder, 2);
    assert_int_equal(order[0], 3);
    assert_int_equal(order[1], 1);
    evq_free(&q);
}

static void test_run_until_inclusive(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct event a, b;
    event_init(&a, record, (void *)1);
    event_init(&b, record, (void *)2);
    evq_push(&q, &a, 100);
    evq_push(&q, &b, 101);
    norder = 0;
    evq_run(&q, 100);
    assert_int_equal(norder, 1);
    assert_true(event_pending(&b));
    assert_int_equal(evq_next_time(&q), 101);
    evq_free(&q);
}

/* Random pushes, cancels and moves against a sorted reference. */
static void nop(struct event *ev) { (void)ev; }

static void test_heap_against_reference(void **state)
{
    (void)state;
    enum { N = 2000 };
    struct evq q;
    evq_init(&q);
    static struct event ev[N];
    static simtime_t want[N];
    static char alive[N];
    srand(7);
    for (int i = 0; i < N; i++) {
        event_init(&ev[i], nop, NULL);
        want[i] = rand() % 5000;
        alive[i] = 1;
        evq_push(&q, &ev[i], want[i]);
    }
    for (int i = 0; i < N / 2; i++) {
        int k = rand() % N;
        if (rand() % 2) {
            evq_cancel(&q, &ev[k]);
            alive[k] = 0;
        } else {
            want[k] = rand() % 5000;
            alive[k] = 1;
            evq_move(&q, &ev[k], want[k]);
        }
    }
    int expected = 0;
    for (int i = 0; i < N; i++)
        expected += alive[i];
    simtime_t last = -1;
    int popped = 0;
    struct event *e;
    while ((e = evq_pop(&q))) {
        int k = (int)(e - ev);
        assert_true(alive[k]);
        assert_int_equal(e->time, want[k]);
        assert_true(e->time >= last);
        assert_false(event_pending(e));
        last = e->time;
        alive[k] = 0;
        popped++;
    }
    assert_int_equal(popped, expected);
    evq_free(&q);
}

static void test_timer_mod_semantics(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct timer t;
    timer_init(&t, &q, record, (void *)9);
    assert_int_equal(timer_mod(&t, 1000), 0);      /* idle: armed */
    assert_int_equal(t.arms, 1);
    assert_int_equal(timer_mod(&t, 1000), 1);      /* same expiry: no requeue */
    assert_int_equal(t.requeues, 0);
    assert_int_equal(timer_mod(&t, 2000), 1);      /* pending: moved */
    assert_int_equal(t.requeues, 1);
    assert_int_equal(timer_expires(&t), 2000);
    assert_int_equal(timer_del(&t), 1);
    assert_int_equal(timer_del(&t), 0);
    assert_false(timer_pending(&t));
    assert_int_equal(timer_mod(&t, 500), 0);
    norder = 0;
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(norder, 1);
    assert_int_equal(q.now, 500);
    evq_free(&q);
}

/* A timer moved to an expiry shared with another goes behind it, as a
 * re-queued kernel timer goes to the tail of its bucket. */
/* Lazy moves (later than the heap entry) and eager ones (earlier), with
 * many events at the same instants: the pop order must be the eager
 * queue's, (time, then the sequence number of the last push or move). */
static int key_cmp(const void *a, const void *b);
static simtime_t ref_time[3000];
static uint64_t ref_seq[3000];

static int key_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (ref_time[x] != ref_time[y])
        return ref_time[x] < ref_time[y] ? -1 : 1;
    return ref_seq[x] < ref_seq[y] ? -1 : ref_seq[x] > ref_seq[y];
}

static void test_lazy_move_keeps_eager_order(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct evq q;
    evq_init(&q);
    static struct event ev[N];
    static char alive[N];
    static int want_order[N];
    uint64_t seq = 0;
    srand(11);
    for (int i = 0; i < N; i++) {
        event_init(&ev[i], nop, NULL);
        ref_time[i] = rand() % 40;            /* ~75 events per instant */
        ref_seq[i] = seq++;
        alive[i] = 1;
        evq_push(&q, &ev[i], ref_time[i]);
    }
    for (int i = 0; i < 4 * N; i++) {
        int k = rand() % N;
        int r = rand() % 8;
        if (r == 0) {
            evq_cancel(&q, &ev[k]);
            alive[k] = 0;
        } else {
            simtime_t t = rand() % 40;
            evq_move(&q, &ev[k], t);          /* later ones are lazy */
            ref_time[k] = t;
            ref_seq[k] = seq++;
            alive[k] = 1;
        }
    }
    int n = 0;
    for (int i = 0; i < N; i++)
        if (alive[i])
            want_order[n++] = i;
    qsort(want_order, (size_t)n, sizeof want_order[0], key_cmp);
    struct event *e;
    int got = 0;
    while ((e = evq_pop(&q))) {
        assert_true(got < n);
        assert_int_equal((int)(e - ev), want_order[got]);
        assert_int_equal(e->time, ref_time[want_order[got]]);
        got++;
    }
    assert_int_equal(got, n);
    evq_free(&q);
}

static void test_moved_timer_goes_behind(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct timer a, b;
    timer_init(&a, &q, record, (void *)1);
    timer_init(&b, &q, record, (void *)2);
    timer_mod(&a, 100);
    timer_mod(&b, 500);
    timer_mod(&a, 500);
    norder = 0;
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 1);
    evq_free(&q);
}

/* Callbacks that push, cancel and move events, many of them for the
 * instant that is running (the FIFO beside the heap, grown past its first
 * size): every pop must be the (time, seq) minimum of a plain reference. */
enum { FN = 600 };
static struct event fev[FN];
static simtime_t fref_time[FN];
static uint64_t fref_seq[FN];
static char falive[FN];
static uint64_t fseq;
static struct evq *fq;
static int fpops, fbad;

static int ref_min(void)
{
    int best = -1;
    for (int i = 0; i < FN; i++)
        if (falive[i] && (best < 0 || fref_time[i] < fref_time[best] ||
                          (fref_time[i] == fref_time[best] && fref_seq[i] < fref_seq[best])))
            best = i;
    return best;
}

static void fifo_cb(struct event *ev)
{
    int self = (int)(ev - fev);
    if (!falive[self] || fq->now != fref_time[self])
        fbad++;
    falive[self] = 0;
    if (++fpops > 20000)
        return;
    for (int j = 0; j < 1 + (rand() % 3 == 0); j++) {
        int k = rand() % FN;
        int r = rand() % 20;
        simtime_t t = fq->now + (r < 8 ? 0 : 1 + rand() % 5);
        if (r == 19) {
            evq_cancel(fq, &fev[k]);
            falive[k] = 0;
        } else if (event_pending(&fev[k])) {
            evq_move(fq, &fev[k], t);
            fref_time[k] = t;
            fref_seq[k] = fseq++;
        } else {
            evq_push(fq, &fev[k], t);
            fref_time[k] = t;
            fref_seq[k] = fseq++;
            falive[k] = 1;
        }
    }
}

static void test_same_instant_fifo_against_reference(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    fq = &q;
    fseq = 0;
    fpops = fbad = 0;
    srand(5);
    for (int i = 0; i < FN; i++) {
        event_init(&fev[i], fifo_cb, NULL);
        fref_time[i] = i < 400 ? 0 : rand() % 3;   /* 400 at t = 0: past the FIFO's first 256 */
        fref_seq[i] = fseq++;
        falive[i] = 1;
        evq_push(&q, &fev[i], fref_time[i]);
    }
    struct event *e;
    int mixed = 0;                             /* pops of the heap's entries at `now` with a FIFO waiting */
    for (;;) {
        mixed += q.fifo_live && q.len && q.heap[0].time == q.now;
        if (!(e = evq_pop(&q)))
            break;
        assert_int_equal((int)(e - fev), ref_min());
        e->fn(e);
    }
    assert_int_equal(ref_min(), -1);
    assert_int_equal(fbad, 0);
    assert_true(fpops > 20000);
    assert_true(q.fifo_ops > 10000);
    assert_true(q.now > 50);
    assert_true(mixed > 100);
    evq_free(&q);
}

static void cont_cb(struct event *ev) { (void)ev; }

/* evq_continue must refuse while anything waits for the running instant. */
static void test_continue_waits_for_fifo(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct event a, b;
    event_init(&a, cont_cb, NULL);
    event_init(&b, cont_cb, NULL);
    evq_push(&q, &a, 10);
    q.until = SIMTIME_NEVER;
    assert_ptr_equal(evq_pop(&q), &a);
    assert_int_equal(q.now, 10);
    evq_push(&q, &b, 10);                      /* the running instant: FIFO */
    assert_true(event_pending(&b));
    assert_int_equal(evq_next_time(&q), 10);
    assert_false(evq_continue(&q, 12));
    evq_cancel(&q, &b);
    assert_false(event_pending(&b));
    assert_int_equal(evq_next_time(&q), SIMTIME_NEVER);
    assert_true(evq_continue(&q, 12));
    assert_int_equal(q.now, 12);
    evq_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_then_insertion_order),
        cmocka_unit_test(test_cancel_and_move),
        cmocka_unit_test(test_lazy_move_keeps_eager_order),
        cmocka_unit_test(test_run_until_inclusive),
        cmocka_unit_test(test_heap_against_reference),
        cmocka_unit_test(test_timer_mod_semantics),
        cmocka_unit_test(test_moved_timer_goes_behind),
        cmocka_unit_test(test_same_instant_fifo_against_reference),
        cmocka_unit_test(test_continue_waits_for_fifo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
