/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rskb_vec.h - the receive queues' records (struct tcp_rskb_vec, tcp.h):
 * a growable array whose head can move, since the in-order queue is read
 * from the front and the out-of-order queue keeps its records sorted.
 * The common steps (length, index, a push with room) are inline; growing
 * and shifting are in rskb_vec.c.
 */
#ifndef NETSIM_MODELS_TCP_RSKB_VEC_H
#define NETSIM_MODELS_TCP_RSKB_VEC_H

#include <stdint.h>
#include "models/tcp/tcp.h"

/* Room for `extra` more records past hi: the live records are moved to
 * the front when that frees enough, else the array doubles. */
void rskb_vec_grow(struct tcp_rskb_vec *v, uint32_t extra);
/* Record r at position pos (0 = the head); later ones move back one. */
void rskb_vec_insert(struct tcp_rskb_vec *v, uint32_t pos, struct tcp_rskb r);
/* Drops the record at pos; the head moves instead when pos is 0. */
void rskb_vec_erase(struct tcp_rskb_vec *v, uint32_t pos);
void tcp_rskb_vec_free(struct tcp_rskb_vec *v);

static inline uint32_t rskb_vec_len(const struct tcp_rskb_vec *v) { return v->hi - v->lo; }
static inline struct tcp_rskb *rskb_vec_at(struct tcp_rskb_vec *v, uint32_t i) { return &v->v[v->lo + i]; }
static inline void rskb_vec_push(struct tcp_rskb_vec *v, struct tcp_rskb r)
{
    if (v->hi + 1 > v->cap)
        rskb_vec_grow(v, 1);
    v->v[v->hi++] = r;
}

#endif
