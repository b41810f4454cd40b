/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_stats.c - the statistics behind `netsim report`: exact values of
 * mean, sd, t intervals and p-values on small samples, a synthetic
 * comparison with a known +10% difference, and the false-alarm rate of the
 * paired comparison when there is no difference.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "cli/stats.h"

#define TOL 1e-6

static void assert_close(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.12g, want %.12g (tolerance %g)", got, want, tol);
}

/* {1,2,3,4,5}: mean 3, sd sqrt(2.5), half-width t_{0.975,4} sd / sqrt(5). */
static void test_summary_known_values(void **state)
{
    const double x[] = { 1, 2, 3, 4, 5 };
    struct stats_summary s;
    double t = gsl_cdf_tdist_Pinv(0.975, 4);
    double half = t * sqrt(2.5) / sqrt(5.0);

    (void)state;
    assert_close(t, 2.776445105, 1e-9);     /* tables: t_{0.975,4} = 2.776445 */
    assert_int_equal(stats_summarize(x, 5, 0.95, &s), 0);
    assert_int_equal(s.n, 5);
    assert_close(s.mean, 3.0, TOL);
    assert_close(s.sd, sqrt(2.5), TOL);
    assert_close(s.half, half, TOL);
    assert_close(s.half, 1.963243, TOL);
    assert_close(s.ci_lo, 3.0 - half, TOL);
    assert_close(s.ci_hi, 3.0 + half, TOL);
    assert_close(stats_ci_half(sqrt(2.5), 5, 0.95), half, TOL);
    /* 99%: t_{0.995,4} = 4.604095 */
    assert_close(stats_ci_half(sqrt(2.5), 5, 0.99), 4.604094871 * sqrt(2.5) / sqrt(5.0), TOL);
}

/* Order and offset do not matter; a large offset keeps the sd exact. */
static void test_summary_offset(void **state)
{
    const double x[] = { 9.4e9 + 5, 9.4e9 + 1, 9.4e9 + 3, 9.4e9 + 2, 9.4e9 + 4 };
    struct stats_summary s;

    (void)state;
    assert_int_equal(stats_summarize(x, 5, 0.95, &s), 0);
    assert_close(s.mean, 9.4e9 + 3, TOL);
    assert_close(s.sd, sqrt(2.5), TOL);
}

/* n = 1: a mean but no spread and no interval; n = 0 and non-finite
 * values are refused. */
static void test_summary_degenerate(void **state)
{
    const double one[] = { 7.5 };
    const double bad[] = { 1, NAN, 3 };
    const double same[] = { 2, 2, 2, 2 };
    struct stats_summary s;

    (void)state;
    assert_int_equal(stats_summarize(one, 1, 0.95, &s), 0);
    assert_int_equal(s.n, 1);
    assert_close(s.mean, 7.5, 0);
    assert_true(isnan(s.sd));
    assert_true(isnan(s.half));
    assert_true(isnan(s.ci_lo) && isnan(s.ci_hi));
    assert_true(isnan(stats_ci_half(1.0, 1, 0.95)));

    assert_int_equal(stats_summarize(one, 0, 0.95, &s), -1);
    assert_true(isnan(s.mean));
    assert_int_equal(stats_summarize(bad, 3, 0.95, &s), -1);
    assert_int_equal(stats_summarize(one, 1, 1.0, &s), -1);

    assert_int_equal(stats_summarize(same, 4, 0.95, &s), 0);
    assert_close(s.sd, 0, 0);
    assert_close(s.ci_lo, 2, 0);
    assert_close(s.ci_hi, 2, 0);
}

/* Paired t test on d = {1,2,3,4,5}: t = 3 / (sqrt(2.5)/sqrt(5)) = 4.2426,
 * 4 dof, two-sided p = 0.0132356 (by numerical integration of the t
 * density, independent of GSL). */
static void test_t_test_p_known(void **state)
{
    (void)state;
    assert_close(stats_t_test_p(3, sqrt(2.5), 5), 0.0132356, 1e-7);
    assert_close(stats_t_test_p(-3, sqrt(2.5), 5), 0.0132356, 1e-7);
    assert_close(stats_t_test_p(0, 1, 10), 1.0, TOL);
    assert_close(stats_t_test_p(0, 0, 10), 1.0, 0);
    assert_close(stats_t_test_p(0.5, 0, 10), 0.0, 0);
    assert_true(isnan(stats_t_test_p(1, 1, 1)));
}

/* B = A * (1 + d_i/100) with d = {1,2,3,4,5}: the %changes are exactly
 * the sample above, so every figure is known. */
static void test_paired_exact(void **state)
{
    const double a[] = { 100, 200, 50, 400, 1000 };
    double b[5];
    struct stats_paired p;
    double half = gsl_cdf_tdist_Pinv(0.975, 4) * sqrt(2.5) / sqrt(5.0);

    (void)state;
    for (int i = 0; i < 5; i++)
        b[i] = a[i] * (1 + (i + 1) / 100.0);
    assert_int_equal(stats_compare_paired(a, b, 5, 0.95, &p), 0);
    assert_int_equal(p.n, 5);
    assert_close(p.mean_a, 350, TOL);
    assert_close(p.mean_b, (101 + 204 + 51.5 + 416 + 1050) / 5.0, TOL);
    assert_close(p.pct.mean, 3, TOL);
    assert_close(p.pct.sd, sqrt(2.5), TOL);
    assert_close(p.pct.ci_lo, 3 - half, TOL);
    assert_close(p.pct.ci_hi, 3 + half, TOL);
    assert_close(p.p_value, 0.0132356, 1e-7);
    assert_int_equal(p.verdict, STATS_IMPROVEMENT);
    assert_string_equal(stats_verdict_name(p.verdict), "improvement");

    /* Swapped: B is slower, d_i = 100 (a - b) / b, all negative. */
    assert_int_equal(stats_compare_paired(b, a, 5, 0.95, &p), 0);
    assert_true(p.pct.ci_hi < 0);
    assert_int_equal(p.verdict, STATS_REGRESSION);
    assert_string_equal(stats_verdict_name(p.verdict), "REGRESSION");
}

