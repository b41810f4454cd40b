/*
 * test_link.c - wire timing and netem impairments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include "sim/link.h"

/* The receiving side: count arrivals and keep their times. */
static int arrivals;
static simtime_t arrival_time[16];
static uint32_t arrival_id[16];

void nic_rx(struct nic *n, struct skb *skb)
{
    (void)n;
    if (arrivals < 16) {
        arrival_time[arrivals] = skb->tstamp;
        arrival_id[arrivals] = skb->ip_id;
    }
    arrivals++;
    skb_free(skb);
}
void nic_page_release(struct skb *skb) { (void)skb; }

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
}

static struct link_dir *make_dir(struct evq *q, const char *delay, const char *loss)
{
    static struct link_dir d;
    const char *why;
    link_dir_init(&d, q, 1, "link.t.fwd");
    d.rate = 10000000000ULL;
    d.mtu = 1500;
    d.dst = NULL;
    if (delay)
        assert_int_equal(netem_parse_delay(&d.nm, delay, &why), 0);
    if (loss)
        assert_int_equal(netem_parse_loss(&d.nm, loss, &why), 0);
    return &d;
}

static void test_back_to_back_and_delay(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct link_dir *d = make_dir(&q, "25us", NULL);
    arrivals = 0;
    for (int i = 0; i < 3; i++) {
        struct skb *s = skb_alloc();
        s->ip_len = 1500;
        s->ip_id = (uint16_t)i;
        simtime_t end = link_dir_xmit(d, s, 0);
        assert_int_equal(end, (i + 1) * 1230400LL);
    }
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(arrival_time[i], (i + 1) * 1230400LL + 25 * PS_PER_US);
    link_dir_free(d);
    evq_free(&q);
    assert_int_equal(skb_in_use(), 0);
}

static void test_jitter_keeps_fifo(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct link_dir *d = make_dir(&q, "100us 50us", NULL);
    arrivals = 0;
    for (int i = 0; i < 16; i++) {
        struct skb *s = skb_alloc();
        s->ip_len = 1500;
        s->ip_id = (uint16_t)i;
        link_dir_xmit(d, s, 0);
    }
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(arrivals, 16);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(arrival_id[i], i);
        if (i)
            assert_true(arrival_time[i] >= arrival_time[i - 1]);
        assert_true(arrival_time[i] >= 50 * PS_PER_US);
        assert_true(arrival_time[i] <= 150 * PS_PER_US + 16 * 1230400LL);
    }
    link_dir_free(d);
    evq_free(&q);
}

/* Draw n packets through the loss process; return the loss count. */
static uint64_t lose_n(struct link_dir *d, uint64_t n)
{
    uint64_t lost = 0;
    for (uint64_t i = 0; i < n; i++)
        lost += netem_lose(&d->nm, &d->rng);
    return lost;
}

static void test_random_loss_binomial(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct link_dir *d = make_dir(&q, NULL, "1%");
    uint64_t n = 1000000, lost = lose_n(d, n);
    /* 99 % interval of Binomial(1e6, 0.01): 10000 +- 2.576 * sqrt(9900) */
    double half = 2.576 * sqrt(n * 0.01 * 0.99);
    assert_true(fabs((double)lost - 10000.0) <= half);
    link_dir_free(d);
    evq_free(&q);
}

static void test_gemodel_stationary(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct link_dir *d = make_dir(&q, NULL, "gemodel 1% 10% 70% 0.1%");
    /* pi_bad = p / (p + r) = 0.01 / 0.11; loss = pi_bad * 0.7 + (1 - pi_bad) * 0.001 */
    double want = 0.01 / 0.11 * 0.7 + 0.10 / 0.11 * 0.001;
    assert_true(fabs(netem_loss_rate(&d->nm) - want) < 1e-12);
    uint64_t n = 2000000, lost = lose_n(d, n);
    /* bursts make the variance larger than binomial: allow 5 % relative */
    assert_true(fabs((double)lost / (double)n - want) < 0.05 * want);
    link_dir_free(d);
    evq_free(&q);
}

static void test_loss_happens_before_the_wire(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct link_dir *d = make_dir(&q, NULL, "100%");
    struct skb *s = skb_alloc();
    s->ip_len = 1500;
    assert_int_equal(link_dir_xmit(d, s, 777), 777);
    assert_int_equal(d->lost, 1);
    assert_int_equal(d->wire_free, 0);
    link_dir_free(d);
    evq_free(&q);
    assert_int_equal(skb_in_use(), 0);
}

static void test_netem_syntax_errors(void **state)
{
    (void)state;
    struct netem n;
    const char *why = NULL;
    netem_init(&n);
    assert_int_equal(netem_parse_loss(&n, "1% 25%", &why), -1);
    assert_non_null(why);
    assert_int_equal(netem_parse_loss(&n, "gemodel", &why), -1);
    assert_int_equal(netem_parse_delay(&n, "10ms 20ms", &why), -1);
    assert_int_equal(netem_parse_delay(&n, "10ms 1ms distribution pareto", &why), -1);
    assert_int_equal(netem_parse_delay(&n, "50ms 1ms distribution normal", &why), 0);
    assert_int_equal(n.delay, 50 * PS_PER_MS);
    assert_int_equal(n.jitter, PS_PER_MS);
    assert_int_equal(netem_parse_loss(&n, "gemodel 5%", &why), 0);
    assert_true(fabs(n.r - 0.95) < 1e-12);   /* tc: r defaults to 1 - p */
    assert_true(fabs(n.loss_bad - 1.0) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serialisation_exact),
        cmocka_unit_test(test_back_to_back_and_delay),
        cmocka_unit_test(test_jitter_keeps_fifo),
        cmocka_unit_test(test_random_loss_binomial),
        cmocka_unit_test(test_gemodel_stationary),
        cmocka_unit_test(test_loss_happens_before_the_wire),
        cmocka_unit_test(test_netem_syntax_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
