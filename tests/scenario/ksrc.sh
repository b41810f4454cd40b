#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's own congestion-control modules (kcompat/, make KSRC=...)
# against netsim's ports of them, on tests/ksrc/bulk.ini (one flow, 1
# Gbit/s, 20 ms, 5 s): where 4.15 and the tree's release agree the cwnd
# traces (every 10 ms) are identical; each difference is the release's, by
# name (docs/kernel-source.md). Runs only on a netsim with a tree labelled
# 6.1 built in (make check-ksrc builds one from Debian's linux-source-6.1);
# otherwise skips, saying so.
. "$(dirname "$0")/common.bash"

if ! "$NETSIM" models 2>/dev/null | grep -q '^    cubic@6\.1 '; then
    skip "no Linux 6.1 tree built in (make check-ksrc, or make KSRC=DIR with a 6.1 tree)"
    exit 0
fi

cwnd() {   # cwnd CC LOSS [--set ...]: the sender's cwnd series, "t|cwnd" lines
    local cc=$1 loss=$2 db
    shift 2
    db=$tmp/$(echo "$cc$loss$*" | tr -c 'a-zA-Z0-9\n' _).db
    rm -f "$db"    # a run asked for twice: -o adds a run to a database
    "$NETSIM" run tests/ksrc/bulk.ini --set "s.tcp.cc=$cc" --set "wan.fwd.loss=$loss" --set sim.duration=5s \
        -q -o "$db" "$@" > /dev/null 2>&1 || { echo "run failed"; return; }
    sqlite3 "$db" "select t, cast(value as int) from series where name = 'flow.1.snd.cwnd' order by t"
}
same() {   # same CC LOSS [--set ...]: CC and CC@6.1 give one trace
    local a b
    a=$(cwnd "$1" "${@:2}")
    b=$(cwnd "$1@6.1" "${@:2}")
    check "$1 and $1@6.1, loss $2${3:+ $*}: identical cwnd traces ($(echo "$a" | wc -l) samples)" \
        test -n "$a" -a "$a" = "$b"
}

n=$("$NETSIM" models | grep -cE '^    (bic|bbr|cdg|cubic|dctcp|highspeed|htcp|hybla|illinois|lp|nv|scalable|vegas|veno|westwood|yeah)@6\.1 ')
check "all 16 modules of 6.1 are variants ($n)" test "$n" -eq 16

# the modules 4.15 and 6.1 agree on: no change of theirs between the two
# touches what these runs reach (DCTCP without ECN is its Reno fallback)
for cc in vegas westwood highspeed dctcp; do
    same $cc 0
    same $cc 0.1%
done
# DCTCP with ECN marks (tests/ksrc/ecn.ini: a router port CE-marks past 1
# ms of sojourn): with marks only, 6.1's module gives the port's trace,
# the sender's alone and with the receiver's module 6.1's too (its CE
# state machine, dctcp_ece_ack_update; the ACKs it asks for are sent by
# netsim's 4.15 core either way)
ecn_cwnd() {   # ecn_cwnd SENDER_CC RECEIVER_CC LOSS: "t|cwnd|ca_state" lines
    local db=$tmp/ecn_$(echo "$1$2$3" | tr -c 'a-zA-Z0-9\n' _).db
    "$NETSIM" run tests/ksrc/ecn.ini --set "s.tcp.cc=$1" --set "d.tcp.cc=$2" --set "wan.fwd.loss=$3" -q -o "$db" \
        > /dev/null 2>&1 || { echo "run failed"; return; }
    sqlite3 "$db" "select a.t, cast(a.value as int), cast(b.value as int) from series a join series b
        on b.t = a.t and b.name = 'flow.1.snd.ca_state' where a.name = 'flow.1.snd.cwnd' order by a.t"
    q "$db" "select value from counter where name = 'r.eth1.qdisc.ce_mark'" > "$db.marks"
}
a=$(ecn_cwnd dctcp dctcp 0) marks=$(cat "$tmp"/ecn_dctcpdctcp0.db.marks)
b=$(ecn_cwnd dctcp@6.1 dctcp 0)
c=$(ecn_cwnd dctcp@6.1 dctcp@6.1 0)
check "dctcp and dctcp@6.1 with ECN marks ($marks CE), no loss: identical cwnd traces" \
    test -n "$a" -a "$marks" -gt 100 -a "$a" = "$b"
