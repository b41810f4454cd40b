/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_metric.c - what `netsim report --metric M --by B` measures: one
 * SQL query per metric and grouping that yields (run, entity, value) rows,
 * entity being NULL (the run), a flow id, a host name or a message size
 * bucket (the message metrics: their percentiles per run). The rest of
 * report treats each row as a run of its own whose combination includes
 * the entity, so repeats, --compare's pairs and the tables work per flow
 * and per host unchanged.
 *
 * Flows and hosts are found from the parameters a run records as --set
 * spells them: N.from and N.to for flow N. A host's goodput is that of
 * the flows it receives, its retransmissions and RTT those of the flows it
 * sends; its drops and counters are the counters named after it
 * ("receiver.eth0.q0.rx_drops").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"
#include "cli/report_metric.h"

/* Flow N's sender and receiver in each run. */
#define FLOWS_CTE                                                                                         \
    "WITH fl AS (SELECT p.run_id AS run_id, CAST(substr(p.key, 1, instr(p.key, '.') - 1) AS INTEGER) AS flow," \
    " max(CASE WHEN p.key GLOB '*.from' THEN p.value END) AS src,"                                         \
    " max(CASE WHEN p.key GLOB '*.to' THEN p.value END) AS dst"                                            \
    " FROM param p WHERE p.key GLOB '[0-9]*.from' OR p.key GLOB '[0-9]*.to' GROUP BY p.run_id, flow) "
/* The flow id of a counter or series named "flow.N.rest". */
#define FLOW_OF(col) "CAST(substr(" col ", 6, instr(substr(" col ", 6), '.') - 1) AS INTEGER)"
#define SPAN "(max(i.t_end) - min(i.t_start))"

/* Per-flow goodput of every run: what goodput by flow and jain are made of. */
#define FLOW_GOODPUT                                                                                      \
    "SELECT i.run_id AS run_id, i.flow AS flow, total(i.bytes) * 8 / " SPAN " AS g FROM interval i"        \
    " GROUP BY i.run_id, i.flow HAVING " SPAN " > 0"

#define RETRANS_NAME "(c.name GLOB 'flow.*.snd.retrans' OR c.name GLOB 'flow.*.sctp.client.retransmits')"
#define SRTT_NAME "s.name GLOB 'flow.*.snd.srtt_ms'"

/* Messages (the message table, docs/models/tcp-messages.md): the
 * completion times of each run's messages (rpc responses, a flow of
 * `bytes`, incast blocks; not incast rounds, which are metrics of their
 * own), a percentile per run, as the pFabric and Homa papers plot them;
 * replications then give the mean of a run's percentile and its interval
 * like any metric. Nearest-rank percentile: the value of rank
 * ceil(n x p) in the run's (or bucket's) sorted rows, in integers.
 * Buckets by message size as pFabric's figures (Alizadeh et al. 2013):
 * up to 100 KB, to 10 MB, above (KB and MB decimal). */
#define MSG_MESSAGES "m.kind IN ('rpc', 'bulk', 'block')"
#define MSG_ROUNDS "m.kind = 'round'"
#define MSG_BUCKET                                                                                        \
    "CASE WHEN m.size <= 100000 THEN '(0,100KB]' WHEN m.size <= 10000000 THEN '(100KB,10MB]'"             \
    " ELSE '(10MB,inf)' END"
#define MSG_PCT(x, part, where, num, den)                                                                  \
    "WITH v AS (SELECT m.run_id AS run_id, " part " AS e, " x " AS x, row_number() OVER (PARTITION BY"     \
    " m.run_id, " part " ORDER BY " x ") AS r, count(*) OVER (PARTITION BY m.run_id, " part ") AS n"        \
    " FROM message m WHERE " where ") SELECT run_id, e, x FROM v WHERE r = (n * " #num " + " #den " - 1)" \
    " / " #den
#define MSG_FCT "m.fct * 1e6"
#define MSG_SLOWDOWN "m.fct / m.ideal"
#define MSG_METRIC(name, x, where, num, den, unit, doc, quantity)                                        \
    { name, unit, METRIC_PLAIN, DIR_LOWER_BETTER, doc,                                                    \
      { MSG_PCT(x, "NULL", where, num, den), MSG_PCT(x, "m.flow", where, num, den), NULL,                 \
        MSG_PCT(x, MSG_BUCKET, where, num, den) },                                                        \
      quantity }
