/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_drill_parse.c - exact tests of the packetdrill parser (drill/):
 * times, packets with their options, socket calls with arguments, errnos
 * and notes, commands and code blocks, and the errors with their lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "drill/script.h"

static char err[512];

static struct drill_script *ok(const char *text)
{
    err[0] = 0;
    struct drill_script *s = drill_parse("t.pkt", text, err, sizeof err);
    if (!s)
        fail_msg("parse failed: %s", err);
    return s;
}

static void bad(const char *text, const char *want)
{
    struct drill_script *s = drill_parse("t.pkt", text, err, sizeof err);
    if (s)
        fail_msg("parsed: %s", text);
    assert_string_equal(err, want);
}

static void test_times(void **state)
{
    (void)state;
    struct drill_script *s = ok("0 `true`\n+0.1 `a`\n.25 `b`\n+1 `c`\n0.00397 `d`\n"
                                "0.1~0.2 > . 1:1(0) ack 1\n+.01~+.02 > . 1:1(0)\n* > . 1:1(0)\n");
    assert_int_equal(s->nev, 8);
    assert_int_equal(s->ev[0].tkind, DT_ABS);
    assert_int_equal(s->ev[0].t_us, 0);
    assert_int_equal(s->ev[1].tkind, DT_REL);
    assert_int_equal(s->ev[1].t_us, 100000);
    assert_int_equal(s->ev[2].t_us, 250000);
    assert_int_equal(s->ev[3].t_us, 1000000);
    assert_int_equal(s->ev[4].t_us, 3970);         /* rounded: 0.00397 x 10^6 is 3969.99... */
    assert_int_equal(s->ev[5].tkind, DT_ABS_RANGE);
    assert_int_equal(s->ev[5].t_us, 100000);
    assert_int_equal(s->ev[5].t_end_us, 200000);
    assert_int_equal(s->ev[6].tkind, DT_REL_RANGE);
    assert_int_equal(s->ev[6].t_us, 10000);
    assert_int_equal(s->ev[6].t_end_us, 20000);
    assert_int_equal(s->ev[7].tkind, DT_ANY);
    assert_int_equal(s->ev[7].line, 8);
    drill_script_free(s);
}

static void test_packets(void **state)
{
    (void)state;
    struct drill_script *s = ok(
        "+0 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>\n"
        "+0 > S. 0:0(0) ack 1 <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 8>\n"
        "+0 < [ect0] P. 1:1001(1000) ack 1 win 257\n"
        "+0 > [ce] . 1:1(0) ack 1001 <nop,nop,sack 2001:3001 4001:5001>\n"
        "+0 < SEW 0:0(0) win 100 <...>\n"
        "+0 > F. 1:1(0) ack 2\n"
        "+0 < R 2:2(0)\n"
        "+0 < - 5:5(0) urg 3\n"
        "+0 < 1234>80 . 1:1(0) ack 1 win 4\n");
    assert_int_equal(s->nev, 9);
    const struct drill_packet *p = &s->ev[0].pkt;
    assert_true(p->inbound);
    assert_int_equal(p->proto, DP_TCP);
    assert_int_equal(p->flags, DF_SYN);
    assert_int_equal(p->seq, 0);
    assert_int_equal(p->len, 0);
    assert_false(p->has_ack);
    assert_int_equal(p->win, 32792);
    assert_int_equal(p->ecn, DECN_UNSET);
    assert_int_equal(p->nopts, 6);
    assert_int_equal(p->opts[0].kind, DO_MSS);
    assert_int_equal(p->opts[0].a, 1000);
    assert_int_equal(p->opts[1].kind, DO_SACKOK);
    assert_int_equal(p->opts[2].kind, DO_NOP);
    assert_int_equal(p->opts[5].kind, DO_WSCALE);
    assert_int_equal(p->opts[5].a, 7);
    p = &s->ev[1].pkt;
    assert_false(p->inbound);
    assert_int_equal(p->flags, DF_SYN | DF_ACK);
    assert_true(p->has_ack);
    assert_int_equal(p->ack, 1);
    assert_int_equal(p->win, -1);
    assert_int_equal(p->opts[2].kind, DO_TS);
    assert_int_equal(p->opts[2].a, 100);
    assert_int_equal(p->opts[2].b, 0);
    p = &s->ev[2].pkt;
    assert_int_equal(p->ecn, DECN_ECT0);
    assert_int_equal(p->flags, DF_PSH | DF_ACK);
    assert_int_equal(p->seq, 1);
    assert_int_equal(p->end, 1001);
    assert_int_equal(p->len, 1000);
    assert_false(p->opts_given);
    p = &s->ev[3].pkt;
    assert_int_equal(p->ecn, DECN_CE);
    assert_int_equal(p->opts[2].kind, DO_SACK);
    assert_int_equal(p->opts[2].nsack, 2);
    assert_int_equal(p->opts[2].sack[0][0], 2001);
    assert_int_equal(p->opts[2].sack[1][1], 5001);
    p = &s->ev[4].pkt;
    assert_int_equal(p->flags, DF_SYN | DF_ECE | DF_CWR);
    assert_true(p->opts_given && p->opts_any);
    assert_int_equal(s->ev[5].pkt.flags, DF_FIN | DF_ACK);
    assert_int_equal(s->ev[6].pkt.flags, DF_RST);
    assert_int_equal(s->ev[7].pkt.flags, 0);
    assert_int_equal(s->ev[7].pkt.urg, 3);
    assert_int_equal(s->ev[8].pkt.sport, 1234);
    assert_int_equal(s->ev[8].pkt.dport, 80);
    drill_script_free(s);
}

