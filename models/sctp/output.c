/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.c - the outqueue of an association's sender, Linux 3.14
 * semantics (sctp.md A.4): what the send buffer lets the writer queue,
 * and how the queued and the to-be-retransmitted chunks are bundled into
 * packets under rules A and B, Max.Burst and Nagle. Kernel:
 * net/sctp/socket.c sctp_sendmsg / sctp_wspace, outqueue.c
 * sctp_outq_flush, output.c sctp_packet_can_append_data; RFC 4960 6.1.
 * The chunk ring is described in output.h; what acks, times out and
 * retransmits the chunks sent is transport.c's.
 */
#include <assert.h>
#include "models/sctp/output.h"
#include "models/sctp/sctp.h"
#include "sim/sim.h"
#include "sim/invariant.h"

/* sctp_wspace (3.14, sndbuf_policy 0): sk_sndbuf - sk_wmem_alloc while
 * that is positive; once wmem_alloc reaches sk_sndbuf, the stream rule
 * sk_sndbuf - sk_wmem_queued (chunk skb truesize only, without the
 * sizeof(struct sctp_chunk) part), or 0 if SO_SNDBUF locked the buffer.
 * Not modelled: the one byte sctp_packet_set_owner_w adds to wmem_alloc
 * per packet until the NIC frees it (a few bytes against a 2500-byte
 * charge per chunk). */
uint32_t sctp_wspace(const struct sctp_assoc *a)
{
    uint32_t sndbuf = a->sk.sndbuf;
    if (a->wmem_alloc < sndbuf)
        return sndbuf - a->wmem_alloc;
    if (a->sndbuf_locked)
        return 0;
    return a->wmem_queued < sndbuf ? sndbuf - a->wmem_queued : 0;   /* sk_stream_wspace, floored at 0 */
}

/* 3.14 sctp_sendmsg enters sctp_wait_for_sndbuf only when sctp_wspace() is
 * 0, whatever the message's size; once waiting, it sleeps until msg_len <=
 * sctp_wspace() (woken by __sctp_write_space whenever the space is > 0). A
 * message that finds a little space is queued and may overshoot sk_sndbuf
 * by up to one chunk. */
bool sctp_sndbuf_ready(struct sctp_assoc *a, uint32_t len)
{
    if (!a->sndbuf_wait && sctp_wspace(a) == 0)
        a->sndbuf_wait = true;
    if (a->sndbuf_wait && sctp_wspace(a) < len)
        return false;
    a->sndbuf_wait = false;
    return true;
}

/* sctp_set_owner_w: skb_set_owner_w charges the chunk skb's truesize to
 * sk_wmem_alloc, plus sizeof(struct sctp_chunk); sk_wmem_queued gets the
 * truesize (2304 for a 1452-, 1400- or 1636-byte message: kmalloc-2048). */
void sctp_set_owner_w(struct sctp_assoc *a, uint32_t len)
{
    uint32_t ts = sctp_chunk_truesize(len);
    a->wmem_alloc += ts + a->sh->chunk_struct_size;
    a->wmem_queued += ts;
}

/* sctp_wfree, the chunk skb's destructor when the chunk is freed. */
void sctp_wfree(struct sctp_assoc *a, uint32_t len)
{
    uint32_t ts = sctp_chunk_truesize(len);
    assert(a->wmem_alloc >= ts + a->sh->chunk_struct_size && a->wmem_queued >= ts);
    a->wmem_alloc -= ts + a->sh->chunk_struct_size;
    a->wmem_queued -= ts;
}

bool sctp_sendmsg(struct sctp_assoc *a, uint32_t len, struct core *c)
{
    struct host *h = a->host;
    if (!sctp_sndbuf_ready(a, len))
        return false;           /* sctp_wait_for_sndbuf */
    if (a->next_tsn - a->ctsn_ack_point >= SCTP_TX_RING)
        return false;           /* ring full: cannot happen with sndbuf / charge < ring (checked at setup) */
    sctp_charge(h, c, sctp_sym.syscall);
    sctp_charge(h, c, sctp_sym.sendmsg);
    sctp_charge(h, c, sctp_sym.pvclock);
    sctp_charge(h, c, sctp_sym.alloc_skb);
    sctp_charge_bytes(h, c, sctp_sym.copy_user, len);
    sctp_set_owner_w(a, len);
    struct sctp_chunk *ch = chunk_at(a, a->next_tsn);
    *ch = (struct sctp_chunk){ .tsn = a->next_tsn, .len = len, .state = CH_OUTQ };
    a->next_tsn++;
    a->out_qlen += SCTP_DATA_HDR + len;
    sctp_outq_flush(a, c, false);
    return true;
}

/* A packet being built on one transport: consecutive TSNs of one length
 * (what every flow here sends), bundled up to the PMTU. */
struct pkt {
    struct sctp_transport *t;
    uint32_t first, n, len;
    bool frtx;
};

