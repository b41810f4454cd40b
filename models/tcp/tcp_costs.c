/*
 * tcp_costs.c - the kernel functions TCP's CPU work is booked under
 * (docs/models/tcp.md, "CPU cost"). The engine books the IP, NIC, wake-up
 * and copy rows of the host's profile (sim/costs.c) itself; these are the
 * TCP stack's own.
 */
#include "models/tcp/internal.h"
#include "sim/costs.h"

struct tcp_syms tcp_sym;

void tcp_syms_init(void)
{
    struct tcp_syms *s = &tcp_sym;
    s->xmit = cpu_sym("tcp_transmit_skb");
    s->v4_rcv = cpu_sym("tcp_v4_rcv");
    s->established = cpu_sym("tcp_rcv_established");
    s->data_queue = cpu_sym("tcp_data_queue");
    s->ofo = cpu_sym("tcp_data_queue_ofo");
    s->ack = cpu_sym("tcp_ack");
    s->ack_seg = cpu_sym("tcp_ack.per_seg");
    s->sacktag = cpu_sym("tcp_sacktag_write_queue");
    s->sacktag_seg = cpu_sym("tcp_sacktag_write_queue.per_seg");
    s->recvmsg = cpu_sym("tcp_recvmsg");
    s->recvmsg_skb = cpu_sym("tcp_recvmsg.per_skb");
    s->copy_to_user = cpu_sym("copy_to_user");
    s->wake = cpu_sym("try_to_wake_up");
    s->write_timer = cpu_sym("tcp_write_timer");
    s->delack_timer = cpu_sym("tcp_delack_timer");
}
