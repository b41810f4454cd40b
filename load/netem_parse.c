/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netem_parse.c - netem's options in tc's syntax (see netem_parse.h), read the
 * way iproute2's q_netem.c reads them, with the parts netsim does not
 * model refused by name rather than ignored.
 */
#include <stdlib.h>
#include <string.h>
#include "load/netem_parse.h"
#include "sim/units.h"

/* Split s into at most max whitespace-separated words in buf; -1 if there
 * are more words, or more text than buf holds (a value is one line of at
 * most a few hundred characters, so a longer one is not netem syntax). */
static int words(const char *s, char *buf, size_t bufsz, char **w, int max)
{
    if (strlen(s) >= bufsz)
        return -1;
    strcpy(buf, s);
    int n = 0;
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (n == max)
            return -1;
        w[n++] = tok;
    }
    return n;
}

/* tc's NEXT_IS_NUMBER(): the next word starts with a digit. */
static bool is_number(const char *w)
{
    return w[0] >= '0' && w[0] <= '9';
}

int netem_parse_prob(double *out, const char *what, const char *s, const char **why, bool *bare_fraction)
{
    double f;
    (void)what;
    if (parse_percent(s, &f, why))
        return -1;
    /* A bare value in (0, 1] was a fraction before netsim read percentages
     * as tc does: 0.1 now means 0.1 %, not 10 %. */
    if (bare_fraction && !strchr(s, '%') && f > 0 && f <= 0.01)
        *bare_fraction = true;
    *out = f;
    return 0;
}

int netem_parse_delay(struct netem_opts *o, const char *s, const char **why)
{
    static const char *const expect = "netem delay syntax: TIME [JITTER] [distribution uniform|normal], e.g. 50ms 1ms";
    char buf[256], *w[8];
    int nw = words(s, buf, sizeof buf, w, 8);
    if (nw < 1) {
        *why = expect;
        return -1;
    }
    simtime_t latency, jitter = 0;
    enum netem_dist dist = NETEM_UNIFORM;
    if (parse_time(w[0], &latency, why))
        return -1;
    int i = 1;
    if (i < nw && is_number(w[i])) {
        if (parse_time(w[i], &jitter, why))
            return -1;
        i++;
        if (i < nw && is_number(w[i])) {
            *why = "netem delay correlation is not modelled; give TIME [JITTER] [distribution uniform|normal]";
            return -1;
        }
    }
    if (i < nw) {
        if (strcmp(w[i], "distribution") || i + 2 != nw) {
            *why = expect;
            return -1;
        }
        if (!strcmp(w[i + 1], "normal"))
            dist = NETEM_NORMAL;
        else if (strcmp(w[i + 1], "uniform")) {
            *why = "distribution uniform or normal (netem's pareto tables are not modelled)";
            return -1;
        }
        if (!latency || !jitter) {
            *why = "a delay and a jitter before 'distribution' (tc: distribution specified but no latency and jitter values)";
            return -1;
        }
    }
    o->latency = latency;
    o->jitter = jitter;
    o->dist = dist;
    return 0;
}

int netem_parse_loss(struct netem_opts *o, const char *s, const char **why, bool *bare_fraction)
{
    static const char *const expect = "netem loss syntax: PERCENT, random PERCENT, or gemodel P [R [1-H [1-K]]]";
    char buf[256], *w[8];
    int nw = words(s, buf, sizeof buf, w, 8);
    if (nw < 1) {
        *why = expect;
        return -1;
    }
    /* tc's "loss ... ecn": what the loss picks is marked CE instead when
     * it is ECN-capable (the option follows the loss in tc's syntax) */
    bool ecn = nw > 1 && !strcmp(w[nw - 1], "ecn");
    if (ecn)
        nw--;
    o->ecn = false;
    if (!strcmp(w[0], "gemodel")) {
        if (nw < 2 || nw > 5) {
            *why = expect;
            return -1;
        }
        /* q_netem.c's defaults: r 100 %, 1-h 100 %, 1-k 0 % */
        double v[4] = { 0, 1, 1, 0 };
        for (int k = 1; k < nw; k++)
            if (netem_parse_prob(&v[k - 1], "gemodel", w[k], why, bare_fraction))
                return -1;
        o->loss = NETEM_LOSS_GEMODEL;
        o->p = v[0];
        o->r = v[1];
        o->loss_bad = v[2];
        o->loss_good = v[3];
        o->ecn = ecn;
        return 0;
    }
    if (!strcmp(w[0], "state")) {
        *why = "loss random or gemodel (netem's 4-state model, loss state, is not modelled)";
        return -1;
    }
    int i = !strcmp(w[0], "random");
    if (nw != i + 1) {
        *why = nw > i + 1 ? "netem loss correlation is not modelled; use gemodel for bursty loss" : expect;
        return -1;
    }
    if (netem_parse_prob(&o->p, "loss", w[i], why, bare_fraction))
        return -1;
    o->loss = o->p > 0 ? NETEM_LOSS_RANDOM : NETEM_LOSS_NONE;
    if (ecn && o->loss == NETEM_LOSS_NONE) {
        *why = "a loss above 0 before ecn (tc: ecn requested without loss model)";
        return -1;
    }
    o->ecn = ecn;
    return 0;
}

