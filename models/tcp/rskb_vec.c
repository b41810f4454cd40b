/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rskb_vec.c - growing and shifting the receive queues' records
 * (rskb_vec.h).
 */
#include <stdlib.h>
#include <string.h>
#include "models/tcp/rskb_vec.h"
#include "sim/xalloc.h"

void rskb_vec_grow(struct tcp_rskb_vec *v, uint32_t extra)
{
    if (v->hi + extra <= v->cap)
        return;
    uint32_t n = v->hi - v->lo;
    if (v->lo > 0 && n + extra <= v->cap / 2) {
        memmove(v->v, v->v + v->lo, n * sizeof *v->v);
        v->lo = 0;
        v->hi = n;
        return;
    }
    uint32_t cap = v->cap ? v->cap * 2 : 256;
    while (cap < n + extra)
        cap *= 2;
    struct tcp_rskb *nv = xmalloc(cap * sizeof *nv);
    if (n)
        memcpy(nv, v->v + v->lo, n * sizeof *nv);
    free(v->v);
    v->v = nv;
    v->cap = cap;
    v->lo = 0;
    v->hi = n;
}

void rskb_vec_insert(struct tcp_rskb_vec *v, uint32_t pos, struct tcp_rskb r)
{
    rskb_vec_grow(v, 1);
    uint32_t n = rskb_vec_len(v);
    memmove(&v->v[v->lo + pos + 1], &v->v[v->lo + pos], (n - pos) * sizeof r);
    v->v[v->lo + pos] = r;
    v->hi++;
}

void rskb_vec_erase(struct tcp_rskb_vec *v, uint32_t pos)
{
    if (pos == 0) {
        v->lo++;
    } else {
        memmove(&v->v[v->lo + pos], &v->v[v->lo + pos + 1], (rskb_vec_len(v) - pos - 1) * sizeof *v->v);
        v->hi--;
    }
    if (v->lo == v->hi)
        v->lo = v->hi = 0;
}

void tcp_rskb_vec_free(struct tcp_rskb_vec *v)
{
    free(v->v);
    memset(v, 0, sizeof *v);
}