#define ROUND_METRIC(name, num, den, doc, quantity)                                                      \
    { name, "us", METRIC_PLAIN, DIR_LOWER_BETTER, doc,                                                    \
      { MSG_PCT(MSG_FCT, "NULL", MSG_ROUNDS, num, den), MSG_PCT(MSG_FCT, "m.flow", MSG_ROUNDS, num, den),  \
        NULL, NULL },                                                                                     \
      quantity }

static const struct metric metrics[] = {
    { "goodput", "bits/sec", METRIC_RATE, DIR_HIGHER_BETTER, "bytes of the flows x 8 / interval span",
      { FLOWS_CTE "SELECT i.run_id, NULL, total(i.bytes) * 8 / " SPAN " FROM interval i GROUP BY i.run_id"
                  " HAVING " SPAN " > 0",
        FLOWS_CTE "SELECT i.run_id, i.flow, total(i.bytes) * 8 / " SPAN " FROM interval i GROUP BY i.run_id, i.flow"
                  " HAVING " SPAN " > 0",
        FLOWS_CTE "SELECT i.run_id, fl.dst, total(i.bytes) * 8 / " SPAN " FROM interval i JOIN fl"
                  " ON fl.run_id = i.run_id AND fl.flow = i.flow GROUP BY i.run_id, fl.dst HAVING " SPAN " > 0" },
      "goodput" },
    { "retransmits", "segments", METRIC_COUNT, DIR_LOWER_BETTER, "segments (TCP), chunks (SCTP) resent",
      { FLOWS_CTE "SELECT c.run_id, NULL, total(c.value) FROM counter c WHERE " RETRANS_NAME " GROUP BY c.run_id",
        FLOWS_CTE "SELECT c.run_id, " FLOW_OF("c.name") ", total(c.value) FROM counter c WHERE " RETRANS_NAME
                  " GROUP BY 1, 2",
        FLOWS_CTE "SELECT c.run_id, fl.src, total(c.value) FROM counter c JOIN fl ON fl.run_id = c.run_id"
                  " AND fl.flow = " FLOW_OF("c.name") " WHERE " RETRANS_NAME " GROUP BY 1, 2" },
      "retransmissions" },
    { "rtt", "ms", METRIC_PLAIN, DIR_LOWER_BETTER, "mean srtt of the senders (flow.N.snd.srtt_ms)",
      { FLOWS_CTE "SELECT s.run_id, NULL, avg(s.value) FROM series s WHERE " SRTT_NAME " GROUP BY s.run_id",
        FLOWS_CTE "SELECT s.run_id, " FLOW_OF("s.name") ", avg(s.value) FROM series s WHERE " SRTT_NAME
                  " GROUP BY 1, 2",
        FLOWS_CTE "SELECT s.run_id, fl.src, avg(s.value) FROM series s JOIN fl ON fl.run_id = s.run_id"
                  " AND fl.flow = " FLOW_OF("s.name") " WHERE " SRTT_NAME " GROUP BY 1, 2" },
      "mean smoothed RTT" },
    { "drops", "packets", METRIC_COUNT, DIR_LOWER_BETTER, "packets dropped, every cause",
      { FLOWS_CTE "SELECT c.run_id, NULL, total(c.value) FROM counter c WHERE c.is_drop = 1 GROUP BY c.run_id",
        FLOWS_CTE "SELECT c.run_id, " FLOW_OF("c.name") ", total(c.value) FROM counter c WHERE c.is_drop = 1"
                  " AND c.name GLOB 'flow.[0-9]*.*' GROUP BY 1, 2",
        FLOWS_CTE ", h AS (SELECT run_id, src AS host FROM fl UNION SELECT run_id, dst FROM fl)"
                  " SELECT c.run_id, h.host, total(c.value) FROM counter c JOIN h ON h.run_id = c.run_id"
                  " AND substr(c.name, 1, length(h.host) + 1) = h.host || '.' WHERE c.is_drop = 1 GROUP BY 1, 2" },
      "drops" },
    { "jain", "", METRIC_PLAIN, DIR_HIGHER_BETTER, "Jain's index of the flows' goodput",
      { FLOWS_CTE ", g AS (" FLOW_GOODPUT ") SELECT run_id, NULL, total(g) * total(g) / (count(*) * total(g * g))"
                  " FROM g GROUP BY run_id HAVING total(g * g) > 0",
        NULL,
        FLOWS_CTE ", g AS (" FLOW_GOODPUT ") SELECT g.run_id, fl.dst, total(g) * total(g) / (count(*) *"
                  " total(g * g)) FROM g JOIN fl ON fl.run_id = g.run_id AND fl.flow = g.flow GROUP BY 1, 2"
                  " HAVING total(g * g) > 0" },
      "Jain's fairness index" },
    MSG_METRIC("fct_p50", MSG_FCT, MSG_MESSAGES, 50, 100, "us", "median message completion time",
               "median completion time"),
    MSG_METRIC("fct_p99", MSG_FCT, MSG_MESSAGES, 99, 100, "us", "99th percentile of message completion time",
               "99th percentile completion time"),
    MSG_METRIC("fct_p999", MSG_FCT, MSG_MESSAGES, 999, 1000, "us", "99.9th percentile of message completion time",
               "99.9th percentile completion time"),
    MSG_METRIC("slowdown_p50", MSG_SLOWDOWN, MSG_MESSAGES " AND m.ideal > 0", 50, 100, "",
               "median of fct / ideal", "median slowdown"),
    MSG_METRIC("slowdown_p99", MSG_SLOWDOWN, MSG_MESSAGES " AND m.ideal > 0", 99, 100, "",
               "99th percentile of fct / ideal", "99th percentile slowdown"),
    MSG_METRIC("slowdown_p999", MSG_SLOWDOWN, MSG_MESSAGES " AND m.ideal > 0", 999, 1000, "",
               "99.9th percentile of fct / ideal", "99.9th percentile slowdown"),
    ROUND_METRIC("round_p50", 50, 100, "median incast round completion time", "median round completion time"),
    ROUND_METRIC("round_p99", 99, 100, "99th percentile of incast round completion time",
                 "99th percentile round completion time"),
    { "rto_rounds", "rounds", METRIC_COUNT, DIR_LOWER_BETTER, "incast rounds during which a connection timed out",
      { "SELECT m.run_id, NULL, total(m.rtos > 0) FROM message m WHERE " MSG_ROUNDS " GROUP BY m.run_id",
        "SELECT m.run_id, m.flow, total(m.rtos > 0) FROM message m WHERE " MSG_ROUNDS " GROUP BY 1, 2", NULL,
        NULL },
      "rounds with an RTO" },
    /* ?1: the NAME of counter:NAME, a GLOB pattern */
    { "counter", "count", METRIC_COUNT, DIR_NEITHER, "sum of the counters NAME matches (GLOB)",
      { FLOWS_CTE "SELECT c.run_id, NULL, total(c.value) FROM counter c WHERE c.name GLOB ?1 GROUP BY c.run_id",
        FLOWS_CTE "SELECT c.run_id, " FLOW_OF("c.name") ", total(c.value) FROM counter c"
                  " WHERE c.name GLOB 'flow.[0-9]*.' || ?1 GROUP BY 1, 2",
        FLOWS_CTE ", h AS (SELECT run_id, src AS host FROM fl UNION SELECT run_id, dst FROM fl)"
                  " SELECT c.run_id, h.host, total(c.value) FROM counter c JOIN h ON h.run_id = c.run_id"
                  " AND c.name GLOB h.host || '.' || ?1 GROUP BY 1, 2" },
      "sum of the counters" },
};

