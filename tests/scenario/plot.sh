#!/usr/bin/env bash
# Scenario test of tools/plot and tools/plot-all.sh: builds synthetic result
# databases with the sqlite3 CLI (schema of sinks/record.h), renders every
# kind, and checks exit status, PNG signature and size (IHDR), SVG output,
# and the errors (exit 2). One TAP test per check (common.bash).
# Usage (from the repo root): NETSIM=./netsim bash tests/scenario/plot.sh
. "$(dirname "$0")/common.bash"
plot=tools/plot
plotall=tools/plot-all.sh
netsim=$NETSIM

for tool in sqlite3 gnuplot; do
    if ! command -v $tool >/dev/null 2>&1; then
        notok plot-prerequisites "$tool not installed (make deps)"
        exit 1
    fi
done

# ------------------------------------------------------------ databases
schema="PRAGMA user_version = 1;
CREATE TABLE run(id INTEGER PRIMARY KEY, scenario TEXT, variant_label TEXT, seed INTEGER, rep INTEGER,
  started_at TEXT, wall_s REAL, events INTEGER, status TEXT NOT NULL, error TEXT, scenario_hash TEXT,
  sim_s REAL, hostname TEXT);
CREATE TABLE param(run_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT);
CREATE TABLE interval(run_id INTEGER NOT NULL, flow INTEGER NOT NULL, t_start REAL NOT NULL, t_end REAL NOT NULL,
  bytes INTEGER NOT NULL, bits_per_s REAL);
CREATE TABLE series(run_id INTEGER NOT NULL, name TEXT NOT NULL, t REAL NOT NULL, value REAL);
CREATE TABLE counter(run_id INTEGER NOT NULL, name TEXT NOT NULL, value REAL);
CREATE TABLE profile(run_id INTEGER NOT NULL, host TEXT NOT NULL, symbol TEXT NOT NULL, cpu_ns REAL, calls INTEGER);"

# Deterministic pseudo-noise in [0, 1) from an integer expression.
noise() { echo "((($1) * 7919 + 104729) % 1009) / 1009.0"; }

# throughput.db: 2 variants x 3 repeats x 10 intervals, 2 flows; the
# 'continuous' variant collapses after t = 4 s; plus a failed run that must
# not show up, and a series 'cwnd' per run.
sqlite3 "$tmp/throughput.db" "$schema
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 6)
INSERT INTO run SELECT i, 'drs_regress', CASE WHEN i <= 3 THEN 'tcp.drs=trimodal' ELSE 'tcp.drs=continuous' END,
  1000 + i, (i - 1) % 3, '2024-01-01T00:00:00Z', 1.5, 1000000, 'complete', NULL, 'abc', 10.0, 'ci' FROM k;
INSERT INTO run VALUES (7, 'drs_regress', 'tcp.drs=bogus', 1, 0, '', 0.1, 0, 'failed', 'boom', 'abc', NULL, 'ci');
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 7),
     t(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM t WHERE s < 9),
     f(flow) AS (VALUES (1), (2))
INSERT INTO interval SELECT i, flow, s, s + 1,
  CAST((CASE WHEN i <= 3 OR s < 4 THEN 4.7e9 ELSE 2.9e9 - 1.5e8 * (s - 4) END) * (0.97 + 0.06 * $(noise 'i * 31 + s * 7 + flow')) / 8 AS INTEGER), NULL
  FROM k, t, f;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 6),
     t(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM t WHERE s < 199)
INSERT INTO series SELECT i, 'cwnd', s * 0.05, 10 + (s % (40 + 10 * i)) * (1 + $(noise 'i * 13 + s')) FROM k, t;
INSERT INTO series SELECT run_id, 'rwnd', t, value * 3 FROM series WHERE name = 'cwnd';" || exit 1

# sweep.db: axis high = 256K, 4M, 40M, 400M x ipfrag.evictor = lru, drop-new,
# 3 repeats each, 5 intervals per run.
sqlite3 "$tmp/sweep.db" "$schema
CREATE TABLE ax(n INTEGER, high TEXT, bytes REAL);
INSERT INTO ax VALUES (0, '256K', 262144), (1, '4M', 4194304), (2, '40M', 41943040), (3, '400M', 419430400);
CREATE TABLE ev(n INTEGER, name TEXT);
INSERT INTO ev VALUES (0, 'lru'), (1, 'drop-new');
WITH RECURSIVE r(rep) AS (SELECT 0 UNION ALL SELECT rep + 1 FROM r WHERE rep < 2)
INSERT INTO run SELECT 1 + ev.n * 12 + ax.n * 3 + rep, 'frag_evict', 'high=' || high || ',ipfrag.evictor=' || name,
  rep + 1, rep, '', 1.0, 1000, 'complete', NULL, 'h', 5.0, 'ci' FROM ax, ev, r;
