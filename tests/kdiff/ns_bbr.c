/* SPDX-License-Identifier: GPL-2.0-only */
/* ns_bbr.c - cc_bbr.c compiled into the differential check (nside.h) */
#include "models/tcp/cc_bbr.c"
#include <string.h>
#include "tests/kdiff/nside.h"

uint64_t ns_mm_running_max(uint64_t s[6], uint32_t win, uint32_t t, uint64_t v)
{
    struct mm_sample m[3];
    for (int i = 0; i < 3; i++)
        m[i] = (struct mm_sample){ (uint32_t)s[2 * i], s[2 * i + 1] };
    uint64_t r = mm_running_max(m, win, t, v);
    for (int i = 0; i < 3; i++) {
        s[2 * i] = m[i].t;
        s[2 * i + 1] = m[i].v;
    }
    return r;
}

uint64_t ns_bbr_bw_to_pacing_rate(uint64_t bw, int gain, uint32_t mss, bool ts_ok, bool ipv6)
{
    static struct tcp_sock tp;
    memset(&tp, 0, sizeof tp);
    tp.mss = mss;
    tp.ts_ok = ts_ok;
    tp.sk.family = ipv6 ? NET_IPV6 : NET_IPV4;
    return bw_to_pacing_rate(&tp, bw, gain);
}
