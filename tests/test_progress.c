/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_progress.c - the terminal progress line (sim/progress.c): nothing
 * while it is off or in the command's first second, then a line at most
 * every quarter of a second of each piece of work, and what it writes to
 * standard error: the line after a carriage return, erased at the end.
 *
 * The tests sleep (1.35 s in all): the rules are about wall time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/progress.h"

static void sleep_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* What f wrote to stderr, as a string (freed by the caller). */
static char *stderr_of(void (*f)(struct progress *), struct progress *p)
{
    char path[] = "/tmp/test_progress.XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    assert_true(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    f(p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *buf = calloc(1, 256);
    assert_non_null(buf);
    assert_true(pread(fd, buf, 255, 0) >= 0);
    close(fd);
    unlink(path);
    return buf;
}

static void show_and_end(struct progress *p)
{
    progress_show(p, "  building flows: %d / %d   ", 3, 7);
    progress_end(p);
}

static void end_only(struct progress *p)
{
    progress_end(p);
}

/* Off, a line is never due; on, not in the command's first second, then
 * at once; a later piece of work waits only its quarter of a second. */
static void test_when_a_line_is_due(void **state)
{
    (void)state;
    struct progress off, on, later;
    progress_begin(&off, false);
    progress_begin(&on, true);
    assert_false(progress_due(&on));
    sleep_s(0.3);                /* past the quarter, not the first second */
    assert_false(progress_due(&on));
    sleep_s(0.75);
    assert_false(progress_due(&off));
    assert_true(progress_due(&on));

    progress_begin(&later, true);
    assert_false(progress_due(&later));
    sleep_s(0.3);
    assert_true(progress_due(&later));
}

/* The line follows a carriage return; the end erases it and returns to
 * the start of the line, and erases nothing when nothing was shown. */
static void test_what_it_writes(void **state)
{
    (void)state;
    struct progress p;
    progress_begin(&p, true);
    char *got = stderr_of(show_and_end, &p);
    char want[128];
    snprintf(want, sizeof want, "\r  building flows: 3 / 7   \r%60s\r", "");
    assert_string_equal(got, want);
    free(got);

    progress_begin(&p, true);
    got = stderr_of(end_only, &p);
    assert_string_equal(got, "");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_when_a_line_is_due),
        cmocka_unit_test(test_what_it_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
