#!/usr/bin/env bash
# Scenario test of `netsim plot` and of what tools/plot hands it: small
# real sweeps (two TCP flows through a netem bottleneck, 0.4 s runs), the
# gnuplot script netsim plot writes (--script) checked for what each rule
# asks: a log x axis for powers of two and for values over a decade, none
# for a narrow linear sweep (--logx and --no-logx override), tics at the
# swept values, a label left out rather than overprinted, axis labels with
# units, per-flow lines titled by the flows' labels, Jain's index equal to
# `netsim report --metric jain`, a title saying what is plotted; a series
# plot's legend naming only the flow it draws; the errors (exit 1 naming
# the path or gnuplot-nox, exit 2 for bad usage) and no file left behind.
# Usage (from the repo root): NETSIM=./netsim bash tests/scenario/plot_cmd.sh
. "$(dirname "$0")/common.bash"

for tool in sqlite3 gnuplot; do
    if ! command -v $tool > /dev/null 2>&1; then
        notok plot-cmd-prerequisites "$tool not installed (make deps)"
        exit 1
    fi
done
is_png() { [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]; }
# the titles of the plot command's lines, one a line (the key entry's last)
titles() { sed -n '/^plot /,$p' "$1" | grep -v '^ *keyentry' | grep -o "title '[^']*'" | sed "s/^title '//; s/'$//"; }
# the datablocks' rows: the value as swept, then the mean
points() { awk '/<< EOD$/ { f = 1; next } /^EOD$/ { f = 0 } f && !/^#/ { v = $6; gsub(/"/, "", v); print v, $3 }' "$1"; }
# as_report REPORT POINTS: each point's mean with the decimals report
# printed for its value ("VALUE MEAN" lines both)
as_report() {
    awk 'NR == FNR { split($2, p, "."); d[$1] = length(p[2]); next } { printf "%s %.*f\n", $1, d[$1], $2 }' "$1" "$2"
}

cat > "$tmp/neck.ini" << 'INI'
[sim]
duration = 400ms
interval = 100ms
repeat = 2
[host a]
tcp.cc = cubic
[host b]
tcp.cc = bbr
[link la]
ends = a:eth0 r:eth0
[link lb]
ends = b:eth0 r:eth1
[link wan]
ends = r:eth2 c:eth0
rate = 100mbit
delay = 5ms
limit = ${16, 32, 64}
[flow 1]
app = tcp_iperf3
from = a
to = c
[flow 2]
app = tcp_iperf3
from = b
to = c
INI
"$NETSIM" sweep "$tmp/neck.ini" -j 2 -q -o "$tmp/neck.db" > "$tmp/sweep.out" 2>&1
check "a two-flow sweep over limit = 16, 32, 64 runs" test $? -eq 0
D=$tmp/neck.db

# ---- per flow, a power-of-two axis
"$NETSIM" plot "$D" --by flow --script "$tmp/flow.gp" -o "$tmp/flow.png" > "$tmp/flow.out" 2>&1
check "netsim plot --by flow exits 0" test $? -eq 0
check "... prints the path it wrote" test "$(cat "$tmp/flow.out")" = "$tmp/flow.png"
check "... a PNG" is_png "$tmp/flow.png"
check "... on a log x axis (powers of two)" grep -qx 'set logscale x 2' "$tmp/flow.gp"
check "... tics exactly at the swept values" grep -qxF "set xtics ('16' 16, '32' 32, '64' 64)" "$tmp/flow.gp"
check "... x label with the key's unit (netsim keys: packets)" \
    grep -qxF "set xlabel 'limit (packets, log scale)'" "$tmp/flow.gp"
check "... y label with the metric's unit and direction" grep -qE "^set ylabel 'goodput \((bit|kbit|Mbit|Gbit)/s\), higher is better'$" "$tmp/flow.gp"
check "... a title saying what against what, the scenario and the repeats" \
    grep -qF "set title 'goodput of each flow against limit — neck, 2 repeats, mean and 95% CI'" "$tmp/flow.gp"
q "$D" "select distinct value from param where key like 'label.flow.%' order by key" > "$tmp/labels"
titles "$tmp/flow.gp" > "$tmp/titles"
check "... one line per flow, titled by the flow's label ($(paste -sd '|' "$tmp/labels"))" \
    diff "$tmp/labels" "$tmp/titles"
"$NETSIM" report "$D" --by flow | awk '$1 ~ /^[0-9]/ && $2 == 1 { print $1, $4 }' > "$tmp/report_flow1"
awk '/<< EOD$/ { n++ } n == 1' "$tmp/flow.gp" > "$tmp/flow1.gp"
points "$tmp/flow1.gp" > "$tmp/points_flow1"
as_report "$tmp/report_flow1" "$tmp/points_flow1" > "$tmp/plot_flow1"
check "... flow 1's points are report --by flow's goodput ($(paste -sd ' ' "$tmp/report_flow1"))" \
    diff "$tmp/report_flow1" "$tmp/plot_flow1"

