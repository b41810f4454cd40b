#!/usr/bin/env bash
# Scenario tests of the simulator core, through the CLI and the database.
# Prints "ok NAME" or "not ok NAME" (with the reason indented below).
. "$(dirname "$0")/common.bash"

# --- line rate: 1472/1538 * 10 Gbit/s = 9.5709 Gbit/s per interval, within 0.2 %
db=$tmp/lr.db
"$NETSIM" run scenarios/udp_line_rate.ini --set sim.duration=3s -o "$db" -q > "$tmp/lr.out" 2>&1
check "udp line rate run exits 0" test $? -eq 0
rows=$(q "$db" "select count(*) from interval where run_id = 1")
check "one interval row per flow per second" test "$rows" -eq 3
bad=$(q "$db" "select count(*) from interval where run_id = 1 and abs(bits_per_s - 9570871261.378) / 9570871261.378 > 0.002")
check "every interval within 0.2% of 9.571 Gbit/s" test "$bad" -eq 0
check "run marked complete" test "$(q "$db" "select status from run where id = 1")" = complete
check "params recorded" test "$(q "$db" "select value from param where run_id = 1 and key = 'wire.rate'")" = 10gbit
check "profile recorded" test "$(q "$db" "select count(*) from profile where run_id = 1 and host = 'receiver' and symbol = 'ip_rcv'")" -eq 1

# --- ping: 2 x 25 us + two serialisations of a 98-byte IP packet (122 wire bytes, 97.6 ns)
cat > "$tmp/ping.ini" <<'INI'
[sim]
duration = 1s
[host a]
cpu = ideal
itr = 0
nic_rx_latency = 0
[host b]
cpu = ideal
itr = 0
nic_rx_latency = 0
[link l]
ends = a:eth0 b:eth0
delay = 25us
[flow 1]
app = ping
from = a
to = b
interval = 100ms
INI
out=$("$NETSIM" run "$tmp/ping.ini" --no-db)
check "ping rtt is 50 us + 2 serialisations exactly" grep -q 'rtt min/avg/max/mdev = 50.1952/50.1952/50.1952/0.0000 us' <<<"$out"
"$NETSIM" run "$tmp/ping.ini" -o "$tmp/ping.db" -q >/dev/null
check "ping rtt series exact" test "$(q "$tmp/ping.db" "select count(*) from series where name = 'flow.1.rtt_us' and value = 50.1952")" -eq 10
# a 5000-byte ping is 4 fragments each way (3 x 1538 + 626 wire bytes, 4.192 us); a
# reassembled datagram carries its last fragment's receive time, so 50 + 2 x 4.192
out=$("$NETSIM" run "$tmp/ping.ini" --no-db --set 1.size=5000)
check "fragmented ping rtt is 50 us + 2 x 4 serialisations exactly" grep -q 'rtt min/avg/max/mdev = 58.3840/58.3840/58.3840/0.0000 us' <<<"$out"

# --- determinism: same seed, identical rows; another seed changes a lossy run
cat > "$tmp/lossy.ini" <<'INI'
[sim]
duration = 300ms
interval = 100ms
seed = 7
[link l]
ends = a:eth0 b:eth0
delay = 1ms 200us
loss = 1%
[flow 1]
app = udp_stream
from = a
to = b
sndbuf = 256K
INI
dump() {
    for t in "interval" "counter" "series"; do
        q "$1" "select * from $t where run_id = $2 order by 2, 3" | sed 's/^[0-9]*|//'
    done
}
"$NETSIM" run "$tmp/lossy.ini" -o "$tmp/det.db" -q >/dev/null
"$NETSIM" run "$tmp/lossy.ini" -o "$tmp/det.db" -q >/dev/null
"$NETSIM" run "$tmp/lossy.ini" -o "$tmp/det.db" -q --seed 8 >/dev/null
check "same seed: identical interval, counter, series rows" diff <(dump "$tmp/det.db" 1) <(dump "$tmp/det.db" 2)
if diff -q <(dump "$tmp/det.db" 1) <(dump "$tmp/det.db" 3) >/dev/null; then
    notok "another seed changes a lossy run" "rows of seed 7 and seed 8 are identical"
