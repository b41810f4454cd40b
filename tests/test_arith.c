/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arith.c - the rate and time helpers at their types' limits:
 * sim/arith.h's mul_div_u64 (exact in 128 bits, saturating past 2^64),
 * mul_u64, the wraps meant, FNV-1a's published vectors, and sim/time.h's
 * time_serialise (the nearest picosecond, 64-bit fast path and 128-bit
 * path alike) and time_add (saturating at SIMTIME_NEVER).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "sim/arith.h"
#include "sim/time.h"

typedef unsigned __int128 u128;

static uint64_t xs = 0x2545F4914F6CDD1DULL;
static uint64_t next(void)
{
    xs ^= xs << 13, xs ^= xs >> 7, xs ^= xs << 17;
    return xs;
}
/* a value spread over every magnitude: a random number of low bits */
static uint64_t any(void) { return next() >> (next() % 64); }

static void test_mul_div(void **state)
{
    (void)state;
    assert_int_equal(mul_div_u64(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
    assert_int_equal(mul_div_u64(UINT64_MAX, 2, 4), UINT64_MAX / 2);
    assert_int_equal(mul_div_u64_sat(UINT64_MAX, 3, 2), UINT64_MAX);     /* past 2^64 */
    assert_int_equal(mul_div_u64_sat(1, 1, 0), UINT64_MAX);              /* no divisor */
    assert_int_equal(mul_div_u64(0, UINT64_MAX, 1), 0);
    /* 1448 x 12 741 x 10^12 / 2 x 10^10: past 2^64 in between, exact here */
    assert_int_equal(mul_div_u64(1448ULL * 12741, 1000000000000ULL, 20000000000ULL), 922448400ULL);
    for (int i = 0; i < 100000; i++) {
        uint64_t a = any(), b = any(), c = any() | 1;
        u128 q = (u128)a * b / c;
        assert_int_equal(mul_div_u64_sat(a, b, c), q > UINT64_MAX ? UINT64_MAX : (uint64_t)q);
    }
}

static void test_mul(void **state)
{
    (void)state;
    assert_int_equal(mul_u64(UINT32_MAX, UINT32_MAX), 0xFFFFFFFE00000001ULL);
    assert_int_equal(mul_u64(1ULL << 32, 1ULL << 31), 1ULL << 63);
    for (int i = 0; i < 100000; i++) {
        uint64_t a = any(), b = any();
        u128 p = (u128)a * b;
        if (p <= UINT64_MAX)
            assert_int_equal(mul_u64(a, b), (uint64_t)p);
    }
}

static void test_wraps(void **state)
{
    (void)state;
    assert_int_equal(wrap_add_u32(UINT32_MAX, 2), 1);
    assert_int_equal(wrap_sub_u32(1, 2), UINT32_MAX);
    assert_int_equal(wrap_sub_u64(0, 1), UINT64_MAX);
    assert_int_equal(wrap_mul_u64(1ULL << 63, 2), 0);
    assert_int_equal(wrap_u32(0x123456789ULL), 0x23456789u);
    /* FNV-1a 64's published vectors */
    assert_int_equal(fnv1a64("", 0), 0xcbf29ce484222325ULL);
    assert_int_equal(fnv1a64("a", 1), 0xaf63dc4c8601ec8cULL);
    assert_int_equal(fnv1a64("foobar", 6), 0x85944171f73967e8ULL);
}

/* the nearest picosecond of bytes x 8 x 10^12 / rate, halves up */
static u128 serialise_ref(uint64_t bytes, uint64_t rate)
{
    u128 num = (u128)bytes * 8 * (u128)PS_PER_S;
    return (num + rate / 2) / rate;
}

static void test_time_serialise(void **state)
{
    (void)state;
    /* a 1538-byte frame on 10 Gbit/s: 1 230 400 ps */
    assert_int_equal(time_serialise(1538, 10000000000ULL), 1230400);
    /* the largest bytes and rate; the slowest rate saturates */
    assert_int_equal(time_serialise(UINT64_MAX, UINT64_MAX), 8 * PS_PER_S);
    assert_int_equal(time_serialise(UINT64_MAX, 1), SIMTIME_NEVER);
    assert_int_equal(time_serialise(0, 1), 0);
    /* both paths agree with the reference on either side of the switch */
    uint64_t edge = (UINT64_MAX / 2) / (8 * PS_PER_S);
    for (uint64_t b = edge - 3; b <= edge + 3; b++)
        for (uint64_t r = 1; r < 1ULL << 40; r = r * 7 + 3) {
            u128 want = serialise_ref(b, r);
            assert_int_equal(time_serialise(b, r), want > SIMTIME_NEVER ? SIMTIME_NEVER : (simtime_t)want);
        }
    for (int i = 0; i < 100000; i++) {
        uint64_t b = any(), r = any() | 1;
        u128 want = serialise_ref(b, r);
        assert_int_equal(time_serialise(b, r), want > SIMTIME_NEVER ? SIMTIME_NEVER : (simtime_t)want);
    }
}

static void test_time_add(void **state)
{
    (void)state;
    assert_int_equal(time_add(SIMTIME_NEVER - 5, 5), SIMTIME_NEVER);
    assert_int_equal(time_add(SIMTIME_NEVER - 5, 6), SIMTIME_NEVER);
    assert_int_equal(time_add(SIMTIME_NEVER, SIMTIME_NEVER), SIMTIME_NEVER);
    assert_int_equal(time_add(3, 4), 7);
    assert_int_equal(time_add(0, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mul_div),
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_wraps),
        cmocka_unit_test(test_time_serialise),
        cmocka_unit_test(test_time_add),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
