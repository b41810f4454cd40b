/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * red.h - RED's arithmetic as Linux 4.15 has it (include/net/red.h,
 * lib/reciprocal_div.c) and as tc 4.15 prepares its parameters
 * (iproute2's tc/tc_red.c, q_red.c), for red.c and its tests.
 *
 * The average is a fixed-point number with its point at Wlog bits, in
 * bytes of backlog (qdisc_pkt_len); thresholds are stored shifted the
 * same way; max_P is a Q0.32 probability. An idle period decays the
 * average through tc's table Stab, indexed by the idle time in
 * microseconds >> Scell_log. tc fills that table for a clock of psched
 * ticks (64 ns, tick_in_usec 15.625) while 4.15's kernel indexes it with
 * microseconds, so an idle queue's average decays 15.6 times more slowly
 * than tc meant: that is the kernel's behaviour and it is kept.
 */
#ifndef NETSIM_RED_H
#define NETSIM_RED_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/time.h"

#define RED_STAB_SIZE 256
#define RED_STAB_MASK (RED_STAB_SIZE - 1)
/* DIV_ROUND_CLOSEST(1ULL << 32, 100) */
#define RED_ONE_PERCENT ((uint32_t)(((1ULL << 32) + 50) / 100))
#define MAX_P_MIN (1 * RED_ONE_PERCENT)
#define MAX_P_MAX (50 * RED_ONE_PERCENT)

/* lib/reciprocal_div.c: a / d as a multiply and two shifts */
struct reciprocal_value {
    uint32_t m;
    uint8_t sh1, sh2;
};
struct reciprocal_value reciprocal_value(uint32_t d);
static inline uint32_t reciprocal_divide(uint32_t a, struct reciprocal_value r)
{
    uint32_t t = (uint32_t)(((uint64_t)a * r.m) >> 32);
    return (t + ((a - t) >> r.sh1)) >> r.sh2;
}

struct red_parms {
    uint32_t qth_min, qth_max;   /* << Wlog */
    uint32_t Scell_max;
    uint32_t max_P;              /* Q0.32 */
    struct reciprocal_value max_P_reciprocal;   /* of max_P / qth_delta */
    uint32_t qth_delta;          /* max - min, bytes */
    uint32_t target_min, target_max;   /* adaptive RED's band: min + 0.4 and 0.6 of delta */
    uint8_t Scell_log, Wlog, Plog;
    uint8_t Stab[RED_STAB_SIZE];
};

struct red_vars {
    int qcount;                  /* packets since the last mark, -1: none counted */
    uint32_t qR;                 /* the cached random draw */
    uint64_t qavg;               /* unsigned long on the kernel's 64-bit builds */
    simtime_t qidlestart;
    bool idling;                 /* the kernel's qidlestart != 0 (ktime is never 0 there; here it can be) */
};

enum { RED_DONT_MARK, RED_PROB_MARK, RED_HARD_MARK };

/* tc_red.c: the EWMA's log2(1/W) for a burst; Plog; the idle table and
 * its Scell_log. -1 where tc fails (its message in *why). */
int tc_red_eval_ewma(uint32_t qmin, uint32_t burst, uint32_t avpkt, const char **why);
int tc_red_eval_P(uint32_t qmin, uint32_t qmax, double prob);
int tc_red_eval_idle_damping(int Wlog, uint32_t avpkt, uint32_t bytes_per_s, uint8_t *sbuf);
/* q_red.c: max_P = probability * 2^32 as a u32 (1.0 wraps to 0, which
 * the kernel then derives from Plog) */
uint32_t tc_red_max_P(double probability);

bool red_check_params(uint32_t qth_min, uint32_t qth_max, uint8_t Wlog);
void red_set_parms(struct red_parms *p, uint32_t qth_min, uint32_t qth_max, uint8_t Wlog, uint8_t Plog,
                   uint8_t Scell_log, const uint8_t *stab, uint32_t max_P);
void red_set_vars(struct red_vars *v);

/* The average at a packet's arrival: the EWMA step on the backlog, or the
 * idle decay when the queue has been empty since qidlestart */
uint64_t red_calc_qavg_from_idle_time(const struct red_parms *p, const struct red_vars *v, simtime_t now);
static inline uint64_t red_calc_qavg_no_idle_time(const struct red_parms *p, const struct red_vars *v,
                                                  uint32_t backlog)
{
    /* qavg * (1 - W) + backlog * W, with the point at Wlog; the
     * subtraction wraps in 64 bits as the kernel's unsigned long does */
    return v->qavg + ((uint64_t)backlog - (v->qavg >> p->Wlog));
}
static inline uint64_t red_calc_qavg(const struct red_parms *p, const struct red_vars *v, uint32_t backlog,
                                     simtime_t now)
{
    return v->idling ? red_calc_qavg_from_idle_time(p, v, now) : red_calc_qavg_no_idle_time(p, v, backlog);
}

/* The draw prandom_u32 gives, scaled to [0, 2^32 / (max_P / delta)) */
static inline uint32_t red_random(const struct red_parms *p, uint32_t prandom)
{
    return reciprocal_divide(prandom, p->max_P_reciprocal);
}
/* max_P * (qavg - min) / (max - min) < rnd / qcount, without a divide */
static inline bool red_mark_probability(const struct red_parms *p, const struct red_vars *v, uint64_t qavg)
{
    return !(((qavg - p->qth_min) >> p->Wlog) * (uint64_t)(int64_t)v->qcount < v->qR);
}
/* RED_DONT_MARK, RED_PROB_MARK or RED_HARD_MARK; draw() is prandom_u32,
 * called only when the kernel draws */
int red_action(const struct red_parms *p, struct red_vars *v, uint64_t qavg, uint32_t (*draw)(void *), void *ctx);
/* Adaptive RED every 500 ms: max_P up by min(1 %, max_P / 4) above the
 * band, down by 10 % below it */
void red_adaptative_algo(struct red_parms *p, struct red_vars *v, simtime_t now);

/* A red discipline's parameters and state (tests read the kernel's
 * integers there) */
struct qdisc;
const struct red_parms *red_qdisc_parms(const struct qdisc *q);
const struct red_vars *red_qdisc_vars(const struct qdisc *q);

#endif
