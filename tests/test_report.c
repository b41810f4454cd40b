/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_report.c - the console report: iperf3 rows and units, the summary
 * with drops by cause, the perf-style profile, the status line, and the
 * --json document (checked exactly and with a small strict JSON parser).
 *
 * Output goes to an open_memstream() buffer and is compared as strings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/report.h"

#define SEP "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
#define HDR "[ ID] Interval           Transfer     Bitrate\n"

/* ------------------------------------------------------------------ */
/* Capturing output                                                     */

struct cap {
    char *buf;
    size_t len;
    FILE *f;
};

static struct report *cap_new(struct cap *c, enum report_mode mode, int quiet)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    assert_non_null(c->f);
    return report_new(c->f, mode, quiet);
}

/* What was printed so far (a stable pointer until the next call). */
static const char *cap_text(struct cap *c)
{
    fflush(c->f);
    return c->buf;
}

static void cap_free(struct cap *c, struct report *r)
{
    report_free(r);
    fclose(c->f);
    free(c->buf);
}

/* ------------------------------------------------------------------ */
/* A strict minimal JSON parser (RFC 8259 grammar, no semantics)        */

static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

static const char *js_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*p++;
        if (c == '"')
            return p;
        if (c < 0x20)
            return NULL;
        if (c == '\\') {
            c = (unsigned char)*p++;
            if (c == 'u') {
                int i;
                for (i = 0; i < 4; i++, p++)
                    if (!strchr("0123456789abcdefABCDEF", *p) || !*p)
                        return NULL;
            } else if (!c || !strchr("\"\\/bfnrt", c)) {
                return NULL;
            }
        }
    }
}

static const char *js_number(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p;
}

static const char *js_container(const char *p, int depth, char close, int keyed)
{
    p = js_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (keyed) {
            if (!(p = js_string(js_ws(p))))
                return NULL;
            p = js_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = js_value(p, depth + 1)))
            return NULL;
        p = js_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *js_value(const char *p, int depth)
{
    if (depth > 32)
        return NULL;
    p = js_ws(p);
    switch (*p) {
    case '{': return js_container(p, depth, '}', 1);
    case '[': return js_container(p, depth, ']', 0);
    case '"': return js_string(p);
    case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
    default: return js_number(p);
    }
}

/* One JSON document and nothing else (whitespace aside). */
static int json_valid(const char *s)
{
    const char *end = js_value(s, 0);
    return end && *js_ws(end) == '\0';
}

static size_t count_substr(const char *s, const char *sub)
{
    size_t n = 0;
    while ((s = strstr(s, sub)) != NULL) {
        n++;
        s += strlen(sub);
    }
    return n;
}

#define assert_contains(hay, needle)                                        \
    do {                                                                    \
        if (!strstr((hay), (needle)))                                       \
            fail_msg("missing:\n%s\n--- in:\n%s", (needle), (hay));        \
    } while (0)

static void test_json_validator_itself(void **state)
{
    (void)state;
    assert_true(json_valid("{\"a\":[1,-2.5e+3,0.1,null,true,false,\"x\\u00e9\\n\"],\"b\":{}}"));
    assert_false(json_valid("{\"a\":1,}"));
    assert_false(json_valid("{\"a\":nan}"));
    assert_false(json_valid("{\"a\":01}"));
    assert_false(json_valid("[\"tab\there\"]"));
    assert_false(json_valid("{\"a\":1}{"));
    assert_false(json_valid("{\"a\":1"));
}

/* ------------------------------------------------------------------ */
/* Text mode                                                            */

/* The two lines every iperf3 user knows. */
static void test_header_and_rows(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_flow(r, 1, "udp_stream sender1 -> receiver");
    assert_string_equal(cap_text(&c), "");
    report_interval(r, 1, 0.0, 1.0, 1196250000);
    /* Printed at once, not at report_end. */
    assert_string_equal(cap_text(&c), HDR "[  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec\n");
    report_interval(r, 1, 1.0, 2.0, 117625000);
    assert_string_equal(cap_text(&c), HDR "[  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec\n"
                                          "[  1]   1.00-2.00   sec   112 MBytes   941 Mbits/sec\n");
    cap_free(&c, r);
}

