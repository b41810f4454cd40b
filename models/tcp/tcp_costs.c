/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_costs.c - what the TCP stack's work costs on a CPU (docs/models/tcp.md,
 * "CPU cost"): the kernel functions the engine books it under, and their
 * rows, added over the host's profile (sim/costs.c) as ipfrag and SCTP add
 * theirs. The engine's rows are not repeated: ip_output (200) is
 * ip_queue_xmit's route and header work, ip_rcv (350) the receive side's,
 * the NIC rows the driver's, copy_to_user (0.1 ns per byte) the reader's
 * copy, try_to_wake_up (1200) and schedule (2000) a sleeping reader's
 * wake-up; TCP books those where it does the work.
 *
 * Every figure is an estimate [est] for the `xeon-2012` core (Sandy
 * Bridge-EP, about 2.6 GHz: 100 ns is some 260 cycles) running 4.15's TCP,
 * of the order of the engine's rows for comparable work (udp_rcv 300,
 * udp_recvmsg 600) and of published per-packet costs; none was fitted to a
 * run. Summed, a full-sized in-order segment costs its receiver's softirq
 * core 1350 ns with the NIC and IP rows (250 + 350 + 300 + 150 + 300),
 * about 1.8 us with its share of the ACKs sent; Edward Cree's GRO-off
 * figures for "net: batched receive in GRO path" (netdev, 2019: one TCP
 * stream, 6.55 Gbit/s with the receive interrupts on one core, 1.8 us a
 * segment on a newer core) are of that order.
 *
 * The rows are the stack's, so they are the same whatever tcp.cc or
 * tcp.drs a host runs, and the same in every profile but `ideal` (which
 * costs nothing): xeon-2015-kvm and modern take them as they take the
 * engine's xeon-2012 rows. The offload rows (GSO, GRO, TSQ) are listed for
 * the code that will call them and charged by nothing yet.
 */
#include <string.h>
#include "models/tcp/internal.h"
#include "sim/costs.h"

struct tcp_syms tcp_sym;

void tcp_syms_init(void)
{
    struct tcp_syms *s = &tcp_sym;
    s->xmit = cpu_sym("tcp_transmit_skb");
    s->v4_rcv = cpu_sym("tcp_v4_rcv");
    s->v6_rcv = cpu_sym("tcp_v6_rcv");
    s->established = cpu_sym("tcp_rcv_established");
    s->data_queue = cpu_sym("tcp_data_queue");
    s->ofo = cpu_sym("tcp_data_queue_ofo");
    s->ack = cpu_sym("tcp_ack");
    s->ack_seg = cpu_sym("tcp_ack.per_seg");
    s->sacktag = cpu_sym("tcp_sacktag_write_queue");
    s->sacktag_seg = cpu_sym("tcp_sacktag_write_queue.per_seg");
    s->recvmsg = cpu_sym("tcp_recvmsg");
    s->recvmsg_skb = cpu_sym("tcp_recvmsg.per_skb");
    s->copy_to_user = cpu_sym("copy_to_user");
    s->wake = cpu_sym("try_to_wake_up");
    s->write_timer = cpu_sym("tcp_write_timer");
    s->delack_timer = cpu_sym("tcp_delack_timer");
    s->tsq_handler = cpu_sym("tcp_tsq_handler");
}

