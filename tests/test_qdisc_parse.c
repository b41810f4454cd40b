/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_qdisc_parse.c - tc's words as iproute2's parsers read them
 * (tc_util.c's get_time, get_size, get_rate; get_u32 in the base tc
 * uses), htb's hex default, u32 filters, and every option at the
 * kernel's limits: what a discipline's init refuses, with tc's or the
 * kernel's reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "load/qdisc_parse.h"
#include "sim/qdisc.h"
#include "sim/sim.h"

static const struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000,
                                      .num_tx_queues = 1, .rate = 10000000000ULL };
static char err[600];

/* the value of option `name` once `tc` is parsed; the parse must succeed */
static int64_t opt(const char *tc, const char *name)
{
    struct qdisc_args a;
    if (qdisc_parse(tc, &a, err, sizeof err))
        fail_msg("%s: %s", tc, err);
    int i = qdisc_param_index(a.ops, name);
    assert_true(i >= 0);
    assert_true(a.given >> i & 1);
    return a.v[i];
}

/* the parse fails, saying `why` */
static void refused(const char *tc, const char *why)
{
    struct qdisc_args a;
    err[0] = 0;
    if (!qdisc_parse(tc, &a, err, sizeof err))
        fail_msg("%s: accepted", tc);
    if (!strstr(err, why))
        fail_msg("%s: '%s' does not say '%s'", tc, err, why);
}

/* get_time: strtod, then s/sec/secs, ms/msec/msecs or us/usec/usecs in
 * any case; a bare number is microseconds */
static void test_times(void **state)
{
    (void)state;
    assert_int_equal(opt("codel target 5MS", "target"), 5 * PS_PER_MS);
    assert_int_equal(opt("codel target 1e3ms", "target"), PS_PER_S);
    assert_int_equal(opt("codel target 2.5Msec", "target"), 2500 * PS_PER_US);
    assert_int_equal(opt("codel target 500", "target"), 500 * PS_PER_US);
    assert_int_equal(opt("codel target 1.5e-3S", "target"), 1500 * PS_PER_US);
    assert_int_equal(opt("codel interval 100USECS", "interval"), 100 * PS_PER_US);
    /* tc keeps whole microseconds (its time is a u32 of them) */
    assert_int_equal(opt("codel target 1.9us", "target"), PS_PER_US);
    /* the largest u32 of microseconds, and one past it */
    assert_int_equal(opt("codel target 4294967295us", "target"), 4294967295LL * PS_PER_US);
    refused("codel target 4294.967296s", "at most 4294967295us");
    refused("codel target -1ms", "a time such as 5ms");
    refused("codel target nan", "a time such as 5ms");
    refused("codel target inf", "at most 4294967295us");
    refused("codel target 5 ms", "unknown option 'ms'");
    refused("codel target 5minutes", "a time such as 5ms");
}

/* get_size: strtod, then k/kb, m/mb, g/gb (1024) or kbit, mbit, gbit
 * (1024 / 8) or b, in any case; truncated to whole bytes */
static void test_sizes(void **state)
{
    (void)state;
    assert_int_equal(opt("bfifo limit 1.3k", "limit"), 1331);
    assert_int_equal(opt("bfifo limit 1.3K", "limit"), 1331);
    assert_int_equal(opt("bfifo limit 2KB", "limit"), 2048);
    assert_int_equal(opt("bfifo limit 1Mbit", "limit"), 131072);
    assert_int_equal(opt("bfifo limit 1e3", "limit"), 1000);
    assert_int_equal(opt("bfifo limit 1000b", "limit"), 1000);
    assert_int_equal(opt("bfifo limit 3g", "limit"), 3LL << 30);
    assert_int_equal(opt("bfifo limit 4294967295", "limit"), 4294967295LL);
    refused("bfifo limit 4g", "at most 4294967295 bytes");
    refused("bfifo limit -1", "a size such as 1514, 10kb or 1mbit");
    refused("bfifo limit 10kib", "a size such as 1514, 10kb or 1mbit");
}

/* get_rate: strtod, then tc's table of bit and byte units, in any case;
 * a bare number is bit/s; what reaches the kernel is bytes per second */
