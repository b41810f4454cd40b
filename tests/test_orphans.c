/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_orphans.c - what a killed netsim leaves behind (cli/orphans.c):
 * side files are found only once their maker (and every process that
 * inherited its lock) is gone, by their exact names; journals and logs
 * without their database are swept; a worker dies with its parent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/orphans.h"
#include "sinks/record.h"
#include "tests/tmpdir.h"

struct tmp {
    char dir[64];
    char out[128];      /* dir + "/r.db" */
};

static int setup(void **state)
{
    struct tmp *t = calloc(1, sizeof *t);

    assert_non_null(t);
    tmpdir_make(t->dir, sizeof t->dir, "test_orphans");
    snprintf(t->out, sizeof t->out, "%s/r.db", t->dir);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    struct tmp *t = *state;

    tmpdir_remove(t->dir);
    free(t);
    return 0;
}

static void touch(const char *dir, const char *name)
{
    char p[256];
    FILE *f;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

static int exists(const char *dir, const char *name)
{
    char p[256];

    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

/* "name name ..." of what orphans_find returns, base names only. */
static char *found(const char *out, enum orphan_kind kind)
{
    static char buf[1024];
    struct orphan *list;
    int n = orphans_find(out, kind, &list);

    assert_true(n >= 0);
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *slash = strrchr(list[i].path, '/');
        strcat(buf, slash ? slash + 1 : list[i].path);
        if (kind == ORPHAN_SWEEP)
            sprintf(buf + strlen(buf), "=%d", list[i].run);
        strcat(buf, " ");
    }
    orphans_free(list, n);
    return buf;
}

static void test_names(void **state)
{
    struct tmp *t = *state;

    touch(t->dir, "r.db.pending.abc123");
    touch(t->dir, "r.db.pending.abc12");            /* five characters */
    touch(t->dir, "r.db.pending.abc1234");
    touch(t->dir, "x.r.db.pending.abc123");         /* another database */
    touch(t->dir, "r.db.run7.Ab12Cd.tmp");
    touch(t->dir, "r.db.run12.zzzzzz.tmp");
    touch(t->dir, "r.db.run7.db");                  /* --emit-jobs output: not a temporary */
    touch(t->dir, "r.db.runX.Ab12Cd.tmp");
    touch(t->dir, "r.db.run8.Xy12Zz.tmp.log");      /* a log without its database */
    touch(t->dir, "r.db.run7.Ab12Cd.tmp.log");      /* a log with its database */
    touch(t->dir, "r.db.pending.qwerty-journal");   /* a journal without its database */

    assert_string_equal(found(t->out, ORPHAN_PENDING), "r.db.pending.abc123 ");
    assert_false(exists(t->dir, "r.db.pending.qwerty-journal"));
    assert_string_equal(found(t->out, ORPHAN_SWEEP), "r.db.run12.zzzzzz.tmp=12 r.db.run7.Ab12Cd.tmp=7 ");
    assert_false(exists(t->dir, "r.db.run8.Xy12Zz.tmp.log"));
    assert_true(exists(t->dir, "r.db.run7.Ab12Cd.tmp.log"));
    assert_true(exists(t->dir, "r.db.run7.db"));

    /* OUT without a directory part is looked for in the current one. */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(t->dir), 0);
    assert_string_equal(found("r.db", ORPHAN_PENDING), "r.db.pending.abc123 ");
    assert_int_equal(chdir(cwd), 0);
    /* A missing directory holds none. */
    assert_string_equal(found("/nonexistent/dir/r.db", ORPHAN_PENDING), "");
}

static void test_remove(void **state)
{
    struct tmp *t = *state;
    struct orphan *list;

    touch(t->dir, "r.db.run3.aaaaaa.tmp");
    touch(t->dir, "r.db.run3.aaaaaa.tmp-journal");
    touch(t->dir, "r.db.run3.aaaaaa.tmp.log");
    touch(t->dir, "r.db.run4.bbbbbb.tmp");
    assert_int_equal(orphans_find(t->out, ORPHAN_SWEEP, &list), 2);
    orphan_remove(&list[0]);
    orphans_free(list, 2);
    assert_false(exists(t->dir, "r.db.run3.aaaaaa.tmp"));
    assert_false(exists(t->dir, "r.db.run3.aaaaaa.tmp-journal"));
    assert_false(exists(t->dir, "r.db.run3.aaaaaa.tmp.log"));
    assert_true(exists(t->dir, "r.db.run4.bbbbbb.tmp"));
}

/* A side file is not an orphan while its maker, or a child that
 * inherited the lock, lives; it is one as soon as both are gone. */
