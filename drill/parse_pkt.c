/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse_pkt.c - a packet line after its direction: an optional IPv4
 * prefix (`ipv4 A > B:`), the IP ECN field or TOS in brackets ([ect0],
 * (tos 0x10)), ports (1234>80), then a TCP segment (flags, seq:end(len),
 * ack, win, urg, <options>), a UDP datagram (udp (LEN)) or an ICMP
 * message (icmp TYPE [CODE] [mtu N] [echoed]). packetdrill's parser.y rules
 * tcp_packet_spec, udp_packet_spec, icmp_packet_spec and tcp_option,
 * with its range checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drill/parse.h"
#include "sim/xalloc.h"

#define U16 0xffffLL
#define U32 0xffffffffLL

static void parse_ip_info(struct parser *p, struct drill_packet *pk)
{
    char close = peek(p)->c == '(' ? ')' : ']';
    static const char *const ecn[] = { "noecn", "ect1", "ect0", "ce", "ect01" };   /* DECN_* order */
    p->i++;
    do {
        const struct tok *t = peek(p);
        int k = 0;
        while (k < 5 && !(t->kind == TK_WORD && !strcmp(t->text, ecn[k])))
            k++;
        if (k < 5) {
            pk->ecn = k;
            p->i++;
        } else if (t->kind == TK_WORD && (!strcmp(t->text, "tos") || !strcmp(t->text, "flowlabel") ||
                                          !strcmp(t->text, "ttl"))) {
            bool tos = !strcmp(t->text, "tos");
            p->i++;
            int64_t v = expect_int(p, t->text, 0, tos || t->text[1] == 't' ? 0xff : 0xfffff);
            if (tos)
                pk->tos = (int)v;
        } else {
            parse_expected(p, "ECN (noecn, ect0, ect1, ect01, ce), tos, flowlabel or ttl");
        }
    } while (is_punct(peek(p), ',') && (p->i++, true));
    expect_punct(p, close);
}

static uint16_t parse_flags(struct parser *p)
{
    const struct tok *t = peek(p);
    uint16_t f = 0;
    if (is_punct(t, '-')) {                           /* no flag at all */
        p->i++;
        return 0;
    }
    if (is_punct(t, '.')) {
        p->i++;
        return DF_ACK;
    }
    if (t->kind != TK_WORD)
        parse_expected(p, "TCP flags (S, S., ., P., F., R, ...)");
    for (const char *c = t->text; *c; c++) {
        switch (*c) {
        case 'F': f |= DF_FIN; break;
        case 'S': f |= DF_SYN; break;
        case 'R': f |= DF_RST; break;
        case 'P': f |= DF_PSH; break;
        case 'U': f |= DF_URG; break;
        case 'E': f |= DF_ECE; break;
        case 'W': f |= DF_CWR; break;
        case 'A': f |= DF_AE; break;
        default: parse_fail(p, t->line, "unknown TCP flag '%c' in '%s' (F S R P . U E W A)", *c, t->text);
        }
    }
    p->i++;
    if (is_punct(peek(p), '.')) {
        p->i++;
        f |= DF_ACK;
    }
    return f;
}

static void add_opt(struct parser *p, struct drill_packet *pk, const struct drill_opt *o, int line)
{
    if (pk->nopts == DRILL_MAX_OPTS)
        parse_fail(p, line, "TCP option list too long (at most %d)", DRILL_MAX_OPTS);
    pk->opts[pk->nopts++] = *o;
}

/* a word or number as written: a cookie, a key */
static char *opt_blob(struct parser *p)
{
    const struct tok *t = peek(p);
    if (t->kind != TK_WORD && t->kind != TK_INT)
        return NULL;
    p->i++;
    return xstrdup(t->text);
}

static void parse_option(struct parser *p, struct drill_packet *pk)
{
    const struct tok *t = peek(p);
    struct drill_opt o = { 0 };
    int line = t->line;
    if (t->kind != TK_WORD)
        parse_expected(p, "a TCP option (nop, eol, mss, wscale, sackOK, sack, TS, FO, md5)");
    const char *w = t->text;
    p->i++;
    if (!strcmp(w, "nop")) {
        o.kind = DO_NOP;
    } else if (!strcmp(w, "eol")) {
        o.kind = DO_EOL;
    } else if (!strcmp(w, "mss")) {
        o.kind = DO_MSS;
        o.a = (uint32_t)expect_int(p, "mss value", 0, U16);
    } else if (!strcmp(w, "wscale")) {
        o.kind = DO_WSCALE;
        o.a = (uint32_t)expect_int(p, "window scale shift count", 0, 0xff);
    } else if (!strcmp(w, "sackOK")) {
        o.kind = DO_SACKOK;
    } else if (!strcmp(w, "sack")) {
        o.kind = DO_SACK;
        do {
            if (o.nsack == DRILL_MAX_SACK)
                parse_fail(p, line, "more than %d SACK blocks", DRILL_MAX_SACK);
            o.sack[o.nsack][0] = (uint32_t)expect_int(p, "SACK block left edge", 0, U32);
            expect_punct(p, ':');
            o.sack[o.nsack][1] = (uint32_t)expect_int(p, "SACK block right edge", 0, U32);
            o.nsack++;
        } while (peek(p)->kind == TK_INT);
    } else if (!strcmp(w, "TS")) {
        o.kind = DO_TS;
        if (!accept_word(p, "val"))
            parse_expected(p, "'val'");
        o.a = (uint32_t)expect_int(p, "TS val", 0, U32);
        if (!accept_word(p, "ecr"))
            parse_expected(p, "'ecr'");
        o.b = (uint32_t)expect_int(p, "TS ecr", 0, U32);
    } else if (!strcmp(w, "FO") || !strcmp(w, "FOEXP")) {
        o.kind = w[2] ? DO_FOEXP : DO_FO;
        o.blob = opt_blob(p);
    } else if (!strcmp(w, "md5")) {
        o.kind = DO_MD5;
        if (!(o.blob = opt_blob(p)))
            parse_expected(p, "an md5 key");
    } else if (!strcmp(w, "ECN")) {
        /* AccECN's counters (e0b N ceb N e1b N, in any order): kept as
         * text, as netsim models no AccECN */
        o.kind = DO_ACCECN;
        char buf[128] = "";
        while (peek(p)->kind == TK_WORD || peek(p)->kind == TK_INT) {
            size_t k = strlen(buf);
            snprintf(buf + k, sizeof buf - k, "%s%s", k ? " " : "", peek(p)->text);
            p->i++;
        }
        o.blob = xstrdup(buf);
    } else {
        p->i--;
        parse_expected(p, "a TCP option (nop, eol, mss, wscale, sackOK, sack, TS, FO, md5)");
    }
    add_opt(p, pk, &o, line);
}

