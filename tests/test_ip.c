/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_ip.c - the IP layer's output rules: IPv4 ids per destination, DF
 * from the socket's IP_MTU_DISCOVER, "fragmentation needed" from a router
 * and the path MTU its source learns, and fragmentation on a router
 * (including splitting fragments again).
 *
 * The worlds are a sender, a router and a receiver; the router's link to
 * the receiver has a 1000-byte MTU, so a 1500-byte packet does not fit it:
 * 1480 bytes of L4 data split into 976 + 504 ((1000 - 20) rounded down to 8).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "load/load.h"
#include "sim/sim.h"
#include "sim/sock.h"
#include "load/scenario.h"
#include "tests/world.h"

static uint32_t nfr, lens[128], offs[128], mf[128], ids[128];

static void observe(struct nic *n, const struct skb *skb, bool drop)
{
    (void)n;
    (void)drop;
    if (nfr < 128) {
        lens[nfr] = skb->ip_len;
        offs[nfr] = skb->frag_off;
        mf[nfr] = skb->more_frags;
        ids[nfr] = skb->ip_id;
    }
    nfr++;
}

/* tx -- r -- rx, the second hop at 1000 bytes; one UDP flow with the keys
 * `flow_keys`, for `dur`. */
static struct sim *line(const char *dur, const char *flow_keys)
{
    char ini[1024];
    snprintf(ini, sizeof ini,
             "[sim]\nduration = %s\n"
             "[link a]\nends = tx:eth0 r:eth0\n"
             "[link b]\nends = r:eth1 rx:eth0\nmtu = 1000\n"
             "[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\n%s\n",
             dur, flow_keys);
    struct sim *s = world_build(ini);
    host_find(s, "rx")->nics[0]->rx_observer = observe;
    nfr = 0;
    return s;
}

static void test_ip_ids_count_per_destination(void **state)
{
    (void)state;
    struct sim *s = world_build("[sim]\nduration = 10ms\n"
                                "[link a]\nends = tx:eth0 rx:eth0\n[link b]\nends = tx:eth1 rx2:eth0\n"
                                "[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\nmsg_size = 3000\nrate = 10mbit\n"
                                "[flow 2]\napp = udp_stream\nfrom = tx\nto = rx2\nrate = 5mbit\n");
    struct host *tx = host_find(s, "tx");
    host_find(s, "rx")->nics[0]->rx_observer = observe;
    nfr = 0;
    sim_run(s, false);
    uint64_t to_rx = s->flows[0]->bytes / 3000, to_rx2 = s->flows[1]->bytes / 1472;
    assert_true(to_rx >= 3 && to_rx2 >= 3);
    /* each destination has its own counter from 0, as inet_peer's
     * ip_id_count; flow 2's datagrams fit the MTU and go with DF, which in
     * 3.7 (unconnected socket) gives id 0 and leaves the counter alone */
    assert_int_equal(tx->ip_id[host_find(s, "rx")->id], to_rx);
    assert_int_equal(tx->ip_id[host_find(s, "rx2")->id], 0);
    /* a 3000-byte datagram is 3 fragments sharing one id: 0, 0, 0, 1, 1, 1, ... */
    assert_int_equal(nfr, 3 * to_rx);
    for (uint32_t k = 0; k < nfr; k++)
        assert_int_equal(ids[k], k / 3);
    world_free(s);
}

