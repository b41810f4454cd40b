/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rwnd_old.c - sctp.rwnd = old: the receive window kept by increase and
 * decrease accounting, as in Linux 3.10 and as restored by Daniel
 * Borkmann's revert of ef2820a735f7 (April 2014, 3.15).
 * Kernel: net/sctp/associola.c sctp_assoc_rwnd_decrease() and
 * sctp_assoc_rwnd_increase(); ulpevent.c passes the payload (skb_headlen on
 * receive, skb->len on release). sctp.md A.6.
 *
 * The window shrinks by the payload of each message received: 1452 bytes
 * for a 1452-byte message, while the memory it holds is 1452 + 232. It
 * therefore closes at 73 queued messages (rmem 58 % of sk_rcvbuf), leaving
 * room for a burst into the socket backlog. rwnd_over records a chunk that
 * overshot the window; rwnd_press the window withheld because memory ran
 * out first (small messages), given back one PMTU at a time.
 */
#include "models/sctp/sctp.h"

static void on_receive(struct sctp_assoc *a, uint32_t len)
{
    bool over = a->rmem >= a->sk.rcvbuf;
    if (a->rwnd >= len) {
        a->rwnd -= len;
        if (over) {
            a->rwnd_press += a->rwnd;
            a->rwnd = 0;
        }
    } else {
        a->rwnd_over = len - a->rwnd;
        a->rwnd = 0;
    }
}

static void on_release(struct sctp_assoc *a, uint32_t len)
{
    if (a->rwnd_over) {
        if (a->rwnd_over >= len) {
            a->rwnd_over -= len;
        } else {
            a->rwnd += len - a->rwnd_over;
            a->rwnd_over = 0;
        }
    } else {
        a->rwnd += len;
    }
    if (a->rwnd_press && a->rwnd >= a->rwnd_press) {
        uint32_t change = a->pmtu < a->rwnd_press ? a->pmtu : a->rwnd_press;
        a->rwnd += change;
        a->rwnd_press -= change;
    }
}

static bool reject(const struct sctp_assoc *a, uint32_t datalen)
{
    return a->rwnd == 0 || a->rwnd_over != 0 || datalen > a->rwnd + a->frag_point;
}

const struct sctp_rwnd_ops sctp_rwnd_old = {
    .name = "old",
    .doc = "3.10 / the revert: rwnd -= payload on receive, += on read; rwnd_over, rwnd_press",
    .on_receive = on_receive,
    .on_release = on_release,
    .reject = reject,
};
VARIANT("sctp.rwnd", sctp_rwnd_old);
