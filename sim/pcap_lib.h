/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcap_lib.h - the little of libpcap the capture uses (sim/pcap.c): a dead
 * Ethernet handle with nanosecond timestamps, a compiled BPF filter, and
 * one dump writer per file. Kept apart because libpcap's headers bring the
 * system's socket headers, whose macros (IP_PMTUDISC_DO, ...) the
 * simulator's own names would collide with.
 */
#ifndef NETSIM_PCAP_LIB_H
#define NETSIM_PCAP_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pcap_lib;
struct pcap_file;

/* A dead handle (DLT_EN10MB, snaplen, nanosecond precision) and, when
 * filter is not NULL or "", its compiled program. NULL with the reason. */
struct pcap_lib *pcaplib_open(uint32_t snaplen, const char *filter, char *err, size_t n);
void pcaplib_close(struct pcap_lib *l);
/* A new capture file; NULL with libpcap's reason. */
struct pcap_file *pcaplib_file(struct pcap_lib *l, const char *path, char *err, size_t n);
/* Flush and close; -1 if the file could not be written whole. */
int pcaplib_file_close(struct pcap_file *f);
bool pcaplib_has_filter(const struct pcap_lib *l);
/* Does the frame pass the filter (pcap_offline_filter)? */
bool pcaplib_match(const struct pcap_lib *l, const uint8_t *frame, uint32_t caplen, uint32_t len);
void pcaplib_write(struct pcap_file *f, uint64_t sec, uint32_t nsec, const uint8_t *frame, uint32_t caplen,
                   uint32_t len);

#endif
