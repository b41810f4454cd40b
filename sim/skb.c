/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * skb.c - the packet pool (see skb.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/skb.h"
#include "sim/xalloc.h"

#define SLAB 1024

/* The free packets are a stack of pointers, not a list through them: a
 * packet freed from a queue that held it for a round trip (an
 * out-of-order queue behind a loss, netem's delay line) is far from the
 * cache, and the stack lets skb_alloc fetch the next few before they are
 * needed instead of missing on each. Last freed, first reused. */
static struct skb **free_stack;
static size_t nfree, free_cap;
static uint64_t in_use;
static void **slabs;
static size_t nslabs;

#define SKB_PREFETCH 4

/* A slab starts on a cache line, so that each 192-byte packet is three
 * lines, not four: malloc gives a slab this size 16 bytes past a page
 * start, and every packet then straddled a fourth line, the one with its
 * t_due, which the three prefetches of a packet (skb_alloc, netem's
 * tfifo) missed. */
_Static_assert(SLAB * sizeof(struct skb) % 64 == 0, "aligned_alloc: a size in whole lines, as C11 asks");

static struct skb *slab_alloc(void)
{
    /* not cleared: skb_alloc clears each packet it hands out and
     * skb_alloc_copy fills it, and untouched pages stay out of the RSS */
    struct skb *slab = aligned_alloc(64, SLAB * sizeof *slab);
    if (!slab)
        xoom();
    return slab;
}

static void grow(void)
{
    struct skb *slab = slab_alloc();
    void **ns = xrealloc(slabs, (nslabs + 1) * sizeof *ns);
    slabs = ns;
    slabs[nslabs++] = slab;
    free_cap = nslabs * SLAB;
    free_stack = xrealloc(free_stack, free_cap * sizeof *free_stack);
    for (int i = SLAB - 1; i >= 0; i--)
        free_stack[nfree++] = &slab[i];
}

/* Twelve 16-byte stores clear a packet: memset compiles to rep stos here,
 * whose start-up cost was half of skb_alloc's time. may_alias makes the
 * stores legal on any object, aligned(8) asks no more than a packet has. */
typedef long long skb_zero_v __attribute__((vector_size(16), may_alias, aligned(8)));
_Static_assert(sizeof(struct skb) == 12 * sizeof(skb_zero_v), "skb_clear: twelve stores");

static inline void skb_clear(struct skb *s)
{
    skb_zero_v z = { 0, 0 }, *p = (skb_zero_v *)(void *)s;
    p[0] = z; p[1] = z; p[2] = z; p[3] = z; p[4] = z; p[5] = z;
    p[6] = z; p[7] = z; p[8] = z; p[9] = z; p[10] = z; p[11] = z;
}

static inline struct skb *take(void)
{
    if (!nfree)
        grow();
    struct skb *s = free_stack[--nfree];
    if (nfree >= SKB_PREFETCH) {
        const char *p = (const char *)free_stack[nfree - SKB_PREFETCH];
        __builtin_prefetch(p, 1);
        __builtin_prefetch(p + 64, 1);
        __builtin_prefetch(p + 128, 1);
    }
    in_use++;
    return s;
}

struct skb *skb_alloc(void)
{
    struct skb *s = take();
    skb_clear(s);
    return s;
}

struct skb *skb_alloc_copy(const struct skb *src)
{
    struct skb *s = take();
    memcpy(s, src, sizeof *s);
    return s;
}

void skb_free(struct skb *skb)
{
    if (skb->destructor)
        skb->destructor(skb);
    if (skb->rx_page) {
        skb->rx_page->release(skb->rx_page, skb);
        skb->rx_page = NULL;
    }
    skb_drop_frag_list(skb);     /* the datagram's pages go back with it */
    assert(in_use > 0 && nfree < free_cap);   /* more frees than allocations: a double free */
    free_stack[nfree++] = skb;
    in_use--;
}

bool skbq_sums_ok(const struct skb_queue *q)
{
    uint32_t n = 0;
    uint64_t bytes = 0;
    const struct skb *prev = NULL;
    for (const struct skb *s = q->head; s; prev = s, s = s->next) {
        if (s->prev != prev || ++n > q->len)
            return false;
        bytes += s->truesize;
    }
    return n == q->len && bytes == q->bytes && q->tail == prev;
}

void skb_drop_frag_list(struct skb *skb)
{
    for (struct skb *f = skb->frag_list, *nx; f; f = nx) {
        nx = f->next;
        skb_free(f);
    }
    skb->frag_list = NULL;
}

uint64_t skb_in_use(void) { return in_use; }

void skb_pool_release(void)
{
    for (size_t i = 0; i < nslabs; i++)
        free(slabs[i]);
    free(slabs);
    slabs = NULL;
    nslabs = 0;
    free(free_stack);
    free_stack = NULL;
    nfree = free_cap = 0;
    in_use = 0;
}

void skbq_insert_by_due(struct skb_queue *q, struct skb *s)
{
    struct skb *after = q->tail;
    while (after && after->t_due > s->t_due)
        after = after->prev;
    if (after == q->tail) {
        skbq_push(q, s);
        return;
    }
    s->prev = after;
    s->next = after ? after->next : q->head;
    if (after)
        after->next = s;
    else
        q->head = s;
    s->next->prev = s;
    q->len++;
    q->bytes += s->truesize;
    INVARIANT(!s->next || s->next->t_due >= s->t_due);
    INVARIANT_SUM(q->len, skbq_sums_ok(q));
}

void skbq_purge(struct skb_queue *q)
{
    struct skb *s;
    while ((s = skbq_pop(q)))
        skb_free(s);
    INVARIANT(q->len == 0 && q->bytes == 0 && !q->tail);
}

/* Cold: a ring grows a few times per run, to the longest its queue got. */
__attribute__((cold, noinline)) void skb_ring_grow(struct skb_ring *r)
{
    uint32_t cap = r->cap ? 2 * r->cap : 64;
    struct skb **e = xmalloc(sizeof *e * cap);
    for (uint32_t k = 0; k < r->len; k++)
        e[k] = r->e[(r->head + k) & (r->cap - 1)];
    free(r->e);
    r->e = e;
    r->cap = cap;
    r->head = 0;
}

void skb_ring_purge(struct skb_ring *r)
{
    for (uint32_t k = 0; k < r->len; k++)
        skb_free(r->e[(r->head + k) & (r->cap - 1)]);
    free(r->e);
    *r = (struct skb_ring){ 0 };
}
