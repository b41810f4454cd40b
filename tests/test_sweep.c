/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_sweep.c - exact tests of load/sweep.c: axis syntax and names,
 * lockstep axes, the order of the cartesian product, repeats with paired
 * seeds, labels and params, applying a run to a fresh load, and the text
 * of every axis error (with file:line).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config.h"
#include "load/load.h"
#include "sim/rng.h"
#include "load/sweep.h"
#include "tests/config_fixture.h"

/* A scenario text that must load without errors. */
static struct cfg *load_clean(const char *text)
{
    struct cfg *c = load(text);
    assert_int_equal(cfg_errors(c), 0);
    return c;
}

static struct sweep *expand_ok(struct cfg *c)
{
    struct sweep *sw = sweep_expand(c);
    if (!sw) {
        char *e = errors_text(c);
        fprintf(stderr, "unexpected errors:\n%s", e);
        free(e);
    }
    assert_non_null(sw);
    assert_int_equal(cfg_errors(c), 0);
    return sw;
}

/* Expansion fails with exactly these errors. */
static void expect_error(const char *text, const char *want)
{
    struct cfg *c = load_clean(text);
    struct sweep *sw = sweep_expand(c);
    assert_null(sw);
    char *got = errors_text(c);
    assert_string_equal(got, want);
    free(got);
    cfg_free(c);
}

/* The value of key in [kind name] of c. */
static const char *value_of(struct cfg *c, const char *kind, const char *name, const char *key)
{
    struct cfg_section *s = cfg_find(c, kind, name);
    assert_non_null(s);
    for (int i = 0; i < cfg_key_count(s); i++) {
        const char *k, *v;
        cfg_key_at(s, i, &k, &v, NULL);
        if (!strcmp(k, key))
            return v;
    }
    fail_msg("no key %s", key);
    return NULL;
}

static const char *const FRAG =
    "[sim]\n"                                                  /* 1 */
    "duration = 1s\n"                                          /* 2 */
    "seed = 7\n"                                               /* 3 */
    "[host receiver]\n"                                        /* 4 */
    "ipfrag_high_thresh = ${high=256K, 4M, 40M}\n"             /* 5 */
    "ipfrag_low_thresh  = ${192K, 3M, 39M ! high}\n"           /* 6 */
    "ipfrag.evictor = ${lru, drop-new}\n"                      /* 7 */
    "[flow 1]\n"                                               /* 8 */
    "msg_size = 1472\n";                                       /* 9 */

static void test_no_axes(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[sim]\nseed = 5\n[flow 1]\nmsg_size = 1472\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 1);
    assert_int_equal(sweep_combinations(sw), 1);
    assert_int_equal(sweep_axis_count(sw), 0);
    assert_string_equal(sweep_label(sw, 1), "");
    assert_null(sweep_params(sw, 1)[0]);
    assert_int_equal(sweep_rep(sw, 1), 0);
    assert_int_equal(sweep_seed(sw, 1), 5);
    sweep_free(sw);
    cfg_free(c);
}

static void test_names_and_lockstep(void **state)
{
    (void)state;
    struct cfg *c = load_clean(FRAG);
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_axis_count(sw), 3);
    assert_string_equal(sweep_axis_name(sw, 0), "high");
    assert_string_equal(sweep_axis_name(sw, 1), "ipfrag_low_thresh");
    assert_string_equal(sweep_axis_name(sw, 2), "ipfrag.evictor");
    assert_int_equal(sweep_axis_lockstep(sw, 0), -1);
    assert_int_equal(sweep_axis_lockstep(sw, 1), 0);
    assert_int_equal(sweep_axis_lockstep(sw, 2), -1);
    assert_int_equal(sweep_axis_values(sw, 0), 3);
    assert_int_equal(sweep_axis_values(sw, 2), 2);
    assert_int_equal(sweep_combinations(sw), 6);
    assert_int_equal(sweep_repeat(sw), 1);
    assert_int_equal(sweep_count(sw), 6);
    sweep_free(sw);
    cfg_free(c);
}

/* The last axis varies fastest; lockstep axes follow their root. */
static void test_product_order_and_labels(void **state)
{
    (void)state;
    static const char *const want[] = {
        "high=256K,ipfrag_low_thresh=192K,ipfrag.evictor=lru",
        "high=256K,ipfrag_low_thresh=192K,ipfrag.evictor=drop-new",
        "high=4M,ipfrag_low_thresh=3M,ipfrag.evictor=lru",
        "high=4M,ipfrag_low_thresh=3M,ipfrag.evictor=drop-new",
        "high=40M,ipfrag_low_thresh=39M,ipfrag.evictor=lru",
        "high=40M,ipfrag_low_thresh=39M,ipfrag.evictor=drop-new",
    };
    struct cfg *c = load_clean(FRAG);
    struct sweep *sw = expand_ok(c);
    for (int run = 1; run <= 6; run++) {
        assert_string_equal(sweep_label(sw, run), want[run - 1]);
        assert_int_equal(sweep_combination(sw, run), run - 1);
        assert_int_equal(sweep_seed(sw, run), 7);
    }
    const char *const *p = sweep_params(sw, 4);
    assert_string_equal(p[0], "axis.high");
    assert_string_equal(p[1], "4M");
    assert_string_equal(p[2], "axis.ipfrag_low_thresh");
    assert_string_equal(p[3], "3M");
    assert_string_equal(p[4], "axis.ipfrag.evictor");
    assert_string_equal(p[5], "drop-new");
    assert_null(p[6]);
    sweep_free(sw);
    cfg_free(c);
}

