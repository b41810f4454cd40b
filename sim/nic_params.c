/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic_params.c - a port's parameters from its host's section: rings,
 * interrupts, queues, BQL (nic.h; the keys are documented in nic.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "sim/nic.h"

void nic_params_read(struct nic_params *p, struct cfg_section *sec, int ncores)
{
    memset(p, 0, sizeof *p);
    p->rx_ring = (uint32_t)cfg_int(sec, "rx_ring_size", "512", 64, 4096,
                                   "RX descriptors per queue, a multiple of 8 (ethtool -G rx; ixgbe default 512)");
    p->tx_ring = (uint32_t)cfg_int(sec, "tx_ring_size", "512", 64, 4096,
                                   "TX descriptors per queue, a multiple of 8 (ethtool -G tx; ixgbe default 512)");
    if (p->rx_ring % 8)
        cfg_error(sec, "rx_ring_size", "got %u, expected a multiple of 8 (ethtool -G)", p->rx_ring);
    if (p->tx_ring % 8)
        cfg_error(sec, "tx_ring_size", "got %u, expected a multiple of 8 (ethtool -G)", p->tx_ring);
    p->refill_batch = (uint32_t)cfg_int(sec, "rx_refill_batch", "16", 1, 4096,
            "cleaned RX descriptors handed back to the NIC at once (ixgbe's IXGBE_RX_BUFFER_WRITE 16)");
    static const char *const bufs[] = { "auto", "1536", "2048", "3072", "4096", NULL };
    static const uint32_t bufv[] = { 0, 1536, 2048, 3072, 4096 };
    p->rx_buf_size = bufv[cfg_choice(sec, "rx_buf_size", "auto", bufs,
            "RX buffer per descriptor in bytes: auto is ixgbe's choice for the port's MTU, 2048 (half a 4K page) "
            "up to 1500 and 3072 (IXGBE_RXBUFFER_3K, half an 8K page) above; a larger frame spans several")];
    p->rx_hdr_size = (uint32_t)cfg_size(sec, "rx_hdr_size", "256", 64, 4096,
            "frames up to this size are copied into the skb head and the page reused (IXGBE_RX_HDR_SIZE 256)");
    p->skb_head_truesize = (uint32_t)cfg_size(sec, "skb_head_truesize", "896", 256, 65536,
            "truesize charged for an skb head (a copied small frame; plus rx_buf_size for a page frame)");
    char def[16];
    snprintf(def, sizeof def, "%d", ncores < NIC_MAX_QUEUES ? ncores : NIC_MAX_QUEUES);
    p->num_queues = (uint32_t)cfg_int(sec, "num_rx_queues", def, 1, NIC_MAX_QUEUES,
            "{cores, at most 16|1 to 16} RX/TX queue pairs, one interrupt vector each (ixgbe: one per core)");
    p->rss_udp_ports = cfg_bool(sec, "rss_udp_ports", "off",
            "RSS hashes UDP ports too (ethtool -N rx-flow-hash udp4 sdfn); off: addresses only, the ixgbe default");
    const char *itr = cfg_str(sec, "itr", "adaptive",
            "{|adaptive or 0 to 1022us} interrupt throttle: adaptive (ethtool -C rx-usecs 1, the default) "
            "or a fixed interval, 0 = off");
    if (!strcmp(itr, "adaptive")) {
        p->itr_us = 0;
    } else {
        simtime_t t = cfg_time(sec, "itr", "0", 0, 1022 * PS_PER_US, NULL);   /* documented as first read */
        p->itr_us = (uint32_t)(t / PS_PER_US);
        p->itr_off = (p->itr_us == 0);
    }
    p->napi_weight = (uint32_t)cfg_int(sec, "napi_weight", "64", 1, 1024,
                                       "packets one NAPI poll may take before yielding (Linux default 64)");
    p->tx_work_limit = (uint32_t)cfg_int(sec, "tx_work_limit", "256", 1, 4096,
                                         "TX completions cleaned per poll (ixgbe default 256)");
    p->rx_latency = cfg_time(sec, "nic_rx_latency", "1us", 0, PS_PER_MS,
                             "DMA and descriptor write-back time from the wire to the RX ring");
    p->txqueuelen = (uint32_t)cfg_int(sec, "txqueuelen", "1000", 1, 1000000,
            "packets the pfifo qdisc of each TX queue holds while the ring is full (Linux default 1000)");
    const char *xps = cfg_str(sec, "xps", "off",
                              "{|off, cpu} TX queue choice: off (flow hash) or cpu (the sending core's queue, XPS)");
    if (!strcmp(xps, "cpu"))
        p->xps = true;
    else if (strcmp(xps, "off"))
        cfg_error(sec, "xps", "got '%s', expected off or cpu", xps);
    p->bql = cfg_bool(sec, "bql", "on",
            "byte queue limits on each TX ring (lib/dynamic_queue_limits.c; ixgbe calls it since Linux 3.3): "
            "on, or off as a kernel without CONFIG_BQL");
    p->bql_limit_min = (uint32_t)cfg_size(sec, "bql.limit_min", "0", 0, DQL_MAX_LIMIT,
            "BQL's least limit in bytes (/sys/class/net/DEV/queues/tx-N/byte_queue_limits/limit_min; default 0)");
    p->bql_limit_max = (uint32_t)cfg_size(sec, "bql.limit_max", "1879048192", 0, DQL_MAX_LIMIT,
            "BQL's greatest limit in bytes (byte_queue_limits/limit_max; default DQL_MAX_LIMIT, 1879048192)");
    p->bql_hold = dql_jiffies(cfg_time(sec, "bql.hold_time", "1s", PS_PER_MS, 1000 * PS_PER_S,
            "time over which BQL takes the least slack before it lowers the limit (byte_queue_limits/hold_time; "
            "default HZ, 1 s)"));
    if (p->bql_limit_min > p->bql_limit_max)
        cfg_error(sec, "bql.limit_min", "got %u, expected at most bql.limit_max (%u)", p->bql_limit_min,
                  p->bql_limit_max);
    /* without BQL its knobs do nothing: a warning, and an error when one
     * is a sweep axis (its runs would be one run under several labels) */
    static const char *const bql_keys[] = { "bql.limit_min", "bql.limit_max", "bql.hold_time" };
    for (int i = 0; !p->bql && i < 3; i++)
        cfg_inert(sec, bql_keys[i], "bql", "%s is BQL's; this host's bql is off", bql_keys[i]);
    p->tso = cfg_bool(sec, "tso", "on",
            "TCP segmentation offload (ethtool -K tso; ixgbe sets it on): TCP hands the port GSO packets and the "
            "NIC cuts them into MSS frames on the wire");
    p->gso = cfg_bool(sec, "gso", "on",
            "generic segmentation offload (ethtool -K gso; register_netdevice turns it on for every device): with "
            "tso off, TCP still builds GSO packets and the stack cuts them after the qdisc, before the driver");
    p->gro = cfg_bool(sec, "gro", "on",
            "generic receive offload (ethtool -K gro; register_netdevice turns it on for every device): NAPI merges "
            "a flow's in-order TCP segments into one skb of up to 64 KB before the stack sees them");
    p->lro = cfg_bool(sec, "lro", "off",
            "large receive offload (ethtool -K lro): the 82599's RSC, which ixgbe turns on (ixgbe_sw_init) unless the "
            "host forwards; not modelled, so off, and on is refused: GRO does the merging");
    if (p->lro)                  /* accepted, it did nothing */
        cfg_error(sec, "lro", "lro = on is not modelled (the 82599's RSC merges in hardware, which netsim has no "
                  "model of); expected off: receive merging is GRO's (gro = on, the default)");
    p->gso_max_size = (uint32_t)cfg_size(sec, "gso_max_size", "65536", 1500, 65536,
            "largest GSO packet the port takes, bytes (ip link set DEV gso_max_size; GSO_MAX_SIZE 65536)");
    p->gso_max_segs = (uint32_t)cfg_int(sec, "gso_max_segs", "65535", 1, 65535,
            "most segments in one GSO packet (ip link set DEV gso_max_segs; GSO_MAX_SEGS 65535)");
    for (uint32_t i = 0; i < NIC_MAX_QUEUES; i++)
        p->queue_cpu[i] = (int)(i % (uint32_t)ncores);
    const char *pin = cfg_str(sec, "rx_queue_cpu", "",
            "{queue i on core i mod cores|core numbers} the core that serves each RX queue's interrupt, "
            "\"0, 1, 2\" (smp_affinity)");
    if (*pin) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", pin);
        uint32_t i = 0;
        for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", "), i++) {
            char *end;
            long v = strtol(tok, &end, 10);
            if (*end || v < 0 || v >= ncores || i >= NIC_MAX_QUEUES) {
                cfg_error(sec, "rx_queue_cpu", "got '%s', expected a comma-separated list of core numbers 0 to %d",
                          pin, ncores - 1);
                break;
            }
            p->queue_cpu[i] = (int)v;
        }
    }
}
