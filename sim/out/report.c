/*
 * report.c - what a run prints: iperf3's interval table, a summary with
 * drops by cause and a perf-style CPU profile, or one JSON document.
 *
 * Everything reported is kept in growable arrays (doubled on overflow), in
 * both modes: text mode needs the intervals for the per-flow totals, JSON
 * mode prints it all at the end. A run reports a few intervals per flow and
 * simulated second, so this is small.
 *
 * The unit formatting is iperf3's (src/units.c, unit_snprintf): at most
 * three significant digits in a four-character field, 1024-based units for
 * Transfer and 1000-based units for Bitrate. It is repeated here, not taken
 * from units.h, so that this file depends on nothing else in the engine.
 */
#include "sim/out/report.h"
#include "sim/out/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_HEADER    "[ ID] Interval           Transfer     Bitrate"
#define REPORT_SEPARATOR "- - - - - - - - - - - - - - - - - - - - - - - - -"

struct rep_flow {
    int id;
    char *desc;
};

struct rep_interval {
    int flow;
    double t_start, t_end;
    uint64_t bytes;
};

struct rep_counter {
    char *name;
    double value;
    int is_drop;
};

struct rep_prof {
    char *host;
    char *symbol;
    double cpu_ns;
    uint64_t calls;
    size_t host_idx;    /* order of the host's first appearance */
    size_t seq;         /* order of the row's first appearance */
};

struct report {
    FILE *out;
    enum report_mode mode;
    int quiet;
    int show_profile;
    int header_done;
    int ended;

    struct rep_flow *flows;
    size_t nflows, cap_flows;
    struct rep_interval *ivs;
    size_t nivs, cap_ivs;
    struct rep_counter *counters;
    size_t ncounters, cap_counters;
    struct rep_prof *prof;
    size_t nprof, cap_prof;
    size_t nhosts;
    char **lines;
    size_t nlines, cap_lines;
};

/* ------------------------------------------------------------------ */
/* Memory                                                               */

static void oom(void)
{
    fputs("netsim: out of memory in report\n", stderr);
    abort();
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");

    if (!d)
        oom();
    return d;
}

/* Makes room for one more element in a growable array of n elements. */
static void *grow(void *arr, size_t n, size_t *cap, size_t elem)
{
    size_t newcap;

    if (n < *cap)
        return arr;
    newcap = *cap ? *cap * 2 : 16;
    arr = realloc(arr, newcap * elem);
    if (!arr)
        oom();
    *cap = newcap;
    return arr;
}

#define GROW(r, arr, n, cap) ((r)->arr = grow((r)->arr, (r)->n, &(r)->cap, sizeof *(r)->arr))

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

/* Bits per second over [t_start, t_end]; NaN when the span is empty. */
static double rate_of(uint64_t bytes, double t_start, double t_end)
{
    double dt = t_end - t_start;

    return dt > 0 ? (double)bytes * 8.0 / dt : NAN;
}

/* "[  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec", then "   desc"
 * if desc is not empty (with the bitrate padded so descs line up). */
static void print_row(struct report *r, int flow, double t_start, double t_end, uint64_t bytes,
                      const char *desc)
{
    char tbuf[32], rbuf[32];

    fmt_transfer(tbuf, (double)bytes);
    fmt_rate(rbuf, rate_of(bytes, t_start, t_end));
    if (desc && desc[0])
        fprintf(r->out, "[%3d] %6.2f-%-6.2f sec  %-11s  %-14s   %s\n", flow, t_start, t_end, tbuf, rbuf, desc);
    else
        fprintf(r->out, "[%3d] %6.2f-%-6.2f sec  %-11s  %s\n", flow, t_start, t_end, tbuf, rbuf);
}

static void print_header(struct report *r)
{
    if (!r->header_done)
        fputs(REPORT_HEADER "\n", r->out);
    r->header_done = 1;
}

/* ------------------------------------------------------------------ */
/* Collecting                                                           */

struct report *report_new(FILE *out, enum report_mode mode, int quiet)
{
    struct report *r = calloc(1, sizeof *r);

    if (!r)
        oom();
    r->out = out ? out : stdout;
    r->mode = mode;
    r->quiet = quiet;
    return r;
}

