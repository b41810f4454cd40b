/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host.c - hosts: lookup, addresses, sockets by port.
 */
#include <stdio.h>
#include <string.h>
#include "sim/hash.h"
#include "sim/host.h"
#include "sim/xalloc.h"
#include "sim/sim.h"

struct host_probe {
    const struct sim *s;
    const char *name;
};

static bool host_name_eq(const void *ctx, uint32_t id)
{
    const struct host_probe *p = ctx;
    return !strcmp(p->s->hosts[id]->name, p->name);
}

/* By name through an index: a file of 100 000 hosts names each twice or
 * more in its links, and a scan per name made loading quadratic. */
struct host *host_find(struct sim *s, const char *name)
{
    struct host_probe p = { s, name };
    int64_t i = strindex_find(&s->host_index, strindex_hash(STRINDEX_SEED, name, strlen(name)), host_name_eq, &p);
    return i < 0 ? NULL : s->hosts[i];
}

void host_index_add(struct sim *s, struct host *h)
{
    if (strindex_add(&s->host_index, strindex_hash(STRINDEX_SEED, h->name, strlen(h->name)), (uint32_t)h->index))
        xoom();
}

void host_peers_alloc(struct host *h)
{
    size_t n = h->npeers ? h->npeers : 1;
    h->ip_id = xcalloc(n, sizeof *h->ip_id);
    h->pmtu[0] = xcalloc(n, sizeof *h->pmtu[0]);
    h->pmtu[1] = xcalloc(n, sizeof *h->pmtu[1]);
}

const char *host_addr_str(uint32_t id, char *buf)
{
    sprintf(buf, "10.0.%u.%u", (id + 1) / 256, (id + 1) % 256);
    return buf;
}

static uint32_t sock_key_hash(uint8_t proto, uint16_t port)
{
    return sim_hash64((uint64_t)proto << 16 | port);
}

static void sock_hash_put(struct host *h, struct sock *sk)
{
    uint32_t b = sock_key_hash(sk->proto, sk->port) & (h->sock_hash_size - 1);
    sk->hnext = h->sock_hash[b];
    h->sock_hash[b] = sk;
}

/* Chains hold the newest socket first, as h->socks does, so a lookup finds
 * the socket the list walk found. */
void host_sock_add(struct host *h, struct sock *sk)
{
    if (h->nsocks >= h->sock_hash_size) {
        free(h->sock_hash);
        h->sock_hash_size = h->sock_hash_size ? 2 * h->sock_hash_size : 16;
        h->sock_hash = xcalloc(h->sock_hash_size, sizeof *h->sock_hash);
        /* h->socks is newest first: put the oldest in first */
        struct sock *rev = NULL;
        for (struct sock *p = h->socks; p; p = p->next)
            if (p != sk) {
                p->hnext = rev;
                rev = p;
            }
        for (struct sock *p = rev, *n; p; p = n) {
            n = p->hnext;
            sock_hash_put(h, p);
        }
    }
    sock_hash_put(h, sk);
    h->nsocks++;
}

void host_socks_forget(struct host *h, uint8_t proto)
{
    struct sock **pp = &h->socks;
    while (*pp) {
        if ((*pp)->proto == proto) {
            *pp = (*pp)->next;
            h->nsocks--;
        } else {
            pp = &(*pp)->next;
        }
    }
    /* the index again from the list, oldest first, as host_sock_add builds it */
    for (uint32_t b = 0; b < h->sock_hash_size; b++)
        h->sock_hash[b] = NULL;
    struct sock *rev = NULL;
    for (struct sock *p = h->socks; p; p = p->next) {
        p->hnext = rev;
        rev = p;
    }
    for (struct sock *p = rev, *n; p; p = n) {
        n = p->hnext;
        sock_hash_put(h, p);
    }
}

struct sock *host_sock_lookup(struct host *h, uint8_t proto, uint16_t port)
{
    if (!h->sock_hash_size)
        return NULL;
    for (struct sock *sk = h->sock_hash[sock_key_hash(proto, port) & (h->sock_hash_size - 1)]; sk; sk = sk->hnext)
        if (sk->proto == proto && sk->port == port)
            return sk;
    return NULL;
}

/* N flows on a tool's default port were N^2 / 2 lookups from the same
 * start (57 % of setting up 10 000 flows); the memo makes them N. */
uint16_t host_free_port(struct host *h, uint8_t proto, uint16_t from)
{
    if (!from)
        from = 1;
    struct port_memo *m = NULL;
    for (int i = 0; i < 4; i++)
        if (h->port_memo[i].at && h->port_memo[i].proto == proto && h->port_memo[i].from == from)
            m = &h->port_memo[i];
    if (!m) {
        m = &h->port_memo[h->port_memo_next];
        h->port_memo_next = (uint8_t)((h->port_memo_next + 1) % 4);
        *m = (struct port_memo){ .proto = proto, .from = from, .at = from };
    }
    uint32_t p = m->at;
    while (p <= 65535 && host_sock_lookup(h, proto, (uint16_t)p))
        p++;
    m->at = p;
    return p <= 65535 ? (uint16_t)p : 0;
}

uint16_t host_alloc_port(struct host *h)
{
    /* ip_local_port_range starts at 32768 */
    if (h->next_port < 32768)
        h->next_port = 32768;
    return h->next_port++;
}
