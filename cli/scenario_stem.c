/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario_stem.c - a scenario's name as runs record it and default
 * output paths use it: the file name without directory and extension,
 * the same for `netsim run` and `netsim sweep` so that their rows of one
 * scenario match; [sim] name, when set, names it instead. A scenario
 * read from a pipe (a FIFO, bash's <(...) as /dev/fd/63) has no file name
 * worth recording: "63" would say nothing and match an unrelated pipe's
 * runs by accident, so it is named "pipe" (its hash still tells two
 * apart).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "cli/commands.h"
#include "load/load.h"
#include "sim/xalloc.h"

char *scenario_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *stem = xstrdup(base);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
        *dot = 0;
    return stem;
}

char *scenario_name(const struct cfg *c, const char *path)
{
    const struct cfg_section *sim = cfg_find(c, "sim", "");
    for (int i = 0; sim && i < cfg_key_count(sim); i++) {
        const char *k, *v;
        cfg_key_at(sim, i, &k, &v, NULL);
        if (!strcmp(k, "name") && *v)
            return xstrdup(v);
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
        return xstrdup("pipe");
    return scenario_stem(path);
}
