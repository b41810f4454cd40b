#!/usr/bin/env bash
# Scenario tests of the SCTP model (models/sctp/): the direction
# and rough size of each published effect on short runs.
# Prints "ok NAME" or "not ok NAME" (with the reason indented below).
. "$(dirname "$0")/common.bash"

ctr() { q "$1" "select cast(value as int) from counter where run_id = ${3:-1} and name = '$2'"; }

# Byte queue limits off at both ends (the default is on): the acceptance
# bands (VA2, VA3) and the multi-homing checks were set and hold with them
# off. With them on the collapse is deeper (8 s, seed 1: 16.7 Mbit/s,
# below VA2's 20) and the 20-s run has a 2.32-s stall; docs/cases/sctp-rwnd.md
# reports both.
A="scenarios/sctp_rwnd.ini --set 1.ip=4 --set 1.len=1452 --set 1.paths=2 --set 1.trace_interval=0 --set sender.bql=off --set receiver.bql=off"

# --- Part A: old runs steadily at the calibration point, new collapses on T3 stalls
"$NETSIM" run $A --set receiver.sctp.rwnd=old --set sim.duration=3s -o "$tmp/a.db" -q >/dev/null 2>&1
check "rwnd old/IPv4 run exits 0" test $? -eq 0
mean_old=$(q "$tmp/a.db" "select sum(bytes) * 8.0 / max(t_end) from interval where run_id = 1")
check "old/IPv4 mean 2.0 Gbit/s +-3% (calibration point, VA1)" between "$mean_old" 1.94e9 2.06e9
check "old/IPv4 every interval within 3% of 2.0 Gbit/s" test "$(q "$tmp/a.db" "select count(*) from interval where run_id = 1 and abs(bits_per_s - 2e9) > 6e7")" -eq 0
check "old/IPv4 no T3 expiry (VA4)" test "$(ctr "$tmp/a.db" flow.1.sctp.client.t3_expiries)" -eq 0
# the sender's socket lock: SACKs that come in while iperf3 -c is inside sctp_sendmsg wait in its
# backlog and are processed by the writer's release_sock (8 in 10 at 2 Gbit/s: all that arrive while
# the writer is awake; it sleeps, unlocked, while it waits for send-buffer room)
bl=$(ctr "$tmp/a.db" flow.1.sctp.client.backlogged); sk=$(ctr "$tmp/a.db" flow.1.sctp.client.sacks_rx)
check "old/IPv4 sender: half to nearly all SACKs go through the writer's backlog ($bl of $sk)" awk -v b="$bl" -v s="$sk" 'BEGIN { exit !(s > 0 && b >= s / 2 && b <= 0.97 * s) }'

"$NETSIM" run $A --set receiver.sctp.rwnd=new --set sim.duration=8s -o "$tmp/a.db" -q >/dev/null 2>&1
mean_new=$(q "$tmp/a.db" "select sum(bytes) * 8.0 / max(t_end) from interval where run_id = 2")
check "new/IPv4 collapses to 20-300 Mbit/s (VA2)" between "$mean_new" 2e7 3e8
# and not only on seed 1: the median of seeds 1-4 (8 s each; 38, 30, 22, 33 Mbit/s when written)
for sd in 2 3 4; do
    "$NETSIM" run $A --set receiver.sctp.rwnd=new --set sim.duration=8s --seed $sd -o "$tmp/s$sd.db" -q >/dev/null 2>&1
done
med=$(for f in "$tmp/s2.db" "$tmp/s3.db" "$tmp/s4.db"; do q "$f" "select sum(bytes) * 8.0 / max(t_end) from interval"; done |
    { cat; echo "$mean_new"; } | sort -g | awk '{ v[NR] = $1 } END { print (v[2] + v[3]) / 2 }')
