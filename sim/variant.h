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
 */
#ifndef NETSIM_VARIANT_H
#define NETSIM_VARIANT_H

#include <stddef.h>
#include <stdio.h>

struct cfg_section;

struct variant_head {
    const char *name;            /* the key's value that picks it */
    const char *doc;             /* one line: what it models, from which kernel */
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

#define VARIANT(key, ops)                                                                  \
    _Static_assert(offsetof(__typeof__(ops), name) == offsetof(struct variant_head, name) && \
                       offsetof(__typeof__(ops), doc) == offsetof(struct variant_head, doc),   \
                   "a variant's ops table starts with name and doc");                      \
    const struct variant variant__##ops = { (key), &(ops), __FILE__ }

/* Checks the whole table once (later calls return the first answer): 0,
 * or -1 with every broken rule printed to err, one line each. */
int variants_check(FILE *err);

/* The variant of family `key` a scenario section chooses (the family's
 * default when the key is absent); a value that is no registered variant
 * is a scenario error listing the valid ones, and gives the default. */
const void *variant_choose(struct cfg_section *sec, const char *key);

/* The i-th variant of a family, the default first and then in file order;
 * NULL past the end. */
const struct variant_head *variant_at(const char *key, int i);
/* The ops named `name` in family `key`, or NULL. */
const void *variant_find(const char *key, const char *name);

/* The i-th family, in the order the modules declare them; NULL past the
 * end. With variant_at, what `netsim models` lists. */
const struct variant_family *variant_family_at(int i);

#endif
