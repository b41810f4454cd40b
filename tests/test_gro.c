/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_gro.c - GRO's merge and flush rules (Linux 4.15 dev_gro_receive,
 * skb_gro_receive, tcp_gro_receive; sim/gro.c with TCP's rules from
 * models/tcp/tcp_offload.c), GSO segmentation (tcp_gso_segment's
 * headers) and TCP Small Queues' limit (tcp_small_queue_check). Every
 * expectation is the kernel's arithmetic, worked out beside it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/gro.h"
#include "sim/offload.h"

#define MSS 1448
#define HDR (20 + 20 + 12)       /* IP, TCP, timestamps */
#define HEAD 896                 /* the NIC's skb head truesize */
#define BUF 2048                 /* its RX buffer */

static struct skb *up[64];
static int nup;
static void deliver(void *ctx, struct skb *skb)
{
    (void)ctx;
    up[nup++] = skb;
}

static struct skb *seg(uint16_t sport, uint64_t seq, uint32_t len, uint8_t flags)
{
    struct skb *s = skb_alloc();
    s->family = NET_IPV4;
    s->proto = IPPROTO_TCP_;
    s->saddr = 1;
    s->daddr = 2;
    s->sport = sport;
    s->dport = 5201;
    s->payload = len;
    s->ip_len = HDR + len;
    s->truesize = HEAD + BUF;
    struct tcp_hdr *th = (struct tcp_hdr *)(void *)s->l4;
    th->seq = seq;
    th->ack = 1;
    th->flags = flags;
    th->win = 1000;
    th->tsval = 7;
    th->tsecr = 3;
    return s;
}

static uint64_t hdr_seq_of(const struct skb *s) { return ((const struct tcp_hdr *)(const void *)s->l4)->seq; }

static struct gro_list g;
static int setup(void **state)
{
    (void)state;
    tcp_offload_init();
    memset(&g, 0, sizeof g);
    nup = 0;
    return 0;
}
static int teardown(void **state)
{
    (void)state;
    gro_purge(&g);
    for (int i = 0; i < nup; i++)
        skb_free(up[i]);
    assert_int_equal(skb_in_use(), 0);
    return 0;
}
static void rx(struct skb *s) { gro_receive(&g, s, BUF, 0, deliver, NULL); }

/* in-order full segments merge; the packet reaches 64 KB at the 45th:
 * 52 + 44 x 1448 = 63764, + 1448 = 65212 < 65536, the 46th would make
 * 66660 (-E2BIG): the packet goes up with 45 segments and the 46th starts
 * the next. Truesize: 17 page fragments in the head skb (its own and 16
 * merged buffers), then a frame on the frag_list whole (head and buffer),
 * 16 more buffers into it, and so on: 45 x 2048 + 3 x 896 */
static void test_merge_to_64k(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < 46; i++)
        rx(seg(1, 1 + (uint64_t)i * MSS, MSS, TH_ACK));
    assert_int_equal(nup, 1);
    assert_int_equal(up[0]->payload, 45 * MSS);
    assert_int_equal(up[0]->ip_len, HDR + 45 * MSS);
    assert_int_equal(up[0]->gso_size, MSS);
    assert_int_equal(skb_gso_segs(up[0]), 45);
    assert_int_equal(up[0]->truesize, 45 * BUF + 3 * HEAD);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.merged, 44);
    gro_flush(&g, false, 0, deliver, NULL);
    assert_int_equal(nup, 2);
    assert_int_equal(up[1]->gso_size, 0);           /* a lone segment: no GRO packet */
    assert_int_equal(hdr_seq_of(up[1]), 1 + 45 * MSS);
}

/* MAX_SKB_FRAGS 17: frames 1-17 in the head skb, 18 starts the
 * frag_list, 19-34 join it: 34 segments hold two heads, the 35th a third */
