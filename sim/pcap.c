/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcap.c - one capture file per chosen port (see pcap.h, docs/pcap.md):
 * Ethernet and IP built here, the L4 header by the writer of the model
 * that owns the protocol, then the BPF filter and libpcap's dump writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim/pcap.h"
#include "sim/pcap_lib.h"
#include "sim/pcap_wire.h"
#include "sim/route.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

#define ETH_HLEN 14
#define PCAP_TTL 64                /* net.ipv4.ip_default_ttl, hop_limit */
#define IPPROTO_ICMPV6_ 58
#define IPPROTO_FRAGMENT_ 44
/* Room past the snap length, so that a writer can build a header the snap
 * length cuts (its checksum needs all of it). */
#define HDR_SLACK 512

struct pcap_port {
    struct pcap_run *run;
    struct nic *nic;
    struct pcap_file *d;
    uint32_t self, peer;         /* host ids of this port's host and of the link's far end */
    uint8_t self_k, peer_k;      /* their port indices: the address each has on this link */
    uint8_t mac[2][6];           /* this port's, the far end's */
    uint64_t frames, wire_bytes, cap_bytes, filtered;
    char path[512];
};

struct pcap_run {
    struct sim *s;
    struct pcap_lib *lib;
    uint32_t snaplen, bufsize;
    uint8_t *buf;
    pcap_write_fn writer[256];
    bool filter;
    struct pcap_port *ports;
    int nports;
    char dir[400];
    bool made_dir;               /* pcap_run_open created dir: a discard removes it */
};

/* CRC32c, reflected polynomial 0x82F63B78 (RFC 4960 appendix B), by table;
 * the table is built when the first capture opens. */
static uint32_t crc32c_table[256];

static void crc32c_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc32c_table[i] = c;
    }
}

uint32_t pcap_crc32c(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xffffffffu;
    for (uint32_t i = 0; i < n; i++)
        c = crc32c_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return ~c;
}

int pcap_filter_check(const char *expr, uint32_t snaplen, char *err, size_t n)
{
    struct pcap_lib *l = pcaplib_open(snaplen, expr, err, n);
    pcaplib_close(l);
    return l ? 0 : -1;
}

/* A locally administered MAC per port: 02:00:host(16 bits):00:port. */
static void port_mac(uint8_t *m, uint32_t host, int port)
{
    m[0] = 0x02;
    m[1] = 0;
    m[2] = (uint8_t)(host >> 8);
    m[3] = (uint8_t)host;
    m[4] = 0;
    m[5] = (uint8_t)port;
}

static int port_index(const struct nic *n)
{
    for (int k = 0; k < n->host->nnics; k++)
        if (n->host->nics[k] == n)
            return k;
    return 0;
}

/* The address of host `id` in a frame on this port: an end of the link
 * has the address of its port on it (10.K.H.H, K the port's index, so a
 * multi-homed SCTP association shows one address pair per path); any
 * other host, the address of its first port, as host_addr_str prints it. */
static uint8_t addr_index(const struct pcap_port *p, uint32_t id)
{
    return id == p->self ? p->self_k : id == p->peer ? p->peer_k : 0;
}

static void put_addr(uint8_t *o, bool v6, uint32_t id, uint8_t k)
{
    uint32_t a = id + 1;
    if (v6) {                    /* fd00:0:0:K::H, a unique local address per port */
        memset(o, 0, 16);
        o[0] = 0xfd;
        o[7] = k;
        o[14] = (uint8_t)(a >> 8);
        o[15] = (uint8_t)a;
    } else {
        o[0] = 10;
        o[1] = k;
        o[2] = (uint8_t)(a >> 8);
        o[3] = (uint8_t)a;
    }
}

/* TTL as this port sees it: 64 from its source, less one per router on the
 * way (each decrements before it sends). The simulator keeps no TTL, so the
 * routers are counted along the source's route; only forwarded frames
 * walk it. */
static uint8_t frame_ttl(const struct pcap_port *p, const struct skb *skb, bool rx)
{
    uint32_t last = rx ? p->peer : p->self;      /* the host that sent this frame */
    if (skb->saddr == last)
        return PCAP_TTL;
    struct sim *s = p->run->s;
    if (skb->saddr >= (uint32_t)s->nhosts || skb->daddr >= (uint32_t)s->nhosts)
        return PCAP_TTL;
    struct host *h = s->hosts[skb->saddr];
    int routers = 0;
    for (; h->id != last && routers < s->nhosts; routers++) {
        struct nic *n = route_next(h, skb->daddr);
        if (!n || !n->tx_link || !n->tx_link->dst)
            break;
        h = n->tx_link->dst->host;
    }
    return (uint8_t)(PCAP_TTL - (routers < PCAP_TTL ? routers : PCAP_TTL - 1));
}