INSERT INTO param SELECT id, 'axis.high', substr(variant_label, 6, instr(variant_label, ',') - 6) FROM run;
INSERT INTO param SELECT id, 'axis.ipfrag.evictor', substr(variant_label, instr(variant_label, 'evictor=') + 8) FROM run;
INSERT INTO param SELECT id, 'sim.duration', '5s' FROM run;
WITH RECURSIVE t(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM t WHERE s < 4)
INSERT INTO interval SELECT run.id, 1, s, s + 1,
  CAST((CASE WHEN variant_label LIKE '%lru' THEN 2.0e9 + 1.6e9 * ((run.id - 1) % 12 / 3) ELSE 6.5e9 END)
       * (0.9 + 0.2 * $(noise 'run.id * 17 + s')) / 8 AS INTEGER), NULL FROM run, t;
DROP TABLE ax; DROP TABLE ev;" || exit 1

# two.db: two independent numeric axes (buf x rate), one run each, goodput
# in Mbit/s.
sqlite3 "$tmp/two.db" "$schema
CREATE TABLE ax(n INTEGER, a TEXT); INSERT INTO ax VALUES (0, '1M'), (1, '2M'), (2, '4M');
CREATE TABLE bx(n INTEGER, b TEXT); INSERT INTO bx VALUES (0, '10mbit'), (1, '100mbit');
INSERT INTO run SELECT ax.n * 2 + bx.n + 1, 'two_axes', 'buf=' || a || ',rate=' || b, 1, 0, '', 1, 1, 'complete', NULL, 'h', 2, 'ci' FROM ax, bx;
INSERT INTO param SELECT id, 'axis.buf', substr(variant_label, 5, instr(variant_label, ',') - 5) FROM run;
INSERT INTO param SELECT id, 'axis.rate', substr(variant_label, instr(variant_label, 'rate=') + 5) FROM run;
INSERT INTO interval SELECT id, 1, 0, 1, id * 1000000, NULL FROM run;
INSERT INTO interval SELECT id, 1, 1, 2, id * 1100000, NULL FROM run;
DROP TABLE ax; DROP TABLE bx;" || exit 1

# lock.db: axis low moves in lockstep with high (${192K, 3M, 39M ! high}),
# 2 repeats: the sweep's x axis is high, and low does not split the line.
sqlite3 "$tmp/lock.db" "$schema
CREATE TABLE ax(n INTEGER, h TEXT, l TEXT); INSERT INTO ax VALUES (0, '256K', '192K'), (1, '4M', '3M'), (2, '40M', '39M');
INSERT INTO run SELECT n * 2 + rep + 1, 'lockstep', 'high=' || h || ',low=' || l, 1, rep, '', 1, 1, 'complete', NULL, 'h', 1, 'ci'
  FROM ax, (SELECT 0 rep UNION SELECT 1);
INSERT INTO param SELECT id, 'axis.high', substr(variant_label, 6, instr(variant_label, ',') - 6) FROM run;
INSERT INTO param SELECT id, 'axis.low', substr(variant_label, instr(variant_label, 'low=') + 4) FROM run;
INSERT INTO interval SELECT id, 1, 0, 1, id * 100000000, NULL FROM run;
DROP TABLE ax;" || exit 1

# empty.db: the schema, no rows. noint.db: a complete run, no intervals.
sqlite3 "$tmp/empty.db" "$schema" || exit 1
sqlite3 "$tmp/noint.db" "$schema
INSERT INTO run VALUES (1, 'x', '', 1, 0, '', 0.1, 10, 'complete', NULL, 'h', 1.0, 'ci');" || exit 1
printf 'not a database, just text\n' >"$tmp/text.db"

