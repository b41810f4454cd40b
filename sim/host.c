/*
 * host.c - hosts: lookup, addresses, sockets by port.
 */
#include <stdio.h>
#include <string.h>
#include "sim/host.h"
#include "sim/sim.h"

struct host *host_find(struct sim *s, const char *name)
{
    for (int i = 0; i < s->nhosts; i++)
        if (!strcmp(s->hosts[i]->name, name))
            return s->hosts[i];
    return NULL;
}

const char *host_addr_str(uint32_t id, char *buf)
{
    sprintf(buf, "10.0.%u.%u", (id + 1) / 256, (id + 1) % 256);
    return buf;
}

/* A list walk: a host has a handful of sockets in every scenario we run;
 * a hash by port would pay off only with hundreds. */
struct sock *host_sock_lookup(struct host *h, uint8_t proto, uint16_t port)
{
    for (struct sock *sk = h->socks; sk; sk = sk->next)
        if (sk->proto == proto && sk->port == port)
            return sk;
    return NULL;
}

uint16_t host_alloc_port(struct host *h)
{
    /* ip_local_port_range starts at 32768 */
    if (h->next_port < 32768)
        h->next_port = 32768;
    return h->next_port++;
}
