/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_run.c - libFuzzer harness: load, build and run a scenario for at
 * most 2 simulated milliseconds, as `netsim run --no-db` would, with
 * nothing written anywhere.
 *
 * Input: a scenario with optional "--set " lines (fuzz.h). A scenario with
 * sweep axes is expanded and one of its runs built, as `netsim sweep`
 * builds each run; which one is picked from the input's bytes, so the
 * fuzzer can reach every combination.
 *
 * The duration is clamped after the overrides, so that no input can ask
 * for a long run: 2 ms of a 10 Gbit/s world is a few thousand packets per
 * link. The interval is clamped with it, to stay a valid one.
 *
 * Besides crashes and leaks it checks that every packet went back to the
 * pool once the world is freed (the pool is process-wide, so LeakSanitizer
 * would not see a packet that was never freed), and it releases the pool
 * each time, so that memory stays what one input needs. One input in four
 * is built and run a second time, and both runs must end alike (events,
 * clock, every counter): a run depends on its scenario and seed only.
 *
 * Wall time. A task that costs nothing and never blocks (cpu = ideal and
 * an unpaced udp_stream behind a netem delay, which returns the send
 * buffer at once) runs forever at one instant; cpu.c stops the process
 * after 10 million such slices, with a message and exit(1). That is the
 * scenario's mistake, not a crash, and it takes 25 s in this build. So the
 * harness is linked with --wrap=evq_push and sets evq_continue_hook (a
 * core's slice run inline is an event too; the fuzz build compiles the
 * hook in, event.h) and stops a run (as Ctrl-C does,
 * through q->stop) after FUZZ_MAX_AT_ONE_INSTANT events scheduled without
 * the clock moving, or FUZZ_MAX_EVENTS in all. A stop at one instant with
 * no core spinning on zero-cost slices is an engine livelock: a crash.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "sim/config.h"
#include "load/load.h"
#include "sim/event.h"
#include "sim/sim.h"
#include "load/scenario.h"
#include "sim/skb.h"
#include "load/sweep.h"
#include "sim/units.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_DURATION (2 * PS_PER_MS)
/* A world of 64 hosts of 64 cores starts with a few thousand events at
 * t = 0; a UDP sender with a 2 GB send buffer on an ideal CPU fills it in
 * about a million zero-cost sends, which this cuts short, as it should. */
#define FUZZ_MAX_AT_ONE_INSTANT 100000
#define FUZZ_MAX_EVENTS 5000000

static struct {
    simtime_t now;               /* the clock at the last push */
    uint64_t pushes;             /* pushes since it moved */
    bool stuck;                  /* stopped with the clock standing still */
} guard;

/* Every event scheduled, pushed or continued inline (evq_continue_hook),
 * counts towards the bounds. */
static void guard_count(struct evq *q)
{
    if (q->now != guard.now) {
        guard.now = q->now;
        guard.pushes = 0;
    }
    if (++guard.pushes > FUZZ_MAX_AT_ONE_INSTANT && !q->stop) {
        q->stop = true;
        guard.stuck = true;
    }
    if (q->executed > FUZZ_MAX_EVENTS)
        q->stop = true;
}

void __real_evq_push(struct evq *q, struct event *ev, simtime_t t);
void __wrap_evq_push(struct evq *q, struct event *ev, simtime_t t);
void __wrap_evq_push(struct evq *q, struct event *ev, simtime_t t)
{
    guard_count(q);
    __real_evq_push(q, ev, t);
}

/* Is some core running zero-cost slices back to back (cpu.c's guard)? */
static bool spinning(const struct sim *s)
{
    for (int i = 0; i < s->nhosts; i++)
        for (int k = 0; k < s->hosts[i]->ncores; k++)
            if (s->hosts[i]->cores[k].spins > 1000)
                return true;
    return false;
}

