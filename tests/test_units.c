/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_units.c - exact tests of sim/units.c: every parser's accepted
 * spellings and values, its error cases and their messages, and the
 * iperf3-style formatting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "sim/units.h"

/* Parses with f and checks success and the value: no reason set. */
#define TIME_OK(s, want) do { simtime_t v_ = -1; const char *w_ = NULL; \
        assert_int_equal(parse_time((s), &v_, &w_), 0); assert_null(w_); \
        assert_int_equal(v_, (want)); } while (0)
#define TIME_BAD(s, why) do { simtime_t v_ = 7; const char *w_ = NULL; \
        assert_int_equal(parse_time((s), &v_, &w_), -1); assert_string_equal(w_, (why)); \
        assert_int_equal(v_, 7); } while (0)
#define RATE_OK(s, want) do { uint64_t v_ = 0; const char *w_ = NULL; \
        assert_int_equal(parse_rate((s), &v_, &w_), 0); assert_int_equal(v_, (want)); } while (0)
#define RATE_BAD(s, why) do { uint64_t v_ = 0; const char *w_ = NULL; \
        assert_int_equal(parse_rate((s), &v_, &w_), -1); assert_string_equal(w_, (why)); } while (0)
#define SIZE_OK(s, want) do { uint64_t v_ = 0; const char *w_ = NULL; \
        assert_int_equal(parse_size((s), &v_, &w_), 0); assert_int_equal(v_, (want)); } while (0)
#define SIZE_BAD(s, why) do { uint64_t v_ = 0; const char *w_ = NULL; \
        assert_int_equal(parse_size((s), &v_, &w_), -1); assert_string_equal(w_, (why)); } while (0)
#define PCT_OK(s, want) do { double v_ = -1; const char *w_ = NULL; \
        assert_int_equal(parse_percent((s), &v_, &w_), 0); assert_true(v_ == (want)); } while (0)
#define PCT_BAD(s, why) do { double v_ = -1; const char *w_ = NULL; \
        assert_int_equal(parse_percent((s), &v_, &w_), -1); assert_string_equal(w_, (why)); } while (0)

static const char *const TIME_SYNTAX = "a time such as 50ms, 1.5us or 2s";
static const char *const RATE_SYNTAX = "a rate such as 10gbit, 100mbit or 125mbps (bytes/s)";
static const char *const RATE_POS = "a positive rate such as 10gbit";
static const char *const SIZE_SYNTAX = "a size in bytes such as 1500, 256K or 4M";
static const char *const PCT_SYNTAX = "a percentage such as 1% or 0.5 (a bare number is a percentage, as in tc)";

static void test_time_units(void **state)
{
    (void)state;
    TIME_OK("1.5us", 1500000);
    TIME_OK("50ms", 50000000000LL);
    TIME_OK("2s", 2000000000000LL);
    TIME_OK("100ns", 100000);
    TIME_OK("3ps", 3);
    TIME_OK("1m", 60000000000000LL);
    TIME_OK("1.5m", 90000000000000LL);
    TIME_OK("2\xc2\xb5s", 2000000);     /* micro sign */
    TIME_OK("2\xce\xbcs", 2000000);     /* greek mu */
    TIME_OK(".5s", 500000000000LL);
    TIME_OK("5.ms", 5000000000LL);
}

static void test_time_zero_and_rounding(void **state)
{
    (void)state;
    TIME_OK("0", 0);
    TIME_OK("0.0", 0);
    TIME_OK("0ms", 0);
    TIME_OK("0.1ns", 100);              /* exact, no binary fraction error */
    TIME_OK("1.4ps", 1);
    TIME_OK("1.5ps", 2);                /* halves round up */
    TIME_OK("0.0004ns", 0);
    TIME_OK("0.0005ns", 1);
    TIME_OK("0.333333333333333333333333s", 333333333333LL);
}

