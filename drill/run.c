/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.c - one script against a world of its own: the host under test
 * ("local", netsim's TCP) and the remote host whose side the interpreter
 * plays, one 100 Gbit/s link between them with no delay, both hosts with
 * the `ideal` CPU profile (no cost delays a reply) and no offloads (one
 * skb a segment, as packetdrill sees them on its tun device).
 *
 * Events run in order at their times (microseconds; a relative time
 * counts from the previous event's actual time, as packetdrill's do): an
 * inbound packet leaves the remote host at its time; a socket call runs
 * as a system call on the local host's core; an expected packet must
 * reach the remote port within --tolerance_usecs of its time and match
 * (drill/wire.c); a packet the script does not expect before its next
 * event fails it. An inbound packet enters the local stack directly (as
 * from packetdrill's tun device); an outbound one is seen as it reaches
 * the remote port, the link's serialisation later (< 1 us). What netsim cannot run ends the script "unsupported".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drill/drill.h"
#include "drill/run.h"
#include "drill/wire.h"
#include "load/load.h"
#include "load/scenario.h"
#include "models/tcp/tcp_api.h"
#include "sim/config.h"
#include "sim/nic.h"
#include "sim/sim.h"
#include "sim/skb.h"
#include "sim/xalloc.h"

#define MAX_FDS 16
#define MAX_SEEN 64
#define LOCAL_PORT 8080          /* packetdrill's default local port: bind(..., ...) */
#define REMOTE_PORT 40000        /* the remote side's port (packetdrill picks one) */
#define FIRST_FD 3

enum fd_kind { FD_NONE, FD_SOCKET, FD_LISTEN, FD_CONN };

struct seen {                    /* an outbound packet at the remote port */
    simtime_t t;
    struct drill_packet pk;
};

struct rt {
    const struct drill_script *s;
    const struct drill_opts *o;
    int64_t tol_us;
    struct cfg *cfg;
    struct sim *sim;
    struct host *L, *R;
    struct {
        enum fd_kind kind;
        struct tcp_sock *tp;
        uint16_t port;
    } fd[MAX_FDS];
    uint32_t remote_isn;
    struct seen seen[MAX_SEEN];
    int nseen;
    /* the action running as a task at its time */
    struct cpu_task call_task, send_task;
    const struct drill_event *cur;
    int64_t ret;
    const char *err;             /* the errno the call set, or NULL */
    struct skb *to_send;
    /* the verdict */
    int verdict;
    char *msg;
    int msglen;
};

static struct rt *g_rt;          /* the observer's way back: one script runs at a time */

static int say(struct rt *r, int verdict, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int say(struct rt *r, int verdict, int line, const char *fmt, ...)
{
    int k = snprintf(r->msg, (size_t)r->msglen, "%s:%d: %s", r->s->path, line,
                     verdict == DRILL_UNSUPPORTED ? "unsupported: " : "");
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && k < r->msglen)
        vsnprintf(r->msg + k, (size_t)(r->msglen - k), fmt, ap);
    va_end(ap);
    r->verdict = verdict;
    return verdict;
}

static double secs(simtime_t t) { return (double)t / PS_PER_S; }

/* ---- the world ---- */

static void observe(struct nic *n, const struct skb *skb, bool dropped)
{
    (void)n;
    (void)dropped;
    struct rt *r = g_rt;
    if (skb->proto != IPPROTO_TCP_ || skb->saddr != r->L->id || r->nseen == MAX_SEEN)
        return;
    struct seen *v = &r->seen[r->nseen++];
    v->t = r->sim->q.now;
    wire_outbound(skb, r->remote_isn, &v->pk);
    r->sim->q.stop = true;       /* back to the interpreter */
}

/* the sysctls of the script's commands, as the local host's keys */
static int build(struct rt *r, const char *host_keys)
{
    char *ini = xasprintf("[sim]\nduration = 100000s\n"
                          "[host local]\ncpu = ideal\ncores = 1\ntso = off\ngso = off\ngro = off\ntcp.tsq = off\n%s"
                          "[host remote]\ncpu = ideal\ncores = 1\ntso = off\ngso = off\ngro = off\n"
                          "[link wire]\nends = local:eth0 remote:eth0\nrate = 100gbit\n",
                          host_keys);
    r->cfg = cfg_load_string("drill.ini", ini);
    free(ini);
    r->sim = cfg_errors(r->cfg) ? NULL : sim_build(r->cfg, 1, true);
    if (!r->sim || cfg_errors(r->cfg)) {
        cfg_print_errors(r->cfg, stderr);
        return say(r, DRILL_UNSUPPORTED, 1, "the sysctls given (netsim's keys: %s)", host_keys);
    }
    r->L = host_find(r->sim, "local");
    r->R = host_find(r->sim, "remote");
    r->R->nics[0]->rx_observer = observe;
    return DRILL_PASS;
}

/* ---- commands: sysctls mapped to netsim's keys ---- */

static const struct { const char *sysctl, *key; } sysctl_map[] = {
    { "net.ipv4.tcp_congestion_control", "tcp.cc" },
    { "net.ipv4.tcp_timestamps", NULL }, { "net.ipv4.tcp_sack", NULL }, { "net.ipv4.tcp_window_scaling", NULL },
    { "net.ipv4.tcp_ecn", NULL }, { "net.ipv4.tcp_ecn_fallback", NULL }, { "net.ipv4.tcp_rmem", NULL },
    { "net.ipv4.tcp_wmem", NULL }, { "net.ipv4.tcp_reordering", NULL }, { "net.ipv4.tcp_fack", NULL },
    { "net.ipv4.tcp_recovery", NULL }, { "net.ipv4.tcp_early_retrans", NULL },
    { "net.ipv4.tcp_moderate_rcvbuf", NULL }, { "net.ipv4.tcp_adv_win_scale", NULL },
    { "net.ipv4.tcp_app_win", NULL }, { "net.ipv4.tcp_min_tso_segs", NULL },
    { "net.ipv4.tcp_tso_win_divisor", NULL }, { "net.ipv4.tcp_limit_output_bytes", NULL },
    { "net.core.rmem_max", NULL }, { "net.core.wmem_max", NULL }, { "net.core.rmem_default", NULL },
    { "net.core.wmem_default", NULL },
};

/* Each line of a command must be `sysctl [-q] [-w] NAME=VALUE...` of a
 * sysctl netsim has; appends "key = value\n" lines to keys. */
static int command_keys(struct rt *r, const char *cmd, int line, char *keys, size_t klen)
{
    char *copy = xstrdup(cmd), *save = NULL;
    int rc = DRILL_PASS;
    for (char *ln = strtok_r(copy, "\n", &save); ln && rc == DRILL_PASS; ln = strtok_r(NULL, "\n", &save)) {
        char *hash = strchr(ln, '#');
        if (hash)
            *hash = 0;
        char *save2 = NULL, *w = strtok_r(ln, " \t", &save2);
        if (!w)
            continue;
        if (strcmp(w, "sysctl")) {
            rc = say(r, DRILL_UNSUPPORTED, line, "command `%s`", w);
            break;
        }
        while ((w = strtok_r(NULL, " \t", &save2))) {
            if (w[0] == '-')
                continue;
            char *eq = strchr(w, '=');
            if (!eq) {
                rc = say(r, DRILL_UNSUPPORTED, line, "sysctl read `%s`", w);
                break;
            }
            *eq = 0;
            const char *key = NULL;
            for (size_t i = 0; i < sizeof sysctl_map / sizeof sysctl_map[0] && !key; i++)
                if (!strcmp(w, sysctl_map[i].sysctl))
                    key = sysctl_map[i].key ? sysctl_map[i].key : sysctl_map[i].sysctl;
            if (!key) {
                rc = say(r, DRILL_UNSUPPORTED, line, "sysctl %s (no netsim key)", w);
                break;
            }
            char *v = eq + 1;
            size_t n = strlen(v);
            if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
                v[n - 1] = 0;
                v++;
            }
            size_t k = strlen(keys);
            snprintf(keys + k, klen - k, "%s = %s\n", key, v);
        }
    }
    free(copy);
    return rc;
}

/* ---- socket calls ---- */

static int arg_int(const struct drill_call *c, int i, int64_t *v)
{
    if (i >= c->nargs || c->args[i]->kind != DE_INT)
        return -1;
    *v = c->args[i]->num;
    return 0;
}

static bool arg_is(const struct drill_call *c, int i, const char *word)
{
    return i < c->nargs && ((c->args[i]->kind == DE_WORD && !strcmp(c->args[i]->str, word)) ||
                            c->args[i]->kind == DE_ELLIPSIS);
}

static int fd_of(struct rt *r, const struct drill_call *c, enum fd_kind want)
{
    int64_t fd;
    if (arg_int(c, 0, &fd) || fd < FIRST_FD || fd >= MAX_FDS || r->fd[fd].kind == FD_NONE)
        return -1;
    if (want != FD_NONE && r->fd[fd].kind != want)
        return -1;
    return (int)fd;
}

/* Runs the call on the local core (a process task, so that what it sends
 * leaves at core_now): ret and err as the kernel would return them, or
 * DRILL_UNSUPPORTED with the reason said. */
static int do_call(struct rt *r, const struct drill_event *ev, struct core *c)
{
    const struct drill_call *k = &ev->call;
    r->err = NULL;
    r->ret = 0;
    int fd;
    if (k->blocking)
        return say(r, DRILL_UNSUPPORTED, ev->line, "blocking call %s (... END)", k->name);
    if (!strcmp(k->name, "socket")) {
        if (!(arg_is(k, 0, "AF_INET") || arg_is(k, 0, "PF_INET")) || !arg_is(k, 1, "SOCK_STREAM") ||
            !(arg_is(k, 2, "IPPROTO_TCP")))
            return say(r, DRILL_UNSUPPORTED, ev->line, "socket() other than (AF_INET, SOCK_STREAM, IPPROTO_TCP)");
        for (fd = FIRST_FD; fd < MAX_FDS && r->fd[fd].kind != FD_NONE; fd++)
            ;
        if (fd == MAX_FDS)
            return say(r, DRILL_UNSUPPORTED, ev->line, "more than %d sockets", MAX_FDS - FIRST_FD);
        r->fd[fd].kind = FD_SOCKET;
        r->ret = fd;
    } else if (!strcmp(k->name, "setsockopt")) {
        /* SO_REUSEADDR changes nothing a fresh world can see */
        if (!arg_is(k, 1, "SOL_SOCKET") || !arg_is(k, 2, "SO_REUSEADDR"))
            return say(r, DRILL_UNSUPPORTED, ev->line, "setsockopt other than SO_REUSEADDR");
        if (fd_of(r, k, FD_NONE) < 0)
            r->ret = -1, r->err = "EBADF";
    } else if (!strcmp(k->name, "bind")) {
        if ((fd = fd_of(r, k, FD_SOCKET)) < 0)
            r->ret = -1, r->err = "EBADF";
        else if (k->nargs < 2 || k->args[1]->kind != DE_ELLIPSIS)
            return say(r, DRILL_UNSUPPORTED, ev->line, "bind() to an address other than the default (...)");
        else
            r->fd[fd].port = LOCAL_PORT;
    } else if (!strcmp(k->name, "listen")) {
        int64_t backlog;
        if ((fd = fd_of(r, k, FD_SOCKET)) < 0 || arg_int(k, 1, &backlog))
            r->ret = -1, r->err = "EBADF";
        else {
            r->fd[fd].tp = tcp_api_listen(r->L, r->fd[fd].port ? r->fd[fd].port : LOCAL_PORT, NET_IPV4, (int)backlog);
            r->fd[fd].kind = FD_LISTEN;
        }
    } else if (!strcmp(k->name, "accept")) {
        if ((fd = fd_of(r, k, FD_LISTEN)) < 0)
            r->ret = -1, r->err = "EINVAL";
        else {
            struct tcp_sock *tp = tcp_api_accept(r->fd[fd].tp);
            int nfd;
            for (nfd = FIRST_FD; nfd < MAX_FDS && r->fd[nfd].kind != FD_NONE; nfd++)
                ;
            if (!tp)
                r->ret = -1, r->err = "EAGAIN";
            else if (nfd == MAX_FDS)
                return say(r, DRILL_UNSUPPORTED, ev->line, "more than %d sockets", MAX_FDS - FIRST_FD);
            else {
                r->fd[nfd].kind = FD_CONN;
                r->fd[nfd].tp = tp;
                r->ret = nfd;
            }
        }
    } else if (!strcmp(k->name, "write") || !strcmp(k->name, "send")) {
        int64_t n;
        if ((fd = fd_of(r, k, FD_CONN)) < 0 || arg_int(k, 2, &n) || n < 0)
            r->ret = -1, r->err = "EBADF";
        else if ((r->ret = tcp_api_write(r->fd[fd].tp, (uint64_t)n, c)) < 0)
            return say(r, DRILL_UNSUPPORTED, ev->line,
                       "write of %lld bytes: netsim's TCP sends whole segments only (MSS %u)", (long long)n,
                       r->fd[fd].tp->mss);
    } else if (!strcmp(k->name, "read") || !strcmp(k->name, "recv")) {
        int64_t n;
        if ((fd = fd_of(r, k, FD_CONN)) < 0 || arg_int(k, 2, &n) || n < 0)
            r->ret = -1, r->err = "EBADF";
        else {
            r->ret = (int64_t)tcp_api_read(r->fd[fd].tp, (uint64_t)n, c);
            if (!r->ret)
                r->ret = -1, r->err = "EAGAIN";   /* no FIN in the model: nothing to read is "try again" */
        }
    } else if (!strcmp(k->name, "close")) {
        if ((fd = fd_of(r, k, FD_NONE)) < 0)
            r->ret = -1, r->err = "EBADF";
        else if (r->fd[fd].kind == FD_CONN)
            return say(r, DRILL_UNSUPPORTED, ev->line, "close() of a connection (netsim's TCP sends no FIN)");
        else
            r->fd[fd].kind = FD_NONE;        /* a listener's sockets stay with the host until the world goes */
    } else {
        return say(r, DRILL_UNSUPPORTED, ev->line, "system call %s()", k->name);
    }
    return DRILL_PASS;
}

static bool call_slice(struct cpu_task *t, struct core *c)
{
    struct rt *r = t->ctx;
    if (do_call(r, r->cur, c) != DRILL_PASS)
        r->sim->q.stop = true;
    return false;
}

static bool send_slice(struct cpu_task *t, struct core *c)
{
    struct rt *r = t->ctx;
    /* as packetdrill's tun device: the packet enters the local stack
     * at its time, in a softirq on the local core, no wire between */
    struct skb *skb = r->to_send;
    r->to_send = NULL;
    skb->saddr = r->R->id;
    skb->daddr = r->L->id;
    skb->tstamp = core_now(c);
    skb->hash = 1;
    ip_rcv(r->L, skb, c);
    return false;
}

/* ---- the event loop ---- */

/* runs the world to `until`, or to the first packet seen */
static void run_to(struct rt *r, simtime_t until)
{
    r->sim->q.stop = false;
    if (until > r->sim->q.now)
        evq_run(&r->sim->q, until);
    r->sim->q.stop = false;
}

static int unexpected(struct rt *r, int line)
{
    char b[256];
    wire_format(&r->seen[0].pk, b, sizeof b);
    return say(r, DRILL_FAIL, line, "unexpected outbound packet at %.6f: %s", secs(r->seen[0].t), b);
}

static void drop_seen(struct rt *r)
{
    memmove(r->seen, r->seen + 1, sizeof r->seen[0] * (size_t)(r->nseen - 1));
    r->nseen--;
}

static int expect_packet(struct rt *r, const struct drill_event *ev, simtime_t lo, simtime_t hi, simtime_t *at)
{
    simtime_t tol = r->tol_us * PS_PER_US;
    simtime_t from = lo - tol > 0 ? lo - tol : 0, until = hi + tol;
    if (ev->tkind == DT_ANY)
        until = SIMTIME_NEVER / 2;
    while (!r->nseen && r->sim->q.now < until) {
        run_to(r, until);
        if (!r->nseen && evq_next_time(&r->sim->q) > until)
            break;
    }
    char want[256], got[256], why[256];
    wire_format(&ev->pkt, want, sizeof want);
    if (!r->nseen)
        return say(r, DRILL_FAIL, ev->line, "timed out waiting for packet: expected %s by %.6f", want, secs(until));
    struct seen v = r->seen[0];
    drop_seen(r);
    *at = v.t;
    wire_format(&v.pk, got, sizeof got);
    if (wire_compare(&ev->pkt, &v.pk, why, sizeof why))
        return say(r, DRILL_FAIL, ev->line, "bad outbound packet (%s)\n  expected: %s\n  got:      %s at %.6f", why,
                   want, got, secs(v.t));
    if (ev->tkind != DT_ANY && v.t < from)
        return say(r, DRILL_FAIL, ev->line,
                   "timing error: expected outbound packet at %.6f sec but happened at %.6f sec; tolerance %.6f sec",
                   secs(lo), secs(v.t), secs(tol));
    if (r->o->verbose)
        printf("%.6f %s\n", secs(v.t), got);
    return DRILL_PASS;
}

static int check_result(struct rt *r, const struct drill_event *ev)
{
    const struct drill_call *k = &ev->call;
    if (k->ret->kind == DE_ELLIPSIS)
        return DRILL_PASS;
    if (k->ret->kind != DE_INT)
        return say(r, DRILL_UNSUPPORTED, ev->line, "a result other than an integer");
    if (k->ret->num != r->ret || (k->err && (!r->err || strcmp(k->err, r->err))) || (!k->err && r->err))
        return say(r, DRILL_FAIL, ev->line, "%s() returned %lld%s%s, expected %lld%s%s", k->name, (long long)r->ret,
                   r->err ? " " : "", r->err ? r->err : "", (long long)k->ret->num, k->err ? " " : "",
                   k->err ? k->err : "");
    return DRILL_PASS;
}

static int run_events(struct rt *r, int first)
{
    simtime_t last = 0;
    for (int i = first; i < r->s->nev; i++) {
        const struct drill_event *ev = &r->s->ev[i];
        bool rel = ev->tkind == DT_REL || ev->tkind == DT_REL_RANGE;
        /* a time is at most 10^6 s (the parser's bound), so each product
         * fits; a run of relative times adds up, saturating */
        simtime_t t = time_add(rel ? last : 0, ev->t_us * PS_PER_US);
        simtime_t t_end = ev->tkind == DT_ABS_RANGE || ev->tkind == DT_REL_RANGE
                              ? time_add(rel ? last : 0, ev->t_end_us * PS_PER_US) : t;
        if (ev->kind == DV_PACKET && !ev->pkt.inbound) {
            if (ev->pkt.proto != DP_TCP)
                return say(r, DRILL_UNSUPPORTED, ev->line, "an outbound %s", ev->pkt.proto == DP_UDP ? "UDP datagram" : "ICMP message");
            if (expect_packet(r, ev, t, t_end, &last) != DRILL_PASS)
                return r->verdict;
            continue;
        }
        if (ev->kind == DV_CODE)
            return say(r, DRILL_UNSUPPORTED, ev->line, "%%{ }%% assertions on tcpi_* (no TCP_INFO view yet)");
        if (ev->kind == DV_COMMAND)
            return say(r, DRILL_UNSUPPORTED, ev->line, "a command once the script has started");
        if (t < r->sim->q.now)
            t = r->sim->q.now;
        run_to(r, t);
        if (r->nseen)
            return unexpected(r, ev->line);
        last = t;
        r->cur = ev;
        if (ev->kind == DV_PACKET) {
            char why[128];
            if (ev->pkt.flags & DF_SYN)
                r->remote_isn = ev->pkt.seq;       /* the remote side's numbers count from here */
            r->to_send = wire_inbound(&ev->pkt, r->remote_isn, ev->pkt.sport ? ev->pkt.sport : REMOTE_PORT,
                                      ev->pkt.dport ? ev->pkt.dport : LOCAL_PORT, why, sizeof why);
            if (!r->to_send)
                return say(r, DRILL_UNSUPPORTED, ev->line, "%s", why);
            core_wake(&r->L->cores[0], &r->send_task, t);
        } else {
            r->verdict = DRILL_PASS;
            core_wake(&r->L->cores[0], &r->call_task, t);
        }
        /* the action runs at t; what it sends is seen by the next event */
        evq_run(&r->sim->q, t);
        if (r->verdict != DRILL_PASS)
            return r->verdict;
        if (ev->kind == DV_CALL && check_result(r, ev) != DRILL_PASS)
            return r->verdict;
        if (r->o->verbose)
            printf("%.6f line %d ok\n", secs(t), ev->line);
    }
    return DRILL_PASS;
}

bool drill_tolerance_parse(const char *v, int64_t *us)
{
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (end == v || *end || errno || n < 0 || n > 1000000000000LL)
        return false;
    *us = n;
    return true;
}

int drill_run(const struct drill_script *s, const struct drill_opts *o, char *msg, int len)
{
    struct rt *r = xcalloc(1, sizeof *r);
    r->s = s;
    r->o = o;
    r->msg = msg;
    r->msglen = len;
    r->tol_us = o->tolerance_us;
    msg[0] = 0;
    int rc = DRILL_PASS;
    for (int i = 0; i < s->nopts && rc == DRILL_PASS; i++) {
        const struct drill_option *op = &s->opts[i];
        if (!strcmp(op->name, "tolerance_usecs") && op->value) {
            if (!drill_tolerance_parse(op->value, &r->tol_us))
                rc = say(r, DRILL_FAIL, 1, "--tolerance_usecs=%s: expected a whole number of microseconds, 0 to 10^12",
                         op->value);
        } else if (!(!strcmp(op->name, "ip_version") && op->value && !strcmp(op->value, "ipv4")))
            rc = say(r, DRILL_UNSUPPORTED, 1, "option --%s%s%s", op->name, op->value ? "=" : "",
                     op->value ? op->value : "");
    }
    /* the commands before the first other event set the host up */
    char keys[2048] = "";
    int first = 0;
    if (o->kernel)               /* the release the script was written for; sysctls after it still win */
        snprintf(keys, sizeof keys, "kernel = %s\n", o->kernel);
    if (rc == DRILL_PASS && s->init_cmd)
        rc = command_keys(r, s->init_cmd, s->init_line, keys, sizeof keys);
    for (; rc == DRILL_PASS && first < s->nev && s->ev[first].kind == DV_COMMAND; first++)
        rc = command_keys(r, s->ev[first].text, s->ev[first].line, keys, sizeof keys);
    if (rc == DRILL_PASS && s->cleanup_cmd)
        rc = command_keys(r, s->cleanup_cmd, s->cleanup_line, keys, sizeof keys);
    if (rc == DRILL_PASS)
        rc = build(r, keys);
    if (rc == DRILL_PASS) {
        g_rt = r;
        r->call_task = (struct cpu_task){ .run = call_slice, .ctx = r, .cls = CPU_PROCESS, .name = "packetdrill" };
        r->send_task = (struct cpu_task){ .run = send_slice, .ctx = r, .cls = CPU_SOFTIRQ, .name = "tun" };
        rc = run_events(r, first);
        for (int fd = FIRST_FD; fd < MAX_FDS; fd++)
            if (r->fd[fd].kind == FD_LISTEN || (r->fd[fd].tp && r->fd[fd].tp->state == TCP_LISTEN))
                tcp_api_close_listener(r->fd[fd].tp);
        if (r->to_send)
            skb_free(r->to_send);
        g_rt = NULL;
    }
    if (r->sim)
        sim_free(r->sim);
    if (r->cfg)
        cfg_free(r->cfg);
    free(r);
    return rc;
}
