/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * units.h - parsing of the values users type in scenario files and on the
 * command line, in the units they already use with tc, sysctl and ethtool.
 *
 *   time     "50ms", "1.5us", "2s", "100ns", "3ps", "1m" (minute); a bare
 *            number is an error (ambiguous), except "0".
 *   rate     tc's units: "bit", "kbit", "mbit", "gbit", "tbit" (powers of
 *            1000), and tc's byte rates "bps", "kbps", "mbps", "gbps" (bytes
 *            per second, as tc(8) defines them). A bare number is bits/s.
 *   size     bytes; "K", "M", "G" (also "k", "KB", "KiB" ...) are powers of
 *            1024, as in sysctl values such as ipfrag_high_thresh = 4M.
 *   percent  "1%", "0.5%", or a bare number that is a percentage as well,
 *            as tc reads one ("0.5" is 0.5 %), 0 to 100.
 *
 * Each parser returns 0 on success, or -1 and sets *why to a static string
 * that says what was expected (for a "file:line: ..." message): a phrase
 * to follow "expected", e.g. "a non-negative time such as 50ms", so that
 * callers write "got '%s', expected %s". On error *out is left untouched.
 *
 * Details: times, rates and sizes are exact decimals ("1.5us", ".5s"; no
 * exponent, sign or spaces), times and rates rounded to the nearest ps or
 * bit/s. Time units are case-sensitive ("us", "µs" or "μs" for micro);
 * rate and size suffixes are not. Rates also take tc's IEC units ("kibit",
 * "mibps" ...; 1024-based). Sizes accept "B" and must come out whole
 * ("1.5K" = 1536, "1.3K" is an error).
 */
#ifndef NETSIM_UNITS_H
#define NETSIM_UNITS_H

#include <stdint.h>
#include "sim/time.h"

int parse_time(const char *s, simtime_t *out, const char **why);
int parse_rate(const char *s, uint64_t *bits_per_s, const char **why);
int parse_size(const char *s, uint64_t *bytes, const char **why);
int parse_percent(const char *s, double *fraction, const char **why);
int parse_int(const char *s, int64_t *out, const char **why);
int parse_double(const char *s, double *out, const char **why);
int parse_bool(const char *s, int *out, const char **why);   /* on/off, yes/no, true/false, 1/0 */

/* Formatting for tables: "1.11 GBytes" (1024-based, iperf3) and
 * "9.57 Gbits/sec" (1000-based, iperf3). buf needs 32 bytes. */
const char *fmt_bytes(char *buf, double bytes);
const char *fmt_bitrate(char *buf, double bits_per_s);

#endif
