/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_link.c - wire timing, and the netem qdisc in front of it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "sim/link.h"
#include "load/netem_parse.h"

/* The receiving side: count arrivals and keep their times. */
#define KEEP 4096
static int arrivals;
static simtime_t arrival_time[KEEP];
static uint32_t arrival_id[KEEP];
static bool arrival_corrupt[KEEP];

void nic_rx(struct nic *n, struct skb *skb)
{
    (void)n;
    if (arrivals < KEEP) {
        arrival_time[arrivals] = skb->tstamp;
        arrival_id[arrivals] = skb->ip_id;
        arrival_corrupt[arrivals] = skb->corrupt;
    }
    arrivals++;
    skb_free(skb);
}

static void test_serialisation_exact(void **state)
{
    (void)state;
    assert_int_equal(wire_bytes(1500), 1538);
    assert_int_equal(time_serialise(1538, 10000000000ULL), 1230400);
    assert_int_equal(wire_bytes(40), 84);                 /* bare ACK padded to 64 */
    assert_int_equal(time_serialise(84, 10000000000ULL), 67200);
    assert_int_equal(wire_bytes(415), 453);
    assert_int_equal(time_serialise(453, 10000000000ULL), 362400);
    assert_int_equal(time_serialise(68125, 10000000000ULL), 54500000);   /* seed 004 train */
    /* the 64-bit fast path rounds as the 128-bit division does, up to
     * and across the size where it hands over */
    uint64_t rates[] = { 1, 7, 1000, 56000, 999999937ULL, 10000000000ULL, 400000000000ULL, UINT64_MAX / 3 };
    uint64_t edge = (UINT64_MAX / 2) / (8 * (uint64_t)PS_PER_S);
    uint64_t sizes[] = { 0, 1, 64, 1538, 65535, 1000003, edge - 1, edge, edge + 1, 1ULL << 40 };
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++)
        for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
            __int128 t = ((__int128)sizes[b] * 8 * PS_PER_S + rates[r] / 2) / rates[r];
            simtime_t want = t > SIMTIME_NEVER ? SIMTIME_NEVER : (simtime_t)t;
            assert_int_equal(time_serialise(sizes[b], rates[r]), want);
        }
}

static struct link_dir dir;
static struct netem nm;          /* the direction's netem, as netem.c's root puts it in front of the wire */
static struct evq q;

/* The device behind netem: a port whose wire is `dir`; `busy` refusals
 * stand for a stopped TX queue. */
static int refuse;
static int dev_xmit(void *dev, struct skb *skb, simtime_t t)
{
    (void)dev;
    if (refuse) {
        refuse--;
        return -1;
    }
    assert_true(t >= skb->t_due);      /* never before its time_to_send */
    link_dir_xmit(&dir, skb, t);
    return 0;
}

/* A direction at `rate`, with netem delay and loss options when given
 * (install() puts the qdisc in front of the wire). */
static void setup(uint64_t rate, const char *delay, const char *loss)
{
    const char *why = NULL;
    bool bare = false;
    evq_init(&q);
    link_dir_init(&dir, &q, 1, "link.t.fwd");
    dir.rate = rate;
    dir.mtu = 1500;
    dir.dst = NULL;
    arrivals = 0;
    refuse = 0;
    if (delay)
        assert_int_equal(netem_parse_delay(&dir.nopts, delay, &why), 0);
    if (loss)
        assert_int_equal(netem_parse_loss(&dir.nopts, loss, &why, &bare), 0);
}

static void install(void)
{
    netem_init(&nm, &dir.nopts, &q, &dir.rng, dev_xmit, NULL);
}

static void teardown(void)
{
    netem_free(&nm);
    link_dir_free(&dir);
    evq_free(&q);
    assert_int_equal(skb_in_use(), 0);
}

static struct skb *pkt(uint32_t id, uint32_t len)
{
    struct skb *s = skb_alloc();
    s->ip_len = len;
    s->ip_id = (uint16_t)id;
    return s;
}

static void test_wire_back_to_back_and_propagation(void **state)
{
    (void)state;
    setup(10000000000ULL, NULL, NULL);
    dir.propagation = 25 * PS_PER_US;
    for (int i = 0; i < 3; i++)
        assert_int_equal(link_dir_xmit(&dir, pkt((uint32_t)i, 1500), 0), (i + 1) * 1230400LL);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(arrival_time[i], (i + 1) * 1230400LL + 25 * PS_PER_US);
    teardown();
}

/* A constant delay in front of the wire gives the arrival times a delay
 * after the wire would: the wire sees the same pattern, shifted. */
static void test_constant_delay_is_a_shift(void **state)
{
    (void)state;
    setup(10000000000ULL, "25us", NULL);
    install();
    for (int i = 0; i < 3; i++)
        assert_int_equal(netem_enqueue(&nm, pkt((uint32_t)i, 1500), 0), 0);
    assert_int_equal(nm.qlen, 3);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(arrival_id[i], i);
        assert_int_equal(arrival_time[i], (i + 1) * 1230400LL + 25 * PS_PER_US);
    }
    assert_int_equal(nm.qlen, 0);
    teardown();
}