static void test_time_limits(void **state)
{
    (void)state;
    TIME_OK("9223372036854775807ps", INT64_MAX);
    TIME_BAD("9223372036854775808ps", "a time of at most 1000000s (11.6 days; no key takes more)");
    TIME_BAD("9223373s", "a time of at most 1000000s (11.6 days; no key takes more)");
    TIME_BAD("99999999999999999999999s", "a time of at most 1000000s (11.6 days; no key takes more)");
}

static void test_time_errors(void **state)
{
    (void)state;
    TIME_BAD("5", "a time with a unit (ps, ns, us, ms, s, m) such as 50ms");
    TIME_BAD("-5ms", "a non-negative time such as 50ms");
    TIME_BAD("-0", "a non-negative time such as 50ms");
    TIME_BAD("", TIME_SYNTAX);
    TIME_BAD("ms", TIME_SYNTAX);
    TIME_BAD("5 ms", TIME_SYNTAX);
    TIME_BAD(" 5ms", TIME_SYNTAX);
    TIME_BAD("5msx", TIME_SYNTAX);
    TIME_BAD("5MS", TIME_SYNTAX);
    TIME_BAD("1e3ms", TIME_SYNTAX);
    TIME_BAD("+5ms", TIME_SYNTAX);
    TIME_BAD("1.2.3ms", TIME_SYNTAX);
    TIME_BAD(".ms", TIME_SYNTAX);
}

static void test_rate_units(void **state)
{
    (void)state;
    RATE_OK("10gbit", 10000000000ULL);
    RATE_OK("2.5gbit", 2500000000ULL);
    RATE_OK("100mbit", 100000000ULL);
    RATE_OK("64kbit", 64000ULL);
    RATE_OK("1tbit", 1000000000000ULL);
    RATE_OK("9600bit", 9600);
    RATE_OK("9600", 9600);              /* bare number: bits/s */
    RATE_OK("10GBit", 10000000000ULL);  /* case-insensitive */
    RATE_OK("10Gbit", 10000000000ULL);
    RATE_OK("1kibit", 1024);
    RATE_OK("1mibit", 1048576);
}

static void test_rate_bytes_per_second(void **state)
{
    (void)state;
    /* tc(8): "bps" is bytes per second. */
    RATE_OK("1bps", 8);
    RATE_OK("1kbps", 8000);
    RATE_OK("1mbps", 8000000);
    RATE_OK("1MBps", 8000000);
    RATE_OK("1.25gbps", 10000000000ULL);
    RATE_OK("1kibps", 8192);
    RATE_OK("0.6bit", 1);               /* rounded to the nearest bit/s */
}

static void test_rate_errors(void **state)
{
    (void)state;
    RATE_BAD("0", RATE_POS);
    RATE_BAD("0gbit", RATE_POS);
    RATE_BAD("0.4bit", RATE_POS);
    RATE_BAD("-1gbit", RATE_POS);
    RATE_BAD("", RATE_SYNTAX);
    RATE_BAD("gbit", RATE_SYNTAX);
    RATE_BAD("10 gbit", RATE_SYNTAX);
    RATE_BAD("10gbitx", RATE_SYNTAX);
    RATE_BAD("10gb", RATE_SYNTAX);
    RATE_BAD("3000000000gbps", "a rate of at most 18446744073gbit");
}

static void test_size_units(void **state)
{
    (void)state;
    SIZE_OK("256K", 262144);
    SIZE_OK("4M", 4194304);
    SIZE_OK("1G", 1073741824ULL);
    SIZE_OK("1T", 1099511627776ULL);
    SIZE_OK("1500", 1500);
    SIZE_OK("0", 0);
    SIZE_OK("1.5K", 1536);
    SIZE_OK("256k", 262144);
    SIZE_OK("256KB", 262144);
    SIZE_OK("256kB", 262144);
    SIZE_OK("256KiB", 262144);
    SIZE_OK("4MB", 4194304);
    SIZE_OK("4MiB", 4194304);
    SIZE_OK("4mib", 4194304);
    SIZE_OK("512B", 512);
    SIZE_OK("0.5M", 524288);
}