static void test_df_drop_icmp_and_path_mtu(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = line("10ms", "msg_size = 1472\nrate = 10mbit");
    struct host *tx = host_find(s, "tx"), *rx = host_find(s, "rx");
    sim_run(s, false);
    uint64_t sent = world_counter(s, "flow.1.datagrams_sent");
    assert_true(sent >= 8);
    /* the first datagram leaves with DF (pmtudisc want, it fits the first
     * hop): the router drops it and answers; the sender learns 1000 and
     * fragments every later one itself, without DF */
    assert_int_equal(world_counter(s, "r.ip_frag_fails"), 1);
    assert_int_equal(world_counter(s, "tx.icmp_frag_needed"), 1);
    assert_int_equal(tx->pmtu[0][rx->id], 1000);
    assert_int_equal(tx->frags_created, 2 * (sent - 1));
    assert_int_equal(host_find(s, "r")->frags_created, 0);
    assert_int_equal(world_counter(s, "flow.1.datagrams_received"), sent - 1);
    assert_int_equal(nfr, 2 * (sent - 1));
    assert_int_equal(lens[0], 20 + 976);
    assert_int_equal(offs[1], 976);
    assert_int_equal(lens[1], 20 + 504);
    assert_int_equal(mf[0] * 10 + mf[1], 10);
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

static void test_router_fragments_without_df(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = line("10ms", "msg_size = 1472\nrate = 10mbit\npmtudisc = dont");
    sim_run(s, false);
    uint64_t sent = world_counter(s, "flow.1.datagrams_sent");
    assert_int_equal(world_counter(s, "r.ip_frag_fails"), 0);
    assert_int_equal(world_counter(s, "tx.icmp_frag_needed"), 0);
    assert_int_equal(host_find(s, "r")->frags_created, 2 * sent);
    assert_int_equal(world_counter(s, "flow.1.datagrams_received"), sent);
    for (uint32_t k = 0; k < nfr; k++) {
        assert_int_equal(offs[k], k % 2 ? 976 : 0);
        assert_int_equal(lens[k], k % 2 ? 20 + 504 : 20 + 976);
        assert_int_equal(mf[k], !(k % 2));
    }
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

/* A 65507-byte datagram leaves as 44 x 1480 + 395 bytes of L4 data; the
 * router splits each 1480 into 976 + 504 at the fragment's own offset, the
 * last 395 fits. Only the datagram's last piece has MF clear. */
static void test_router_splits_fragments_again(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = line("3ms", "msg_size = 65507\nrate = 100mbit");
    sim_run(s, false);
    assert_int_equal(world_counter(s, "flow.1.datagrams_sent"), 1);
    assert_int_equal(nfr, 2 * 44 + 1);
    for (uint32_t k = 0; k < 44; k++) {
        assert_int_equal(offs[2 * k], k * 1480);
        assert_int_equal(offs[2 * k + 1], k * 1480 + 976);
        assert_int_equal(mf[2 * k] + mf[2 * k + 1], 2);
    }
    assert_int_equal(offs[88], 44 * 1480);
    assert_int_equal(lens[88], 20 + 395);
    assert_int_equal(mf[88], 0);
    assert_int_equal(world_counter(s, "flow.1.datagrams_received"), 1);
    assert_int_equal(s->flows[0]->bytes, 65507);
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

/* pmtudisc = do: the first datagram leaves with DF and is refused by the
 * router; once the sender knows the path MTU, sendmsg fails (EMSGSIZE)
 * before anything is sent, and that is counted as a drop of its own */
static void test_pmtudisc_do_learns_and_refuses(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = line("10ms", "msg_size = 1472\nrate = 10mbit\npmtudisc = do");
    sim_run(s, false);
    uint64_t sent = world_counter(s, "flow.1.datagrams_sent");
    assert_int_equal(world_counter(s, "r.ip_frag_fails"), 1);
    assert_int_equal(world_counter(s, "tx.icmp_frag_needed"), 1);
    assert_int_equal(world_counter(s, "flow.1.emsgsize"), sent - 1);
    assert_int_equal(world_counter(s, "flow.1.datagrams_received"), 0);
    assert_int_equal(host_find(s, "tx")->frags_created, 0);
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

/* The path MTU is kept per family: an IPv4 "fragmentation needed" says
 * nothing about IPv6 to the same host */
static void test_path_mtu_per_family(void **state)
{
    (void)state;
    struct sim *s = line("10ms", "msg_size = 1472\nrate = 10mbit");
    struct host *tx = host_find(s, "tx"), *rx = host_find(s, "rx");
    sim_run(s, false);
    assert_int_equal(ip_path_mtu(tx, rx->id, NET_IPV4), 1000);
    assert_int_equal(ip_path_mtu(tx, rx->id, NET_IPV6), 1500);
    assert_int_equal(ip_route_min_mtu(tx, rx->id), 1000);
    world_free(s);
}

/* A fragmented echo: the reply is a new datagram, the request's fragments
 * and their RX pages go back at once; nothing leaks */
static void test_fragmented_ping_frees_everything(void **state)
{
    (void)state;
    uint64_t before = skb_in_use();
    struct sim *s = world_build("[sim]\nduration = 50ms\n[link a]\nends = tx:eth0 rx:eth0\n"
                                "[flow 1]\napp = ping\nfrom = tx\nto = rx\nsize = 5000\ninterval = 10ms\n");
    sim_run(s, false);
    assert_int_equal(world_counter(s, "flow.1.ping_sent"), 5);
    assert_int_equal(world_counter(s, "flow.1.ping_received"), 5);
    assert_int_equal(host_find(s, "rx")->frags_created, 4 * 5);
    world_free(s);
    assert_int_equal(skb_in_use(), before);
}

/* IPv6 routers do not fragment and the model has no IPv6 reassembly, so an
 * inet6 flow must fit the smallest MTU on its route, which must be >= 1280 */
static void test_inet6_route_checks(void **state)
{
    (void)state;
    const char *base = "[sim]\nduration = 1ms\n[link a]\nends = tx:eth0 r:eth0\n[link b]\nends = r:eth1 rx:eth0\n"
                       "mtu = %s\n[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\nfamily = inet6\nmsg_size = %s\n";
    const char *cases[][3] = { { "1200", "1000", "1" }, { "1280", "1300", "1" }, { "1280", "1232", "0" } };
    for (size_t i = 0; i < 3; i++) {
        char ini[512];
        snprintf(ini, sizeof ini, base, cases[i][0], cases[i][1]);
        struct cfg *cfg = cfg_load_string("t.ini", ini);
        struct sim *s = sim_build(cfg, 0, false);
        assert_int_equal(cfg_errors(cfg), atoi(cases[i][2]));
        sim_free(s);
        cfg_free(cfg);
    }
}

static void test_pmtudisc_do_larger_than_the_mtu_is_an_error(void **state)
{
    (void)state;
    struct cfg *cfg = cfg_load_string("t.ini", "[sim]\nduration = 1ms\n[link a]\nends = tx:eth0 rx:eth0\n"
                                               "[flow 1]\napp = udp_stream\nfrom = tx\nto = rx\n"
                                               "msg_size = 2000\npmtudisc = do\n");
    struct sim *s = sim_build(cfg, 0, false);
    assert_int_equal(cfg_errors(cfg), 1);
    sim_free(s);
    cfg_free(cfg);
}

/* Two links between the same hosts: the route takes eth0; a packet whose
 * sender fixed its egress NIC (skb->oif = index + 1, a multi-homed SCTP
 * path's source address) leaves on that NIC instead. */
static void test_oif_picks_the_nic(void **state)
{
    (void)state;
    /* bql = off: with byte queue limits (the default) the second packet on
     * eth0 waits in its qdisc for a TX clean that this test does not run */
    struct sim *s = world_build("[sim]\nduration = 1ms\n[host tx]\nbql = off\n"
                                "[link a]\nends = tx:eth0 rx:eth0\n[link b]\nends = tx:eth1 rx:eth1\n");
    struct host *tx = host_find(s, "tx"), *rx = host_find(s, "rx");
    /* oif 0: the route (eth0); 1: eth0; 2: eth1 */
    static const uint64_t eth0[3] = { 1, 2, 2 }, eth1[3] = { 0, 0, 1 };
    for (int k = 0; k < 3; k++) {
        struct skb *skb = skb_alloc();
        skb->family = NET_IPV4;
        skb->proto = 17;
        skb->daddr = rx->id;
        skb->ip_len = 100;
        skb->truesize = 768;
        skb->oif = (uint8_t)k;
        assert_int_equal(ip_output(tx, skb, &tx->cores[0]), 0);
        assert_int_equal(world_nic_tx_packets(tx->nics[0]), eth0[k]);
        assert_int_equal(world_nic_tx_packets(tx->nics[1]), eth1[k]);
    }
    world_free(s);
}

/* truesize as __alloc_skb gives it: kmalloc's power-of-two caches up to
 * 8 KB, whole pages above, plus the 256-byte sk_buff; checked against
 * the plain search for every length up to 64 KB and past it. */
static void test_truesize_kmalloc_classes(void **state)
{
    (void)state;
    assert_int_equal(skb_truesize_for(0), 512 + 256);          /* 320 of shinfo -> 512 */
    assert_int_equal(skb_truesize_for(1514), 2048 + 256);
    assert_int_equal(skb_truesize_for(66), 512 + 256);
    for (uint32_t len = 0; len < 70000; len++) {
        uint32_t need = ((len + 63) & ~63u) + 320, k = 32;
        if (need <= 8192)
            while (k < need)
                k <<= 1;
        else
            k = (need + 4095) & ~4095u;
        if (skb_truesize_for(len) != k + 256)
            fail_msg("len %u: %u, want %u", len, skb_truesize_for(len), k + 256);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oif_picks_the_nic),
        cmocka_unit_test(test_ip_ids_count_per_destination),
        cmocka_unit_test(test_df_drop_icmp_and_path_mtu),
        cmocka_unit_test(test_router_fragments_without_df),
        cmocka_unit_test(test_router_splits_fragments_again),
        cmocka_unit_test(test_pmtudisc_do_learns_and_refuses),
        cmocka_unit_test(test_path_mtu_per_family),
        cmocka_unit_test(test_truesize_kmalloc_classes),
        cmocka_unit_test(test_fragmented_ping_frees_everything),
        cmocka_unit_test(test_inet6_route_checks),
        cmocka_unit_test(test_pmtudisc_do_larger_than_the_mtu_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