static void test_calls(void **state)
{
    (void)state;
    struct drill_script *s = ok(
        "0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3\n"
        "+0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0\n"
        "+0 fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0\n"
        "+0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)\n"
        "+0 ... 0.200 accept(3, ..., ...) = 4\n"
        "+0 getsockopt(4, SOL_TCP, TCP_INFO, {tcpi_state=TCP_ESTABLISHED, tcpi_rto=200000}, [104]) = 0\n"
        "+0 write(4, ..., 1000) = 1000\n"
        "+0 sendto(4, \"ab\" \"cd\"..., 4, 0, ..., ...) = 4\n"
        "+0 read(4, ..., 10) = -1 EAGAIN (Resource temporarily unavailable)\n"
        "+0 close(4) = 0\n");
    assert_int_equal(s->nev, 10);
    const struct drill_call *c = &s->ev[0].call;
    assert_int_equal(s->ev[0].kind, DV_CALL);
    assert_string_equal(c->name, "socket");
    assert_int_equal(c->nargs, 3);
    assert_int_equal(c->args[0]->kind, DE_ELLIPSIS);
    assert_int_equal(c->args[1]->kind, DE_WORD);
    assert_string_equal(c->args[1]->str, "SOCK_STREAM");
    assert_int_equal(c->ret->kind, DE_INT);
    assert_int_equal(c->ret->num, 3);
    assert_null(c->err);
    c = &s->ev[1].call;
    assert_int_equal(c->args[3]->kind, DE_LIST);
    assert_int_equal(c->args[3]->nkids, 1);
    assert_int_equal(c->args[3]->kids[0]->num, 1);
    c = &s->ev[2].call;
    assert_int_equal(c->args[2]->kind, DE_OR);
    char buf[128];
    drill_expr_format(c->args[2], buf, sizeof buf);
    assert_string_equal(buf, "O_RDWR|O_NONBLOCK");
    c = &s->ev[3].call;
    assert_int_equal(c->ret->num, -1);
    assert_string_equal(c->err, "EINPROGRESS");
    assert_string_equal(c->note, "Operation now in progress");
    c = &s->ev[4].call;
    assert_true(c->blocking);
    assert_int_equal(c->end_us, 200000);
    c = &s->ev[5].call;
    assert_int_equal(c->args[3]->kind, DE_STRUCT);
    drill_expr_format(c->args[3], buf, sizeof buf);
    assert_string_equal(buf, "{tcpi_state=TCP_ESTABLISHED, tcpi_rto=200000}");
    c = &s->ev[7].call;
    assert_int_equal(c->args[1]->kind, DE_STRING);
    assert_string_equal(c->args[1]->str, "abcd");
    assert_true(c->args[1]->str_more);
    drill_script_free(s);
}

