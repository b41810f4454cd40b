/* SPDX-License-Identifier: GPL-2.0-only */
/* linux/skbuff.h: nothing of its own a congestion-control module uses beyond
 * kc_base.h (types, arithmetic, jiffies, randomness, module macros) */
#ifndef KCOMPAT_LINUX_SKBUFF_H
#define KCOMPAT_LINUX_SKBUFF_H
#include <linux/kc_base.h>
#endif
