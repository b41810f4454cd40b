/* SPDX-License-Identifier: GPL-2.0-only */
/* linux/btf_ids.h - the sets of functions a module offers BPF programs
 * (6.x's kfunc registration): no BPF here, so a set is an empty object
 * the module can still take the address of */
#ifndef KCOMPAT_LINUX_BTF_IDS_H
#define KCOMPAT_LINUX_BTF_IDS_H
#include <linux/kc_base.h>
struct btf_id_set { u32 cnt; };
struct btf_id_set8 { u32 cnt, flags; };
#define BTF_SET_START(name) static struct btf_id_set name __attribute__((unused)) = { 0 };
#define BTF_SET_END(name)
#define BTF_SET8_START(name) static struct btf_id_set8 name __attribute__((unused)) = { 0, 0 };
#define BTF_SET8_END(name)
#define BTF_ID(kind, name)
#define BTF_ID_FLAGS(kind, name, ...)
#endif
