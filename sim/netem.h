/*
 * netem.h - per-direction impairments in tc-netem's own option syntax.
 *
 *   delay = 50ms                 fixed one-way delay
 *   delay = 50ms 1ms             with jitter, uniform in [-1ms, +1ms]
 *   delay = 50ms 1ms distribution normal
 *   loss  = 1%                   independent (Bernoulli) loss; also "random 1%"
 *   loss  = gemodel p r 1-h 1-k  Gilbert-Elliott, netem's argument order
 *   reorder = 25%                that share skips the delay (needs delay)
 *
 * As netem does, a lost packet is dropped before it reaches the wire. Unlike
 * netem with jitter, packets keep FIFO order unless reorder is asked for
 * (a delayed packet waits for the one before it), which is how a real path
 * with varying delay but no reordering behaves.
 */
#ifndef NETSIM_NETEM_H
#define NETSIM_NETEM_H

#include <stdbool.h>
#include "rng.h"
#include "time.h"

enum netem_dist { NETEM_UNIFORM, NETEM_NORMAL };
enum netem_loss { NETEM_LOSS_NONE, NETEM_LOSS_RANDOM, NETEM_LOSS_GEMODEL };

struct netem {
    simtime_t delay, jitter;
    enum netem_dist dist;
    double reorder;
    enum netem_loss loss;
    double p;                    /* random: loss probability; GE: P(good->bad) */
    double r;                    /* GE: P(bad->good) */
    double loss_bad, loss_good;  /* GE: 1-h and 1-k */
    bool bad;                    /* GE state */
};

void netem_init(struct netem *n);
/* Parsers: 0 or -1 with *why saying what was expected. */
int netem_parse_delay(struct netem *n, const char *s, const char **why);
int netem_parse_loss(struct netem *n, const char *s, const char **why);
int netem_parse_reorder(struct netem *n, const char *s, const char **why);

/* Long-run loss rate the parameters imply. */
double netem_loss_rate(const struct netem *n);
/* Draw: is this packet lost? */
bool netem_lose(struct netem *n, struct rng *r);
/* Draw this packet's delay; *reordered set when it skips the queue. */
simtime_t netem_delay(struct netem *n, struct rng *r, bool *reordered);

#endif