# ------------------------------------------------------------ checks
# png_size FILE: prints "W H" from the IHDR chunk (big-endian u32 at 16, 20).
png_size() {
    od -An -tu1 -j16 -N8 "$1" | awk '{ for (i = 1; i <= NF; i++) b[++n] = $i }
        END { printf "%d %d\n", ((b[1] * 256 + b[2]) * 256 + b[3]) * 256 + b[4], ((b[5] * 256 + b[6]) * 256 + b[7]) * 256 + b[8] }'
}
is_png() { [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# check_png NAME WxH EXPECTED_PATH ARGS...: runs tools/plot ARGS, expects
# exit 0, the path printed, and a PNG of that size at EXPECTED_PATH.
check_png() {
    local name=$1 size=$2 want=$3 out rc
    shift 3
    rm -f "$want"
    out=$("$plot" "$@" 2>&1); rc=$?
    if [ $rc -ne 0 ]; then notok "$name" "exit $rc: tools/plot $*" "$out"; return; fi
    if [ ! -s "$want" ]; then notok "$name" "no file or empty file at $want" "$out"; return; fi
    if [ "$(printf '%s\n' "$out" | tail -1)" != "$want" ]; then notok "$name" "printed '$out', expected the path $want"; return; fi
    if ! is_png "$want"; then notok "$name" "$want is not a PNG (signature $(od -An -tx1 -N8 "$want"))"; return; fi
    local got
    got=$(png_size "$want")
    if [ "$got" != "${size/x/ }" ]; then notok "$name" "$want is ${got/ /x}, expected $size"; return; fi
    ok "$name"
}
check_svg() {
    local name=$1 want=$2 out rc
    shift 2
    rm -f "$want"
    out=$("$plot" "$@" 2>&1); rc=$?
    if [ $rc -ne 0 ]; then notok "$name" "exit $rc: tools/plot $*" "$out"; return; fi
    if [ ! -s "$want" ]; then notok "$name" "no file or empty file at $want"; return; fi
    if ! head -c 5 "$want" | grep -q '^<?xml' && ! grep -q '<svg' "$want"; then
        notok "$name" "$want is not SVG: $(head -c 80 "$want")"; return
    fi
    ok "$name"
}
# check_err NAME PATTERN ARGS...: expects exit 2 and a message matching PATTERN.
check_err() {
    local name=$1 pat=$2 out rc
    shift 2
    out=$("$plot" "$@" 2>&1); rc=$?
    if [ $rc -ne 2 ]; then notok "$name" "exit $rc (expected 2): tools/plot $*" "$out"; return; fi
    if ! printf '%s\n' "$out" | grep -qi -- "$pat"; then notok "$name" "message does not match '$pat':" "$out"; return; fi
    ok "$name"
}

T=$tmp/throughput.db S=$tmp/sweep.db
check_png plot-throughput-default 1000x600 "$tmp/throughput_throughput.png" "$T"
check_png plot-throughput-size 640x480 "$tmp/tp640.png" "$T" --size 640x480 -o "$tmp/tp640.png"
check_svg plot-throughput-svg "$tmp/tp.svg" "$T" -o "$tmp/tp.svg"
check_png plot-throughput-run 1000x600 "$tmp/tp-run.png" "$T" --run 4 -o "$tmp/tp-run.png" --title "run 4 only"
check_png plot-throughput-flow 1000x600 "$tmp/tp-flow.png" "$T" --flow 2 -o "$tmp/tp-flow.png"
check_png plot-sweep-default 1000x600 "$tmp/sweep_sweep.png" "$S" --kind sweep
check_png plot-sweep-size 640x480 "$tmp/sw640.png" "$S" --kind sweep --size 640x480 -o "$tmp/sw640.png"
check_svg plot-sweep-svg "$tmp/sw.svg" "$S" --kind sweep -o "$tmp/sw.svg"
check_png plot-sweep-categorical 1000x600 "$tmp/sw-cat.png" "$S" --kind sweep --axis ipfrag.evictor -o "$tmp/sw-cat.png"
check_png plot-series-default 1000x600 "$tmp/throughput_series_cwnd.png" "$T" --kind series --series cwnd
check_png plot-series-size 640x480 "$tmp/se640.png" "$T" --kind=series --series=rwnd --size=640x480 -o "$tmp/se640.png"
check_png plot-cdf-default 1000x600 "$tmp/throughput_cdf.png" "$T" --kind cdf
check_png plot-cdf-size 640x480 "$tmp/cdf640.png" "$S" --kind cdf --size 640x480 -o "$tmp/cdf640.png"

# The failed run 7 must not be plotted: its label must not be in the SVG.
if grep -q 'bogus' "$tmp/tp.svg" 2>/dev/null; then notok plot-skips-incomplete-runs "the failed run's label is in $tmp/tp.svg"
elif ! grep -q 'tcp.drs=continuous' "$tmp/tp.svg" 2>/dev/null; then notok plot-skips-incomplete-runs "variant label missing from the SVG"
else ok plot-skips-incomplete-runs; fi
if grep -q '>4M<' "$tmp/sw.svg" 2>/dev/null && grep -q '>400M<' "$tmp/sw.svg"; then ok plot-sweep-tick-labels
else notok plot-sweep-tick-labels "the SVG does not label the x ticks 4M and 400M"; fi

check_err plot-err-sweep-several-axes 'several swept axes' "$tmp/two.db" --kind sweep
check_svg plot-sweep-axis-option "$tmp/two.svg" "$tmp/two.db" --kind sweep --axis rate -o "$tmp/two.svg"
if grep -q 'Mbit/s' "$tmp/two.svg" 2>/dev/null && grep -q '>100mbit<' "$tmp/two.svg" && grep -q 'buf=4M' "$tmp/two.svg"; then
    ok plot-sweep-units-and-lines
else
    notok plot-sweep-units-and-lines "expected Mbit/s, a 100mbit tick and a line buf=4M in $tmp/two.svg"
fi

check_svg plot-sweep-lockstep "$tmp/lock.svg" "$tmp/lock.db" --kind sweep -o "$tmp/lock.svg"
if grep -q '>40M<' "$tmp/lock.svg" 2>/dev/null && ! grep -q 'low=' "$tmp/lock.svg"; then ok plot-sweep-lockstep-axis
else notok plot-sweep-lockstep-axis "expected x ticks of high and no line per low value in $tmp/lock.svg"; fi

check_err plot-err-missing-db 'no such file' "$tmp/nonexistent.db"
check_err plot-err-unknown-kind 'unknown kind' "$T" --kind pie
check_err plot-err-empty-db 'no runs' "$tmp/empty.db"
check_err plot-err-no-intervals 'no interval rows' "$tmp/noint.db"
check_err plot-err-not-sqlite 'not an SQLite database\|not a netsim' "$tmp/text.db"
check_err plot-err-no-db-arg 'usage' --kind cdf
check_err plot-err-bad-size 'size' "$T" --size big
check_err plot-err-bad-output '.png or .svg' "$T" -o "$tmp/x.jpg"
check_err plot-err-unknown-series "no series 'ssthresh'" "$T" --kind series --series ssthresh
check_err plot-err-series-ambiguous 'needs --series' "$T" --kind series
check_err plot-err-sweep-no-axis 'no swept axis' "$T" --kind sweep
check_err plot-err-unknown-run 'no run with id 99' "$T" --run 99
check_err plot-err-failed-run "'failed'" "$T" --run 7
check_err plot-err-unknown-option 'unknown option' "$T" --colour red
if [ ! -e "$tmp/nonexistent.db" ]; then ok plot-does-not-create-db; else notok plot-does-not-create-db "tools/plot created $tmp/nonexistent.db"; fi

# ------------------------------------------------------------ several runs
# msg.db (schema 3): runs 1 and 2 alike (cc=a, rep 0, as a merge makes
# them), run 3 cc=b, run 4 unlabelled; 20 messages each, message k
# starting at k / 10 s; run 1's series 'probe' at k * 0.03 s (stored as
# multiplied: 11 * 0.03 is 0.32999999999999996).
sqlite3 "$tmp/msg.db" "${schema/user_version = 1/user_version = 3}
CREATE TABLE message(run_id INTEGER NOT NULL, flow INTEGER NOT NULL, kind TEXT NOT NULL, id INTEGER NOT NULL,
  size INTEGER NOT NULL, t_start REAL NOT NULL, t_end REAL NOT NULL, fct REAL NOT NULL, ideal REAL, rtos INTEGER);
INSERT INTO run VALUES (1, 'msgs', 'cc=a', 1, 0, '', 1, 1, 'complete', NULL, 'h', 2, 'ci'),
  (2, 'msgs', 'cc=a', 1, 0, '', 1, 1, 'complete', NULL, 'h', 2, 'ci'),
  (3, 'msgs', 'cc=b', 1, 0, '', 1, 1, 'complete', NULL, 'h', 2, 'ci'),
  (4, 'msgs', '', 1, 0, '', 1, 1, 'complete', NULL, 'h', 2, 'ci');
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 19)
INSERT INTO message SELECT run.id, 1, 'rpc', i, 1000 * (i + 1), i / 10.0, i / 10.0 + 1e-3 * (i + run.id),
  1e-3 * (i + run.id), 1e-4, 0 FROM run, k;
WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 19)
INSERT INTO series SELECT 1, 'probe', i * 0.03, i FROM k;" || exit 1

