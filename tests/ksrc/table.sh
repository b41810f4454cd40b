#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The table docs/kernel-source.md shows: every tcp.cc variant of a KSRC
# build whose name ends in @LABEL (default 6.1), one 10-s bulk flow each
# over tests/ksrc/bulk.ini (1 Gbit/s, 20 ms RTT, 0.1 % loss, seed 1):
# goodput, retransmissions, mean smoothed RTT (of the sender's srtt
# series, sampled every 10 ms), as markdown rows.
#
#   tests/ksrc/table.sh [NETSIM] [LABEL] [EXTRA --set ...]
set -euo pipefail
x=${1:-./netsim}
label=${2:-6.1}
shift 2 2>/dev/null || shift $#
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| tcp.cc | goodput (Mbit/s) | retransmissions | mean RTT (ms) |"
echo "|---|---:|---:|---:|"
for cc in $("$x" models | awk -v l="@$label" '$1 ~ l"$" { print $1 }'); do
    db=$tmp/$cc.db
    out=$("$x" run tests/ksrc/bulk.ini --set "s.tcp.cc=$cc" -o "$db" "$@" 2>&1) || { echo "| $cc | run failed | | |"; continue; }
    line=$(printf '%s\n' "$out" | grep -m1 'sender$')
    rate=$(printf '%s\n' "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /bits\/sec$/) { v = $(i-1); u = $i } }
        END { if (u ~ /^G/) v *= 1000; else if (u ~ /^K/) v /= 1000; print v }')
    retr=$(printf '%s\n' "$line" | awk '{ print $(NF-1) }')
    rtt=$(sqlite3 "$db" "select printf('%.1f', avg(value)) from series where name = 'flow.1.snd.srtt_ms'")
    echo "| $cc | $rate | $retr | $rtt |"
done
