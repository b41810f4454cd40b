/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_text.c - the report as text: iperf3's interval rows, the per-flow
 * summary, drops by cause and perf's profile table.
 *
 * The unit formatting is iperf3's (src/units.c, unit_snprintf): at most
 * three significant digits in a four-character field, 1024-based units for
 * Transfer and 1000-based units for Bitrate. It is not sim/units.h's
 * fmt_bytes and fmt_bitrate: a table pads to a field width, and a value
 * that would round up to the base moves to the next unit (fmt_unit).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sinks/report_text.h"

#define REPORT_HEADER    "[ ID] Interval           Transfer     Bitrate"
#define REPORT_SEPARATOR "- - - - - - - - - - - - - - - - - - - - - - - - -"

/* ------------------------------------------------------------------ */
/* Formatting                                                           */

/* iperf3's "%4.2f", "%4.1f", "%4.0f": three significant digits, in a
 * field of `width` characters (4 in tables, 0 in running text). */
static void fmt_sig3(char *buf, size_t len, double v, int width, const char *unit)
{
    int prec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;

    snprintf(buf, len, "%*.*f%s%s", width, prec, v, unit[0] ? " " : "", unit);
}

/*
 * Scales v into [0, base) by units[]. A value that would round up to the
 * base ("1000 Mbits/sec") moves to the next unit instead ("1.00 Gbits/sec");
 * iperf3 itself prints the former. Non-finite or negative values print "-".
 */
static const char *fmt_unit(char *buf, size_t len, double v, int width, double base, const char *const units[5])
{
    int i = 0;

    if (!isfinite(v) || v < 0) {
        snprintf(buf, len, "-");
        return buf;
    }
    while (v >= base - 0.5 && i < 4) {
        v /= base;
        i++;
    }
    fmt_sig3(buf, len, v, width, units[i]);
    return buf;
}

static const char *fmt_transfer(char buf[32], double bytes)
{
    static const char *const units[5] = {"Bytes", "KBytes", "MBytes", "GBytes", "TBytes"};
    return fmt_unit(buf, 32, bytes, 4, 1024.0, units);
}

static const char *fmt_rate(char buf[32], double bits_per_s)
{
    static const char *const units[5] = {"bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec", "Tbits/sec"};
    return fmt_unit(buf, 32, bits_per_s, 4, 1000.0, units);
}

/* A counter in the text summary: integers as integers. */
static const char *fmt_count(char buf[32], double v)
{
    if (!isfinite(v))
        snprintf(buf, 32, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, 32, "%.0f", v);
    else
        snprintf(buf, 32, "%.6g", v);
    return buf;
}

/* iperf3's columns after Bitrate: "Retr  Cwnd" of a TCP sender
 * (report_bw_retrans_cwnd_format), "Jitter  Lost/Total Datagrams" of a UDP
 * receiver (report_bw_jitter_loss_format); "" for other flows. */
static void fmt_extra(char *buf, size_t len, const struct flow_info *d)
{
    char cbuf[32];
    buf[0] = '\0';
    if (!d || !d->protocol)
        return;
    if (!strcmp(d->protocol, "TCP")) {
        fmt_transfer(cbuf, (double)d->snd_cwnd);
        snprintf(buf, len, "  %3" PRIu64 "   %-11s", d->retransmits, cbuf);
    } else if (!strcmp(d->protocol, "UDP")) {
        double pct = d->datagrams ? 100.0 * (double)d->lost / (double)d->datagrams : 0;
        snprintf(buf, len, "  %5.3f ms  %" PRIu64 "/%" PRIu64 " (%.2g%%)", d->jitter_ms, d->lost, d->datagrams, pct);
    }
}

/* iperf3's "  0.00-1.00  ": two decimals, or microseconds for a span
 * under 10 ms (a short flow's life, a 10-us interval), which two
 * decimals would print as 0.00-0.00; an empty span keeps iperf3's */
static const char *fmt_span(char *b, size_t n, double t0, double t1)
{
    if (t1 > t0 && t1 - t0 < 0.01)
        snprintf(b, n, "%9.6f-%-9.6f", t0, t1);
    else
        snprintf(b, n, "%6.2f-%-6.2f", t0, t1);
    return b;
}

/* "[  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec", iperf3's
 * columns for the protocol, then "   desc" if desc is not empty (with the
 * columns padded so descs line up). */
void rep_print_row(struct report *r, int flow, double t_start, double t_end, uint64_t bytes,
                   const struct flow_info *info, const char *desc)
{
    char tbuf[32], rbuf[32], xbuf[96], sbuf[64];

    fmt_transfer(tbuf, (double)bytes);
    fmt_rate(rbuf, rep_rate_of(bytes, t_start, t_end));
    fmt_extra(xbuf, sizeof xbuf, info);
    fmt_span(sbuf, sizeof sbuf, t_start, t_end);
    if (desc && desc[0])
        fprintf(r->out, "[%3d] %s sec  %-11s  %-14s%s   %s\n", flow, sbuf, tbuf, rbuf, xbuf, desc);
    else if (xbuf[0])
        fprintf(r->out, "[%3d] %s sec  %-11s  %-14s%s\n", flow, sbuf, tbuf, rbuf, xbuf);
    else
        fprintf(r->out, "[%3d] %s sec  %-11s  %s\n", flow, sbuf, tbuf, rbuf);
}