# dbg NAME ARGS...: tools/plot ARGS -o $tmp/NAME.png under PLOT_DEBUG; its
# stderr (the gnuplot script) in $tmp/NAME.gp, the data files it kept in
# $tmp/NAME.d, its exit status in $rc
mkdir -p "$tmp/ptmp"
dbg() {
    local name=$1 d
    shift
    TMPDIR=$tmp/ptmp PLOT_DEBUG=1 "$plot" "$@" -o "$tmp/$name.png" >"$tmp/$name.out" 2>"$tmp/$name.gp"; rc=$?
    d=$(sed -n 's/^--- gnuplot script (\(.*\) kept)$/\1/p' "$tmp/$name.gp")
    rm -rf "$tmp/$name.d"
    [ -z "$d" ] || mv "$d" "$tmp/$name.d"
}
# titles FILE: the titles of the plot command's lines, '|' between them
titles() { sed -n 's/^plot //p' "$1" | grep -o "title '[^']*'" | sed "s/^title '//; s/'$//" | paste -sd '|'; }
# check_titles NAME WANT ARGS...: tools/plot ARGS exits 0 with lines titled WANT
check_titles() {
    local name=$1 want=$2 got
    shift 2
    dbg "$name" "$@"
    got=$(titles "$tmp/$name.gp")
    if [ "$rc" -ne 0 ]; then notok "$name" "exit $rc: tools/plot $*" "$(cat "$tmp/$name.gp")"
    elif [ "$got" != "$want" ]; then notok "$name" "lines titled '$got', expected '$want'"
    else ok "$name"; fi
}

