/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_ipfrag.c - IPv4 reassembly (models/ipfrag): fragment sizes on the
 * wire, truesize and queue charges, hash chains, the 3.7 LRU evictor and
 * its two-CPU race, timers, and the lru-warm and drop-new variants.
 *
 * Most tests build a two-host world and call the receiver's defrag hook
 * directly with hand-made fragments, at times set on the event queue, so
 * every expectation is exact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "models/ipfrag/frag.h"
#include "sim/config.h"
#include "load/load.h"
#include "sim/sim.h"
#include "load/scenario.h"
#include "tests/world.h"

extern int frag_module_slot;

#define TS 2944                  /* ixgbe half page + skb head */
#define Q 200                    /* sizeof(struct ipq) */


/* A receiver with the given extra host keys; no flows. */
static struct sim *world(const char *rx_keys)
{
    char ini[1024];
    snprintf(ini, sizeof ini,
             "[sim]\nduration = 10s\n[host rx]\ncost_jitter = 0\n%s\n[link l]\nends = tx:eth0 rx:eth0\n", rx_keys);
    return world_build(ini);
}

static struct host *rx(struct sim *s) { return host_find(s, "rx"); }
static struct frag_ns *ns_of(struct sim *s) { return rx(s)->mod[frag_module_slot]; }

/* Fragment k (of 45) of the datagram `id` from host `src`, as the NIC
 * hands it up: 1480 bytes of L4 data per fragment, 395 in the last. */
static struct skb *frag(uint32_t src, uint16_t id, uint32_t k)
{
    struct skb *f = skb_alloc();
    f->family = NET_IPV4;
    f->proto = IPPROTO_UDP_;
    f->saddr = src;
    f->daddr = 1;
    f->ip_id = id;
    f->is_frag = true;
    f->frag_off = k * 1480;
    f->more_frags = k < 44;
    f->ip_len = IPV4_HDR_LEN + (k < 44 ? 1480 : 395);
    f->payload = 65507;
    f->dport = 5201;
    f->truesize = TS;
    return f;
}

/* Deliver fragment k of (src, id) on core `core` at time `t_ns`. */
static struct skb *feed(struct sim *s, int core, double t_ns, uint32_t src, uint16_t id, uint32_t k)
{
    struct host *h = rx(s);
    evq_run(&s->q, time_from_ns(t_ns));           /* timers and samplers due before t */
    s->q.now = time_from_ns(t_ns);
    struct core *c = &h->cores[core];
    c->clock = s->q.now;
    return h->defrag(h, frag(src, id, k), c);
}

/* ---- on the wire ---- */

static uint32_t nfr, lens[64], offs[64], mf[64];

static void observe(struct nic *n, const struct skb *skb, bool drop)
{
    (void)n;
    (void)drop;
    if (nfr < 64) {
        lens[nfr] = skb->ip_len;
        offs[nfr] = skb->frag_off;
        mf[nfr] = skb->more_frags;
    }
    nfr++;
}

