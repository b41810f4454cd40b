/* SPDX-License-Identifier: GPL-2.0-only */
/* linux/win_minmax.h - Kathleen Nichols' windowed min/max filter as BBR
 * uses it: the best, second and third best samples of a sliding window,
 * each with its time (kcompat/kside.c runs it) */
#ifndef KCOMPAT_LINUX_WIN_MINMAX_H
#define KCOMPAT_LINUX_WIN_MINMAX_H
#include <linux/kc_base.h>
struct minmax_sample { u32 t, v; };
struct minmax { struct minmax_sample s[3]; };
static inline u32 minmax_get(const struct minmax *m) { return m->s[0].v; }
static inline u32 minmax_reset(struct minmax *m, u32 t, u32 meas)
{
    m->s[0].t = m->s[1].t = m->s[2].t = t;
    m->s[0].v = m->s[1].v = m->s[2].v = meas;
    return meas;
}
u32 minmax_running_max(struct minmax *m, u32 win, u32 t, u32 meas);
u32 minmax_running_min(struct minmax *m, u32 win, u32 t, u32 meas);
#endif