static void test_frag_limit(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < 34; i++)
        rx(seg(1, 1 + (uint64_t)i * MSS, MSS, TH_ACK));
    gro_flush(&g, false, 0, deliver, NULL);
    assert_int_equal(nup, 1);
    assert_int_equal(up[0]->truesize, 34 * BUF + 2 * HEAD);
    for (uint32_t i = 0; i < 35; i++)
        rx(seg(1, 1 + (uint64_t)i * MSS, MSS, TH_ACK));
    gro_flush(&g, false, 0, deliver, NULL);
    assert_int_equal(up[1]->truesize, 35 * BUF + 3 * HEAD);
}

/* any header difference but the sequence ends the packet, and the
 * segment starts the next one */
static void test_flush_on_header(void **state)
{
    (void)state;
    rx(seg(1, 1, MSS, TH_ACK));
    rx(seg(1, 1 + MSS, MSS, TH_ACK));
    struct skb *s = seg(1, 1 + 2 * MSS, MSS, TH_ACK);
    ((struct tcp_hdr *)(void *)s->l4)->tsval = 8;   /* the sender's clock ticked */
    rx(s);
    assert_int_equal(nup, 1);
    assert_int_equal(up[0]->payload, 2 * MSS);
    s = seg(1, 1 + 3 * MSS, MSS, TH_ACK);
    ((struct tcp_hdr *)(void *)s->l4)->tsval = 8;
    ((struct tcp_hdr *)(void *)s->l4)->win = 999;   /* the window field is in the flag word */
    rx(s);
    assert_int_equal(nup, 2);
    s = seg(1, 1 + 4 * MSS, MSS, TH_ACK);
    ((struct tcp_hdr *)(void *)s->l4)->tsval = 8;
    ((struct tcp_hdr *)(void *)s->l4)->win = 999;
    s->tos = INET_ECN_CE;                          /* inet_gro_receive: TOS differs */
    rx(s);
    assert_int_equal(nup, 3);
    s = seg(1, 1 + 6 * MSS, MSS, TH_ACK);          /* a hole: not next in sequence */
    ((struct tcp_hdr *)(void *)s->l4)->tsval = 8;
    ((struct tcp_hdr *)(void *)s->l4)->win = 999;
    rx(s);
    assert_int_equal(nup, 4);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.merged, 1);
}

/* a longer segment than the first flushes; a shorter one merges and
 * ends the packet; a pure ACK of the flow ends it and goes up alone */
static void test_lengths_and_acks(void **state)
{
    (void)state;
    rx(seg(1, 1, 1000, TH_ACK));
    rx(seg(1, 1001, MSS, TH_ACK));                 /* (len - 1) >= mss */
    assert_int_equal(nup, 1);
    assert_int_equal(up[0]->payload, 1000);
    rx(seg(1, 1001 + MSS, 500, TH_ACK));           /* len < mss: merged, then flushed */
    assert_int_equal(nup, 2);
    assert_int_equal(up[1]->payload, MSS + 500);
    assert_int_equal(g.n, 0);
    rx(seg(1, 1001 + MSS + 500, MSS, TH_ACK));
    rx(seg(1, 1001 + 2 * MSS + 500, 0, TH_ACK));   /* a pure ACK: flush both */
    assert_int_equal(nup, 4);
    assert_int_equal(up[3]->payload, 0);
    assert_int_equal(g.n, 0);
    rx(seg(1, 1, MSS, TH_ACK | TH_CWR));           /* CWR is held (as a new packet) ... */
    assert_int_equal(g.n, 1);
    rx(seg(1, 1 + MSS, MSS, TH_ACK | TH_CWR));     /* ... but never merged */
    assert_int_equal(nup, 5);
    assert_int_equal(g.n, 1);
}

/* eight flows held at most: the ninth flushes the oldest; flush_old keeps
 * the packets of this jiffy */
