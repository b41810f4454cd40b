#!/usr/bin/env bash
# Scenario tests of netem as tc-netem(8) means it: percentages, where the
# delay and jitter sit (before the wire), limit, and the options users
# paste from tc. Prints "ok NAME" or "not ok NAME".
. "$(dirname "$0")/common.bash"

# A UDP flow a -> b over one link; $1 the link's extra lines, $2 flow rate.
udp_world() {
    cat <<INI
[sim]
duration = ${3:-2s}
[host a]
cpu = ideal
[host b]
cpu = ideal
[link l]
ends = a:eth0 b:eth0
$1
[flow 1]
app = udp_stream
from = a
to = b
msg_size = 1472
rate = $2
INI
}
counter() { q "$1" "select value from counter where run_id = (select max(id) from run) and name = '$2'"; }

# --- a bare number is a percentage, as tc reads it, with one warning.
# 1 M datagrams at 10 Gbit/s; 0.1 % lost within the binomial 99 % interval
# 1000 +- 2.576 sqrt(999) (netem counts what it drew for).
udp_world "loss = 0.1" 9gbit 1.35s > "$tmp/bare.ini"
"$NETSIM" run "$tmp/bare.ini" -o "$tmp/bare.db" -q > /dev/null 2> "$tmp/bare.err"
check "bare loss 0.1 runs" test $? -eq 0
lost=$(counter "$tmp/bare.db" link.l.fwd.netem_loss)
sent=$(counter "$tmp/bare.db" flow.1.datagrams_sent)
check "loss = 0.1 is 0.1 % over $sent datagrams ($lost lost)" awk -v l="$lost" -v s="$sent" 'BEGIN {
    p = 0.001; m = s * p; h = 2.576 * sqrt(s * p * (1 - p)); exit !(s >= 1000000 && l >= m - h && l <= m + h) }'
check "one warning, with file:line, saying what 0.1 now means" \
    test "$(grep -c "bare.ini:9: \[link l\] loss: warning: '0.1': a bare number is a percentage" "$tmp/bare.err")" -eq 1 -a \
    "$(wc -l < "$tmp/bare.err")" -eq 1
udp_world "loss = 1%" 1gbit 0.1s > "$tmp/pct.ini"
"$NETSIM" run "$tmp/pct.ini" --no-db -q > /dev/null 2> "$tmp/pct.err"
check "loss = 1% warns nothing" test ! -s "$tmp/pct.err"
udp_world "loss = 5" 1gbit 0.1s > "$tmp/five.ini"
"$NETSIM" run "$tmp/five.ini" --no-db -q > /dev/null 2> "$tmp/five.err"
check "loss = 5 (5 %, never a fraction) warns nothing" test ! -s "$tmp/five.err"
udp_world "loss = 101" 1gbit 0.1s > "$tmp/over.ini"
"$NETSIM" run "$tmp/over.ini" --no-db > /dev/null 2> "$tmp/over.err"
check "loss = 101 is refused (exit 2)" test $? -eq 2
check "... as more than 100 %" grep -q "loss: got '101', expected 0% to 100%" "$tmp/over.err"

# --- jitter sits in netem, before the wire: 1 Gbit/s, 100 ms +- 20 ms
# normal, 900 Mbit/s offered. The receiver gets the flow at line rate or
# less (no RX ring overflow), netem reorders as it does, and the goodput
# equals the jitter-free run's.
udp_world $'rate = 1gbit\ndelay = 100ms 20ms distribution normal\nlimit = 100000' 900mbit 3s > "$tmp/jit.ini"
udp_world $'rate = 1gbit\ndelay = 100ms\nlimit = 100000' 900mbit 3s > "$tmp/flat.ini"
"$NETSIM" run "$tmp/jit.ini" -o "$tmp/jit.db" -q > /dev/null 2>&1
"$NETSIM" run "$tmp/flat.ini" -o "$tmp/flat.db" -q > /dev/null 2>&1
gj=$(q "$tmp/jit.db" "select avg(bits_per_s) from interval where t_start >= 1")
gf=$(q "$tmp/flat.db" "select avg(bits_per_s) from interval where t_start >= 1")
check "jittered goodput within 2 % of the jitter-free run ($gj, $gf)" awk -v a="$gj" -v b="$gf" 'BEGIN { exit !(b > 8.9e8 && a > 0.98 * b && a < 1.02 * b) }'
check "no frame lost at the receiver's ring with jitter" test "$(counter "$tmp/jit.db" b.eth0.rx_missed)" = 0
ooo=$(counter "$tmp/jit.db" link.l.fwd.netem_out_of_order)
check "jitter reorders, as netem's tfifo does ($ooo packets)" awk -v o="$ooo" 'BEGIN { exit !(o > 10000) }'
check "a constant delay does not reorder" test "$(counter "$tmp/flat.db" link.l.fwd.netem_out_of_order)" = 0