static void test_size_errors(void **state)
{
    (void)state;
    SIZE_BAD("1.3", "a whole number of bytes such as 1500 or 1.5K");
    SIZE_BAD("1.3K", "a whole number of bytes such as 1500 or 1.5K");
    SIZE_BAD("-1K", "a non-negative size such as 256K");
    SIZE_BAD("4X", SIZE_SYNTAX);
    SIZE_BAD("", SIZE_SYNTAX);
    SIZE_BAD("K", SIZE_SYNTAX);
    SIZE_BAD("4 M", SIZE_SYNTAX);
    SIZE_BAD("4Mi", SIZE_SYNTAX);
    SIZE_BAD("20000000T", "a size of at most 16777215T");
}

static void test_percent(void **state)
{
    (void)state;
    PCT_OK("1%", 0.01);
    PCT_OK("0.5%", 0.005);
    PCT_OK("1.1%", 0.011);              /* correctly rounded, not 1.1/100 */
    PCT_OK("0.01", 0.0001);             /* tc: a bare number is a percentage */
    PCT_OK("0.1", 0.001);
    PCT_OK("100%", 1.0);
    PCT_OK("100", 1.0);
    PCT_OK("0%", 0.0);
    PCT_OK("0", 0.0);
    PCT_OK("1", 0.01);
    PCT_OK("25", 0.25);
}

static void test_percent_errors(void **state)
{
    (void)state;
    PCT_BAD("101%", "0% to 100%");
    PCT_BAD("-1%", "0% to 100%");
    PCT_BAD("100.5", "0% to 100%");
    PCT_BAD("1%%", PCT_SYNTAX);
    PCT_BAD("1 %", PCT_SYNTAX);
    PCT_BAD("abc", PCT_SYNTAX);
    PCT_BAD("", PCT_SYNTAX);
    PCT_BAD("1e-2", PCT_SYNTAX);
}

static void test_int(void **state)
{
    int64_t v = 0;
    const char *w = NULL;

    (void)state;
    assert_int_equal(parse_int("42", &v, &w), 0);
    assert_int_equal(v, 42);
    assert_int_equal(parse_int("-7", &v, &w), 0);
    assert_int_equal(v, -7);
    assert_int_equal(parse_int("+3", &v, &w), 0);
    assert_int_equal(v, 3);
    assert_int_equal(parse_int("9223372036854775807", &v, &w), 0);
    assert_true(v == INT64_MAX);
    assert_int_equal(parse_int("-9223372036854775808", &v, &w), 0);
    assert_true(v == INT64_MIN);
    assert_null(w);
}

static void test_int_errors(void **state)
{
    static const char *const bad[] = { "", " 4", "4 ", "4x", "0x10", "1.0", "-", "1e3" };
    int64_t v = 5;
    const char *w = NULL;

    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w = NULL;
        assert_int_equal(parse_int(bad[i], &v, &w), -1);
        assert_string_equal(w, "an integer such as 42");
    }
    assert_int_equal(parse_int("9223372036854775808", &v, &w), -1);
    assert_string_equal(w, "an integer from -9223372036854775808 to 9223372036854775807");
    assert_int_equal(v, 5);
}

static void test_double(void **state)
{
    double v = 0;
    const char *w = NULL;

    (void)state;
    assert_int_equal(parse_double("0.5", &v, &w), 0);
    assert_true(v == 0.5);
    assert_int_equal(parse_double("-2.25", &v, &w), 0);
    assert_true(v == -2.25);
    assert_int_equal(parse_double("1e3", &v, &w), 0);
    assert_true(v == 1000.0);
    assert_int_equal(parse_double("nan", &v, &w), -1);
    assert_string_equal(w, "a finite number");
    assert_int_equal(parse_double("inf", &v, &w), -1);
    assert_string_equal(w, "a finite number");
    assert_int_equal(parse_double("1e999", &v, &w), -1);
    assert_string_equal(w, "a finite number");
    assert_int_equal(parse_double("1.5x", &v, &w), -1);
    assert_string_equal(w, "a number such as 0.5");
    assert_int_equal(parse_double("", &v, &w), -1);
    assert_string_equal(w, "a number such as 0.5");
    assert_int_equal(parse_double(" 1", &v, &w), -1);
    assert_true(v == 1000.0);
}