static void test_options_commands_code(void **state)
{
    (void)state;
    struct drill_script *s = ok(
        "--tolerance_usecs=10000\n--strict_segments\n--local_ip=fd::1\n"
        "`../common/defaults.sh\nsysctl -q net.ipv4.tcp_ecn=1`\n"
        "// a comment\n/* a\n block */\n"
        "0 `sysctl -q net.ipv4.tcp_sack=0`\n"
        "+0 %{ assert tcpi_ca_state == 0, tcpi_ca_state }%\n"
        "`echo done`\n");
    assert_int_equal(s->nopts, 3);
    assert_string_equal(s->opts[0].name, "tolerance_usecs");
    assert_string_equal(s->opts[0].value, "10000");
    assert_null(s->opts[1].value);
    assert_string_equal(s->opts[2].value, "fd::1");
    assert_string_equal(s->init_cmd, "../common/defaults.sh\nsysctl -q net.ipv4.tcp_ecn=1");
    assert_int_equal(s->nev, 2);
    assert_int_equal(s->ev[0].kind, DV_COMMAND);
    assert_int_equal(s->ev[0].line, 9);
    assert_string_equal(s->ev[0].text, "sysctl -q net.ipv4.tcp_sack=0");
    assert_int_equal(s->ev[1].kind, DV_CODE);
    assert_string_equal(s->ev[1].text, " assert tcpi_ca_state == 0, tcpi_ca_state ");
    assert_string_equal(s->cleanup_cmd, "echo done");
    drill_script_free(s);
}

static void test_errors(void **state)
{
    (void)state;
    bad("0 socket(..., SOCK_STREAM; = 3\n", "t.pkt:1: expected ',' or ')', got ';'");
    bad("0 `x`\n+0 < S 0:0 win 1\n", "t.pkt:2: expected '(', got 'win'");
    bad("\n\n+0 < S 0:5(0)\n", "t.pkt:3: inconsistent TCP sequence numbers and payload size: 0:5(0)");
    bad("+0 < Q 0:0(0)\n", "t.pkt:1: unknown TCP flag 'Q' in 'Q' (F S R P . U E W A)");
    bad("+0 < S 0:0(0) <mss 70000>\n", "t.pkt:1: mss value 70000 out of range (0 to 65535)");
    bad("+0 < S 0:0(0) <mss 1000 wscale 7>\n", "t.pkt:1: expected ',' or '>' after a TCP option, got 'wscale'");
    bad("+0 < S 0:0(0) <foo>\n", "t.pkt:1: expected a TCP option (nop, eol, mss, wscale, sackOK, sack, TS, FO, md5), "
                                 "got 'foo'");
    bad("0.2~0.1 > . 1:1(0)\n", "t.pkt:1: time range is backwards");
    bad("* write(3, ..., 1) = 1\n", "t.pkt:1: a time '*' can only be used with outbound packets");
    bad("0.1~0.2 < . 1:1(0)\n", "t.pkt:1: a time range can only be used with outbound packets");
    bad("0 close(3) = 0\nsocket\n", "t.pkt:2: expected an event time (0.1, +0.1, *) or end of file, got 'socket'");
    bad("// nothing\n", "t.pkt:2: a script needs at least one event");
    bad("0 `unclosed\n", "t.pkt:1: expected a packet (< or >), a system call, a `command` or a %{ code }% block, "
                         "got an unclosed `command`");
    bad("+0 < [ect2] . 1:1(0)\n", "t.pkt:1: expected ECN (noecn, ect0, ect1, ect01, ce), tos, flowlabel or ttl, "
                                  "got 'ect2'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_packets),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_options_commands_code),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