else
    ok "another seed changes a lossy run"
fi
lost=$(q "$tmp/det.db" "select value from counter where run_id = 1 and name = 'link.l.fwd.netem_loss'")
check "netem loss counted" between "$lost" 1 100000

# --- loss over a million packets: 1 % within the binomial 99 % interval;
# gemodel at the stationary rate its parameters imply (bursty: 5 % relative)
lossrun() {
    cat > "$tmp/loss.ini" <<INI
[sim]
duration = 1300ms
interval = 1300ms
[link l]
ends = a:eth0 b:eth0
loss = $1
[flow 1]
app = udp_stream
from = a
to = b
sndbuf = 256K
INI
    "$NETSIM" run "$tmp/loss.ini" -o "$tmp/loss.db" -q >/dev/null
    q "$tmp/loss.db" "select (select value from counter where run_id = r.id and name = 'link.l.fwd.netem_loss'),
        (select value from counter where run_id = r.id and name = 'link.l.fwd.tx_packets') from run r order by id desc limit 1"
}
IFS='|' read -r lost sent <<<"$(lossrun 1%)"
check "loss 1% over 1M packets within the binomial 99% interval" awk -v l="$lost" -v s="$sent" 'BEGIN {
    n = l + s; exit !(n > 1000000 && (l - 0.01 * n) ^ 2 <= (2.576 ^ 2) * n * 0.01 * 0.99) }'
IFS='|' read -r lost sent <<<"$(lossrun 'gemodel 1% 10% 70% 0.1%')"
check "gemodel loss at its stationary rate (6.45%)" awk -v l="$lost" -v s="$sent" 'BEGIN {
    n = l + s; want = 0.01 / 0.11 * 0.7 + 0.10 / 0.11 * 0.001; r = l / n
    exit !(n > 1000000 && r > want * 0.95 && r < want * 1.05) }'

# --- bad scenarios: exit 2, file:line, database untouched
cp "$tmp/det.db" "$tmp/keep.db"
before=$(md5sum < "$tmp/det.db")
badcase() {
    local name=$1 want=$2
    printf '%s\n' "$3" > "$tmp/bad.ini"
    "$NETSIM" run "$tmp/bad.ini" -o "$tmp/det.db" > "$tmp/bad.out" 2>&1
    local rc=$?
    if [ $rc -ne 2 ]; then notok "$name" "exit status $rc, expected 2"; return; fi
    if ! grep -qE "$want" "$tmp/bad.out"; then notok "$name" "message did not match '$want':" "$(cat "$tmp/bad.out")"; return; fi
    if [ "$(md5sum < "$tmp/det.db")" != "$before" ]; then notok "$name" "database changed"; return; fi
    ok "$name"
}
base='[sim]
duration = 1s
[link l]
ends = a:eth0 b:eth0'
badcase "unknown key: exit 2, file:line, valid keys" "bad.ini:5: \[link l\] unknown key 'colour'; valid keys: .*rate" "$base
colour = red"
badcase "bad unit: exit 2, file:line" "bad.ini:5: \[link l\] rate: got '10 parsecs'" "$base
rate = 10 parsecs"
badcase "negative rate: exit 2" "bad.ini:5: \[link l\] rate: got '-1gbit'" "$base
rate = -1gbit"
badcase "missing section [sim]: exit 2" "missing section \[sim\]" '[link l]
ends = a:eth0 b:eth0'
badcase "flow to a missing host: exit 2" "bad.ini:8: \[flow 1\] to: no host 'c'" "$base
[flow 1]
app = udp_stream
from = a
to = c"
badcase "unknown variant (app): exit 2, lists them" "bad.ini:6: \[flow 1\] app: got 'tcp_bulk', expected one of: udp_stream, ping" "$base
[flow 1]
app = tcp_bulk
from = a
to = b"
badcase "unknown CPU profile: exit 2" "unknown CPU profile 'pentium'" "$base
[host a]
cpu = pentium"
badcase "sweep axis in run: exit 2, says use sweep" "sweep axis: use .netsim sweep" "$base
rate = \${1gbit, 10gbit}"
badcase "bad --set style value through file: ring size range" "rx_ring_size: got '5000', expected 64 to 4096" "$base
[host a]
rx_ring_size = 5000"
check "database unchanged by bad scenarios" cmp -s "$tmp/det.db" "$tmp/keep.db"
"$NETSIM" run "$tmp/lossy.ini" --set l.mtu=abc -o "$tmp/det.db" > "$tmp/bad.out" 2>&1
check "bad --set value: exit 2" test $? -eq 2
check "bad --set value names --set" grep -q -- "--set" "$tmp/bad.out"