const char *report_prog = "netsim report";

static const char *const by_names[REPORT_NBY] = { "run", "flow", "host", "size" };

static void list_metrics(FILE *f)
{
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        fprintf(f, "%s%s", i ? ", " : "", i + 1 < sizeof metrics / sizeof metrics[0] ? metrics[i].name : "counter:NAME");
}

int metric_parse(const char *metric, const char *by, struct metric_use *u)
{
    memset(u, 0, sizeof *u);
    u->by = BY_RUN;
    if (by) {
        size_t b;
        for (b = 0; b < REPORT_NBY && strcmp(by, by_names[b]); b++)
            ;
        if (b == REPORT_NBY) {
            fprintf(stderr, "%s: --by %s: expected run, flow, host or size\n", report_prog, by);
            return 2;
        }
        u->by = (enum report_by)b;
    }
    const char *colon = strchr(metric, ':');
    size_t n = colon ? (size_t)(colon - metric) : strlen(metric);
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
        if (strlen(metrics[i].name) != n || strncmp(metrics[i].name, metric, n))
            continue;
        u->m = &metrics[i];
        if (!strcmp(metrics[i].name, "counter") != !!colon || (colon && !colon[1]))
            break;
        u->pattern = colon ? colon + 1 : NULL;
        if (!u->m->sql[u->by]) {
            fprintf(stderr, "%s: --metric %s is over the flows of a run or host: not with --by %s\n", report_prog,
                    metric, by_names[u->by]);
            return 2;
        }
        u->label = colon ? metric : u->m->name;
        u->dir = u->m->dir;
        return 0;
    }
    fprintf(stderr, "%s: unknown metric '%s' (known: ", report_prog, metric);
    list_metrics(stderr);
    fputs(")\n", stderr);
    return 2;
}

