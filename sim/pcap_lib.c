/*
 * pcap_lib.c - libpcap's dead handle, filter and dump writer (pcap_lib.h).
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/pcap_lib.h"
#include "sim/xalloc.h"

struct pcap_lib {
    pcap_t *dead;
    struct bpf_program prog;
    bool filter;
};

struct pcap_lib *pcaplib_open(uint32_t snaplen, const char *filter, char *err, size_t n)
{
    struct pcap_lib *l = xcalloc(1, sizeof *l);
    l->dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, (int)snaplen, PCAP_TSTAMP_PRECISION_NANO);
    if (!l->dead) {
        snprintf(err, n, "libpcap could not open a dead handle");
        free(l);
        return NULL;
    }
    if (filter && *filter) {
        if (pcap_compile(l->dead, &l->prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
            snprintf(err, n, "%s", pcap_geterr(l->dead));
            pcaplib_close(l);
            return NULL;
        }
        l->filter = true;
    }
    return l;
}

void pcaplib_close(struct pcap_lib *l)
{
    if (!l)
        return;
    if (l->filter)
        pcap_freecode(&l->prog);
    pcap_close(l->dead);
    free(l);
}

struct pcap_file *pcaplib_file(struct pcap_lib *l, const char *path, char *err, size_t n)
{
    pcap_dumper_t *d = pcap_dump_open(l->dead, path);
    if (!d)
        snprintf(err, n, "%s", pcap_geterr(l->dead));
    return (struct pcap_file *)d;
}

int pcaplib_file_close(struct pcap_file *f)
{
    pcap_dumper_t *d = (pcap_dumper_t *)f;
    bool bad = pcap_dump_flush(d) < 0 || ferror(pcap_dump_file(d));
    pcap_dump_close(d);
    return bad ? -1 : 0;
}

bool pcaplib_has_filter(const struct pcap_lib *l)
{
    return l->filter;
}

bool pcaplib_match(const struct pcap_lib *l, const uint8_t *frame, uint32_t caplen, uint32_t len)
{
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.caplen = caplen;
    h.len = len;
    return pcap_offline_filter(&l->prog, &h, frame) != 0;
}

/* The handle's precision is nanoseconds: pcap_dump writes tv_usec as it
 * is, and the file's magic says it counts nanoseconds. */
void pcaplib_write(struct pcap_file *f, uint64_t sec, uint32_t nsec, const uint8_t *frame, uint32_t caplen,
                   uint32_t len)
{
    struct pcap_pkthdr h;
    h.ts.tv_sec = (time_t)sec;
    h.ts.tv_usec = (suseconds_t)nsec;
    h.caplen = caplen;
    h.len = len;
    pcap_dump((u_char *)f, &h, frame);
}
