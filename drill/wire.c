/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire.c - a script's TCP packet and netsim's segment (struct tcp_hdr in
 * skb->l4, models/tcp/tcp.h), each way, and their comparison (wire.h).
 *
 * netsim keeps TCP options as values, not bytes (the model charges 20
 * bytes of options on a SYN, tcp_pcap.c lays them out): an outbound
 * segment's options read as Linux orders them (tcp_options_write: MSS,
 * SACK-permitted, timestamps, window scale on a SYN; timestamps then SACK
 * blocks after), and the comparison is of the options' kinds and values
 * in order, NOPs and EOLs aside.
 */
#include <stdio.h>
#include <string.h>
#include "drill/wire.h"
#include "models/tcp/tcp.h"
#include "sim/skb.h"
#include "sim/sock.h"

static const struct { uint16_t df; uint8_t th; } flag_map[] = {
    { DF_SYN, TH_SYN }, { DF_ACK, TH_ACK }, { DF_FIN, TH_FIN }, { DF_ECE, TH_ECE }, { DF_CWR, TH_CWR },
};

static uint32_t opt_bytes(const struct drill_opt *o)
{
    switch (o->kind) {
    case DO_NOP: case DO_EOL: return 1;
    case DO_MSS: return 4;
    case DO_WSCALE: return 3;
    case DO_SACKOK: return 2;
    case DO_TS: return 10;
    case DO_SACK: return 2 + 8 * (uint32_t)o->nsack;
    default: return 0;
    }
}

struct skb *wire_inbound(const struct drill_packet *pk, uint32_t remote_isn, uint16_t sport, uint16_t dport,
                         char *unsup, int len)
{
    const char *what = pk->proto != DP_TCP ? (pk->proto == DP_UDP ? "an inbound UDP datagram" : "an inbound ICMP message")
                       : pk->flags & DF_RST ? "an inbound RST (netsim's TCP has no reset)"
                       : pk->flags & DF_FIN ? "an inbound FIN (netsim's TCP has no connection teardown)"
                       : pk->flags & (DF_URG | DF_AE) ? "an inbound URG or AE flag"
                       : pk->urg >= 0 ? "an urgent pointer"
                       : pk->opts_any ? "<...> options on an inbound packet"
                       : pk->ip_version == 6 ? "IPv6" : NULL;
    for (int i = 0; !what && i < pk->nopts; i++) {
        enum drill_opt_kind k = pk->opts[i].kind;
        if (k == DO_FO || k == DO_FOEXP)
            what = "TCP Fast Open";
        else if (k == DO_MD5)
            what = "the MD5 option";
        else if (k == DO_ACCECN)
            what = "AccECN";
    }
    if (what) {
        snprintf(unsup, (size_t)len, "%s", what);
        return NULL;
    }
    struct skb *skb = skb_alloc();
    struct tcp_hdr *th = (struct tcp_hdr *)(void *)skb->l4;
    th->seq = (uint32_t)(pk->seq - remote_isn);
    th->ack = pk->ack;
    th->win = pk->win >= 0 ? (uint32_t)pk->win : 65535;
    th->wscale = 0xff;
    for (size_t i = 0; i < sizeof flag_map / sizeof flag_map[0]; i++)
        if (pk->flags & flag_map[i].df)
            th->flags |= flag_map[i].th;
    uint32_t ob = 0;
    for (int i = 0; i < pk->nopts; i++) {
        const struct drill_opt *o = &pk->opts[i];
        ob += opt_bytes(o);
        switch (o->kind) {
        case DO_MSS: th->mss = (uint16_t)o->a; break;
        case DO_WSCALE: th->wscale = (uint8_t)o->a; break;
        case DO_SACKOK: th->sack_ok = 1; break;
        case DO_TS:
            th->ts_ok = 1;
            th->tsval = o->a;
            th->tsecr = o->b;
            break;
        case DO_SACK:
            /* the model's blocks are offsets from the ACK (tcp.h); the
             * receiver of them reads at most 3 beside timestamps */
            th->nsack = (uint8_t)(o->nsack < 3 ? o->nsack : 3);
            for (int b = 0; b < th->nsack; b++) {
                th->sack[b][0] = o->sack[b][0] - pk->ack;
                th->sack[b][1] = o->sack[b][1] - pk->ack;
            }
            break;
        default: break;
        }
    }
    ob = (ob + 3) & ~3u;
    skb->family = NET_IPV4;
    skb->proto = IPPROTO_TCP_;
    skb->sport = sport;
    skb->dport = dport;
    skb->payload = pk->len;
    skb->tos = pk->ecn == DECN_UNSET ? 0 : (uint8_t)(pk->ecn & INET_ECN_MASK);
    skb->df = true;
    skb->ip_len = IPV4_HDR_LEN + TCP_HDR_LEN + ob + pk->len;
    skb->truesize = skb_truesize_for(skb->ip_len + 16);
    skb->tx_desc = 2;
    return skb;
}