static void test_eight_flows(void **state)
{
    (void)state;
    for (uint16_t f = 1; f <= 8; f++)
        gro_receive(&g, seg(f, 1, MSS, TH_ACK), BUF, f <= 4 ? 10 : 11, deliver, NULL);
    assert_int_equal(g.n, 8);
    assert_int_equal(nup, 0);
    gro_receive(&g, seg(9, 1, MSS, TH_ACK), BUF, 11, deliver, NULL);
    assert_int_equal(nup, 1);
    assert_int_equal(up[0]->sport, 1);
    gro_flush(&g, true, 11, deliver, NULL);        /* flows 2-4 were held in jiffy 10 */
    assert_int_equal(nup, 4);
    assert_int_equal(up[3]->sport, 4);
    assert_int_equal(g.n, 5);
}

/* tcp_gso_segment: sequence numbers step by the mss, CWR only on the
 * first segment, the last carries the remainder, IP ids count up */
static void test_gso_segment(void **state)
{
    (void)state;
    struct skb *s = seg(1, 1, 3 * MSS + 100, TH_ACK | TH_CWR);
    s->gso_size = MSS;
    s->ip_id = 40;
    assert_int_equal(skb_gso_segs(s), 4);
    struct skb *l = skb_gso_segment(s, false);
    int n = 0;
    for (struct skb *f = l, *nx; f; f = nx, n++) {
        nx = f->next;
        const struct tcp_hdr *th = (const struct tcp_hdr *)(const void *)f->l4;
        assert_int_equal(th->seq, 1 + (uint64_t)n * MSS);
        assert_int_equal(!!(th->flags & TH_CWR), n == 0);
        assert_int_equal(f->payload, n < 3 ? MSS : 100);
        assert_int_equal(f->ip_len, HDR + f->payload);
        assert_int_equal(f->ip_id, 40 + n);
        assert_int_equal(f->gso_size, 0);
        up[nup++] = f;
    }
    assert_int_equal(n, 4);
}

/* tcp_small_queue_check: max(2 x truesize, rate >> 10), capped at
 * tcp_limit_output_bytes, doubled for a retransmission; over it the
 * socket waits unless nothing is in flight */
static void test_tsq_limit(void **state)
{
    (void)state;
    static struct tcp_sock tp;
    static struct tcp_host th;
    memset(&tp, 0, sizeof tp);
    th.tsq = true;
    th.limit_output_bytes = 262144;
    tp.th = &th;
    tp.packets_out = 10;
    tp.pacing_rate = 125000000;                    /* 1 Gbit/s: 122070 bytes a ms */
    tp.sk.wmem_alloc = 122070;
    assert_false(tcp_small_queue_check(&tp, 2304, false));
    tp.sk.wmem_alloc = 122071;
    assert_true(tcp_small_queue_check(&tp, 2304, false));
    assert_true(tp.tsq_throttled);
    assert_int_equal(tp.st.tsq_throttled, 1);
    assert_false(tcp_small_queue_check(&tp, 2304, true));   /* 244140 for a retransmission */
    tp.pacing_rate = 1250000000;                   /* 10 Gbit/s: 1220703, capped at 262144 */
    tp.sk.wmem_alloc = 262144;
    assert_false(tcp_small_queue_check(&tp, 2304, false));
    tp.sk.wmem_alloc = 262145;
    assert_true(tcp_small_queue_check(&tp, 2304, false));
    assert_false(tcp_small_queue_check(&tp, 2304, true));   /* 524288 */
    tp.pacing_rate = 1250000;                      /* 10 Mbit/s: 1220 bytes; two packets: 2 x 66816 */
    tp.sk.wmem_alloc = 133632;
    assert_false(tcp_small_queue_check(&tp, 66816, false));
    tp.sk.wmem_alloc = 133633;
    assert_true(tcp_small_queue_check(&tp, 66816, false));
    tp.packets_out = 0;                            /* tcp_rtx_queue_empty: always send */
    assert_false(tcp_small_queue_check(&tp, 66816, false));
    tp.packets_out = 10;
    th.tsq = false;                                /* tcp.tsq = off: an older kernel */
    assert_false(tcp_small_queue_check(&tp, 66816, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_merge_to_64k, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frag_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flush_on_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lengths_and_acks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eight_flows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gso_segment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tsq_limit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
