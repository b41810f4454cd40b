#!/usr/bin/env bash
# Output for short flows: a flow has interval rows while it lives (none
# before its start, none once its last byte is written and acknowledged,
# but every byte delivered has its row), its traces stop with it, the
# summary's rate is over its own life, times print in microseconds when a
# span is under 10 ms, and [sim] interval goes down to 10 us.
. "$(dirname "$0")/common.bash"

{
    printf '[sim]\nduration = 1.5s\ninterval = 1ms\nseed = 1\n'
    printf '[link l]\nends = a:eth0 b:eth0\nrate = 10gbit\npropagation = 10us\n'
    printf '[flow 1]\napp = tcp_stream\nfrom = a\nto = b\nstart = 100ms\nlength = 1ms\n'
    printf '[flow 2]\napp = tcp_iperf3\nfrom = a\nto = b\nbytes = 100K\nstart = 300ms\n'
} > "$tmp/s.ini"
"$NETSIM" run "$tmp/s.ini" -o "$tmp/s.db" > "$tmp/s.out" 2>&1
check "a 1-ms writer in a 1.5-s run: 2 rows of 1 ms, from its start" test \
    "$(q "$tmp/s.db" "select count(*) || ' ' || min(t_start) || ' ' || max(t_end) from interval where flow = 1")" = "2 0.1 0.102"
"$NETSIM" run "$tmp/s.ini" --set sim.interval=1.5s -o "$tmp/one.db" -q > /dev/null 2>&1
check "... and they hold every byte its reader had (the run's one 1.5-s row)" test \
    "$(q "$tmp/s.db" "select sum(bytes) from interval where flow = 1")" = \
    "$(q "$tmp/one.db" "select bytes from interval where flow = 1")"
check "100K at 300 ms: one row, 102400 bytes" test \
    "$(q "$tmp/s.db" "select count(*) || ' ' || sum(bytes) || ' ' || t_start from interval where flow = 2")" = "1 102400 0.3"
check "its traces stop once all is acknowledged: one cwnd sample" test \
    "$(q "$tmp/s.db" "select count(*) from series where name = 'flow.2.snd.cwnd'")" = 1
check "the summary: the flow's own life, in microseconds" \
    grep -q '^\[  1\]  0.100000-0.102000  sec  1.04 MBytes  4.38 Gbits/sec .*receiver' "$tmp/s.out"

"$NETSIM" run "$tmp/s.ini" --set sim.duration=302ms --set sim.interval=10us -o "$tmp/u.db" -q > /dev/null 2>&1
check "interval 10us: rows of 10 us" test \
    "$(q "$tmp/u.db" "select count(distinct round((t_end - t_start) * 1e6)) || ' ' || min(round((t_end - t_start) * 1e6)) from interval")" = "1 10.0"
check "... holding the same bytes" test "$(q "$tmp/u.db" "select sum(bytes) from interval where flow = 2")" = 102400
"$NETSIM" run "$tmp/s.ini" --set sim.interval=5us -o "$tmp/e.db" > "$tmp/e.out" 2>&1
check "interval 5us: an error naming the bound" grep -q "interval: .*expected 10us to" "$tmp/e.out"