static void test_fragments_of_a_64k_datagram(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    /* bql = off: with byte queue limits (the default) most of the 45
     * fragments wait in the qdisc for TX cleans after the 100 us */
    struct sim *s = world_build("[sim]\nduration = 100us\n[host tx]\nbql = off\n[link l]\nends = tx:eth0 rx:eth0\n"
                          "[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\nmsg_size = 65507\nrate = 1gbit\n");
    rx(s)->nics[0]->rx_observer = observe;
    nfr = 0;
    sim_run(s, false);
    /* one datagram: 44 x (20 + 1480) and one of 20 + 395 (8 + 65507 = 44 * 1480 + 395) */
    assert_int_equal(nfr, 45);
    for (uint32_t k = 0; k < 45; k++) {
        assert_int_equal(offs[k], k * 1480);
        assert_int_equal(offs[k] % 8, 0);
        assert_int_equal(lens[k], k < 44 ? 1500 : 415);
        assert_int_equal(mf[k], k < 44);
    }
    struct frag_ns *ns = ns_of(s);
    assert_int_equal(ns->reqds, 45);
    assert_int_equal(ns->oks, 1);
    assert_int_equal(ns->fails, 0);
    assert_int_equal(s->flows[0]->bytes, 65507);
    assert_int_equal(ns->mem, 0);
    assert_int_equal(ns->nqueues, 0);
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

/* ---- queue charges and reassembly ---- */

static void test_truesize_and_queue_charges(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = world("ipfrag_high_thresh = 4M\nipfrag_low_thresh = 3M");
    struct frag_ns *ns = ns_of(s);
    for (uint32_t k = 0; k < 10; k++)
        assert_null(feed(s, 0, 1000.0 * k, 0, 7, k));
    assert_int_equal(ns->mem, Q + 10 * TS);
    assert_int_equal(ns->nqueues, 1);
    /* out of order: the last fragment, then the middle ones */
    assert_null(feed(s, 0, 20000, 0, 7, 44));
    assert_int_equal(ns->mem, Q + 11 * TS);
    struct skb *whole = NULL;
    for (uint32_t k = 10; k < 44; k++) {
        whole = feed(s, 0, 30000.0 + k, 0, 7, k);
        if (k < 43)
            assert_null(whole);
    }
    assert_non_null(whole);
    assert_int_equal(whole->ip_len, 65535);
    assert_int_equal(whole->payload, 65507);
    assert_int_equal(whole->truesize, 45 * TS);
    assert_int_equal(ns->mem, 0);
    assert_int_equal(ns->nqueues, 0);
    assert_int_equal(ns->oks, 1);
    assert_int_equal(ns->reqds, 45);
    /* the 44 other fragments travel with the head and are freed with it */
    assert_int_equal(skb_in_use(), before + 45);
    skb_free(whole);
    assert_int_equal(skb_in_use(), before);
    world_free(s);
}

static void test_overlaps_keep_new_data(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag_high_thresh = 4M\nipfrag_low_thresh = 3M");
    struct frag_ns *ns = ns_of(s);
    feed(s, 0, 0, 0, 3, 0);
    feed(s, 0, 1000, 0, 3, 1);
    /* an exact duplicate replaces the old copy (3.7 keeps the new data) */
    feed(s, 0, 2000, 0, 3, 1);
    struct fq *q = frag_lookup(ns, 3, 0, 1, IPPROTO_UDP_);
    assert_int_equal(q->nfrags, 2);
    assert_int_equal(q->meat, 2 * 1480);
    assert_int_equal(ns->mem, Q + 2 * TS);
    assert_int_equal(ns->dup_drops, 0);
    /* a fragment inside the first one is trimmed to nothing and dropped */
    struct skb *in = frag(0, 3, 0);
    in->frag_off = 8;
    in->ip_len = IPV4_HDR_LEN + 800;
    assert_null(rx(s)->defrag(rx(s), in, &rx(s)->cores[0]));
    assert_int_equal(ns->dup_drops, 1);
    assert_int_equal(q->nfrags, 2);
    assert_int_equal(ns->mem, Q + 2 * TS);
    world_free(s);
}

/* The datagram is damaged when a piece it is made of is: a damaged copy
 * that a later one replaced (3.7 keeps the new data) does not count. */
static struct skb *feed_all(struct sim *s, uint16_t id, int bad, bool replace_bad)
{
    struct host *h = rx(s);
    struct skb *whole = NULL;
    for (uint32_t k = 0; k < 45; k++) {
        struct skb *f = frag(0, id, k);
        f->corrupt = (int)k == bad;
        whole = h->defrag(h, f, &h->cores[0]);
        if ((int)k == bad && replace_bad)
            whole = h->defrag(h, frag(0, id, k), &h->cores[0]);
    }
    return whole;
}

static void test_damaged_piece_damages_datagram(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = world("ipfrag_high_thresh = 4M\nipfrag_low_thresh = 3M");
    struct skb *d = feed_all(s, 5, -1, false);
    assert_non_null(d);
    assert_false(d->corrupt);
    skb_free(d);
    d = feed_all(s, 6, 7, false);
    assert_non_null(d);
    assert_true(d->corrupt);
    skb_free(d);
    d = feed_all(s, 7, 0, false);           /* the head itself */
    assert_non_null(d);
    assert_true(d->corrupt);
    skb_free(d);
    d = feed_all(s, 8, 7, true);
    assert_non_null(d);
    assert_false(d->corrupt);
    skb_free(d);
    assert_int_equal(ns_of(s)->oks, 4);
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

/* ---- hash chains ---- */

/* Three ids from source 0 that share a bucket with `id0`. */
static void same_bucket(struct frag_ns *ns, uint16_t ids[4])
{
    uint32_t b = frag_hashfn(ns, 1, 0, 1, IPPROTO_UDP_);
    int n = 0;
    for (uint32_t id = 1; id < 65536 && n < 4; id++)
        if (frag_hashfn(ns, (uint16_t)id, 0, 1, IPPROTO_UDP_) == b)
            ids[n++] = (uint16_t)id;
    assert_int_equal(n, 4);
}

static void test_hash_chain_head_insert_and_walks(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag_high_thresh = 4M\nipfrag_low_thresh = 3M");
    struct frag_ns *ns = ns_of(s);
    assert_int_equal(ns->nbuckets, 64);
    uint16_t id[4];
    same_bucket(ns, id);
    /* creating queue i walks the chain of i entries twice (find, intern) */
    for (int i = 0; i < 3; i++) {
        uint64_t steps = ns->miss_steps;
        feed(s, 0, 100.0 * i, 0, id[i], 0);
        assert_int_equal(ns->miss_steps - steps, 2 * i);
    }
    struct fq *q0 = frag_lookup(ns, id[0], 0, 1, IPPROTO_UDP_);
    struct fq *q2 = frag_lookup(ns, id[2], 0, 1, IPPROTO_UDP_);
    /* hlist_add_head: the newest queue is first in its chain */
    assert_ptr_equal(ns->hash[q0->bucket], q2);
    assert_ptr_equal(q2->hnext->hnext, q0);
    uint64_t h = ns->hit_steps;
    feed(s, 0, 1000, 0, id[2], 1);
    assert_int_equal(ns->hit_steps - h, 1);
    h = ns->hit_steps;
    feed(s, 0, 2000, 0, id[0], 1);
    assert_int_equal(ns->hit_steps - h, 3);
    uint64_t m = ns->miss_steps;
    feed(s, 0, 3000, 0, id[3], 0);
    assert_int_equal(ns->miss_steps - m, 6);
    /* a new secret relinks every queue; lookups still find them */
    frag_secret_rebuild(ns);
    for (int i = 0; i < 4; i++)
        assert_non_null(frag_lookup(ns, id[i], 0, 1, IPPROTO_UDP_));
    assert_int_equal(ns->nqueues, 4);
    world_free(s);
}

/* ---- the 3.7 evictor ---- */

/* Queues A, B, C, D (ids 1..4, source 0) with 8 fragments each, then two
 * more for A: mem = 4 * (200 + 8 * 2944) + 2 * 2944 = 100896, and the LRU
 * is B, C, D, A. */
static void fill_abcd(struct sim *s)
{
    double t = 0;
    for (uint16_t id = 1; id <= 4; id++)
        for (uint32_t k = 0; k < 8; k++, t += 100)
            feed(s, 0, t, 0, id, k);
    feed(s, 0, t, 0, 1, 8);
    feed(s, 0, t + 100, 0, 1, 9);
    assert_int_equal(ns_of(s)->mem, 100896);
}

static bool present(struct sim *s, uint16_t id) { return frag_lookup(ns_of(s), id, 0, 1, IPPROTO_UDP_) != NULL; }

static void test_evictor_frees_lru_head_down_to_low(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag_high_thresh = 100000\nipfrag_low_thresh = 60000\nipfrag.race_model = atomic");
    struct frag_ns *ns = ns_of(s);
    fill_abcd(s);
    assert_int_equal(ns->evictor_calls, 0);           /* 100896 was reached inside A's fragment */
    assert_ptr_equal(ns->lru_head, frag_lookup(ns, 2, 0, 1, IPPROTO_UDP_));
    /* next fragment (for D): mem 100896 > high, work = 40896: B (23752)
     * then C (23752) go; A, touched last, survives */
    feed(s, 0, 10000, 0, 4, 8);
    assert_int_equal(ns->evictor_calls, 1);
    assert_int_equal(ns->evicted, 2);
    assert_int_equal(ns->fails, 2);
    assert_false(present(s, 2));
    assert_false(present(s, 3));
    assert_true(present(s, 1));
    assert_true(present(s, 4));
    assert_int_equal(ns->mem, 100896 - 2 * 23752 + TS);
    assert_int_equal(ns->nqueues, 2);
    assert_ptr_equal(ns->lru_head, frag_lookup(ns, 1, 0, 1, IPPROTO_UDP_));
    assert_ptr_equal(ns->lru_tail, frag_lookup(ns, 4, 0, 1, IPPROTO_UDP_));
    world_free(s);
}

static void test_progressive_frees_let_the_other_cpu_evict_too(void **state)
{
    (void)state;
    /* atomic: the second CPU, 100 ns later, sees mem below high */
    struct sim *s = world("ipfrag_high_thresh = 100000\nipfrag_low_thresh = 60000\nipfrag.race_model = atomic");
    fill_abcd(s);
    feed(s, 0, 10000, 0, 4, 8);
    feed(s, 1, 10100, 0, 1, 10);
    assert_int_equal(ns_of(s)->evicted, 2);
    world_free(s);
    /* progressive: core 0's frees are still on its clock (4400 ns C_evq
     * before the first kfree_skb), so core 1 reads 103840 > high, takes
     * work = 43840 and evicts A (29640) and D (26696) as well */
    s = world("ipfrag_high_thresh = 100000\nipfrag_low_thresh = 60000");
    struct frag_ns *ns = ns_of(s);
    fill_abcd(s);
    feed(s, 0, 10000, 0, 4, 8);
    assert_int_equal(ns->evicted, 2);
    assert_int_equal(frag_mem(ns, time_from_ns(10100)), 103840);
    feed(s, 1, 10100, 0, 1, 10);
    assert_int_equal(ns->evicted, 4);
    assert_int_equal(ns->evictor_calls, 2);
    /* A's fragment made a new queue: a zombie of the datagram just killed */
    assert_int_equal(ns->zombies, 1);
    assert_int_equal(ns->nqueues, 1);
    /* once both cores' clocks have passed every free, only the new queue remains */
    assert_int_equal(frag_mem(ns, time_from_ns(1e6)), Q + TS);
    world_free(s);
}

/* ipfrag.md 6: an eviction's frees leave `mem` at T + the eviction cost up
 * to each free, T being the instant the fragment read `mem`, even when the
 * core's clock is already past T by the driver and stack work of the slice
 * (the other core reads `mem` at T too). Each skb leaves before its
 * kfree_skb (frag_kfree_skb: atomic_sub, then kfree_skb). */
static void test_evicted_bytes_leave_mem_eviction_cost_after_t(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag_high_thresh = 100000\nipfrag_low_thresh = 60000");
    struct frag_ns *ns = ns_of(s);
    fill_abcd(s);
    struct host *h = rx(s);
    evq_run(&s->q, time_from_ns(10000));
    s->q.now = time_from_ns(10000);
    struct core *c = &h->cores[0];
    c->clock = s->q.now + time_from_ns(1000);     /* C_drv + C_stack already spent in this slice */
    h->defrag(h, frag(0, 4, 8), c);
    assert_int_equal(ns->evicted, 2);
    /* B's first skb goes after C_evq (4400 ns, xeon-2012), not 1000 ns later */
    assert_int_equal(frag_mem(ns, time_from_ns(14399)), 100896 + TS);
    assert_int_equal(frag_mem(ns, time_from_ns(14400)), 100896);
    world_free(s);
}

/* ---- timers ---- */

static void test_timeout_is_not_extended(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag_time = 1s");
    struct frag_ns *ns = ns_of(s);
    feed(s, 0, 0, 0, 9, 0);
    feed(s, 0, 500e6, 0, 9, 1);                       /* 0.5 s later: no re-arm */
    evq_run(&s->q, time_from_ns(999e6));
    assert_int_equal(ns->nqueues, 1);
    assert_int_equal(ns->timeouts, 0);
    evq_run(&s->q, time_from_ns(1001e6));
    assert_int_equal(ns->nqueues, 0);
    assert_int_equal(ns->timeouts, 1);
    assert_int_equal(ns->fails, 1);
    assert_int_equal(ns->icmp_time_exceeded, 1);    /* it had its first fragment */
    assert_int_equal(ns->mem, 0);
    /* the expiry work is owed by core 0 and paid at its next fragment */
    assert_true(ns->expire_debt[0] > 0);
    feed(s, 0, 2000e6, 0, 10, 3);
    assert_true(ns->expire_debt[0] == 0);
    assert_true(rx(s)->prof[ns->sym_expire].calls == 1);
    world_free(s);
}

/* ---- variants ---- */

static void test_drop_new_scope_all_drops_every_fragment(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag.evictor = drop-new\nipfrag_high_thresh = 20000\nipfrag_low_thresh = 10000");
    struct frag_ns *ns = ns_of(s);
    assert_false(ns->ops->uses_lru);
    for (uint32_t k = 0; k < 7; k++)
        feed(s, 0, 100.0 * k, 0, 1, k);               /* 200 + 7 * 2944 = 20808 > high */
    assert_int_equal(ns->mem, 20808);
    feed(s, 0, 1000, 0, 1, 7);                        /* its own queue: dropped too */
    feed(s, 0, 1100, 0, 2, 0);
    assert_int_equal(ns->policy_drops, 2);
    assert_int_equal(ns->fails, 2);
    assert_int_equal(ns->evicted, 0);
    assert_int_equal(ns->mem, 20808);
    assert_int_equal(ns->nqueues, 1);
    world_free(s);
}

static void test_drop_new_scope_new_refuses_only_new_queues(void **state)
{
    (void)state;
    struct sim *s = world("ipfrag.evictor = drop-new\nipfrag.scope = new\n"
                          "ipfrag_high_thresh = 20000\nipfrag_low_thresh = 10000");
    struct frag_ns *ns = ns_of(s);
    for (uint32_t k = 0; k < 9; k++)
        feed(s, 0, 100.0 * k, 0, 1, k);               /* overshoots high: allowed */
    assert_int_equal(ns->mem, Q + 9 * TS);
    feed(s, 0, 1000, 0, 2, 0);
    assert_int_equal(ns->policy_drops, 1);
    assert_int_equal(ns->nqueues, 1);
    world_free(s);
}

static void test_lru_warm_spares_a_warm_head(void **state)
{
    (void)state;
    /* everything inside the first jiffy: the head (B) is warm, so the
     * tail goes instead; the tail is A after its two extra fragments */
    struct sim *s = world("ipfrag.evictor = lru-warm\nipfrag_high_thresh = 100000\nipfrag_low_thresh = 60000\n"
                          "ipfrag.race_model = atomic");
    struct frag_ns *ns = ns_of(s);
    fill_abcd(s);
    feed(s, 0, 10000, 0, 4, 8);
    /* work 40896: tail A (29640), then the new tail D (23752); D's
     * fragment then starts a new queue for D: a zombie */
    assert_false(present(s, 1));
    assert_true(present(s, 2));
    assert_int_equal(ns->evicted, 2);
    assert_int_equal(frag_lookup(ns, 4, 0, 1, IPPROTO_UDP_)->nfrags, 1);
    assert_int_equal(ns->zombies, 1);
    world_free(s);
    /* drop_incoming: nothing is evicted, the fragment is refused */
    s = world("ipfrag.evictor = lru-warm\nipfrag.taildrop_mode = drop_incoming\n"
              "ipfrag_high_thresh = 100000\nipfrag_low_thresh = 60000\nipfrag.race_model = atomic");
    ns = ns_of(s);
    fill_abcd(s);
    feed(s, 0, 10000, 0, 4, 8);
    assert_int_equal(ns->evicted, 0);
    assert_int_equal(ns->policy_drops, 1);
    assert_int_equal(ns->mem, 100896);
    /* two jiffies later the head is cold: plain LRU behaviour */
    feed(s, 0, 2.5e6, 0, 4, 9);
    assert_false(present(s, 2));
    assert_false(present(s, 3));
    assert_int_equal(ns->evicted, 2);
    world_free(s);
}

/* ---- whole runs ---- */

/* A receiver that keeps up and no loss: every datagram is reassembled, at
 * every threshold (one flow: two overlapping 64 KB datagrams would not fit
 * in 256K). */
static void test_no_loss_every_datagram_reassembled(void **state)
{
    (void)state;
    static const char *const th[][2] = { { "256K", "192K" }, { "4M", "3M" }, { "40M", "39M" }, { "400M", "399M" } };
    for (int i = 0; i < 4; i++) {
        char ini[1024];
        snprintf(ini, sizeof ini,
                 "[sim]\nduration = 50ms\n[host rx]\nipfrag_high_thresh = %s\nipfrag_low_thresh = %s\n"
                 "[link l]\nends = tx:eth0 rx:eth0\n"
                 "[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\nmsg_size = 65507\nrate = 2gbit\n",
                 th[i][0], th[i][1]);
        struct sim *s = world_build(ini);
        sim_run(s, false);
        struct frag_ns *ns = ns_of(s);
        struct flow *f = s->flows[0];
        uint64_t sent = 50000000ULL * 2 / 8 / 65507 + 1;   /* 191 datagrams in 50 ms */
        assert_int_equal(ns->fails, 0);
        assert_int_equal(ns->evicted, 0);
        assert_true(ns->oks >= sent - 1);                 /* the last may still be in flight */
        assert_int_equal(f->bytes, 65507 * (ns->oks - (uint64_t)s->hosts[1]->socks->rq.len));
        assert_int_equal(rx(s)->nics[0]->rx_missed, 0);
        world_free(s);
    }
}

static void test_bad_keys_are_errors(void **state)
{
    (void)state;
    world_cfg = cfg_load_string("t.ini", "[sim]\n[host rx]\nipfrag.evictor = fifo\nipfrag.hash_buckets = 100\n"
                                         "[link l]\nends = tx:eth0 rx:eth0\n");
    struct sim *s = sim_build(world_cfg, 0, false);
    assert_int_equal(cfg_errors(world_cfg), 2);
    world_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fragments_of_a_64k_datagram),
        cmocka_unit_test(test_truesize_and_queue_charges),
        cmocka_unit_test(test_overlaps_keep_new_data),
        cmocka_unit_test(test_damaged_piece_damages_datagram),
        cmocka_unit_test(test_hash_chain_head_insert_and_walks),
        cmocka_unit_test(test_evictor_frees_lru_head_down_to_low),
        cmocka_unit_test(test_progressive_frees_let_the_other_cpu_evict_too),
        cmocka_unit_test(test_evicted_bytes_leave_mem_eviction_cost_after_t),
        cmocka_unit_test(test_timeout_is_not_extended),
        cmocka_unit_test(test_drop_new_scope_all_drops_every_fragment),
        cmocka_unit_test(test_drop_new_scope_new_refuses_only_new_queues),
        cmocka_unit_test(test_lru_warm_spares_a_warm_head),
        cmocka_unit_test(test_no_loss_every_datagram_reassembled),
        cmocka_unit_test(test_bad_keys_are_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