void report_free(struct report *r)
{
    size_t i;

    if (!r)
        return;
    for (i = 0; i < r->nflows; i++)
        free(r->flows[i].desc);
    for (i = 0; i < r->ncounters; i++)
        free(r->counters[i].name);
    for (i = 0; i < r->nprof; i++) {
        free(r->prof[i].host);
        free(r->prof[i].symbol);
    }
    for (i = 0; i < r->nlines; i++)
        free(r->lines[i]);
    free(r->flows);
    free(r->ivs);
    free(r->counters);
    free(r->prof);
    free(r->lines);
    free(r);
}

void report_flow(struct report *r, int id, const char *desc)
{
    size_t i;

    for (i = 0; i < r->nflows; i++) {
        if (r->flows[i].id == id) {     /* declared again: the new desc wins */
            free(r->flows[i].desc);
            r->flows[i].desc = xstrdup(desc);
            return;
        }
    }
    GROW(r, flows, nflows, cap_flows);
    r->flows[r->nflows].id = id;
    r->flows[r->nflows].desc = xstrdup(desc);
    r->nflows++;
}

void report_interval(struct report *r, int flow, double t_start, double t_end, uint64_t bytes)
{
    GROW(r, ivs, nivs, cap_ivs);
    r->ivs[r->nivs++] = (struct rep_interval){flow, t_start, t_end, bytes};
    if (r->mode != REPORT_TEXT || r->quiet)
        return;
    print_header(r);
    print_row(r, flow, t_start, t_end, bytes, NULL);
    fflush(r->out);
}

void report_line(struct report *r, const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    size_t n;

    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        oom();
    va_end(ap);
    n = strlen(s);
    if (n > 0 && s[n - 1] == '\n')     /* the line ends where we say */
        s[n - 1] = '\0';
    if (r->mode == REPORT_TEXT) {
        fprintf(r->out, "%s\n", s);
        fflush(r->out);
        free(s);
        return;
    }
    GROW(r, lines, nlines, cap_lines);
    r->lines[r->nlines++] = s;
}

/* A counter reported twice keeps its last value: one key per name in JSON.
 * Linear search: a run has tens of counters, reported once at the end. */
void report_counter(struct report *r, const char *name, double value, int is_drop)
{
    size_t i;

    for (i = 0; i < r->ncounters; i++) {
        if (strcmp(r->counters[i].name, name) == 0) {
            r->counters[i].value = value;
            r->counters[i].is_drop = is_drop;
            return;
        }
    }
    GROW(r, counters, ncounters, cap_counters);
    r->counters[r->ncounters++] = (struct rep_counter){xstrdup(name), value, is_drop};
}

/* Rows for the same (host, symbol) add up, as perf merges samples from all
 * cores under one symbol. Linear search, as for counters. */
void report_profile(struct report *r, const char *host, const char *symbol, double cpu_ns, uint64_t calls)
{
    size_t i, host_idx = r->nhosts;

    for (i = 0; i < r->nprof; i++) {
        if (strcmp(r->prof[i].host, host) != 0)
            continue;
        host_idx = r->prof[i].host_idx;
        if (strcmp(r->prof[i].symbol, symbol) == 0) {
            r->prof[i].cpu_ns += cpu_ns;
            r->prof[i].calls += calls;
            return;
        }
    }
    if (host_idx == r->nhosts)
        r->nhosts++;
    GROW(r, prof, nprof, cap_prof);
    r->prof[r->nprof] = (struct rep_prof){xstrdup(host), xstrdup(symbol), cpu_ns, calls, host_idx, r->nprof};
    r->nprof++;
}

void report_show_profile(struct report *r, int on)
{
    r->show_profile = on;
}

/* ------------------------------------------------------------------ */
/* The end: summary or JSON                                             */

/* Totals of one flow over [first t_start, last t_end] of its intervals;
 * a flow without intervals spans [0, sim_s] with no bytes. */
struct flow_total {
    double t_start, t_end;
    uint64_t bytes;
};

static struct flow_total flow_total(const struct report *r, int id, double sim_s)
{
    struct flow_total ft = {0, isfinite(sim_s) && sim_s > 0 ? sim_s : 0, 0};
    int seen = 0;
    size_t i;

    for (i = 0; i < r->nivs; i++) {
        const struct rep_interval *iv = &r->ivs[i];
        if (iv->flow != id)
            continue;
        if (!seen || iv->t_start < ft.t_start)
            ft.t_start = iv->t_start;
        if (!seen || iv->t_end > ft.t_end)
            ft.t_end = iv->t_end;
        ft.bytes += iv->bytes;
        seen = 1;
    }
    return ft;
}

