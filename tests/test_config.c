/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_config.c - exact tests of the INI reader (load/config_read.c,
 * config_store.c): sections and keys as loaded, and the text of every
 * syntax error a user can see, with file:line. test_config_get.c tests the
 * getters, the checks, --set and the param table.
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

static void test_sections(void **state)
{
    struct cfg *c = load(SCENARIO);
    struct cfg_section *s;

    (void)state;
    assert_int_equal(cfg_errors(c), 0);
    assert_string_equal(cfg_file(c), "t.ini");
    assert_int_equal(cfg_section_count(c), 4);
    s = cfg_section_at(c, 0);
    assert_string_equal(cfg_kind(s), "sim");
    assert_string_equal(cfg_name(s), "");
    assert_int_equal(cfg_line(s), 2);
    s = cfg_section_at(c, 1);
    assert_string_equal(cfg_kind(s), "host");
    assert_string_equal(cfg_name(s), "receiver");
    assert_int_equal(cfg_line(s), 5);
    assert_int_equal(cfg_line(cfg_section_at(c, 3)), 13);
    assert_string_equal(cfg_name(cfg_section_at(c, 3)), "1");
    assert_ptr_equal(cfg_find(c, "sim", NULL), cfg_section_at(c, 0));
    assert_ptr_equal(cfg_find(c, "sim", ""), cfg_section_at(c, 0));
    assert_ptr_equal(cfg_find(c, "link", "a"), cfg_section_at(c, 2));
    assert_null(cfg_find(c, "link", "b"));
    assert_null(cfg_find(c, "host", NULL));
    cfg_free(c);
}

static void test_keys_trimmed_with_lines(void **state)
{
    struct cfg *c = load(SCENARIO);
    struct cfg_section *s = cfg_find(c, "host", "receiver");
    const char *k, *v;
    int line;

    (void)state;
    assert_int_equal(cfg_key_count(s), 3);
    cfg_key_at(s, 0, &k, &v, &line);
    assert_string_equal(k, "cpu");
    assert_string_equal(v, "xeon-2012");
    assert_int_equal(line, 6);
    cfg_key_at(s, 2, &k, &v, &line);
    assert_string_equal(k, "ipfrag.evictor");
    assert_string_equal(v, "lru");
    assert_int_equal(line, 8);
    s = cfg_find(c, "link", "a");
    cfg_key_at(s, 0, &k, &v, &line);
    assert_string_equal(v, "sender1:eth0 receiver:eth0");
    cfg_key_at(s, 1, &k, &v, &line);
    assert_string_equal(k, "rate");
    assert_string_equal(v, "10gbit");
    assert_int_equal(line, 12);
    assert_true(cfg_has(s, "rate"));
    assert_false(cfg_has(s, "delay"));
    cfg_free(c);
}

static void test_empty_section_and_empty_value(void **state)
{
    struct cfg *c = load("[sim]\n[host a]\nnote =\n");
    struct cfg_section *s = cfg_find(c, "host", "a");

    (void)state;
    assert_int_equal(cfg_errors(c), 0);
    assert_int_equal(cfg_section_count(c), 2);
    assert_int_equal(cfg_key_count(cfg_find(c, "sim", NULL)), 0);
    assert_string_equal(cfg_str(s, "note", "x", NULL), "");
    assert_int_equal(cfg_int(s, "note", "3", 0, 10, NULL), 3);
    expect_errors(c, "t.ini:3: [host a] note: got '', expected an integer such as 42\n");
    cfg_free(c);
}

static void test_crlf_bom_and_indent(void **state)
{
    struct cfg *c = load("\xEF\xBB\xBF[sim]\r\n  duration = 1s\r\n\tseed = 2\r\n");
    struct cfg_section *s = cfg_find(c, "sim", NULL);

    (void)state;
    assert_non_null(s);
    assert_int_equal(cfg_errors(c), 0);
    assert_string_equal(cfg_str(s, "duration", NULL, NULL), "1s");
    assert_int_equal(cfg_int(s, "seed", NULL, 0, 100, NULL), 2);
    cfg_free(c);
}

