/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_nic.c - the ixgbe-like NIC on small built worlds: RX ring overflow
 * and its drop pattern, RSS field selection, truesize, page recycling, ITR.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim/config.h"
#include "sim/sim.h"
#include "tests/world.h"


/* A sender that fills the wire back to back (a xeon-2012 core sends a
 * 1472-byte datagram in 1.05 us), and a receiver whose driver costs `drv`
 * per frame and nothing else. */
static const char *line_rate_into(const char *drv, char *buf, size_t n)
{
    snprintf(buf, n,
             "[sim]\nduration = 1s\n"
             "[host tx]\nnet.core.wmem_max = 64M\n"
             "[host rx]\ncpu = ideal\nitr = 0\ncost.ixgbe_clean_rx_irq = %s\n"
             "[link l]\nends = tx:eth0 rx:eth0\n"
             "[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\nsndbuf = 32M\n",
             drv);
    return buf;
}

static uint64_t seen, dropped, run, max_run;

/* Accepted runs are counted once the ring has first overflowed: before
 * that, the empty ring takes 511 frames in a row. */
static void observe(struct nic *n, const struct skb *skb, bool drop)
{
    (void)n;
    (void)skb;
    seen++;
    if (drop) {
        dropped++;
        run = 0;
    } else if (dropped && ++run > max_run) {
        max_run = run;
    }
}

static struct nic *port(struct sim *s, const char *host)
{
    return host_find(s, host)->nics[0];
}

static void test_slow_core_drops_its_share(void **state)
{
    (void)state;
    char ini[1024];
    struct sim *s = world_build(line_rate_into("1.5us", ini, sizeof ini));
    port(s, "rx")->rx_observer = observe;
    seen = dropped = run = max_run = 0;
    sim_run(s, false);
    /* arrivals every 1.2304 us, service 1.5 us: 1 - 1.2304/1.5 = 17.97 % */
    double share = (double)dropped / (double)seen;
    assert_true(seen > 800000);
    assert_true(fabs(share - (1 - 1.2304 / 1.5)) < 0.01);
    assert_true(max_run <= 16);                 /* refills come in batches of 16 */
    assert_int_equal(port(s, "rx")->rx_missed, dropped);
    world_free(s);
}

static void test_fast_core_drops_none(void **state)
{
    (void)state;
    char ini[1024];
    struct sim *s = world_build(line_rate_into("1.0us", ini, sizeof ini));
    port(s, "rx")->rx_observer = observe;
    seen = dropped = run = max_run = 0;
    sim_run(s, false);
    assert_true(seen > 800000);
    assert_int_equal(dropped, 0);
    assert_int_equal(port(s, "rx")->rx_missed, 0);
    world_free(s);
}

static void test_rss_fragments_share_a_queue(void **state)
{
    (void)state;
    struct sim *s = world_build("[sim]\nduration = 1s\n[host a]\ncores = 16\n[host b]\ncores = 16\n"
                          "[link l]\nends = a:eth0 b:eth0\n");
    struct nic *n = port(s, "b");
    assert_int_equal(n->p.num_queues, 16);
    struct skb f = { 0 };
    f.proto = IPPROTO_UDP_;
    f.saddr = 0;
    f.daddr = 1;
    bool split = false;
    for (uint16_t sport = 1000; sport < 1200; sport++) {
        f.sport = sport;
        f.dport = 9;
        f.frag_off = 0;
        uint32_t q0 = n->reta[nic_rss_hash(n, &f) % NIC_RETA_SIZE];
        for (uint32_t k = 1; k < 45; k++) {
            f.frag_off = k * 1480;
            assert_int_equal(n->reta[nic_rss_hash(n, &f) % NIC_RETA_SIZE], q0);
        }
        /* with UDP ports hashed, the first fragment moves, the rest stay */
        n->p.rss_udp_ports = true;
        f.frag_off = 0;
        uint32_t q0p = n->reta[nic_rss_hash(n, &f) % NIC_RETA_SIZE];
        uint32_t qrest = 0;
        for (uint32_t k = 1; k < 45; k++) {
            f.frag_off = k * 1480;
            uint32_t q = n->reta[nic_rss_hash(n, &f) % NIC_RETA_SIZE];
            if (k == 1)
                qrest = q;
            assert_int_equal(q, qrest);
        }
        split |= q0p != qrest;
        n->p.rss_udp_ports = false;
    }
    assert_true(split);
    world_free(s);
}

static uint32_t sizes[4];
static int nsizes;
static struct skb *held[2048];
static int nheld;

static void capture_udp(struct host *h, struct skb *skb, struct core *c)
{
    (void)h;
    (void)c;
    if (nsizes < 4)
        sizes[nsizes++] = skb->truesize;
    if (nheld < 2048)
        held[nheld++] = skb;    /* never freed: its RX page stays with the stack */
    else
        skb_free(skb);
}

static void release_held(void)
{
    for (int i = 0; i < nheld; i++)
        skb_free(held[i]);
    nheld = 0;
}

