/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_netem.c - libFuzzer harness: netem's option parsers (netem.h) on
 * the input as the value of each of its keys.
 *
 * Input: the text of one value, as it would follow "delay =" or "loss ="
 * (a NUL ends it).
 *
 * Besides crashes it checks that a failure says what was expected, and
 * that what a success stores is what the qdisc can use: times not
 * negative, a normal distribution only with a delay and a jitter,
 * probabilities and the long-run loss rate in 0..1, a rate of at least
 * 1 kbit with its overheads in tc's range.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "load/netem_parse.h"
#include "tests/fuzz/fuzz.h"

static bool fraction(double p)
{
    return p >= 0 && p <= 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    FUZZ_CHECK(s);
    memcpy(s, data, size);
    s[size] = '\0';
    struct netem_opts o;
    const char *why;
    bool bare;

    netem_opts_init(&o);
    why = NULL;
    if (netem_parse_delay(&o, s, &why) == 0) {
        FUZZ_CHECK(o.latency >= 0 && o.jitter >= 0);
        FUZZ_CHECK(o.dist == NETEM_UNIFORM || (o.dist == NETEM_NORMAL && o.latency && o.jitter));
    } else {
        FUZZ_CHECK(why && *why);
    }

    netem_opts_init(&o);
    why = NULL;
    bare = false;
    if (netem_parse_loss(&o, s, &why, &bare) == 0) {
        FUZZ_CHECK(fraction(o.p) && fraction(o.r) && fraction(o.loss_bad) && fraction(o.loss_good));
        FUZZ_CHECK(o.loss == NETEM_LOSS_NONE || o.loss == NETEM_LOSS_RANDOM || o.loss == NETEM_LOSS_GEMODEL);
        /* a mix of fractions: 1 give or take rounding */
        double lr = netem_loss_rate(&o);
        FUZZ_CHECK(lr >= 0 && lr <= 1 + 1e-12);
    } else {
        FUZZ_CHECK(why && *why);
    }
    /* the caller's bare_fraction may be NULL */
    netem_opts_init(&o);
    (void)netem_parse_loss(&o, s, &why, NULL);

    double p = -1;
    why = NULL;
    bare = false;
    if (netem_parse_prob(&p, "duplicate", s, &why, &bare) == 0) {
        FUZZ_CHECK(fraction(p));
        FUZZ_CHECK(!bare || (p > 0 && p <= 0.01 && !strchr(s, '%')));
    } else {
        FUZZ_CHECK(why && *why);
    }

    netem_opts_init(&o);
    why = NULL;
    if (netem_parse_rate(&o, s, &why) == 0) {
        FUZZ_CHECK(o.rate >= 1000);
        FUZZ_CHECK(o.packet_overhead >= -65535 && o.packet_overhead <= 65535);
        FUZZ_CHECK(o.cell_size <= 65535);
        FUZZ_CHECK(o.cell_overhead >= -65535 && o.cell_overhead <= 65535);
    } else {
        FUZZ_CHECK(why && *why);
    }

    free(s);
    return 0;
}
