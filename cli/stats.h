/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - the statistics of `netsim report`: mean, standard deviation and
 * t confidence interval of a sample, and the paired comparison of two
 * variants run on the same seeds. Pure functions over double arrays (GSL
 * underneath), so each figure is unit-testable.
 *
 * Intervals use Student's t with n - 1 degrees of freedom: repeats are few
 * (3..30), where the normal quantile would make intervals too narrow.
 */
#ifndef NETSIM_STATS_H
#define NETSIM_STATS_H

#include <stddef.h>

/* Mean, sample standard deviation (n - 1 denominator) and the confidence
 * interval of the mean [ci_lo, ci_hi] = mean -/+ half. With n == 1, sd,
 * half, ci_lo and ci_hi are NaN. */
struct stats_summary {
    size_t n;
    double mean;
    double sd;
    double half;
    double ci_lo, ci_hi;
};

/* Summarizes x[0..n-1] at confidence level (0.95 for 95%). Returns 0, or -1
 * (and leaves *s all NaN, s->n = n) when n == 0, a value is not finite, or
 * level is not in (0, 1). */
int stats_summarize(const double *x, size_t n, double level, struct stats_summary *s);

/* Half-width of the t interval of a mean: t_{(1+level)/2, n-1} * sd / sqrt(n);
 * NaN when n < 2. */
double stats_ci_half(double sd, size_t n, double level);

/* Two-sided p-value of the one-sample t test of mean 0 on a sample with
 * this mean, sd and n (1 when mean and sd are both 0; 0 when only sd is).
 * NaN when n < 2. */
double stats_t_test_p(double mean, double sd, size_t n);

enum stats_verdict {
    STATS_TOO_FEW,          /* fewer than 2 pairs: no interval */
    STATS_NO_CHANGE,        /* the interval of the %change contains 0 */
    STATS_REGRESSION,       /* entirely below 0: B is slower */
    STATS_IMPROVEMENT,      /* entirely above 0 */
    STATS_LOWER,            /* entirely below 0, for a metric with no better side */
    STATS_HIGHER,           /* entirely above 0, likewise */
};

/* The verdict for a metric whose better side is lower (a rise is the
 * REGRESSION) or that has none (a rise is only "higher"). */
enum stats_verdict stats_orient(enum stats_verdict v, int lower_better, int neither);

/* "too few pairs", "no change", "REGRESSION", "improvement", "lower", "higher". */
const char *stats_verdict_name(enum stats_verdict v);

/*
 * B against A on pairs (a[i], b[i]) that share a seed: d_i = 100 (b_i -
 * a_i) / a_i, the mean %change with its t interval at `level` and the
 * paired t test's two-sided p-value on the d_i. Pairing removes the
 * seed-to-seed variation that both variants share, which an unpaired
 * comparison of the two means would count as noise.
 */
struct stats_paired {
    size_t n;
    double mean_a, mean_b;
    struct stats_summary pct;   /* of the d_i */
    double p_value;             /* NaN when n < 2 */
    enum stats_verdict verdict;
};

/* Returns 0, or -1 when n == 0, a value is not finite or an a[i] is 0. */
int stats_compare_paired(const double *a, const double *b, size_t n, double level, struct stats_paired *out);

#endif
