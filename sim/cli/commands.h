/*
 * commands.h - the subcommands beyond `run`, each in its own file:
 * sweep_cmd.c, report_cmd.c, merge_cmd.c. Each takes argv as main() got
 * it from the subcommand on (argv[0] is the subcommand name) and returns
 * the process exit status: 0 success, 1 error, 2 bad usage or scenario.
 */
#ifndef NETSIM_COMMANDS_H
#define NETSIM_COMMANDS_H

int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