static void parse_options(struct parser *p, struct drill_packet *pk)
{
    p->i++;                                           /* '<' */
    pk->opts_given = true;
    if (peek(p)->kind == TK_ELLIPSIS) {
        p->i++;
        pk->opts_any = true;
        expect_punct(p, '>');
        return;
    }
    for (;;) {
        parse_option(p, pk);
        if (is_punct(peek(p), ',')) {
            p->i++;
            continue;
        }
        if (!is_punct(peek(p), '>'))
            parse_expected(p, "',' or '>' after a TCP option");
        p->i++;
        return;
    }
}

/* an ICMP message's quoted packet, [...]: kept only as parsed */
static void skip_bracketed(struct parser *p)
{
    int depth = 0;
    do {
        if (peek(p)->kind == TK_EOF)
            parse_expected(p, "']'");
        if (is_punct(peek(p), '['))
            depth++;
        else if (is_punct(peek(p), ']'))
            depth--;
        p->i++;
    } while (depth);
}

void parse_packet(struct parser *p, struct drill_packet *pk, bool inbound)
{
    pk->inbound = inbound;
    int line = peek(p)->line;
    if (accept_word(p, "ipv4")) {                     /* ipv4 [info] A > B: */
        if (is_punct(peek(p), '(') || is_punct(peek(p), '['))
            parse_ip_info(p, pk);
        if (peek(p)->kind != TK_IPV4)
            parse_expected(p, "an IPv4 source address");
        p->i++;
        expect_punct(p, '>');
        if (peek(p)->kind != TK_IPV4)
            parse_expected(p, "an IPv4 destination address");
        p->i++;
        expect_punct(p, ':');
        pk->ip_version = 4;
    }
    if (is_punct(peek(p), '(') || is_punct(peek(p), '['))
        parse_ip_info(p, pk);
    if (peek(p)->kind == TK_INT && is_punct(peek2(p), '>')) {
        pk->sport = (uint16_t)expect_int(p, "source port", 0, U16);
        p->i++;
        pk->dport = (uint16_t)expect_int(p, "destination port", 0, U16);
    }
    if (accept_word(p, "udp")) {
        pk->proto = DP_UDP;
        expect_punct(p, '(');
        pk->len = (uint32_t)expect_int(p, "UDP payload size", 0, U16);
        expect_punct(p, ')');
        return;
    }
    if (accept_word(p, "icmp")) {
        pk->proto = DP_ICMP;
        if (peek(p)->kind != TK_WORD)
            parse_expected(p, "an ICMP type");
        pk->icmp_type = xstrdup(peek(p)->text);
        p->i++;
        if (peek(p)->kind == TK_WORD && strcmp(peek(p)->text, "mtu")) {
            pk->icmp_code = xstrdup(peek(p)->text);
            p->i++;
        }
        if (accept_word(p, "mtu"))
            pk->len = (uint32_t)expect_int(p, "ICMP mtu", 0, U16);
        if (is_punct(peek(p), '['))
            skip_bracketed(p);
        return;
    }
    pk->proto = DP_TCP;
    pk->flags = parse_flags(p);
    int64_t seq = expect_int(p, "TCP start sequence number (START:END(LEN))", 0, U32);
    expect_punct(p, ':');
    int64_t end = expect_int(p, "TCP end sequence number", 0, U32);
    expect_punct(p, '(');
    int64_t len = expect_int(p, "TCP payload size", 0, U16);
    expect_punct(p, ')');
    if (end != seq + len)
        parse_fail(p, line, "inconsistent TCP sequence numbers and payload size: %lld:%lld(%lld)", (long long)seq,
                   (long long)end, (long long)len);
    pk->seq = (uint32_t)seq;
    pk->end = (uint32_t)end;
    pk->len = (uint32_t)len;
    if (accept_word(p, "ack")) {
        pk->has_ack = true;
        pk->ack = (uint32_t)expect_int(p, "TCP ack sequence number", 0, U32);
    }
    if (accept_word(p, "win"))
        pk->win = (int32_t)expect_int(p, "TCP window", 0, U16);
    if (accept_word(p, "urg"))
        pk->urg = (int32_t)expect_int(p, "TCP urgent pointer", 0, U16);
    if (is_punct(peek(p), '<'))
        parse_options(p, pk);
}