void pcap_frame(struct pcap_port *p, const struct skb *skb, simtime_t t, bool rx)
{
    struct pcap_run *r = p->run;
    uint8_t *b = r->buf;
    bool v6 = skb->family == NET_IPV6;
    uint32_t frame = ETH_HLEN + skb->ip_len;
    uint32_t caplen = frame < r->snaplen ? frame : r->snaplen;
    memset(b, 0, frame < r->bufsize ? frame : r->bufsize);

    memcpy(b, p->mac[!rx], 6);                   /* destination */
    memcpy(b + 6, p->mac[rx], 6);                /* source */
    wr16(b + 12, v6 ? 0x86dd : 0x0800);
    uint8_t *ip = b + ETH_HLEN;
    uint8_t proto = skb->proto == IPPROTO_ICMP_ && v6 ? IPPROTO_ICMPV6_ : skb->proto;
    uint8_t ttl = frame_ttl(p, skb, rx);
    uint32_t hdr;
    uint32_t pseudo;
    if (v6) {
        wr32(ip, 6u << 28 | (uint32_t)skb->tos << 20);   /* version, traffic class, flow label 0 */
        wr16(ip + 4, skb->ip_len - IPV6_HDR_LEN);
        ip[6] = skb->is_frag ? IPPROTO_FRAGMENT_ : proto;
        ip[7] = ttl;
        put_addr(ip + 8, true, skb->saddr, addr_index(p, skb->saddr));
        put_addr(ip + 24, true, skb->daddr, addr_index(p, skb->daddr));
        hdr = IPV6_HDR_LEN;
        if (skb->is_frag) {      /* RFC 8200 4.5: offset in 8-octet units above the M flag */
            ip[40] = proto;
            wr16(ip + 42, (skb->frag_off & ~7u) | (skb->more_frags ? 1 : 0));
            wr32(ip + 44, skb->ip_id);
            hdr += IPV6_FRAG_LEN;
        }
        pseudo = csum_add(proto, ip + 8, 32);
    } else {
        ip[0] = 0x45;
        ip[1] = skb->tos;
        wr16(ip + 2, skb->ip_len);
        wr16(ip + 4, skb->ip_id);
        wr16(ip + 6, (skb->df ? 0x4000u : 0) | (skb->more_frags ? 0x2000u : 0) | (skb->frag_off >> 3));
        ip[8] = ttl;
        ip[9] = proto;
        put_addr(ip + 12, false, skb->saddr, addr_index(p, skb->saddr));
        put_addr(ip + 16, false, skb->daddr, addr_index(p, skb->daddr));
        uint16_t sum = csum_fold(csum_add(0, ip, IPV4_HDR_LEN));
        /* netem flipped a bit: the receiver drops the packet on a checksum,
         * so the capture shows one that fails (the header's, here) */
        wr16(ip + 10, skb->corrupt ? sum ^ 1u : sum);
        hdr = IPV4_HDR_LEN;
        pseudo = csum_add(proto, ip + 12, 8);
    }
    uint32_t l4off = ETH_HLEN + hdr;
    pcap_write_fn wfn = r->writer[skb->proto];
    if (wfn && skb->ip_len > hdr && (!skb->is_frag || skb->frag_off == 0)) {
        uint32_t len = skb->ip_len - hdr;
        uint32_t room = r->bufsize - l4off;
        struct pcap_l4 w = { .p = b + l4off, .room = len < room ? len : room, .len = len,
                             .cap = caplen > l4off ? caplen - l4off : 0, .pseudo = pseudo, .v6 = v6 };
        if (w.cap > len)
            w.cap = len;
        wfn(skb, &w);
    }

    if (r->filter && !pcaplib_match(r->lib, b, caplen, frame)) {
        p->filtered++;
        return;
    }
    pcaplib_write(p->d, (uint64_t)(t / PS_PER_S), (uint32_t)((t % PS_PER_S) / PS_PER_NS), b, caplen, frame);
    p->frames++;
    p->wire_bytes += frame;
    p->cap_bytes += caplen;
}

/* Which ports of h are captured: those its pcap key names, or every port
 * when no host of the scenario has the key. */
static bool chosen(const struct sim *s, const struct host *h, int k)
{
    for (int i = 0; i < s->nhosts; i++)
        if (s->hosts[i]->pcap_key)
            return h->pcap_ports[k / 64] >> (k % 64) & 1;
    return true;
}

/* Closes and removes every file the run created (and its directory, if
 * it made it and it is empty): a run that does not happen leaves no
 * capture that would read as one of it. */
static void run_discard(struct pcap_run *r)
{
    for (int i = 0; i < r->nports; i++) {
        struct pcap_port *p = &r->ports[i];
        if (!p->d)
            continue;
        pcaplib_file_close(p->d);
        p->d = NULL;
        unlink(p->path);
    }
    if (r->made_dir)
        rmdir(r->dir);
}

