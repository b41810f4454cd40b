/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tmpdir.h - for tests: a fresh directory under /tmp for one test, and
 * its removal with everything in it. Include after <cmocka.h>.
 */
#ifndef NETSIM_TESTS_TMPDIR_H
#define NETSIM_TESTS_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* dir (at least 64 bytes) becomes "/tmp/NAME.XXXXXX", created. */
static inline void tmpdir_make(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "/tmp/%s.XXXXXX", name);
    assert_non_null(mkdtemp(dir));
}

static inline int tmpdir_rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static inline void tmpdir_remove(const char *dir)
{
    nftw(dir, tmpdir_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
