/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_kernel.c - [host] kernel = RELEASE: the release profiles. Each
 * profile gives, for every behaviour netsim models that changed between
 * releases, the value of the key that selects it, with the commit that
 * brought it in; module.c reads the keys with these as their defaults,
 * so a key set beside `kernel` still wins. docs/models/kernels.md is the
 * same table for users; a behaviour not in the table is 4.15's in every
 * profile, and the profile says so (kernel.modelled, and a warning).
 */
#include <stdio.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp_api.h"
#include "sim/config.h"

/* which value of a key a profile takes, and why (the commit, as "hash
 * title", that made the release behave so; NULL: 4.15's own) */
struct kp_val {
    const char *val, *commit;
};

struct kernel_profile {
    const char *release;
    const char *span;                 /* the releases it stands for */
    struct kp_val drs, win_from_space, loss_detection, dctcp_ack, init_rcvbuf, tsq_limit;
    const char *tcp_rmem;             /* net.ipv4.tcp_rmem's default */
    const char *limit_output_bytes;   /* net.ipv4.tcp_limit_output_bytes's default */
};

/* (macros, not const objects: C11 takes no object as an initializer) */
#define LOSS_415 { "fack_rack", NULL }
#define LOSS_61                                                                                       \
    { "rack_tlp", "b38a51fec1c1 tcp: disable RFC6675 loss detection (4.18, with FACK removed); "     \
                  "76be93fc0702 tcp: allow at most one TLP probe per flight (5.8)" }
#define DCTCP_415 { "delayed", NULL }
#define DCTCP_418                                                                                     \
    { "immediate", "tcp: do not cancel delay-AcK on DCTCP special ACK; tcp: do not delay ACK in DCTCP " \
                   "upon CE status change (4.18)" }
#define RCVBUF_415 { "fixup", NULL }
#define RCVBUF_419                                                                                    \
    { "tcp_rmem", "tcp: up initial rmem to 128KB and SYN rwin to around 64KB; tcp: start receiver "     \
                  "buffer autotuning sooner (4.19, by title)" }
#define TSQ_415 { "all", NULL }
#define TSQ_420 { "unpaced", "c73e5807e4f6 tcp: tsq: no longer use limit_output_bytes for paced flows (4.20)" }
#define LOB_415 "262144"
#define LOB_420 "1048576"
#define RMEM_415 "4096 87380 6291456"
#define RMEM_419 "4096 131072 6291456"
#define WFS_ADV { "adv_win_scale", NULL }
#define WFS_SR { "scaling_ratio", "dfa2f0483360 tcp: get rid of sysctl_tcp_adv_win_scale (6.6)" }

static const struct kernel_profile profiles[] = {
    { "4.15", "4.15", { "trimodal", NULL }, WFS_ADV, LOSS_415, DCTCP_415, RCVBUF_415, TSQ_415, RMEM_415, LOB_415 },
    { "4.16", "4.16, 4.17", { "continuous", "c3916ad9320e (4.16)" }, WFS_ADV, LOSS_415, DCTCP_415, RCVBUF_415,
      TSQ_415, RMEM_415, LOB_415 },
    { "6.1", "6.1 to 6.5", { "continuous", "c3916ad9320e (4.16)" }, WFS_ADV, LOSS_61, DCTCP_418, RCVBUF_419,
      TSQ_420, RMEM_419, LOB_420 },
    { "6.6", "6.6 to 6.15", { "space_from_win", "dfa2f0483360 (6.6)" }, WFS_SR, LOSS_61, DCTCP_418, RCVBUF_419,
      TSQ_420, RMEM_419, LOB_420 },
    { "6.16", "6.16, 6.17", { "rcvbuf_grow", "6.16" }, WFS_SR, LOSS_61, DCTCP_418, RCVBUF_419, TSQ_420, RMEM_419,
      LOB_420 },
    { "6.18", "6.18", { "rcvbuf_grow_rate", "aa251c84636c (6.18)" }, WFS_SR, LOSS_61, DCTCP_418, RCVBUF_419,
      TSQ_420, RMEM_419, LOB_420 },
};
static const char *const releases[] = { "4.15", "4.16", "6.1", "6.6", "6.16", "6.18", NULL };

bool tcp_api_kernel_known(const char *release, char *list, size_t n)
{
    list[0] = 0;
    for (int i = 0; releases[i]; i++) {
        if (!strcmp(release, releases[i]))
            return true;
        snprintf(list + strlen(list), n - strlen(list), "%s%s", i ? ", " : "", releases[i]);
    }
    return false;
}

/* The host's profile, recorded: HOST.kernel.modelled names the release
 * and what of it the model has. No profile is whole yet (pacing, TSQ and
 * the buffer defaults stay 4.15's), so every one but 4.15 says which
 * parts are the release's; the warning says which are not. */
const struct kernel_profile *tcp_kernel_profile(struct cfg_section *sec)
{
    const struct kernel_profile *kp = &profiles[cfg_choice(sec, "kernel", "4.15", releases,
            "Linux release whose TCP this host runs as far as netsim models the differences: 4.15, 4.16 (4.16-4.17), "
            "6.1 (6.1-6.5), 6.6 (6.6-6.15), 6.16 (6.16-6.17), 6.18; it sets tcp.drs, tcp.win_from_space, "
            "tcp.loss_detection, tcp.dctcp_ack, tcp.init_rcvbuf, tcp.tsq_limit and the defaults of "
            "net.ipv4.tcp_rmem and tcp_limit_output_bytes, each still settable; pacing and the other sysctl defaults "
            "stay 4.15's (docs/models/kernels.md)")];
    if (kp == profiles) {
        cfg_record(sec, "kernel.modelled", "4.15");
        return kp;
    }
    char what[160];
    if (strcmp(kp->loss_detection.val, profiles[0].loss_detection.val))
        snprintf(what, sizeof what, "loss detection, DCTCP's ACKs, TSQ's limit, initial receive buffer and "
                 "receive autotuning of %s on a 4.15 TCP", kp->release);
    else
        snprintf(what, sizeof what, "receive autotuning of %s on a 4.15 TCP", kp->release);
    cfg_record(sec, "kernel.modelled", what);
    cfg_warning(sec, "kernel", "%s is the %s: pacing and the other sysctl defaults stay 4.15's "
                "(docs/models/kernels.md)", kp->release, what);
    return kp;
}

const char *tcp_kernel_drs(const struct kernel_profile *kp) { return kp->drs.val; }
const char *tcp_kernel_win_from_space(const struct kernel_profile *kp) { return kp->win_from_space.val; }
const char *tcp_kernel_loss_detection(const struct kernel_profile *kp) { return kp->loss_detection.val; }
const char *tcp_kernel_dctcp_ack(const struct kernel_profile *kp) { return kp->dctcp_ack.val; }
const char *tcp_kernel_init_rcvbuf(const struct kernel_profile *kp) { return kp->init_rcvbuf.val; }
const char *tcp_kernel_tcp_rmem(const struct kernel_profile *kp) { return kp->tcp_rmem; }
const char *tcp_kernel_tsq_limit(const struct kernel_profile *kp) { return kp->tsq_limit.val; }
const char *tcp_kernel_limit_output_bytes(const struct kernel_profile *kp) { return kp->limit_output_bytes; }