static void run_free(struct pcap_run *r)
{
    for (int i = 0; i < r->nports; i++) {
        if (r->ports[i].d)
            pcaplib_file_close(r->ports[i].d);
        if (r->ports[i].nic)
            r->ports[i].nic->pcap = NULL;
    }
    pcaplib_close(r->lib);
    free(r->ports);
    free(r->buf);
    free(r);
}

struct pcap_run *pcap_run_open(struct sim *s, const struct pcap_opts *o, char *err, size_t n)
{
    struct pcap_run *r = xcalloc(1, sizeof *r);
    crc32c_init();
    r->s = s;
    r->snaplen = o->snaplen;
    r->bufsize = o->snaplen + HDR_SLACK;
    r->buf = xmalloc(r->bufsize);
    snprintf(r->dir, sizeof r->dir, "%s", o->dir);
    for (int m = 0; model_at(m); m++)
        if (model_at(m)->pcap_write)
            r->writer[model_at(m)->pcap_proto] = model_at(m)->pcap_write;
    char why[400];
    if (!(r->lib = pcaplib_open(o->snaplen, o->filter, why, sizeof why))) {
        snprintf(err, n, "--pcap-filter: %s", why);
        run_free(r);
        return NULL;
    }
    r->filter = pcaplib_has_filter(r->lib);
    int made = mkdir(o->dir, 0777);
    if (made < 0 && errno != EEXIST) {
        snprintf(err, n, "--pcap %s: %s", o->dir, strerror(errno));
        run_free(r);
        return NULL;
    }
    r->made_dir = made == 0;
    int total = 0;
    for (int i = 0; i < s->nhosts; i++)
        total += s->hosts[i]->nnics;
    r->ports = xcalloc((size_t)(total ? total : 1), sizeof *r->ports);
    for (int i = 0; i < s->nhosts; i++) {
        struct host *h = s->hosts[i];
        for (int k = 0; k < h->nnics; k++) {
            struct nic *nic = h->nics[k];
            if (!chosen(s, h, k) || !nic->tx_link || !nic->tx_link->dst)
                continue;
            struct pcap_port *p = &r->ports[r->nports++];
            const struct nic *peer = nic->tx_link->dst;
            p->run = r;
            p->self = h->id;
            p->peer = peer->host->id;
            p->self_k = (uint8_t)k;
            p->peer_k = (uint8_t)port_index(peer);
            port_mac(p->mac[0], p->self, k);
            port_mac(p->mac[1], p->peer, p->peer_k);
            snprintf(p->path, sizeof p->path, "%s/%s-%s.pcap", o->dir, h->name, nic->name);
            p->d = pcaplib_file(r->lib, p->path, why, sizeof why);
            if (!p->d) {
                snprintf(err, n, "--pcap: %s", why);
                run_discard(r);  /* the files of the ports before it */
                run_free(r);
                return NULL;
            }
            p->nic = nic;
            nic->pcap = p;
            nic->pcap_wire = o->wire;
        }
    }
    return r;
}

void pcap_run_discard(struct pcap_run *r)
{
    run_discard(r);
    run_free(r);
}

int pcap_run_close(struct pcap_run *r, FILE *report)
{
    int rc = 0, lost = 0;
    uint64_t frames = 0, wire = 0, cap = 0, filtered = 0;
    for (int i = 0; i < r->nports; i++) {
        struct pcap_port *p = &r->ports[i];
        bool bad = pcaplib_file_close(p->d) < 0;
        p->d = NULL;
        if (bad) {
            /* a capture cut short where the disk filled would read as one
             * in which the frames stopped: it goes, and the exit says so */
            int e = errno;
            struct stat st;
            bool gone = lstat(p->path, &st) == 0 && S_ISREG(st.st_mode) && unlink(p->path) == 0;
            fprintf(report, "netsim: pcap: %s: write error: %s%s\n", p->path, strerror(e),
                    gone ? "; the partial file is removed" : "");
            rc = -1;
            lost++;
            continue;
        }
        fprintf(report, "netsim: pcap: %s: %llu frames, %llu bytes (%llu written)\n", p->path,
                (unsigned long long)p->frames, (unsigned long long)p->wire_bytes, (unsigned long long)p->cap_bytes);
        frames += p->frames;
        wire += p->wire_bytes;
        cap += p->cap_bytes;
        filtered += p->filtered;
    }
    fprintf(report, "netsim: pcap: %d file%s in %s: %llu frames, %llu bytes of frames, %llu bytes written (snap length %u)",
            r->nports - lost, r->nports - lost == 1 ? "" : "s", r->dir, (unsigned long long)frames, (unsigned long long)wire,
            (unsigned long long)cap, r->snaplen);
    if (r->filter)
        fprintf(report, ", %llu frames left out by the filter", (unsigned long long)filtered);
    fprintf(report, "\n");
    run_free(r);
    return rc;
}
