/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_config_get.c - exact tests of sim/config_get.c and the checks
 * around it: typed getters and their defaults, range messages with units,
 * unknown keys and sections, the param table, --set overrides, sweep axes,
 * the error functions, and loading from a file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/config.h"
#include "load/load.h"
#include "tests/config_fixture.h"

static void test_getters_parse_values(void **state)
{
    struct cfg *c = load("[host h]\nt = 1.5us\nr = 10gbit\nz = 256K\np = 1%\n"
                         "i = -3\nd = 0.25\nb = yes\ns = hello world\n");
    struct cfg_section *s = cfg_find(c, "host", "h");

    (void)state;
    assert_int_equal(cfg_time(s, "t", NULL, 0, SIMTIME_NEVER, NULL), 1500000);
    assert_int_equal(cfg_rate(s, "r", NULL, NULL), 10000000000ULL);
    assert_int_equal(cfg_size(s, "z", NULL, 0, UINT64_MAX, NULL), 262144);
    assert_true(cfg_percent(s, "p", NULL, NULL) == 0.01);
    assert_int_equal(cfg_int(s, "i", NULL, -10, 10, NULL), -3);
    assert_true(cfg_double(s, "d", NULL, 0, 1, NULL) == 0.25);
    assert_int_equal(cfg_bool(s, "b", NULL, NULL), 1);
    assert_string_equal(cfg_str(s, "s", NULL, NULL), "hello world");
    assert_int_equal(cfg_errors(c), 0);
    cfg_free(c);
}

static void test_getters_defaults(void **state)
{
    struct cfg *c = load("[sim]\n");
    struct cfg_section *s = cfg_find(c, "sim", NULL);

    (void)state;
    assert_int_equal(cfg_time(s, "duration", "10s", 0, SIMTIME_NEVER, NULL), 10 * PS_PER_S);
    assert_int_equal(cfg_rate(s, "rate", "1mbps", NULL), 8000000);
    assert_int_equal(cfg_size(s, "buf", "4M", 0, UINT64_MAX, NULL), 4194304);
    assert_true(cfg_percent(s, "loss", "0.5%", NULL) == 0.005);
    assert_int_equal(cfg_int(s, "seed", "1", 0, 100, NULL), 1);
    assert_true(cfg_double(s, "gain", "2.5", 0, 10, NULL) == 2.5);
    assert_int_equal(cfg_bool(s, "quiet", "off", NULL), 0);
    assert_string_equal(cfg_str(s, "label", "base", NULL), "base");
    assert_string_equal(cfg_str(s, "nothing", NULL, NULL), "");     /* required: "" and an error */
    expect_errors(c, "t.ini:1: [sim]: missing key 'nothing'\n");
    cfg_free(c);
}

static void test_bad_value_returns_default(void **state)
{
    struct cfg *c = load("[link a]\nrate = fast\ndelay = 5\nmtu = 9\nloss = 200\n");
    struct cfg_section *s = cfg_find(c, "link", "a");

    (void)state;
    assert_int_equal(cfg_rate(s, "rate", "10gbit", NULL), 10000000000ULL);
    assert_int_equal(cfg_time(s, "delay", "25us", 0, SIMTIME_NEVER, NULL), 25 * PS_PER_US);
    assert_int_equal(cfg_int(s, "mtu", NULL, 64, 9000, NULL), 0);
    assert_true(cfg_percent(s, "loss", "0", NULL) == 0.0);
    expect_errors(c,
        "t.ini:2: [link a] rate: got 'fast', expected a rate such as 10gbit, 100mbit or 125mbps (bytes/s)\n"
        "t.ini:3: [link a] delay: got '5', expected a time with a unit (ps, ns, us, ms, s, m) such as 50ms\n"
        "t.ini:4: [link a] mtu: got '9', expected 64 to 9000\n"
        "t.ini:5: [link a] loss: got '200', expected 0% to 100%\n");
    assert_int_equal(cfg_errors(c), 4);
    cfg_free(c);
}

