#!/usr/bin/env bash
# Results keyed as users type them (schema version 2; 3 adds the message table), and older files
# still read: tests/data/results-v1.db was written by netsim with schema
# version 1 (a tcp_drs sweep, default, udp_line_rate and an sctp_hb sweep,
# short runs). `report` reads it as it is, `merge` copies it respelt, a
# writer upgrades it in place, tools/plot draws it.
. "$(dirname "$0")/common.bash"

old=tests/data/results-v1.db
check "the kept file is version 1" test "$(q "$old" 'PRAGMA user_version')" = 1

# --- a new run: the keys --set takes, integer counters, a cpu column
"$NETSIM" run scenarios/sctp_hb.ini --set lo.sctp.hb=lazy --set sim.duration=0.2s --set sim.interval=0.1s \
    -o "$tmp/new.db" -q > /dev/null 2>&1
check "new file is version 3" test "$(q "$tmp/new.db" 'PRAGMA user_version')" = 3
check "param keyed as --set takes it (lo.sctp.hb, sim.duration, 1.app)" test \
    "$(q "$tmp/new.db" "select count(*) from param where key in ('lo.sctp.hb', 'sim.duration', '1.app')")" = 3
check "no param keyed by its kind" test "$(q "$tmp/new.db" "select count(*) from param where key like 'host %' or key like 'flow %'")" = 0
check "counters are integers" test "$(q "$tmp/new.db" "select group_concat(distinct typeof(value)) from counter")" = integer
check "profile: netperf's core as host lo, cpu 0" test \
    "$(q "$tmp/new.db" "select count(*) > 10 from profile where host = 'lo' and cpu = 0")" = 1
check "profile: the host's own rows have no cpu" test \
    "$(q "$tmp/new.db" "select count(*) > 10 from profile where host = 'lo' and cpu is null")" = 1
check "profile: no host/cpuN names" test "$(q "$tmp/new.db" "select count(*) from profile where host like '%/cpu%'")" = 0

# --- report reads version 1 as it is, even read-only
cp "$old" "$tmp/ro.db"
chmod a-w "$tmp/ro.db"
"$NETSIM" report "$tmp/ro.db" > "$tmp/ro.out" 2>&1
check "report reads a read-only version-1 file" grep -Eq '^tcp_drs .*trimodal +(- +)?2 +0\.001251 ' "$tmp/ro.out"
check "... and leaves it version 1" test "$(q "$tmp/ro.db" 'PRAGMA user_version')" = 1

# --- merge copies it respelt, and knows its runs again
"$NETSIM" merge "$tmp/m.db" "$old" > "$tmp/m.out" 2>&1
check "merge takes version 1: 8 runs" grep -q '^merged 8 runs' "$tmp/m.out"
check "merged params respelt" test "$(q "$tmp/m.db" "select count(*) from param where key = 'receiver.tcp.drs'")" = \
    "$(q "$old" "select count(*) from param where key = 'host receiver.tcp.drs'")"
check "merged: no kind-keyed params" test "$(q "$tmp/m.db" "select count(*) from param where key like 'host %' or key like 'flow %'")" = 0
check "merged counters are integers" test "$(q "$tmp/m.db" "select group_concat(distinct typeof(value)) from counter")" = integer
check "merged profile: lo/cpu0 became lo, cpu 0" test \
    "$(q "$tmp/m.db" "select count(*) from profile where host = 'lo' and cpu = 0")" = \
    "$(q "$old" "select count(*) from profile where host = 'lo/cpu0'")"
check "merged rows: as many as the old file's" test \
    "$(q "$tmp/m.db" "select (select count(*) from param) || ' ' || (select count(*) from interval) || ' ' || (select count(*) from series) || ' ' || (select count(*) from counter) || ' ' || (select count(*) from profile)")" = \
    "$(q "$old" "select (select count(*) from param) || ' ' || (select count(*) from interval) || ' ' || (select count(*) from series) || ' ' || (select count(*) from counter) || ' ' || (select count(*) from profile)")"
"$NETSIM" merge "$tmp/m.db" "$old" > "$tmp/m2.out" 2>&1
check "merging it again: 8 duplicates" grep -q '8 duplicates skipped' "$tmp/m2.out"
"$NETSIM" report "$tmp/m.db" > "$tmp/m.rep" 2>&1
check "the merged file reports as the old one" diff <(sed 1d "$tmp/ro.out") <(sed 1d "$tmp/m.rep")

