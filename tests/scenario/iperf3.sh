#!/usr/bin/env bash
# iperf3's shapes: the interval table's Retr and Cwnd (TCP) and Jitter and
# Lost/Total Datagrams (UDP) columns, the summary's sender and receiver
# lines, and --json laid out as iperf3 -J's, checked against a real
# iperf3's JSON (from iperf3 over loopback when it is installed, else the
# copy of iperf3 3.12's output kept in tests/data).
. "$(dirname "$0")/common.bash"

cat > "$tmp/tcp.ini" <<'INI'
[sim]
duration = 1s
interval = 250ms
[host a]
[host b]
[link l]
ends = a:eth0 b:eth0
rate = 1gbit
delay = 5ms
fwd.loss = 0.5%
limit = 10000
[flow 1]
app = tcp_iperf3
from = a
to = b
time = 1s
INI
"$NETSIM" run "$tmp/tcp.ini" --no-db > "$tmp/tcp.out" 2>&1
"$NETSIM" run "$tmp/tcp.ini" --no-db --json > "$tmp/tcp.json" 2>&1
retr=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['netsim']['counters']['flow.1.snd.retrans'])" "$tmp/tcp.json")
check "TCP header: iperf3's Retr and Cwnd columns" grep -q '^\[ ID\] Interval  *Transfer  *Bitrate  *Retr  Cwnd$' "$tmp/tcp.out"
check "TCP: four interval rows with a Retr count and a Cwnd" test "$(grep -cE '^\[  1\] .* sec .*bits/sec +[0-9]+ +[0-9.]+ [KMG]?Bytes$' "$tmp/tcp.out")" = 4
check "TCP: the rows' Retr add up to the sender's retransmissions ($retr)" test \
    "$(grep -E '^\[  1\] .*Bytes$' "$tmp/tcp.out" | grep -v sender | awk '{ n += $(NF - 2) } END { print n }')" = "$retr"
check "TCP: the summary's sender line, with Retr" grep -qE "^\[  1\] +0\.00-1\.00 +sec .* +$retr +sender$" "$tmp/tcp.out"
check "TCP: the summary's receiver line, with the flow" grep -qE '^\[  1\] +0\.00-1\.00 +sec .* receiver +tcp_iperf3 a -> b' "$tmp/tcp.out"

# --json: iperf3's keys and types, and the figures agree with netsim's own
if command -v iperf3 > /dev/null 2>&1; then
    port=$((20000 + RANDOM % 20000))
    iperf3 -s -1 -p "$port" > /dev/null 2>&1 &
    srv=$!
    sleep 0.5
    timeout 20 iperf3 -c 127.0.0.1 -p "$port" -t 1 -i 0.5 -J > "$tmp/ref.json" 2> /dev/null
    kill "$srv" 2> /dev/null
    wait "$srv" 2> /dev/null
    python3 -c "import json,sys; json.load(open(sys.argv[1]))['end']['sum_sent']" "$tmp/ref.json" 2> /dev/null ||
        { echo "# iperf3 over loopback gave no result: using tests/data/iperf3-3.12-tcp.json"; cp tests/data/iperf3-3.12-tcp.json "$tmp/ref.json"; }
else
    echo "# iperf3 not installed: checking against tests/data/iperf3-3.12-tcp.json"
    cp tests/data/iperf3-3.12-tcp.json "$tmp/ref.json"
fi
cat > "$tmp/shape.py" <<'PY'
import json, sys
def kind(v):
    if isinstance(v, bool): return 'bool'
    if isinstance(v, (int, float)): return 'number'
    return type(v).__name__
def paths(o, p=''):
    out = {}
    if isinstance(o, dict):
        for k, v in o.items():
            out[p + '.' + k] = kind(v)
            out.update(paths(v, p + '.' + k))
    elif isinstance(o, list) and o:
        out.update(paths(o[0], p + '[]'))
    return out
ref, ours = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = paths({k: ref[k] for k in ('start', 'intervals', 'end')})
got = paths(ours)
missing = sorted(k for k in want if k not in got)
wrong = sorted('%s: %s, iperf3 %s' % (k, got[k], want[k]) for k in want if k in got and got[k] != want[k])
if missing or wrong:
    sys.exit('missing: %s; other types: %s' % (missing, wrong))
PY
check "--json has every key of iperf3 -J's start, intervals and end, with its type" python3 "$tmp/shape.py" "$tmp/ref.json" "$tmp/tcp.json"
check "--json: the figures are netsim's" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
n = d['netsim']
assert d['start']['test_start']['protocol'] == 'TCP' and d['start']['test_start']['num_streams'] == 1
assert len(d['intervals']) == 4 and all(len(i['streams']) == 1 for i in d['intervals'])
assert sum(i['sum']['bytes'] for i in d['intervals']) == d['end']['sum_received']['bytes'] == n['flows'][0]['bytes']
assert sum(i['streams'][0]['retransmits'] for i in d['intervals']) == d['end']['sum_sent']['retransmits'] == $retr
assert all(i['streams'][0]['snd_cwnd'] % d['start']['tcp_mss_default'] == 0 for i in d['intervals'])
assert d['end']['streams'][0]['sender']['bytes'] >= d['end']['streams'][0]['receiver']['bytes']
assert d['end']['sender_tcp_congestion'] == n['params']['a.tcp.cc']
assert n['scenario'] == 'tcp' and n['seed'] == 1 and n['params']['1.time'] == '1s'
" "$tmp/tcp.json"

# --- UDP: jitter and loss as iperf3's receiver counts them
cat > "$tmp/udp.ini" <<'INI'
[sim]
duration = 1s
interval = 500ms
[host a]
[host b]
[link l]
ends = a:eth0 b:eth0
rate = 10gbit
fwd.loss = 1%
[flow 1]
app = udp_stream
from = a
to = b
rate = 1gbit
INI
"$NETSIM" run "$tmp/udp.ini" --no-db > "$tmp/udp.out" 2>&1
"$NETSIM" run "$tmp/udp.ini" --no-db --json > "$tmp/udp.json" 2>&1
check "UDP header: Jitter and Lost/Total Datagrams" grep -q 'Bitrate  *Jitter  *Lost/Total Datagrams$' "$tmp/udp.out"
check "UDP: rows with jitter in ms and lost/total" test "$(grep -cE '^\[  1\] .* [0-9.]+ ms +[0-9]+/[0-9]+ \(' "$tmp/udp.out")" = 4
check "UDP: lost = highest sequence read - datagrams read, lost <= netem's losses; jitter above 0 and below 1 ms (no netem delay or jitter)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
c = d['netsim']['counters']
r = d['end']['streams'][0]['receiver']
assert r['lost_packets'] == r['packets'] - c['flow.1.datagrams_received'], (r, c['flow.1.datagrams_received'])
assert 0 < r['lost_packets'] <= c['link.l.fwd.netem_loss']
assert 0 < r['jitter_ms'] < 1, r
assert d['end']['streams'][0]['sender']['packets'] == c['flow.1.datagrams_sent']
" "$tmp/udp.json"