check "new/IPv4 median of seeds 1-4 in 20-300 Mbit/s ($med)" between "$med" 2e7 3e8
check "old/new ratio at least 7 (VA2)" awk -v o="$mean_old" -v n="$mean_new" 'BEGIN { exit !(o / n >= 7) }'
t3=$(ctr "$tmp/a.db" flow.1.sctp.client.t3_expiries 2)
check "new/IPv4 about one T3 per 1.0-1.2 s (VA3)" between "$t3" 6 8
check "new/IPv4 at least as many dropped fast retransmissions as T3 (A.7 step 5)" test "$(ctr "$tmp/a.db" flow.1.sctp.server.frtx_dropped 2)" -ge "$t3"
# the client's ticks come late by the flow phase after each stall (the last, partial interval excluded)
all=$(q "$tmp/a.db" "select count(*) from interval where run_id = 2 and t_end < 8 and t_end > t_start")
va3=$(q "$tmp/a.db" "select count(*) from interval where run_id = 2 and t_end < 8 and t_end - t_start between 1.0 and 1.2")
check "new/IPv4 at least 80 % of the intervals 1.00-1.20 s long in the first 8 s (VA3)" awk -v l="$va3" -v a="$all" 'BEGIN { exit !(a >= 6 && l / a >= 0.8) }'
low=$(q "$tmp/a.db" "select count(*) from interval where run_id = 2 and t_end < 8 and t_end > t_start and bits_per_s < 3e8")
check "new/IPv4 at least 80 % of the intervals below 300 Mbit/s (VA2)" awk -v l="$low" -v a="$all" 'BEGIN { exit !(a >= 6 && l / a >= 0.8) }'
# sctp.md A.9: the sender's SACKs come in on a vector of their own, at lowest ITR; the data's
# TX completions on the other, at bulk (scenarios/sctp_rwnd.ini: two queue pairs, TX by flow
# hash). Checked on old/IPv4 (run 1, 2 Gbit/s, so the bulk vector has work) and, for the queues
# only, on a 1-s old/IPv6 run
"$NETSIM" run scenarios/sctp_rwnd.ini --set 1.ip=6 --set 1.len=1400 --set 1.paths=1 --set receiver.sctp.rwnd=old --set sim.duration=1s -o "$tmp/q6.db" -q >/dev/null 2>&1
# (a.db last, so sq and tq name its queues below)
for db in "$tmp/q6.db" "$tmp/a.db"; do
    sq=$(q "$db" "select substr(name, 1, length(name) - 11) from counter where run_id = 1 and name like 'sender.eth0.q%.rx_packets' and value > 0")
    tq=$(q "$db" "select substr(name, 1, length(name) - 11) from counter where run_id = 1 and name like 'sender.eth0.q%.tx_packets' and value > 0")
    check "sender: SACKs and data on two queues (${db##*/}: $sq, $tq)" awk -v a="$sq" -v b="$tq" 'BEGIN { exit !(a != "" && b != "" && a != b && index(a, "\n") == 0 && index(b, "\n") == 0) }'
done
irq_s=$(q "$tmp/a.db" "select value from counter where run_id = 1 and name = '${sq}.interrupts'")
irq_t=$(q "$tmp/a.db" "select value from counter where run_id = 1 and name = '${tq}.interrupts'")
check "sender (old/IPv4): the SACK vector interrupts at least 2x as often as the bulk TX vector ($irq_s, $irq_t)" awk -v a="$irq_s" -v b="$irq_t" 'BEGIN { exit !(b > 0 && a >= 2 * b) }'
check "new/IPv4 backlog drops (VA4)" test "$(ctr "$tmp/a.db" flow.1.sctp.server.backlog_drops 2)" -gt 0
check "new/IPv4 dropped fast retransmissions (VA4)" test "$(ctr "$tmp/a.db" flow.1.sctp.server.frtx_dropped 2)" -gt 0
check "new/IPv4 T3 makes the path PF, its heartbeats are answered (3.14 pf_retrans 0)" awk \
    -v p="$(ctr "$tmp/a.db" flow.1.sctp.client.pf_entries 2)" -v h="$(ctr "$tmp/a.db" flow.1.sctp.client.hb_sent 2)" \
    -v k="$(ctr "$tmp/a.db" flow.1.sctp.client.hb_ack_rx 2)" 'BEGIN { exit !(p >= 1 && h >= 1 && h == k) }'
stall=$(q "$tmp/a.db" "select value / 1e12 from counter where run_id = 2 and name = 'flow.1.sctp.client.stall_ps_max'")
check "new/IPv4 stalls last one RTO (1 s) in the first 8 s" between "$stall" 0.99 1.2

