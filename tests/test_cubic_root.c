/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_cubic_root.c - CUBIC's K as Linux 4.15 and 6.1 compute it
 * (net/ipv4/tcp_cubic.c's cubic_root): integers worked out by hand, step
 * by step through the table and the Newton step, for the inputs below;
 * the wrapped u64 product at a small bic_scale; and the kernel's own
 * bound against the real root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include "models/tcp/cc_cubic.h"

/* tcp_cubic.c's cubic_root, bit for bit: up to 6 bits, the table's entry
 * v rounded, (v + 35) >> 6; n bits, the entry of the top bits, a >> 3b
 * with b = (n x 84 >> 8) - 1, gives x0 = ((v + 10) << b) >> 6, then one
 * Newton step, (2 x0 + a / (x0 (x0 - 1))) x 341 >> 10. K is that root of
 * cube_factor x (W_max - cwnd), ~0.2 % at most off the real root, either
 * side (libm's cbrt, the port's before, gave 1389, 9300, 13893 below). */
static void test_cubic_root(void **state)
{
    (void)state;
    /* the table alone: v[1] 54, v[8] 123, v[27] 190, v[42] 221 (up to 4,
     * the table's own rounding of the real 3.48), v[63] 254 */
    assert_int_equal(tcp_cubic_root(0), 0);
    assert_int_equal(tcp_cubic_root(1), 1);
    assert_int_equal(tcp_cubic_root(8), 2);
    assert_int_equal(tcp_cubic_root(27), 3);
    assert_int_equal(tcp_cubic_root(42), 4);
    assert_int_equal(tcp_cubic_root(63), 4);
    /* 64, 7 bits: b 1, top 8 (v 123), x0 = 266 >> 6 = 4; 8 + 64 / 12 = 13,
     * 13 x 341 >> 10 = 4 */
    assert_int_equal(tcp_cubic_root(64), 4);
    /* 1 packet below: a = 2681735677, 32 bits, b 9, top 19 (v 168):
     * x0 = (178 << 9) >> 6 = 1424; 2848 + a / (1424 x 1423) = 2848 + 1323
     * = 4171, x 341 >> 10 = 1388 (the real root 1389.33) */
    assert_int_equal(tcp_cubic_k(1), 1388);
    /* 300 and 400: 40 bits, b 12, tops 11 and 15 (v 138, 156): x0 9472
     * and 10624, 27912 and 30752 -> 9294 (9300.63) and 10240 (10236.67:
     * 10 s to regain W_max, cbrt(400 / 0.4)) */
    assert_int_equal(tcp_cubic_k(300), 9294);
    assert_int_equal(tcp_cubic_k(400), 10240);
    /* 1000: 42 bits, top 39 (v 215): x0 14400, 41733 -> 13897 (13893.30);
     * 10^6: 52 bits, b 16, top 9: 417041 -> 138877 (138932.97) */
    assert_int_equal(tcp_cubic_k(1000), 13897);
    assert_int_equal(tcp_cubic_k(1000000), 138877);
    /* the largest, 2^32 - 1 below: a = 11517967026549683715, 64 bits,
     * b 20, top 9: x0 2277376, 4554752 + 2220785 = 6775537 -> 2256306 */
    assert_int_equal(tcp_cubic_k(UINT32_MAX), 2256306);
    /* bic_scale 1: cube_factor 109951162777, and the kernel's u64 product
     * with 2^32 - 1 wraps, to 11068046331697587815: K 2227418 */
    assert_int_equal(tcp_cubic_k_scale(UINT32_MAX, 1), 2227418);
    /* and within 0.2 % + 1 of the real root up to 10^6 packets below */
    const double cube_factor = 2681735677.0;
    int checked = 0;
    for (uint32_t below = 1; below <= 1000000; below += below / 8 + 1, checked++) {
        double ref = cbrt(cube_factor * below);
        uint32_t k = tcp_cubic_k(below);
        if (fabs(k - ref) > 1 + 0.002 * ref)
            fail_msg("K(%u) = %u, the cube root is %.2f", below, k, ref);
    }
    assert_true(checked > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_cubic_root) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