/* Unit boundaries and significant digits, one row each. */
static void test_units(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_interval(r, 2, 0, 1, 0);
    report_interval(r, 2, 0, 1, 512);
    report_interval(r, 2, 0, 1, 1023);
    report_interval(r, 2, 0, 1, 1048166);                    /* 1023.6 KiB rounds up: next unit */
    report_interval(r, 2, 0, 1, 10485760);                   /* 10 MiB: one decimal */
    report_interval(r, 2, 0, 1, 124950000);                  /* 999.6 Mbit/s: next unit */
    report_interval(r, 2, 0, 2, 2499);                       /* 9.996 Kbit/s: "10.0", not "10.00" */
    report_interval(r, 2, 3, 3, 100);                        /* empty span: no rate */
    report_interval(r, 2, 0, 1000, 3 * (UINT64_C(1) << 39)); /* 1.5 TiB */
    report_interval(r, 12345, 10, 11, 1500);
    report_interval(r, 3, 0.1, 0.10001, 12500);              /* 10 us: times in microseconds */
    assert_string_equal(cap_text(&c), HDR
                        "[  2]   0.00-1.00   sec  0.00 Bytes   0.00 bits/sec\n"
                        "[  2]   0.00-1.00   sec   512 Bytes   4.10 Kbits/sec\n"
                        "[  2]   0.00-1.00   sec  1023 Bytes   8.18 Kbits/sec\n"
                        "[  2]   0.00-1.00   sec  1.00 MBytes  8.39 Mbits/sec\n"
                        "[  2]   0.00-1.00   sec  10.0 MBytes  83.9 Mbits/sec\n"
                        "[  2]   0.00-1.00   sec   119 MBytes  1.00 Gbits/sec\n"
                        "[  2]   0.00-2.00   sec  2.44 KBytes  10.0 Kbits/sec\n"
                        "[  2]   3.00-3.00   sec   100 Bytes   -\n"
                        "[  2]   0.00-1000.00 sec  1.50 TBytes  13.2 Gbits/sec\n"
                        "[12345]  10.00-11.00  sec  1.46 KBytes  12.0 Kbits/sec\n"
                        "[  3]  0.100000-0.100010  sec  12.2 KBytes  10.0 Gbits/sec\n");
    cap_free(&c, r);
}

static void test_quiet_summary_with_drops(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 1);

    (void)state;
    report_flow(r, 1, "udp_stream sender1 -> receiver");
    report_flow(r, 2, "udp_stream sender2 -> receiver");
    report_flow(r, 3, "");
    report_interval(r, 1, 0, 1, 1196250000);
    report_interval(r, 2, 1, 2, 117625000);
    report_interval(r, 1, 1, 2, 1196250000);
    report_interval(r, 2, 2, 3, 117625000);
    report_counter(r, "retransmits", 5, 0);
    report_counter(r, "drop.rx_ring_full", 1234, 1);
    report_counter(r, "drop.ipfrag_evicted", 0, 1);
    report_counter(r, "drop.sk_rcvbuf", 7.5, 1);
    /* quiet: no header, no rows while running */
    assert_string_equal(cap_text(&c), "");

    report_end(r, 3.0, 1.23, 12345678, "complete");
    assert_string_equal(cap_text(&c),
                        SEP HDR
                        "[  1]   0.00-2.00   sec  2.23 GBytes  9.57 Gbits/sec   udp_stream sender1 -> receiver\n"
                        "[  2]   1.00-3.00   sec   224 MBytes   941 Mbits/sec   udp_stream sender2 -> receiver\n"
                        "[  3]   0.00-3.00   sec  0.00 Bytes   0.00 bits/sec\n"
                        "Drops by cause:\n"
                        "  drop.rx_ring_full  1234\n"
                        "  drop.sk_rcvbuf     7.5\n"
                        "status: complete, 3.000 s simulated in 1.23 s wall (12345678 events, 10.0 M events/s)\n");
    /* A second report_end prints nothing more. */
    report_end(r, 3.0, 1.23, 12345678, "complete");
    assert_int_equal(strlen(cap_text(&c)), c.len);
    assert_int_equal(count_substr(c.buf, "status:"), 1);
    cap_free(&c, r);
}