# --- multi-homing (two subnets, as on the post's machines): once the alternate address is confirmed,
# retransmissions go to it; when both paths are PF, sctp_assoc_update_retran_path puts the retran
# path on the PF alternate, whose RTO is still doubled, and that stall lasts 2 s: the post's 2.05 and
# 2.14-s intervals, each followed by a zero-length one (20 s; 3 such stalls when written)
"$NETSIM" run $A --set receiver.sctp.rwnd=new --set sim.duration=20s -o "$tmp/m.db" -q >/dev/null 2>&1
check "multi-homed: the alternate address confirmed by a heartbeat" test "$(ctr "$tmp/m.db" flow.1.sctp.client.paths_confirmed)" -eq 1
check "multi-homed: T3 expiries on the alternate address" test "$(ctr "$tmp/m.db" flow.1.sctp.client.t3_alternate)" -gt 0
s2=$(ctr "$tmp/m.db" flow.1.sctp.client.stalls_2s)
long=$(q "$tmp/m.db" "select count(*) from interval where t_end - t_start >= 1.9")
zero=$(q "$tmp/m.db" "select count(*) from interval where t_end = t_start")
check "multi-homed new/IPv4: stalls of 2 RTO ($s2 in 20 s)" between "$s2" 1 6
check "multi-homed new/IPv4: a zero-length interval after each interval of 2 s ($long, $zero)" awk -v l="$long" -v z="$zero" 'BEGIN { exit !(l >= 1 && z == l) }'
# over 20 s (last, partial interval excluded): one RTO plus a flow phase, or two RTO; most of one
# (100 seeds x 60 s: 82 % of the non-zero intervals 1.00-1.20 s, the post 9 of 12)
one=$(q "$tmp/m.db" "select count(*) from interval where t_end < 20 and t_end - t_start between 1.0 and 1.2")
two=$(q "$tmp/m.db" "select count(*) from interval where t_end < 20 and t_end - t_start between 2.0 and 2.2")
nz=$(q "$tmp/m.db" "select count(*) from interval where t_end < 20 and t_end > t_start")
check "multi-homed new/IPv4: intervals of 1.00-1.20 s ($one) or 2.00-2.20 s ($two), at least 70 % the first (of $nz)" \
    awk -v o="$one" -v t="$two" -v n="$nz" 'BEGIN { exit !(n >= 12 && o + t == n && o >= 0.7 * n) }'
stall=$(q "$tmp/m.db" "select value / 1e12 from counter where name = 'flow.1.sctp.client.stall_ps_max'")
check "multi-homed new/IPv4: no stall longer than 2 RTO (2 s)" between "$stall" 1.99 2.2
"$NETSIM" run $A --set 1.paths=1 --set receiver.sctp.rwnd=new --set sim.duration=20s -o "$tmp/m1.db" -q >/dev/null 2>&1
check "one path: every stall one RTO (no 2-s stall in 20 s)" test "$(ctr "$tmp/m1.db" flow.1.sctp.client.stalls_2s)" -eq 0

# --- control (VA9): without burst sources and jitter, new keeps up with old
C="--set receiver.cost_jitter=0 --set sender.cost_jitter=0 --set receiver.itr=20us --set sender.itr=20us --set sim.duration=2s"
"$NETSIM" run $A $C --set receiver.sctp.rwnd=old -o "$tmp/c.db" -q >/dev/null 2>&1
"$NETSIM" run $A $C --set receiver.sctp.rwnd=new -o "$tmp/c.db" -q >/dev/null 2>&1
ratio=$(q "$tmp/c.db" "select (select sum(bytes) from interval where run_id = 2) * 1.0 / (select sum(bytes) from interval where run_id = 1)")
check "control: new within 5% of old without bursts (VA9)" between "$ratio" 0.95 1.05

# --- determinism: the same seed gives the same rows
"$NETSIM" run $A --set receiver.sctp.rwnd=new --set sim.duration=3s -o "$tmp/d.db" -q >/dev/null 2>&1
"$NETSIM" run $A --set receiver.sctp.rwnd=new --set sim.duration=3s -o "$tmp/d.db" -q >/dev/null 2>&1
check "same seed, same interval rows" test "$(q "$tmp/d.db" "select group_concat(bytes) from interval where run_id = 1")" = \
    "$(q "$tmp/d.db" "select group_concat(bytes) from interval where run_id = 2")"

