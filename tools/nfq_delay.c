/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nfq_delay.c - a delay line and Bernoulli loss for a kernel without
 * netem: tools/kernel-check runs it inside the receiver's network
 * namespace, where an iptables rule (-j NFQUEUE) hands it every packet
 * arriving from the bottleneck. It holds each packet's verdict for the
 * delay, then accepts it (one batch verdict for every packet due), or
 * drops it at once with probability LOSS. The packets stay in the
 * kernel; only their metadata is copied up (NFQNL_COPY_META).
 *
 *   nfq_delay QUEUE DELAY_US LOSS_PERCENT SEED [BATCH_US]
 *
 * Runs until SIGTERM or SIGINT, then prints one line:
 *   nfq_delay packets=N accepted=N lost=N max_held=N late_us_max=N
 * Raw netlink (linux/netfilter/nfnetlink_queue.h), no library.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static int fd;
static uint16_t qnum;
static uint32_t seq;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: the loss draws, reproducible from SEED */
static uint64_t rng;
static double draw(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

struct msg {
    char buf[256];
    size_t len;
};

static struct nlmsghdr *msg_start(struct msg *m, uint16_t type)
{
    struct nlmsghdr *nh = (struct nlmsghdr *)m->buf;
    struct nfgenmsg *g;

    memset(m->buf, 0, sizeof m->buf);
    nh->nlmsg_type = (NFNL_SUBSYS_QUEUE << 8) | type;
    nh->nlmsg_flags = NLM_F_REQUEST;
    nh->nlmsg_seq = ++seq;
    g = (struct nfgenmsg *)NLMSG_DATA(nh);
    g->nfgen_family = AF_UNSPEC;
    g->version = NFNETLINK_V0;
    g->res_id = htons(qnum);
    m->len = NLMSG_LENGTH(sizeof *g);
    nh->nlmsg_len = (uint32_t)m->len;
    return nh;
}

static void msg_attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
    struct nlattr *a = (struct nlattr *)(m->buf + NLMSG_ALIGN(m->len));

    a->nla_type = type;
    a->nla_len = (uint16_t)(NLA_HDRLEN + len);
    memcpy((char *)a + NLA_HDRLEN, data, len);
    m->len = NLMSG_ALIGN(m->len) + NLA_ALIGN(a->nla_len);
    ((struct nlmsghdr *)m->buf)->nlmsg_len = (uint32_t)m->len;
}

static int msg_send(struct msg *m)
{
    struct sockaddr_nl to = { .nl_family = AF_NETLINK };

    return sendto(fd, m->buf, m->len, 0, (struct sockaddr *)&to, sizeof to) < 0 ? -1 : 0;
}

static int verdict(uint32_t id, uint32_t v, int batch)
{
    struct msg m;
    struct nfqnl_msg_verdict_hdr vh = { .verdict = htonl(v), .id = htonl(id) };

    msg_start(&m, batch ? NFQNL_MSG_VERDICT_BATCH : NFQNL_MSG_VERDICT);
    msg_attr(&m, NFQA_VERDICT_HDR, &vh, sizeof vh);
    return msg_send(&m);
}

