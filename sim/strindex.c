/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strindex.c - the hash index (see strindex.h): linear probing over a
 * power-of-two table.
 */
#include <stdlib.h>
#include "sim/arith.h"
#include "sim/strindex.h"

ARITH_WRAPS uint32_t strindex_hash(uint32_t h, const char *s, size_t n)   /* FNV-1a: mod 2^32 */
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

int64_t strindex_find(const struct strindex *ix, uint32_t hash, strindex_eq eq, const void *ctx)
{
    if (!ix->cap)
        return -1;
    for (uint32_t i = hash & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
        const struct strindex_slot *s = &ix->slot[i];
        if (!s->id1)
            return -1;
        if (s->hash == hash && eq(ctx, s->id1 - 1))
            return s->id1 - 1;
    }
}

static void place(struct strindex_slot *t, uint32_t cap, struct strindex_slot e)
{
    uint32_t i = e.hash & (cap - 1);
    while (t[i].id1)
        i = (i + 1) & (cap - 1);
    t[i] = e;
}

int strindex_add(struct strindex *ix, uint32_t hash, uint32_t id)
{
    if (2 * (ix->n + 1) > ix->cap) {
        uint32_t cap = ix->cap ? 2 * ix->cap : 16;
        struct strindex_slot *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (uint32_t i = 0; i < ix->cap; i++)
            if (ix->slot[i].id1)
                place(t, cap, ix->slot[i]);
        free(ix->slot);
        ix->slot = t;
        ix->cap = cap;
    }
    place(ix->slot, ix->cap, (struct strindex_slot){ id + 1, hash });
    ix->n++;
    return 0;
}

void strindex_free(struct strindex *ix)
{
    free(ix->slot);
    ix->slot = NULL;
    ix->cap = ix->n = 0;
}