static void test_lock_held_while_alive(void **state)
{
    struct tmp *t = *state;
    char tmpl[256], *path;
    int pipefd[2], fd, status;
    pid_t pid;

    snprintf(tmpl, sizeof tmpl, "%s.pending.XXXXXX", t->out);
    fd = orphans_create(tmpl, 0, &path);
    assert_true(fd >= 0);
    assert_int_equal(strncmp(path, t->out, strlen(t->out)), 0);
    assert_string_equal(found(t->out, ORPHAN_PENDING), "");

    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char c;
        close(pipefd[1]);
        if (read(pipefd[0], &c, 1) < 0)    /* holds fd until told to go */
            _exit(1);
        _exit(0);
    }
    close(pipefd[0]);
    close(fd);                             /* the maker lets go; the child still has it */
    assert_string_equal(found(t->out, ORPHAN_PENDING), "");
    close(pipefd[1]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char want[256];
    snprintf(want, sizeof want, "%s ", strrchr(path, '/') + 1);
    assert_string_equal(found(t->out, ORPHAN_PENDING), want);
    /* mkstemps' 0600 became what any new file gets under the umask */
    struct stat sb;
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0666 & ~mask);
    free(path);
}

/* A worker's parent dies: the worker is killed. The test process is a
 * subreaper, so the orphaned worker comes back to it to be waited for. */
static void test_die_with_parent(void **state)
{
    int pipefd[2], status;
    pid_t mid, worker;

    (void)state;
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        pid_t me = getpid(), w = fork();
        if (w == 0) {
            orphans_die_with_parent(me);
            for (;;)
                pause();
        }
        if (write(pipefd[1], &w, sizeof w) != sizeof w)
            _exit(1);
        _exit(0);       /* the parent dies at once */
    }
    close(pipefd[1]);
    assert_int_equal(read(pipefd[0], &worker, sizeof worker), (ssize_t)sizeof worker);
    close(pipefd[0]);
    assert_int_equal(waitpid(mid, &status, 0), mid);
    /* At most 2 s, in case it had not reached prctl() yet. */
    pid_t got = 0;
    for (int i = 0; i < 200 && got == 0; i++) {
        got = waitpid(worker, &status, WNOHANG);
        if (got == 0)
            nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
    }
    if (got == 0)
        kill(worker, SIGKILL), waitpid(worker, &status, 0);
    assert_int_equal(got, worker);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void test_read_run(void **state)
{
    struct tmp *t = *state;
    struct rec_run_info info = { .scenario = "s", .variant_label = "a=1", .seed = 7, .rep = 2,
                                 .scenario_hash = "h1", .id = 5 };
    struct orphan_run r;
    char why[512], path[256], val[64], *err = NULL;
    int64_t *ids;
    struct rec *rec;

    snprintf(path, sizeof path, "%s.run5.abcdef.tmp", t->out);
    rec = rec_open(path, &err);
    assert_non_null(rec);
    assert_int_equal(rec_run_begin(rec, &info), 5);
    assert_int_equal(rec_param(rec, "label.x", "y"), 0);
    assert_int_equal(rec_run_end(rec, "complete", 1, 2, 3, NULL), 0);
    rec_close(rec);

    assert_int_equal(orphan_read_run(path, 5, &r, why, sizeof why), 1);
    assert_string_equal(r.status, "complete");
    assert_string_equal(r.label, "a=1");
    assert_string_equal(r.hash, "h1");
    assert_int_equal(r.seed, 7);
    assert_int_equal(r.rep, 2);
    assert_int_equal(orphan_read_run(path, 6, &r, why, sizeof why), 0);
    assert_int_equal(orphan_run_ids(path, &ids, why, sizeof why), 1);
    assert_int_equal(ids[0], 5);
    free(ids);
    assert_int_equal(orphan_read_param(path, 5, "label.x", val, sizeof val), 1);
    assert_string_equal(val, "y");
    assert_int_equal(orphan_read_param(path, 5, "label.none", val, sizeof val), 0);

    /* A maker killed before the schema: an empty file holds no run. */
    touch(t->dir, "empty");
    snprintf(path, sizeof path, "%s/empty", t->dir);
    assert_int_equal(orphan_read_run(path, 1, &r, why, sizeof why), 0);
    assert_int_equal(orphan_run_ids(path, &ids, why, sizeof why), 0);
    /* Not SQLite at all: an error naming the file. */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("this is not a database, and it is long enough to have a header of sorts........................\n", f);
    fclose(f);
    assert_int_equal(orphan_read_run(path, 1, &r, why, sizeof why), -1);
    assert_non_null(strstr(why, path));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lock_held_while_alive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_die_with_parent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_run, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