/* the packets held: id and when each is due, in arrival (id) order */
#define RING (1u << 20)
static uint32_t ring_id[RING];
static uint64_t ring_due[RING];
static size_t head, tail;

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: nfq_delay QUEUE DELAY_US LOSS_PERCENT SEED [BATCH_US]\n");
        return 2;
    }
    qnum = (uint16_t)atoi(argv[1]);
    uint64_t delay = strtoull(argv[2], NULL, 10) * 1000ull;
    double loss = atof(argv[3]) / 100.0;
    rng = strtoull(argv[4], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
    uint64_t batch = (argc > 5 ? strtoull(argv[5], NULL, 10) : 100) * 1000ull;
    uint64_t packets = 0, accepted = 0, lost = 0, max_held = 0, late_max = 0;

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
    if (fd < 0) {
        perror("nfq_delay: socket");
        return 1;
    }
    int big = 64 << 20, one = 1;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
    setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);
    struct sockaddr_nl me = { .nl_family = AF_NETLINK };
    if (bind(fd, (struct sockaddr *)&me, sizeof me) < 0) {
        perror("nfq_delay: bind");
        return 1;
    }

    struct msg m;
    struct nfqnl_msg_config_cmd cmd = { .command = NFQNL_CFG_CMD_BIND, .pf = htons(AF_INET) };
    struct nfqnl_msg_config_params params = { .copy_range = htonl(0), .copy_mode = NFQNL_COPY_META };
    uint32_t maxlen = htonl(RING / 2);
    msg_start(&m, NFQNL_MSG_CONFIG);
    msg_attr(&m, NFQA_CFG_CMD, &cmd, sizeof cmd);
    if (msg_send(&m) < 0) {
        perror("nfq_delay: bind queue");
        return 1;
    }
    msg_start(&m, NFQNL_MSG_CONFIG);
    msg_attr(&m, NFQA_CFG_PARAMS, &params, sizeof params);
    msg_attr(&m, NFQA_CFG_QUEUE_MAXLEN, &maxlen, sizeof maxlen);
    if (msg_send(&m) < 0) {
        perror("nfq_delay: configure queue");
        return 1;
    }
    fprintf(stderr, "nfq_delay: queue %u, delay %llu us, loss %g%%\n", qnum,
            (unsigned long long)(delay / 1000), loss * 100);

    static char buf[1 << 18];
    while (!stop) {
        uint64_t t = now_ns();
        /* release every packet due, by one batch verdict on the last */
        if (head != tail && ring_due[head % RING] <= t) {
            uint32_t last = 0;
            while (head != tail && ring_due[head % RING] <= t + batch / 2) {
                uint64_t late = t > ring_due[head % RING] ? t - ring_due[head % RING] : 0;
                if (late > late_max)
                    late_max = late;
                last = ring_id[head % RING];
                head++;
                accepted++;
            }
            verdict(last, NF_ACCEPT, 1);
        }
        struct timespec ts, *tsp = NULL;
        if (head != tail) {
            uint64_t due = ring_due[head % RING], wait = due > t ? due - t : 0;
            if (wait < batch)
                wait = batch;
            ts.tv_sec = (time_t)(wait / 1000000000ull);
            ts.tv_nsec = (long)(wait % 1000000000ull);
            tsp = &ts;
        }
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int r = ppoll(&p, 1, tsp, NULL);
        if (r <= 0)
            continue;
        for (;;) {
            ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (n <= 0)
                break;
            uint64_t arrival = now_ns();
            for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
                if (nh->nlmsg_type == NLMSG_ERROR) {
                    struct nlmsgerr *e = NLMSG_DATA(nh);
                    if (e->error)
                        fprintf(stderr, "nfq_delay: netlink error %d\n", e->error);
                    continue;
                }
                if ((nh->nlmsg_type & 0xff) != NFQNL_MSG_PACKET)
                    continue;
                struct nlattr *a = (struct nlattr *)((char *)NLMSG_DATA(nh) + NLA_ALIGN(sizeof(struct nfgenmsg)));
                int left = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(NLA_ALIGN(sizeof(struct nfgenmsg)));
                uint32_t id = 0;
                int have = 0;
                while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left) {
                    if ((a->nla_type & NLA_TYPE_MASK) == NFQA_PACKET_HDR) {
                        struct nfqnl_msg_packet_hdr *ph = (void *)((char *)a + NLA_HDRLEN);
                        id = ntohl(ph->packet_id);
                        have = 1;
                    }
                    left -= NLA_ALIGN(a->nla_len);
                    a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
                }
                if (!have)
                    continue;
                packets++;
                if (loss > 0 && draw() < loss) {
                    lost++;
                    verdict(id, NF_DROP, 0);
                    continue;
                }
                if (tail - head >= RING) {      /* cannot happen: the kernel queue is RING / 2 */
                    verdict(id, NF_ACCEPT, 0);
                    continue;
                }
                ring_id[tail % RING] = id;
                ring_due[tail % RING] = arrival + delay;
                tail++;
                if (tail - head > max_held)
                    max_held = tail - head;
            }
        }
    }
    /* let the rest go, so that nothing waits on a verdict that never comes */
    if (head != tail)
        verdict(ring_id[(tail - 1) % RING], NF_ACCEPT, 1);
    printf("nfq_delay packets=%llu accepted=%llu lost=%llu max_held=%llu late_us_max=%llu\n",
           (unsigned long long)packets, (unsigned long long)accepted, (unsigned long long)lost,
           (unsigned long long)max_held, (unsigned long long)(late_max / 1000));
    return 0;
}
