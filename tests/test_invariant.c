/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_invariant.c - the accounting invariants (sim/invariant.h) fire
 * when a sum parts from what it sums, and only then. This file is
 * compiled with NETSIM_INVARIANTS on whatever the build, so the inline
 * queue operations of sim/skb.h check here as they do in the sanitizer
 * and fuzz builds; each broken case runs in a child, which must abort
 * with the relation named on stderr.
 */
#define NETSIM_INVARIANTS 1
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sim/invariant.h"
#include "sim/skb.h"

/* Runs fn in a child with stderr in a pipe; returns its wait status and
 * what it printed (up to n bytes). */
static int in_child(void (*fn)(void), char *out, size_t n)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(p[1], 2);
        close(p[0]);
        fn();
        _exit(0);
    }
    close(p[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(p[0], out + got, n - 1 - got)) > 0)
        got += (size_t)r;
    out[got] = 0;
    close(p[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

static void push_three_pop_all(void)
{
    struct skb_queue q;
    skbq_init(&q);
    for (int i = 0; i < 3; i++) {
        struct skb *s = skb_alloc();
        s->truesize = 1000u + (uint32_t)i;
        skbq_push(&q, s);
    }
    skbq_purge(&q);
}

static void bytes_drift(void)
{
    struct skb_queue q;
    skbq_init(&q);
    struct skb *s = skb_alloc();
    s->truesize = 768;
    skbq_push(&q, s);
    q.bytes += 1;                /* the sum parts from what it sums */
    skbq_push(&q, skb_alloc());
}

static void len_drift(void)
{
    struct skb_queue q;
    skbq_init(&q);
    struct skb *s = skb_alloc();
    s->truesize = 768;
    skbq_push(&q, s);
    q.len = 0;                   /* a pop of a queue that says it is empty */
    skbq_pop(&q);
}

static void test_sound_queue_runs(void **state)
{
    (void)state;
    char err[512];
    int st = in_child(push_three_pop_all, err, sizeof err);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(err, "");
}

static void test_bytes_drift_aborts(void **state)
{
    (void)state;
    char err[512];
    int st = in_child(bytes_drift, err, sizeof err);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    assert_non_null(strstr(err, "netsim: invariant broken at "));
    assert_non_null(strstr(err, "skbq_sums_ok(q)"));
}

static void test_len_drift_aborts(void **state)
{
    (void)state;
    char err[512];
    int st = in_child(len_drift, err, sizeof err);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    assert_non_null(strstr(err, "q->len > 0 && q->bytes >= s->truesize"));
}

/* INVARIANT_SUM checks every change while the structure is small, then
 * one change in 64 for the site: counted here through a condition with a
 * side effect. */
static int evaluated;
static int count_true(void)
{
    evaluated++;
    return 1;
}

static void test_sum_sampling(void **state)
{
    (void)state;
    evaluated = 0;
    for (int i = 0; i < 100; i++)
        INVARIANT_SUM(10, count_true());
    assert_int_equal(evaluated, 100);
    evaluated = 0;
    for (int i = 0; i < 640; i++)
        INVARIANT_SUM(100000, count_true());
    assert_int_equal(evaluated, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sound_queue_runs),
        cmocka_unit_test(test_bytes_drift_aborts),
        cmocka_unit_test(test_len_drift_aborts),
        cmocka_unit_test(test_sum_sampling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