static void test_rates(void **state)
{
    (void)state;
    assert_int_equal(opt("tbf rate 1e3mbit burst 10k latency 5ms", "rate"), 1000000000);
    assert_int_equal(opt("tbf rate 100MBIT burst 10k latency 5ms", "rate"), 100000000);
    assert_int_equal(opt("tbf rate 1KBps burst 10k latency 5ms", "rate"), 8000);
    assert_int_equal(opt("tbf rate 1mibit burst 10k latency 5ms", "rate"), 1048576);
    assert_int_equal(opt("tbf rate 1.5Gbit burst 10k latency 5ms", "rate"), 1500000000);
    /* whole bytes per second: 1001 bit/s are 125 bytes, 1000 bit/s */
    assert_int_equal(opt("tbf rate 1001 burst 10k latency 5ms", "rate"), 1000);
    refused("tbf rate 7bit burst 10k latency 5ms", "at least 8bit");
    refused("tbf rate -1mbit burst 10k latency 5ms", "a rate such as 100mbit");
    refused("tbf rate 1parsec burst 10k latency 5ms", "a rate such as 100mbit");
    refused("tbf rate 1e30bit burst 10k latency 5ms", "a rate below 2^63 bit/s");
    refused("tbf rate 9223372036854775808bit burst 10k latency 5ms", "a rate below 2^63 bit/s");
    assert_int_equal(opt("tbf rate 9223372036854774784bit burst 10k latency 5ms", "rate"), 9223372036854774784LL);
    refused("tbf rate nan burst 10k latency 5ms", "a rate such as 100mbit");
}

/* htb's default is a class minor, in hex as tc reads it */
static void test_htb_default_hex(void **state)
{
    (void)state;
    assert_int_equal(opt("htb default a", "default"), 0xa);
    assert_int_equal(opt("htb default 10", "default"), 0x10);
    assert_int_equal(opt("htb default 0x1F", "default"), 0x1f);
    refused("htb default g", "a class minor in hex");
    refused("htb default 10000", "a class minor in hex");
}

/* tbf: with a peakrate, mtu is its bucket, and 0 is none (q_tbf.c) */
static void test_tbf_mtu(void **state)
{
    (void)state;
    struct qdisc_args a;
    assert_int_equal(qdisc_parse("tbf rate 1mbit burst 10kb latency 50ms peakrate 2mbit mtu 0", &a, err, sizeof err),
                     0);
    assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
    assert_non_null(strstr(err, "when \"peakrate\" is specified, \"mtu\" must also be specified"));
    assert_null(strstr(err, "burst"));
}

static int host_id(void *ctx, const char *name)
{
    (void)ctx;
    return !strcmp(name, "b") ? 1 : !strcmp(name, "a") ? 0 : -1;
}

/* u32 filters: a mask may follow a port or a protocol, or not, whatever
 * comes next (a match without one before flowid was refused); a mask of
 * 0 matches everything, as in u32 */
static void test_filters(void **state)
{
    (void)state;
    struct qdisc_filter_spec f;
    assert_int_equal(qdisc_parse_filter("match ip dport 5201 flowid 1:10", &f, host_id, NULL, err, sizeof err), 0);
    assert_int_equal(f.flowid, 0x10);
    assert_int_equal(f.dport, 5201);
    assert_int_equal(f.dport_mask, 0xffff);
    assert_int_equal(qdisc_parse_filter("match ip protocol 17 flowid 1:a", &f, host_id, NULL, err, sizeof err), 0);
    assert_int_equal(f.proto, 17);
    assert_int_equal(f.proto_mask, 0xff);
    assert_int_equal(f.flowid, 0xa);
    assert_int_equal(qdisc_parse_filter("match ip protocol 6 0 flowid 1:10", &f, host_id, NULL, err, sizeof err), 0);
    assert_int_equal(f.proto_mask, 0);
    assert_int_equal(qdisc_parse_filter("match ip protocol tcp 0xff match ip sport 80 0xfff0 match ip dst b "
                                        "flowid 1:20", &f, host_id, NULL, err, sizeof err), 0);
    assert_int_equal(f.proto, 6);
    assert_int_equal(f.sport_mask, 0xfff0);
    assert_true(f.dst_set);
    assert_int_equal(f.dst, 1);
    assert_int_equal(qdisc_parse_filter("match ip src a match ip dport 53 flowid 1:20", &f, host_id, NULL, err,
                                        sizeof err), 0);
    assert_int_equal(f.dport_mask, 0xffff);
    assert_int_equal(qdisc_parse_filter("match ip dport 5201", &f, host_id, NULL, err, sizeof err), -1);
    assert_int_equal(qdisc_parse_filter("match ip dport 70000 flowid 1:10", &f, host_id, NULL, err, sizeof err), -1);
    assert_int_equal(qdisc_parse_filter("match ip protocol 6 0x1ff flowid 1:10", &f, host_id, NULL, err, sizeof err),
                     -1);
}

/* parsed, then refused by the discipline's init with why */
static void init_refuses(const char *tc, const char *why)
{
    struct qdisc_args a;
    if (qdisc_parse(tc, &a, err, sizeof err))
        fail_msg("%s: %s", tc, err);
    err[0] = 0;
    struct qdisc *q = qdisc_create(&a, &dev, NULL, "root", err, sizeof err);
    if (q) {
        qdisc_destroy(q);
        fail_msg("%s: accepted", tc);
    }
    if (!strstr(err, why))
        fail_msg("%s: '%s' does not say '%s'", tc, err, why);
}