static void pkt_send(struct sctp_assoc *a, struct pkt *p, struct core *c)
{
    if (!p->n)
        return;
    struct host *h = a->host;
    uint32_t bytes = p->n * (SCTP_DATA_HDR + p->len);
    sctp_charge(h, c, sctp_sym.pkt_xmit);
    sctp_charge_bytes(h, c, sctp_sym.memcpy_erms, bytes);
    struct skb *skb = sctp_skb_new(a, p->t, a->overhead + bytes);
    skb->payload = p->n * p->len;
    skb->tx_desc = 2;
    struct sctp_wire w = { .type = SCTP_DATA, .flags = p->frtx, .tsn = p->first, .nchunks = (uint16_t)p->n,
                           .len = p->len, .path = p->t->idx };
    memcpy(skb->l4, &w, sizeof w);
    a->st.data_packets_sent++;
    ip_output(h, skb, c);
    p->n = 0;
    p->frtx = false;
}

/* Append chunk ch to the packet (sending the packet first if ch does not
 * fit or does not follow), and account it as sent on the packet's
 * transport: sctp_packet_append_data and, for the transmitted list,
 * sctp_outq_flush. */
static void transmit(struct sctp_assoc *a, struct pkt *p, struct sctp_chunk *ch, bool retrans, struct core *c)
{
    struct sctp_transport *t = p->t;
    uint32_t room = a->pmtu - a->overhead;
    if (p->n && (ch->tsn != p->first + p->n || ch->len != p->len ||
                 (p->n + 1) * (SCTP_DATA_HDR + p->len) > room))
        pkt_send(a, p, c);
    if (!p->n) {
        p->first = ch->tsn;
        p->len = ch->len;
    }
    p->n++;
    sctp_charge(a->host, c, sctp_sym.outq_flush);
    ch->tp = t->idx;
    t->flight += ch->len;
    a->outstanding += ch->len;
    a->peer_rwnd = a->peer_rwnd > ch->len ? a->peer_rwnd - ch->len : 0;
    ch->sent_at = core_now(c);
    t->last_data_sent = ch->sent_at;
    if (retrans) {
        ch->resent = true;
        a->st.retransmits++;
    }
    if (ch->fast_rtx == FR_NEED) {
        ch->fast_rtx = FR_DONT;
        ch->frtx_sent = true;
        p->frtx = true;
        a->st.fast_retransmits++;
    }
    if (!ch->resent && !t->rto_pending) {
        ch->rtt_in_progress = true;
        t->rto_pending = true;
    }
    a->st.data_chunks_sent++;
    sctp_transport_reset_timers(t, c);
}

/* Rule A (RFC 4960 6.1 A): with data outstanding on the association, a
 * chunk larger than the peer's window waits; with nothing outstanding one
 * may go (a zero-window probe). Rule B: the transport's cwnd, except for
 * a chunk marked for fast retransmit. */
static bool can_send(struct sctp_assoc *a, const struct sctp_transport *t, const struct sctp_chunk *ch,
                     uint32_t cwnd_eff)
{
    if (ch->len > a->peer_rwnd && a->outstanding > 0)
        return false;
    if (ch->fast_rtx != FR_NEED && t->flight >= cwnd_eff)
        return false;
    return true;
}

/* Does chunk ch go into packet p (consecutive TSN, same length, within
 * the PMTU: sctp_packet_will_fit)? An empty packet takes any chunk. */
static bool pkt_fits(const struct sctp_assoc *a, const struct pkt *p, const struct sctp_chunk *ch)
{
    return !p->n || (ch->tsn == p->first + p->n && ch->len == p->len &&
                     (p->n + 1) * (SCTP_DATA_HDR + p->len) <= a->pmtu - a->overhead);
}

/* Nagle in 3.14 sctp_packet_can_append_data, for new data and
 * retransmissions alike: a chunk that would start a packet waits while
 * data is outstanding if it and the rest of the outq (q->out_qlen, less
 * the chunk itself when it is new data, dequeued before the check) would
 * not fill a packet, for an unfragmented message (msg->can_delay). The
 * check runs again when sctp_packet_transmit_chunk / flush_rtx retry a
 * chunk in the empty packet that follows a full one. Never for 1452-byte
 * IPv4 chunks (16 + 1452 fills 1468 bytes); for 1400-byte IPv6 chunks
 * whenever nothing else waits in the outq. */
static bool nagle_delay(const struct sctp_assoc *a, const struct sctp_chunk *ch, const struct pkt *p)
{
    uint64_t rest = a->out_qlen - (ch->state == CH_OUTQ ? SCTP_DATA_HDR + ch->len : 0);
    return !a->sh->nodelay && !p->n && a->outstanding > 0 &&
           SCTP_DATA_HDR + ch->len + rest < a->pmtu - a->overhead;
}

