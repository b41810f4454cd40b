#!/usr/bin/env bash
# netsim report on the message table (docs/models/tcp-messages.md): the
# completion-time and slowdown percentiles per run (nearest rank), by
# size bucket, their statistics over replications, --compare with lower
# better; a database of message runs only reports them without --metric.
. "$(dirname "$0")/common.bash"

js() {   # js EXPR: evaluates a Python expression on the JSON document in stdin (d)
    python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"
}

cat > "$tmp/c.ini" <<'EOF'
[sim]
duration = 20ms
seed = 1
repeat = 2
[host a]
cpu = ideal
itr = 0
[host b]
cpu = ideal
itr = 0
[link l]
ends = a:eth0 b:eth0
rate = 10gbit
propagation = 10us
[flow 1]
from = a
to = b
app = rpc
request_size = 1448
response_size = ${resp = 14480, 1449}
count = 3
EOF
"$NETSIM" sweep "$tmp/c.ini" -o "$tmp/c.db" -q > /dev/null 2>&1
"$NETSIM" report "$tmp/c.db" > "$tmp/c.out" 2>&1
check "rpc runs only: no complaint about goodput" sh -c "! grep -q 'value of goodput' '$tmp/c.out'"
check "rpc runs only: the fct and slowdown tables by size" test \
    "$(grep -c '= median message completion time\|= 99.9th percentile of fct / ideal' "$tmp/c.out")" = 2
# every RPC completes in its ideal (messages.sh): 35.5344 us and 24.5336 us
check "fct_p50 per combination: the ideal times, over 2 reps each" test \
    "$("$NETSIM" report "$tmp/c.db" --metric fct_p50 --json | js "' '.join('%d:%.4f' % (c['n'], c['mean']) for c in d['combinations'])")" = \
    "2:35.5344 2:24.5336"
check "slowdown_p99 = 1 exactly" test \
    "$("$NETSIM" report "$tmp/c.db" --metric slowdown_p99 --json | js "' '.join('%.9f' % c['mean'] for c in d['combinations'])")" = "1.000000000 1.000000000"
check "--json without --metric: an array of the documents" test \
    "$("$NETSIM" report "$tmp/c.db" --json | js "' '.join(x['metric'] + '/' + x['by'] for x in d)")" = \
    "fct_p50/size fct_p99/size fct_p999/size slowdown_p50/size slowdown_p99/size slowdown_p999/size"
check "--compare: a shorter response's lower fct is an improvement" test \
    "$("$NETSIM" report "$tmp/c.db" --metric fct_p50 --compare resp=14480,1449 --json |
        js "d['compare']['direction'] + ', ' + d['rows'][0]['verdict']")" = "lower is better, improvement"

# nearest rank: run 1 holds 1000 messages of i us and i x 1000 bytes
cp "$tmp/c.db" "$tmp/n.db"
q "$tmp/n.db" "delete from message; delete from run where id > 1;
    with recursive k(i) as (select 1 union all select i + 1 from k where i < 1000)
    insert into message (run_id, flow, kind, id, size, t_start, t_end, fct, ideal, rtos)
    select 1, 1, 'rpc', i, i * 1000, 0, i * 1e-6, i * 1e-6, 1e-6, 0 from k"
pct() {   # pct METRIC [--by size]: the values of the rows, space-separated
    local m=$1
    shift
    "$NETSIM" report "$tmp/n.db" --metric "$m" "$@" --json | js "' '.join('%g' % c['mean'] for c in d['combinations'])"
}
check "fct_p50, p99, p99.9 of 1..1000 us: ranks 500, 990, 999" test \
    "$(pct fct_p50) $(pct fct_p99) $(pct fct_p999)" = "500 990 999"
# (0,100KB]: i = 1..100, rank 99; (100KB,10MB]: i = 101..1000, rank 891
check "fct_p99 by size: 99 us and 991 us" test "$(pct fct_p99 --by size)" = "99 991"
# ranks ceil(99.9) = 100 and ceil(899.1) = 900: rounded up, not down
check "fct_p999 by size: 100 us and 1000 us" test "$(pct fct_p999 --by size)" = "100 1000"
check "slowdown_p50 = fct / ideal" test "$(pct slowdown_p50)" = 500
check "--by size is for the message metrics" \
    sh -c "'$NETSIM' report '$tmp/n.db' --metric goodput --by size 2>&1 | grep -q 'not with --by size'"

# incast: round percentiles and the rounds with an RTO
cp "$tmp/c.db" "$tmp/i.db"
q "$tmp/i.db" "delete from message; delete from run where id > 1;
    insert into message (run_id, flow, kind, id, size, t_start, t_end, fct, ideal, rtos) values
    (1, 1, 'round', 1, 10, 0, 1e-3, 1e-3, 1e-4, 0), (1, 1, 'round', 2, 10, 0, 2e-3, 2e-3, 1e-4, 1),
    (1, 1, 'round', 3, 10, 0, 0.2, 0.2, 1e-4, 2), (1, 1, 'round', 4, 10, 0, 4e-3, 4e-3, 1e-4, 0)"
check "rounds: p50 2 ms, p99 200 ms, 2 rounds with an RTO" test \
    "$("$NETSIM" report "$tmp/i.db" --json | js "' '.join('%s=%g' % (x['metric'], x['combinations'][0]['mean']) for x in d)")" = \
    "round_p50=2000 round_p99=200000 rto_rounds=2"

# tools/plot: the CDF of completion times and slowdown against size, from
# the 1000 messages above (PLOT_DEBUG keeps the data files)
if command -v gnuplot > /dev/null; then
    PLOT_DEBUG=1 NETSIM="$NETSIM" tools/plot "$tmp/n.db" --kind fct -o "$tmp/fct.png" > "$tmp/fct.out" 2> "$tmp/fct.err"
    d=$(sed -n 's/^--- gnuplot script (\(.*\) kept)$/\1/p' "$tmp/fct.err")
    check "plot fct: a staircase of 1000 steps from 1 to 1000 us" test \
        "$(wc -l < "$d/fct.0") $(head -1 "$d/fct.0") $(tail -1 "$d/fct.0")" = "2000 1.0 0 1000.0 1"
    rm -rf "$d"
    PLOT_DEBUG=1 NETSIM="$NETSIM" tools/plot "$tmp/n.db" --kind slowdown -o "$tmp/sd.png" > "$tmp/sd.out" 2> "$tmp/sd.err"
    d=$(sed -n 's/^--- gnuplot script (\(.*\) kept)$/\1/p' "$tmp/sd.err")
    # the bin [10^5.75, 10^6): i = 563 .. 999, 437 messages; median size
    # rank 219, p50 rank 219, p99 rank ceil(432.63) = 433
    check "plot slowdown: a quarter decade's median size, p50 and p99" grep -qx "781000 781.0 995.0 437" "$d/sd.0"
    check "plot slowdown: 13 bins from 1 KB to 1 MB" test "$(wc -l < "$d/sd.0")" = 13
    check "plot slowdown: the png" test -s "$tmp/sd.png"
    rm -rf "$d"
    cp "$tmp/c.db" "$tmp/e.db"
    q "$tmp/e.db" "delete from message"
    check "plot fct: a database without messages is an error" \
        sh -c "tools/plot '$tmp/e.db' --kind fct -o '$tmp/x.png' 2>&1 | grep -q 'no message rows in DB'"
else
    skip "gnuplot is not installed" "tools/plot --kind fct and slowdown"
fi