static void test_repeat_paired_seeds(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[sim]\nseed = 11\nrepeat = 3\n[flow 1]\nmsg_size = ${m=1000, 1472}\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_repeat(sw), 3);
    assert_int_equal(sweep_count(sw), 6);
    /* combination-major, replication-minor */
    static const int comb[] = { 0, 0, 0, 1, 1, 1 }, rep[] = { 0, 1, 2, 0, 1, 2 };
    for (int run = 1; run <= 6; run++) {
        assert_int_equal(sweep_combination(sw, run), comb[run - 1]);
        assert_int_equal(sweep_rep(sw, run), rep[run - 1]);
        assert_true(sweep_seed(sw, run) == rng_rep_seed(11, rep[run - 1]));
        assert_string_equal(sweep_label(sw, run), comb[run - 1] ? "m=1472" : "m=1000");
    }
    /* the same replication has the same seed in every combination */
    assert_true(sweep_seed(sw, 2) == sweep_seed(sw, 5));
    assert_true(sweep_seed(sw, 1) != sweep_seed(sw, 2));
    assert_true(sweep_seed(sw, 1) == 11);
    sweep_free(sw);
    cfg_free(c);
}

/* Without [sim] seed/repeat: seed 1, one replication. */
static void test_defaults(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[flow 1]\nmsg_size = ${1000, 1472}\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 2);
    assert_int_equal(sweep_seed(sw, 2), 1);
    assert_string_equal(sweep_label(sw, 2), "msg_size=1472");
    sweep_free(sw);
    cfg_free(c);
}

/* seed may be an axis: each combination's replications derive from it. */
static void test_seed_axis(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[sim]\nseed = ${3, 4}\nrepeat = 2\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 4);
    assert_true(sweep_seed(sw, 1) == 3);
    assert_true(sweep_seed(sw, 2) == rng_rep_seed(3, 1));
    assert_true(sweep_seed(sw, 3) == 4);
    assert_true(sweep_seed(sw, 4) == rng_rep_seed(4, 1));
    assert_string_equal(sweep_label(sw, 3), "seed=4");
    sweep_free(sw);
    cfg_free(c);
}

/* Three independent axes: 2 x 3 x 2, in order of appearance. */
static void test_three_axes(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[sim]\n[link a]\nrate = ${1gbit, 10gbit}\ndelay = ${d=1ms,2ms,3ms}\n"
                         "[flow 1]\nmsg_size = ${x=1,2}\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 12);
    assert_string_equal(sweep_label(sw, 1), "rate=1gbit,d=1ms,x=1");
    assert_string_equal(sweep_label(sw, 2), "rate=1gbit,d=1ms,x=2");
    assert_string_equal(sweep_label(sw, 3), "rate=1gbit,d=2ms,x=1");
    assert_string_equal(sweep_label(sw, 6), "rate=1gbit,d=3ms,x=2");
    assert_string_equal(sweep_label(sw, 7), "rate=10gbit,d=1ms,x=1");
    assert_string_equal(sweep_label(sw, 12), "rate=10gbit,d=3ms,x=2");
    sweep_free(sw);
    cfg_free(c);
}

/* Lockstep with an axis defined later, with a named lockstep axis, and a
 * chain (c follows b which follows a). */
static void test_lockstep_forward_and_chain(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[flow 1]\nmsg_size = ${lo=1, 2 ! a}\nsndbuf = ${a=64K, 128K}\n"
                         "[flow 2]\nmsg_size = ${x, y ! lo}\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 2);
    assert_int_equal(sweep_axis_lockstep(sw, 0), 1);
    assert_int_equal(sweep_axis_lockstep(sw, 2), 1);
    /* the first msg_size axis is named "lo", so the key is free */
    assert_string_equal(sweep_axis_name(sw, 2), "msg_size");
    assert_string_equal(sweep_label(sw, 1), "lo=1,a=64K,msg_size=x");
    assert_string_equal(sweep_label(sw, 2), "lo=2,a=128K,msg_size=y");
    sweep_free(sw);
    cfg_free(c);
}