/* netem's jitter reorders (tfifo by time_to_send), but the wire behind it
 * never delivers two frames closer than one serialisation. */
static void test_jitter_reorders_at_line_rate(void **state)
{
    (void)state;
    setup(1000000000ULL, "1ms 200us distribution normal", NULL);
    install();
    simtime_t ser = time_serialise(wire_bytes(1500), 1000000000ULL);
    for (int i = 0; i < KEEP; i++)
        netem_enqueue(&nm, pkt((uint32_t)i, 1500), (simtime_t)i * ser);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, KEEP);
    int out_of_order = 0;
    for (int i = 1; i < KEEP; i++) {
        assert_true(arrival_time[i] - arrival_time[i - 1] >= ser);
        out_of_order += arrival_id[i] < arrival_id[i - 1];
    }
    assert_true(out_of_order > KEEP / 10);
    /* 1 ms - 4 sigma is the earliest a packet may leave */
    assert_true(arrival_time[0] >= 200 * PS_PER_US + ser);
    teardown();
}

/* limit counts the packets held in the delay line, as sch->q.qlen does. */
static void test_limit_counts_the_delay_line(void **state)
{
    (void)state;
    setup(10000000000ULL, "1ms", NULL);
    dir.nopts.limit = 10;
    install();
    int dropped = 0;
    for (int i = 0; i < 25; i++)
        dropped += netem_enqueue(&nm, pkt((uint32_t)i, 1500), (simtime_t)i * 2 * PS_PER_US) < 0;
    assert_int_equal(dropped, 15);
    assert_int_equal(nm.dropped, 15);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 10);
    teardown();
}

/* A stopped device keeps the packet in netem (requeued, still counted)
 * until netem_wake; nothing overtakes it. */
static void test_stopped_device_holds_the_head(void **state)
{
    (void)state;
    setup(10000000000ULL, "10us", NULL);
    install();
    refuse = 1;
    netem_enqueue(&nm, pkt(0, 1500), 0);
    netem_enqueue(&nm, pkt(1, 1500), PS_PER_US);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 0);
    assert_int_equal(nm.qlen, 2);
    netem_wake(&nm, 50 * PS_PER_US);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 2);
    assert_int_equal(arrival_id[0], 0);
    assert_int_equal(arrival_time[0], 50 * PS_PER_US + 1230400LL);
    assert_int_equal(arrival_time[1], 50 * PS_PER_US + 2 * 1230400LL);
    teardown();
}

/* netem's rate: time_to_send = max(now + delay, last) + (len + 14 +
 * overhead) * 8 / rate; 1500 + 14 + 20 bytes at 100 Mbit/s = 122.72 us. */
static void test_netem_rate_spacing(void **state)
{
    (void)state;
    const char *why;
    setup(10000000000ULL, "1ms", NULL);
    assert_int_equal(netem_parse_rate(&dir.nopts, "100mbit 20", &why), 0);
    install();
    for (int i = 0; i < 4; i++)
        netem_enqueue(&nm, pkt((uint32_t)i, 1500), 0);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(arrival_time[i], PS_PER_MS + (i + 1) * 122720000LL + 1230400LL);
    teardown();
}

static void test_duplicate(void **state)
{
    (void)state;
    const char *why;
    bool bare = false;
    setup(10000000000ULL, "1ms", NULL);
    assert_int_equal(netem_parse_prob(&dir.nopts.duplicate, "duplicate", "100%", &why, &bare), 0);
    install();
    for (int i = 0; i < 5; i++)
        netem_enqueue(&nm, pkt((uint32_t)i, 1500), 0);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 10);          /* a duplicate is never duplicated again */
    assert_int_equal(nm.duplicated, 5);
    teardown();
}

/* One packet through a 1 ms netem with corrupt or reorder at 100 %. */
static void one_packet(double *opt)
{
    setup(10000000000ULL, "1ms", NULL);
    *opt = 1.0;
    install();
    netem_enqueue(&nm, pkt(0, 1500), 0);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 1);
}

static void test_corrupt_marks_the_frame(void **state)
{
    (void)state;
    one_packet(&dir.nopts.corrupt);
    assert_true(arrival_corrupt[0]);
    assert_int_equal(nm.corrupted, 1);
    teardown();
}

/* reorder 100 %: the packet skips the delay and goes at once */
static void test_reorder_skips_the_delay(void **state)
{
    (void)state;
    one_packet(&dir.nopts.reorder);
    assert_int_equal(arrival_time[0], 1230400LL);
    assert_int_equal(nm.reordered, 1);
    teardown();
}

/* Draw n packets through the loss process; return the loss count. */
static uint64_t lose_n(uint64_t n)
{
    uint64_t lost = 0;
    for (uint64_t i = 0; i < n; i++)
        lost += netem_lose(&nm);
    return lost;
}

/* tc reads "0.1" as 0.1 %: over 10^6 packets, inside the binomial 99 %
 * interval 1000 +- 2.576 sqrt(999). */
