/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netem_parse.h - netem's options written as tc-netem(8) writes them, read
 * into struct netem_opts (sim/netem.h) for the scenario loader.
 */
#ifndef NETSIM_LOAD_NETEM_PARSE_H
#define NETSIM_LOAD_NETEM_PARSE_H

#include <stdbool.h>
#include "sim/netem.h"

/* Parsers, each for one option's value (see sim/netem.h): 0, or -1 with *why
 * completing "expected ...". *bare_fraction (may be NULL) is set when a
 * percentage was written as a bare number in (0, 1], which older netsim
 * read as a fraction: the caller warns. */
int netem_parse_delay(struct netem_opts *o, const char *s, const char **why);
int netem_parse_loss(struct netem_opts *o, const char *s, const char **why, bool *bare_fraction);
int netem_parse_prob(double *out, const char *what, const char *s, const char **why, bool *bare_fraction);
int netem_parse_rate(struct netem_opts *o, const char *s, const char **why);

/* The options by index, as a link's netem keys and tc's words name them
 * (delay, loss, reorder, duplicate, corrupt, netem_rate / rate, limit),
 * each with its bounds: 0, or -1 with *why. */
enum { NK_DELAY, NK_LOSS, NK_REORDER, NK_DUPLICATE, NK_CORRUPT, NK_RATE, NK_LIMIT, NK_COUNT };
int netem_key_parse(struct netem_opts *o, int k, const char *v, const char **why, bool *bare);

/* tc's words after `netem` (tc qdisc add ... netem delay 50ms 5ms loss 1%
 * limit 1000): every option, in any order, into o (from its defaults);
 * 0, or -1 with err (one line). *bare as netem_parse_prob's. */
int netem_words_parse(const char *words, struct netem_opts *o, bool *bare, char *err, size_t n);

#endif