void sctp_outq_flush(struct sctp_assoc *a, struct core *c, bool rtx_timeout)
{
    /* 1. the retransmit queue, in TSN order (sctp_outq_flush_rtx), on
     * the retran path. Its rule B is the plain cwnd: 3.14 applies the
     * Max.Burst limit (sctp_transport_burst_limited) only after the
     * retransmit queue, to new data. A flush after T3 (rtx_timeout) or the
     * first flush after a SACK marked chunks for fast retransmit
     * (q->fast_rtx) sends one packet: with 1452-byte chunks, one chunk. A
     * fast-retransmit flush skips chunks still CAN_FRTX, but not DONT_FRTX
     * ones (the kernel tests !chunk->fast_retransmit). Whatever that one
     * packet left marked NEED_FRTX becomes DONT_FRTX: it waits in the
     * queue as an ordinary retransmission under cwnd and peer rwnd, and
     * can never be fast retransmitted again. Otherwise (window opened) as
     * many packets go as the rules allow. */
    /* sctp_transport_burst_limited on the active path: at most max_burst
     * packets beyond its flight per flush, for new data */
    struct sctp_transport *at = &a->tp[a->active];
    uint32_t cwnd_eff = at->cwnd;
    uint64_t burst = (uint64_t)at->flight + (uint64_t)a->sh->max_burst * a->pmtu;
    if (burst < cwnd_eff)
        cwnd_eff = (uint32_t)burst;

    if (a->nrtx) {
        struct pkt p = { .t = &a->tp[a->retran] };
        bool fast = a->fast_rtx, one = rtx_timeout || fast;
        bool done = false;
        for (uint32_t t = a->ctsn_ack_point + 1; !done && tsn_lt(t, a->next_send); t++) {
            struct sctp_chunk *ch = chunk_at(a, t);
            if (ch->state != CH_RTX || (fast && ch->fast_rtx == FR_CAN))
                continue;
            for (;;) {           /* sctp_packet_append_chunk, and its "redo" */
                if (!can_send(a, p.t, ch, p.t->cwnd) || nagle_delay(a, ch, &p)) {
                    done = true;          /* SCTP_XMIT_RWND_FULL / NAGLE_DELAY */
                    break;
                }
                if (pkt_fits(a, &p, ch))
                    break;
                pkt_send(a, &p, c);       /* SCTP_XMIT_PMTU_FULL */
                if (one) {
                    done = true;          /* "Bundle next chunk in the next round" */
                    break;
                }
            }
            if (done)
                break;
            ch->state = CH_SENT;
            a->nrtx--;
            transmit(a, &p, ch, true, c);
        }
        pkt_send(a, &p, c);
        if (one)
            for (uint32_t t = a->ctsn_ack_point + 1; tsn_lt(t, a->next_send); t++)
                if (chunk_at(a, t)->state == CH_RTX && chunk_at(a, t)->fast_rtx == FR_NEED)
                    chunk_at(a, t)->fast_rtx = FR_DONT;
        a->fast_rtx = false;
        if (a->nrtx)
            return;              /* no new data while retransmissions wait */
    }

    /* 2. new data from the outq, on the active path */
    struct pkt p = { .t = at };
    while (a->next_send != a->next_tsn) {
        struct sctp_chunk *ch = chunk_at(a, a->next_send);
        /* sctp_packet_transmit_chunk: rules A and B and Nagle; a chunk
         * that does not fit sends the packet and is tried again, Nagle
         * included, in the empty one */
        bool go = true;
        for (;;) {
            if (!can_send(a, p.t, ch, cwnd_eff) || nagle_delay(a, ch, &p)) {
                go = false;
                break;
            }
            if (pkt_fits(a, &p, ch))
                break;
            pkt_send(a, &p, c);
        }
        if (!go)
            break;
        if (ch->len > a->peer_rwnd)
            a->st.zero_window_probes++;
        INVARIANT(a->out_qlen >= SCTP_DATA_HDR + ch->len);
        a->out_qlen -= SCTP_DATA_HDR + ch->len;
        ch->state = CH_SENT;
        a->next_send++;
        transmit(a, &p, ch, false, c);
    }
    pkt_send(a, &p, c);
}

/* A packet of this association toward its peer on path t: addresses,
 * ports, flow, L3 length and the truesize of a locally built skb. A
 * multi-homed association picks the NIC of the path's source address. */
struct skb *sctp_skb_new(const struct sctp_assoc *a, const struct sctp_transport *t, uint32_t ip_len)
{
    struct skb *skb = skb_alloc();
    skb->family = a->family;
    skb->proto = IPPROTO_SCTP_;
    skb->daddr = a->peer_addr;
    skb->sport = a->sk.port;
    skb->dport = a->peer_port;
    skb->flow = a->flow;
    skb->ip_len = ip_len;
    skb->truesize = skb_truesize_for(ip_len + 16);   /* + LL_RESERVED_SPACE */
    if (t && a->npaths > 1)
        skb->oif = (uint8_t)(t->idx + 1);
    return skb;
}

void sctp_send_ctrl(struct sctp_transport *t, uint8_t type, uint32_t sent_at, struct core *c)
{
    struct sctp_assoc *a = t->a;
    sctp_charge(a->host, c, sctp_sym.pkt_xmit);
    struct skb *skb = sctp_skb_new(a, t, a->overhead + SCTP_HB_LEN);
    skb->tx_desc = 2;
    struct sctp_wire w = { .type = type, .tsn = sent_at, .path = t->idx };
    memcpy(skb->l4, &w, sizeof w);
    ip_output(a->host, skb, c);
}
