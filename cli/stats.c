/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.c - sample summaries and paired comparisons (see stats.h), on
 * GSL's statistics and t distribution.
 *
 * GSL's default error handler aborts the process on a domain error (a t
 * quantile with 0 degrees of freedom, say); every call here is guarded so
 * that those cases return NaN instead, and the handler is left alone.
 */
#include "cli/stats.h"
#include "sim/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

double stats_ci_half(double sd, size_t n, double level)
{
    if (n < 2 || !(level > 0 && level < 1) || !isfinite(sd))
        return NAN;
    return gsl_cdf_tdist_Pinv(0.5 + level / 2, (double)(n - 1)) * sd / sqrt((double)n);
}

double stats_t_test_p(double mean, double sd, size_t n)
{
    if (n < 2 || !isfinite(mean) || !isfinite(sd))
        return NAN;
    /* Identical differences (a deterministic model gives them): no
     * spread to test against, so the mean alone decides. */
    if (sd == 0)
        return mean == 0 ? 1.0 : 0.0;
    double t = mean / (sd / sqrt((double)n));
    return 2 * gsl_cdf_tdist_Q(fabs(t), (double)(n - 1));
}

int stats_summarize(const double *x, size_t n, double level, struct stats_summary *s)
{
    s->n = n;
    s->mean = s->sd = s->half = s->ci_lo = s->ci_hi = NAN;
    if (n == 0 || !x || !all_finite(x, n) || !(level > 0 && level < 1))
        return -1;
    s->mean = gsl_stats_mean(x, 1, n);
    if (n < 2)
        return 0;
    s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
    s->half = stats_ci_half(s->sd, n, level);
    s->ci_lo = s->mean - s->half;
    s->ci_hi = s->mean + s->half;
    return 0;
}

const char *stats_verdict_name(enum stats_verdict v)
{
    switch (v) {
    case STATS_NO_CHANGE: return "no change";
    case STATS_REGRESSION: return "REGRESSION";
    case STATS_IMPROVEMENT: return "improvement";
    case STATS_LOWER: return "lower";
    case STATS_HIGHER: return "higher";
    case STATS_TOO_FEW: break;
    }
    return "too few pairs";
}

enum stats_verdict stats_orient(enum stats_verdict v, int lower_better, int neither)
{
    if (v != STATS_REGRESSION && v != STATS_IMPROVEMENT)
        return v;
    if (neither)
        return v == STATS_REGRESSION ? STATS_LOWER : STATS_HIGHER;
    if (lower_better)
        return v == STATS_REGRESSION ? STATS_IMPROVEMENT : STATS_REGRESSION;
    return v;
}

int stats_compare_paired(const double *a, const double *b, size_t n, double level, struct stats_paired *out)
{
    double *d;
    int rc;

    out->n = n;
    out->mean_a = out->mean_b = out->p_value = NAN;
    out->verdict = STATS_TOO_FEW;
    stats_summarize(NULL, 0, level, &out->pct);
    out->pct.n = n;
    if (n == 0 || !all_finite(a, n) || !all_finite(b, n))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (a[i] == 0)
            return -1;
    d = xmalloc(n * sizeof *d);
    for (size_t i = 0; i < n; i++)
        d[i] = 100 * (b[i] - a[i]) / a[i];
    rc = stats_summarize(d, n, level, &out->pct);
    free(d);
    if (rc != 0)
        return -1;      /* a ratio overflowed */
    out->mean_a = gsl_stats_mean(a, 1, n);
    out->mean_b = gsl_stats_mean(b, 1, n);
    if (n < 2)
        return 0;
    out->p_value = stats_t_test_p(out->pct.mean, out->pct.sd, n);
    if (out->pct.ci_hi < 0)
        out->verdict = STATS_REGRESSION;
    else if (out->pct.ci_lo > 0)
        out->verdict = STATS_IMPROVEMENT;
    else
        out->verdict = STATS_NO_CHANGE;
    return 0;
}