static void clamp_time(struct cfg_section *sim, const char *key, simtime_t max, const char *max_text)
{
    const char *why;
    simtime_t t;
    for (int i = 0; i < cfg_key_count(sim); i++) {
        const char *k, *v;
        cfg_key_at(sim, i, &k, &v, NULL);
        if (!strcmp(k, key)) {
            if (!parse_time(v, &t, &why) && t > max)
                cfg_set_value(sim, key, max_text);
            return;
        }
    }
    if (!strcmp(key, "duration"))   /* the default is 10 s */
        cfg_set_value(sim, key, max_text);
}

/* FNV-1a of the input: picks a sweep's run and which inputs run twice. */
static uint32_t input_hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

/* What a run leaves behind, to compare two runs of one scenario. */
struct outcome {
    uint64_t executed;
    simtime_t now;
    uint64_t counters;           /* FNV-1a over every counter's name and value */
    size_t ncounters;
};

/* Builds c and runs it; false if the build reported errors. Packets are
 * all back afterwards and the pool is released. */
static bool build_and_run(struct cfg *c, struct outcome *o)
{
    /* the guard starts afresh before the build, whose pushes it counts:
     * reset after it, a run an earlier input stopped at t = 0 with the
     * guard's count full stopped this one's build too (which then ran 0
     * events where its second run ran 1, failing the check below) */
    guard.now = -1;
    guard.pushes = 0;
    guard.stuck = false;
    struct sim *s = sim_build(c, 0, false);
    bool ok = !cfg_errors(c);
    if (ok) {
        FUZZ_CHECK(s && s->duration <= FUZZ_DURATION);
        /* a build's own pushes (a world of 10^5 flows) may reach the
         * bound: the run is then cut short, but that is no livelock */
        guard.now = -1;
        guard.stuck = false;
        sim_run(s, false);
        if (guard.stuck)
            FUZZ_CHECK(spinning(s));
        o->executed = s->q.executed;
        o->now = s->q.now;
        o->ncounters = s->counters.n;
        uint64_t h = 14695981039346656037ULL;
        for (size_t i = 0; i < s->counters.n; i++) {
            char name[COUNTER_NAME_MAX];
            counter_name(&s->counters.c[i], name, sizeof name);
            for (const char *p = name; *p; p++)
                h = (h ^ (unsigned char)*p) * 1099511628211ULL;
            h = (h ^ *s->counters.c[i].value) * 1099511628211ULL;
        }
        o->counters = h;
    }
    sim_free(s);
    FUZZ_CHECK(skb_in_use() == 0);
    skb_pool_release();
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t h = input_hash(data, size);
    evq_continue_hook = guard_count;
    struct fuzz_input in;
    fuzz_split(&in, data, size);
    struct cfg *c = fuzz_load(&in);
    if (!c)
        goto out;
    fuzz_override(c, &in);
    if (!cfg_errors(c) && cfg_has_axes(c, NULL, NULL)) {
        struct sweep *sw = sweep_expand(c);
        cfg_free(c);
        c = NULL;
        if (!sw)
            goto out;
        c = fuzz_load(&in);
        if (c) {
            fuzz_override(c, &in);
            sweep_apply(c, sw, 1 + (int)(h % (uint32_t)sweep_count(sw)));
        }
        sweep_free(sw);
        if (!c)
            goto out;
    }
    if (cfg_errors(c))
        goto out;
    struct cfg_section *sim = cfg_find(c, "sim", NULL);
    if (sim) {
        clamp_time(sim, "duration", FUZZ_DURATION, "2ms");
        clamp_time(sim, "interval", FUZZ_DURATION, "2ms");
    }
    struct outcome a, b;
    /* One input in four is run again on the same cfg, as `netsim run`
     * builds twice: the same scenario and seed must give the same run
     * (README), whatever the addresses and the pool's state. */
    if (build_and_run(c, &a) && h % 4 == 0) {
        FUZZ_CHECK(build_and_run(c, &b));
        FUZZ_CHECK(a.executed == b.executed && a.now == b.now);
        FUZZ_CHECK(a.ncounters == b.ncounters && a.counters == b.counters);
    }
    cfg_print_errors(c, fuzz_devnull());
out:
    cfg_free(c);
    fuzz_input_free(&in);
    return 0;
}