static void add(struct drill_packet *p, struct drill_opt o)
{
    if (p->nopts < DRILL_MAX_OPTS)
        p->opts[p->nopts++] = o;
}

void wire_outbound(const struct skb *skb, uint32_t remote_isn, struct drill_packet *out)
{
    struct tcp_hdr th;
    memcpy(&th, skb->l4, sizeof th);
    memset(out, 0, sizeof *out);
    out->proto = DP_TCP;
    out->ecn = skb_ecn(skb);
    out->tos = -1;
    out->urg = -1;
    out->sport = skb->sport;
    out->dport = skb->dport;
    for (size_t i = 0; i < sizeof flag_map / sizeof flag_map[0]; i++)
        if (th.flags & flag_map[i].th)
            out->flags |= flag_map[i].df;
    out->seq = (uint32_t)th.seq;
    out->len = skb->payload;
    out->end = out->seq + out->len;
    out->has_ack = th.flags & TH_ACK;
    out->ack = out->has_ack ? (uint32_t)(remote_isn + th.ack) : 0;
    out->win = (int32_t)th.win;
    /* the options the header's length holds: ip_len less the headers
     * and the payload (the model charges what it sends) */
    uint32_t room = skb->ip_len - ip_hdr_len(skb->family) - TCP_HDR_LEN - skb->payload;
    if (th.flags & TH_SYN) {
        add(out, (struct drill_opt){ .kind = DO_MSS, .a = th.mss });
        if (th.sack_ok)
            add(out, (struct drill_opt){ .kind = DO_SACKOK });
        if (th.ts_ok)
            add(out, (struct drill_opt){ .kind = DO_TS, .a = th.tsval, .b = th.tsecr });
        if (th.wscale != 0xff)
            add(out, (struct drill_opt){ .kind = DO_WSCALE, .a = th.wscale });
    } else {
        uint32_t sack = th.nsack ? 4u + 8u * th.nsack : 0;
        if (room >= sack + TCPOLEN_TS_ALIGNED)
            add(out, (struct drill_opt){ .kind = DO_TS, .a = th.tsval, .b = th.tsecr });
        if (th.nsack) {
            struct drill_opt o = { .kind = DO_SACK, .nsack = th.nsack };
            for (int b = 0; b < th.nsack && b < DRILL_MAX_SACK; b++) {
                o.sack[b][0] = out->ack + th.sack[b][0];
                o.sack[b][1] = out->ack + th.sack[b][1];
            }
            add(out, o);
        }
    }
    out->opts_given = out->nopts > 0;
}

/* the options that carry something, in order: NOPs and EOLs aside */
static int real_opts(const struct drill_packet *p, const struct drill_opt **v)
{
    int n = 0;
    for (int i = 0; i < p->nopts; i++)
        if (p->opts[i].kind != DO_NOP && p->opts[i].kind != DO_EOL)
            v[n++] = &p->opts[i];
    return n;
}

static bool opt_equal(const struct drill_opt *a, const struct drill_opt *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case DO_MSS: case DO_WSCALE: return a->a == b->a;
    case DO_TS: return a->b == b->b;                 /* the ecr; the val is the host's clock */
    case DO_SACK: return a->nsack == b->nsack && !memcmp(a->sack, b->sack, sizeof a->sack[0] * (size_t)a->nsack);
    default: return true;
    }
}

#define WHY(...) do { if (at < len) at += snprintf(why + at, (size_t)(len - at), "%s", at ? ", " : ""); \
                      if (at < len) at += snprintf(why + at, (size_t)(len - at), __VA_ARGS__); } while (0)

