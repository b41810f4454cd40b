/*
 * evictors.c - the ipfrag.evictor variants, by name. A new variant is one
 * file with its ops struct plus one line here.
 */
#include <string.h>
#include "models/ipfrag/frag.h"

extern const struct frag_evict_ops frag_evict_lru, frag_evict_lru_warm, frag_evict_drop_new;

static const struct frag_evict_ops *const evictors[] = {
    &frag_evict_lru,
    &frag_evict_lru_warm,
    &frag_evict_drop_new,
};

const struct frag_evict_ops *frag_evictor_at(int i)
{
    return i >= 0 && (size_t)i < sizeof evictors / sizeof evictors[0] ? evictors[i] : NULL;
}

const struct frag_evict_ops *frag_evictor_find(const char *name)
{
    for (int i = 0; frag_evictor_at(i); i++)
        if (!strcmp(frag_evictor_at(i)->name, name))
            return frag_evictor_at(i);
    return NULL;
}
