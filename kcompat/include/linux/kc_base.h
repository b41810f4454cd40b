/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kc_base.h - what every kernel header of the layer starts from: the
 * kernel's integer types, compiler annotations, arithmetic helpers,
 * jiffies, randomness and the module macros, written for netsim (the
 * kernel's own definitions are not copied; each is what a congestion
 * control module needs of it, from reading its use). The tree's release
 * comes in as KC_VERSION (VERSION * 256 + PATCHLEVEL, from its Makefile),
 * and whatever changed between releases is chosen by it here.
 */
#ifndef KCOMPAT_KC_BASE_H
#define KCOMPAT_KC_BASE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KC_V(a, b) ((a) * 256 + (b))
#ifndef KC_VERSION
#error "KC_VERSION (the tree's VERSION * 256 + PATCHLEVEL) is set by the build"
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;
typedef u32 __be32;
typedef unsigned int gfp_t;
#define U32_C(x) UINT32_C(x)
#define U64_C(x) UINT64_C(x)
#define U8_MAX UINT8_MAX
#define U16_MAX UINT16_MAX
#define U32_MAX UINT32_MAX
#define U64_MAX UINT64_MAX
#define S32_MAX INT32_MAX
#define S32_MIN INT32_MIN
#define S64_MAX INT64_MAX

/* annotations that place or check code in the kernel and mean nothing here */
#define __read_mostly
#define __init
#define __exit
#define __initdata
#define __rcu
#define __user
#define __bpf_kfunc
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __pure __attribute__((pure))
#undef __attribute_const__
#define __attribute_const__ __attribute__((const))
#define __maybe_unused __attribute__((unused))
#define __aligned(x) __attribute__((aligned(x)))
#define __packed __attribute__((packed))
#define ____cacheline_aligned_in_smp
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON: " #c)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))
#define fallthrough __attribute__((fallthrough))

/* diagnostics: a module's messages and warnings are not netsim's output */
#define printk(...) ((void)0)
#define pr_debug(...) ((void)0)
#define pr_info(...) ((void)0)
#define pr_warn(...) ((void)0)
#define pr_err(...) ((void)0)
#define pr_warn_once(...) ((void)0)
#define WARN_ON(c) (!!(c))
#define WARN_ON_ONCE(c) (!!(c))
#define WARN_ONCE(c, ...) (!!(c))
#define BUG_ON(c) ((void)(c))

/* min and max evaluate each argument once, as the kernel's do; the
 * kernel's also refuse mixed types at compile time, which a module that
 * builds there already satisfies */
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(T, a, b) ({ T _a = (a); T _b = (b); _a < _b ? _a : _b; })
#define max_t(T, a, b) ({ T _a = (a); T _b = (b); _a > _b ? _a : _b; })
#define max3(a, b, c) max(max(a, b), c)
#define min3(a, b, c) min(min(a, b), c)
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(T, v, lo, hi) min_t(T, max_t(T, v, lo), hi)
#define clamp_val(v, lo, hi) clamp_t(__typeof__(v), v, lo, hi)
#define min_not_zero(a, b) ({ __typeof__(a) _x = (a); __typeof__(b) _y = (b); \
        _x == 0 ? _y : (_y == 0 ? _x : min(_x, _y)); })
/* the kernel's abs keeps the argument's signed type */
#undef abs
#define abs(x) ({ __typeof__(x) _v = (x); _v < 0 ? -_v : _v; })
#define swap(a, b) do { __typeof__(a) _t = (a); (a) = (b); (b) = _t; } while (0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define BIT(n) (1UL << (n))
/* to the nearest, halves away from zero (a signed quotient's sign decides
 * which way the half goes) */
#define DIV_ROUND_CLOSEST(x, d) ({ __typeof__(x) _x = (x); __typeof__(d) _d = (d);                  \
        (((__typeof__(x))-1) > 0 || ((__typeof__(d))-1) > 0 || ((_x) > 0) == ((_d) > 0))       \
            ? ((_x + (_d / 2)) / _d) : ((_x - (_d / 2)) / _d); })

/* 64-bit division (linux/math64.h, asm/div64.h): do_div divides its u64
 * lvalue in place by a u32 and yields the remainder */
#define do_div(n, base) ({ u32 _b = (base); u32 _r = (u32)((n) % _b); (n) = (n) / _b; _r; })
static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline u64 div_u64_rem(u64 a, u32 b, u32 *r) { *r = (u32)(a % b); return a / b; }
static inline s64 div_s64(s64 a, s32 b) { return a / b; }
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }
static inline u64 div64_ul(u64 a, unsigned long b) { return a / b; }
static inline long div64_long(s64 a, long b) { return (long)(a / b); }
/* the position of the highest bit set, counted from 1; 0 for 0 */
static inline int fls(u32 x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline unsigned long __fls(unsigned long x) { return 63 - (unsigned long)__builtin_clzl(x); }
static inline bool is_power_of_2(unsigned long n) { return n != 0 && (n & (n - 1)) == 0; }
#define ilog2(n) (fls64((u64)(n)) - 1)
#define cmpxchg(p, old, new) ({ __typeof__(*(p)) _o = (old); __typeof__(*(p)) _cur = *(p); \
        if (_cur == _o) *(p) = (new); _cur; })