check_titles plot-runs-range-one-line-each 'tcp.drs=trimodal rep 0|tcp.drs=trimodal rep 1|tcp.drs=trimodal rep 2' \
    "$T" --run 1-3
# a run's own line: its staircase's mean, min and max are that run's values
if awk '$2 != $3 || $2 != $4 { exit 1 }' "$tmp/plot-runs-range-one-line-each.d/tp.1" 2>/dev/null &&
    [ "$(awk 'NR == 1 { printf "%.0f", $2 }' "$tmp/plot-runs-range-one-line-each.d/tp.1")" = \
      "$(sqlite3 "$T" "select sum(bytes) * 8 from interval where run_id = 2 and t_start = 0")" ]; then
    ok plot-runs-line-is-one-run
else
    notok plot-runs-line-is-one-run "tp.1 is not run 2's goodput alone: $(head -2 "$tmp/plot-runs-range-one-line-each.d/tp.1" 2>&1)"
fi
check_titles plot-runs-repeated-option-add-up 'tcp.drs=trimodal|tcp.drs=continuous rep 1|tcp.drs=continuous rep 2' \
    "$T" --run 1 --run 5-6
if grep -qF "set title 'goodput over time — drs_regress, runs 1, 5-6'" "$tmp/plot-runs-repeated-option-add-up.gp"; then
    ok plot-runs-title; else notok plot-runs-title "the title does not name runs 1, 5-6" "$(grep '^set title' "$tmp/plot-runs-repeated-option-add-up.gp")"; fi
check_titles plot-runs-cdf 'tcp.drs=trimodal (10 intervals)|tcp.drs=continuous (10 intervals)' "$T" --kind cdf --run 3,4
check_titles plot-runs-series 'tcp.drs=trimodal|tcp.drs=continuous' "$T" --kind series --series cwnd --run 2,5
check_titles plot-runs-fct-alike-labels \
    'cc=a (run 1) (20 messages)|cc=a (run 2) (20 messages)|cc=b (20 messages)|run 4 (20 messages)' \
    "$tmp/msg.db" --kind fct --run 1-4
check_titles plot-runs-slowdown 'cc=a median|cc=a 99th percentile|cc=b median|cc=b 99th percentile' \
    "$tmp/msg.db" --kind slowdown --run 2,3
check_err plot-err-runs-missing 'no runs with ids 99-105$' "$T" --run 2,99,100-105
check_err plot-err-runs-missing-in-range 'no runs with ids 8-9$' "$T" --run 5-9
check_err plot-err-runs-incomplete "run 7 is 'failed', not complete" "$T" --run 6-7
check_err plot-err-runs-backwards '--run: the range 3-1 runs backwards' "$T" --run 1,3-1
check_err plot-err-runs-not-ids '--run: expected run ids.*got .1,,2.' "$T" --run 1,,2
check_err plot-err-runs-sweep '--run does not go with --kind sweep' "$S" --kind sweep --run 1-2