/* parsed and built; its tc -s text (dump) holds `has` */
static void builds(const char *tc, const char *has)
{
    struct qdisc_args a;
    if (qdisc_parse(tc, &a, err, sizeof err))
        fail_msg("%s: %s", tc, err);
    struct qdisc *q = qdisc_create(&a, &dev, NULL, "root", err, sizeof err);
    if (!q)
        fail_msg("%s: %s", tc, err);
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    q->ops->dump(q, f);
    fclose(f);
    if (has && !strstr(buf, has))
        fail_msg("%s: '%s' does not hold '%s'", tc, buf, has);
    qdisc_destroy(q);
}

/* Each option at the kernel's limits (4.15's netlink types and *_change,
 * tc's 32-bit conversions, and where 4.15 let a value reach arithmetic it
 * overflows, the later kernel's limit): the value at the limit is taken,
 * one past it refused, saying why. */
static void test_kernel_limits(void **state)
{
    (void)state;
    /* fq: quantum a positive u32 into a signed int credit (5.x: at most
     * 2^20), initial_quantum likewise, buckets as tc's rounded-up log2 of
     * 1 to 18, maxrate and low_rate_threshold 32 bits of bytes/s */
    builds("fq quantum 1048576", "quantum 1Mb");
    init_refuses("fq quantum 1048577", "expected 1 to 1048576 bytes");
    init_refuses("fq quantum 0", "expected 1 to 1048576 bytes");
    builds("fq initial_quantum 2147483647", NULL);
    init_refuses("fq initial_quantum 2147483648", "expected at most 2147483647 bytes");
    builds("fq buckets 1000", "buckets 1024");
    builds("fq buckets 2", "buckets 2 ");
    builds("fq buckets 262144", "buckets 262144");
    init_refuses("fq buckets 1", "expected 2 to 262144");
    init_refuses("fq buckets 262145", "expected 2 to 262144");
    assert_int_equal(opt("fq maxrate 34359738360bit", "maxrate"), 34359738360LL);
    refused("fq maxrate 34359738368bit", "at most 34359738360bit");
    refused("fq low_rate_threshold 5gbps", "at most 34359738360bit");
    /* tbf: its buckets go over as 32 bits of 64-ns ticks, its limit as 32
     * bits of bytes */
    builds("tbf rate 8bit burst 256 limit 1k", NULL);
    init_refuses("tbf rate 8bit burst 1k limit 1k", "burst 1024 bytes at 1 bytes/s take more than 274.9 s");
    init_refuses("tbf rate 1mbit burst 10k latency 1ms peakrate 2mbit mtu 100mb",
                 "mtu 104857600 bytes at 250000 bytes/s take more than 274.9 s");
    init_refuses("tbf rate 10gbit burst 10kb latency 4000s", "past tc's 32 bits");
    builds("tbf rate 10gbit burst 10kb latency 3s", NULL);
    /* red: bandwidth 32 bits of bytes/s, avpkt's time at it in ticks */
    refused("red limit 400k avpkt 1000 bandwidth 34359738368bit", "at most 34359738360bit");
    init_refuses("red limit 400k avpkt 100000 bandwidth 8bit", "take more than 274.9 s");
    /* htb: a class's buckets in ticks; ceil 0 is its rate (q_htb.c) */
    struct qdisc_args a;
    struct qdisc_class_spec c;
    assert_int_equal(qdisc_parse("htb default 1", &a, err, sizeof err), 0);
    assert_int_equal(qdisc_parse_class(a.ops, 1, "parent 1: rate 8bit burst 1k", &c, err, sizeof err), 0);
    a.classes = &c;
    a.nclasses = 1;
    assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
    assert_non_null(strstr(err, "class 1:1: burst 1024 bytes at 1 bytes/s take more than 274.9 s"));
    assert_int_equal(qdisc_parse_class(a.ops, 1, "parent 1: rate 100mbit ceil 0", &c, err, sizeof err), 0);
    struct qdisc *q = qdisc_create(&a, &dev, NULL, "root", err, sizeof err);
    assert_non_null(q);
    char buf[1024] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    q->ops->dump_classes(q, "eth0", f);
    fclose(f);
    assert_non_null(strstr(buf, "rate 100Mbit ceil 100Mbit"));
    qdisc_destroy(q);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times),   cmocka_unit_test(test_sizes),   cmocka_unit_test(test_rates),
        cmocka_unit_test(test_htb_default_hex), cmocka_unit_test(test_tbf_mtu), cmocka_unit_test(test_filters),
        cmocka_unit_test(test_kernel_limits),
    };
    return cmocka_run_group_tests_name("qdisc_parse", tests, NULL, NULL);
}