static void test_range_messages_with_units(void **state)
{
    struct cfg *c = load("[host h]\nt = 20s\nt2 = 1ns\nz = 8K\nz2 = 2G\ni = -1\nj = 99\nd = 3.5\n");
    struct cfg_section *s = cfg_find(c, "host", "h");

    (void)state;
    assert_int_equal(cfg_time(s, "t", "1s", PS_PER_US, 10 * PS_PER_S, NULL), PS_PER_S);
    assert_int_equal(cfg_time(s, "t2", "1ms", 1500 * PS_PER_NS, SIMTIME_NEVER, NULL), PS_PER_MS);
    assert_int_equal(cfg_size(s, "z", "4096", 64, 4096, NULL), 4096);
    assert_int_equal(cfg_size(s, "z2", "4M", 64 * 1024, 1024 * 1024 * 1024, NULL), 4194304);
    assert_int_equal(cfg_int(s, "i", "0", 0, INT64_MAX, NULL), 0);
    assert_int_equal(cfg_int(s, "j", "0", INT64_MIN, 10, NULL), 0);
    assert_true(cfg_double(s, "d", "1", 0.5, 2, NULL) == 1.0);
    expect_errors(c,
        "t.ini:2: [host h] t: got '20s', expected 1us to 10s\n"
        "t.ini:3: [host h] t2: got '1ns', expected 1500ns to 1000000s\n"   /* every time is capped */
        "t.ini:4: [host h] z: got '8K', expected 64 to 4096\n"
        "t.ini:5: [host h] z2: got '2G', expected 64K to 1G\n"
        "t.ini:6: [host h] i: got '-1', expected at least 0\n"
        "t.ini:7: [host h] j: got '99', expected at most 10\n"
        "t.ini:8: [host h] d: got '3.5', expected 0.5 to 2\n");
    cfg_free(c);
}

static void test_missing_required_key(void **state)
{
    struct cfg *c = load("[sim]\n\n[flow 1]\napp = udp_stream\n");
    struct cfg_section *s = cfg_find(c, "flow", "1");

    (void)state;
    assert_string_equal(cfg_str(s, "app", NULL, NULL), "udp_stream");
    assert_string_equal(cfg_str(s, "from", NULL, NULL), "");
    assert_int_equal(cfg_rate(s, "rate", NULL, NULL), 0);
    assert_string_equal(cfg_str(s, "from", NULL, NULL), "");   /* reported once */
    expect_errors(c,
        "t.ini:3: [flow 1]: missing key 'from'\n"
        "t.ini:3: [flow 1]: missing key 'rate'\n");
    cfg_free(c);
}

static void test_choice(void **state)
{
    static const char *const cc[] = { "reno", "cubic", "bbr", NULL };
    struct cfg *c = load("[flow 1]\ncc = bbr\n[flow 2]\ncc = vegas\n[flow 3]\n");

    (void)state;
    assert_int_equal(cfg_choice(cfg_find(c, "flow", "1"), "cc", "cubic", cc, NULL), 2);
    assert_int_equal(cfg_choice(cfg_find(c, "flow", "2"), "cc", "cubic", cc, NULL), 1);
    assert_int_equal(cfg_choice(cfg_find(c, "flow", "3"), "cc", "cubic", cc, NULL), 1);
    expect_errors(c, "t.ini:4: [flow 2] cc: got 'vegas', expected one of: reno, cubic, bbr\n");
    cfg_free(c);
}

static void test_unknown_key(void **state)
{
    struct cfg *c = load("[link a]\nrate = 1gbit\nrtae = 2\ndelay = 1ms\n[sim]\nfoo = 1\n");
    struct cfg_section *s = cfg_find(c, "link", "a");

    (void)state;
    cfg_claim(s);
    cfg_claim(cfg_find(c, "sim", NULL));
    cfg_time(s, "delay", "0", 0, SIMTIME_NEVER, NULL);
    cfg_rate(s, "rate", "10gbit", NULL);
    cfg_int(s, "mtu", "1500", 68, 65535, NULL);
    cfg_time(s, "delay", "0", 0, SIMTIME_NEVER, NULL);   /* asked twice: listed once */
    assert_int_equal(cfg_finish(c), 2);
    expect_errors(c,
        "t.ini:3: [link a] unknown key 'rtae'; valid keys: delay, rate, mtu (`netsim keys link` documents them)\n"
        "t.ini:6: [sim] unknown key 'foo'; this section takes no keys\n");
    assert_int_equal(cfg_finish(c), 2);            /* not reported twice */
    cfg_free(c);
}

