/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_json.c - the report as one JSON document (--json), printed when
 * the run ends, laid out as iperf3 -J's (start, intervals[].streams[] and
 * .sum, end.streams[].sender/.receiver, end.sum_sent, end.sum_received),
 * each flow a stream, so that a script reading iperf3's JSON reads it;
 * netsim's own block ("netsim": scenario, seed, every resolved parameter,
 * the intervals per flow, counters, drops, profile, lines, end) beside it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sinks/report_json.h"
#include "sinks/json.h"
#include "sim/host.h"

/* ---- JSON ---- */

/* Separator before the i-th element of an array printed one per line. */
static void json_elem(FILE *f, size_t i)
{
    fputs(i ? ",\n    " : "\n    ", f);
}

/* The span both tables give: ,"start":S,"end":E,"bytes":B,"bits_per_second":R} */
static void json_span(FILE *f, double t_start, double t_end, uint64_t bytes)
{
    fputs(",\"start\":", f);
    json_num(f, t_start);
    fputs(",\"end\":", f);
    json_num(f, t_end);
    fprintf(f, ",\"bytes\":%" PRIu64 ",\"bits_per_second\":", bytes);
    json_num(f, rep_rate_of(bytes, t_start, t_end));
    fputc('}', f);
}

static void json_array_end(FILE *f, size_t n)
{
    fputs(n ? "\n  ]" : "]", f);
}

/* netsim's own block: everything the run reported, as it reported it. */
static void print_netsim(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    FILE *f = r->out;
    struct rep_prof **prof;
    size_t i, n;

    fputs("{\n  \"scenario\":", f);
    json_str(f, r->scenario ? r->scenario : "");
    fprintf(f, ",\n  \"seed\":%" PRIu64 ",\n  \"params\":{", r->seed);
    for (i = 0; i < r->nparams; i++) {
        if (i)
            fputc(',', f);
        json_str(f, r->params[i].key);
        fputc(':', f);
        json_str(f, r->params[i].value);
    }
    fputs("},\n  \"intervals\":[", f);
    for (i = 0; i < r->nivs; i++) {
        const struct rep_interval *iv = &r->ivs[i];
        json_elem(f, i);
        fprintf(f, "{\"flow\":%d", iv->flow);
        json_span(f, iv->t_start, iv->t_end, iv->bytes);
    }
    json_array_end(f, r->nivs);

    fputs(",\n  \"flows\":[", f);
    for (i = 0; i < r->nflows; i++) {
        struct flow_total ft = rep_flow_total(r, r->flows[i].id, sim_s);
        json_elem(f, i);
        fprintf(f, "{\"id\":%d,\"desc\":", r->flows[i].id);
        json_str(f, r->flows[i].desc);
        json_span(f, ft.t_start, ft.t_end, ft.bytes);
    }
    json_array_end(f, r->nflows);

    fputs(",\n  \"counters\":{", f);
    for (i = 0; i < r->ncounters; i++) {
        if (i)
            fputc(',', f);
        json_str(f, r->counters[i].name);
        fputc(':', f);
        json_num(f, r->counters[i].value);
    }
    fputs("},\n  \"drops\":{", f);
    for (i = 0, n = 0; i < r->ncounters; i++) {
        if (!r->counters[i].is_drop || r->counters[i].value == 0)
            continue;
        if (n++)
            fputc(',', f);
        json_str(f, r->counters[i].name);
        fputc(':', f);
        json_num(f, r->counters[i].value);
    }
    fputs("},\n  \"profile\":[", f);
    prof = rep_prof_sorted(r);
    for (i = 0; i < r->nprof; i++) {
        json_elem(f, i);
        fputs("{\"host\":", f);
        json_str(f, prof[i]->host);
        fputs(",\"symbol\":", f);
        json_str(f, prof[i]->symbol);
        fputs(",\"cpu_ns\":", f);
        json_num(f, prof[i]->cpu_ns);
        fprintf(f, ",\"calls\":%" PRIu64 "}", prof[i]->calls);
    }
    free(prof);
    json_array_end(f, r->nprof);

    fputs(",\n  \"lines\":[", f);
    for (i = 0; i < r->nlines; i++) {
        json_elem(f, i);
        json_str(f, r->lines[i]);
    }
    json_array_end(f, r->nlines);

    if (r->ntc) {                /* --tc-stats: each port's tc -s qdisc show */
        fputs(",\n  \"tc_stats\":[", f);
        for (i = 0; i + 2 < r->ntc; i += 3) {
            json_elem(f, i / 3);
            fputs("{\"host\":", f);
            json_str(f, r->tc[i]);
            fputs(",\"port\":", f);
            json_str(f, r->tc[i + 1]);
            fputs(",\"text\":", f);
            json_str(f, r->tc[i + 2]);
            fputc('}', f);
        }
        json_array_end(f, r->ntc / 3);
    }

    fputs(",\n  \"end\":{\"sim_s\":", f);
    json_num(f, sim_s);
    fputs(",\"wall_s\":", f);
    json_num(f, wall_s);
    fprintf(f, ",\"events\":%" PRIu64 ",\"status\":", events);
    json_str(f, status ? status : "unknown");
    fputs("}\n}", f);
}

