#!/usr/bin/env bash
# netsim report beyond one number: --by flow|host and the metrics, each
# checked against the rows it is made of.
. "$(dirname "$0")/common.bash"

# --- the bundled default: old and new rwnd side by side in one run
"$NETSIM" run scenarios/default.ini --set sim.duration=1s --set sim.interval=0.5s -o "$tmp/d.db" -q > /dev/null 2>&1
"$NETSIM" report "$tmp/d.db" --by flow > "$tmp/flow.out" 2>&1
check "--by flow: a row per flow" test "$(grep -c '^default ' "$tmp/flow.out")" = 2
check "--by flow: old and new shown apart, by label" \
    sh -c "grep -q '^default  *1 .*rwnd old\$' '$tmp/flow.out' && grep -q '^default  *2 .*rwnd new\$' '$tmp/flow.out'"
check "--by flow: one unit for the column" test "$(grep -o '[KMGT]*bits/sec' "$tmp/flow.out" | sort -u | wc -l)" = 1
# flow 1's goodput is its bytes x 8 over its span, to the digits shown
want=$(q "$tmp/d.db" "select printf('%.3f', total(bytes) * 8 / (max(t_end) - min(t_start)) / 1e9) from interval where flow = 1")
check "--by flow: flow 1's goodput from its interval rows ($want Gbit/s)" grep -q "^default  *1  *1  *$want " "$tmp/flow.out"
"$NETSIM" report "$tmp/d.db" --by flow --json > "$tmp/flow.json"
check "--by flow --json: flow and label per row" python3 -c "
import json, sys
d = json.load(open('$tmp/flow.json'))
rows = d['combinations']
assert d['by'] == 'flow' and d['metric'] == 'goodput' and d['unit'] == 'bits/sec'
assert [r['flow'] for r in rows] == ['1', '2'], rows
assert rows[0]['label'].endswith('rwnd old') and rows[1]['label'].endswith('rwnd new')
assert rows[0]['mean'] > 10 * rows[1]['mean']
"

# --- host rows: goodput of what a host receives
"$NETSIM" report "$tmp/d.db" --by host > "$tmp/host.out" 2>&1
check "--by host: the two receivers" test "$(grep -c '^default  *receiver[12] ' "$tmp/host.out")" = 2

# --- counters by name, drops, fairness: exact sums of the rows
sacks=$(q "$tmp/d.db" "select total(value) from counter where name glob 'flow.1.*.sacks_rx'")
"$NETSIM" report "$tmp/d.db" --metric 'counter:*.sacks_rx' --by flow --json > "$tmp/c.json"
check "counter:NAME by flow: flow 1's sacks_rx ($sacks)" python3 -c "
import json; d = json.load(open('$tmp/c.json')); assert d['combinations'][0]['mean'] == $sacks, d"
drops=$(q "$tmp/d.db" "select total(value) from counter where is_drop = 1")
"$NETSIM" report "$tmp/d.db" --metric drops --json > "$tmp/dr.json"
check "drops: every counter that counts drops ($drops)" python3 -c "
import json; d = json.load(open('$tmp/dr.json')); assert d['combinations'][0]['mean'] == $drops, d"
"$NETSIM" report "$tmp/d.db" --metric jain --json > "$tmp/j.json"
check "jain: (sum x)^2 / (n sum x^2) of the flows' goodput" python3 -c "
import json, sqlite3
g = [r[0] for r in sqlite3.connect('$tmp/d.db').execute(
    'select total(bytes) * 8 / (max(t_end) - min(t_start)) from interval group by flow')]
want = sum(g) ** 2 / (len(g) * sum(x * x for x in g))
got = json.load(open('$tmp/j.json'))['combinations'][0]['mean']
assert abs(got - want) < 1e-12 and 0.5 <= got < 0.6, (got, want)"

