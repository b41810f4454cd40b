/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sizedist.c - reading a size CDF and drawing from it (sizedist.h).
 */
#include "sim/sizedist.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"

static void resolve(char *out, size_t n, const char *path, const char *beside)
{
    const char *slash = beside ? strrchr(beside, '/') : NULL;
    if (path[0] == '/' || !slash)
        snprintf(out, n, "%s", path);
    else
        snprintf(out, n, "%.*s/%s", (int)(slash - beside), beside, path);
}

int sizedist_load(struct sizedist *d, const char *path, const char *beside, char *err, size_t errlen)
{
    char full[4096], line[512];
    memset(d, 0, sizeof *d);
    resolve(full, sizeof full, path, beside);
    FILE *f = fopen(full, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open the size distribution", full);
        return -1;
    }
    uint32_t cap = 0;
    int ln = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        double x, y;
        char extra;
        int got = sscanf(line, "%lf %lf %c", &x, &y, &extra);
        if (got <= 0)
            continue;                     /* blank or comment */
        if (got != 2 || !isfinite(x) || !isfinite(y) || x < 0 || y < 0 || y > 1 ||
            (d->n && (x < d->size[d->n - 1] || y < d->cdf[d->n - 1]))) {
            snprintf(err, errlen, "%s:%d: expected \"SIZE FRACTION\": bytes and a cumulative fraction 0..1, "
                     "both no smaller than the line before's", full, ln);
            rc = -1;
            break;
        }
        if (d->n == cap) {
            cap = cap ? cap * 2 : 16;
            d->size = xrealloc(d->size, cap * sizeof *d->size);
            d->cdf = xrealloc(d->cdf, cap * sizeof *d->cdf);
        }
        d->size[d->n] = x;
        d->cdf[d->n++] = y;
    }
    fclose(f);
    if (!rc && (d->n == 0 || d->cdf[d->n - 1] != 1)) {
        snprintf(err, errlen, "%s:%d: expected the last point's fraction to be 1", full, ln);
        rc = -1;
    }
    if (rc) {
        sizedist_free(d);
        return -1;
    }
    /* the first point's fraction is the probability of exactly its size */
    d->mean = d->size[0] * d->cdf[0];
    for (uint32_t i = 1; i < d->n; i++)
        d->mean += (d->size[i] + d->size[i - 1]) / 2 * (d->cdf[i] - d->cdf[i - 1]);
    return 0;
}

uint64_t sizedist_draw(const struct sizedist *d, double u)
{
    uint32_t i = 0;
    while (i < d->n - 1 && d->cdf[i] <= u)
        i++;
    double x = d->size[i];
    if (i > 0 && d->cdf[i] > d->cdf[i - 1])
        x = d->size[i - 1] + (d->size[i] - d->size[i - 1]) * (u - d->cdf[i - 1]) / (d->cdf[i] - d->cdf[i - 1]);
    uint64_t b = (uint64_t)llround(x);
    return b ? b : 1;
}

void sizedist_free(struct sizedist *d)
{
    free(d->size);
    free(d->cdf);
    memset(d, 0, sizeof *d);
}
