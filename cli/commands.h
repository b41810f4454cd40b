/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands.h - the subcommands beyond `run`, each in its own file:
 * sweep_cmd.c, report_cmd.c, plot_cmd.c, merge_cmd.c, keys_cmd.c, models_cmd.c. Each takes argv as main() got
 * it from the subcommand on (argv[0] is the subcommand name) and returns
 * the process exit status: 0 success, 1 error, 2 bad usage or scenario.
 * Also what `run` (main.c) and they share.
 */
#ifndef NETSIM_COMMANDS_H
#define NETSIM_COMMANDS_H

int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_models(int argc, char **argv);

/* "scenarios/frag_evict.ini" -> "frag_evict" (a leading dot stays: ".ini"
 * is ".ini"): the name run.scenario records and results/<name>.db uses.
 * malloc'ed. (scenario_stem.c) */
char *scenario_stem(const char *path);
/* The scenario's name: its [sim] name (checked by the build: a word),
 * else scenario_stem(path). malloc'ed. (scenario_stem.c) */
struct cfg;
char *scenario_name(const struct cfg *c, const char *path);

/* Flushes standard output: 0, or 1 after saying on stderr that a write
 * failed, which the caller returns as its exit status (stdout_check.c). */
int stdout_close(const char *who);

#endif
