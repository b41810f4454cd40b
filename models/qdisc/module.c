/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.c - the queueing disciplines as a model family: `qdisc`, whose
 * variants are the files of this folder, one discipline each (sch_*.c of
 * Linux 4.15 unless a file says otherwise). The family is chosen with tc's
 * words on a link direction ([link] qdisc, fwd.qdisc, rev.qdisc) and with
 * net.core.default_qdisc on a host; load/scenario_links.c reads them and
 * sim/qdisc.c runs them.
 */
#include "sim/qdisc.h"
#include "sim/sim.h"

static const char *qdisc_missing(const void *ops)
{
    const struct qdisc_ops *q = ops;
    if (q->mq)
        return NULL;             /* a container: its children queue */
    if (!q->enqueue)
        return "enqueue";
    if (!q->dequeue)
        return "dequeue";
    if (!q->reset)
        return "reset";
    return NULL;
}

static const struct variant_family qdisc_family = {
    .key = "qdisc", .def = "pfifo_fast", .missing = qdisc_missing,
    .doc = "[link] qdisc / fwd.qdisc / rev.qdisc and [host] net.core.default_qdisc: the sending port's "
           "queueing discipline, in tc's words (tc qdisc add dev DEV root ...)",
};
static const struct variant_family *const families[] = { &qdisc_family, NULL };

const struct model_module qdisc_module = {
    .name = "qdisc",
    .families = families,
};