static void test_truesize_by_frame_size(void **state)
{
    (void)state;
    /* 200-byte datagram: 242-byte frame, copied into the head; 1472: page */
    static const char *const msg[2] = { "200", "1472" };
    static const uint32_t want[2] = { 896, 2944 };
    for (int i = 0; i < 2; i++) {
        char ini[512];
        snprintf(ini, sizeof ini,
                 "[sim]\nduration = 10ms\n[link l]\nends = a:eth0 b:eth0\n"
                 "[flow 1]\napp = udp_stream\nfrom = a\nto = b\nmsg_size = %s\nrate = 10mbit\n", msg[i]);
        struct sim *s = world_build(ini);
        host_find(s, "b")->proto[IPPROTO_UDP_] = capture_udp;
        nsizes = 0;
        sim_run(s, false);
        assert_true(nsizes > 0);
        assert_int_equal(sizes[0], want[i]);
        release_held();
        world_free(s);
    }
}

/* Every skb held: the first pass over the 512 slots recycles, every later
 * use of a slot finds the other half still held and allocates a page. */
static void test_page_allocated_when_buffer_held(void **state)
{
    (void)state;
    struct sim *s = world_build("[sim]\nduration = 1s\n[host b]\ncores = 1\n[link l]\nends = a:eth0 b:eth0\n"
                          "[flow 1]\napp = udp_stream\nfrom = a\nto = b\nrate = 12mbit\nstop = 1s\n");
    struct host *b = host_find(s, "b");
    b->proto[IPPROTO_UDP_] = capture_udp;
    nheld = 0;
    sim_run(s, false);
    struct nic *n = port(s, "b");
    /* 12 Mbit/s of 1472-byte messages: one every 981.33 us, 1020 in 1 s */
    uint64_t frames = n->vec[0].rx_packets;
    assert_int_equal(frames, 1020);
    assert_int_equal(n->pages_recycled, 512);
    assert_int_equal(n->pages_alloc, frames - 512);
    assert_int_equal(b->prof[cpu_sym("ixgbe_alloc_rx_buffers")].calls, frames - 512);
    release_held();
    world_free(s);
}

/* ixgbe_add_rx_frag / ixgbe_alloc_mapped_page: a page that cannot flip
 * goes up whole with its frame, and the refill maps a fresh page whose other
 * half nobody holds, so the next use of that slot flips it. With every skb
 * held, the slots alternate: pass 1 recycles (fresh ring), pass 2 allocates,
 * pass 3 recycles the fresh pages, pass 4 allocates again. */
static void test_fresh_page_always_flips(void **state)
{
    (void)state;
    struct sim *s = world_build("[sim]\nduration = 2s\n[host b]\ncores = 1\n[link l]\nends = a:eth0 b:eth0\n"
                          "[flow 1]\napp = udp_stream\nfrom = a\nto = b\nrate = 12mbit\nstop = 2s\n");
    struct host *b = host_find(s, "b");
    b->proto[IPPROTO_UDP_] = capture_udp;
    nheld = 0;
    sim_run(s, false);
    struct nic *n = port(s, "b");
    uint64_t frames = n->vec[0].rx_packets;
    assert_int_equal(frames, 2039);     /* one every 981.33 us from t = 0 */
    assert_int_equal(nheld, 2039);      /* every skb still held */
    assert_int_equal(n->pages_recycled, 2 * 512);
    assert_int_equal(n->pages_alloc, frames - 2 * 512);
    release_held();
    world_free(s);
}

static void test_itr_bulk_at_9gbit(void **state)
{
    (void)state;
    /* an ideal receiver always finishes its poll within the interval */
    struct sim *s = world_build("[sim]\nduration = 200ms\n[host b]\ncores = 1\ncpu = ideal\n[link l]\nends = a:eth0 b:eth0\n"
                          "[flow 1]\napp = udp_stream\nfrom = a\nto = b\nrate = 9gbit\n");
    sim_run(s, false);
    struct nic_vec *v = &port(s, "b")->vec[0];
    assert_int_equal(v->itr_state, 2);
    /* 8K, IXGBE_8K_ITR = 500 quarter-us; the integer smoothing settles at
     * 10 * 500 * 490 / (9 * 500 + 490) = 490, which the 82599 runs as
     * 488 x 256 ns = 124.928 us */
    assert_int_equal(v->itr, 490);
    /* 200 ms / 124.928 us = 1601, plus the first few at 20K before it
     * settles; at 122.5 us (itr x 250 ns) it would be over 1632 */
    assert_in_range(v->irqs, 1601, 1612);
    world_free(s);
}

/* xps = cpu: a packet takes the queue whose vector serves the sending core
 * (ixgbe's XPS map); without it the flow hash picks one queue for both. */