/* Values are trimmed; spaces inside a value are kept. */
/* Two unnamed axes on the same key: the second is named section.key. */
static void test_same_key_twice(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[flow 1]\nmsg_size = ${1000, 1472}\n[flow 2]\nmsg_size = ${64, 128}\n"
                         "[sim]\nseed = ${1, 2}\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 8);
    assert_string_equal(sweep_axis_name(sw, 0), "msg_size");
    assert_string_equal(sweep_axis_name(sw, 1), "2.msg_size");
    assert_string_equal(sweep_label(sw, 8), "msg_size=1472,2.msg_size=128,seed=2");
    assert_string_equal(sweep_params(sw, 8)[2], "axis.2.msg_size");
    sweep_free(sw);
    cfg_free(c);
}

static void test_whitespace(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[link a]\nloss = ${ l = loss 1% ,  loss gemodel 1% 10% }\n"
                         "delay = ${ 1ms , 2ms ! l }\n");
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 2);
    assert_string_equal(sweep_label(sw, 2), "l=loss gemodel 1% 10%,delay=2ms");
    sweep_free(sw);
    cfg_free(c);
}

/* sweep_apply sets the values in a fresh load; the keys keep their lines. */
static void test_apply(void **state)
{
    (void)state;
    struct cfg *c = load_clean(FRAG);
    struct sweep *sw = expand_ok(c);
    cfg_free(c);                      /* the sweep keeps what it needs */
    struct cfg *r = load_clean(FRAG);
    sweep_apply(r, sw, 5);
    assert_string_equal(value_of(r, "host", "receiver", "ipfrag_high_thresh"), "40M");
    assert_string_equal(value_of(r, "host", "receiver", "ipfrag_low_thresh"), "39M");
    assert_string_equal(value_of(r, "host", "receiver", "ipfrag.evictor"), "lru");
    assert_string_equal(value_of(r, "flow", "1", "msg_size"), "1472");
    assert_int_equal(cfg_has_axes(r, NULL, NULL), 0);
    struct cfg_section *s = cfg_find(r, "host", "receiver");
    cfg_error(s, "ipfrag_low_thresh", "x");
    char *e = errors_text(r);
    assert_string_equal(e, "t.ini:6: [host receiver] ipfrag_low_thresh: x\n");
    free(e);
    sweep_free(sw);
    cfg_free(r);
}

/* An axis given with --set comes after the file's keys of its section. */
static void test_override_axis(void **state)
{
    (void)state;
    struct cfg *c = load_clean(FRAG);
    assert_int_equal(cfg_override(c, "receiver.ipfrag.evictor=lru"), 0);
    assert_int_equal(cfg_override(c, "1.sndbuf=${b=64K,256K}"), 0);
    struct sweep *sw = expand_ok(c);
    assert_int_equal(sweep_count(sw), 6);
    assert_string_equal(sweep_label(sw, 2), "high=256K,ipfrag_low_thresh=192K,b=256K");
    sweep_free(sw);
    cfg_free(c);
}

/* ---- errors ------------------------------------------------------------ */

static void test_error_lockstep_length(void **state)
{
    (void)state;
    expect_error("[host r]\n"
                 "ipfrag_high_thresh = ${high=256K, 4M, 40M}\n"
                 "ipfrag_low_thresh = ${192K, 3M ! high}\n",
                 "t.ini:3: [host r] ipfrag_low_thresh: '${192K, 3M ! high}': 2 values in lockstep with axis "
                 "'high', which has 3\n");
}

static void test_error_lockstep_unknown(void **state)
{
    (void)state;
    expect_error("[host r]\n"
                 "ipfrag_high_thresh = ${high=256K, 4M}\n"
                 "ipfrag.evictor = ${lru, drop-new}\n"
                 "ipfrag_low_thresh = ${192K, 3M ! hihg}\n",
                 "t.ini:4: [host r] ipfrag_low_thresh: '${192K, 3M ! hihg}': no axis named 'hihg'; axes: "
                 "high, ipfrag.evictor, ipfrag_low_thresh\n");
}

static void test_error_lockstep_cycle(void **state)
{
    (void)state;
    expect_error("[flow 1]\nmsg_size = ${a=1, 2 ! b}\nsndbuf = ${b=1K, 2K ! a}\n",
                 "t.ini:2: [flow 1] msg_size: '${a=1, 2 ! b}': lockstep cycle through axis 'b'\n"
                 "t.ini:3: [flow 1] sndbuf: '${b=1K, 2K ! a}': lockstep cycle through axis 'a'\n");
    expect_error("[flow 1]\nmsg_size = ${a=1, 2 ! a}\n",
                 "t.ini:2: [flow 1] msg_size: '${a=1, 2 ! a}': lockstep cycle through axis 'a'\n");
}