check "... and with dctcp@6.1 at the receiver too" test "$a" = "$c"
# ECN marks and 0.1 % loss: identical up to the first fast retransmit,
# entered while an ECE's reduction (CWR) is under way. 4.15 keeps CWR's
# ssthresh (cwnd - cwnd x alpha / 2048, alpha near 0 after a lossless
# start: the window stays); 6.1's dctcp_state halves ssthresh on entering
# Recovery, aecfde23108b "tcp: Ensure DCTCP reacts to losses" (5.1, RFC
# 8257 3.5), so 6.1 leaves Recovery at half its window. After that the
# runs go their own ways, where e3058450965972 "dctcp: more accurate
# tracking of packets delivery" (5.1: alpha from tp->delivered and
# delivered_ce, not from bytes ACKed with a duplicate ACK counted as
# rcv_mss) applies too.
a=$(ecn_cwnd dctcp dctcp 0.1%)
b=$(ecn_cwnd dctcp@6.1 dctcp 0.1%)
first=$(paste -d'|' <(echo "$a") <(echo "$b") | awk -F'|' '$2 != $5 { print $1 ": " $2 " " $5 " (ca_state " $3 " " $6 ")"; exit }')
rec=$(echo "$a" | awk -F'|' '$3 == 3 { print $1; exit }')
check "dctcp and dctcp@6.1 with ECN marks and loss: identical until Recovery at $rec s, then 6.1 below ($first)" \
    test "$first" = "0.17: 359 231 (ca_state 3 3)" -a "$rec" = 0.17
exit4=$(echo "$a" | awk -F'|' '$1 > 0.17 && $3 == 0 { print $2; exit }')
exit6=$(echo "$b" | awk -F'|' '$1 > 0.17 && $3 == 0 { print $2; exit }')
check "... 4.15 leaves that Recovery at its window ($exit4), 6.1 at about half of it ($exit6)" \
    test "$exit4" = 359 -a "$exit6" = 192

# CUBIC: lossless, slow start and HyStart's exit agree
same cubic 0
# with loss (HyStart off on both: the same exit in slow start) the traces
# agree up to 1.47 s, then part by one segment, and the runs go their own
# ways: cff04e2da308 "tcp_cubic: switch bictcp_clock() to usec resolution"
# (5.6) keeps delay_min in us, added to the cubic function's t with
# usecs_to_jiffies, rounded up (21 ms for 20.3), where 4.15 added
# delay_min >> 3 ms, rounded down (20); a scratch port with 6.1's rounding
# gives 6.1's trace through 5 s. K is cubic_root's on both sides (make
# check-kdiff); when the port took libm's cube root it parted here too
a=$(cwnd cubic 0.1% --set s.tcp.cc.cubic.hystart=0)
b=$(cwnd cubic@6.1 0.1% --set s.tcp.cc.cubic@6.1.hystart=0)
first=$(paste -d'|' <(echo "$a") <(echo "$b") | awk -F'|' '$2 != $4 { print $1 ": " $2 " " $4; exit }')
check "cubic and cubic@6.1 with loss: identical up to 1.47 s, then one segment apart ($first)" \
    test "$first" = "1.48: 912 913"