/* Profile order: by host (first appearance), then by CPU time descending,
 * then by first appearance. */
static int prof_cmp(const void *a, const void *b)
{
    const struct rep_prof *x = *(const struct rep_prof *const *)a;
    const struct rep_prof *y = *(const struct rep_prof *const *)b;

    if (x->host_idx != y->host_idx)
        return x->host_idx < y->host_idx ? -1 : 1;
    if (x->cpu_ns != y->cpu_ns)
        return x->cpu_ns > y->cpu_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The profile rows in print order; caller frees the array. */
static struct rep_prof **prof_sorted(const struct report *r)
{
    struct rep_prof **v = malloc((r->nprof ? r->nprof : 1) * sizeof *v);
    size_t i;

    if (!v)
        oom();
    for (i = 0; i < r->nprof; i++)
        v[i] = &r->prof[i];
    qsort(v, r->nprof, sizeof *v, prof_cmp);
    return v;
}

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
    struct callee { size_t first; double ns; uint64_t calls; } *c = malloc(n * sizeof *c);
    if (!c)
        oom();
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
    struct rep_prof **v = prof_sorted(r);
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

static void print_summary(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    char buf[32], buf2[32];
    size_t i, width = 0, ndrops = 0;

    fputs(REPORT_SEPARATOR "\n", r->out);
    if (r->nflows > 0)
        print_header(r);    /* only if the interval rows did not (quiet) */
    for (i = 0; i < r->nflows; i++) {
        struct flow_total ft = flow_total(r, r->flows[i].id, sim_s);
        print_row(r, r->flows[i].id, ft.t_start, ft.t_end, ft.bytes, r->flows[i].desc);
    }

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

/* ---- JSON ---- */

/* Separator before the i-th element of an array printed one per line. */
static void json_elem(FILE *f, size_t i)
{
    fputs(i ? ",\n    " : "\n    ", f);
}

static void json_array_end(FILE *f, size_t n)
{
    fputs(n ? "\n  ]" : "]", f);
}

static void print_json(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    FILE *f = r->out;
    struct rep_prof **prof;
    size_t i, n;

    fputs("{\n  \"intervals\":[", f);
    for (i = 0; i < r->nivs; i++) {
        const struct rep_interval *iv = &r->ivs[i];
        json_elem(f, i);
        fprintf(f, "{\"flow\":%d,\"start\":", iv->flow);
        json_num(f, iv->t_start);
        fputs(",\"end\":", f);
        json_num(f, iv->t_end);
        fprintf(f, ",\"bytes\":%" PRIu64 ",\"bits_per_second\":", iv->bytes);
        json_num(f, rate_of(iv->bytes, iv->t_start, iv->t_end));
        fputc('}', f);
    }
    json_array_end(f, r->nivs);

    fputs(",\n  \"flows\":[", f);
    for (i = 0; i < r->nflows; i++) {
        struct flow_total ft = flow_total(r, r->flows[i].id, sim_s);
        json_elem(f, i);
        fprintf(f, "{\"id\":%d,\"desc\":", r->flows[i].id);
        json_str(f, r->flows[i].desc);
        fputs(",\"start\":", f);
        json_num(f, ft.t_start);
        fputs(",\"end\":", f);
        json_num(f, ft.t_end);
        fprintf(f, ",\"bytes\":%" PRIu64 ",\"bits_per_second\":", ft.bytes);
        json_num(f, rate_of(ft.bytes, ft.t_start, ft.t_end));
        fputc('}', f);
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
    prof = prof_sorted(r);
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

    fputs(",\n  \"end\":{\"sim_s\":", f);
    json_num(f, sim_s);
    fputs(",\"wall_s\":", f);
    json_num(f, wall_s);
    fprintf(f, ",\"events\":%" PRIu64 ",\"status\":", events);
    json_str(f, status ? status : "unknown");
    fputs("}\n}\n", f);
}

void report_end(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    if (r->ended)
        return;
    r->ended = 1;
    if (r->mode == REPORT_JSON)
        print_json(r, sim_s, wall_s, events, status);
    else
        print_summary(r, sim_s, wall_s, events, status);
    fflush(r->out);
}