static void test_error_not_whole_value(void **state)
{
    (void)state;
    expect_error("[link a]\nrate = ${1, 10}gbit\n",
                 "t.ini:2: [link a] rate: '${1, 10}gbit': a sweep axis must be the whole value, as in ${a, b}\n");
    expect_error("[link a]\nrate = 1${0, 5}\n",
                 "t.ini:2: [link a] rate: '1${0, 5}': a sweep axis must be the whole value, as in ${a, b}\n");
    expect_error("[link a]\nrate = ${1gbit, 10gbit\n",
                 "t.ini:2: [link a] rate: '${1gbit, 10gbit': a sweep axis must be the whole value, as in ${a, b}\n");
    expect_error("[link a]\nrate = ${1} ${2}\n",
                 "t.ini:2: [link a] rate: '${1} ${2}': a sweep axis must be the whole value, as in ${a, b}\n");
}

static void test_error_values(void **state)
{
    (void)state;
    expect_error("[link a]\nrate = ${}\n", "t.ini:2: [link a] rate: '${}': a sweep axis needs at least one value\n");
    expect_error("[link a]\nrate = ${r= }\n",
                 "t.ini:2: [link a] rate: '${r= }': a sweep axis needs at least one value\n");
    expect_error("[link a]\nrate = ${1gbit,,2gbit}\n",
                 "t.ini:2: [link a] rate: '${1gbit,,2gbit}': empty value in a sweep axis\n");
    expect_error("[link a]\nrate = ${a b=1gbit}\n",
                 "t.ini:2: [link a] rate: '${a b=1gbit}': bad axis name 'a b' (letters, digits, '_', '-', '.')\n");
    expect_error("[link a]\nrate = ${1gbit !}\n",
                 "t.ini:2: [link a] rate: '${1gbit !}': '!' must be followed by the name of an axis\n");
}

static void test_error_names(void **state)
{
    (void)state;
    expect_error("[link a]\nrate = ${x=1gbit, 2gbit}\ndelay = ${x=1ms, 2ms}\n",
                 "t.ini:3: [link a] delay: '${x=1ms, 2ms}': axis name 'x' is already used by [link a] rate\n");
    /* an explicit name wins; the unnamed axis falls back to section.key,
     * and fails when that is taken too */
    struct cfg *c = load_clean("[link a]\nrate = ${a.rate=1gbit, 2gbit}\ndelay = ${rate=1ms, 2ms}\n"
                         "[link b]\nrate = ${1gbit, 5gbit}\n");
    struct sweep *sw = expand_ok(c);
    assert_string_equal(sweep_axis_name(sw, 2), "b.rate");
    assert_string_equal(sweep_label(sw, 1), "a.rate=1gbit,rate=1ms,b.rate=1gbit");
    sweep_free(sw);
    cfg_free(c);
    expect_error("[link a]\nrate = ${1gbit, 2gbit}\ndelay = ${b.rate=1ms, 2ms}\n"
                 "[link b]\nrate = ${1gbit, 5gbit}\n",
                 "t.ini:5: [link b] rate: '${1gbit, 5gbit}': axis name 'b.rate' is ambiguous; name the axis, "
                 "as in ${name=a, b}\n");
}

static void test_error_repeat_axis(void **state)
{
    (void)state;
    expect_error("[sim]\nrepeat = ${1, 2}\n", "t.ini:2: [sim] repeat: '${1, 2}': repeat cannot be a sweep axis\n");
}

static void test_error_override_line(void **state)
{
    (void)state;
    struct cfg *c = load_clean("[flow 1]\nmsg_size = 1\n");
    assert_int_equal(cfg_override(c, "1.sndbuf=${64K, 1M ! nope}"), 0);
    assert_null(sweep_expand(c));
    char *e = errors_text(c);
    assert_string_equal(e, "--set: [flow 1] sndbuf: '${64K, 1M ! nope}': no axis named 'nope'; axes: sndbuf\n");
    free(e);
    cfg_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_axes),
        cmocka_unit_test(test_names_and_lockstep),
        cmocka_unit_test(test_product_order_and_labels),
        cmocka_unit_test(test_repeat_paired_seeds),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_seed_axis),
        cmocka_unit_test(test_three_axes),
        cmocka_unit_test(test_lockstep_forward_and_chain),
        cmocka_unit_test(test_same_key_twice),
        cmocka_unit_test(test_whitespace),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_override_axis),
        cmocka_unit_test(test_error_lockstep_length),
        cmocka_unit_test(test_error_lockstep_unknown),
        cmocka_unit_test(test_error_lockstep_cycle),
        cmocka_unit_test(test_error_not_whole_value),
        cmocka_unit_test(test_error_values),
        cmocka_unit_test(test_error_names),
        cmocka_unit_test(test_error_repeat_axis),
        cmocka_unit_test(test_error_override_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
