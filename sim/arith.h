/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arith.h - the one place where rates, times and byte counts multiply
 * beyond 64 bits, and where an intended wrap is marked.
 *
 * Products such as bytes x 8 x 10^12 ps or mss x cwnd x 10^12 leave 64
 * bits at sizes a long fat path reaches (mss 1448 x cwnd 12 741 x 10^12
 * is past 2^64): such a product goes through mul_div_u64, exact in 128
 * bits as the kernel's mul_u64_u64_div_u64, and a quotient past 64 bits
 * saturates. Saturation is a bug where the caller did not expect it:
 * `make check-arith` builds with NETSIM_CHECK_ARITH, where it aborts with
 * the call site. mul_div_u64_sat is the variant whose caller means to
 * saturate (a time that only says "never").
 *
 * Arithmetic that is meant to wrap (sequence numbers, hashes, jiffies, the
 * random generator) uses the wrap_* helpers: clang's
 * -fsanitize=unsigned-integer-overflow, which `make check-arith` runs,
 * reports every other wrap.
 */
#ifndef NETSIM_ARITH_H
#define NETSIM_ARITH_H

#include <stddef.h>
#include <stdint.h>

#ifdef NETSIM_CHECK_ARITH
void arith_overflow(const char *file, int line, const char *what);
#define ARITH_OVERFLOW(what) arith_overflow(__FILE__, __LINE__, what)
#else
#define ARITH_OVERFLOW(what) ((void)0)
#endif

__extension__ typedef unsigned __int128 arith_u128;

/* a x b / c, floor, exact for any 64-bit operands; c = 0 or a quotient
 * past UINT64_MAX gives UINT64_MAX */
static inline uint64_t mul_div_u64_sat(uint64_t a, uint64_t b, uint64_t c)
{
    if (!c)
        return UINT64_MAX;
    arith_u128 q = (arith_u128)a * b / c;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

/* The same where the caller expects the quotient to fit: one that does not
 * is reported by the check-arith build (and saturates elsewhere). */
#define mul_div_u64(a, b, c) mul_div_u64_at((a), (b), (c), __FILE__, __LINE__)
static inline uint64_t mul_div_u64_at(uint64_t a, uint64_t b, uint64_t c, const char *file, int line)
{
    (void)file;
    (void)line;
    if (!c) {
#ifdef NETSIM_CHECK_ARITH
        arith_overflow(file, line, "division by zero");
#endif
        return UINT64_MAX;
    }
    arith_u128 q = (arith_u128)a * b / c;
    if (q > UINT64_MAX) {
#ifdef NETSIM_CHECK_ARITH
        arith_overflow(file, line, "quotient past 2^64");
#endif
        return UINT64_MAX;
    }
    return (uint64_t)q;
}

/* a x b, saturating at UINT64_MAX (reported by the check-arith build) */
#define mul_u64(a, b) mul_u64_at((a), (b), __FILE__, __LINE__)
static inline uint64_t mul_u64_at(uint64_t a, uint64_t b, const char *file, int line)
{
    (void)file;
    (void)line;
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
#ifdef NETSIM_CHECK_ARITH
        arith_overflow(file, line, "product past 2^64");
#endif
        return UINT64_MAX;
    }
    return r;
}

/* ---- intended wraps: modular arithmetic the sanitizer must not report ---- */
#if defined(__clang__)
#define ARITH_WRAPS __attribute__((no_sanitize("unsigned-integer-overflow", "implicit-conversion")))
#else
#define ARITH_WRAPS
#endif

/* sequence numbers, jiffies and hashes: mod 2^32 / 2^64 */
ARITH_WRAPS static inline uint32_t wrap_add_u32(uint32_t a, uint32_t b) { return a + b; }
ARITH_WRAPS static inline uint32_t wrap_sub_u32(uint32_t a, uint32_t b) { return a - b; }
ARITH_WRAPS static inline uint32_t wrap_mul_u32(uint32_t a, uint32_t b) { return a * b; }
ARITH_WRAPS static inline uint64_t wrap_add_u64(uint64_t a, uint64_t b) { return a + b; }
ARITH_WRAPS static inline uint64_t wrap_sub_u64(uint64_t a, uint64_t b) { return a - b; }
ARITH_WRAPS static inline uint64_t wrap_mul_u64(uint64_t a, uint64_t b) { return a * b; }
/* FNV-1a over n bytes (mod 2^64) */
ARITH_WRAPS static inline uint64_t fnv1a64(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
/* the low 32 bits of a 64-bit value, meant (a jiffy or TS clock, a hash) */
ARITH_WRAPS static inline uint32_t wrap_u32(uint64_t a) { return (uint32_t)a; }

#endif