# 6.1's modules with the changes since 4.15 these runs reach undone, one
# line each (tests/ksrc/undo-tree.sh, built in by make check-ksrc as the
# tree labelled as415): then the traces are the ports' exactly, so that
# every difference above is one of those named changes
if "$NETSIM" models 2>/dev/null | grep -q '^    bbr@as415 '; then
    cubic_same() {   # cubic_same LOSS: cubic and cubic@as415, HyStart off
        a=$(cwnd cubic "$1" --set s.tcp.cc.cubic.hystart=0)
        b=$(cwnd cubic@as415 "$1" --set s.tcp.cc.cubic@as415.hystart=0)
        check "cubic and cubic@as415 (6.1 but for cff04e2da308), HyStart off, loss $1: identical cwnd traces" \
            test -n "$a" -a "$a" = "$b"
    }
    cubic_same 0.1%
    cubic_same 1%
    # BBR: six changes, each needed (docs/kernel-source.md has where each
    # parts the traces without it)
    a=$(cwnd bbr 0)
    b=$(cwnd bbr@6.1 0)
    first=$(paste -d'|' <(echo "$a") <(echo "$b") | awk -F'|' '$2 != $4 { print $1; exit }')
    check "bbr and bbr@6.1, no loss: apart from 0.07 s, 6.1's payload rate ($first)" test "$first" = 0.07
    for loss in 0 0.1% 1%; do
        a=$(cwnd bbr $loss)
        b=$(cwnd bbr@as415 $loss)
        check "bbr and bbr@as415, loss $loss: identical cwnd traces ($(echo "$a" | wc -l) samples)" \
            test -n "$a" -a "$a" = "$b"
    done
    # a shared bottleneck (tests/ksrc/shared.ini: two flows, one starting
    # a second later, a 100-packet FIFO at 1 Gbit/s): both flows' traces
    shared() {   # shared CC [--set ...]: both senders on CC
        local cc=$1 db
        shift
        db=$tmp/shared_$(echo "$cc$*" | tr -c 'a-zA-Z0-9\n' _).db
        rm -f "$db"
        "$NETSIM" run tests/ksrc/shared.ini --set "s1.tcp.cc=$cc" --set "s2.tcp.cc=$cc" -q -o "$db" "$@" \
            > /dev/null 2>&1 || { echo "run failed"; return; }
        sqlite3 "$db" "select t, name, cast(value as int) from series
                       where name in ('flow.1.snd.cwnd', 'flow.2.snd.cwnd') order by t, name"
    }
    for p in vegas:6.1 westwood:6.1 highspeed:6.1 dctcp:6.1 bbr:as415; do
        cc=${p%%:*} tree=${p#*:}
        a=$(shared $cc)
        b=$(shared "$cc@$tree")
        check "shared bottleneck: $cc and $cc@$tree give both flows' traces ($(echo "$a" | wc -l) samples)" \
            test -n "$a" -a "$a" = "$b"
    done
    a=$(shared cubic --set s1.tcp.cc.cubic.hystart=0 --set s2.tcp.cc.cubic.hystart=0)
    b=$(shared cubic@as415 --set s1.tcp.cc.cubic@as415.hystart=0 --set s2.tcp.cc.cubic@as415.hystart=0)
    check "shared bottleneck: cubic and cubic@as415, HyStart off: identical" test -n "$a" -a "$a" = "$b"
else
    skip "no as415 tree built in (make check-ksrc builds it with tests/ksrc/undo-tree.sh)"
fi

# a module parameter is a key: beta changes the run, and is recorded
"$NETSIM" run tests/ksrc/bulk.ini --set s.tcp.cc=cubic@6.1 --set s.tcp.cc.cubic@6.1.beta=512 -q -o "$tmp/beta.db" \
    > /dev/null 2>&1
check "tcp.cc.cubic@6.1.beta = 512 runs and is recorded" \
    test "$(sqlite3 "$tmp/beta.db" "select value from param where key = 's.tcp.cc.cubic@6.1.beta'")" = 512
a=$(cwnd cubic@6.1 0.1%)
b=$(cwnd cubic@6.1 0.1% --set s.tcp.cc.cubic@6.1.beta=512)
check "... and changes the window after a loss" test -n "$a" -a "$a" != "$b"

# every module runs the bulk flow and moves data (the table of
# docs/kernel-source.md, 2 s each here)
tests/ksrc/table.sh "$NETSIM" 6.1 --set sim.duration=2s --set 1.length=2s > "$tmp/table" 2>&1
bad=$(awk -F'|' 'NR > 2 && ($3 + 0 <= 0) { print $2 }' "$tmp/table" | tr -d ' ' | tr '\n' ' ')
check "each of the 16 modules runs a bulk flow with goodput${bad:+ (not: $bad)}" \
    test "$(awk 'NR > 2' "$tmp/table" | wc -l)" -eq 16 -a -z "$bad"