static void test_unknown_section(void **state)
{
    struct cfg *c = load("[sim]\n[link a]\n[hots b]\n[link b]\n[host c]\n[flow 1]\n");

    (void)state;
    cfg_claim(cfg_find(c, "sim", NULL));
    cfg_claim(cfg_find(c, "link", "a"));
    cfg_claim(cfg_find(c, "link", "b"));
    cfg_claim(cfg_find(c, "host", "c"));
    assert_int_equal(cfg_finish(c), 2);
    expect_errors(c,
        "t.ini:3: unknown section [hots b]; known kinds: host, link, sim\n"
        "t.ini:6: unknown section [flow 1]; known kinds: host, link, sim\n");
    cfg_free(c);

    c = load("[bogus]\n");
    assert_int_equal(cfg_finish(c), 1);
    expect_errors(c, "t.ini:1: unknown section [bogus]\n");
    cfg_free(c);
}

static void test_finish_clean(void **state)
{
    struct cfg *c = load(SCENARIO);

    (void)state;
    for (int i = 0; i < cfg_section_count(c); i++) {
        struct cfg_section *s = cfg_section_at(c, i);
        cfg_claim(s);
        for (int j = 0; j < cfg_key_count(s); j++) {
            const char *k;
            cfg_key_at(s, j, &k, NULL, NULL);
            cfg_str(s, k, NULL, NULL);
        }
    }
    assert_int_equal(cfg_finish(c), 0);
    expect_errors(c, "");
    cfg_free(c);
}

static void test_params(void **state)
{
    struct cfg *c = load(SCENARIO);
    struct cfg_section *sim = cfg_find(c, "sim", NULL), *h = cfg_find(c, "host", "receiver");
    const char *k, *v;

    (void)state;
    cfg_time(sim, "duration", "10s", 0, SIMTIME_NEVER, NULL);
    cfg_time(sim, "interval", "1s", 0, SIMTIME_NEVER, NULL);
    cfg_size(h, "ipfrag_high_thresh", "256K", 0, UINT64_MAX, NULL);
    cfg_str(h, "ipfrag.evictor", "lru", NULL);
    cfg_time(sim, "duration", "5s", 0, SIMTIME_NEVER, NULL);   /* not recorded again */
    cfg_str(h, "missing", NULL, NULL);                        /* no value: not recorded */
    assert_int_equal(cfg_param_count(c), 4);
    cfg_param_at(c, 0, &k, &v);
    assert_string_equal(k, "sim.duration");
    assert_string_equal(v, "20s");
    cfg_param_at(c, 1, &k, &v);
    assert_string_equal(k, "sim.interval");
    assert_string_equal(v, "1s");
    cfg_param_at(c, 2, &k, &v);
    assert_string_equal(k, "receiver.ipfrag_high_thresh");
    assert_string_equal(v, "4M");
    cfg_param_at(c, 3, &k, &v);
    assert_string_equal(k, "receiver.ipfrag.evictor");
    assert_string_equal(v, "lru");
    cfg_free(c);
}

/* A parameter is keyed as --set selects it: a name two kinds share keeps
 * its kind, since --set refuses the bare name as ambiguous. */
static void test_param_keys_as_set_takes_them(void **state)
{
    struct cfg *c = load("[sim]\nduration = 1s\n[host a]\ncores = 2\n[link a]\nrate = 1gbit\n[host b]\ncores = 1\n"
                         "[flow 1]\ntime = 2s\n");
    const char *k, *v;

    (void)state;
    cfg_time(cfg_find(c, "sim", ""), "duration", "10s", 0, SIMTIME_NEVER, NULL);
    cfg_int(cfg_find(c, "host", "a"), "cores", "4", 1, 64, NULL);
    cfg_str(cfg_find(c, "link", "a"), "rate", "10gbit", NULL);
    cfg_int(cfg_find(c, "host", "b"), "cores", "4", 1, 64, NULL);
    cfg_time(cfg_find(c, "flow", "1"), "time", "10s", 0, SIMTIME_NEVER, NULL);
    assert_int_equal(cfg_param_count(c), 5);
    const char *want[] = { "sim.duration", "host a.cores", "link a.rate", "b.cores", "1.time" };
    for (int i = 0; i < 5; i++) {
        cfg_param_at(c, i, &k, &v);
        assert_string_equal(k, want[i]);
    }
    cfg_free(c);
}