/* ---- iperf3 -J's layout (iperf_api.c), for the flows as streams ---- */

static void kv_num(FILE *f, const char *k, double v, int first)
{
    fprintf(f, "%s\"%s\":", first ? "" : ",", k);
    json_num(f, v);
}

static void kv_u(FILE *f, const char *k, uint64_t v)
{
    fprintf(f, ",\"%s\":%" PRIu64, k, v);
}

/* The part of a stream or sum that every iperf3 interval has. */
static void span(FILE *f, double t0, double t1, uint64_t bytes)
{
    kv_num(f, "start", t0, 1);
    kv_num(f, "end", t1, 0);
    kv_num(f, "seconds", t1 - t0, 0);
    kv_u(f, "bytes", bytes);
    kv_num(f, "bits_per_second", rep_rate_of(bytes, t0, t1), 0);
}

static int is_tcp(const struct flow_info *i) { return i && i->protocol && !strcmp(i->protocol, "TCP"); }
static int is_udp(const struct flow_info *i) { return i && i->protocol && !strcmp(i->protocol, "UDP"); }

/* The UDP receiver's figures iperf3 prints beside the bytes. */
static void udp_fields(FILE *f, const struct flow_info *d)
{
    kv_u(f, "packets", d->datagrams);
    kv_num(f, "jitter_ms", d->jitter_ms, 0);
    kv_u(f, "lost_packets", d->lost);
    kv_num(f, "lost_percent", d->datagrams ? 100.0 * (double)d->lost / (double)d->datagrams : 0, 0);
    kv_u(f, "out_of_order", d->out_of_order);
}

static void print_start(struct report *r, double sim_s)
{
    FILE *f = r->out;
    const struct flow_info *first = NULL;
    char a[32], b[32], tbuf[64];
    time_t now = time(NULL);

    fputs("  \"start\":{\"connected\":[", f);
    for (size_t i = 0, n = 0; i < r->nflows; i++) {
        const struct flow_info *fi = r->flows[i].protocol ? &r->flows[i].info : NULL;
        if (!fi)
            continue;
        first = first ? first : fi;
        fprintf(f, "%s{\"socket\":%d,\"local_host\":\"%s\",\"local_port\":%u,\"remote_host\":\"%s\","
                "\"remote_port\":%u}", n++ ? "," : "", r->flows[i].id, host_addr_str(fi->local_addr, a),
                fi->local_port, host_addr_str(fi->remote_addr, b), fi->remote_port);
    }
    strftime(tbuf, sizeof tbuf, "%a, %d %b %Y %H:%M:%S GMT", gmtime(&now));
    fprintf(f, "],\"version\":\"netsim\",\"system_info\":\"netsim: simulated hosts\",\"timestamp\":{\"time\":\"%s\","
            "\"timesecs\":%lld},", tbuf, (long long)now);
    fprintf(f, "\"connecting_to\":{\"host\":\"%s\",\"port\":%u},\"cookie\":\"\",",
            first ? host_addr_str(first->remote_addr, b) : "", first ? first->remote_port : 0);
    fprintf(f, "\"tcp_mss_default\":%u,\"target_bitrate\":%" PRIu64 ",\"sock_bufsize\":0,\"sndbuf_actual\":%u,"
            "\"rcvbuf_actual\":%u,", first ? first->mss : 0, first ? first->target_bitrate : 0,
            first ? first->sndbuf : 0, first ? first->rcvbuf : 0);
    size_t nstreams = 0;
    for (size_t i = 0; i < r->nflows; i++)
        nstreams += r->flows[i].protocol != NULL;
    fprintf(f, "\"test_start\":{\"protocol\":\"%s\",\"num_streams\":%zu,\"blksize\":%u,\"omit\":0,"
            "\"duration\":%.0f,\"bytes\":0,\"blocks\":0,\"reverse\":0,\"tos\":0,\"target_bitrate\":%" PRIu64 "}},\n",
            first ? first->protocol : "", nstreams, first ? first->blksize : 0, isfinite(sim_s) ? sim_s : 0,
            first ? first->target_bitrate : 0);
}

/* One element of "intervals": the streams of the intervals [i, j), which
 * share their span, and their sum. */
