/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * view.h - the one header both sides of the layer read: the kernel side
 * (a module and kcompat/kside.c, compiled against kcompat/include/) and
 * netsim's side (kcompat/glue.c, against netsim's headers). The two
 * cannot share a struct by name, since both call theirs `tcp_sock`, so
 * the fields of the kernel-shaped socket are written once here as lists,
 * and each side builds its struct from the same lists: the kernel's
 * `struct sock` / `inet_connection_sock` / `tcp_sock` nest them, glue.c's
 * `struct kc_view` nests the same lists the same way, so one block of
 * memory is both (kside.c reports sizeof and two offsets, which glue.c
 * checks at start-up). netsim writes the fields before each call into a
 * module and reads back the ones a module may change after it: no copy
 * between two layouts on the per-ACK path.
 *
 * Only fields some congestion-control module of 4.x-6.x reads are here;
 * the rest of the kernel's socket does not exist. Plain C types only:
 * the kernel side's u32 is uint32_t, its unsigned long unsigned long.
 */
#ifndef KCOMPAT_VIEW_H
#define KCOMPAT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* icsk_ca_priv: ICSK_CA_PRIV_SIZE was 88 bytes up to 5.x and is 104 in
 * 6.x (13 u64); the view has room for the larger, and kcompat's header
 * gives a module the size its release declares */
#define KC_CA_PRIV_U64 13

/* struct sock */
#define KC_SOCK_FIELDS                                                    \
    unsigned long sk_pacing_rate;       /* bytes per second */           \
    unsigned long sk_max_pacing_rate;                                     \
    uint32_t sk_pacing_status;          /* enum sk_pacing */              \
    uint32_t sk_gso_max_size;                                             \
    uint8_t sk_pacing_shift;                                              \
    uint8_t sk_state;

/* struct inet_connection_sock, after its inet_sock */
#define KC_ICSK_FIELDS                                                    \
    const struct tcp_congestion_ops *icsk_ca_ops;                         \
    uint8_t icsk_ca_state;                                                \
    struct { uint8_t pending; } icsk_ack;     /* ICSK_ACK_TIMER 2, NOW 16 */ \
    uint64_t icsk_ca_priv[KC_CA_PRIV_U64];

/* struct tcp_sock, after its inet_connection_sock. rx_opt is the
 * kernel's tcp_options_received, with the two timestamps only. The
 * kc_* fields are the layer's own: what the kernel keeps elsewhere
 * (the windowed min RTT lives in a minmax, jiffies in a global) */
#define KC_TP_FIELDS                                                      \
    uint32_t snd_cwnd, snd_ssthresh, snd_cwnd_cnt, snd_cwnd_clamp;        \
    uint32_t prior_cwnd, prior_ssthresh, mss_cache;                       \
    uint32_t snd_una, snd_nxt, rcv_nxt, high_seq;                         \
    uint32_t packets_out, sacked_out, lost_out, retrans_out;              \
    uint32_t max_packets_out, lsndtime;                                   \
    uint32_t srtt_us, mdev_us, rttvar_us;                                 \
    uint32_t delivered, delivered_ce, lost, app_limited;                  \
    uint64_t tcp_mstamp, delivered_mstamp, tcp_wstamp_ns, tcp_clock_cache; \
    struct { uint32_t rcv_tsval, rcv_tsecr; uint8_t saw_tstamp; } rx_opt; \
    uint8_t is_cwnd_limited, ecn_flags;                                   \
    uint8_t kc_req;                   /* KC_REQ_*: asked of netsim's core */ \
    uint32_t kc_min_rtt_us;                                               \
    uint64_t kc_now_ns, kc_rng;                                           \
    void *kc_owner;                   /* netsim's socket, for callbacks */

/* kc_req: what a module asked of the TCP core during a call, done by
 * glue.c after it returns (tcp_enter_cwr) */
enum { KC_REQ_CWR = 1 };

/* What netsim's side gives each tree at load: the calls a module makes
 * into the core that must happen in the middle of its own (DCTCP sends
 * the ACK for the data before a CE change, then changes its flags) */
struct kc_host {
    void (*send_ack)(void *view, uint32_t rcv_nxt);
    uint32_t (*random_u32)(void *view);
};

/* What kside.c's kc_layout reports, for glue.c's check */
struct kc_layout_info {
    size_t size, off_icsk_ca_state, off_snd_cwnd, off_kc_now_ns;
};

