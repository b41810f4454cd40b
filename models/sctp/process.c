/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * process.c - the two processes of an association: the writer (a blocking
 * sendmsg loop: iperf3 -c, netperf) and the reader (select() then one
 * read per message: iperf3 -s; netserver), and the socket lock each holds
 * (sctp.md A.3, A.5.5; the spec leaves the sender's lock out as a
 * simplification, the model keeps it: its SACKs wait in the backlog while
 * the writer is inside sctp_sendmsg).
 *
 * The reader is split into slices at the points where the lock changes
 * hands, so that softirq work on another core sees the lock owned for
 * exactly the locked span: select (unlocked), lock_sock + dequeue + copy
 * (owned), free the event (rwnd update, maybe a window-update SACK), then
 * release_sock: one backlogged packet per slice, in the reader's context,
 * until the backlog is empty; only then is sk_backlog.len reset and the
 * lock dropped (__release_sock).
 */
#include "models/sctp/sctp.h"
#include "sim/invariant.h"

enum { R_SELECT, R_LOCKED, R_FREE, R_DRAIN };

enum { W_SEND, W_RELEASE };

/* One step of release_sock (__release_sock): one backlogged packet through
 * sctp_backlog_rcv in the owner's context; once the backlog is empty,
 * sk_backlog.len is reset and the lock dropped. False when that happened. */
static bool release_sock_step(struct sctp_assoc *a, struct core *c)
{
    struct skb *skb = skbq_pop(&a->backlog);
    if (skb) {
        sctp_input(a, skb, c);
        return true;
    }
    a->backlog_len = 0;
    a->owned = false;
    return false;
}

/* The writer owns the socket lock from lock_sock in sctp_sendmsg to the end
 * of release_sock, as the reader does: a SACK that comes in meanwhile waits
 * in the backlog and is processed in the writer's context, on its core,
 * when the lock is released (__release_sock), one per slice. A sendmsg that
 * finds no room releases the lock the same way before it sleeps
 * (sctp_wait_for_sndbuf: sctp_release_sock, then schedule_timeout), and
 * sleeps only if the SACKs it processed there did not make room. */
static bool writer_slice(struct cpu_task *t, struct core *c)
{
    struct sctp_assoc *a = t->ctx;
    if (a->writer_state == W_RELEASE) {
        if (release_sock_step(a, c))
            return true;
        a->writer_state = W_SEND;
        if (a->writer_wait) {
            a->writer_wait = false;
            if (sctp_wspace(a) < a->msg_len) {
                a->writer_sleeping = true;
                return false;
            }
        }
        return true;
    }
    if (core_now(c) >= a->stop)
        return false;
    if (a->writer_woken) {
        /* the scheduler's wake-up comes before sctp_lock_sock */
        sctp_charge(a->host, c, sctp_sym.wake_writer);
        a->writer_woken = false;
        return true;
    }
    a->owned = true;                        /* lock_sock */
    if (!sctp_sendmsg(a, a->msg_len, c))
        a->writer_wait = true;
    else if (a->hooks.written)
        a->hooks.written(a, a->msg_len, c);
    a->writer_state = W_RELEASE;
    return true;
}

static bool reader_slice(struct cpu_task *t, struct core *c)
{
    struct sctp_assoc *a = t->ctx;
    struct host *h = a->host;
    switch (a->reader_state) {
    case R_SELECT:
        if (!a->rq_n) {
            a->reader_sleeping = true;
            return false;
        }
        if (a->reader_woken) {
            sctp_charge(h, c, sctp_sym.wake_reader);
            a->reader_woken = false;
        }
        sctp_charge(h, c, sctp_sym.syscall);
        sctp_charge(h, c, sctp_sym.select);
        a->reader_state = R_LOCKED;
        return true;
    case R_LOCKED:
        a->owned = true;         /* lock_sock */
        a->reading = a->rq[a->rq_head];
        a->rq_head = (a->rq_head + 1) & (SCTP_RQ_RING - 1);
        a->rq_n--;
        sctp_charge(h, c, sctp_sym.recvmsg);
        sctp_charge_bytes(h, c, sctp_sym.copy_user, a->reading);
        a->reader_state = R_FREE;
        return true;
    case R_FREE:
        /* sctp_ulpevent_free: rwnd first, then the skb destructor */
        a->sh->rwnd->on_release(a, a->reading);
        sctp_window_update(a, c);
        INVARIANT(a->rmem >= a->reading + a->sh->skb_struct_size);
        a->rmem -= a->reading + a->sh->skb_struct_size;
        if (a->hooks.read)
            a->hooks.read(a, a->reading, c);
        a->reader_state = R_DRAIN;
        /* release_sock */
        __attribute__((fallthrough));
    case R_DRAIN:
    default:
        if (!release_sock_step(a, c))
            a->reader_state = R_SELECT;
        return true;
    }
}

void sctp_wake_reader(struct sctp_assoc *a, struct core *c)
{
    if (!a->reader_sleeping)
        return;
    a->reader_sleeping = false;
    a->reader_woken = true;
    core_wake(a->reader_core, &a->reader, core_now(c));
}

/* __sctp_write_space: wake the writer whenever there is any space; in
 * sctp_wait_for_sndbuf it goes back to sleep (having paid the wake-up)
 * until the space holds its message. */
void sctp_wake_writer(struct sctp_assoc *a, struct core *c)
{
    if (!a->writer_sleeping || sctp_wspace(a) == 0)
        return;
    a->writer_sleeping = false;
    a->writer_woken = true;
    core_wake(a->writer_core, &a->writer, core_now(c));
}

void sctp_procs_init(struct sctp_assoc *client, struct sctp_assoc *server, struct core *wcore, struct core *rcore,
                     uint32_t msg_len, simtime_t stop)
{
    client->writer_core = wcore;
    client->msg_len = msg_len;
    client->stop = stop;
    client->writer = (struct cpu_task){ .run = writer_slice, .ctx = client, .cls = CPU_PROCESS, .name = "sctp_writer" };
    server->reader_core = rcore;
    server->msg_len = msg_len;
    server->reader = (struct cpu_task){ .run = reader_slice, .ctx = server, .cls = CPU_PROCESS, .name = "sctp_reader" };
    server->reader_state = R_SELECT;
}

void sctp_procs_start(struct sctp_assoc *client, struct sctp_assoc *server, simtime_t start)
{
    /* sctp_cmd_hb_timers_start at COMMUNICATE_UP, on both ends */
    for (int i = 0; i < client->npaths; i++)
        kt_mod(&client->tp[i].hb, client->sh->hb->timeout(&client->tp[i]), NULL, NULL, &client->sh->kt, KT_DO_SM);
    for (int i = 0; i < server->npaths; i++)
        kt_mod(&server->tp[i].hb, server->sh->hb->timeout(&server->tp[i]), NULL, NULL, &server->sh->kt, KT_DO_SM);
    client->last_progress = start;
    core_wake(server->reader_core, &server->reader, server->host->q->now);
    core_wake(client->writer_core, &client->writer, start);
}
