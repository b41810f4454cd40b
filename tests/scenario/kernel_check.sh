#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/kernel-check on this machine's own Linux (docs/kernel-check.md):
# the loss and fifo cases for 2 s each, netsim's runs and the kernel's in
# one database. The kernel's runs must be recorded as the sim's are (same
# scenario, seed and rep, engine=kernel, the release and the load), go
# through the shaper (htb over a pfifo) and the delay line (min RTT at
# least the propagation), lose about the loss asked for, compare under
# report --compare, and leave no namespace behind. Skips, saying why,
# where the machine cannot run it (not root, no network namespaces, no
# iperf3, no NFQUEUE).
. "$(dirname "$0")/common.bash"

KC=tools/kernel-check
why=$($KC --probe 2>&1)
if [ $? -eq 77 ]; then
    ok "# SKIP ${why#kernel-check: }"
    exit 0
fi
db=$tmp/kc.db
timeout 300 $KC --cases loss,fifo --duration 2 -o "$db" --netsim "$NETSIM" > "$tmp/kc.out" 2> "$tmp/kc.err"
rc=$?
check "kernel-check exits 0 ($(tail -1 "$tmp/kc.err"))" test $rc -eq 0
rel=$(uname -r)
rows=$(q "$db" "select r.scenario || ' ' || r.seed || ' ' || r.rep || ' ' || p.value from run r join param p
       on p.run_id = r.id and p.key = 'axis.engine' where r.status = 'complete' order by 1")
check "a kernel run for each netsim run (scenario, seed, rep)" test "$rows" = "fifo 1 0 kernel
fifo 1 0 netsim
loss 1 0 kernel
loss 1 0 kernel
loss 1 0 netsim
loss 1 0 netsim"
check "the host's release recorded on each host of the kernel's runs" test \
    "$(q "$db" "select count(*) from param where key in ('s.kernel', 'r.kernel', 'd.kernel') and value = '$rel (host)'")" = 9
check "the load average recorded at start and end" test \
    "$(q "$db" "select count(*) from param where key glob 'kernel_check.loadavg_*' and value glob '[0-9]*.* *.* *.*'")" = 6
fifo=$(q "$db" "select r.id from run r join param p on p.run_id = r.id where r.scenario = 'fifo' and p.key = 'axis.engine' and p.value = 'kernel'")
check "fifo: both flows have intervals" test "$(q "$db" "select count(distinct flow) from interval where run_id = $fifo")" = 2
gp=$(q "$db" "select total(bytes) * 8 / (max(t_end) - min(t_start)) / 1e6 from interval where run_id = $fifo")
check "fifo: the htb shaper holds the pair to 1 Gbit/s ($gp Mbit/s)" between "$gp" 20 1000
check "fifo: the pfifo under htb sent the packets, htb was over its limit" test \
    "$(q "$db" "select count(*) from counter where run_id = $fifo and ((name = 'r.eth1.qdisc.sent_packets' and value > 1000) or (name = 'r.eth1.htb.overlimits' and value > 0))")" = 2
mrtt=$(q "$db" "select min(value) from series where run_id = $fifo and name = 'flow.1.snd.min_rtt_ms'")
check "fifo: the delay line holds each packet 20 ms (min RTT $mrtt ms)" between "${mrtt:-0}" 19.9 40
for id in $(q "$db" "select r.id from run r join param p on p.run_id = r.id where r.scenario = 'loss' and p.key = 'axis.engine' and p.value = 'kernel'"); do
    lossp=$(q "$db" "select 100.0 * (select value from counter where run_id = $id and name = 'link.wan.fwd.netem_loss')
                     / (select value from counter where run_id = $id and name = 'kernel_check.nfq.packets')")
    check "loss: the delay line drops about 1 % (run $id: $lossp %)" between "${lossp:-0}" 0.6 1.4
done
"$NETSIM" report "$db" --compare engine=netsim,kernel > "$tmp/cmp.out" 2>&1
check "report --compare engine=netsim,kernel sets one against the other" \
    grep -qE '^fifo +(- +)?1 +[0-9.]+ +[0-9.]+ +Mbits/sec' "$tmp/cmp.out"
ns=$(sed -n 's/^kernel-check: namespaces \(kc[0-9]*\)s, .* removed$/\1/p' "$tmp/kc.out")
check "no namespace of its own left behind (${ns:-none named})" \
    test -n "$ns" -a -z "$(ip netns list | grep -E "^${ns:-x}[srd]\b")"
$KC --cases fifo --duration 1 -o "$db" > "$tmp/again.out" 2>&1
check "refuses to write into an existing database" test $? -ne 0
check "refuses an unknown case" bash -c "! $KC --cases nosuch -o $tmp/x.db 2>/dev/null"