/* The rate sample (6.x's struct rate_sample fields, neutral types),
 * handed across by value: kside.c fills the module's own struct from it */
struct kc_rs {
    uint64_t prior_mstamp;
    uint32_t prior_delivered;
    int32_t delivered;
    long interval_us, rtt_us;
    int losses;
    uint32_t acked_sacked, prior_in_flight;
    bool is_app_limited;
};

/* get_info's answer, in netsim's terms (the union glue.c turns into
 * netsim's tcp_cc_info) */
struct kc_info {
    int kind;                     /* 0 none, 1 vegas, 2 dctcp, 3 bbr */
    uint32_t a, b, c, d, e;
    uint64_t bw;
};

/* A module parameter (module_param): its name, description, kind and
 * the variable itself, which is per run (as a write to
 * /sys/module/NAME/parameters/P would be) */
enum { KC_P_INT, KC_P_UINT, KC_P_BOOL, KC_P_ULONG };
struct kc_param {
    const char *name, *desc;
    int kind;
    void *var;
};

#define KC_MAX_PARAMS 16

/* Hooks a module's ops have: bits for glue.c, which registers only those
 * (netsim calls nothing a module left NULL, as the kernel does not) */
enum {
    KC_H_INIT = 1, KC_H_RELEASE = 2, KC_H_CONG_AVOID = 4, KC_H_CONG_CONTROL = 8, KC_H_SET_STATE = 16,
    KC_H_CWND_EVENT = 32, KC_H_IN_ACK_EVENT = 64, KC_H_PKTS_ACKED = 128, KC_H_MIN_TSO = 256,
    KC_H_SNDBUF = 512, KC_H_INFO = 1024, KC_H_TSO_GOAL = 2048,
};

/* One module of a tree, after its module_init ran */
struct kc_mod {
    const char *name;             /* the ops' name: "cubic" */
    const char *file;             /* "tcp_cubic.c" */
    const void *ops;              /* its struct tcp_congestion_ops */
    uint32_t hooks, flags;        /* KC_H_*; the ops' flags (TCP_CONG_NEEDS_ECN 2) */
    struct kc_param params[KC_MAX_PARAMS];
    int nparams;
};

/* A tree's entry point, the one global symbol of its object (renamed
 * kc_tree_N by the build): the modules and the calls into them, each
 * taking the socket's view (a block of layout.size bytes) */
struct kc_tree {
    const char *release;          /* VERSION.PATCHLEVEL.SUBLEVEL of the tree */
    void (*load)(const struct kc_host *host);   /* runs every module_init once */
    const struct kc_mod *(*mod)(const char *file);   /* by source file, NULL: not loaded */
    void (*layout)(struct kc_layout_info *out);
    /* sets module m's parameter i from a decimal value as sysfs would
     * (through the module's own param ops where it has them) and runs its
     * module_init again, as a modprobe with that value: 0, or -1 refused */
    int (*param_set)(const struct kc_mod *m, int i, long long v);
    long long (*param_get)(const struct kc_mod *m, int i);
    void (*init)(const struct kc_mod *m, void *view);
    void (*release_)(const struct kc_mod *m, void *view);
    uint32_t (*ssthresh)(const struct kc_mod *m, void *view);
    uint32_t (*undo_cwnd)(const struct kc_mod *m, void *view);
    void (*cong_avoid)(const struct kc_mod *m, void *view, uint32_t ack, uint32_t acked);
    void (*cong_control)(const struct kc_mod *m, void *view, const struct kc_rs *rs);
    void (*set_state)(const struct kc_mod *m, void *view, uint8_t st);
    void (*cwnd_event)(const struct kc_mod *m, void *view, int ev);
    void (*in_ack_event)(const struct kc_mod *m, void *view, uint32_t flags);
    void (*pkts_acked)(const struct kc_mod *m, void *view, uint32_t pkts, int32_t rtt_us, uint32_t in_flight);
    uint32_t (*min_tso_segs)(const struct kc_mod *m, void *view);   /* 4.15: tso_segs_goal, KC_H_TSO_GOAL */
    uint32_t (*sndbuf_expand)(const struct kc_mod *m, void *view);
    void (*get_info)(const struct kc_mod *m, void *view, struct kc_info *out);
};

#endif
