/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim.h - the few kernel words the extracted functions use, written for
 * the differential check (kside.c), not taken from the kernel: its types,
 * its min/max family, do_div, fls64, jiffies arithmetic at HZ 1000 (as
 * netsim counts jiffies), READ_ONCE without the concurrency it guards
 * against (one thread here), BUG_ON that stops the check.
 */
#ifndef NETSIM_KDIFF_KSHIM_H
#define NETSIM_KDIFF_KSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define __read_mostly
#define __init
#define __exit
#define ____cacheline_aligned_in_smp
#define EXPORT_SYMBOL(sym)
#define likely(x) (x)
#define unlikely(x) (x)
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
#define barrier() __asm__ __volatile__("" ::: "memory")
#define BUILD_BUG_ON(cond)
#define BUG_ON(cond)                                                                          \
    do {                                                                                      \
        if (cond) {                                                                           \
            fprintf(stderr, "kdiff: the kernel's BUG_ON(%s) at %s:%d\n", #cond, __FILE__, __LINE__); \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define BITS_PER_TYPE(t) (sizeof(t) * 8)

/* do_div: n /= base in place (n a u64 lvalue, base 32 bits), the
 * remainder as the value */
#define do_div(n, base)                                  \
    ({                                                   \
        uint32_t kd_base_ = (base);                      \
        uint32_t kd_rem_ = (uint32_t)((n) % kd_base_);   \
        (n) /= kd_base_;                                 \
        kd_rem_;                                         \
    })
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }

#define USEC_PER_SEC 1000000L
#define HZ 1000
#define time_after(a, b) ((long)((b) - (a)) < 0)
/* at HZ 1000 a jiffy is a millisecond; usecs_to_jiffies rounds up */
static inline unsigned long usecs_to_jiffies(unsigned int us) { return (us + 999u) / 1000u; }
static inline unsigned long msecs_to_jiffies(unsigned int ms) { return ms; }

#endif
