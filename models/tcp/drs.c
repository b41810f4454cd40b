/*
 * drs.c - dynamic right sizing, the part both variants share (Linux 4.15
 * tcp_rcv_space_adjust with the Dec 2017 patches 1/3 and 2/3: u64 window
 * arithmetic, window_clamp from rcvbuf; tcp.md §3.8). Once per receiver
 * RTT, at the first chunk the reader copies after it, the bytes copied in
 * the period set the new buffer: rcvwin = 2*copied + 16*advmss, grown by
 * the variant's rule (drs_trimodal.c, drs_continuous.c), converted to
 * memory at rcvmem per advmss, capped at tcp_rmem[2], and never lowered.
 */
#include <stdio.h>
#include <string.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"

/* rcvmem = SKB_TRUESIZE(advmss + MAX_TCP_HEADER), raised by 128 until half
 * of it (adv_win_scale 1) holds an advmss: 2996 for advmss 1460. */
uint64_t tcp_drs_rcvmem(const struct tcp_sock *tp)
{
    int64_t rcvmem = TCP_SKB_OVERHEAD + tp->advmss + MAX_TCP_HEADER;
    while (tcp_win_from_space(tp, rcvmem) < tp->advmss)
        rcvmem += 128;
    return (uint64_t)rcvmem;
}

uint64_t tcp_drs_new_rcvbuf(const struct tcp_drs_ops *drs, uint64_t copied, uint64_t space, uint32_t advmss,
                            uint64_t rcvmem, uint64_t rmem_max)
{
    uint64_t rcvwin = (copied << 1) + 16ULL * advmss;     /* "2x to cope with losses" */
    rcvwin = drs->grow(rcvwin, copied, space);
    uint64_t rcvbuf = rcvwin / advmss * rcvmem;
    return rcvbuf < rmem_max ? rcvbuf : rmem_max;
}

void tcp_rcv_space_adjust(struct tcp_sock *tp, simtime_t now)
{
    int64_t now_us = now / PS_PER_US;
    int64_t elapsed = now_us - tp->rcvq_time_us;
    if (tp->rcv_rtt_us8 == 0 || elapsed < (tp->rcv_rtt_us8 >> 3))
        return;
    uint64_t copied = tp->copied_seq - tp->rcvq_seq;
    tp->st.drs_calls++;
    uint64_t old_rcvbuf = tp->sk.rcvbuf;
    if (copied <= tp->rcvq_space) {
        tp->st.drs_below_space++;
    } else {
        if (tp->th->moderate_rcvbuf && !tp->rcvbuf_locked) {
            uint64_t rcvbuf = tcp_drs_new_rcvbuf(tp->drs, copied, tp->rcvq_space, tp->advmss, tcp_drs_rcvmem(tp),
                                                 tp->th->rmem[2]);
            if (rcvbuf > tp->sk.rcvbuf) {
                tp->sk.rcvbuf = (uint32_t)rcvbuf;
                tp->window_clamp = (uint64_t)tcp_win_from_space(tp, (int64_t)rcvbuf);
                tp->st.drs_raised++;
            } else {
                tp->st.drs_not_raised++;
            }
        }
    }
    if (tp->drs_log)
        fprintf(tp->drs_log, "%.6f %.6f %llu %llu %.4f %u %llu %u %llu %.3f\n", time_to_s(now), elapsed / 1e6,
                (unsigned long long)copied, (unsigned long long)tp->rcvq_space,
                tp->rcvq_space ? (double)copied / (double)tp->rcvq_space : 0.0, (unsigned)old_rcvbuf,
                (unsigned long long)tp->sk.rcvbuf, (unsigned)tp->window_clamp, (unsigned long long)tp->rcvq_space,
                (double)(tp->rcv_rtt_us8 >> 3) / 1000.0);
    if (tp->trace_prefix && tp->sim) {
        char name[96];
        snprintf(name, sizeof name, "%sdrs_r", tp->trace_prefix);
        sim_series(tp->sim, name, tp->rcvq_space ? (double)copied / (double)tp->rcvq_space : 0.0);
    }
    if (copied > tp->rcvq_space)
        tp->rcvq_space = copied;                           /* high-water mark */
    tp->rcvq_seq = tp->copied_seq;
    tp->rcvq_time_us = now_us;
}