# ---- Jain's index: report's numbers, report's name
"$NETSIM" plot "$D" --metric jain --script "$tmp/jain.gp" -o "$tmp/jain.png" > /dev/null 2>&1
check "netsim plot --metric jain exits 0" test $? -eq 0 -a -s "$tmp/jain.png"
check "... its y axis is Jain's fairness index" grep -qxF "set ylabel 'Jain''s fairness index, higher is better'" "$tmp/jain.gp"
"$NETSIM" report "$D" --metric jain | awk '$1 ~ /^[0-9]/ { print $1, $3 }' > "$tmp/report_jain"
points "$tmp/jain.gp" > "$tmp/points_jain"
as_report "$tmp/report_jain" "$tmp/points_jain" > "$tmp/plot_jain"
check "... its values are report --metric jain's ($(paste -sd ' ' "$tmp/report_jain"))" \
    diff "$tmp/report_jain" "$tmp/plot_jain"
check "... 3 values" test "$(wc -l < "$tmp/plot_jain")" -eq 3

# ---- log or linear by the values; --logx and --no-logx
"$NETSIM" plot "$D" --no-logx --script "$tmp/nolog.gp" -o "$tmp/nolog.png" > /dev/null 2>&1
check "--no-logx: no log scale" bash -c "! grep -q 'logscale' '$tmp/nolog.gp'"
check "... and the x label says packets only" grep -qxF "set xlabel 'limit (packets)'" "$tmp/nolog.gp"
"$NETSIM" sweep "$tmp/neck.ini" --set 'wan.limit=${30, 50, 70}' --set sim.repeat=1 -j 2 -q -o "$tmp/lin.db" \
    > /dev/null 2>&1
"$NETSIM" plot "$tmp/lin.db" --script "$tmp/lin.gp" -o "$tmp/lin.png" > /dev/null 2>&1
check "30, 50, 70: a linear axis" bash -c "! grep -q 'logscale' '$tmp/lin.gp'"
check "... tics at the values" grep -qxF "set xtics ('30' 30, '50' 50, '70' 70)" "$tmp/lin.gp"
check "... one run per point, said in the title" grep -qF "neck, one run per point'" "$tmp/lin.gp"
"$NETSIM" plot "$tmp/lin.db" --logx --script "$tmp/linlog.gp" -o "$tmp/linlog.png" > /dev/null 2>&1
check "... --logx makes it a log axis" grep -q '^set logscale x' "$tmp/linlog.gp"
"$NETSIM" sweep "$tmp/neck.ini" --set 'wan.limit=${25, 50, 100, 200, 400, 800}' --set sim.repeat=1 -j 2 -q \
    -o "$tmp/wide.db" > /dev/null 2>&1
"$NETSIM" plot "$tmp/wide.db" --script "$tmp/wide.gp" -o "$tmp/wide.png" > /dev/null 2>&1
check "25 to 800, more than a decade: a log axis" grep -qx 'set logscale x 10' "$tmp/wide.gp"
"$NETSIM" plot "$tmp/wide.db" --no-logx --size 500x400 --script "$tmp/crowd.gp" -o "$tmp/crowd.png" > /dev/null 2>&1
check "... linear at 500 px: 50's label is left out, not printed over 25's (its tic stays)" \
    grep -qxF "set xtics ('25' 25, '' 50, '100' 100, '200' 200, '400' 400, '800' 800)" "$tmp/crowd.gp"

# ---- tools/plot hands sweeps to netsim plot
PLOT_DEBUG=1 tools/plot "$D" --metric jain -o "$tmp/tp_jain.png" > "$tmp/tp.out" 2> "$tmp/tp.err"
check "tools/plot --metric jain draws through netsim plot" \
    test $? -eq 0 -a -s "$tmp/tp_jain.png" -a "$(cat "$tmp/tp.out")" = "$tmp/tp_jain.png"
check "... whose script (PLOT_DEBUG) is netsim plot's" grep -qxF "set ylabel 'Jain''s fairness index, higher is better'" "$tmp/tp.err"

