/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_qdisc.c - libFuzzer harness: the qdisc family on its own, without a
 * world: a tree built from tc's words (a discipline, htb's classes and u32
 * filters, netem at its leaves), then packets through it from a script,
 * against a device whose TX queues stop and restart, with the watchdog's
 * events run, then the tree freed.
 *
 * Input: text lines, then an optional line "--" and the script's bytes.
 *   first line            the discipline, as after `tc qdisc add ... root`
 *   class MINOR WORDS     an htb class (MINOR hex), WORDS as after its classid
 *   filter WORDS          a u32 filter
 *   netem                 netem at the leaves (netem_at = leaf), 1 ms
 *   queues N              TX queues of the device (1 to 16; mq's children)
 * The script, four bytes a step: 0-1: a packet of 64 to 65535 bytes of
 * flow b[2] with TOS b[3] (every fourth one a GSO packet); 2: time goes by
 * b[1] * 2^(b[2] % 24) ns and the events run; 3: TX queue b[1] stops or
 * restarts (qdisc_root_restart, as the NIC's TX clean).
 *
 * Besides crashes and leaks (every packet back to the pool once the tree
 * is freed) it checks the engine's bookkeeping after each step: the tree's
 * occupancy never wraps, and the top discipline's qlen and backlog agree
 * (both zero or both not). The events and steps are bounded, so an input
 * runs in bounded time.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/qdisc_parse.h"
#include "sim/event.h"
#include "sim/netem.h"
#include "sim/qdisc.h"
#include "sim/sim.h"
#include "sim/skb.h"
#include "tests/fuzz/fuzz.h"

#define MAX_CLASSES 80
#define MAX_FILTERS 80
#define MAX_STEPS 4096
#define MAX_EVENTS 200000

static bool stopped[16];
static uint64_t sent;

static bool dev_stopped(void *d, unsigned txq)
{
    (void)d;
    return stopped[txq & 15];
}

static void dev_xmit(void *d, struct skb *skb, simtime_t t, void *core)
{
    (void)d;
    (void)t;
    (void)core;
    sent++;
    skb_free(skb);
}

static const struct qdisc_dev_ops dev_ops = { dev_stopped, dev_xmit };

/* hosts a, b, c (ids 0 to 2) and their 10.0.0.N addresses */
static int host_id(void *ctx, const char *name)
{
    (void)ctx;
    static const char *const names[] = { "a", "b", "c", "10.0.0.1", "10.0.0.2", "10.0.0.3" };
    for (int i = 0; i < 6; i++)
        if (!strcmp(name, names[i]))
            return i % 3;
    return -1;
}

static struct skb *packet(const uint8_t *b, uint32_t n, uint8_t queues)
{
    struct skb *s = skb_alloc();
    uint32_t len = 64 + ((uint32_t)b[0] << 8 | b[1]) % 65472;
    s->family = NET_IPV4;
    s->proto = (b[2] & 3) == 0 ? IPPROTO_UDP_ : (b[2] & 3) == 1 ? IPPROTO_TCP_ : (b[2] & 3) == 2 ? IPPROTO_ICMP_ : 132;
    s->saddr = b[2] >> 6 & 3;
    s->daddr = (b[2] >> 4 & 3) % 3;
    s->sport = (uint16_t)(1000 + (b[2] & 15));
    s->dport = (uint16_t)(5201 + (b[3] & 3));
    s->tos = b[3];
    s->ip_len = len - 14;
    s->payload = s->ip_len > 40 ? s->ip_len - 40 : 0;
    if (n % 4 == 3 && s->payload > 1448)
        s->gso_size = 1448;      /* a GSO packet of several segments */
    s->hash = (uint32_t)b[2] * 2654435761u;
    s->truesize = len + 256;
    s->queue = (uint8_t)(b[2] % queues);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    models_install();   /* the qdisc variants qdisc_parse looks up; again, nothing */
    struct fuzz_input in;
    fuzz_split(&in, data, size);
    char *text = in.text, *script = NULL;
    size_t script_len = 0;
    char *sep = strstr(text, "\n--\n");
    if (sep) {
        *sep = 0;
        script = sep + 4;
        script_len = in.len - (size_t)(script - text);
    }
    struct qdisc_args a;
    struct qdisc_class_spec *cl = calloc(MAX_CLASSES, sizeof *cl);
    struct qdisc_filter_spec *fl = calloc(MAX_FILTERS, sizeof *fl);
    FUZZ_CHECK(cl && fl);
    char err[600];
    uint32_t nc = 0, nf = 0;
    uint8_t queues = 1;
    bool netem = false, ok = true;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line || qdisc_parse(line, &a, err, sizeof err)) {
        FUZZ_CHECK(!line || *err);
        goto out;
    }
    struct qdisc_args child;
    if (qdisc_parse("pfifo_fast", &child, err, sizeof err))
        FUZZ_CHECK(0);
    if (a.ops->mq)
        a.child = &child;
    while (ok && (line = strtok_r(NULL, "\n", &save))) {
        unsigned minor, n;
        int at = 0;
        if (sscanf(line, "class %x %n", &minor, &at) == 1 && at && nc < MAX_CLASSES) {
            if (qdisc_parse_class(a.ops, minor & 0xffff, line + at, &cl[nc], err, sizeof err) == 0)
                nc++;
            else
                FUZZ_CHECK(*err);
        } else if (!strncmp(line, "filter ", 7) && nf < MAX_FILTERS) {
            if (qdisc_parse_filter(line + 7, &fl[nf], host_id, NULL, err, sizeof err) == 0)
                nf++;
            else
                FUZZ_CHECK(*err);
        } else if (!strcmp(line, "netem")) {
            netem = true;
        } else if (sscanf(line, "queues %u", &n) == 1) {
            queues = (uint8_t)(n < 1 ? 1 : n > 16 ? 16 : n);
        }
    }
    a.classes = cl;
    a.nclasses = nc;
    a.filters = fl;
    a.nfilters = nf;

    struct evq q;
    evq_init(&q);
    evq_current = &q;
    memset(stopped, 0, sizeof stopped);
    struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000, .num_tx_queues = queues,
                             .rate = 10000000000ULL, .seed = size };
    struct qdisc_args no = { .ops = variant_find("qdisc", "netem") };
    netem_opts_init(&no.netem);
    no.netem.latency = PS_PER_MS;
    err[0] = 0;
    struct qdisc_root *r = qdisc_root_new_netem(&a, &dev, &q, &dev_ops, NULL, netem ? &no : NULL, err, sizeof err);
    if (!r) {
        FUZZ_CHECK(*err);
        evq_free(&q);
        goto out;
    }
    FUZZ_CHECK(qdisc_mem_estimate(&a, &dev) > 0);
    simtime_t now = 0;
    for (size_t i = 0; script && i + 4 <= script_len && i / 4 < MAX_STEPS && q.executed < MAX_EVENTS; i += 4) {
        const uint8_t *b = (const uint8_t *)script + i;
        switch (b[0] % 4) {
        case 0:
        case 1:
            qdisc_root_xmit(r, packet(b + 1, (uint32_t)(i / 4), queues), now, NULL);
            break;
        case 2:
            now += (simtime_t)b[1] * ((simtime_t)1 << (b[2] % 24)) * PS_PER_NS;
            evq_run(&q, now);
            now = q.now > now ? q.now : now;
            break;
        default:
            stopped[b[1] % queues] = !stopped[b[1] % queues];
            /* the device's restart, as the NIC's TX clean calls it (a
             * root netem sends what it kept; it is never dequeued) */
            if (!stopped[b[1] % queues])
                qdisc_root_restart(r, b[1] % queues, now, NULL, true);
        }
        FUZZ_CHECK(r->qlen < (1ull << 40) && r->backlog < (1ull << 62));
        if (!r->top->ops->mq)
            FUZZ_CHECK(!r->top->st.qlen == !r->top->st.backlog);
    }
    qdisc_root_free(r);
    evq_free(&q);
    FUZZ_CHECK(skb_in_use() == 0);
    skb_pool_release();
out:
    free(cl);
    free(fl);
    fuzz_input_free(&in);
    return 0;
}
