/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic_itr.c - interrupt moderation of an ixgbe-like port: the 82599's
 * EITR units, the driver's adaptive ITR, and when a vector's interrupt
 * fires (see nic.h, nic.md).
 */
#include "sim/host.h"
#include "sim/nic.h"

/* Interval the EITR enforces between two interrupts of a vector. The
 * driver counts in quarter-microseconds (IXGBE_8K_ITR = 500, "125 us"),
 * but ixgbe_write_eitr masks the value with IXGBE_MAX_EITR (0xFF8: the
 * 82599's interval field is bits 11:3) and the hardware counts that
 * register value in 256 ns units (2.048 us per step of the field; ixgbe.h
 * IXGBE_MAX_INT_RATE = 488281/s = 1 / 2.048 us). So 500 is 126.976 us,
 * and 490, where the adaptive smoothing settles in integer arithmetic
 * (10 * 500 * 490 / (9 * 500 + 490) = 490), is 124.928 us. */
simtime_t nic_eitr_interval(uint32_t itr)
{
    return (simtime_t)(itr & NIC_EITR_MASK) * 256 * PS_PER_NS;
}

static simtime_t itr_interval(const struct nic_vec *v)
{
    if (v->nic->p.itr_off)
        return 0;
    return nic_eitr_interval(v->itr);
}

/* Ask for an interrupt for work that appears at `at`: it fires at the
 * first write-back after the ITR interval since the previous one. */
void nic_irq_request(struct nic_vec *v, simtime_t at)
{
    if (v->masked || event_pending(&v->irq))
        return;
    simtime_t earliest = v->last_irq + itr_interval(v);
    evq_push(v->nic->host->q, &v->irq, at > earliest ? at : earliest);
}

void nic_irq(struct event *ev)
{
    struct nic_vec *v = ev->ctx;
    struct evq *q = v->nic->host->q;
    v->masked = true;
    v->last_irq = q->now;
    v->irqs++;
    v->from_irq = true;
    v->poll_start = true;
    core_wake(v->core, &v->napi, q->now);
}

/* ixgbe_update_itr + ixgbe_set_itr (3.7): classify the load per interrupt
 * interval, then move the EITR value smoothly toward the class's rate. */
void nic_itr_update(struct nic_vec *v)
{
    if (v->nic->p.itr_us || v->nic->p.itr_off)
        return;
    uint32_t us = v->itr / 4 ? v->itr / 4 : 1;
    uint64_t per_us = v->itr_bytes / us;
    v->itr_bytes = 0;
    switch (v->itr_state) {
    case 0:
        if (per_us > 10)
            v->itr_state = 1;
        break;
    case 1:
        if (per_us > 20)
            v->itr_state = 2;
        else if (per_us <= 10)
            v->itr_state = 0;
        break;
    default:
        if (per_us <= 20)
            v->itr_state = 1;
        break;
    }
    static const uint32_t target[3] = { NIC_ITR_100K, NIC_ITR_20K, NIC_ITR_8K };
    uint32_t t = target[v->itr_state];
    if (t != v->itr)
        v->itr = (uint32_t)((10ULL * t * v->itr) / (9ULL * t + v->itr));
}