/* iperf3's header for the table's protocol (TCP: Retr Cwnd; UDP: Jitter
 * Lost/Total Datagrams), once. */
void rep_print_header(struct report *r)
{
    if (!r->header_done) {
        const char *p = r->header_info;
        fputs(REPORT_HEADER, r->out);
        if (p && !strcmp(p, "TCP"))
            fputs("         Retr  Cwnd", r->out);
        else if (p && !strcmp(p, "UDP"))
            fputs("         Jitter    Lost/Total Datagrams", r->out);
        fputc('\n', r->out);
    }
    r->header_done = 1;
}

/* ------------------------------------------------------------------ */
/* The end: summary or JSON                                             */


/*
 * Caller-tagged rows: a symbol "callee <- caller <- caller's caller" is a
 * sample of callee under that call chain (perf report -g caller). When a
 * host has such rows, its table lists each callee once with the sum of its
 * rows, followed by the share of each chain in it, the way perf prints
 * "_raw_spin_unlock_irqrestore" and then "|--36.14%-- mod_timer". A host
 * without tagged rows prints exactly as before. Returns 1 if it printed.
 */
static size_t callee_len(const char *sym)
{
    const char *p = strstr(sym, " <- ");
    return p ? (size_t)(p - sym) : strlen(sym);
}

static int print_callers(struct report *r, struct rep_prof **v, size_t n, double total)
{
    size_t a, b, nb = 0;
    int tagged = 0;

    for (a = 0; a < n; a++)
        tagged |= strstr(v[a]->symbol, " <- ") != NULL;
    if (!tagged)
        return 0;
    /* one entry per callee, in order of its summed time (v is sorted by
     * time, so the callee's first row decides ties) */
    struct callee { size_t first; double ns; uint64_t calls; } *c = xcalloc(n ? n : 1, sizeof *c);
    for (a = 0; a < n; a++) {
        size_t len = callee_len(v[a]->symbol);
        for (b = 0; b < nb; b++)
            if (callee_len(v[c[b].first]->symbol) == len && !strncmp(v[c[b].first]->symbol, v[a]->symbol, len))
                break;
        if (b == nb)
            c[nb++] = (struct callee){ a, 0, 0 };
        c[b].ns += v[a]->cpu_ns;
        c[b].calls += v[a]->calls;
    }
    for (a = 1; a < nb; a++)            /* insertion sort by time, stable */
        for (b = a; b > 0 && c[b].ns > c[b - 1].ns; b--) {
            struct callee t = c[b];
            c[b] = c[b - 1];
            c[b - 1] = t;
        }
    for (b = 0; b < nb; b++) {
        const char *sym = v[c[b].first]->symbol;
        size_t len = callee_len(sym);
        char nsop[32] = "-";
        if (c[b].calls > 0)
            snprintf(nsop, sizeof nsop, "%.1f", c[b].ns / (double)c[b].calls);
        fprintf(r->out, "%9.2f%%%12s%13" PRIu64 "  %.*s\n", total > 0 ? 100.0 * c[b].ns / total : 0.0, nsop,
                c[b].calls, (int)len, sym);
        for (a = 0; a < n; a++) {   /* v is in time order: chains print largest first */
            const char *s = v[a]->symbol;
            if (callee_len(s) != len || strncmp(s, sym, len) || !s[len])
                continue;
            fprintf(r->out, "%36s|--%.2f%%-- %s\n", "", c[b].ns > 0 ? 100.0 * v[a]->cpu_ns / c[b].ns : 0.0,
                    s + len + 4);
        }
    }
    free(c);
    return 1;
}

static void print_profile(struct report *r)
{
    struct rep_prof **v = rep_prof_sorted(r);
    size_t i, j, k;

    if (r->nprof == 0)
        fputs("\n# profile: no CPU time recorded\n", r->out);
    for (i = 0; i < r->nprof; i = j) {
        double total = 0;

        for (j = i; j < r->nprof && v[j]->host_idx == v[i]->host_idx; j++)
            total += v[j]->cpu_ns;
        fprintf(r->out, "\n# host %s: %.6f s of CPU time\n", v[i]->host, total * 1e-9);
        fputs("# Overhead       ns/op        Calls  Symbol\n", r->out);
        if (print_callers(r, v + i, j - i, total))
            continue;
        for (k = i; k < j; k++) {
            char nsop[32] = "-";
            double share = total > 0 ? 100.0 * v[k]->cpu_ns / total : 0.0;

            if (v[k]->calls > 0)
                snprintf(nsop, sizeof nsop, "%.1f", v[k]->cpu_ns / (double)v[k]->calls);
            fprintf(r->out, "%9.2f%%%12s%13" PRIu64 "  %s\n", share, nsop, v[k]->calls, v[k]->symbol);
        }
    }
    free(v);
}

