/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ss_line.c - building a socket's ss info line (ss_line.h).
 */
#include "sim/ss_line.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "sim/sim.h"
/* after the engine: <netinet/in.h> makes macros of the IP_PMTUDISC_ names
 * that sim/sock.h declares */
#include <arpa/inet.h>

void ss_put(struct ss_line *l, const char *fmt, ...)
{
    if (l->len >= sizeof l->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->text + l->len, sizeof l->text - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

void ss_series(struct ss_line *l, const char *name, double v)
{
    char key[128];
    snprintf(key, sizeof key, "%sss.%s", l->prefix, name);
    sim_series(l->s, key, v);
}

void ss_u(struct ss_line *l, const char *name, uint64_t v)
{
    if (!v)
        return;
    ss_put(l, " %s:%" PRIu64, name, v);
    ss_series(l, name, (double)v);
}

const char *ss_addr(char *buf, size_t n, uint32_t id, unsigned k, uint8_t family)
{
    uint8_t b[16] = { 0 };
    uint32_t a = id + 1;
    if (family == NET_IPV6) {
        b[0] = 0xfd;
        b[7] = (uint8_t)k;
        b[14] = (uint8_t)(a >> 8);
        b[15] = (uint8_t)a;
        return inet_ntop(AF_INET6, b, buf, (socklen_t)n);
    }
    b[0] = 10;
    b[1] = (uint8_t)k;
    b[2] = (uint8_t)(a >> 8);
    b[3] = (uint8_t)a;
    return inet_ntop(AF_INET, b, buf, (socklen_t)n);
}

void ss_endpoint(char *buf, size_t n, uint32_t id, uint16_t port, uint8_t family)
{
    char a[INET6_ADDRSTRLEN];
    ss_addr(a, sizeof a, id, 0, family);
    snprintf(buf, n, family == NET_IPV6 ? "[%s]:%u" : "%s:%u", a, port);
}