static void print_interval(struct report *r, size_t i, size_t j)
{
    FILE *f = r->out;
    uint64_t bytes = 0, retr = 0;
    int tcp = 0;

    fputs("{\"streams\":[", f);
    for (size_t k = i; k < j; k++) {
        const struct rep_interval *iv = &r->ivs[k];
        struct flow_info d = iv->has_info ? iv->info : (struct flow_info){ 0 };
        fprintf(f, "%s{\"socket\":%d,", k > i ? "," : "", iv->flow);
        span(f, iv->t_start, iv->t_end, iv->bytes);
        if (is_tcp(&d)) {
            kv_u(f, "retransmits", d.retransmits);
            kv_u(f, "snd_cwnd", d.snd_cwnd);
            kv_u(f, "snd_wnd", d.snd_wnd);
            kv_u(f, "rtt", d.rtt_us);
            kv_u(f, "rttvar", d.rttvar_us);
            kv_u(f, "pmtu", d.pmtu);
            retr += d.retransmits;
            tcp = 1;
        } else if (is_udp(&d)) {
            udp_fields(f, &d);
        }
        fputs(",\"omitted\":false,\"sender\":true}", f);
        bytes += iv->bytes;
    }
    fputs("],\"sum\":{", f);
    span(f, r->ivs[i].t_start, r->ivs[i].t_end, bytes);
    if (tcp)
        kv_u(f, "retransmits", retr);
    fputs(",\"omitted\":false,\"sender\":true}}", f);
}

static void print_end(struct report *r, double sim_s)
{
    FILE *f = r->out;
    uint64_t sent = 0, recvd = 0, retr = 0;
    double t0 = 0, t1 = 0;
    int tcp = 0, n = 0;
    const char *cc = NULL;

    fputs("  \"end\":{\"streams\":[", f);
    for (size_t i = 0; i < r->nflows; i++) {
        const struct rep_flow *fl = &r->flows[i];
        struct flow_total ft = rep_flow_total(r, fl->id, sim_s);
        const struct flow_info *last = fl->has_last ? &fl->last : NULL;
        uint64_t bytes_sent = !last ? ft.bytes : is_tcp(last) ? last->bytes_sent : last->datagrams_sent * last->blksize;
        fprintf(f, "%s{\"sender\":{\"socket\":%d,", n++ ? "," : "", fl->id);
        span(f, ft.t_start, ft.t_end, bytes_sent);
        if (is_tcp(last)) {
            kv_u(f, "retransmits", last->retransmits);
            kv_u(f, "max_snd_cwnd", fl->max_cwnd);
            kv_u(f, "max_snd_wnd", fl->max_wnd);
            kv_num(f, "max_rtt", fl->rtt_max, 0);
            kv_num(f, "min_rtt", fl->rtt_min, 0);
            kv_num(f, "mean_rtt", fl->rtt_n ? floor(fl->rtt_sum / (double)fl->rtt_n) : 0, 0);
            retr += last->retransmits;
            tcp = 1;
            cc = cc ? cc : last->congestion;
        } else if (is_udp(last)) {
            kv_u(f, "packets", last->datagrams_sent);
        }
        fprintf(f, ",\"sender\":true},\"receiver\":{\"socket\":%d,", fl->id);
        span(f, ft.t_start, ft.t_end, ft.bytes);
        if (is_udp(last))
            udp_fields(f, last);
        fputs(",\"sender\":false}}", f);
        sent += bytes_sent;
        recvd += ft.bytes;
        if (n == 1 || ft.t_start < t0)
            t0 = ft.t_start;
        if (n == 1 || ft.t_end > t1)
            t1 = ft.t_end;
    }
    fputs("],\n  \"sum_sent\":{", f);
    span(f, t0, t1, sent);
    if (tcp)
        kv_u(f, "retransmits", retr);
    fputs(",\"sender\":true},\n  \"sum_received\":{", f);
    span(f, t0, t1, recvd);
    /* iperf3 measures its own process's CPU; the simulated hosts' CPU
     * time is in netsim.profile, so these stay 0 */
    fputs(",\"sender\":false},\n  \"cpu_utilization_percent\":{", f);
    kv_num(f, "host_total", 0, 1);
    kv_num(f, "host_user", 0, 0);
    kv_num(f, "host_system", 0, 0);
    kv_num(f, "remote_total", 0, 0);
    kv_num(f, "remote_user", 0, 0);
    kv_num(f, "remote_system", 0, 0);
    fputs("}", f);
    if (tcp) {
        fputs(",\n  \"sender_tcp_congestion\":", f);
        json_str(f, cc ? cc : "");
        fputs(",\"receiver_tcp_congestion\":", f);
        json_str(f, cc ? cc : "");
    }
    fputs("},\n", f);
}

void rep_print_json(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    FILE *f = r->out;

    fputs("{\n", f);
    print_start(r, sim_s);
    fputs("  \"intervals\":[", f);
    for (size_t i = 0, n = 0, j; i < r->nivs; i = j, n++) {
        for (j = i + 1; j < r->nivs && r->ivs[j].t_start == r->ivs[i].t_start && r->ivs[j].t_end == r->ivs[i].t_end; j++)
            ;
        json_elem(f, n);
        print_interval(r, i, j);
    }
    json_array_end(f, r->nivs);
    fputs(",\n", f);
    print_end(r, sim_s);
    fputs("  \"netsim\":", f);
    print_netsim(r, sim_s, wall_s, events, status);
    fputs("\n}\n", f);
}
