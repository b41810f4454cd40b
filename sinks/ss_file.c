/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ss_file.c - the socket-state file (see ss_file.h).
 */
#include "sinks/ss_file.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ss_file {
    char *path;
    FILE *f;
    char head[512];              /* the first line: which run */
    uint64_t samples;
    int err;                     /* errno of the first failure, 0 if none */
    bool failed;
};

struct ss_file *ss_file_new(const char *path, const char *scenario, uint64_t seed, int rep)
{
    struct ss_file *x = xcalloc(1, sizeof *x);
    x->path = xstrdup(path);
    snprintf(x->head, sizeof x->head, "# netsim ss -tmi: scenario %s, seed %" PRIu64 ", rep %d", scenario, seed, rep);
    return x;
}

static void ss_sock(void *ctx, int flow, const char *host, simtime_t t, const char *text)
{
    struct ss_file *x = ctx;
    if (x->failed)
        return;
    if (!x->f) {
        if (!(x->f = fopen(x->path, "w"))) {
            x->err = errno;
            x->failed = true;
            return;
        }
        /* ss's column titles, once: each sample below is one socket of one
         * `ss -tmi` on the host its "# t=" line names */
        fprintf(x->f, "%s\n" SINK_SS_COLUMNS "\n", x->head, "State", "Recv-Q", "Send-Q", "Local Address:Port",
                "Peer Address:Port");
    }
    fprintf(x->f, "# t=%.9f host=%s flow=%d\n%s\n", time_to_s(t), host, flow, text);
    x->samples++;
}

const struct sink_ops ss_file_sink_ops = {
    .name = "ss",
    .sock = ss_sock,
};

int ss_file_close(struct ss_file *x, const char *final, FILE *report)
{
    int rc = 0;
    if (!x)
        return 0;
    if (x->f && (ferror(x->f) | fclose(x->f)) && !x->failed) {
        x->err = errno;
        x->failed = true;
    }
    const char *where = x->path;
    if (x->failed) {
        /* a partial file would read as a run whose sockets stopped */
        struct stat st;     /* a regular file it wrote, never a device (--ss /dev/full) */
        bool gone = x->f && lstat(x->path, &st) == 0 && S_ISREG(st.st_mode) && unlink(x->path) == 0;
        fprintf(report, "netsim: ss: %s: %s%s\n", x->path, strerror(x->err ? x->err : EIO),
                gone ? "; the partial file is removed" : "");
        rc = -1;
    } else if (x->f && final && strcmp(final, x->path)) {
        if (rename(x->path, final) == 0) {
            where = final;
        } else {
            fprintf(report, "netsim: ss: renaming %s to %s: %s\n", x->path, final, strerror(errno));
            rc = -1;
        }
    }
    if (x->f && !x->failed)
        fprintf(report, "netsim: ss: %s: %" PRIu64 " socket sample%s\n", where, x->samples, x->samples == 1 ? "" : "s");
    free(x->path);
    free(x);
    return rc;
}
