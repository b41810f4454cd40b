#!/usr/bin/env bash
# [switch NAME] and a switch's shared buffer (sb.size, sb.thtype, sb.th).
# A CUBIC flow from a 10 Gbit/s port fills a 1 Gbit/s port of the switch,
# so the port's queue grows until the buffer refuses it. A packet of
# L = 1514 bytes (qdisc_pkt_len of a 1500-byte MTU) is admitted while the
# port holds q < alpha (B - used) (dynamic) or q + L <= th (static), so a
# lone port's highest occupancy is the first multiple of L that passes its
# bound: with used = q, q < alpha B / (1 + alpha). Each figure below is
# that arithmetic, not a previous run's.
. "$(dirname "$0")/common.bash"

L=1514
B=300000

world() {   # world FILE SBKEYS QDISC [SECOND]: a1 -> sw -> c1 (and a2 -> sw -> c2 with SECOND)
    printf '[sim]\nduration = 2s\ninterval = 1s\n[switch sw]\n%s\n' "$2" > "$1"
    local i
    for i in 1 ${4:+2}; do   # a sender on sw:eth$i at 10 Gbit/s, its receiver on sw:eth$((i + 2)) at 1
        cat >> "$1" <<EOI
[link la$i]
ends = a$i sw:eth$i
rate = 10gbit
propagation = 50us
[link lc$i]
ends = sw:eth$((i + 2)) c$i
rate = 1gbit
propagation = 50us
$3
[flow $i]
app = tcp_stream
from = a$i
to = c$i
EOI
    done
}

occ() { q "$1" "select value from counter where name = 'sw.sb.occ_max'"; }
peak() { q "$1" "select cast(max(value) as int) from series where name = 'sw.eth$2.qdisc.backlog_peak_bytes'"; }
discards() { q "$1" "select value from counter where name = 'sw.eth$2.tc_no_buffer_discard_uc'"; }
run() {   # run NAME: $tmp/NAME.ini into $tmp/NAME.db
    "$NETSIM" run "$tmp/$1.ini" -q -o "$tmp/$1.db" > "$tmp/$1.out" 2>&1
    check "$1 runs" test $? -eq 0
}
# a lone port's peak under the bound NUM/DEN: the highest q below it (a
# multiple of L) plus the L it admitted, ceil(NUM / (DEN L)) L
lone_peak() { local num=$1 den=$2; echo $(( (num + den * L - 1) / (den * L) * L )); }

# [switch]: the keys a switch needs, recorded as written; a key in the section wins
world "$tmp/defaults.ini" "gro = on" ""
run defaults
check "[switch sw] is a host with cpu = ideal and itr = 0" \
    test "$(q "$tmp/defaults.db" "select group_concat(value, ' ') from param where key in ('sw.cpu', 'sw.itr')")" = "ideal 0"
check "a key the section sets wins (gro = on)" test "$(q "$tmp/defaults.db" "select value from param where key = 'sw.gro'")" = on
check "no shared buffer by default: no pool counter" test -z "$(occ "$tmp/defaults.db")"

# dynamic thresholds, the default tree on the port (pfifo_fast, 1000 packets)
for th in 9 10 16; do
    if [ $th -ge 10 ]; then num=$(( B << (th - 10) )); den=$(( 1 + (1 << (th - 10)) )); else num=$B; den=$(( 1 + (1 << (10 - th)) )); fi
    want=$(lone_peak $num $den)
    world "$tmp/th$th.ini" "sb.size = $B
sb.th = $th" ""
    run th$th
    got=$(occ "$tmp/th$th.db")
    check "th $th: a lone port holds at most alpha B / (1 + alpha) + L: $want, got $got" test "$got" = "$want"
    check "th $th: the rest is refused ($(discards "$tmp/th$th.db" 3) discards)" test "$(discards "$tmp/th$th.db" 3)" -gt 0
done

# static: q + L <= th, the port's own discipline (pfifo limit 10000) never full
world "$tmp/static.ini" "sb.size = $B
sb.thtype = static
sb.th = 45000" "fwd.qdisc = pfifo limit 10000"
run static
want=$(( 45000 / L * L ))
check "static th 45000: the port holds at most $want, got $(peak "$tmp/static.db" 3)" test "$(peak "$tmp/static.db" 3)" = "$want"
check "static: the pool's peak is the port's" test "$(occ "$tmp/static.db")" = "$want"

# two congested ports, alpha 1: each under B / 2 + L whatever the other holds,
# the pool never over B, and together more than one port alone could take
world "$tmp/two.ini" "sb.size = $B
sb.th = 10" "fwd.qdisc = pfifo limit 10000" two
run two
p3=$(peak "$tmp/two.db" 3) p4=$(peak "$tmp/two.db" 4) o=$(occ "$tmp/two.db")
check "two ports: each under B/2 + L ($p3, $p4 < $((B / 2 + L)))" test $p3 -lt $((B / 2 + L)) -a $p4 -lt $((B / 2 + L))
check "two ports: the pool's peak $o at most B and over a lone port's $(lone_peak $B 2)" \
    test $o -le $B -a $o -gt $(lone_peak $B 2)
check "two ports: both refused" test "$(discards "$tmp/two.db" 3)" -gt 0 -a "$(discards "$tmp/two.db" 4)" -gt 0

# static shares over the pool (two ports of 200000 in 300000): the pool is
# what refuses, so it fills to within a packet of B and never past it
world "$tmp/over.ini" "sb.size = $B
sb.thtype = static
sb.th = 200000" "fwd.qdisc = pfifo limit 10000" two
run over
o=$(occ "$tmp/over.db")
check "static shares over the pool: it holds at most B and fills to within L of it ($o)" \
    test $o -le $B -a $o -gt $((B - L))

# a threshold without a pool (a warning), and errors: a static threshold without bytes, out of range
printf '[sim]\nduration = 1ms\n[switch sw]\nsb.th = 12\n[link l]\nends = a sw\n' > "$tmp/e1.ini"
"$NETSIM" run "$tmp/e1.ini" > "$tmp/e1.out" 2>&1
check "sb.th without sb.size is a warning at its line" grep -q "e1.ini:4: .*sb.th: warning: no shared buffer .*does nothing" "$tmp/e1.out"
printf '[sim]\nduration = 1ms\n[switch sw]\nsb.size = 1M\nsb.thtype = static\n[link l]\nends = a sw\n' > "$tmp/e2.ini"
"$NETSIM" run "$tmp/e2.ini" > "$tmp/e2.out" 2>&1
check "a static threshold without sb.th is an error" grep -q "e2.ini:5: .*needs sb.th in bytes" "$tmp/e2.out"
printf '[sim]\nduration = 1ms\n[switch sw]\nsb.size = 1M\nsb.th = 17\n[link l]\nends = a sw\n' > "$tmp/e3.ini"
"$NETSIM" run "$tmp/e3.ini" > "$tmp/e3.out" 2>&1
check "th 17 is out of devlink's 3..16" grep -q "e3.ini:5: .*sb.th" "$tmp/e3.out"