static void test_bad_section_headers(void **state)
{
    struct cfg *c = load("[host a b]\nx = 1\n"
                         "[host a/b]\n"
                         "[host\n"
                         "[]\n"
                         "[1host]\n"
                         "[link a] junk\n"
                         "[link a.b-c_d]\n"
                         "[link sim]\n"
                         "[link b-c_D9] ; fine\n"
                         "y = 2\n");

    (void)state;
    expect_errors(c,
        "t.ini:1: bad section header '[host a b]': expected [kind] or [kind name]\n"
        "t.ini:3: bad section name 'a/b': use letters, digits, '_' or '-' ('.' separates the name from the key in --set and in the recorded parameters)\n"
        "t.ini:4: section header '[host' has no ']'\n"
        "t.ini:5: bad section header '[]': expected [kind] or [kind name]\n"
        "t.ini:6: bad section kind '1host': use a letter, then letters, digits, '_' or '-'\n"
        "t.ini:7: text after ']' in section header '[link a] junk'\n"
        "t.ini:8: bad section name 'a.b-c_d': use letters, digits, '_' or '-' ('.' separates the name from the key in "
        "--set and in the recorded parameters)\n"
        "t.ini:9: a section cannot be named 'sim': --set sim.KEY and the recorded sim.KEY name the [sim] section\n");
    /* keys under a bad header are dropped without a second error */
    assert_int_equal(cfg_section_count(c), 1);
    assert_string_equal(cfg_name(cfg_section_at(c, 0)), "b-c_D9");
    assert_int_equal(cfg_key_count(cfg_section_at(c, 0)), 1);
    cfg_free(c);
}

static void test_duplicate_section(void **state)
{
    struct cfg *c = load("[host a]\nx = 1\n\n[host a]\nx = 2\n[link a]\n");

    (void)state;
    expect_errors(c, "t.ini:4: duplicate section [host a] (first at line 1)\n");
    assert_int_equal(cfg_section_count(c), 2);
    assert_string_equal(cfg_str(cfg_find(c, "host", "a"), "x", NULL, NULL), "1");
    cfg_free(c);
}

static void test_duplicate_key(void **state)
{
    struct cfg *c = load("[sim]\nseed = 1\nduration = 1s\nseed = 2\n");

    (void)state;
    expect_errors(c, "t.ini:4: [sim] duplicate key 'seed' (first at line 2)\n");
    assert_string_equal(cfg_str(cfg_find(c, "sim", NULL), "seed", NULL, NULL), "1");
    cfg_free(c);
}

static void test_key_outside_section_and_bad_keys(void **state)
{
    struct cfg *c = load("seed = 1\n[sim]\n= 3\nmy key = 4\n");

    (void)state;
    expect_errors(c,
        "t.ini:1: key 'seed' outside any section\n"
        "t.ini:3: [sim] missing key name before '='\n"
        "t.ini:4: [sim] bad key 'my key': use letters, digits, '_', '-', '.' or '@'\n");
    cfg_free(c);
}

static void test_continuation_and_junk_lines(void **state)
{
    struct cfg *c = load("[link a]\nends = h1:eth0\n   h2:eth0 ; c\n  h3 eth0\nrate 10gbit\n");

    (void)state;
    /* "   h2:eth0" has a ':' so it is the key "h2" (inih's rule), not a continuation */
    expect_errors(c,
        "t.ini:4: continuation lines are not supported (indented line without '=')\n"
        "t.ini:5: expected 'key = value' or a [section] header, got 'rate 10gbit'\n");
    assert_string_equal(cfg_str(cfg_find(c, "link", "a"), "ends", NULL, NULL), "h1:eth0");
    cfg_free(c);
}

static void test_line_too_long(void **state)
{
    char text[400];

    (void)state;
    snprintf(text, sizeof text, "[sim]\nnote = %0*d\nseed = 1\n", 192, 0);   /* 199 characters */
    struct cfg *c = load(text);
    expect_errors(c, "t.ini:2: line too long (199 characters, at most 198)\n");
    assert_false(cfg_has(cfg_find(c, "sim", NULL), "note"));
    assert_true(cfg_has(cfg_find(c, "sim", NULL), "seed"));
    cfg_free(c);

    snprintf(text, sizeof text, "[sim]\nnote = %0*d\n", 191, 0);              /* 198 fit */
    c = load(text);
    assert_int_equal(cfg_errors(c), 0);
    assert_int_equal(strlen(cfg_str(cfg_find(c, "sim", NULL), "note", NULL, NULL)), 191);
    cfg_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections),
        cmocka_unit_test(test_keys_trimmed_with_lines),
        cmocka_unit_test(test_empty_section_and_empty_value),
        cmocka_unit_test(test_crlf_bom_and_indent),
        cmocka_unit_test(test_bad_section_headers),
        cmocka_unit_test(test_duplicate_section),
        cmocka_unit_test(test_duplicate_key),
        cmocka_unit_test(test_key_outside_section_and_bad_keys),
        cmocka_unit_test(test_continuation_and_junk_lines),
        cmocka_unit_test(test_line_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
