/*
 * module.c - the tcp family (placeholder until the model is built).
 */
#include <stdio.h>
#include "sim/sim.h"

static void list(void)
{
    printf("  %-16s %s\n", "tcp.cc", "reno, cubic, bbr (models/tcp.md): not built yet");
    printf("  %-16s %s\n", "tcp.drs", "trimodal, continuous: not built yet");
}

const struct model_module tcp_module = {
    .name = "tcp",
    .list = list,
};