int netem_parse_rate(struct netem_opts *o, const char *s, const char **why)
{
    static const char *const expect = "netem rate syntax: RATE [PACKETOVERHEAD [CELLSIZE [CELLOVERHEAD]]], e.g. 100mbit 20";
    char buf[256], *w[8];
    int nw = words(s, buf, sizeof buf, w, 8);
    if (nw < 1 || nw > 4) {
        *why = expect;
        return -1;
    }
    uint64_t rate;
    if (parse_rate(w[0], &rate, why))
        return -1;
    if (rate < 1000) {
        *why = "a netem rate of at least 1kbit";
        return -1;
    }
    int64_t v[3] = { 0, 0, 0 };
    for (int k = 1; k < nw; k++) {
        if (parse_int(w[k], &v[k - 1], why) || v[k - 1] < -65535 || v[k - 1] > 65535 || (k == 2 && v[1] < 0)) {
            *why = "netem rate overheads as integers of bytes from -65535 to 65535, and a cell size from 0 to 65535";
            return -1;
        }
    }
    o->rate = rate;
    o->packet_overhead = (int32_t)v[0];
    o->cell_size = (uint32_t)v[1];
    o->cell_overhead = (int32_t)v[2];
    return 0;
}

int netem_key_parse(struct netem_opts *o, int k, const char *v, const char **why, bool *bare)
{
    int64_t lim;
    switch (k) {
    case NK_DELAY:
        if (netem_parse_delay(o, v, why))
            return -1;
        if (o->latency > NETEM_MAX_DELAY || o->jitter > NETEM_MAX_DELAY) {
            *why = "a delay and a jitter of at most 1000s each";
            return -1;
        }
        return 0;
    case NK_LOSS: return netem_parse_loss(o, v, why, bare);
    case NK_REORDER: return netem_parse_prob(&o->reorder, "reorder", v, why, bare);
    case NK_DUPLICATE: return netem_parse_prob(&o->duplicate, "duplicate", v, why, bare);
    case NK_CORRUPT: return netem_parse_prob(&o->corrupt, "corrupt", v, why, bare);
    case NK_RATE: return *v ? netem_parse_rate(o, v, why) : 0;
    default:
        if (parse_int(v, &lim, why))
            return -1;
        if (lim < 1 || lim > NETEM_MAX_LIMIT) {
            *why = "a packet count from 1 to 10000000";
            return -1;
        }
        o->limit = (uint32_t)lim;
        return 0;
    }
}

/* tc-netem(8)'s option words, by NK_ index */
static const char *const option_word[NK_COUNT] = { "delay", "loss", "reorder", "duplicate", "corrupt", "rate", "limit" };

static int option_of(const char *w)
{
    for (int k = 0; k < NK_COUNT; k++)
        if (!strcmp(w, option_word[k]))
            return k;
    return -1;
}

int netem_words_parse(const char *words, struct netem_opts *o, bool *bare, char *err, size_t n)
{
    char buf[1024], val[NK_COUNT][256];
    bool seen[NK_COUNT] = { false }, ecn = false;
    netem_opts_init(o);
    if (strlen(words) >= sizeof buf) {
        snprintf(err, n, "netem's options in at most %zu characters", sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", words);
    int cur = -1;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        int k = option_of(w);
        if (!strcmp(w, "ecn")) {         /* tc takes it anywhere; it qualifies the loss */
            ecn = true;
        } else if (k >= 0) {
            if (seen[k]) {
                snprintf(err, n, "netem: %s given twice", w);
                return -1;
            }
            seen[k] = true;
            val[k][0] = '\0';
            cur = k;
        } else if (cur < 0) {
            snprintf(err, n, "netem: got '%s', expected an option: delay, loss, reorder, duplicate, corrupt, rate, "
                     "limit (tc-netem's words)", w);
            return -1;
        } else {
            size_t used = strlen(val[cur]);
            if (used + strlen(w) + 2 > sizeof val[cur]) {
                snprintf(err, n, "netem: %s's value is too long", option_word[cur]);
                return -1;
            }
            snprintf(val[cur] + used, sizeof val[cur] - used, "%s%s", used ? " " : "", w);
        }
    }
    if (ecn) {
        if (!seen[NK_LOSS]) {
            snprintf(err, n, "netem: ecn marks what the loss picks, and there is no loss (e.g. loss 1%% ecn)");
            return -1;
        }
        size_t used = strlen(val[NK_LOSS]);
        snprintf(val[NK_LOSS] + used, sizeof val[NK_LOSS] - used, " ecn");
    }
    for (int k = 0; k < NK_COUNT; k++) {
        const char *why = NULL;
        if (!seen[k])
            continue;
        if (!val[k][0]) {
            snprintf(err, n, "netem: %s needs a value", option_word[k]);
            return -1;
        }
        if (netem_key_parse(o, k, val[k], &why, bare)) {
            snprintf(err, n, "netem: %s got '%s', expected %s", option_word[k], val[k], why);
            return -1;
        }
    }
    if (o->reorder > 0 && !o->latency) {
        snprintf(err, n, "netem: reorder needs a delay (tc: reordering not possible without specifying some delay)");
        return -1;
    }
    return 0;
}
