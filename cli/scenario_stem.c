/*
 * scenario_stem.c - a scenario's name as runs record it and default
 * output paths use it: the file name without directory and extension,
 * the same for `netsim run` and `netsim sweep` so that their rows of one
 * scenario match.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/commands.h"
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