# ---- a series plot names only the flow it draws
cat > "$tmp/three.ini" << 'INI'
[sim]
duration = 200ms
interval = 50ms
[host a]
tcp.cc = cubic
[host b]
tcp.cc = bbr
[host d]
tcp.cc = reno
[link la]
ends = a:eth0 r:eth0
[link lb]
ends = b:eth0 r:eth1
[link ld]
ends = d:eth0 r:eth2
[link wan]
ends = r:eth3 c:eth0
rate = 100mbit
delay = 5ms
[flow 1]
app = tcp_iperf3
from = a
to = c
[flow 2]
app = tcp_iperf3
from = b
to = c
[flow 3]
app = tcp_iperf3
from = d
to = c
INI
"$NETSIM" run "$tmp/three.ini" -q -o "$tmp/three.db" > /dev/null 2>&1
check "a three-flow run" test $? -eq 0
mkdir -p "$tmp/ptmp"
TMPDIR=$tmp/ptmp PLOT_DEBUG=1 tools/plot "$tmp/three.db" --kind series --series flow.2.snd.srtt_ms \
    -o "$tmp/srtt.png" > /dev/null 2> "$tmp/srtt.gp"
check "tools/plot --kind series --series flow.2.snd.srtt_ms exits 0" test $? -eq 0 -a -s "$tmp/srtt.png"
titles "$tmp/srtt.gp" > "$tmp/srtt.titles"
check "... its legend is flow 2's label, only ($(paste -sd '|' "$tmp/srtt.titles"))" \
    test "$(cat "$tmp/srtt.titles")" = "$(q "$tmp/three.db" "select value from param where key = 'label.flow.2'")"
check "... its y label has the unit of srtt_ms" grep -qF "set ylabel 'flow.2.snd.srtt_ms (ms)'" "$tmp/srtt.gp"

# ---- tools/plot: a time window and runs picked, on the times netsim
# writes (intervals every 50 ms, samples every 10 ms): a bound on an
# interval's end or on a sample takes it
# xrange FILE: the script's x range as numbers
xrange() {
    sed -n 's/^set xrange \[\(.*\)\]$/\1/p' "$1" | awk -F: '{ for (i = 1; i <= 2; i++) if ($i != "*") $i += 0; print $1 ":" $2 }'
}
# kept FILE: the directory PLOT_DEBUG kept, named in FILE
kept() { sed -n 's/^--- gnuplot script (\(.*\) kept)$/\1/p' "$1"; }
TMPDIR=$tmp/ptmp PLOT_DEBUG=1 tools/plot "$tmp/three.db" --time 40ms:150ms -o "$tmp/w.png" > /dev/null 2> "$tmp/w.gp"
check "tools/plot --time 40ms:150ms exits 0" test $? -eq 0 -a -s "$tmp/w.png"
check "... its x range is the window ($(xrange "$tmp/w.gp"))" test "$(xrange "$tmp/w.gp")" = 0.04:0.15
span=$(awk 'NF { if (!n++ || $1 < a) a = $1 + 0; if ($1 > b) b = $1 + 0 } END { print a, b }' "$(kept "$tmp/w.gp")"/tp.*)
check "... its goodput is the intervals from 0.05 to 0.15 s ($span)" test "$span" = "0.05 0.15"
TMPDIR=$tmp/ptmp PLOT_DEBUG=1 tools/plot "$tmp/three.db" --kind series --series flow.2.snd.srtt_ms --time 90ms:150ms \
    -o "$tmp/ws.png" > /dev/null 2> "$tmp/ws.gp"
check "tools/plot --kind series --time 90ms:150ms exits 0" test $? -eq 0 -a -s "$tmp/ws.png"
want=$(q "$tmp/three.db" "select count(*) from series where name = 'flow.2.snd.srtt_ms' and t > 0.0899 and t < 0.1501")
got=$(awk 'NR == 1 { a = $1 + 0 } { b = $1 + 0 } END { print NR, a, b }' "$(kept "$tmp/ws.gp")"/ser.*)
check "... draws the $want samples from 90 to 150 ms, both ends ($got)" test "$got" = "$want 0.09 0.15"
check "... over the window" test "$(xrange "$tmp/ws.gp")" = 0.09:0.15
TMPDIR=$tmp/ptmp PLOT_DEBUG=1 tools/plot "$tmp/three.db" --kind cdf --time 100ms: -o "$tmp/wc.png" > /dev/null 2> "$tmp/wc.gp"
check "tools/plot --kind cdf --time 100ms: counts the 2 intervals from 100 ms" test "$(titles "$tmp/wc.gp" | grep -c '(2 intervals)$')" = 1
out=$(tools/plot "$D" --metric jain --time 100ms: -o "$tmp/j.png" 2>&1); rc=$?
check "tools/plot --metric jain --time: exit 2, not handed to netsim plot" \
    test $rc -eq 2 -a -n "$(grep -F -- "--time does not go with --kind sweep" <<< "$out")" -a ! -e "$tmp/j.png"
