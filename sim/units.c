/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * units.c - parsing and formatting of values with units (see units.h).
 *
 * Times, rates and sizes are parsed as exact decimals (a 64-bit mantissa
 * and a count of fraction digits) and scaled in 128-bit integers, not
 * through double: "0.1ns" must be exactly 100 ps, "1.5K" exactly 1536
 * bytes (and "1.3K" detectably not whole), and "9223372036854775807ps"
 * must not round past INT64_MAX. Exponents ("1e3ms") are not accepted in
 * these; nobody writes them in tc or sysctl syntax.
 *
 * Percentages and plain doubles go through strtod(), which rounds
 * correctly: "1.1%" is parsed as "1.1e-2", so it equals the literal 0.011.
 * strtod() follows LC_NUMERIC; netsim never calls setlocale().
 *
 * Every *why string completes "expected ...", so that a caller can write
 * "got '5', expected a time with a unit (...) such as 50ms".
 */
#include "sim/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

__extension__ typedef unsigned __int128 units_u128;

/* Fraction digits kept: 10^37 still fits 128 bits next to mantissa * unit. */
#define UNITS_MAX_SCALE 37

/* An unsigned decimal as written: value = mant / 10^scale (+ a little if dropped). */
struct units_dec {
    uint64_t mant;
    int scale;
    int dropped;    /* a non-zero fraction digit beyond 64 bits was ignored */
    int overflow;   /* the integer part alone does not fit 64 bits */
};

struct units_unit {
    const char *name;
    uint64_t mult;
};

static int units_fail(const char **why, const char *msg)
{
    if (why)
        *why = msg;
    return -1;
}

/*
 * Reads "12", "1.5", ".5" or "5." at s. Returns the first character after
 * the number, or NULL if there is no digit (a sign is not a digit: callers
 * decide what a leading '-' means).
 */
