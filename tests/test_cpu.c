/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_cpu.c - cores: slices, softirq priority, round robin, cost scaling
 * and jitter; the loopback device.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include "sim/config.h"
#include "load/load.h"
#include "sim/cpu.h"
#include "sim/sim.h"
#include "load/scenario.h"

static struct cpu_sample prof[CPU_MAX_SYMS];
static int sym;

struct worker {
    struct cpu_task t;
    double ns;
    int left;
    int done;
    simtime_t first_start, last_end;
    char tag;
};

static char trace[64];
static int ntrace;

static bool work(struct cpu_task *t, struct core *c)
{
    struct worker *w = t->ctx;
    if (!w->done)
        w->first_start = core_now(c);
    if (ntrace < 63)
        trace[ntrace++] = w->tag;
    core_charge(c, sym, w->ns);
    w->last_end = core_now(c);
    w->done++;
    return --w->left > 0;
}

static void worker_init(struct worker *w, char tag, int cls, double ns, int n)
{
    *w = (struct worker){ .ns = ns, .left = n, .tag = tag };
    w->t = (struct cpu_task){ .run = work, .ctx = w, .cls = (uint8_t)cls, .name = "w" };
}

static void test_slices_back_to_back(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct core c;
    sym = cpu_sym("test_work");
    core_init(&c, &q, NULL, 0, prof);
    struct worker w;
    worker_init(&w, 'a', CPU_PROCESS, 1500, 4);
    core_wake(&c, &w.t, 0);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(w.done, 4);
    assert_int_equal(w.last_end, 6 * PS_PER_US);
    assert_int_equal(c.busy_ps, 6000000);
    assert_int_equal(prof[sym].calls, 4);
    evq_free(&q);
}

static void test_softirq_first_then_round_robin(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct core c;
    core_init(&c, &q, NULL, 0, prof);
    struct worker a, b, s;
    worker_init(&a, 'a', CPU_PROCESS, 100, 3);
    worker_init(&b, 'b', CPU_PROCESS, 100, 3);
    worker_init(&s, 's', CPU_SOFTIRQ, 100, 2);
    ntrace = 0;
    core_wake(&c, &a.t, 0);          /* runs its first slice at once */
    core_wake(&c, &b.t, 0);
    core_wake(&c, &s.t, 0);
    evq_run(&q, SIMTIME_NEVER);
    trace[ntrace] = 0;
    assert_string_equal(trace, "assbabab");
    evq_free(&q);
}

static void test_busy_core_delays_a_wake(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct core c;
    core_init(&c, &q, NULL, 0, prof);
    struct worker a, b;
    worker_init(&a, 'a', CPU_PROCESS, 1000, 1);
    worker_init(&b, 'b', CPU_SOFTIRQ, 10, 1);
    core_wake(&c, &a.t, 0);          /* busy until 1000 ns */
    evq_run(&q, 500 * PS_PER_NS);
    core_wake(&c, &b.t, q.now);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(b.first_start, 1000 * PS_PER_NS);
    evq_free(&q);
}

static void test_factor_and_fixed_charges(void **state)
{
    (void)state;
    struct core c;
    struct evq q;
    evq_init(&q);
    core_init(&c, &q, NULL, 0, prof);
    c.speed = 2.0;
    c.factor = 1.5;
    c.mult = c.speed * c.factor;
    c.clock = 0;
    core_charge(&c, sym, 100);
    assert_int_equal(c.clock, 300000);
    core_charge_fixed(&c, sym, 100);  /* interrupt entry: host speed only */
    assert_int_equal(c.clock, 500000);
    evq_free(&q);
}

static void test_jitter_mean_one_cv_j(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct core c;
    struct rng r;
    rng_init(&r, 1, "test.core");
    core_init(&c, &q, NULL, 0, prof);
    c.jitter = 0.6;
    c.rng = &r;
    enum { N = 200000 };
    struct worker w;
    worker_init(&w, 'a', CPU_PROCESS, 1000, N);
    core_wake(&c, &w.t, 0);
    double sum = 0, sumsq = 0;
    simtime_t last = 0;
    for (int i = 0; i < N; i++) {
        evq_run(&q, evq_next_time(&q));
        double d = (double)(w.last_end - last) / 1e6;   /* slice length in units of 1000 ns */
        last = w.last_end;
        sum += d;
        sumsq += d * d;
        if (!w.left)
            break;
    }
    double mean = sum / N, sd = sqrt(sumsq / N - mean * mean);
    assert_true(fabs(mean - 1.0) < 0.01);
    assert_true(fabs(sd - 0.6) < 0.01);          /* J = 0.4 + 0.6 Exp(1): sd 0.6 */
    rng_free(&r);
    evq_free(&q);
}

static void test_loopback_ping_and_udp(void **state)
{
    (void)state;
    struct cfg *cfg = cfg_load_string("lo.ini",
        "[sim]\nduration = 100ms\n[host a]\ncpu = ideal\n[link l]\nends = a:eth0 b:eth0\n"
        "[flow 1]\napp = udp_stream\nfrom = a\nto = a\nmsg_size = 60000\nrate = 1gbit\n"
        "[flow 2]\napp = ping\nfrom = a\nto = a\ninterval = 10ms\n");
    struct sim *s = sim_build(cfg, 0, false);
    cfg_print_errors(cfg, stderr);
    assert_int_equal(cfg_errors(cfg), 0);
    sim_run(s, false);
    struct flow *f = s->flows[0];
    /* 1 Gbit/s of 60000-byte messages for 100 ms: 209 messages (every 480 us) */
    assert_int_equal(f->bytes, 209ULL * 60000);
    struct nic *n = host_find(s, "a")->nics[0];
    assert_int_equal(n->vec[0].tx_packets + n->vec[1].tx_packets + n->vec[2].tx_packets + n->vec[3].tx_packets, 0);
    sim_free(s);
    cfg_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slices_back_to_back),
        cmocka_unit_test(test_softirq_first_then_round_robin),
        cmocka_unit_test(test_busy_core_delays_a_wake),
        cmocka_unit_test(test_factor_and_fixed_charges),
        cmocka_unit_test(test_jitter_mean_one_cv_j),
        cmocka_unit_test(test_loopback_ping_and_udp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