# ------------------------------------------------------------ a time window
# tspan DIR: the first and last time of the staircases tp.* in DIR
tspan() { cat "$1"/tp.* 2>/dev/null | awk 'NF { if (!n++ || $1 < a) a = $1 + 0; if ($1 > b) b = $1 + 0 } END { print a, b }'; }
# xrange FILE: the script's x range as numbers ("0:10", "9.9:*")
xrange() {
    sed -n 's/^set xrange \[\(.*\)\]$/\1/p' "$1" | awk -F: '{ for (i = 1; i <= 2; i++) if ($i != "*") $i += 0; print $1 ":" $2 }'
}
# check_window NAME XRANGE SPAN ARGS...: tools/plot ARGS sets the x range
# [XRANGE] and its data run from and to SPAN ("FIRST LAST") only
check_window() {
    local name=$1 xr=$2 span=$3 got
    shift 3
    dbg "$name" "$@"
    got=$(tspan "$tmp/$name.d")
    if [ "$rc" -ne 0 ]; then notok "$name" "exit $rc: tools/plot $*" "$(cat "$tmp/$name.gp")"
    elif [ "$(xrange "$tmp/$name.gp")" != "$xr" ]; then
        notok "$name" "the x range is '$(xrange "$tmp/$name.gp")', expected '$xr'"
    elif [ "$got" != "$span" ]; then notok "$name" "data from $got, expected $span"
    else ok "$name"; fi
}
check_window plot-time-throughput '2:5' '2 5' "$T" --time 2s:5s
if grep -qF "set title 'goodput over time — drs_regress, 2s to 5s'" "$tmp/plot-time-throughput.gp"; then
    ok plot-time-title; else notok plot-time-title "the title does not say 2s to 5s" "$(grep '^set title' "$tmp/plot-time-throughput.gp")"; fi
