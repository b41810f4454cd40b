/*
 * merge_cmd.c - `netsim merge` (placeholder until it is written).
 */
#include <stdio.h>
#include "commands.h"

int cmd_merge(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "netsim merge: not implemented yet\n");
    return 2;
}