static const char *units_decimal(const char *s, struct units_dec *d)
{
    int digits = 0, point = 0;

    memset(d, 0, sizeof *d);
    for (;; s++) {
        if (*s == '.' && !point) {
            point = 1;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            break;
        unsigned dig = (unsigned)(*s - '0');
        int fits = d->mant <= (UINT64_MAX - dig) / 10;
        digits++;
        if (!point) {
            if (fits)
                d->mant = d->mant * 10 + dig;
            else
                d->overflow = 1;
        } else if (fits && d->scale < UNITS_MAX_SCALE) {
            d->mant = d->mant * 10 + dig;
            d->scale++;
        } else if (dig) {
            d->dropped = 1;
        }
    }
    return digits ? s : NULL;
}

/*
 * d * mult rounded to the nearest integer (halves up). Returns -1 if that
 * exceeds max. *exact (optional) says whether d * mult was whole. Digits
 * dropped beyond 19 significant ones can only matter to a value that sits
 * within 1e-19 of a rounding boundary; we accept that.
 */
static int units_scale(const struct units_dec *d, uint64_t mult, uint64_t max,
                       uint64_t *out, int *exact)
{
    units_u128 p = 1, v, q, r;

    for (int i = 0; i < d->scale; i++)
        p *= 10;
    v = (units_u128)d->mant * mult;
    q = v / p;
    r = v % p;
    if (exact)
        *exact = r == 0 && !d->dropped;
    if (2 * r >= p)
        q++;
    if (d->overflow || q > max)
        return -1;
    *out = (uint64_t)q;
    return 0;
}

static const struct units_unit *units_find(const struct units_unit *t, const char *s, int nocase)
{
    for (; t->name; t++)
        if (nocase ? strcasecmp(t->name, s) == 0 : strcmp(t->name, s) == 0)
            return t;
    return NULL;
}

int parse_time(const char *s, simtime_t *out, const char **why)
{
    static const struct units_unit units[] = {
        { "ps", 1 },
        { "ns", PS_PER_NS },
        { "us", PS_PER_US },
        { "\xc2\xb5s", PS_PER_US },     /* U+00B5 MICRO SIGN */
        { "\xce\xbcs", PS_PER_US },     /* U+03BC GREEK SMALL LETTER MU */
        { "ms", PS_PER_MS },
        { "s", PS_PER_S },
        { "m", 60 * PS_PER_S },
        { NULL, 0 },
    };
    struct units_dec d;
    const struct units_unit *u;
    const char *end;
    uint64_t v;

    if (s && *s == '-')
        return units_fail(why, "a non-negative time such as 50ms");
    end = s ? units_decimal(s, &d) : NULL;
    if (!end)
        return units_fail(why, "a time such as 50ms, 1.5us or 2s");
    if (!*end) {
        /* "0" is 0 in any unit; any other bare number is ambiguous. */
        if (d.mant == 0 && !d.dropped && !d.overflow) {
            *out = 0;
            return 0;
        }
        return units_fail(why, "a time with a unit (ps, ns, us, ms, s, m) such as 50ms");
    }
    u = units_find(units, end, 0);
    if (!u)
        return units_fail(why, "a time such as 50ms, 1.5us or 2s");
    if (units_scale(&d, u->mult, INT64_MAX, &v, NULL) < 0)
        return units_fail(why, "a time of at most 1000000s (11.6 days; no key takes more)");
    *out = (simtime_t)v;
    return 0;
}

int parse_rate(const char *s, uint64_t *bits_per_s, const char **why)
{
    /* tc(8): "bit" units are bits/s, "bps" units are BYTES/s; ki/mi/gi/ti
     * are tc's IEC (1024) variants. */
    static const struct units_unit units[] = {
        { "", 1 },
        { "bit", 1 },
        { "kbit", 1000ULL },
        { "mbit", 1000000ULL },
        { "gbit", 1000000000ULL },
        { "tbit", 1000000000000ULL },
        { "kibit", 1ULL << 10 },
        { "mibit", 1ULL << 20 },
        { "gibit", 1ULL << 30 },
        { "tibit", 1ULL << 40 },
        { "bps", 8ULL },
        { "kbps", 8000ULL },
        { "mbps", 8000000ULL },
        { "gbps", 8000000000ULL },
        { "tbps", 8000000000000ULL },
        { "kibps", 8ULL << 10 },
        { "mibps", 8ULL << 20 },
        { "gibps", 8ULL << 30 },
        { "tibps", 8ULL << 40 },
        { NULL, 0 },
    };
    struct units_dec d;
    const struct units_unit *u;
    const char *end;
    uint64_t v;

    if (s && *s == '-')
        return units_fail(why, "a positive rate such as 10gbit");
    end = s ? units_decimal(s, &d) : NULL;
    u = end ? units_find(units, end, 1) : NULL;
    if (!u)
        return units_fail(why, "a rate such as 10gbit, 100mbit or 125mbps (bytes/s)");
    if (units_scale(&d, u->mult, UINT64_MAX, &v, NULL) < 0)
        return units_fail(why, "a rate of at most 18446744073gbit");
    if (v == 0)
        return units_fail(why, "a positive rate such as 10gbit");
    *bits_per_s = v;
    return 0;
}

int parse_size(const char *s, uint64_t *bytes, const char **why)
{
    /* All spellings are bytes and powers of 1024, as sysctl values are. */
    static const struct units_unit units[] = {
        { "", 1 }, { "b", 1 },
        { "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
        { "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
        { "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
        { "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
        { NULL, 0 },
    };
    struct units_dec d;
    const struct units_unit *u;
    const char *end;
    uint64_t v;
    int exact;

    if (s && *s == '-')
        return units_fail(why, "a non-negative size such as 256K");
    end = s ? units_decimal(s, &d) : NULL;
    u = end ? units_find(units, end, 1) : NULL;
    if (!u)
        return units_fail(why, "a size in bytes such as 1500, 256K or 4M");
    if (units_scale(&d, u->mult, UINT64_MAX, &v, &exact) < 0)
        return units_fail(why, "a size of at most 16777215T");
    if (!exact)
        return units_fail(why, "a whole number of bytes such as 1500 or 1.5K");
    *bytes = v;
    return 0;
}

int parse_percent(const char *s, double *fraction, const char **why)
{
    static const char *const syntax = "a percentage such as 1% or 0.5 (a bare number is a percentage, as in tc)";
    struct units_dec d;
    const char *end;
    char buf[64];
    size_t n;
    double f;

    if (s && *s == '-')
        return units_fail(why, "0% to 100%");
    end = s ? units_decimal(s, &d) : NULL;
    if (!end || (*end && strcmp(end, "%") != 0))
        return units_fail(why, syntax);
    n = (size_t)(end - s);
    if (n + sizeof "e-2" > sizeof buf)
        return units_fail(why, syntax);
    /* iproute2's parse_percent: strtod() / 100 whether or not '%' follows */
    memcpy(buf, s, n);
    strcpy(buf + n, "e-2");
    f = strtod(buf, NULL);
    if (f > 1.0)
        return units_fail(why, "0% to 100%");
    *fraction = f;
    return 0;
}

int parse_int(const char *s, int64_t *out, const char **why)
{
    char *end;
    long long v;

    if (!s || !*s || isspace((unsigned char)*s))
        return units_fail(why, "an integer such as 42");
    errno = 0;
    v = strtoll(s, &end, 10);
    if (end == s || *end)
        return units_fail(why, "an integer such as 42");
    if (errno == ERANGE)   /* long long is int64_t on every target we build for */
        return units_fail(why, "an integer from -9223372036854775808 to 9223372036854775807");
    *out = (int64_t)v;
    return 0;
}

int parse_double(const char *s, double *out, const char **why)
{
    char *end;
    double v;

    if (!s || !*s || isspace((unsigned char)*s))
        return units_fail(why, "a number such as 0.5");
    v = strtod(s, &end);
    if (end == s || *end)
        return units_fail(why, "a number such as 0.5");
    if (!isfinite(v))
        return units_fail(why, "a finite number");
    *out = v;
    return 0;
}

int parse_bool(const char *s, int *out, const char **why)
{
    static const struct { const char *name; int value; } words[] = {
        { "on", 1 }, { "off", 0 }, { "yes", 1 }, { "no", 0 },
        { "true", 1 }, { "false", 0 }, { "1", 1 }, { "0", 0 },
    };

    for (size_t i = 0; s && i < sizeof words / sizeof words[0]; i++) {
        if (strcasecmp(s, words[i].name) == 0) {
            *out = words[i].value;
            return 0;
        }
    }
    return units_fail(why, "on/off, yes/no, true/false or 1/0");
}

/*
 * iperf3's unit_snprintf(): divide by `base` while the value is >= base,
 * then print three significant digits. The thresholds are 9.995 and 99.95,
 * not 10 and 100, so that 9.996 prints "10.0" rather than "10.00".
 */
static const char *units_fmt(char *buf, double v, double base, const char *const *labels, int nlabels)
{
    const char *fmt;
    int i = 0;

    while (v >= base && i < nlabels - 1) {
        v /= base;
        i++;
    }
    if (v < 9.995)
        fmt = "%.2f %s";
    else if (v < 99.95)
        fmt = "%.1f %s";
    else
        fmt = "%.0f %s";
    snprintf(buf, 32, fmt, v, labels[i]);
    return buf;
}

const char *fmt_bytes(char *buf, double bytes)
{
    static const char *const labels[] = { "Bytes", "KBytes", "MBytes", "GBytes", "TBytes" };
    return units_fmt(buf, bytes, 1024.0, labels, 5);
}

const char *fmt_bitrate(char *buf, double bits_per_s)
{
    static const char *const labels[] = { "bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec", "Tbits/sec" };
    return units_fmt(buf, bits_per_s, 1000.0, labels, 5);
}