# [2, 3] and [5, 6] cross a bound: only the intervals wholly inside count
check_window plot-time-units-wholly-inside '2.5:5.5' '3 5' "$T" --time 2.5:5500ms
check_window plot-time-open-end '7:10' '7 10' "$T" --time 7s: --flow 1
check_window plot-time-by-flow '0:3' '0 3' "$T" --by-flow --run 1 --time :3000000us
# check_samples NAME XRANGE "N FIRST LAST" ARGS...: a series plot with
# the x range [XRANGE], run 1's line N samples from FIRST to LAST
check_samples() {
    local name=$1 xr=$2 want=$3 got
    shift 3
    dbg "$name" "$@"
    got=$(awk 'NR == 1 { a = $1 + 0 } { b = $1 + 0 } END { print NR, a, b }' "$tmp/$name.d/ser.1" 2>&1)
    if [ "$rc" -ne 0 ]; then notok "$name" "exit $rc: tools/plot $*" "$(cat "$tmp/$name.gp")"
    elif [ "$(xrange "$tmp/$name.gp")" != "$xr" ]; then notok "$name" "the x range is '$(xrange "$tmp/$name.gp")', expected '$xr'"
    elif [ "$got" != "$want" ]; then notok "$name" "samples (count, first, last) '$got', expected '$want'"
    else ok "$name"; fi
}
# cwnd every 0.05 s: 1 s to 1.2 s is samples 20 to 24, the last stored as
# 1.2000000000000002, which the bound 1.2 s must take all the same; probe's
# 0.32999999999999996 the bound 330ms
check_samples plot-time-series '1:1.2' '5 1 1.2' "$T" --kind series --series cwnd --run 1 --time 1s:1.2s
check_samples plot-time-series-open '9.9:*' '2 9.9 9.95' "$T" --kind series --series cwnd --run 1 --time 9.9s:
check_samples plot-time-series-low-bound '0.33:0.57' '9 0.33 0.57' "$tmp/msg.db" --kind series --series probe --time 330ms:0.57
# the CDF counts run 4's intervals [4, 5] and [5, 6], with their goodput
check_titles plot-time-cdf 'tcp.drs=continuous (2 intervals)' "$T" --kind cdf --run 4 --time 4s:6s
want=$(sqlite3 "$T" "select sum(bytes) * 8.0 from interval where run_id = 4 and t_start >= 4 and t_end <= 6
    group by t_start order by 1" | awk '{ printf "%.0f\n", $1 }' | paste -sd ' ')
got=$(awk '!seen[$1]++ { printf "%.0f\n", $1 }' "$tmp/plot-time-cdf.d/cdf.0" 2>/dev/null | paste -sd ' ')
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok plot-time-cdf-values
else notok plot-time-cdf-values "the CDF's values are '$got', expected '$want'"; fi
# messages 5 to 10 start in [0.5 s, 1 s]: 6 a run, runs 1 and 2 pooled
check_titles plot-time-fct 'cc=a (12 messages)|cc=b (6 messages)|run 4 (6 messages)' "$tmp/msg.db" --kind fct --time 0.5s:1s
dbg plot-time-slowdown "$tmp/msg.db" --kind slowdown --run 3 --time 1s:
if [ "$rc" -eq 0 ] && [ "$(awk '{ n += $4 } END { print n }' "$tmp/plot-time-slowdown.d/sd.0")" = 10 ]; then
    ok plot-time-slowdown
else notok plot-time-slowdown "expected the 10 messages from 1 s on in the bins of sd.0" "$(cat "$tmp/plot-time-slowdown.gp")"; fi
check_err plot-err-time-backwards '--time: FROM must be before TO' "$T" --time 5s:2s
check_err plot-err-time-equal '--time: FROM must be before TO' "$T" --time 2s:2000ms
check_err plot-err-time-not-a-time '--time: expected FROM:TO with times such as 1.5s' "$T" --time 1x:2s
check_err plot-err-time-no-colon '--time: expected FROM:TO with times' "$T" --time 2s
check_err plot-err-time-negative '--time: expected FROM:TO with times' "$T" --time -1s:2s
check_err plot-err-time-neither '--time: expected FROM, TO or both' "$T" --time :
check_err plot-err-time-sweep '--time does not go with --kind sweep' "$S" --kind sweep --time 1s:2s
check_err plot-err-time-sweep-implied '--time does not go with --kind sweep' "$S" --metric goodput --time 1s:
check_err plot-err-time-no-intervals 'no interval rows in DB inside --time 20s:30s' "$T" --time 20s:30s
check_err plot-err-time-no-messages 'no message rows in DB starting inside --time 5s:' "$tmp/msg.db" --kind fct --time 5s:

# ------------------------------------------------------------ line styles
# many.db: 60 variants v=1 .. v=60, a run each, with intervals, a series
# and messages
sqlite3 "$tmp/many.db" "${schema/user_version = 1/user_version = 3}
CREATE TABLE message(run_id INTEGER NOT NULL, flow INTEGER NOT NULL, kind TEXT NOT NULL, id INTEGER NOT NULL,
  size INTEGER NOT NULL, t_start REAL NOT NULL, t_end REAL NOT NULL, fct REAL NOT NULL, ideal REAL, rtos INTEGER);
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 60)
INSERT INTO run SELECT i, 'many', 'v=' || i, 1, 0, '', 1, 1, 'complete', NULL, 'h', 2, 'ci' FROM k;
INSERT INTO interval SELECT id, 1, 0, 1, id * 1000, NULL FROM run;
INSERT INTO interval SELECT id, 1, 1, 2, id * 1100, NULL FROM run;
INSERT INTO series SELECT id, 'x', 0, id FROM run;
INSERT INTO series SELECT id, 'x', 1, id + 1 FROM run;
INSERT INTO message SELECT id, 1, 'rpc', 1, 1000, 0, 1e-3, 1e-3, 1e-4, 0 FROM run;
INSERT INTO message SELECT id, 1, 'rpc', 2, 100000, 0, 2e-3, 2e-3, 1e-4, 0 FROM run;" || exit 1
# styles FILE: the styles (colour, dash pattern, point) of the plot's titled
# lines, one a line (many.db's labels have no commas)
styles() {
    sed -n 's/^plot //p' "$1" | tr ',' '\n' | grep -v notitle | awk '{ k = ""
        if (match($0, /lc rgb .[^ ]* dt [0-9]+/)) k = substr($0, RSTART, RLENGTH)
        if (match($0, / pt [0-9]+/)) k = k substr($0, RSTART, RLENGTH)
        if (k != "") print k }'
}
# check_styles NAME LINES WARN ARGS...: LINES lines drawn, exit 0, the path
# on stdout; WARN 1: stderr says the styles repeat, 0: all LINES styles differ
check_styles() {
    local name=$1 lines=$2 warn=$3 n u
    shift 3
    dbg "$name" "$@"
    n=$(sed -n 's/^plot //p' "$tmp/$name.gp" | grep -o "title '" | wc -l)
    u=$(styles "$tmp/$name.gp" | sort -u | wc -l)
    if [ "$rc" -ne 0 ] || [ "$(cat "$tmp/$name.out")" != "$tmp/$name.png" ]; then
        notok "$name" "exit $rc, stdout '$(cat "$tmp/$name.out")': tools/plot $*"
    elif [ "$n" -ne "$lines" ]; then notok "$name" "$n lines, expected $lines"
    elif [ "$warn" = 1 ] && ! grep -q "^plot: warning: line styles repeat: $lines lines in 50 distinct styles" "$tmp/$name.gp"; then
        notok "$name" "no warning that styles repeat on stderr:" "$(grep -v '^set \|^plot \|^---' "$tmp/$name.gp")"
    elif [ "$warn" = 0 ] && grep -q 'warning' "$tmp/$name.gp"; then notok "$name" "$(grep warning "$tmp/$name.gp")"
    elif [ "$warn" = 0 ] && [ "$u" -ne "$lines" ]; then notok "$name" "$lines lines in $u styles"
    else ok "$name"; fi
}
check_styles plot-styles-50-distinct 50 0 "$tmp/many.db" --run 1-50
# line 11: colour 1's, dashed
if [ "$(styles "$tmp/plot-styles-50-distinct.gp" | sed -n '1p;11p' | paste -sd '|')" = "lc rgb '#1f77b4' dt 1|lc rgb '#1f77b4' dt 2" ]; then
    ok plot-styles-11th-line-dashed