# --- Part B: heartbeat re-arm cost on loopback, jitter against lazy
sym="_raw_spin_unlock_irqrestore <- mod_timer <- sctp_transport_reset_timers"
share() { q "$1" "select 100.0 * (select cpu_ns from profile where run_id = $2 and host = 'lo' and cpu = 0 and symbol = '$sym')
                  / (select sum(cpu_ns) from profile where run_id = $2 and host = 'lo' and cpu = 0)"; }
"$NETSIM" run scenarios/sctp_hb.ini --set lo.sctp.hb=jitter --set sim.duration=2s --set 1.hb_sample=0 -o "$tmp/b.db" --profile > "$tmp/b.out" 2>&1
"$NETSIM" run scenarios/sctp_hb.ini --set lo.sctp.hb=lazy --set sim.duration=2s --set 1.hb_sample=0 -o "$tmp/b.db" -q >/dev/null 2>&1
check "jitter: irq-restore under mod_timer 2.0 +-0.5 % of netperf's core (VB2)" between "$(share "$tmp/b.db" 1)" 1.5 2.5
lz=$(share "$tmp/b.db" 2)
check "lazy: irq-restore under mod_timer at most 0.2 % (VB3)" between "${lz:-0}" 0 0.2
calls=$(ctr "$tmp/b.db" flow.1.sctp.client.hb_timer.mod_timer_calls)
chunks=$(ctr "$tmp/b.db" flow.1.sctp.client.data_chunks_sent)
rq=$(ctr "$tmp/b.db" flow.1.sctp.client.hb_timer.requeues)
check "jitter: one hb mod_timer per DATA chunk, 85-93 % re-queue (VB1)" awk -v c="$calls" -v n="$chunks" -v r="$rq" \
    'BEGIN { exit !(c == n + 1 && r / c >= 0.85 && r / c <= 0.93) }'
check "lazy: 1-3 re-arms per second (VB3)" between "$(ctr "$tmp/b.db" flow.1.sctp.client.hb_timer.mod_timer_calls 2)" 2 7
check "lazy throughput >= jitter, +1-5 % (VB5)" between "$(q "$tmp/b.db" "select (select sum(bytes) from interval where run_id = 2) * 1.0 / (select sum(bytes) from interval where run_id = 1)")" 1.01 1.05
check "no PF in Part B: no T3, so no strike" test "$(ctr "$tmp/b.db" flow.1.sctp.client.pf_entries)$(ctr "$tmp/b.db" flow.1.sctp.client.pf_entries 2)" = 00
check "no heartbeat during the transfer (VB6)" test "$(ctr "$tmp/b.db" flow.1.sctp.client.hb_sent)$(ctr "$tmp/b.db" flow.1.sctp.client.hb_sent 2)" = 00
check "profile prints callers under _raw_spin_unlock_irqrestore" grep -q -- '|--.*%-- mod_timer <- sctp_transport_reset_timers' "$tmp/b.out"

# --- idle heartbeats (VB7): jitter spread over RTO/2..3RTO/2 beyond 30 s, lazy as posted constant
for hb in jitter lazy; do
    "$NETSIM" run scenarios/sctp_hb.ini --set lo.sctp.hb=$hb --set 1.stop=100ms --set sim.duration=400s \
        --set sim.interval=100s --set 1.hb_sample=0 -o "$tmp/i.db" -q >/dev/null 2>&1
done
IFS='|' read -r n lo hi <<<"$(q "$tmp/i.db" "select count(*), min(value), max(value) from series where run_id = 1 and name = 'sctp.client.hb_interval_s'")"
check "jitter: idle heartbeats 30.5-31.62 s apart and spread" awk -v n="$n" -v lo="$lo" -v hi="$hi" \
    'BEGIN { exit !(n >= 10 && lo >= 30.5 && hi < 31.62 && hi - lo > 0.5) }'
IFS='|' read -r n lo hi <<<"$(q "$tmp/i.db" "select count(*), min(value), max(value) from series where run_id = 2 and name = 'sctp.client.hb_interval_s'")"
check "lazy as posted: idle heartbeats every 30.50-30.62 s" awk -v n="$n" -v lo="$lo" -v hi="$hi" \
    'BEGIN { exit !(n >= 10 && lo >= 30.5 && hi <= 30.62) }'

# --- bad input
printf '[sim]\n[host a]\nsctp.rwnd = newer\n[link l]\nends = a:eth0 b:eth0\n[flow 1]\napp = sctp_iperf3\nfrom = a\nto = b\n' > "$tmp/bad.ini"
"$NETSIM" run "$tmp/bad.ini" --no-db > "$tmp/bad.out" 2>&1
rc=$?
check "unknown sctp.rwnd variant: exit 2" test $rc -eq 2
check "unknown sctp.rwnd variant: lists old, new" grep -q "bad.ini:3: \[host a\] sctp.rwnd: got 'newer', expected one of: old, new" "$tmp/bad.out"
printf '[sim]\n[link l]\nends = a:eth0 b:eth0\n[flow 1]\napp = sctp_iperf3\nfrom = a\nto = b\npaths = 2\n' > "$tmp/bad2.ini"
"$NETSIM" run "$tmp/bad2.ini" --no-db > "$tmp/bad2.out" 2>&1
rc=$?
check "two paths over one link: exit 2" test $rc -eq 2
check "two paths over one link: says where and what is missing" grep -q "bad2.ini:8: \[flow 1\] paths: 2 paths need 2 direct links between a and b" "$tmp/bad2.out"

# --- TCP, SCTP and UDP flows on the same hosts: the world is torn down
# whole. TCP freed its sockets while they were still on the host's list,
# which SCTP then walked: a use-after-free, a segfault once freed memory
# is overwritten (MALLOC_PERTURB_), in run and in the sweep parent.
cat > "$tmp/mix.ini" <<'INI'
[sim]
duration = 0.2s
interval = 100ms
[link l]
ends = a:eth0 b:eth0
rate = ${5gbit, 10gbit}
[flow 1]
app = tcp_stream
from = a
to = b
[flow 2]
app = sctp_iperf3
from = a
to = b
[flow 3]
app = udp_stream
from = a
to = b
[flow 4]
app = tcp_iperf3
from = b
to = a
INI
MALLOC_PERTURB_=165 timeout -k 5 60 "$NETSIM" run "$tmp/mix.ini" --set l.rate=10gbit -o "$tmp/mix.db" -q > /dev/null 2> "$tmp/mix.err"
check "TCP, SCTP and UDP on one host: torn down cleanly (run)" test $? -eq 0
check "... every flow recorded" test "$(q "$tmp/mix.db" "select count(distinct flow) from interval")" -eq 4
MALLOC_PERTURB_=165 timeout -k 5 60 "$NETSIM" sweep "$tmp/mix.ini" -j 1 -o "$tmp/mixs.db" -q > /dev/null 2> "$tmp/mix.err"
check "... and in a sweep" test $? -eq 0 -a "$(q "$tmp/mixs.db" "select count(*) from run where status = 'complete'")" -eq 2

# --- sctp_stream's own default msg_size at the default MTU: one DATA
# chunk's worth, 1452 bytes (1636 was refused as more than a chunk holds)
printf '[sim]\nduration = 0.1s\ninterval = 0.1s\n[link l]\nends = a:eth0 b:eth0\n[flow 1]\napp = sctp_stream\nfrom = a\nto = b\n' > "$tmp/ss1500.ini"
"$NETSIM" run "$tmp/ss1500.ini" --no-db > "$tmp/ss1500.out" 2>&1
check "sctp_stream with its defaults at MTU 1500 runs" test $? -eq 0
check "... sending 1452-byte messages" grep -q "sctp_stream a -> b, 1452 B sends" "$tmp/ss1500.out"
sed -i 's/^ends = a:eth0 b:eth0$/&\nmtu = 9000/' "$tmp/ss1500.ini"
"$NETSIM" run "$tmp/ss1500.ini" --no-db > "$tmp/ss1500.out" 2>&1
check "... and 1636-byte ones where a chunk holds them (MTU 9000)" grep -q "sctp_stream a -> b, 1636 B sends" "$tmp/ss1500.out"
