/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_template_expr.c - "{EXPR}" in a template's values
 * (load/template_expr.c): C's precedence and truncating division, which
 * braces are an expression and which stay as written, every error with
 * its text, and the loader's report of one, at its line and naming the
 * section the value was made for (tests/scenario/templates.sh runs a
 * leaf-spine fabric built with them).
 */
#include "tests/config_fixture.h"
#include "load/template_expr.h"

#include <limits.h>

static char why[400];

/* the expression's value for n; it must be accepted */
static long val(const char *e, long n)
{
    long v = -1;
    why[0] = 0;
    if (tpl_expr_eval(e, strlen(e), n, &v, why, sizeof why))
        fail_msg("{%s} for n = %ld: %s", e, n, why);
    return v;
}

/* the expression is refused for n, saying exactly `want` */
static void refused(const char *e, long n, const char *want)
{
    long v = -1;
    why[0] = 0;
    if (!tpl_expr_eval(e, strlen(e), n, &v, why, sizeof why))
        fail_msg("{%s} for n = %ld: accepted, %ld", e, n, v);
    assert_string_equal(why, want);
}

static void test_precedence_and_c_division(void **state)
{
    (void)state;
    assert_int_equal(val("n", 7), 7);
    assert_int_equal(val("n+2*3", 1), 7);
    assert_int_equal(val("(n+2)*3", 1), 9);
    assert_int_equal(val("n-1-1", 5), 3);          /* left to right */
    assert_int_equal(val("n/2/2", 20), 5);
    assert_int_equal(val("n/2*2", 7), 6);
    assert_int_equal(val("n%4*2", 7), 6);
    assert_int_equal(val("n - -1", 5), 6);
    assert_int_equal(val("-n+10", 3), 7);
    assert_int_equal(val("- - n", 3), 3);
    /* truncation toward zero: -9/4 is -2 and -9%4 is -1, as in C */
    assert_int_equal(val("(n-10)/4+3", 1), 1);
    assert_int_equal(val("(n-10)%4+3", 1), 2);
    assert_int_equal(val("(n-10)%-4+3", 1), 2);
    assert_int_equal(val(" ( n - 1 ) / 16 + 1 ", 17), 2);
    assert_int_equal(val("\tn\t*\t2", 4), 8);
    assert_int_equal(val("9223372036854775807 - n + 1", 1), LONG_MAX);
    assert_int_equal(val("0*n", 9), 0);
    /* the leaf-spine example of docs/usage.md, at its edges */
    assert_int_equal(val("(n-1)/16+1", 16), 1);
    assert_int_equal(val("(n-1)/16+1", 17), 2);
    assert_int_equal(val("(n-1)%16", 128), 15);
    assert_int_equal(val("16+(n-1)%4", 32), 19);
    assert_int_equal(val("(n-1)/4", 32), 7);
}

/* e: d '(', n, d ')' */
static void nested(char *e, int d)
{
    memset(e, '(', (size_t)d);
    e[d] = 'n';
    memset(e + d + 1, ')', (size_t)d);
    e[2 * d + 1] = 0;
}

static void test_depth(void **state)
{
    char e[2 * TPL_EXPR_DEPTH + 8];
    long v;
    (void)state;
    /* 64 nested parentheses are read, a 65th is refused */
    nested(e, TPL_EXPR_DEPTH);
    assert_int_equal(val(e, 3), 3);
    nested(e, TPL_EXPR_DEPTH + 1);
    assert_int_equal(tpl_expr_eval(e, strlen(e), 3, &v, why, sizeof why), -1);
    assert_non_null(strstr(why, "': more than 64 nested parentheses at '(n))"));
    /* unary minus costs no depth */
    char m[190];
    memset(m, '-', 180);
    strcpy(m + 180, "n+9");
    assert_int_equal(val(m, 3), 12);
}

static void test_syntax_errors(void **state)
{
    (void)state;
    refused("(n", 1, "'{(n}': expected ')' before '}'");
    refused("n)", 1, "'{n)}': ')' without its '(' at ')}'");
    refused("n+", 1, "'{n+}': expected a number, 'n', '-' or '(' before '}'");
    refused("+n", 1, "'{+n}': expected a number, 'n', '-' or '(' at '+n}'");
    refused("n+*2", 1, "'{n+*2}': expected a number, 'n', '-' or '(' at '*2}'");
    refused("n 2", 1, "'{n 2}': expected an operator (+ - * / %) or '}' at '2}'");
    refused("2n", 1, "'{2n}': expected an operator (+ - * / %) or '}' at 'n}'");
    refused("(n 2)", 1, "'{(n 2)}': expected an operator or ')' at '2)}'");
    refused("()", 1, "'{()}': expected a number, 'n', '-' or '(' at ')}'");
    refused("010+n", 1, "'{010+n}': expected a decimal number, not 010 (C reads a leading 0 as octal) at '010+n}'");
    refused("", 1, "'{}': expected a number, 'n', '-' or '(' before '}'");
    /* a syntax error is said before arithmetic that went wrong earlier */
    refused("n/0+", 1, "'{n/0+}': expected a number, 'n', '-' or '(' before '}'");
}