/* Counters whose rise is bad or good, by the last part of their name;
 * every counter recorded as a drop (is_drop) is bad, and so is one whose
 * last part names drops, errors, failures or timeouts. The rest
 * (packets and bytes sent, polls, qdisc requeues, TSQ throttles ...)
 * count work, neither good nor bad. */
static const char *const worse_names[] = {
    "retrans", "retransmits", "rtos", "spurious_rtos", "lost_retrans", "recoveries", "dup_data", "dsacks_in",
    "dsacks_out", "zero_win_acks", "prune_collapse", "prune_raise", "rx_missed", "tx_busy",
    "t3_expiries", "t3_alternate", "t3_window_full", "stalls_2s", "fast_retransmits", "pf_entries", "tlps",
    "ReasmFails", "ReasmTimeout", "icmp_frag_needed", "giants", "ip_no_route", "ip_no_proto", "rcvbuf_errors",
    NULL,
};
static const char *const better_names[] = { "goodput_bps", "netperf_bps", "ReasmOKs", NULL };

enum metric_dir counter_dir(const char *name, int is_drop)
{
    if (is_drop)
        return DIR_LOWER_BETTER;
    const char *last = strrchr(name, '.');
    last = last ? last + 1 : name;
    for (int i = 0; worse_names[i]; i++)
        if (!strcmp(last, worse_names[i]))
            return DIR_LOWER_BETTER;
    for (int i = 0; better_names[i]; i++)
        if (!strcmp(last, better_names[i]))
            return DIR_HIGHER_BETTER;
    static const char *const bad_words[] = { "drop", "error", "fail", "timeout", NULL };
    for (int i = 0; bad_words[i]; i++)
        if (strcasestr(last, bad_words[i]))
            return DIR_LOWER_BETTER;
    return DIR_NEITHER;
}

void metric_resolve_dir(sqlite3 *db, struct metric_use *u)
{
    if (!u->pattern)
        return;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT DISTINCT name, max(is_drop) FROM counter WHERE name GLOB ?1 OR name GLOB"
                           " '*.' || ?1 GROUP BY name", -1, &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(st, 1, u->pattern, -1, SQLITE_STATIC);
    int seen = 0;
    enum metric_dir dir = DIR_NEITHER;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        enum metric_dir d = counter_dir(name ? name : "", sqlite3_column_int(st, 1));
        if (seen++ && d != dir) {
            dir = DIR_NEITHER;
            break;
        }
        dir = d;
    }
    sqlite3_finalize(st);
    u->dir = dir;
}

const char *metric_dir_words(enum metric_dir d)
{
    switch (d) {
    case DIR_HIGHER_BETTER: return "higher is better";
    case DIR_LOWER_BETTER: return "lower is better";
    case DIR_NEITHER: break;
    }
    return "neither higher nor lower is better";
}

const char *metric_by_name(enum report_by by)
{
    return by_names[by];
}

void metric_help(FILE *f)
{
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        fprintf(f, "          %-13s %s%s%s%s\n", strcmp(metrics[i].name, "counter") ? metrics[i].name
                : "counter:NAME", metrics[i].doc, *metrics[i].unit ? " (" : "", metrics[i].unit,
                *metrics[i].unit ? ")" : "");
}

int metric_query(sqlite3 *db, const struct metric_use *u, sqlite3_stmt **st)
{
    /* in run order, each run's flows by number (hosts by name) */
    char *sql = xasprintf("%s ORDER BY 1, 2", u->m->sql[u->by]);
    int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return -1;
    if (u->pattern)
        sqlite3_bind_text(*st, 1, u->pattern, -1, SQLITE_STATIC);
    return 0;
}