# --- RX ring overflow: a slow receiver core drops at the NIC, and the profile says why
cat > "$tmp/slow.ini" <<'INI'
[sim]
duration = 200ms
interval = 100ms
[host receiver]
cpu_speed = 0.5
[link l]
ends = sender:eth0 receiver:eth0
[flow 1]
app = udp_stream
from = sender
to = receiver
sndbuf = 256K
INI
"$NETSIM" run "$tmp/slow.ini" -o "$tmp/slow.db" --profile > "$tmp/slow.out" 2>&1
missed=$(q "$tmp/slow.db" "select value from counter where name = 'receiver.eth0.rx_missed'")
check "slow receiver: rx_missed counted" between "$missed" 1000 1e12
check "slow receiver: drops listed by cause" grep -q "receiver.eth0.rx_missed" "$tmp/slow.out"
top=$(q "$tmp/slow.db" "select symbol from profile where host = 'receiver' order by cpu_ns desc limit 1")
check "slow receiver: profile shows the receive path" grep -qE "udp_recvmsg|ip_rcv|ixgbe_clean_rx_irq|udp_rcv" <<<"$top"
check "profile table printed" grep -q "# Overhead" "$tmp/slow.out"

# --- Ctrl-C: the run is recorded as interrupted, earlier runs stay intact
"$NETSIM" run "$tmp/lossy.ini" -o "$tmp/int.db" -q >/dev/null
"$NETSIM" run scenarios/udp_line_rate.ini --set sim.duration=600s -o "$tmp/int.db" -q >/dev/null 2>&1 &
pid=$!
sleep 1          # the run's rows are invisible until it commits: just give it time to start
kill -INT $pid
wait $pid
rc=$?
check "interrupted run exits 130" test $rc -eq 130
check "interrupted run marked interrupted" test "$(q "$tmp/int.db" "select status from run where id = 2")" = interrupted
check "earlier run intact and complete" test "$(q "$tmp/int.db" "select status || ' ' || (select count(*) from interval where run_id = 1) from run where id = 1")" = "complete 3"

# --- CLI basics
"$NETSIM" --help >/dev/null; check "netsim --help exits 0" test $? -eq 0
"$NETSIM" run --help | grep -q -- "--seed"; check "netsim run --help lists --seed" test $? -eq 0
"$NETSIM" models | grep -q udp_stream; check "netsim models lists udp_stream" test $? -eq 0
"$NETSIM" frobnicate >/dev/null 2>&1; check "unknown command exits 2" test $? -eq 2
"$NETSIM" run >/dev/null 2>&1; check "run without a file exits 2" test $? -eq 2
"$NETSIM" run "$tmp/lossy.ini" --json --no-db > "$tmp/j.json"
check "--json prints intervals" grep -q '"intervals"' "$tmp/j.json"
"$NETSIM" run /nonexistent.ini >/dev/null 2>&1; check "missing scenario file exits 2" test $? -eq 2
