/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_sb.c - a host's shared buffer (host_sb.h), in devlink's words:
 * devlink sb pool set DEV pool 0 size BYTES thtype dynamic|static and
 * devlink sb port pool set DEV/PORT pool 0 th N, one threshold for every
 * port.
 */
#include <string.h>
#include "load/host_sb.h"
#include "sim/config.h"
#include "sim/host.h"
#include "sim/qdisc.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

void host_sb_read(struct sim *s, struct host *h)
{
    struct cfg_section *sec = h->sec;
    uint64_t size = cfg_size(sec, "sb.size", "0", 0, 1ULL << 32,
            "{0 (none)|0 to 4G} bytes of the shared buffer every port's egress queues draw from, as devlink sb pool "
            "set DEV pool 0 size BYTES on a switch ASIC (0: each port's qdisc limit alone bounds its queue)");
    static const char *const types[] = { "dynamic", "static", NULL };
    bool dynamic = cfg_choice(sec, "sb.thtype", "dynamic", types,
            "the ports' threshold (devlink's thtype): dynamic, a port may hold "
            "alpha times the pool's free bytes (Choudhury and Hahne's dynamic threshold); static, th bytes") == 0;
    cfg_str(sec, "sb.th", "9",
            "{9 (alpha 1/2, mlxsw's egress pool default)|3 to 16, or bytes} each port's threshold "
            "(devlink sb port pool set ... th): dynamic, alpha = 2^(th - 10) as mlxsw maps it (10: a port alone "
            "may fill half the pool); static, the bytes a port may hold");
    if (!size) {
        /* a warning, not an error: a key set to its default is accepted
         * everywhere (a sweep may turn the pool off) */
        for (int i = 0; i < 2; i++) {
            const char *k = i ? "sb.th" : "sb.thtype";
            if (cfg_has(sec, k))
                cfg_warning(sec, k, "no shared buffer to apply it to, so it does nothing: sb.size is 0 (devlink sb "
                            "pool set DEV pool 0 size BYTES)");
        }
        return;
    }
    h->sb = xcalloc(1, sizeof *h->sb);
    h->sb->size = size;
    h->sb->dynamic = dynamic;
    if (dynamic)
        h->sb->alpha_log2 = (int)cfg_int(sec, "sb.th", "9", 3, 16, NULL) - 10;   /* documented above */
    else if (!cfg_has(sec, "sb.th"))
        cfg_error(sec, "sb.thtype", "a static threshold needs sb.th in bytes (a port's share of the pool)");
    else
        h->sb->th_bytes = cfg_size(sec, "sb.th", "0", 1, size, NULL);
    sim_counterf(s, &h->sb->used_max, false, "%s.sb.occ_max", h->name);
}
