/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcap_lib.c - libpcap's dead handle, filter and dump writer (pcap_lib.h).
 *
 * libpcap is opened with dlopen when a capture or a filter check first
 * needs it, not linked: Debian's libpcap brings libdbus, libsystemd,
 * libgcrypt and five more libraries, and loading them took about 3 ms of
 * every netsim process (a run, each run of a sweep, --help), whether it
 * captured or not. The header gives the functions' types; their addresses
 * come from dlsym.
 */
#include <dlfcn.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/pcap_lib.h"
#include "sim/xalloc.h"

/* The library's names, newest SONAME first: Debian and Ubuntu install
 * libpcap.so.0.8, most other distributions libpcap.so.1. */
static const char *const lib_names[] = { "libpcap.so.0.8", "libpcap.so.1", "libpcap.so" };

static struct {
    bool tried, ok;
    char err[256];
    __typeof__(pcap_open_dead_with_tstamp_precision) *open_dead;
    __typeof__(pcap_compile) *compile;
    __typeof__(pcap_geterr) *geterr;
    __typeof__(pcap_freecode) *freecode;
    __typeof__(pcap_close) *close;
    __typeof__(pcap_dump_open) *dump_open;
    __typeof__(pcap_dump_flush) *dump_flush;
    __typeof__(pcap_dump_file) *dump_file;
    __typeof__(pcap_dump_close) *dump_close;
    __typeof__(pcap_offline_filter) *offline_filter;
    __typeof__(pcap_dump) *dump;
} lib;

/* Every symbol or none: a libpcap too old for one of them fails whole. */
static bool lib_load(char *err, size_t n)
{
    if (!lib.tried) {
        lib.tried = true;
        void *h = NULL;
        for (size_t i = 0; i < sizeof lib_names / sizeof lib_names[0] && !h; i++)
            h = dlopen(lib_names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(lib.err, sizeof lib.err, "the capture needs libpcap (Debian: apt-get install libpcap0.8): %s",
                     dlerror());
        } else {
            const char *missing = NULL;
#define SYM(f, name)                                        \
    do {                                                    \
        void *p_ = dlsym(h, name);                          \
        memcpy(&lib.f, &p_, sizeof p_);                     \
        if (!p_ && !missing)                                \
            missing = name;                                 \
    } while (0)
            SYM(open_dead, "pcap_open_dead_with_tstamp_precision");
            SYM(compile, "pcap_compile");
            SYM(geterr, "pcap_geterr");
            SYM(freecode, "pcap_freecode");
            SYM(close, "pcap_close");
            SYM(dump_open, "pcap_dump_open");
            SYM(dump_flush, "pcap_dump_flush");
            SYM(dump_file, "pcap_dump_file");
            SYM(dump_close, "pcap_dump_close");
            SYM(offline_filter, "pcap_offline_filter");
            SYM(dump, "pcap_dump");
#undef SYM
            if (missing)
                snprintf(lib.err, sizeof lib.err, "the libpcap found has no %s (libpcap 1.5 or later is needed)",
                         missing);
            lib.ok = !missing;
        }
    }
    if (!lib.ok)
        snprintf(err, n, "%s", lib.err);
    return lib.ok;
}

struct pcap_lib {
    pcap_t *dead;
    struct bpf_program prog;
    bool filter;
};

struct pcap_lib *pcaplib_open(uint32_t snaplen, const char *filter, char *err, size_t n)
{
    if (!lib_load(err, n))
        return NULL;
    struct pcap_lib *l = xcalloc(1, sizeof *l);
    l->dead = lib.open_dead(DLT_EN10MB, (int)snaplen, PCAP_TSTAMP_PRECISION_NANO);
    if (!l->dead) {
        snprintf(err, n, "libpcap could not open a dead handle");
        free(l);
        return NULL;
    }
    if (filter && *filter) {
        if (lib.compile(l->dead, &l->prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
            snprintf(err, n, "%s", lib.geterr(l->dead));
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
        lib.freecode(&l->prog);
    lib.close(l->dead);
    free(l);
}

struct pcap_file *pcaplib_file(struct pcap_lib *l, const char *path, char *err, size_t n)
{
    pcap_dumper_t *d = lib.dump_open(l->dead, path);
    if (!d)
        snprintf(err, n, "%s", lib.geterr(l->dead));
    return (struct pcap_file *)d;
}

int pcaplib_file_close(struct pcap_file *f)
{
    pcap_dumper_t *d = (pcap_dumper_t *)f;
    bool bad = lib.dump_flush(d) < 0 || ferror(lib.dump_file(d));
    lib.dump_close(d);
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
    return lib.offline_filter(&l->prog, &h, frame) != 0;
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
    lib.dump((u_char *)f, &h, frame);
}