/* time: HZ is a kernel configuration, not source; the layer runs at 1000
 * (netsim's own ports count jiffies in ms, so that both see one clock).
 * jiffies is the time of the call into the module, set by kside.c. */
#define HZ 1000
#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC 1000000000L
extern unsigned long kc_jiffies;
#define jiffies kc_jiffies
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
static inline unsigned long msecs_to_jiffies(unsigned int ms) { return ms * HZ / 1000; }
static inline unsigned long usecs_to_jiffies(unsigned int us) { return ((unsigned long)us * HZ + 999999) / 1000000; }
static inline unsigned int jiffies_to_msecs(unsigned long j) { return (unsigned int)(j * 1000 / HZ); }
static inline unsigned int jiffies_to_usecs(unsigned long j) { return (unsigned int)(j * (1000000 / HZ)); }

/* randomness: a per-socket generator netsim seeds from the run's seed, so
 * that a run repeats (kside.c) */
u32 kc_random_u32(void);
static inline u32 get_random_u32(void) { return kc_random_u32(); }
static inline u32 prandom_u32(void) { return kc_random_u32(); }
/* [0, n): the high half of a 64-bit product, as the kernel takes it */
static inline u32 prandom_u32_max(u32 n) { return (u32)(((u64)kc_random_u32() * n) >> 32); }
static inline u32 get_random_u32_below(u32 n) { return prandom_u32_max(n); }
static inline void get_random_bytes(void *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((u8 *)buf)[i] = (u8)kc_random_u32();
}

/* memory: a module allocates per socket at init (CDG's gradients) */
#define GFP_KERNEL 0u
#define GFP_ATOMIC 1u
#define GFP_NOWAIT 2u
#define __GFP_NOWARN 4u
static inline void *kmalloc(size_t n, gfp_t f) { (void)f; return malloc(n); }
static inline void *kzalloc(size_t n, gfp_t f) { (void)f; return calloc(1, n); }
static inline void *kcalloc(size_t k, size_t n, gfp_t f) { (void)f; return calloc(k, n); }
static inline void kfree(const void *p) { free((void *)p); }

struct list_head { struct list_head *next, *prev; };
struct module;
#define THIS_MODULE ((struct module *)0)
#define KC_CAT2(a, b) a##b
#define KC_CAT(a, b) KC_CAT2(a, b)

/* module_init: the build collects each module's init function through
 * a constructor that records it (kside.c runs it when netsim loads the
 * tree); module_exit is never called, as a module is never unloaded */
typedef int (*kc_initcall_t)(void);
void kc_add_init(const char *file, kc_initcall_t fn);
#define module_init(fn) \
    __attribute__((constructor(101))) static void KC_CAT(kc_modinit_, __LINE__)(void) { kc_add_init(KC_FILE, fn); }
#define module_exit(fn) static void (*const KC_CAT(kc_modexit_, __LINE__))(void) __attribute__((unused)) = fn
#define MODULE_AUTHOR(s)
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_VERSION(s)
#define MODULE_ALIAS(s)
#define MODULE_ALIAS_TCP_CONG(s)
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)

/* module parameters: each one a scenario key of the variant; the value
 * is the variable itself, written before the run (kc_param_set) */
struct kernel_param;
struct kernel_param_ops {
    int (*set)(const char *val, const struct kernel_param *kp);
    int (*get)(char *buf, const struct kernel_param *kp);
};
struct kernel_param {
    const char *name;
    const struct kernel_param_ops *ops;
    void *arg;
};
enum { KC_PK_int, KC_PK_uint, KC_PK_bool, KC_PK_ulong };
void kc_add_param(const char *file, const char *name, int kind, void *var, const struct kernel_param_ops *ops);
void kc_add_param_desc(const char *file, const char *name, const char *desc);
#define module_param(name, type, perm) \
    __attribute__((constructor(101))) static void KC_CAT(kc_param_, name)(void) \
    { kc_add_param(KC_FILE, #name, KC_PK_##type, &(name), NULL); }
#define module_param_cb(name, ops, arg, perm) \
    __attribute__((constructor(101))) static void KC_CAT(kc_param_, name)(void) \
    { kc_add_param(KC_FILE, #name, KC_PK_uint, (arg), (ops)); }
#define MODULE_PARM_DESC(name, desc) \
    __attribute__((constructor(101))) static void KC_CAT(kc_pdesc_, name)(void) \
    { kc_add_param_desc(KC_FILE, #name, desc); }
int param_set_uint_minmax(const char *val, const struct kernel_param *kp, unsigned int min, unsigned int max);
int param_get_uint(char *buf, const struct kernel_param *kp);
int param_set_uint(const char *val, const struct kernel_param *kp);

#endif