# the two repeats of run 1's combination, a line each
read -r r1 r2 <<< "$(q "$D" "select group_concat(id, ' ') from run where variant_label = (select variant_label from run where id = 1)")"
lab=$(q "$D" "select variant_label from run where id = 1")
TMPDIR=$tmp/ptmp PLOT_DEBUG=1 tools/plot "$D" --run "$r1" --run "$r2" -o "$tmp/wr.png" > /dev/null 2> "$tmp/wr.gp"
check "tools/plot --run $r1 --run $r2 on a sweep: a line per repeat ($(titles "$tmp/wr.gp" | paste -sd '|'))" \
    test "$(titles "$tmp/wr.gp" | paste -sd '|')" = "$lab rep 0|$lab rep 1"
rm -rf "$tmp/ptmp"

# ---- errors
mkdir -p "$tmp/out"
err() {    # err NAME STATUS PATTERN ARGS...: netsim plot exits STATUS saying PATTERN
    local name=$1 want=$2 pat=$3 out rc
    shift 3
    out=$("$NETSIM" plot "$@" 2>&1); rc=$?
    if [ $rc -ne "$want" ]; then notok "$name" "exit $rc (expected $want): netsim plot $*" "$out"
    elif ! grep -qF -- "$pat" <<< "$out"; then notok "$name" "message does not say '$pat':" "$out"
    else ok "$name"; fi
}
# a gnuplot that fails, one that stops half way through its image
mkdir -p "$tmp/fake/cut"
printf '#!/bin/sh\ncat > /dev/null\necho "line 1: no such thing" >&2\nexit 1\n' > "$tmp/fake/gnuplot"
printf '#!/bin/sh\ncat > /dev/null\nprintf "\\211PNG\\r\\n\\032\\nhalf an image"\n' > "$tmp/fake/cut/gnuplot"
chmod +x "$tmp/fake/gnuplot" "$tmp/fake/cut/gnuplot"
out=$(PATH=/nonexistent "$NETSIM" plot "$D" -o "$tmp/out/a.png" 2>&1); rc=$?
check "without gnuplot: exit 1 naming gnuplot-nox" test $rc -eq 1 -a -n "$(grep -F 'gnuplot-nox' <<< "$out")"
out=$(PATH=$tmp/fake:$PATH "$NETSIM" plot "$D" -o "$tmp/out/b.png" 2>&1); rc=$?
check "a failing gnuplot: exit 1, its message shown, the output named" \
    test $rc -eq 1 -a -n "$(grep -F 'no such thing' <<< "$out")" -a -n "$(grep -F "$tmp/out/b.png" <<< "$out")"
out=$(PATH=$tmp/fake/cut:$PATH "$NETSIM" plot "$D" -o "$tmp/out/c.png" 2>&1); rc=$?
check "a truncated image: exit 1, not written" test $rc -eq 1 -a ! -e "$tmp/out/c.png"
echo old > "$tmp/out/d.png"
PATH=$tmp/fake:$PATH "$NETSIM" plot "$D" -o "$tmp/out/d.png" > /dev/null 2>&1
check "... a failed plot leaves the previous image as it was" test "$(cat "$tmp/out/d.png")" = old
err "an output in a missing directory: exit 1 naming it" 1 "$tmp/none/x.png: cannot write" "$D" -o "$tmp/none/x.png"
err "a --script path that cannot be written: exit 1 naming it" 1 "$tmp/none/s.gp" "$D" -o "$tmp/out/e.png" \
    --script "$tmp/none/s.gp"
if [ -w /dev/full ]; then
    "$NETSIM" plot "$D" -o "$tmp/f.png" > /dev/full 2> "$tmp/full.err"
    check "stdout on a full disk: exit 1" test $? -eq 1 -a -n "$(grep -F 'No space left' "$tmp/full.err")"
fi
err "--kind throughput is tools/plot's: exit 2" 2 "tools/plot" "$D" --kind throughput
"$NETSIM" sweep "$tmp/neck.ini" --set 'a.tcp.cc=${cc=cubic, reno}' --set wan.limit=100 --set sim.repeat=1 -q \
    -o "$tmp/cc.db" > /dev/null 2>&1
err "--logx on a text axis: exit 2" 2 "axis 'cc' is not numeric" "$tmp/cc.db" --logx
err "a DB without axes: exit 2" 2 "no swept axis" "$tmp/three.db"
err "an unknown metric: exit 2" 2 "unknown metric" "$D" --metric speed
err "jain per flow: exit 2" 2 "not with --by flow" "$D" --metric jain --by flow
err "an unknown --axis: exit 2 listing the axes" 2 "(axes: limit)" "$D" --axis rate
err "a .jpg output: exit 2" 2 ".png or .svg" "$D" -o "$tmp/out/x.jpg"
left=$(ls -A "$tmp/out" | grep -v '^d\.png$')
check "nothing left behind in the output directory${left:+ (left: $left)}" test -z "$left"
