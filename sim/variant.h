/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * variant.h - a variant is one file. A model family (tcp.cc, tcp.drs,
 * ipfrag.evictor, sctp.rwnd, sctp.hb) is a scenario key whose value picks
 * one ops table; each variant file defines its table and registers it
 * once, at file scope:
 *
 *     const struct tcp_drs_ops tcp_drs_triple = { .name = "triple", .doc = "...", .grow = grow };
 *     VARIANT("tcp.drs", tcp_drs_triple);
 *
 * The build collects every VARIANT line of models/FAMILY/NAME.c and of the
 * EXTRA_MODELS folders into one table (tools/gen-variants writes
 * BUILD/gen/variants.c), so dropping a file in is all a new variant takes:
 * the scenario's accepted values, the error that lists them, `netsim
 * models` and the key reference all read that table.
 *
 * The contract, checked once at start-up (variants_check), as the
 * kernel's tcp_register_congestion_control checks its ops: every ops
 * table starts with `name` and `doc` (struct variant_head; VARIANT checks
 * the layout at compile time), both non-empty; the family's `missing`
 * names a required member the table lacks (each family's header marks
 * its members required or optional); a (key, name) pair registered twice
 * is an error; every registered key has a family, and every family its
 * default variant.
 *
 * A variant may own keys: what the kernel lets one change of it (a module
 * parameter such as tcp_cubic's beta, a sysctl it alone reads). It lists
 * them in `keys` (the third member of every ops table), and a scenario
 * sets one as FAMILY.VARIANT.NAME on the host ([host a] tcp.cc.cubic.beta
 * = 819). The loader reads them like any key: typed, ranged, documented
 * under the variant in `netsim keys`, taken by --set and by sweep axes,
 * recorded in the param table. The chosen variant reads its values
 * (variant_choose_vals); a key of a variant the host did not choose
 * changes nothing: a warning, an error when it is a sweep axis
 * (cfg_inert), never silently two identical runs.
 */
#ifndef NETSIM_VARIANT_H
#define NETSIM_VARIANT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cfg_section;

/* One of a variant's keys. Its values are whole numbers (a kernel
 * module parameter is an int or a bool) within [min, max]. */
struct variant_key {
    const char *name;            /* letters, digits, '_'; NULL ends the list */
    const char *def;             /* the default, as a file writes it: "717" */
    int64_t min, max;
    const char *doc;             /* one line, naming the kernel's parameter and its default */
};
#define VARIANT_MAX_KEYS 16

struct variant_head {
    const char *name;            /* the key's value that picks it */
    const char *doc;             /* one line: what it models, from which kernel */
    const struct variant_key *keys;   /* NULL or a list ended by a NULL name */
};

struct variant {
    const char *key;             /* "tcp.drs" */
    const void *ops;             /* the family's ops table, starting with a variant_head */
    const char *file;            /* where it was registered, for the error on a duplicate */
};

struct variant_family {
    const char *key;             /* the [host] key: "tcp.drs" */
    const char *def;             /* the default variant's name */
    const char *doc;             /* what the key chooses */
    /* NULL when ops has every required member, else the missing one's name */
    const char *(*missing)(const void *ops);
};

#define VARIANT(key, ops)                                                                    \
    _Static_assert(offsetof(__typeof__(ops), name) == offsetof(struct variant_head, name) &&   \
                       offsetof(__typeof__(ops), doc) == offsetof(struct variant_head, doc) &&   \
                       offsetof(__typeof__(ops), keys) == offsetof(struct variant_head, keys), \
                   "a variant's ops table starts with name, doc and keys");                  \
    const struct variant variant__##ops = { (key), &(ops), __FILE__ }

/* The table the build generated (BUILD/gen/variants.c), NULL-terminated,
 * handed over by models_install (sim/sim.h); the same table again changes
 * nothing. */
void variants_set(const struct variant *const *table);
/* Checks the whole table once (later calls return the first answer): 0,
 * or -1 with every broken rule printed to err, one line each; -1 also
 * before variants_set. */
int variants_check(FILE *err);

/* The variant of family `key` a scenario section chooses (the family's
 * default when the key is absent); a value that is no registered variant
 * is a scenario error listing the valid ones, and gives the default. */
const void *variant_choose(struct cfg_section *sec, const char *key);
/* The same, with the chosen variant's key values in vals (vals[i] for its
 * keys[i], VARIANT_MAX_KEYS at most); vals may be NULL. */
const void *variant_choose_vals(struct cfg_section *sec, const char *key, int64_t *vals);
/* The same with another default than the family's (NULL: the family's):
 * a kernel profile's choice, which the key itself still overrides. */
const void *variant_choose_vals_def(struct cfg_section *sec, const char *key, const char *def, int64_t *vals);
/* A variant's key defaults into vals (for an ops table used without a
 * scenario: the unit tests). */
void variant_key_defaults(const void *ops, int64_t *vals);
/* The index of the variant's key `name` in its keys, or -1. */
int variant_key_index(const void *ops, const char *name);

/* The i-th variant of a family, the default first and then in file order;
 * NULL past the end. */
const struct variant_head *variant_at(const char *key, int i);
/* The ops named `name` in family `key`, or NULL. */
const void *variant_find(const char *key, const char *name);

/* The i-th family, in the order the modules declare them; NULL past the
 * end. With variant_at, what `netsim models` lists. */
const struct variant_family *variant_family_at(int i);

#endif
