/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stdout_check.c - a command's results on standard output are its only
 * copy when it writes no database (--no-db, --json, report, keys, --dry-run,
 * --emit-jobs): a write that failed there (a full disk, a closed pipe)
 * must fail the command, as coreutils' close_stdout does, not exit 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"

int stdout_close(const char *who)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (!bad)
        return 0;
    int e = errno;
    fprintf(stderr, "%s: writing standard output: %s\n", who, e ? strerror(e) : "write error");
    return 1;
}