# --- limit counts the delay line: 100 ms at 900 Mbit/s holds ~7 600
# datagrams, so tc's default limit of 1000 drops most of the flow.
udp_world $'rate = 1gbit\ndelay = 100ms' 900mbit 1s > "$tmp/lim.ini"
"$NETSIM" run "$tmp/lim.ini" -o "$tmp/lim.db" -q > /dev/null 2>&1
drops=$(counter "$tmp/lim.db" link.l.fwd.netem_drops)
check "limit 1000 against a 7600-packet delay line drops ($drops)" awk -v d="$drops" 'BEGIN { exit !(d > 30000) }'

# --- duplicate, corrupt, netem's rate
udp_world $'delay = 1ms\nduplicate = 100%' 100mbit 0.5s > "$tmp/dup.ini"
"$NETSIM" run "$tmp/dup.ini" -o "$tmp/dup.db" -q > /dev/null 2>&1
# (less the ~17 datagrams still in the 1 ms delay line when the run ends)
dr=$(counter "$tmp/dup.db" flow.1.datagrams_received)
dd=$(counter "$tmp/dup.db" link.l.fwd.netem_duplicated)
ds=$(counter "$tmp/dup.db" flow.1.datagrams_sent)
check "duplicate 100%: every datagram duplicated once, the receiver reads both ($dr of 2 x $dd)" \
    awk -v r="$dr" -v d="$dd" -v s="$ds" 'BEGIN { exit !(d == s && r <= 2 * d && r >= 2 * d - 40) }'
udp_world $'corrupt = 10%' 100mbit 1s > "$tmp/cor.ini"
"$NETSIM" run "$tmp/cor.ini" -o "$tmp/cor.db" -q > /dev/null 2>&1
cor=$(counter "$tmp/cor.db" link.l.fwd.netem_corrupted)
check "corrupted frames are dropped by the receiver's checksum ($cor)" \
    test "$cor" = "$(counter "$tmp/cor.db" b.ip_csum_errors)" -a "$cor" != 0
rcv=$(counter "$tmp/cor.db" flow.1.datagrams_received)
snt=$(counter "$tmp/cor.db" flow.1.datagrams_sent)
check "... and never read ($rcv of $snt read)" awk -v r="$rcv" -v s="$snt" -v c="$cor" 'BEGIN { exit !(r + c <= s && r + c >= s - 100) }'
# netem rate 100mbit with 20 bytes of overhead: (1472 + 28 + 14 + 20) bytes
# per datagram, 100e6 / 8 / 1534 = 8148.6 datagrams/s = 95.96 Mbit/s of payload
udp_world $'netem_rate = 100mbit 20\nlimit = 100000' 200mbit 2s > "$tmp/rate.ini"
"$NETSIM" run "$tmp/rate.ini" -o "$tmp/rate.db" -q > /dev/null 2>&1
g=$(q "$tmp/rate.db" "select avg(bits_per_s) from interval where t_start >= 1")
check "netem rate 100mbit 20 carries 95.96 Mbit/s of payload ($g)" awk -v g="$g" 'BEGIN { exit !(g > 95.5e6 && g < 96.4e6) }'

# --- options tc has and netsim does not model are refused by name
udp_world $'delay = 10ms 1ms 25%' 1gbit 0.1s > "$tmp/corr.ini"
"$NETSIM" run "$tmp/corr.ini" --no-db > /dev/null 2> "$tmp/corr.err"
check "delay correlation refused with exit 2" test $? -eq 2
check "... saying correlation is not modelled" grep -q "delay correlation is not modelled" "$tmp/corr.err"
# --- loss ... ecn marks CE what is ECN-capable and drops the rest: UDP
# is Not-ECT, so it is lost as without ecn (tests/scenario/ecn.sh has TCP)
udp_world $'loss = 1% ecn' 1gbit 0.2s > "$tmp/ecn.ini"
"$NETSIM" run "$tmp/ecn.ini" -o "$tmp/ecn.db" -q > /dev/null 2> "$tmp/ecn.err"
check "loss = 1% ecn runs (exit 0, nothing said)" test $? -eq 0 -a ! -s "$tmp/ecn.err"
lost=$(counter "$tmp/ecn.db" link.l.fwd.netem_loss)
check "... Not-ECT datagrams are lost, none marked ($lost lost)" \
    test "$lost" -gt 50 -a "$(counter "$tmp/ecn.db" link.l.fwd.netem_ecn_marked)" -eq 0 -a \
    "$(counter "$tmp/ecn.db" b.IpExtInCEPkts)" -eq 0
