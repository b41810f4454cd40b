/*
 * module.c - the ipfrag family (placeholder until the model is built).
 */
#include <stdio.h>
#include "sim/sim.h"

static void list(void)
{
    printf("  %-16s %s\n", "ipfrag.evictor", "lru, lru-warm, drop-new (models/ipfrag.md): not built yet");
}

const struct model_module ipfrag_module = {
    .name = "ipfrag",
    .list = list,
};