else notok plot-styles-11th-line-dashed "lines 1 and 11: $(styles "$tmp/plot-styles-50-distinct.gp" | sed -n '1p;11p' | paste -sd '|')"; fi
check_styles plot-styles-51-repeat 51 1 "$tmp/many.db" --run 1-51
check_styles plot-styles-variants-repeat 60 1 "$tmp/many.db" --kind cdf
check_styles plot-styles-series-50 50 0 "$tmp/many.db" --kind series --run 1-50
check_styles plot-styles-series-51 51 1 "$tmp/many.db" --kind series --run 1-51
check_styles plot-styles-slowdown-50 100 0 "$tmp/many.db" --kind slowdown --run 1-50
check_styles plot-styles-fct-51 51 1 "$tmp/many.db" --kind fct --run 1-51
if tools/plot --help | grep -q 'Tableau 10' && tools/plot --help | grep -q '50 distinct styles'; then ok plot-styles-in-help
else notok plot-styles-in-help "--help does not say the colours and the 50 styles"; fi

# ------------------------------------------------------------ plot-all.sh
mkdir -p "$tmp/all" "$tmp/none"
cp "$T" "$S" "$tmp/all/"
out=$(bash "$plotall" "$tmp/all" 2>&1); rc=$?
want="throughput_throughput.png throughput_series_cwnd.png throughput_series_rwnd.png sweep_throughput.png sweep_sweep.png"
missing=""
for f in $want; do [ -s "$tmp/all/$f" ] && is_png "$tmp/all/$f" || missing="$missing $f"; done
if [ $rc -ne 0 ]; then notok plot-all "exit $rc" "$out"
elif [ -n "$missing" ]; then notok plot-all "missing:$missing" "$out"
elif [ "$(printf '%s\n' "$out" | grep -c '\.png$')" -lt 5 ]; then notok plot-all "did not print the paths" "$out"
else ok plot-all; fi
out=$(bash "$plotall" "$tmp/none" 2>&1); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qi 'nothing to plot'; then ok plot-all-empty
else notok plot-all-empty "exit $rc" "$out"; fi

# ------------------------------------------------------------ a real database
if [ -x "$netsim" ] && [ -f scenarios/default.ini ]; then
    if "$netsim" run scenarios/default.ini --set sim.duration=1s -q -o "$tmp/real.db" >"$tmp/real.log" 2>&1; then
        check_png plot-netsim-db 1000x600 "$tmp/real_throughput.png" "$tmp/real.db"
    else
        notok plot-netsim-db "netsim run failed:" "$(tail -5 "$tmp/real.log")"
    fi
else
    notok plot-netsim-db "no netsim binary at $netsim"
fi

# ------------------------------------------------------------ flows side by side in one run, labelled by their description
if [ -s "$tmp/real.db" ] && tools/plot "$tmp/real.db" --by-flow -o "$tmp/byflow.svg" >"$tmp/byflow.out" 2>&1; then
    n=$(sqlite3 "$tmp/real.db" "select count(distinct flow) from interval")
    d1=$(sqlite3 "$tmp/real.db" "select value from param where key = 'label.flow.1' limit 1")
    if [ "$n" -ge 2 ] && grep -qF "$d1" "$tmp/byflow.svg"; then ok plot-by-flow-labels
    else notok plot-by-flow-labels "expected $n flows and the label '$d1' in the SVG"; fi
else
    notok plot-by-flow-labels "$(cat "$tmp/byflow.out" 2>/dev/null)"
fi

# ------------------------------------------------------------ a real sweep over a plain numeric axis
cat > "$tmp/num.ini" <<'INI'
[sim]
duration = 50ms
interval = 10ms
repeat = 2
[host b]
cpu_speed = ${speed=0.5, 1.0}
[link l]
ends = a:eth0 b:eth0
[flow 1]
app = udp_stream
from = a
to = b
INI
if "$netsim" sweep "$tmp/num.ini" -j 2 -o "$tmp/num.db" >"$tmp/num.log" 2>&1; then
    if tools/plot "$tmp/num.db" --kind sweep -o "$tmp/num.png" >"$tmp/num.out" 2>&1 && ! grep -q 'expression expected' "$tmp/num.out" \
        && is_png "$tmp/num.png"; then ok plot-sweep-plain-number-axis
    else notok plot-sweep-plain-number-axis "$(cat "$tmp/num.out")"; fi
else
    notok plot-sweep-plain-number-axis "netsim sweep failed:" "$(tail -5 "$tmp/num.log")"
fi