udp_world $'loss = 0% ecn' 1gbit 0.1s > "$tmp/ecn0.ini"
"$NETSIM" run "$tmp/ecn0.ini" --no-db > /dev/null 2> "$tmp/ecn0.err"
check "ecn without a loss refused (exit 2), in tc's words" \
    test $? -eq 2 -a "$(grep -c "ecn requested without loss model" "$tmp/ecn0.err")" -eq 1
udp_world $'reorder = 25%' 1gbit 0.1s > "$tmp/reo.ini"
"$NETSIM" run "$tmp/reo.ini" --no-db > /dev/null 2> "$tmp/reo.err"
check "reorder without delay refused, as tc refuses it" grep -q "reorder needs a delay" "$tmp/reo.err"

# --- netem as a discipline in tc's words builds what the keys build: the
# same rows (intervals and counters) from the same draws, whatever the
# order of its options; errors name the key
rows() { q "$1" "select flow, t_start, t_end, bytes, bits_per_s from interval order by 1, 2" | md5sum;
         q "$1" "select name, value from counter order by name" | md5sum; }
udp_world $'fwd.delay = 5ms 1ms\nfwd.loss = 2%\nfwd.duplicate = 1%\nfwd.limit = 3000' 1gbit 0.2s > "$tmp/nk.ini"
udp_world $'fwd.qdisc = netem limit 3000 duplicate 1% loss 2% delay 5ms 1ms' 1gbit 0.2s > "$tmp/nq.ini"
"$NETSIM" run "$tmp/nk.ini" -o "$tmp/nk.db" -q > /dev/null 2>&1
"$NETSIM" run "$tmp/nq.ini" -o "$tmp/nq.db" -q > /dev/null 2> "$tmp/nq.err"
check "fwd.qdisc = netem ... runs (exit 0, nothing said)" test $? -eq 0 -a ! -s "$tmp/nq.err"
lost=$(counter "$tmp/nq.db" link.l.fwd.netem_loss)
check "... loses and duplicates as netem ($lost lost)" \
    test "$lost" -gt 100 -a "$(counter "$tmp/nq.db" link.l.fwd.netem_duplicated)" -gt 50
check "... the same interval and counter rows as the netem keys" test "$(rows "$tmp/nk.db")" = "$(rows "$tmp/nq.db")" -a -n "$(q "$tmp/nq.db" "select 1 from interval limit 1")"
udp_world $'fwd.delay = 5ms\nfwd.qdisc = netem loss 1%' 1gbit 0.1s > "$tmp/n2.ini"
"$NETSIM" run "$tmp/n2.ini" --no-db > /dev/null 2> "$tmp/n2.err"
check "netem by the keys and by qdisc at once: refused (exit 2) at the qdisc key" \
    test $? -eq 2 -a "$(grep -c "fwd.qdisc: netem is given twice" "$tmp/n2.err")" -eq 1
for bad in "netem jitter 5ms:expected an option: delay, loss" "netem delay:delay needs a value" \
           "netem loss 1% delay 5ms loss 2%:loss given twice" "netem delay 5ms ecn:ecn marks what the loss picks" \
           "netem reorder 5%:reorder needs a delay" "netem limit 0:limit got '0'"; do
    udp_world "fwd.qdisc = ${bad%%:*}" 1gbit 0.1s > "$tmp/nb.ini"
    "$NETSIM" run "$tmp/nb.ini" --no-db > /dev/null 2> "$tmp/nb.err"
    check "fwd.qdisc = ${bad%%:*}: refused at its line (${bad#*:})" \
        test $? -eq 2 -a "$(grep -c "nb.ini:[0-9]*: \[link l\] fwd.qdisc: .*${bad#*:}" "$tmp/nb.err")" -eq 1
done