int wire_compare(const struct drill_packet *want, const struct drill_packet *got, char *why, int len)
{
    int at = 0;
    why[0] = 0;
    uint16_t mask = (uint16_t)~DF_PSH;               /* netsim's TCP sets no PSH */
    if ((want->flags & mask) != (got->flags & mask))
        WHY("flags");
    if (want->seq != got->seq || want->len != got->len)
        WHY("sequence %u:%u(%u) vs %u:%u(%u)", want->seq, want->end, want->len, got->seq, got->end, got->len);
    if (want->has_ack && (!got->has_ack || want->ack != got->ack))
        WHY("ack %u vs %u", want->ack, got->ack);
    if (want->win >= 0 && want->win != got->win)
        WHY("win %d vs %d", want->win, got->win);
    if (want->ecn != DECN_UNSET &&
        (want->ecn == DECN_ECT01 ? got->ecn != DECN_ECT0 && got->ecn != DECN_ECT1 : want->ecn != got->ecn))
        WHY("ECN field");
    if (want->sport && want->sport != got->sport)
        WHY("source port %u vs %u", want->sport, got->sport);
    if (want->dport && want->dport != got->dport)
        WHY("destination port %u vs %u", want->dport, got->dport);
    if (!want->opts_any) {
        const struct drill_opt *a[DRILL_MAX_OPTS], *b[DRILL_MAX_OPTS];
        int na = real_opts(want, a), nb = real_opts(got, b);
        bool same = na == nb;
        for (int i = 0; same && i < na; i++)
            same = opt_equal(a[i], b[i]);
        if (!same)
            WHY("options");
    }
    return at ? -1 : 0;
}

void wire_format(const struct drill_packet *pk, char *buf, int len)
{
    int at = 0;
#define PUT(...) do { if (at < len) at += snprintf(buf + at, (size_t)(len - at), __VA_ARGS__); } while (0)
    PUT("%c ", pk->inbound ? '<' : '>');
    static const char *const ecn[] = { "noecn", "ect1", "ect0", "ce", "ect01" };
    if (pk->ecn != DECN_UNSET && pk->ecn != DECN_NOT_ECT)
        PUT("[%s] ", ecn[pk->ecn]);
    if (pk->sport || pk->dport)
        PUT("%u>%u ", pk->sport, pk->dport);
    static const struct { uint16_t f; char c; } letters[] = {
        { DF_SYN, 'S' }, { DF_FIN, 'F' }, { DF_RST, 'R' }, { DF_PSH, 'P' }, { DF_URG, 'U' },
        { DF_ECE, 'E' }, { DF_CWR, 'W' }, { DF_AE, 'A' },
    };
    int nl = 0;
    for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
        if (pk->flags & letters[i].f) {
            PUT("%c", letters[i].c);
            nl++;
        }
    if (pk->flags & DF_ACK)
        PUT(".");
    else if (!nl)
        PUT("-");
    PUT(" %u:%u(%u)", pk->seq, pk->end, pk->len);
    if (pk->has_ack)
        PUT(" ack %u", pk->ack);
    if (pk->win >= 0)
        PUT(" win %d", pk->win);
    if (pk->opts_any)
        PUT(" <...>");
    else if (pk->nopts) {
        PUT(" <");
        for (int i = 0; i < pk->nopts; i++) {
            const struct drill_opt *o = &pk->opts[i];
            if (i)
                PUT(",");
            switch (o->kind) {
            case DO_NOP: PUT("nop"); break;
            case DO_EOL: PUT("eol"); break;
            case DO_MSS: PUT("mss %u", o->a); break;
            case DO_WSCALE: PUT("wscale %u", o->a); break;
            case DO_SACKOK: PUT("sackOK"); break;
            case DO_TS: PUT("TS val %u ecr %u", o->a, o->b); break;
            case DO_SACK:
                PUT("sack");
                for (int b = 0; b < o->nsack; b++)
                    PUT(" %u:%u", o->sack[b][0], o->sack[b][1]);
                break;
            case DO_FO: case DO_FOEXP: PUT("%s %s", o->kind == DO_FO ? "FO" : "FOEXP", o->blob ? o->blob : ""); break;
            case DO_MD5: PUT("md5 %s", o->blob); break;
            case DO_ACCECN: PUT("ECN %s", o->blob); break;
            }
        }
        PUT(">");
    }
#undef PUT
}
