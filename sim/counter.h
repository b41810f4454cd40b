/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counter.h - a run's counters: each a name and a pointer to the
 * uint64_t a model or the NIC keeps, read once, when the run ends. Who
 * registers a counter needs only this set, not the run (sim.h wraps it
 * for the models: sim_counter, sim_counterf).
 */
#ifndef NETSIM_COUNTER_H
#define NETSIM_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A counter's name is prefix then name, joined when it is emitted: a TCP
 * flow's 38 counters share two prefixes, so 100 000 flows keep 200 000
 * short strings rather than 3.8 million copies of 96 bytes. */
struct counter {
    const char *prefix, *name;
    const uint64_t *value;
    bool is_drop;
};

/* The longest counter name emitted, with its NUL: longer ones are cut. */
#define COUNTER_NAME_MAX 96

struct counters {
    struct counter *c;           /* n of cap, grown by doubling */
    size_t n, cap;
    char **name_chunks;          /* counters_keep_name's storage */
    int nname_chunks;
    char *name_at;
    size_t name_left;
};

/* A counter named name (copied). */
void counters_add(struct counters *cs, const char *name, const uint64_t *value, bool is_drop);
/* The same under prefix then name, neither copied: each must be a string
 * literal or one counters_keep_name returned. */
void counters_add_in(struct counters *cs, const char *prefix, const char *name, const uint64_t *value,
                     bool is_drop);
/* The same with the name formatted: counters_addf(cs, &n->drops, true, "%s.drops", n->name). */
void counters_addf(struct counters *cs, const uint64_t *value, bool is_drop, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A copy of str that lives as long as cs. */
const char *counters_keep_name(struct counters *cs, const char *str);
/* Counter i's whole name into dst of n bytes, cut to fit as snprintf cuts. */
void counter_name(const struct counter *c, char *dst, size_t n);
void counters_free(struct counters *cs);

#endif
