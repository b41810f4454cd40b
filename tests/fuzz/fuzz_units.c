/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_units.c - libFuzzer harness: every parser of units.h on the input
 * as one value, and the table formatters on what they return.
 *
 * Input: the text of one value, as it would follow "key =" (a NUL ends it).
 *
 * Besides crashes it checks units.h's contract: a failure leaves the output
 * untouched and says what was expected; a success is in the type's range
 * (a time is not negative, a rate is positive, a percentage is 0..1, a
 * double is finite, a bool is 0 or 1); an integer prints back as it parsed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/units.h"
#include "tests/fuzz/fuzz.h"

/* A value no parser returns on its own for these inputs, to see that a
 * failure did not write. */
#define POISON_U 0x5a5a5a5a5a5a5a5aULL
#define POISON_D -12345.678

static void check_formats(double v)
{
    char buf[32];
    FUZZ_CHECK(strlen(fmt_bytes(buf, v)) < sizeof buf);
    FUZZ_CHECK(strlen(fmt_bitrate(buf, v)) < sizeof buf);
}

static void check_failed(int rc, const char *why)
{
    FUZZ_CHECK(rc == -1);
    FUZZ_CHECK(why && *why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    FUZZ_CHECK(s);
    memcpy(s, data, size);
    s[size] = '\0';
    const char *why;

    simtime_t t = (simtime_t)POISON_U;
    why = NULL;
    int rc = parse_time(s, &t, &why);
    if (rc == 0) {
        FUZZ_CHECK(t >= 0);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(t == (simtime_t)POISON_U);
    }

    uint64_t u = POISON_U;
    why = NULL;
    rc = parse_rate(s, &u, &why);
    if (rc == 0) {
        FUZZ_CHECK(u > 0);
        check_formats((double)u);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(u == POISON_U);
    }

    u = POISON_U;
    why = NULL;
    rc = parse_size(s, &u, &why);
    if (rc == 0) {
        check_formats((double)u);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(u == POISON_U);
    }

    double d = POISON_D;
    why = NULL;
    rc = parse_percent(s, &d, &why);
    if (rc == 0) {
        FUZZ_CHECK(d >= 0 && d <= 1);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(d == POISON_D);
    }

    int64_t i = (int64_t)POISON_U;
    why = NULL;
    rc = parse_int(s, &i, &why);
    if (rc == 0) {
        char back[32];
        int64_t j;
        snprintf(back, sizeof back, "%lld", (long long)i);
        FUZZ_CHECK(parse_int(back, &j, &why) == 0 && j == i);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(i == (int64_t)POISON_U);
    }

    d = POISON_D;
    why = NULL;
    rc = parse_double(s, &d, &why);
    if (rc == 0) {
        FUZZ_CHECK(isfinite(d));
        check_formats(d);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(d == POISON_D);
    }

    int b = 7;
    why = NULL;
    rc = parse_bool(s, &b, &why);
    if (rc == 0) {
        FUZZ_CHECK(b == 0 || b == 1);
    } else {
        check_failed(rc, why);
        FUZZ_CHECK(b == 7);
    }

    free(s);
    return 0;
}