static void test_bare_loss_is_percent(void **state)
{
    (void)state;
    setup(10000000000ULL, NULL, "0.1");
    install();
    assert_true(dir.nopts.p == 0.001);
    uint64_t n = 1000000, lost = lose_n(n);
    assert_true(fabs((double)lost - 1000.0) <= 2.576 * sqrt(n * 0.001 * 0.999));
    teardown();
}

static void test_gemodel_stationary(void **state)
{
    (void)state;
    setup(10000000000ULL, NULL, "gemodel 1% 10% 70% 0.1%");
    install();
    /* pi_bad = p / (p + r) = 0.01 / 0.11; loss = pi_bad * 0.7 + (1 - pi_bad) * 0.001 */
    double want = 0.01 / 0.11 * 0.7 + 0.10 / 0.11 * 0.001;
    assert_true(fabs(netem_loss_rate(&dir.nopts) - want) < 1e-12);
    uint64_t n = 2000000, lost = lose_n(n);
    /* bursts make the variance larger than binomial: allow 5 % relative */
    assert_true(fabs((double)lost / (double)n - want) < 0.05 * want);
    teardown();
}

/* loss_gilb_ell draws the loss with the state the packet found: with p =
 * 100 %, r = 0, 1-h = 100 %, 1-k = 0, the first packet moves the chain to
 * bad but is not lost; every later one is. */
static void test_gemodel_loss_in_the_state_found(void **state)
{
    (void)state;
    setup(10000000000ULL, NULL, "gemodel 100% 0% 100% 0%");
    install();
    assert_false(netem_lose(&nm));
    for (int i = 0; i < 100; i++)
        assert_true(netem_lose(&nm));
    teardown();
}

static void test_netem_syntax(void **state)
{
    (void)state;
    struct netem_opts o;
    const char *why = NULL;
    bool bare = false;
    netem_opts_init(&o);
    assert_int_equal(o.limit, 1000);
    assert_int_equal(netem_parse_loss(&o, "1% 25%", &why, &bare), -1);
    assert_non_null(why);
    assert_int_equal(netem_parse_loss(&o, "gemodel", &why, &bare), -1);
    assert_int_equal(netem_parse_loss(&o, "state 1%", &why, &bare), -1);
    assert_int_equal(netem_parse_delay(&o, "10ms 1ms 25%", &why), -1);           /* correlation */
    assert_int_equal(netem_parse_delay(&o, "10ms 1ms distribution pareto", &why), -1);
    assert_int_equal(netem_parse_delay(&o, "10ms distribution normal", &why), -1); /* no jitter */
    assert_int_equal(netem_parse_delay(&o, "10ms 20ms", &why), 0);               /* tc takes it */
    assert_int_equal(netem_parse_delay(&o, "50ms 1ms distribution normal", &why), 0);
    assert_int_equal(o.latency, 50 * PS_PER_MS);
    assert_int_equal(o.jitter, PS_PER_MS);
    assert_int_equal(o.dist, NETEM_NORMAL);
    /* q_netem.c's gemodel defaults: r 100 %, 1-h 100 %, 1-k 0 % */
    assert_int_equal(netem_parse_loss(&o, "gemodel 5%", &why, &bare), 0);
    assert_true(o.p == 0.05 && o.r == 1.0 && o.loss_bad == 1.0 && o.loss_good == 0.0);
    assert_false(bare);
    assert_int_equal(netem_parse_loss(&o, "random 0.5", &why, &bare), 0);
    assert_true(o.p == 0.005);
    assert_true(bare);                       /* read as 0.5 %, once a fraction: warn */
    bare = false;
    assert_int_equal(netem_parse_loss(&o, "5", &why, &bare), 0);
    assert_true(o.p == 0.05);
    assert_false(bare);                      /* 5 never was a valid fraction */
    assert_int_equal(netem_parse_rate(&o, "100mbit 20 53 5", &why), 0);
    assert_true(o.rate == 100000000ULL && o.packet_overhead == 20 && o.cell_size == 53 && o.cell_overhead == 5);
    assert_int_equal(netem_parse_rate(&o, "fast", &why), -1);
    assert_int_equal(netem_parse_rate(&o, "1gbit 1 -1", &why), -1);              /* negative cell size */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serialisation_exact),
        cmocka_unit_test(test_wire_back_to_back_and_propagation),
        cmocka_unit_test(test_constant_delay_is_a_shift),
        cmocka_unit_test(test_jitter_reorders_at_line_rate),
        cmocka_unit_test(test_limit_counts_the_delay_line),
        cmocka_unit_test(test_stopped_device_holds_the_head),
        cmocka_unit_test(test_netem_rate_spacing),
        cmocka_unit_test(test_duplicate),
        cmocka_unit_test(test_corrupt_marks_the_frame),
        cmocka_unit_test(test_reorder_skips_the_delay),
        cmocka_unit_test(test_bare_loss_is_percent),
        cmocka_unit_test(test_gemodel_stationary),
        cmocka_unit_test(test_gemodel_loss_in_the_state_found),
        cmocka_unit_test(test_netem_syntax),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