static void test_xps_picks_the_sending_cores_queue(void **state)
{
    (void)state;
    static const char *const fmt = "[sim]\nduration = 5ms\n[host a]\ncores = 2\nnum_rx_queues = 2\n"
                                   "rx_queue_cpu = 1, 0\nxps = %s\n[link l]\nends = a:eth0 b:eth0\n"
                                   "[flow 1]\napp = udp_stream\nfrom = a\nto = b\nrate = 1gbit\ncpu = %d\n";
    char ini[512];
    uint64_t tx[2][2];
    for (int cpu = 0; cpu < 2; cpu++) {
        snprintf(ini, sizeof ini, fmt, "cpu", cpu);
        struct sim *s = world_build(ini);
        sim_run(s, false);
        /* queue 0 serves core 1, queue 1 core 0 */
        int mine = cpu == 1 ? 0 : 1;
        assert_true(port(s, "a")->vec[mine].tx_packets > 400);     /* 1 Gbit/s x 5 ms / 1500 B = 416 */
        assert_int_equal(port(s, "a")->vec[1 - mine].tx_packets, 0);
        world_free(s);
        snprintf(ini, sizeof ini, fmt, "off", cpu);
        s = world_build(ini);
        sim_run(s, false);
        tx[cpu][0] = port(s, "a")->vec[0].tx_packets;
        tx[cpu][1] = port(s, "a")->vec[1].tx_packets;
        world_free(s);
    }
    /* without XPS the same queue whichever core sends */
    assert_true((tx[0][0] == 0) != (tx[0][1] == 0));
    assert_true((tx[0][0] == 0) == (tx[1][0] == 0));
}

/* ixgbe_write_eitr masks the driver's quarter-microsecond ITR with 0xFF8
 * and the 82599 counts the register in 256 ns units. */
static void test_eitr_interval_82599(void **state)
{
    (void)state;
    assert_int_equal(nic_eitr_interval(500), 126976000);   /* IXGBE_8K_ITR: 496 x 256 ns */
    assert_int_equal(nic_eitr_interval(490), 124928000);   /* where adaptive bulk settles */
    assert_int_equal(nic_eitr_interval(200), 51200000);    /* IXGBE_20K_ITR */
    assert_int_equal(nic_eitr_interval(40), 10240000);     /* IXGBE_100K_ITR */
    assert_int_equal(nic_eitr_interval(7), 0);             /* below IXGBE_MIN_EITR: no throttling */
    assert_int_equal(nic_eitr_interval(4088), 1046528000); /* IXGBE_MAX_EITR: 955.5 interrupts/s */
}

static void test_itr_lowest_at_5mbit_small_packets(void **state)
{
    (void)state;
    struct sim *s = world_build("[sim]\nduration = 200ms\n[host b]\ncores = 1\n[link l]\nends = a:eth0 b:eth0\n"
                          "[flow 1]\napp = udp_stream\nfrom = a\nto = b\nrate = 5mbit\nmsg_size = 18\n");
    sim_run(s, false);
    struct nic_vec *v = &port(s, "b")->vec[0];
    assert_int_equal(v->itr_state, 0);
    assert_int_equal(v->itr, 40);                      /* 100K: 10 us */
    world_free(s);
}

/* The qdisc's ring: push order through wrap-around and each doubling,
 * the next pointers fetched ahead only within what is queued, and a
 * purge that returns every packet to the pool. */
static void test_skb_ring_keeps_push_order(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct skb_ring r = { 0 };
    struct skb *sent[300];
    uint32_t next_out = 0, n_in = 0;
    assert_null(skb_ring_peek(&r));
    /* 50 in, 30 out: the head is mid-ring when 64 fills and it doubles */
    for (; n_in < 50; n_in++)
        skb_ring_push(&r, sent[n_in] = skb_alloc());
    for (; next_out < 30; next_out++)
        assert_ptr_equal(skb_ring_pop(&r), sent[next_out]);
    for (; n_in < 300; n_in++) {
        skb_ring_push(&r, sent[n_in] = skb_alloc());
        if (n_in % 3 == 0) {
            assert_ptr_equal(skb_ring_peek(&r), sent[next_out]);
            assert_ptr_equal(skb_ring_pop(&r), sent[next_out]);
            skb_free(sent[next_out++]);
        }
    }
    assert_int_equal(r.len, n_in - next_out);
    assert_int_equal(r.cap, 256);   /* 64, 128, 256: at most 187 were queued */
    while (r.len > 10) {
        assert_ptr_equal(skb_ring_pop(&r), sent[next_out]);
        skb_free(sent[next_out++]);
    }
    for (uint32_t k = 0; k < 30; k++)
        skb_free(sent[k]);
    skb_ring_purge(&r);
    assert_int_equal(r.len, 0);
    assert_null(r.e);
    assert_int_equal(skb_in_use(), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skb_ring_keeps_push_order),
        cmocka_unit_test(test_slow_core_drops_its_share),
        cmocka_unit_test(test_fast_core_drops_none),
        cmocka_unit_test(test_rss_fragments_share_a_queue),
        cmocka_unit_test(test_truesize_by_frame_size),
        cmocka_unit_test(test_page_allocated_when_buffer_held),
        cmocka_unit_test(test_fresh_page_always_flips),
        cmocka_unit_test(test_itr_bulk_at_9gbit),
        cmocka_unit_test(test_eitr_interval_82599),
        cmocka_unit_test(test_xps_picks_the_sending_cores_queue),
        cmocka_unit_test(test_itr_lowest_at_5mbit_small_packets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
