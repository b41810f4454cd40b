/*
 * report_cmd.c - `netsim report` (placeholder until it is written).
 */
#include <stdio.h>
#include "commands.h"

int cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "netsim report: not implemented yet\n");
    return 2;
}