# --- retransmissions on tcp_drs (1 % loss), per variant and compared
"$NETSIM" sweep scenarios/tcp_drs.ini --set sim.duration=1.1s --set sim.repeat=2 -j 2 -q -o "$tmp/t.db" > /dev/null 2>&1
"$NETSIM" report "$tmp/t.db" --metric retransmits --json > "$tmp/r.json"
check "--metric retransmits on tcp_drs: the senders' counters, per variant" python3 -c "
import json, sqlite3
db = sqlite3.connect('$tmp/t.db')
want = {}
for v, n in db.execute('''select p.value, total(c.value) from counter c join param p on p.run_id = c.run_id
                          and p.key = 'axis.tcp.drs' where c.name = 'flow.1.snd.retrans' group by p.value'''):
    want[v] = n / 2
rows = json.load(open('$tmp/r.json'))['combinations']
got = {r['axes']['tcp.drs']: r['mean'] for r in rows}
assert got == want and all(x > 0 for x in got.values()), (got, want)"
"$NETSIM" report "$tmp/t.db" --metric retransmits --compare tcp.drs=trimodal,continuous > "$tmp/rc.out" 2>&1
check "--metric retransmits --compare: a paired row" grep -q '^tcp_drs  *2 .* segments ' "$tmp/rc.out"

# --- a metric's direction: more RTOs is worse, more segments sent neither
# better nor worse, more goodput better (the same database, counters
# edited so that continuous has ten times trimodal's in every pair)
cp "$tmp/t.db" "$tmp/dir.db"
q "$tmp/dir.db" "update counter set value = 3 * (1 + 9 * (run_id in (select run_id from param where
  key = 'axis.tcp.drs' and value = 'continuous'))) where name in ('flow.1.snd.rtos', 'flow.1.snd.segs_out',
  'flow.1.goodput_bps')" > /dev/null
"$NETSIM" report "$tmp/dir.db" --metric 'counter:flow.*.snd.rtos' --compare tcp.drs=trimodal,continuous > "$tmp/d1.out" 2>&1
check "RTOs rising: REGRESSION, lower is better" sh -c "grep -q ' REGRESSION\$' '$tmp/d1.out' && grep -q '(lower is better)' '$tmp/d1.out'"
"$NETSIM" report "$tmp/dir.db" --metric 'counter:flow.1.snd.segs_out' --compare tcp.drs=trimodal,continuous > "$tmp/d2.out" 2>&1
check "segments out rising: higher, neither better" sh -c "grep -q ' higher\$' '$tmp/d2.out' && grep -q '(neither higher nor lower is better)' '$tmp/d2.out'"
"$NETSIM" report "$tmp/dir.db" --metric 'counter:*.goodput_bps' --compare tcp.drs=trimodal,continuous --json > "$tmp/d3.json" 2>&1
check "goodput counter rising: improvement, higher is better" python3 -c "
import json
d = json.load(open('$tmp/d3.json'))
assert d['compare']['direction'] == 'higher is better' and d['rows'][0]['verdict'] == 'improvement', d"
"$NETSIM" report "$tmp/dir.db" --metric 'counter:*.netem_loss' --compare tcp.drs=trimodal,continuous > "$tmp/d4.out" 2>&1
check "a drop counter: lower is better" grep -q '(lower is better)' "$tmp/d4.out"

# --- usage errors: exit 2 with the reason
"$NETSIM" report "$tmp/d.db" --by link > /dev/null 2> "$tmp/e1"
check "--by link: refused" sh -c "test $? -eq 2 && grep -q 'expected run, flow, host or size' '$tmp/e1'"
"$NETSIM" report "$tmp/d.db" --metric jain --by flow > /dev/null 2> "$tmp/e2"
check "jain per flow: refused" sh -c "test $? -eq 2 && grep -q 'not with --by flow' '$tmp/e2'"
"$NETSIM" report "$tmp/d.db" --metric counter: > /dev/null 2> "$tmp/e3"
check "counter: without a name: refused, with the metrics" sh -c "test $? -eq 2 && grep -q 'counter:NAME' '$tmp/e3'"
"$NETSIM" report "$tmp/d.db" --metric 'counter:no.such' > /dev/null 2> "$tmp/e4"
check "a counter no run has: exit 1, said" sh -c "test $? -eq 1 && grep -q 'has a value of counter:no.such' '$tmp/e4'"
