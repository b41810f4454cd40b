/*
 * netem.c - loss, delay and reorder draws with tc-netem semantics (see
 * netem.h). The Gilbert-Elliott model follows netem's loss_gilb_ell():
 * first the state transition, then the loss draw in the new state.
 */
#include <stdlib.h>
#include <string.h>
#include "netem.h"
#include "units.h"

void netem_init(struct netem *n)
{
    memset(n, 0, sizeof *n);
}

/* Split s into at most max whitespace-separated words in buf. */
static int words(const char *s, char *buf, size_t bufsz, char **w, int max)
{
    strncpy(buf, s, bufsz - 1);
    buf[bufsz - 1] = 0;
    int n = 0;
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (n == max)
            return -1;
        w[n++] = tok;
    }
    return n;
}

int netem_parse_delay(struct netem *n, const char *s, const char **why)
{
    char buf[256], *w[8];
    int nw = words(s, buf, sizeof buf, w, 8);
    static const char *expect = "netem delay syntax: TIME [JITTER] [distribution uniform|normal], e.g. 50ms 1ms";
    if (nw < 1) {
        *why = expect;
        return -1;
    }
    if (parse_time(w[0], &n->delay, why))
        return -1;
    n->jitter = 0;
    n->dist = NETEM_UNIFORM;
    int i = 1;
    if (i < nw && strcmp(w[i], "distribution")) {
        if (parse_time(w[i], &n->jitter, why))
            return -1;
        i++;
        if (i < nw && strcmp(w[i], "distribution")) {
            *why = "netem delay correlation is not modelled; give TIME [JITTER] [distribution uniform|normal]";
            return -1;
        }
    }
    if (i < nw) {
        if (i + 2 != nw) {
            *why = expect;
            return -1;
        }
        if (!strcmp(w[i + 1], "uniform"))
            n->dist = NETEM_UNIFORM;
        else if (!strcmp(w[i + 1], "normal"))
            n->dist = NETEM_NORMAL;
        else {
            *why = "distribution must be uniform or normal";
            return -1;
        }
    }
    if (n->jitter > n->delay && n->dist == NETEM_UNIFORM) {
        *why = "jitter larger than the delay would make delays negative";
        return -1;
    }
    return 0;
}

int netem_parse_loss(struct netem *n, const char *s, const char **why)
{
    char buf[256], *w[8];
    int nw = words(s, buf, sizeof buf, w, 8);
    static const char *expect = "netem loss syntax: PERCENT, random PERCENT, or gemodel p [r [1-h [1-k]]]";
    if (nw < 1) {
        *why = expect;
        return -1;
    }
    int i = 0;
    if (!strcmp(w[0], "gemodel")) {
        if (nw < 2 || nw > 5) {
            *why = expect;
            return -1;
        }
        double v[4] = { 0, 0, 1, 0 };
        for (int k = 1; k < nw; k++)
            if (parse_percent(w[k], &v[k - 1], why))
                return -1;
        n->loss = NETEM_LOSS_GEMODEL;
        n->p = v[0];
        n->r = nw > 2 ? v[1] : 1.0 - v[0];   /* tc: r defaults to 1 - p */
        n->loss_bad = v[2];
        n->loss_good = v[3];
        n->bad = false;
        if (n->p + n->r <= 0) {
            *why = "gemodel needs p + r > 0";
            return -1;
        }
        return 0;
    }
    if (!strcmp(w[0], "random"))
        i = 1;
    if (nw != i + 1) {
        *why = nw > i + 1 ? "netem loss correlation is not modelled; use gemodel for bursty loss" : expect;
        return -1;
    }
    if (parse_percent(w[i], &n->p, why))
        return -1;
    n->loss = n->p > 0 ? NETEM_LOSS_RANDOM : NETEM_LOSS_NONE;
    return 0;
}

int netem_parse_reorder(struct netem *n, const char *s, const char **why)
{
    char buf[128], *w[4];
    int nw = words(s, buf, sizeof buf, w, 4);
    if (nw != 1) {
        *why = "netem reorder syntax: PERCENT (correlation and gap are not modelled)";
        return -1;
    }
    return parse_percent(w[0], &n->reorder, why);
}

double netem_loss_rate(const struct netem *n)
{
    switch (n->loss) {
    case NETEM_LOSS_RANDOM:
        return n->p;
    case NETEM_LOSS_GEMODEL: {
        double pi_bad = n->p / (n->p + n->r);
        return pi_bad * n->loss_bad + (1 - pi_bad) * n->loss_good;
    }
    default:
        return 0;
    }
}

bool netem_lose(struct netem *n, struct rng *r)
{
    switch (n->loss) {
    case NETEM_LOSS_RANDOM:
        return rng_uniform(r) < n->p;
    case NETEM_LOSS_GEMODEL:
        if (!n->bad) {
            if (rng_uniform(r) < n->p)
                n->bad = true;
        } else if (rng_uniform(r) < n->r) {
            n->bad = false;
        }
        return rng_uniform(r) < (n->bad ? n->loss_bad : n->loss_good);
    default:
        return false;
    }
}

simtime_t netem_delay(struct netem *n, struct rng *r, bool *reordered)
{
    *reordered = false;
    if (n->reorder > 0 && rng_uniform(r) < n->reorder) {
        *reordered = true;
        return 0;
    }
    if (!n->jitter)
        return n->delay;
    double j = (double)n->jitter;
    double d = n->dist == NETEM_NORMAL ? rng_gaussian(r, j) : (2.0 * rng_uniform(r) - 1.0) * j;
    simtime_t t = n->delay + (simtime_t)d;
    return t < 0 ? 0 : t;
}
