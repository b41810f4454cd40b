/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * glue.h - netsim's side of the layer: each congestion-control module a
 * kernel tree built (make KSRC=...) is a tcp.cc variant, NAME@LABEL, whose
 * ops (glue.c) fill the socket's kernel-shaped view, call the module
 * through its tree's entry, and read back what it changed. The build
 * writes BUILD/kc/kvariants.c: one kc_gtree per tree, one kc_variant per
 * module that compiled, and their VARIANT lines; its constructor calls
 * kc_install before main, which loads each tree, fills each variant's
 * hooks and keys (the module's parameters), and says of a module that
 * did not load why.
 */
#ifndef KCOMPAT_GLUE_H
#define KCOMPAT_GLUE_H

#include "kcompat/view.h"
#include "models/tcp/tcp.h"

struct kc_gtree {
    const struct kc_tree *t;
    const char *label, *dir;
    struct kc_layout_info lay;
};

struct kc_variant {
    struct tcp_cc_ops ops;        /* first: a socket's tp->cc points here */
    struct kc_gtree *tree;
    const char *file;             /* "tcp_cubic.c" */
    const struct kc_mod *mod;     /* after kc_install; NULL: did not load */
    struct variant_key keys[VARIANT_MAX_KEYS + 1];
    char defs[VARIANT_MAX_KEYS][24];
    char docs[VARIANT_MAX_KEYS][256];
};

/* Loads every tree and fills the variants (NULL-terminated) */
void kc_install(struct kc_variant *const *vars);

#endif