static const struct cost_row xeon_2012[] = {
    /* sending */
    { "tcp_sendmsg", 600, false, "[est] not charged: the bundled writers are unlimited sources that make no write() "
      "(tcp_stream.c); for one that does: syscall entry and exit, lock_sock and release_sock, tcp_push, as "
      "udp_sendmsg's 500 plus the socket lock, the copy being copy_from_user per byte" },
    { "tcp_transmit_skb", 400, false, "[est] per skb sent (data, ACK or SYN): skb_clone of a data skb or the "
      "allocation of an ACK's, TCP header and options, tcp_event_data_sent / tcp_event_ack_sent, and "
      "tcp_write_xmit's per-skb tests; ip_queue_xmit's route and IP header are the engine's ip_output (200)" },
    /* receiving */
    { "tcp_v4_rcv", 300, false, "[est] per skb in: __inet_lookup_established, the checksum flags the NIC set, "
      "bh_lock_sock and the backlog test; as udp_rcv's 300 (socket lookup and queueing)" },
    { "tcp_v6_rcv", 300, false, "[est] as tcp_v4_rcv, for a segment over IPv6: __inet6_lookup_established" },
    { "tcp_rcv_established", 150, false, "[est] per segment on an established socket: tcp_mstamp_refresh, header "
      "prediction or tcp_validate_incoming (PAWS, sequence window), ts_recent; some 400 cycles on warm lines" },
    { "tcp_data_queue", 300, false, "[est] per data segment: tcp_queue_rcv (tcp_try_coalesce onto the tail skb, the "
      "merged head freed) or the dispatch to the out-of-order path, tcp_event_data_recv (rcv_mss, ato, "
      "tcp_grow_window), __tcp_ack_snd_check, sk_data_ready's test (a wake-up is try_to_wake_up's)" },
    { "tcp_data_queue_ofo", 250, false, "[est] per out-of-order segment, over tcp_data_queue: the out-of-order "
      "rb-tree's insert (a few nodes at about 40 ns a cache miss, the figure of Dumazet's 'tcp: implement rb-tree "
      "based retransmit queue', 4.15) or a coalesce onto its last skb, and tcp_sack_new_ofo_skb" },
    { "tcp_recvmsg", 800, false, "[est] per recv() call: syscall entry and exit, lock_sock and release_sock (the "
      "backlog with it), the queue walk, tcp_cleanup_rbuf, tcp_rcv_space_adjust; udp_recvmsg's 600 plus the socket "
      "lock. The copy is copy_to_user per byte" },
    { "tcp_recvmsg.per_skb", 150, false, "[est] per skb a call frees (sk_eat_skb): __kfree_skb of a received skb, its "
      "head and page fragments; ipfrag's kfree_skb is 120 for one fragment, a coalesced skb holds several" },
    /* ACKs in */
    { "tcp_ack", 400, false, "[est] per ACK with data in flight: snd_una and the window, tcp_clean_rtx_queue's fixed "
      "part, tcp_ack_update_rtt, the RTO's mod_timer, tcp_rate_gen, the cc's cong_avoid or cong_control, RACK's "
      "check, tcp_fastretrans_alert; a softirq function's work, no syscall (udp_recvmsg's 600 has one)" },
    { "tcp_ack.per_seg", 100, false, "[est] per segment the ACK frees from the retransmit queue: the unlink, "
      "tcp_rate_skb_delivered, sk_wmem_free_skb of an MSS skb (ipfrag's kfree_skb: 120)" },
    { "tcp_sacktag_write_queue", 300, false, "[est] per ACK with SACK blocks: parse, sort, compare with "
      "recv_sack_cache, find the first skb in the rb-tree" },
    { "tcp_sacktag_write_queue.per_seg", 50, false, "[est] per segment newly SACKed: tcp_sacktag_one on one skb, "
      "about one cache miss (40 ns, Dumazet's figure above) and the counters" },
    /* timers */
    { "tcp_write_timer", 500, false, "[est] per retransmit-timer firing (RTO, RACK's reordering timeout, loss probe: "
      "one timer in 4.15): timer softirq expiry, bh_lock_sock, tcp_write_timer_handler; what it sends is "
      "tcp_transmit_skb's" },
    { "tcp_delack_timer", 300, false, "[est] per delayed-ACK timer firing: expiry, bh_lock_sock, the ato update; the "
      "ACK is tcp_transmit_skb's" },
    /* offloads: rows for the code that will call them, charged by nothing yet */
    { "tcp_gso_segment", 400, false, "[est] per GSO skb segmented in software (gso on, tso off; sim/nic.c): skb_segment's set-up, "
      "the header checks, the checksum fix-ups" },
    { "tcp_gso_segment.per_seg", 150, false, "[est] per segment made: an skb head from the cache, "
      "the headers copied, page fragment references, sequence and checksum; below one pass down the stack "
      "(tcp_transmit_skb + ip_output, 600), which is what GSO saves" },
    { "dev_gro_receive", 100, false, "[est] per frame offered to GRO with gro on: the walk of the held packets and "
      "the same-flow tests of inet_gro_receive and tcp4_gro_receive, beyond the bare attempt (GRO_NORMAL at once) "
      "that nic.md's C_drv (ixgbe_clean_rx_irq, 250) already holds" },
    { "tcp_gro_receive", 100, false, "[est] per frame merged into a held GRO skb: skb_gro_receive "
      "(the page fragment moved, lengths), the merged frame's head freed" },
    { "napi_gro_complete", 150, false, "[est] per GRO packet handed up: tcp4_gro_complete's and "
      "inet_gro_complete's header and checksum fix-ups, the dispatch to netif_receive_skb" },
    { "tcp_tsq_handler", 300, false, "[est] per run of the TCP Small Queues tasklet for a socket "
      "(4.15's pacing timer runs it too): tasklet entry, bh_lock_sock, tcp_tsq_write's tcp_write_xmit; what it "
      "sends is tcp_transmit_skb's" },
    { NULL, 0, false, NULL },
};

const struct cost_row *tcp_costs(const char *profile)
{
    return strcmp(profile, "ideal") ? xeon_2012 : NULL;
}