/* "1.23" s of wall time; sub-second runs keep milliseconds. */
static const char *fmt_wall(char buf[32], double s)
{
    if (!isfinite(s) || s < 0)
        snprintf(buf, 32, "-");
    else if (s < 0.9995)
        snprintf(buf, 32, "%.3f", s);
    else
        fmt_sig3(buf, 32, s, 0, "");
    return buf;
}

/* "10.0 M events/s": 1000-based, three significant digits. */
static const char *fmt_event_rate(char buf[32], double per_s)
{
    static const char *const units[5] = {"events/s", "k events/s", "M events/s", "G events/s", "T events/s"};

    return fmt_unit(buf, 32, per_s, 0, 1000.0, units);
}

/* A flow's summary: with iperf3 figures, iperf3's two lines, the sender's
 * ("Retr" of TCP; UDP's datagrams sent) and the receiver's (UDP's jitter
 * and loss), the description after the receiver's; otherwise one row. */
static void print_flow_summary(struct report *r, const struct rep_flow *fl, double sim_s)
{
    struct flow_total ft = rep_flow_total(r, fl->id, sim_s);
    const struct flow_info *last = fl->has_last ? &fl->last : NULL;
    char tbuf[32], rbuf[32], xbuf[96];

    if (!last) {
        rep_print_row(r, fl->id, ft.t_start, ft.t_end, ft.bytes, NULL, fl->desc);
        return;
    }
    int tcp = !strcmp(last->protocol, "TCP");
    uint64_t sent = tcp ? last->bytes_sent : last->datagrams_sent * last->blksize;
    fmt_transfer(tbuf, (double)sent);
    fmt_rate(rbuf, rep_rate_of(sent, ft.t_start, ft.t_end));
    if (tcp)
        snprintf(xbuf, sizeof xbuf, "  %3" PRIu64 "             ", last->retransmits);
    else
        snprintf(xbuf, sizeof xbuf, "  %5.3f ms  %" PRIu64 "/%" PRIu64 " (%.2g%%)", 0.0, (uint64_t)0,
                 last->datagrams_sent, 0.0);
    char sbuf[64];
    fmt_span(sbuf, sizeof sbuf, ft.t_start, ft.t_end);
    fprintf(r->out, "[%3d] %s sec  %-11s  %-14s%s  sender\n", fl->id, sbuf, tbuf, rbuf, xbuf);
    fmt_transfer(tbuf, (double)ft.bytes);
    fmt_rate(rbuf, rep_rate_of(ft.bytes, ft.t_start, ft.t_end));
    if (tcp) {
        snprintf(xbuf, sizeof xbuf, "%20s", "");
    } else {
        double pct = last->datagrams ? 100.0 * (double)last->lost / (double)last->datagrams : 0;
        snprintf(xbuf, sizeof xbuf, "  %5.3f ms  %" PRIu64 "/%" PRIu64 " (%.2g%%)", last->jitter_ms, last->lost,
                 last->datagrams, pct);
    }
    fprintf(r->out, "[%3d] %s sec  %-11s  %-14s%s  receiver   %s\n", fl->id, sbuf, tbuf, rbuf, xbuf, fl->desc);
}

void rep_print_summary(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    char buf[32], buf2[32];
    size_t i, width = 0, ndrops = 0;

    fputs(REPORT_SEPARATOR "\n", r->out);
    if (r->nflows > 0 && !r->header_done && r->flows[0].protocol)
        r->header_info = r->flows[0].protocol;
    if (r->nflows > 0)
        rep_print_header(r);    /* only if the interval rows did not (quiet) */
    for (i = 0; i < r->nflows; i++)
        print_flow_summary(r, &r->flows[i], sim_s);

    for (i = 0; i < r->ncounters; i++) {
        if (r->counters[i].is_drop && r->counters[i].value != 0) {
            size_t n = strlen(r->counters[i].name);
            width = n > width ? n : width;
            ndrops++;
        }
    }
    if (ndrops == 0)
        fputs("Drops: none\n", r->out);
    else
        fputs("Drops by cause:\n", r->out);
    for (i = 0; i < r->ncounters; i++)
        if (r->counters[i].is_drop && r->counters[i].value != 0)
            fprintf(r->out, "  %-*s  %s\n", (int)width, r->counters[i].name, fmt_count(buf, r->counters[i].value));

    if (r->show_profile)
        print_profile(r);

    if (!isfinite(sim_s))
        sim_s = 0;
    fprintf(r->out, "status: %s, %.3f s simulated in %s s wall (%" PRIu64 " events", status ? status : "unknown",
            sim_s, fmt_wall(buf, wall_s), events);
    if (isfinite(wall_s) && wall_s > 0)
        fprintf(r->out, ", %s", fmt_event_rate(buf2, (double)events / wall_s));
    fputs(")\n", r->out);
}