static void test_override_replaces_and_creates(void **state)
{
    struct cfg *c = load(SCENARIO);
    struct cfg_section *h = cfg_find(c, "host", "receiver");
    const char *k, *v;
    int line;

    (void)state;
    assert_int_equal(cfg_override(c, "receiver.ipfrag_high_thresh=40M"), 0);
    assert_int_equal(cfg_override(c, " receiver . ipfrag.evictor = drop-new "), 0);
    assert_int_equal(cfg_override(c, "sim.seed=7"), 0);
    assert_int_equal(cfg_override(c, "1.msg_size=1000"), 0);
    assert_int_equal(cfg_errors(c), 0);
    assert_int_equal(cfg_size(h, "ipfrag_high_thresh", NULL, 0, UINT64_MAX, NULL), 40 * 1048576);
    assert_string_equal(cfg_str(h, "ipfrag.evictor", NULL, NULL), "drop-new");
    assert_int_equal(cfg_key_count(h), 3);
    cfg_key_at(h, 1, &k, &v, &line);
    assert_string_equal(k, "ipfrag_high_thresh");
    assert_int_equal(line, 0);
    cfg_key_at(cfg_find(c, "sim", NULL), 1, &k, &v, &line);
    assert_string_equal(k, "seed");
    assert_string_equal(v, "7");
    assert_int_equal(line, 0);
    assert_string_equal(cfg_str(cfg_find(c, "flow", "1"), "msg_size", NULL, NULL), "1000");
    cfg_free(c);
}

static void test_override_errors_name_set(void **state)
{
    struct cfg *c = load("[host a]\n[link a]\n[host receiver]\nipfrag_high_thresh = 4M\n");
    struct cfg_section *h = cfg_find(c, "host", "receiver");

    (void)state;
    assert_int_equal(cfg_override(c, "a.rate=1gbit"), -1);
    assert_int_equal(cfg_override(c, "nosuch.x=1"), -1);
    assert_int_equal(cfg_override(c, "receiver.x"), -1);
    assert_int_equal(cfg_override(c, "receiver=1"), -1);
    assert_int_equal(cfg_override(c, ".x=1"), -1);
    assert_int_equal(cfg_override(c, "receiver.=1"), -1);
    assert_int_equal(cfg_override(c, "receiver.ipfrag_high_thresh=lots"), 0);
    assert_int_equal(cfg_size(h, "ipfrag_high_thresh", "256K", 0, UINT64_MAX, NULL), 262144);
    expect_errors(c,
        "--set: 'a.rate=1gbit': section name 'a' is ambiguous: [host a], [link a]\n"
        "--set: 'nosuch.x=1': no section named 'nosuch' and no section [nosuch]\n"
        "--set: 'receiver.x': expected section.key=value\n"
        "--set: 'receiver=1': expected section.key=value\n"
        "--set: '.x=1': expected section.key=value\n"
        "--set: 'receiver.=1': expected section.key=value\n"
        "--set: [host receiver] ipfrag_high_thresh: got 'lots', "
        "expected a size in bytes such as 1500, 256K or 4M\n");
    cfg_free(c);
}

static void test_override_unknown_key_reported_as_set(void **state)
{
    struct cfg *c = load("[sim]\nduration = 1s\n");
    struct cfg_section *s = cfg_find(c, "sim", NULL);

    (void)state;
    assert_int_equal(cfg_override(c, "sim.duratoin=2s"), 0);
    cfg_claim(s);
    cfg_time(s, "duration", "10s", 0, SIMTIME_NEVER, NULL);
    assert_int_equal(cfg_finish(c), 1);
    expect_errors(c, "--set: [sim] unknown key 'duratoin'; valid keys: duration (`netsim keys sim` documents them)\n");
    cfg_free(c);
}

