/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keys.h - `netsim keys`: the key reference, read from the getters
 * themselves. keys_world.c builds small scenarios that reach every
 * getter (one per application, and again per variant of each family) and
 * collects what the getters recorded (cfg_describe, sim/config_store.h)
 * into groups of rows; keys_cmd.c selects and prints them as text,
 * markdown (docs/reference/keys.md) or roff (netsim-scenario(5)).
 */
#ifndef NETSIM_CLI_KEYS_H
#define NETSIM_CLI_KEYS_H

#include <stdbool.h>

/* One key as its first getter described it, the doc's "{D|R}" head
 * (sim/config.h) applied: def is the default as a user reads it ("" for
 * an empty default; NULL: required). */
struct key_row {
    char *key, *unit, *def, *range, *doc;
    bool pattern;
};

struct key_group {
    char *title;                 /* "[host NAME]", "[flow N] app = tcp_iperf3", "tcp.drs = continuous" */
    char *what;                  /* the app's or family's own one-line doc, or NULL */
    struct key_row *rows;
    int n;
    size_t cap;
};

/* What every build asked, grouped: sim, link, host, the flow keys every
 * app reads alike, each app's, and each variant's (the keys whose
 * presence, default, range or doc differ from the default variant's). */
struct key_ref {
    struct key_group sim, link, host, flow;
    struct key_group *apps;      /* one per app, app_at() order; title is the app name */
    int napps;
    struct key_group *variants;  /* one per family variant, default first; title "FAMILY = NAME" */
    int nvariants;
};

/* 0, or -1 with the synthetic scenario's errors printed to stderr (a
 * component that refuses its defaults: a bug to fix in the component). */
int key_ref_build(struct key_ref *r);
void key_ref_free(struct key_ref *r);

#endif