static void test_bool(void **state)
{
    static const char *const yes[] = { "on", "yes", "true", "1", "ON", "Yes", "TRUE" };
    static const char *const no[] = { "off", "no", "false", "0", "OFF", "No", "False" };
    int v;
    const char *w = NULL;

    (void)state;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        v = -1;
        assert_int_equal(parse_bool(yes[i], &v, &w), 0);
        assert_int_equal(v, 1);
        v = -1;
        assert_int_equal(parse_bool(no[i], &v, &w), 0);
        assert_int_equal(v, 0);
    }
    assert_int_equal(parse_bool("maybe", &v, &w), -1);
    assert_string_equal(w, "on/off, yes/no, true/false or 1/0");
    assert_int_equal(parse_bool("", &v, &w), -1);
    assert_int_equal(parse_bool("2", &v, &w), -1);
    assert_int_equal(parse_bool("onn", &v, &w), -1);
}

static void test_fmt_bytes(void **state)
{
    char buf[32];
    const double G = 1073741824.0, M = 1048576.0;

    (void)state;
    assert_ptr_equal(fmt_bytes(buf, 0), buf);
    assert_string_equal(buf, "0.00 Bytes");
    assert_string_equal(fmt_bytes(buf, 512), "512 Bytes");
    assert_string_equal(fmt_bytes(buf, 1000), "1000 Bytes");   /* iperf3: 1000..1023 stay */
    assert_string_equal(fmt_bytes(buf, 1024), "1.00 KBytes");
    assert_string_equal(fmt_bytes(buf, 1.11 * G), "1.11 GBytes");
    assert_string_equal(fmt_bytes(buf, 11.1 * G), "11.1 GBytes");
    assert_string_equal(fmt_bytes(buf, 111 * M), "111 MBytes");
    assert_string_equal(fmt_bytes(buf, 9.999 * M), "10.0 MBytes");  /* not "10.00" */
    assert_string_equal(fmt_bytes(buf, 99.96 * M), "100 MBytes");
    assert_string_equal(fmt_bytes(buf, 2.0 * 1024 * G), "2.00 TBytes");
    assert_string_equal(fmt_bytes(buf, 5000.0 * 1024 * G), "5000 TBytes");
}

static void test_fmt_bitrate(void **state)
{
    char buf[32];

    (void)state;
    assert_ptr_equal(fmt_bitrate(buf, 9.57e9), buf);
    assert_string_equal(buf, "9.57 Gbits/sec");
    assert_string_equal(fmt_bitrate(buf, 957e6), "957 Mbits/sec");
    assert_string_equal(fmt_bitrate(buf, 95.7e3), "95.7 Kbits/sec");
    assert_string_equal(fmt_bitrate(buf, 0), "0.00 bits/sec");
    assert_string_equal(fmt_bitrate(buf, 999), "999 bits/sec");
    assert_string_equal(fmt_bitrate(buf, 1000), "1.00 Kbits/sec");
    assert_string_equal(fmt_bitrate(buf, 1e12), "1.00 Tbits/sec");
    assert_string_equal(fmt_bitrate(buf, 9.996e9), "10.0 Gbits/sec");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_units),
        cmocka_unit_test(test_time_zero_and_rounding),
        cmocka_unit_test(test_time_limits),
        cmocka_unit_test(test_time_errors),
        cmocka_unit_test(test_rate_units),
        cmocka_unit_test(test_rate_bytes_per_second),
        cmocka_unit_test(test_rate_errors),
        cmocka_unit_test(test_size_units),
        cmocka_unit_test(test_size_errors),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_percent_errors),
        cmocka_unit_test(test_int),
        cmocka_unit_test(test_int_errors),
        cmocka_unit_test(test_double),
        cmocka_unit_test(test_bool),
        cmocka_unit_test(test_fmt_bytes),
        cmocka_unit_test(test_fmt_bitrate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
