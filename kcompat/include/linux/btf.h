/* SPDX-License-Identifier: GPL-2.0-only */
/* linux/btf.h - registering a module's kfunc set with BPF, which
 * succeeds and does nothing: no BPF program runs in netsim */
#ifndef KCOMPAT_LINUX_BTF_H
#define KCOMPAT_LINUX_BTF_H
#include <linux/btf_ids.h>
enum bpf_prog_type { BPF_PROG_TYPE_UNSPEC, BPF_PROG_TYPE_STRUCT_OPS = 27 };
struct btf_kfunc_id_set {
    struct module *owner;
    struct btf_id_set8 *set;
    struct btf_id_set *check_set;
};
static inline int register_btf_kfunc_id_set(enum bpf_prog_type t, const struct btf_kfunc_id_set *s)
{
    (void)t, (void)s;
    return 0;
}
#endif
