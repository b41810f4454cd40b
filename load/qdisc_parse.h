/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qdisc_parse.h - a queueing discipline written as tc writes it, the words
 * after `root` in `tc qdisc add dev DEV root ...` ("fq_codel limit 10240
 * target 5ms ecn"), into the options a discipline's init takes
 * (sim/qdisc.h). Each option is read with the tc parser of its kind
 * (tc_util.c's get_u32, get_size, get_time, get_rate), so "10kb" is 10240
 * bytes, "500" as a time is 500 us and "100mbit" is 10^8 bit/s.
 */
#ifndef NETSIM_QDISC_PARSE_H
#define NETSIM_QDISC_PARSE_H

#include <stddef.h>
#include "sim/qdisc.h"

/* 0, or -1 with one line in err naming what was wrong and what the
 * discipline accepts. */
int qdisc_parse(const char *text, struct qdisc_args *a, char *err, size_t n);
/* A class of a classful discipline: the words after `classid 1:MINOR
 * KIND` in tc class add, "parent 1:1 rate 600mbit ceil 1gbit prio 0". */
int qdisc_parse_class(const struct qdisc_ops *ops, uint32_t minor, const char *text, struct qdisc_class_spec *c,
                      char *err, size_t n);
/* A u32 filter: the words after `u32` in tc filter add, "match ip dport
 * 5201 0xffff flowid 1:10"; host_id resolves a host name or address
 * (-1: none). */
int qdisc_parse_filter(const char *text, struct qdisc_filter_spec *f, int (*host_id)(void *ctx, const char *name),
                       void *ctx, char *err, size_t n);
/* A param's value placeholder as the docs write it: "PACKETS", "TIME". */
const char *qdisc_param_word(const struct qdisc_param *p);
/* Every discipline's name, "pfifo, bfifo, ...", into buf. */
const char *qdisc_kinds(char *buf, size_t n);

#endif