static void test_arithmetic_errors(void **state)
{
    (void)state;
    refused("n/0", 1, "'{n/0}': division by zero: 1 / 0");
    refused("n%(n-1)", 1, "'{n%(n-1)}': remainder by zero: 1 % 0");
    refused("n*99999999999*99999999999", 1,
            "'{n*99999999999*99999999999}': overflow: 99999999999 * 99999999999 does not fit in a long (64 bits)");
    refused("9223372036854775807+n", 1,
            "'{9223372036854775807+n}': overflow: 9223372036854775807 + 1 does not fit in a long (64 bits)");
    refused("-9223372036854775807-n-n", 1,
            "'{-9223372036854775807-n-n}': overflow: -9223372036854775808 - 1 does not fit in a long (64 bits)");
    refused("(-9223372036854775807-n)/-1", 1,
            "'{(-9223372036854775807-n)/-1}': overflow: -9223372036854775808 / -1 does not fit in a long (64 bits)");
    refused("(-9223372036854775807-n)%-1", 1,
            "'{(-9223372036854775807-n)%-1}': overflow: -9223372036854775808 % -1 does not fit in a long (64 bits)");
    refused("-(-9223372036854775807-n)", 1,
            "'{-(-9223372036854775807-n)}': overflow: -(-9223372036854775808) is above 9223372036854775807");
    refused("9223372036854775808-n", 1,
            "'{9223372036854775808-n}': overflow: 9223372036854775808 is above 9223372036854775807");
    /* the first error is the one said */
    refused("n/0+n%0", 4, "'{n/0+n%0}': division by zero: 4 / 0");
    refused("n-5", 1, "'{n-5}' is -4 for n = 1: a template's number cannot be negative (it names a host, a port "
            "or a section)");
    refused("-n", 2, "'{-n}' is -2 for n = 2: a template's number cannot be negative (it names a host, a port "
            "or a section)");
    assert_int_equal(val("n-5", 5), 0);
}

/* the value made for n; it must be made */
static char *made(const char *value, long n)
{
    char *v = tpl_expand(value, n, why, sizeof why);
    if (!v)
        fail_msg("%s for n = %ld: %s", value, n, why);
    return v;
}

static void expands(const char *value, long n, const char *want)
{
    char *v = made(value, n);
    assert_string_equal(v, want);
    free(v);
}

static void test_which_braces(void **state)
{
    (void)state;
    assert_true(tpl_is_expr("n", 1));
    assert_true(tpl_is_expr(" (n-1) % 4 ", 11));
    assert_false(tpl_is_expr("1+2", 3));           /* no n: not one */
    assert_false(tpl_is_expr("1..16", 5));
    assert_false(tpl_is_expr("a, n", 4));
    assert_false(tpl_is_expr("", 0));
    assert_false(tpl_is_expr("n\0", 2));

    expands("h{}:eth0 leaf{(n-1)/16+1}:eth{(n-1)%16}", 17, "h17:eth0 leaf2:eth0");
    expands("leaf{(n-1)/4+1}:eth{16+(n-1)%4} spine{(n-1)%4+1}:eth{(n-1)/4}", 32, "leaf8:eth19 spine4:eth7");
    expands("s{}:eth0 sw:eth{}", 8, "s8:eth0 sw:eth8");
    expands("x{n}y{ n }", 5, "x5y5");
    /* what is no expression stays as written */
    expands("s{1..16}", 5, "s{1..16}");
    expands("${n=s{1..2}, s{1..8}}", 5, "${n=s{1..2}, s{1..8}}");
    expands("${cubic, dctcp ! cc}", 5, "${cubic, dctcp ! cc}");
    expands("${n}", 5, "${n}");                      /* a '$' before: an axis, never an expression */
    expands("${}", 5, "$5");                         /* "{}" as before expressions */
    expands("{1+2}", 5, "{1+2}");
    expands("{n", 5, "{n");
    expands("}{n}{", 5, "}5{");
    expands("{a{n}}", 5, "{a5}");                    /* the text to the next '}' decides */
    expands("{{n}}", 5, "{5}");
    expands("", 5, "");
    /* the longest results fit */
    expands("{n*0+9223372036854775807}{n*0+9223372036854775807}", 1, "92233720368547758079223372036854775807");
    expands("{}{}{}", 999999999, "999999999999999999999999999");

    assert_null(tpl_expand("a{n}b{n-2}", 1, why, sizeof why));
    assert_string_equal(why, "'{n-2}' is -1 for n = 1: a template's number cannot be negative (it names a host, a "
                        "port or a section)");
}

/* the loader's report: the line, the section made, the key; once, and
 * nothing of the key kept */
static void test_loader_reports(void **state)
{
    (void)state;
    struct cfg *c = load("[sim]\n"
                         "[link l{3..6}]\n"
                         "rate = 1gbit\n"
                         "ends = a{}:eth0 b:eth{n-4}\n");
    expect_errors(c, "t.ini:4: [link l3] ends: '{n-4}' is -1 for n = 3: a template's number cannot be negative "
                     "(it names a host, a port or a section)\n");
    assert_false(cfg_has(cfg_find(c, "link", "l3"), "ends"));
    cfg_free(c);

    c = load("[host s{1..4}]\nx = {n/(n-2)+1}\n");
    expect_errors(c, "t.ini:2: [host s2] x: '{n/(n-2)+1}': division by zero: 2 / 0\n");
    cfg_free(c);

    c = load("[host s{1..4}]\nx = {(n}\n");
    expect_errors(c, "t.ini:2: [host s1] x: '{(n}': expected ')' before '}'\n");
    cfg_free(c);

    /* outside a template, braces are the value's own */
    c = load("[host a]\nx = {n+1}\n[host s{1..2}]\nx = {n+1} {1..2}\n");
    assert_int_equal(cfg_errors(c), 0);
    assert_string_equal(cfg_str(cfg_find(c, "host", "a"), "x", NULL, NULL), "{n+1}");
    assert_string_equal(cfg_str(cfg_find(c, "host", "s2"), "x", NULL, NULL), "3 {1..2}");
    cfg_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence_and_c_division),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_arithmetic_errors),
        cmocka_unit_test(test_which_braces),
        cmocka_unit_test(test_loader_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