# --- a writer upgrades it in place
cp "$old" "$tmp/up.db"
"$NETSIM" run scenarios/udp_line_rate.ini --set sim.duration=0.1s --set sim.interval=0.1s -o "$tmp/up.db" -q > /dev/null 2>&1
check "a run into a version-1 file upgrades it (to 3)" test "$(q "$tmp/up.db" 'PRAGMA user_version')" = 3
check "upgraded: 9 runs" test "$(q "$tmp/up.db" 'select count(*) from run')" = 9
check "upgraded: old params respelt" test "$(q "$tmp/up.db" "select count(*) from param where key like 'host %' or key like 'flow %'")" = 0
check "upgraded: old counters integers" test "$(q "$tmp/up.db" "select group_concat(distinct typeof(value)) from counter")" = integer
check "upgraded: old profile rows split" test "$(q "$tmp/up.db" "select count(*) from profile where cpu = 0")" = \
    "$(q "$old" "select count(*) from profile where host = 'lo/cpu0'")"
check "upgraded: rows in their order" test "$(q "$tmp/up.db" "select group_concat(name, ',') from (select name from counter where run_id = 5 order by rowid)")" = \
    "$(q "$old" "select group_concat(name, ',') from (select name from counter where run_id = 5 order by rowid)")"

# --- tools/plot draws a version-1 file
tools/plot "$old" -o "$tmp/p.png" > /dev/null 2>&1
check "tools/plot reads version 1" test -s "$tmp/p.png"

# --- merge compares resolved parameters, not only the file
"$NETSIM" run scenarios/udp_line_rate.ini --set sim.duration=0.1s --set sim.interval=0.1s -o "$tmp/a.db" -q > /dev/null 2>&1
"$NETSIM" run scenarios/udp_line_rate.ini --set sim.duration=0.2s --set sim.interval=0.1s -o "$tmp/b.db" -q > /dev/null 2>&1
"$NETSIM" merge "$tmp/ab.db" "$tmp/a.db" "$tmp/b.db" > "$tmp/ab.out" 2>&1
check "runs with other --set values are not duplicates" grep -q '^merged 2 runs from 2 databases' "$tmp/ab.out"
"$NETSIM" merge "$tmp/ab.db" "$tmp/a.db" > "$tmp/ab2.out" 2>&1
check "the same run is" grep -q '1 duplicates skipped\|1 duplicate skipped' "$tmp/ab2.out"

# --- two iperf3 clients to one server host, no ports given: 5201, 5202 (as
# a user starts iperf3 -s -p 5202 for the second); their labels differ
cat > "$tmp/two.ini" <<'INI'
[sim]
duration = 0.1s
interval = 0.1s
[host a]
[host b]
[link l]
ends = a:eth0 b:eth0
rate = 10gbit
propagation = 10us
[flow 1]
app = tcp_iperf3
from = a
to = b
time = 0.1s
[flow 2]
app = tcp_iperf3
from = a
to = b
time = 0.1s
[flow 3]
app = udp_stream
from = a
to = b
rate = 1gbit
port = 5201
[flow 4]
app = udp_stream
from = a
to = b
rate = 1gbit
INI
"$NETSIM" run "$tmp/two.ini" -o "$tmp/two.db" -q > "$tmp/two.out" 2>&1
check "two iperf3 flows without ports run" test $? -eq 0
check "... on ports 5201 and 5202, recorded as resolved" test \
    "$(q "$tmp/two.db" "select group_concat(key || '=' || value, ' ') from param where key in ('1.port', '2.port')")" = "1.port=5201 2.port=5202"
check "UDP has its own ports: a port given is kept, the next default skips it" test \
    "$(q "$tmp/two.db" "select group_concat(key || '=' || value, ' ') from param where key in ('3.port', '4.port')")" = "3.port=5201 4.port=5202"
check "labels of identical flows differ" test \
    "$(q "$tmp/two.db" "select count(distinct value) from param where key like 'label.flow.%'")" = 4
check "... by the flow's name" test \
    "$(q "$tmp/two.db" "select value from param where key = 'label.flow.2'")" = "tcp_iperf3 a -> b, cubic trimodal, flow.2"

# --- default ports around one given: each default is the next free port up
# from 5201, also past one a later flow took (5201, 5203 given, 5202, 5204)
{
    printf '[sim]\nduration = 10ms\ninterval = 10ms\n[host a]\n[host b]\n[link l]\nends = a:eth0 b:eth0\nrate = 10gbit\n'
    for i in 1 2 3 4; do
        printf '[flow %d]\napp = tcp_iperf3\nfrom = a\nto = b\ntime = 10ms\n' "$i"
        [ "$i" = 2 ] && printf 'port = 5203\n'
    done
} > "$tmp/ports.ini"
"$NETSIM" run "$tmp/ports.ini" -o "$tmp/ports.db" -q > "$tmp/ports.out" 2>&1
check "four flows, one port given, run" test $? -eq 0
check "... defaults resume after the ports already taken" test \
    "$(q "$tmp/ports.db" "select group_concat(kv, ' ') from (select key || '=' || value as kv from param where key glob '[1-4].port' order by key)")" = \
    "1.port=5201 2.port=5203 3.port=5202 4.port=5204"
