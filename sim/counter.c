/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counter.c - a run's counters (counter.h): the table and the names it
 * keeps, carved from 64 KB chunks since they are small and live until
 * the run is freed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/counter.h"
#include "sim/xalloc.h"

#define NAME_CHUNK 65536

/* A new counter row; its name is set by the caller. */
static struct counter *counter_new(struct counters *cs, const uint64_t *value, bool is_drop)
{
    cs->c = xgrow(cs->c, sizeof *cs->c, cs->n, &cs->cap, 64);
    struct counter *c = &cs->c[cs->n++];
    c->prefix = "";
    c->value = value;
    c->is_drop = is_drop;
    return c;
}

const char *counters_keep_name(struct counters *cs, const char *str)
{
    size_t n = strlen(str) + 1;
    if (n > cs->name_left) {
        size_t size = n > NAME_CHUNK ? n : NAME_CHUNK;
        cs->name_chunks = xrealloc(cs->name_chunks, sizeof *cs->name_chunks * (size_t)(cs->nname_chunks + 1));
        cs->name_at = cs->name_chunks[cs->nname_chunks++] = xmalloc(size);
        cs->name_left = size;
    }
    char *p = cs->name_at;
    memcpy(p, str, n);
    cs->name_at += n;
    cs->name_left -= n;
    return p;
}

void counters_add(struct counters *cs, const char *name, const uint64_t *value, bool is_drop)
{
    struct counter *c = counter_new(cs, value, is_drop);
    c->name = counters_keep_name(cs, name);
}

void counters_add_in(struct counters *cs, const char *prefix, const char *name, const uint64_t *value,
                     bool is_drop)
{
    struct counter *c = counter_new(cs, value, is_drop);
    c->prefix = prefix;
    c->name = name;
}

void counters_addf(struct counters *cs, const uint64_t *value, bool is_drop, const char *fmt, ...)
{
    char name[COUNTER_NAME_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    counters_add(cs, name, value, is_drop);
}

void counter_name(const struct counter *c, char *dst, size_t n)
{
    size_t la = strnlen(c->prefix, n - 1), lb = strnlen(c->name, n - 1 - la);
    memcpy(dst, c->prefix, la);
    memcpy(dst + la, c->name, lb);
    dst[la + lb] = '\0';
}

void counters_free(struct counters *cs)
{
    free(cs->c);
    for (int i = 0; i < cs->nname_chunks; i++)
        free(cs->name_chunks[i]);
    free(cs->name_chunks);
    *cs = (struct counters){ 0 };
}