/* Identical variants (a deterministic model on the same seeds): every
 * d_i is 0, the interval is [0, 0], p = 1, no change. */
static void test_paired_identical(void **state)
{
    const double a[] = { 9.1e9, 9.3e9, 9.2e9 };
    struct stats_paired p;

    (void)state;
    assert_int_equal(stats_compare_paired(a, a, 3, 0.95, &p), 0);
    assert_close(p.pct.mean, 0, 0);
    assert_close(p.pct.ci_lo, 0, 0);
    assert_close(p.pct.ci_hi, 0, 0);
    assert_close(p.p_value, 1, 0);
    assert_int_equal(p.verdict, STATS_NO_CHANGE);
    assert_string_equal(stats_verdict_name(p.verdict), "no change");
}

static void test_paired_degenerate(void **state)
{
    const double a[] = { 10, 0, 30 };
    const double b[] = { 11, 12, 33 };
    struct stats_paired p;

    (void)state;
    /* One pair: a %change but no interval, no verdict. */
    assert_int_equal(stats_compare_paired(a, b, 1, 0.95, &p), 0);
    assert_close(p.pct.mean, 10, TOL);
    assert_true(isnan(p.pct.ci_lo));
    assert_true(isnan(p.p_value));
    assert_int_equal(p.verdict, STATS_TOO_FEW);
    assert_string_equal(stats_verdict_name(p.verdict), "too few pairs");
    /* A zero baseline has no %change; no pairs at all is refused. */
    assert_int_equal(stats_compare_paired(a, b, 3, 0.95, &p), -1);
    assert_int_equal(p.verdict, STATS_TOO_FEW);
    assert_int_equal(stats_compare_paired(a, b, 0, 0.95, &p), -1);
}

/*
 * A synthetic regression study: 10 paired seeds, A around 9.4 Gbit/s with
 * seed-to-seed spread of 3%, B = 1.10 A plus 0.5% noise of its own. The
 * comparison must find the improvement and its interval must hold +10%.
 */
static void test_paired_known_difference(void **state)
{
    enum { N = 10 };
    double a[N], b[N];
    struct stats_paired p;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

    (void)state;
    gsl_rng_set(rng, 20171206);
    for (int i = 0; i < N; i++) {
        a[i] = 9.4e9 * (1 + gsl_ran_gaussian(rng, 0.03));
        b[i] = a[i] * 1.10 + gsl_ran_gaussian(rng, 0.005 * 9.4e9);
    }
    gsl_rng_free(rng);
    assert_int_equal(stats_compare_paired(a, b, N, 0.95, &p), 0);
    assert_true(p.pct.mean > 0);
    assert_true(p.pct.ci_lo <= 10 && 10 <= p.pct.ci_hi);
    assert_true(p.pct.ci_lo > 5);      /* the noise is far smaller than the effect */
    assert_true(p.p_value < 1e-6);
    assert_true(p.mean_b > p.mean_a);
    assert_int_equal(p.verdict, STATS_IMPROVEMENT);

    /* The same data read the other way round is a regression of ~ -9.1%. */
    assert_int_equal(stats_compare_paired(b, a, N, 0.95, &p), 0);
    assert_true(p.pct.ci_lo <= 100 * (1 / 1.10 - 1) && 100 * (1 / 1.10 - 1) <= p.pct.ci_hi);
    assert_int_equal(p.verdict, STATS_REGRESSION);
}

/*
 * No difference: A and B iid (n = 20 pairs), for 200 seeds. A 95% interval
 * excludes 0 in 5% of studies, 10 of 200 expected with sd sqrt(200 .05
 * .95) = 3.1; more than 16 flags would mean the intervals are too narrow.
 * The p-value agrees with the interval: p < 0.05 exactly when flagged.
 */
static void test_paired_null_false_alarms(void **state)
{
    enum { STUDIES = 200, N = 20 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int flagged = 0, small_p = 0;

    (void)state;
    for (int seed = 1; seed <= STUDIES; seed++) {
        double a[N], b[N];
        struct stats_paired p;

        gsl_rng_set(rng, (unsigned long)seed);
        for (int i = 0; i < N; i++) {
            a[i] = 9.4e9 + gsl_ran_gaussian(rng, 0.2e9);
            b[i] = 9.4e9 + gsl_ran_gaussian(rng, 0.2e9);
        }
        assert_int_equal(stats_compare_paired(a, b, N, 0.95, &p), 0);
        if (p.verdict != STATS_NO_CHANGE)
            flagged++;
        if (p.p_value < 0.05)
            small_p++;
    }
    gsl_rng_free(rng);
    print_message("null studies flagged: %d of %d\n", flagged, STUDIES);
    assert_true(flagged <= 16);
    assert_int_equal(small_p, flagged);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_known_values),
        cmocka_unit_test(test_summary_offset),
        cmocka_unit_test(test_summary_degenerate),
        cmocka_unit_test(test_t_test_p_known),
        cmocka_unit_test(test_paired_exact),
        cmocka_unit_test(test_paired_identical),
        cmocka_unit_test(test_paired_degenerate),
        cmocka_unit_test(test_paired_known_difference),
        cmocka_unit_test(test_paired_null_false_alarms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
