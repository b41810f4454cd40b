/*
 * sweep_cmd.c - `netsim sweep` (placeholder until it is written).
 */
#include <stdio.h>
#include "commands.h"

int cmd_sweep(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "netsim sweep: not implemented yet\n");
    return 2;
}