/* Live rows, then the summary without a second header; no drops. */
static void test_live_rows_then_summary(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_flow(r, 1, "tcp_stream a -> b");
    report_interval(r, 1, 0, 1, 117625000);
    report_line(r, "ping %s -> %s: rtt %.3f us", "a", "b", 50.195);
    report_line(r, "trailing newline is not doubled\n");
    report_interval(r, 1, 1, 2, 117625000);
    report_counter(r, "drop.rx_ring_full", 0, 1);
    report_counter(r, "retransmits", 3, 0);
    report_end(r, 2.0, 0.002, 950, "interrupted");
    assert_string_equal(cap_text(&c),
                        HDR
                        "[  1]   0.00-1.00   sec   112 MBytes   941 Mbits/sec\n"
                        "ping a -> b: rtt 50.195 us\n"
                        "trailing newline is not doubled\n"
                        "[  1]   1.00-2.00   sec   112 MBytes   941 Mbits/sec\n"
                        SEP
                        "[  1]   0.00-2.00   sec   224 MBytes   941 Mbits/sec   tcp_stream a -> b\n"
                        "Drops: none\n"
                        "status: interrupted, 2.000 s simulated in 0.002 s wall (950 events, 475 k events/s)\n");
    cap_free(&c, r);
}

static void test_empty_report(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_end(r, 0, 0, 0, "complete");
    assert_string_equal(cap_text(&c), SEP "Drops: none\n"
                                          "status: complete, 0.000 s simulated in 0.000 s wall (0 events)\n");
    cap_free(&c, r);
}

/* Wall time and event rate in running text: no padding, sensible units. */
static void test_status_units(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_end(r, 100.0, 123.4, UINT64_C(4000000000), "complete");
    assert_string_equal(cap_text(&c), SEP "Drops: none\n"
                                          "status: complete, 100.000 s simulated in 123 s wall"
                                          " (4000000000 events, 32.4 M events/s)\n");
    cap_free(&c, r);

    r = cap_new(&c, REPORT_TEXT, 0);
    report_end(r, 1.5, 2.0, 1800, "complete");
    assert_string_equal(cap_text(&c), SEP "Drops: none\n"
                                          "status: complete, 1.500 s simulated in 2.00 s wall (1800 events, 900 events/s)\n");
    cap_free(&c, r);
}

static void test_profile(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_show_profile(r, 1);
    /* Reported out of order, one symbol in two parts (as from two cores). */
    report_profile(r, "receiver", "mod_timer", 148800000, 0);
    report_profile(r, "receiver", "ip_defrag", 300000000, 100000);
    report_profile(r, "sender1", "tcp_sendmsg", 1000, 3);
    report_profile(r, "receiver", "ixgbe_clean_rx_irq", 451200000, 1804800);
    report_profile(r, "receiver", "ip_defrag", 100000000, 60000);
    report_end(r, 10, 1, 10, "complete");
    assert_string_equal(cap_text(&c),
                        SEP "Drops: none\n"
                        "\n"
                        "# host receiver: 1.000000 s of CPU time\n"
                        "# Overhead       ns/op        Calls  Symbol\n"
                        "    45.12%       250.0      1804800  ixgbe_clean_rx_irq\n"
                        "    40.00%      2500.0       160000  ip_defrag\n"
                        "    14.88%           -            0  mod_timer\n"
                        "\n"
                        "# host sender1: 0.000001 s of CPU time\n"
                        "# Overhead       ns/op        Calls  Symbol\n"
                        "   100.00%       333.3            3  tcp_sendmsg\n"
                        "status: complete, 10.000 s simulated in 1.00 s wall (10 events, 10.0 events/s)\n");
    cap_free(&c, r);
}

/* Profile rows are kept but not printed unless asked for; ties keep the
 * order in which they were reported. */
static void test_profile_off_and_ties(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_TEXT, 0);

    (void)state;
    report_profile(r, "h", "b", 10, 1);
    report_profile(r, "h", "a", 10, 1);
    report_end(r, 1, 1, 1, "complete");
    assert_null(strstr(cap_text(&c), "# "));
    cap_free(&c, r);

    r = cap_new(&c, REPORT_TEXT, 0);
    report_show_profile(r, 1);
    report_profile(r, "h", "b", 10, 1);
    report_profile(r, "h", "c", 0, 0);
    report_profile(r, "h", "a", 10, 1);
    report_end(r, 1, 1, 1, "complete");
    assert_contains(cap_text(&c), "# host h: 0.000000 s of CPU time\n"
                                  "# Overhead       ns/op        Calls  Symbol\n"
                                  "    50.00%        10.0            1  b\n"
                                  "    50.00%        10.0            1  a\n"
                                  "     0.00%           -            0  c\n");
    cap_free(&c, r);

    /* Asked for, but nothing recorded. */
    r = cap_new(&c, REPORT_TEXT, 0);
    report_show_profile(r, 1);
    report_end(r, 1, 1, 1, "complete");
    assert_contains(cap_text(&c), "\n# profile: no CPU time recorded\n");
    cap_free(&c, r);
}

