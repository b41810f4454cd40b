/*
 * module.c - the sctp family (placeholder until the model is built).
 */
#include <stdio.h>
#include "sim/sim.h"

static void list(void)
{
    printf("  %-16s %s\n", "sctp.rwnd", "old, new (models/sctp.md): not built yet");
    printf("  %-16s %s\n", "sctp.hb", "jitter, lazy: not built yet");
}

const struct model_module sctp_module = {
    .name = "sctp",
    .list = list,
};
