/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strindex.h - an open-addressing hash index from strings to the small
 * integers that number them in their owner's array.
 *
 * The owner keeps the strings; the index keeps (hash, id) pairs and asks
 * the owner to compare, so one index serves any record type. It grows by
 * doubling at half load, so lookups stay O(1) whatever a scenario holds:
 * a file of 100 000 sections must load in linear time, not compare each
 * header with every earlier one.
 */
#ifndef NETSIM_STRINDEX_H
#define NETSIM_STRINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strindex_slot {
    uint32_t id1;                /* id + 1; 0 = empty */
    uint32_t hash;
};

struct strindex {
    struct strindex_slot *slot;
    uint32_t cap, n;
};

/* FNV-1a over n bytes of s, continuing from h (start with STRINDEX_SEED). */
#define STRINDEX_SEED 0x811c9dc5u
uint32_t strindex_hash(uint32_t h, const char *s, size_t n);

/* Does entry `id` hold the key being looked up? */
typedef bool (*strindex_eq)(const void *ctx, uint32_t id);

/* The id whose key has this hash and satisfies eq, or -1. */
int64_t strindex_find(const struct strindex *ix, uint32_t hash, strindex_eq eq, const void *ctx);
/* Adds id under hash (the caller has checked it is new). 0, or -1 when
 * out of memory (the index is unchanged). */
int strindex_add(struct strindex *ix, uint32_t hash, uint32_t id);
void strindex_free(struct strindex *ix);

#endif