/* ------------------------------------------------------------------ */
/* JSON mode                                                            */

static void test_json_empty_exact(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_JSON, 0);

    (void)state;
    report_end(r, 0, 0, 0, "interrupted");
    assert_true(json_valid(c.buf));
    /* iperf3's blocks, empty, then netsim's own, exactly */
    assert_contains(cap_text(&c), "{\n  \"start\":{\"connected\":[],\"version\":\"netsim\",");
    assert_contains(cap_text(&c), "\"test_start\":{\"protocol\":\"\",\"num_streams\":0,");
    assert_contains(cap_text(&c), "  \"intervals\":[],\n  \"end\":{\"streams\":[],\n");
    assert_contains(cap_text(&c), "  \"netsim\":{\n"
                                  "  \"scenario\":\"\",\n"
                                  "  \"seed\":0,\n"
                                  "  \"params\":{},\n"
                                  "  \"intervals\":[],\n"
                                  "  \"flows\":[],\n"
                                  "  \"counters\":{},\n"
                                  "  \"drops\":{},\n"
                                  "  \"profile\":[],\n"
                                  "  \"lines\":[],\n"
                                  "  \"end\":{\"sim_s\":0,\"wall_s\":0,\"events\":0,\"status\":\"interrupted\"}\n"
                                  "}\n}\n");
    cap_free(&c, r);
}

static void test_json_document(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_JSON, 0);
    const char *out;

    (void)state;
    report_flow(r, 1, "udp_stream sender1 -> receiver");
    report_flow(r, 2, "odd \"name\"\\path\n\ttab\x01 caf\xc3\xa9");
    report_interval(r, 1, 0, 1, 1196250000);
    report_interval(r, 1, 1, 2, 1196250000);
    report_interval(r, 2, 0.1, 0.1, 5);
    report_line(r, "ping %s -> %s: rtt %.3f us", "a", "b", 50.195);
    report_counter(r, "retransmits", 4, 0);
    report_counter(r, "drop.rx_ring_full", 1234, 1);
    report_counter(r, "drop.zero", 0, 1);
    report_counter(r, "weird", NAN, 0);
    report_counter(r, "retransmits", 5, 0);      /* last value wins */
    report_counter(r, "ratio", 0.1, 0);
    report_profile(r, "receiver", "mod_timer", 10, 0);
    report_profile(r, "receiver", "ip_defrag", 2.5e9, 7);
    report_show_profile(r, 1);
    /* Nothing is printed before the end in JSON mode. */
    assert_string_equal(cap_text(&c), "");

    report_end(r, 10, 1.25, 12345678, "complete");
    out = cap_text(&c);
    assert_true(json_valid(out));
    assert_contains(out, "  \"intervals\":[\n"
                         "    {\"flow\":1,\"start\":0,\"end\":1,\"bytes\":1196250000,\"bits_per_second\":9570000000},\n"
                         "    {\"flow\":1,\"start\":1,\"end\":2,\"bytes\":1196250000,\"bits_per_second\":9570000000},\n"
                         "    {\"flow\":2,\"start\":0.1,\"end\":0.1,\"bytes\":5,\"bits_per_second\":null}\n"
                         "  ],\n");
    assert_contains(out, "  \"flows\":[\n"
                         "    {\"id\":1,\"desc\":\"udp_stream sender1 -> receiver\",\"start\":0,\"end\":2,"
                         "\"bytes\":2392500000,\"bits_per_second\":9570000000},\n"
                         "    {\"id\":2,\"desc\":\"odd \\\"name\\\"\\\\path\\n\\ttab\\u0001 caf\xc3\xa9\","
                         "\"start\":0.1,\"end\":0.1,\"bytes\":5,\"bits_per_second\":null}\n"
                         "  ],\n");
    assert_contains(out, "  \"counters\":{\"retransmits\":5,\"drop.rx_ring_full\":1234,\"drop.zero\":0,"
                         "\"weird\":null,\"ratio\":0.1},\n");
    assert_contains(out, "  \"drops\":{\"drop.rx_ring_full\":1234},\n");
    assert_contains(out, "  \"profile\":[\n"
                         "    {\"host\":\"receiver\",\"symbol\":\"ip_defrag\",\"cpu_ns\":2500000000,\"calls\":7},\n"
                         "    {\"host\":\"receiver\",\"symbol\":\"mod_timer\",\"cpu_ns\":10,\"calls\":0}\n"
                         "  ],\n");
    assert_contains(out, "  \"lines\":[\n    \"ping a -> b: rtt 50.195 us\"\n  ],\n");
    assert_contains(out, "  \"end\":{\"sim_s\":10,\"wall_s\":1.25,\"events\":12345678,\"status\":\"complete\"}\n}\n");
    /* Text-mode pieces never leak into the document. */
    assert_null(strstr(out, "[ ID]"));
    assert_null(strstr(out, "status: "));
    assert_int_equal(out[0], '{');
    cap_free(&c, r);
}