static void test_axes(void **state)
{
    struct cfg *c = load("[sim]\nseed = 1\n[host receiver]\ncpu = x\n"
                         "ipfrag_high_thresh = ${high=256K, 4M, 40M, 400M}   ; axis\n"
                         "ipfrag_low_thresh  = ${192K, 3M, 39M, 399M ! high}\n");
    struct cfg_section *h = cfg_find(c, "host", "receiver");
    const struct cfg_section *s = NULL;
    const char *key = NULL, *k, *v;

    (void)state;
    assert_int_equal(cfg_errors(c), 0);
    assert_int_equal(cfg_has_axes(c, &s, &key), 1);
    assert_ptr_equal(s, h);
    assert_string_equal(key, "ipfrag_high_thresh");
    assert_int_equal(cfg_size(h, "ipfrag_high_thresh", "1M", 0, UINT64_MAX, NULL), 1048576);
    assert_int_equal(cfg_size(h, "ipfrag_high_thresh", "1M", 0, UINT64_MAX, NULL), 1048576);
    expect_errors(c, "t.ini:5: [host receiver] ipfrag_high_thresh: '${high=256K, 4M, 40M, 400M}' "
                     "is a sweep axis: use `netsim sweep`, not `netsim run`\n");
    cfg_param_at(c, 0, &k, &v);
    assert_string_equal(v, "${high=256K, 4M, 40M, 400M}");

    /* the sweep expander replaces values in place */
    cfg_set_value(h, "ipfrag_high_thresh", "4M");
    cfg_set_value(h, "ipfrag_low_thresh", "3M");
    assert_int_equal(cfg_has_axes(c, &s, &key), 0);
    assert_null(s);
    assert_null(key);
    assert_int_equal(cfg_size(h, "ipfrag_low_thresh", NULL, 0, UINT64_MAX, NULL), 3145728);
    cfg_free(c);
}

static void test_set_value_creates_key(void **state)
{
    struct cfg *c = load("[sim]\n\n[flow 1]\n");
    struct cfg_section *s = cfg_find(c, "flow", "1");
    const char *k, *v;
    int line;

    (void)state;
    cfg_set_value(s, "rate", "1gbit");
    assert_int_equal(cfg_key_count(s), 1);
    cfg_key_at(s, 0, &k, &v, &line);
    assert_string_equal(k, "rate");
    assert_string_equal(v, "1gbit");
    assert_int_equal(line, 3);
    cfg_free(c);
}

static void test_error_functions(void **state)
{
    struct cfg *c = load("[sim]\nseed = 1\n");
    struct cfg_section *s = cfg_find(c, "sim", NULL);

    (void)state;
    cfg_error(s, "seed", "must be odd, got %d", 2);
    cfg_error(s, "absent", "needs %s", "x");
    cfg_error(s, NULL, "incomplete");
    cfg_error_global(c, "%s: no [flow] section", cfg_file(c));
    assert_int_equal(cfg_errors(c), 4);
    expect_errors(c,
        "t.ini:2: [sim] seed: must be odd, got 2\n"
        "t.ini:1: [sim] absent: needs x\n"
        "t.ini:1: [sim]: incomplete\n"
        "t.ini: no [flow] section\n");
    cfg_free(c);
}

static void test_load_file(void **state)
{
    char path[] = "/tmp/test_config_XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    struct cfg *c;

    (void)state;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("[sim]\nduration = 2s\n\n[link a]\nrate = slow\n", f);
    fclose(f);
    c = cfg_load(path);
    assert_non_null(c);
    assert_string_equal(cfg_file(c), path);
    assert_int_equal(cfg_rate(cfg_find(c, "link", "a"), "rate", "1gbit", NULL), 1000000000);
    char want[200];
    snprintf(want, sizeof want, "%s:5: [link a] rate: got 'slow', "
             "expected a rate such as 10gbit, 100mbit or 125mbps (bytes/s)\n", path);
    expect_errors(c, want);
    cfg_free(c);
    unlink(path);
}

static void test_load_missing_file(void **state)
{
    struct cfg *c = cfg_load("/nonexistent/dir/x.ini");

    (void)state;
    assert_non_null(c);
    assert_int_equal(cfg_errors(c), 1);
    assert_int_equal(cfg_section_count(c), 0);
    expect_errors(c, "/nonexistent/dir/x.ini: cannot open: No such file or directory\n");
    cfg_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_getters_parse_values),
        cmocka_unit_test(test_getters_defaults),
        cmocka_unit_test(test_bad_value_returns_default),
        cmocka_unit_test(test_range_messages_with_units),
        cmocka_unit_test(test_missing_required_key),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_unknown_section),
        cmocka_unit_test(test_finish_clean),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_param_keys_as_set_takes_them),
        cmocka_unit_test(test_override_replaces_and_creates),
        cmocka_unit_test(test_override_errors_name_set),
        cmocka_unit_test(test_override_unknown_key_reported_as_set),
        cmocka_unit_test(test_axes),
        cmocka_unit_test(test_set_value_creates_key),
        cmocka_unit_test(test_error_functions),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_load_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
