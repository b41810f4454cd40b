/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * costs.c - the CPU profiles' data (see costs.h).
 *
 * `xeon-2012` is a Sandy Bridge-EP class core (about 2.6 GHz) running a
 * 3.x kernel, the machine of the SCTP receive-window and IPv4 fragmentation
 * cases (docs/cases/). Figures marked [spec] come
 * from the model specifications netsim was written from (NIC and IPv4
 * reassembly costs); [est] are estimates of the
 * same order as published per-packet costs (a 3.x UDP receive path is about
 * 1 to 2 us per packet all told) and are listed so they can be measured and
 * replaced. `ideal` costs nothing: it isolates the network from the CPU
 * (for latency tests that must come out exactly).
 */
#include <string.h>
#include "sim/costs.h"
#include "sim/cpu.h"

static const struct cost_row xeon_2012[] = {
    { "ixgbe_msix_clean_rings", 1500, false, "[spec] nic.md 4.1 C_irq: hard IRQ, schedule NAPI, softirq entry" },
    { "ixgbe_poll",              200, false, "[spec] nic.md 4.2 C_poll: one NAPI poll call" },
    { "ixgbe_clean_rx_irq",      250, false, "[spec] nic.md 3.2 C_drv: descriptor, skb head, header copy, DMA sync, GRO attempt" },
    { "ixgbe_alloc_rx_buffers",  400, false, "[spec] nic.md 3.2 C_page: new page + dma_map when the half page is still held" },
    { "ixgbe_clean_tx_irq",      100, false, "[est] per packet: DMA unmap, free the skb, sock_wfree" },
    { "ixgbe_xmit_frame",        200, false, "[est] dev_queue_xmit, pfifo_fast, descriptors and doorbell MMIO" },
    { "ip_rcv",                  350, false, "[spec] ipfrag.md 9 C_stack: __netif_receive_skb, ip_rcv, fib_lookup" },
    { "ip_output",               200, false, "[est] route lookup, IP header, neighbour output" },
    { "ip_forward",              300, false, "[est] forwarding a packet on a middle host" },
    /* IPv6's path under its own names: the same work as IPv4's on a 40-byte
     * header with no checksum, the route from fib6 */
    { "ipv6_rcv",                350, false, "[est] as ip_rcv: __netif_receive_skb, ipv6_rcv, ip6_rcv_finish, "
      "fib6_lookup, ip6_input" },
    { "ip6_output",              200, false, "[est] as ip_output: ip6_xmit's route and header, ip6_finish_output2" },
    { "ip6_forward",             300, false, "[est] as ip_forward: ip6_forward's checks and hop limit" },
    { "icmp_rcv",                300, false, "[est] ICMP input: build and send an echo reply, or note a path MTU" },
    { "udp_rcv",                 300, false, "[est] socket lookup and queueing; ipfrag.md's C_udp 1500 = this + try_to_wake_up" },
    { "udpv6_rcv",               300, false, "[est] as udp_rcv, for a datagram over IPv6: __udp6_lib_rcv" },
    { "try_to_wake_up",         1200, false, "[spec] ipfrag.md 9: C_udp minus udp_rcv, the wake-up IPI of a sleeping reader" },
    { "schedule",               2000, false, "[spec] ipfrag.md 9: netserver +2 us wake-up (context switch in)" },
    { "udp_sendmsg",             500, false, "[est] syscall entry, skb allocation, UDP/IP headers" },
    { "copy_from_user",          0.1, true, "[est] cache-hot copy, about 10 GB/s; the NIC computes the checksum (CHECKSUM_PARTIAL)" },
    { "csum_partial_copy_generic", 0.38, true, "[spec] copy with software checksum: ipfrag.md 9's 25 us per 64 KB datagram" },
    { "udp_recvmsg",             600, false, "[est] syscall entry, dequeue, skb free" },
    { "copy_to_user",            0.1, true, "[est] cache-hot copy, about 10 GB/s; the NIC validated the checksum (CHECKSUM_UNNECESSARY)" },
    { "loopback_xmit",           150, false, "[est] loopback_xmit + netif_rx: orphan, enqueue on the per-CPU backlog" },
    { "process_backlog",         100, false, "[est] NET_RX softirq dequeue from the per-CPU backlog" },
    { "ping_send",               500, false, "[est] sendmsg of an ICMP echo request" },
    { "icmp_send",               500, false, "[est] build and route an ICMP error (fragmentation needed)" },
    { NULL, 0, false, NULL },
};

static const struct cost_row ideal[] = {
    { NULL, 0, false, NULL },
};

static const struct cpu_profile profiles[] = {
    { "xeon-2012", "Sandy Bridge-EP class core, about 2.6 GHz, 3.x kernel (docs/cases/sctp-rwnd.md, ipfrag.md)", xeon_2012 },
    { "xeon-2015-kvm", "a 4.4-era KVM guest (docs/cases/sctp-heartbeat.md); engine rows as xeon-2012 [est], SCTP rows from models/sctp", xeon_2012 },
    { "modern", "the xeon-2012 core with a 4.17+ kernel (docs/models/ipfrag.md): engine rows as xeon-2012, model rows from models/ipfrag", xeon_2012 },
    { "ideal", "every cost zero: the network alone, for exact latency checks", ideal },
};

const struct cpu_profile *cpu_profile_find(const char *name)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (!strcmp(profiles[i].name, name))
            return &profiles[i];
    return NULL;
}

const struct cpu_profile *cpu_profile_at(int i)
{
    if (i < 0 || (size_t)i >= sizeof profiles / sizeof profiles[0])
        return NULL;
    return &profiles[i];
}

void cpu_profiles_register_symbols(void)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        for (const struct cost_row *r = profiles[i].rows; r->symbol; r++)
            cpu_sym(r->symbol);
}