/* Doubles that need 17 digits keep them; non-finite ones become null. */
static void test_json_numbers(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_JSON, 0);
    const char *out;

    (void)state;
    report_counter(r, "third", 1.0 / 3.0, 0);
    report_counter(r, "sum", 0.1 + 0.2, 0);
    report_counter(r, "big", 1e300, 0);
    report_counter(r, "neg", -2.5, 0);
    report_counter(r, "inf", INFINITY, 1);
    report_end(r, NAN, INFINITY, UINT64_MAX, "failed");
    out = cap_text(&c);
    assert_true(json_valid(out));
    assert_contains(out, "\"counters\":{\"third\":0.3333333333333333,\"sum\":0.30000000000000004,\"big\":1e+300,\"neg\":-2.5,\"inf\":null}");
    assert_contains(out, "\"drops\":{\"inf\":null}");
    assert_contains(out, "\"end\":{\"sim_s\":null,\"wall_s\":null,\"events\":18446744073709551615,\"status\":\"failed\"}");
    cap_free(&c, r);
}

/* Many rows: the arrays grow, everything is kept and freed (ASan). */
static void test_json_many_rows(void **state)
{
    struct cap c;
    struct report *r = cap_new(&c, REPORT_JSON, 1);
    char name[32];
    int i;

    (void)state;
    for (i = 1; i <= 40; i++) {
        snprintf(name, sizeof name, "flow %d", i);
        report_flow(r, i, name);
    }
    for (i = 0; i < 5000; i++)
        report_interval(r, 1 + i % 40, i / 40, i / 40 + 1, 1000);
    for (i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "c%d", i);
        report_counter(r, name, i, i % 2);
        report_profile(r, i % 3 ? "h1" : "h2", name, i, 1);
        report_line(r, "line %d", i);
    }
    report_end(r, 125, 1, 1, "complete");
    assert_true(json_valid(c.buf));
    /* "flow": appears in intervals only; "id": in flows only. */
    assert_int_equal(count_substr(c.buf, "{\"flow\":"), 5000);
    assert_int_equal(count_substr(c.buf, "{\"id\":"), 40);
    assert_int_equal(count_substr(c.buf, "{\"host\":\"h"), 100);
    assert_int_equal(count_substr(c.buf, "\"line "), 100);
    /* each flow: 125 intervals of 1000 bytes over [0, 125] */
    assert_contains(c.buf, "{\"id\":40,\"desc\":\"flow 40\",\"start\":0,\"end\":125,\"bytes\":125000,"
                           "\"bits_per_second\":8000}");
    /* Hosts in order of appearance (c0 went to h2), each by cpu_ns descending. */
    assert_contains(c.buf, "\"profile\":[\n    {\"host\":\"h2\",\"symbol\":\"c99\",\"cpu_ns\":99,\"calls\":1},\n"
                           "    {\"host\":\"h2\",\"symbol\":\"c96\"");
    assert_contains(c.buf, "{\"host\":\"h2\",\"symbol\":\"c0\",\"cpu_ns\":0,\"calls\":1},\n"
                           "    {\"host\":\"h1\",\"symbol\":\"c98\",\"cpu_ns\":98,\"calls\":1},\n"
                           "    {\"host\":\"h1\",\"symbol\":\"c97\"");
    cap_free(&c, r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_validator_itself),
        cmocka_unit_test(test_header_and_rows),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_quiet_summary_with_drops),
        cmocka_unit_test(test_live_rows_then_summary),
        cmocka_unit_test(test_empty_report),
        cmocka_unit_test(test_status_units),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_profile_off_and_ties),
        cmocka_unit_test(test_json_empty_exact),
        cmocka_unit_test(test_json_document),
        cmocka_unit_test(test_json_numbers),
        cmocka_unit_test(test_json_many_rows),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
