/* SPDX-License-Identifier: GPL-2.0-only */
/* asm/div64.h: nothing of its own a congestion-control module uses beyond
 * kc_base.h (types, arithmetic, jiffies, randomness, module macros) */
#ifndef KCOMPAT_ASM_DIV64_H
#define KCOMPAT_ASM_DIV64_H
#include <linux/kc_base.h>
#endif
