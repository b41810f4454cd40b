/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mq.c - the multiqueue container (sch_mq.c, Linux 4.15): one child per
 * TX queue, each net.core.default_qdisc (pfifo_fast unless set), and no
 * queue of its own; what the kernel attaches as root to a device with
 * more than one TX queue, as ixgbe's ports are. Its statistics are its
 * children's sums (mq_dump).
 */
#include "sim/qdisc.h"

static void mq_dump(const struct qdisc *q, FILE *f)
{
    (void)q;
    (void)f;
}

const struct qdisc_ops qdisc_mq = {
    .name = "mq", .mq = true,
    .doc = "a child qdisc per TX queue (net.core.default_qdisc), the kernel's root on a multiqueue port (sch_mq.c, 4.15)",
    .dump = mq_dump,
};
VARIANT("qdisc", qdisc_mq);
