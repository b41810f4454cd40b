/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_config_doc.c - the key reference the getters record (cfg_describe,
 * cfg_key_doc_at): each getter's unit, default, range and doc, first ask
 * only; a pattern documented but refused as a key; defaults kept only in
 * describe mode, since ordinary runs never print them.
 */
#include <float.h>
#include "tests/config_fixture.h"

static void expect_row(const struct cfg_section *s, int i, const char *key, const char *unit, const char *def,
                       const char *range, const char *doc)
{
    struct cfg_key_doc d;

    cfg_key_doc_at(s, i, &d);
    assert_string_equal(d.key, key);
    assert_string_equal(d.unit, unit);
    if (def)
        assert_string_equal(d.def, def);
    else
        assert_null(d.def);
    assert_string_equal(d.range, range);
    assert_string_equal(d.doc, doc);
}

static void test_rows_per_type(void **state)
{
    static const char *const cc[] = { "cubic", "bbr", NULL };
    struct cfg *c = load("[host h]\ncores = 2\n");
    struct cfg_section *s = cfg_find(c, "host", "h");

    (void)state;
    cfg_describe(c);
    cfg_time(s, "t", "1ms", 0, PS_PER_S, "a time");
    cfg_rate(s, "r", "10gbit", "a rate");
    cfg_size(s, "z", "64K", 64, UINT64_MAX, "a size");
    cfg_percent(s, "p", "0%", "a share");
    cfg_int(s, "cores", "4", 1, 64, "cores");
    cfg_double(s, "d", "1", -DBL_MAX, DBL_MAX, NULL);
    cfg_bool(s, "b", "off", "a switch");
    cfg_choice(s, "cc", "cubic", cc, "a choice");
    cfg_str(s, "ends", NULL, "required");
    cfg_int(s, "cores", "8", 1, 8, "asked again");
    assert_int_equal(cfg_key_doc_count(s), 10 - 1);
    expect_row(s, 0, "t", "time", "1ms", "0 to 1s", "a time");
    expect_row(s, 1, "r", "bit/s", "10gbit", "above 0", "a rate");
    expect_row(s, 2, "z", "bytes", "64K", "at least 64", "a size");
    expect_row(s, 3, "p", "%", "0%", "0% to 100%", "a share");
    expect_row(s, 4, "cores", "integer", "4", "1 to 64", "cores");   /* the first ask, not the given 2 */
    expect_row(s, 5, "d", "number", "1", "", "");
    expect_row(s, 6, "b", "on/off", "off", "", "a switch");
    expect_row(s, 7, "cc", "choice", "cubic", "cubic, bbr", "a choice");
    expect_row(s, 8, "ends", "text", NULL, "", "required");
    cfg_free(c);
}

static void test_pattern_is_no_key(void **state)
{
    struct cfg *c = load("[host h]\ncost.SYMBOL = 5ns\n");
    struct cfg_section *s = cfg_find(c, "host", "h");
    struct cfg_key_doc d;

    (void)state;
    cfg_describe(c);
    cfg_claim(s);
    cfg_pattern_time(s, "cost.SYMBOL", "0", 0, PS_PER_S, "a cost");
    cfg_key_doc_at(s, 0, &d);
    assert_true(d.pattern);
    assert_string_equal(d.range, "0 to 1s");
    assert_int_equal(cfg_finish(c), 1);
    expect_errors(c, "t.ini:2: [host h] unknown key 'cost.SYMBOL'; valid keys: cost.SYMBOL (`netsim keys host` "
                     "documents them)\n");
    cfg_free(c);
}

static void test_defaults_only_when_describing(void **state)
{
    struct cfg *c = load("[sim]\n");
    struct cfg_section *s = cfg_find(c, "sim", NULL);
    struct cfg_key_doc d;

    (void)state;
    cfg_time(s, "duration", "10s", 0, PS_PER_S * 100, "the run");
    cfg_key_doc_at(s, 0, &d);
    assert_null(d.def);
    assert_string_equal(d.doc, "the run");
    cfg_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_per_type),
        cmocka_unit_test(test_pattern_is_no_key),
        cmocka_unit_test(test_defaults_only_when_describing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
