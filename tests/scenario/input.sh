#!/usr/bin/env bash
# Scenario tests of bad input: one error per mistake, and inputs that once
# crashed netsim or cost it unbounded time or memory, each refused with
# exit 2 and a message. Prints "ok NAME" or "not ok NAME".
. "$(dirname "$0")/common.bash"

# Runs netsim on $1 with --no-db (and any further arguments), under a
# generous timeout: a hang fails the test instead of the suite.
refuse() {
    local f=$1; shift
    timeout 60 "$NETSIM" run "$f" --no-db "$@" > "$tmp/out" 2> "$tmp/err"
}
errors() { grep -c '^[^ ]*:[0-9]*: \|^[^ ]*\.ini: ' "$tmp/err"; }

world() {
    cat <<INI
[sim]
duration = 1s
${1:-}
[host a]
${2:-}
[link l]
ends = a:eth0 b:eth0
${3:-}
[flow 1]
app = tcp_stream
from = a
to = b
send_size = 16K
${4:-}
[flow 2]
app = tcp_stream
from = a
to = ${5:-b}
port = 5002
INI
}

# --- one mistake, one message
world "" "tcp.cc = bbr2" > "$tmp/cc.ini"
refuse "$tmp/cc.ini"
check "tcp.cc = bbr2 with two flows: exit 2" test $? -eq 2
check "... exactly one error, the cc's" test "$(errors)" -eq 1 -a "$(grep -c "tcp.cc: got 'bbr2'" "$tmp/err")" -eq 1
check "... counted as 1 error" grep -q ": 1 error; nothing was run" "$tmp/err"
world "" "" "" "" "c" > "$tmp/host.ini"
refuse "$tmp/host.ini"
check "a flow to an unknown host: exactly one error" test "$(errors)" -eq 1 -a "$(grep -c "no host 'c'" "$tmp/err")" -eq 1
world "" "" "" "" > "$tmp/drs.ini"
sed -i 's/^\[host a\]$/[host b]\ntcp.drs = triple\n[host a]/' "$tmp/drs.ini"
refuse "$tmp/drs.ini"
check "a bad tcp.drs: exactly one error" test "$(errors)" -eq 1 -a "$(grep -c "tcp.drs: got 'triple'" "$tmp/err")" -eq 1
printf '[sim]\nduration = 1s\nfoo = 1\n[flow 1]\napp = tcp_stream\nfrom = a\nto = b\n' > "$tmp/nolink.ini"
refuse "$tmp/nolink.ini"
check "no [link] and an unknown [sim] key: both reported" \
    test "$(errors)" -eq 2 -a "$(grep -c "no \[link NAME\] section" "$tmp/err")" -eq 1 -a "$(grep -c "unknown key 'foo'" "$tmp/err")" -eq 1
check "... counted as 2 errors" grep -q ": 2 errors; nothing was run" "$tmp/err"
world "" "cores = 0" "" "sendsize = 1" > "$tmp/two.ini"
refuse "$tmp/two.ini"
check "two real mistakes: two errors" test "$(errors)" -eq 2
{ world; printf '[flow 02]\napp = ping\nfrom = a\nto = b\n[flow 9999999]\napp = ping\nfrom = a\nto = b\n'
  printf '[flow 09999999]\napp = ping\nfrom = a\nto = b\n'; } > "$tmp/twice.ini"
refuse "$tmp/twice.ini"
check "flows 2 and 02, 9999999 and 09999999: two errors, each the second's" \
    test "$(errors)" -eq 2 -a "$(grep -c "\[flow 02\]: flow 2 is defined twice" "$tmp/err")" -eq 1 \
    -a "$(grep -c "\[flow 09999999\]: flow 9999999 is defined twice" "$tmp/err")" -eq 1
printf '[sim]\n[link l]\nends = a:eth0 b:eth0\ndelay = 5\n' > "$tmp/dly.ini"
refuse "$tmp/dly.ini"
check "a bad delay read for both directions: one error" test "$(errors)" -eq 1

# --- times, rates and sizes that would overflow the engine
world "" "" "delay = 9223372036854775807ps" > "$tmp/big.ini"
refuse "$tmp/big.ini"
check "delay = INT64_MAX ps refused: exit 2" test $? -eq 2
check "... at most 1000s" grep -q "delay: got '9223372036854775807ps', expected a delay and a jitter of at most 1000s each" "$tmp/err"
world "" "" "delay = 9000000s 9000000s" > "$tmp/big2.ini"
refuse "$tmp/big2.ini"
check "delay 9000000s 9000000s refused: exit 2" test $? -eq 2
world "" "" $'rate = 1bit\npropagation = 2000s' > "$tmp/slow.ini"
refuse "$tmp/slow.ini"
check "rate = 1bit and propagation = 2000s refused" \
    test $? -eq 2 -a "$(grep -c "rate: got '1bit', expected at least 1kbit\|propagation: got '2000s'" "$tmp/err")" -eq 2
world "interval = 2s" > "$tmp/iv.ini"
refuse "$tmp/iv.ini"
check "interval longer than the duration refused" \
    test $? -eq 2 -a "$(grep -c "interval: 2s is longer than the duration (1s)" "$tmp/err")" -eq 1
world "interval = 1us" > "$tmp/iv2.ini"
refuse "$tmp/iv2.ini"
check "interval = 1us refused (at most 100 000 rows per flow per second)" \
    test $? -eq 2 -a "$(grep -c "interval: got '1us', expected 10us to 1000000s" "$tmp/err")" -eq 1

# core_cost_factor is a list the getters do not read: NaN passed its
# range check and aborted in evq_push (exit 134)
for v in "nan, 1" "1, -nan" "inf" "0x1p-2000"; do
    world "" "core_cost_factor = $v" > "$tmp/ccf.ini"
    refuse "$tmp/ccf.ini"
    check "core_cost_factor = $v refused: exit 2" test $? -eq 2
    check "... at its line, saying what is expected" grep -q "ccf.ini:5: \[host a\] core_cost_factor: got '$v', expected up to 4 factors above 0 and at most 100" "$tmp/err"
done

# lro = on did nothing and said nothing: refused, saying why
world "" "lro = on" > "$tmp/lro.ini"
refuse "$tmp/lro.ini"
check "lro = on refused: exit 2" test $? -eq 2
check "... as not modelled, GRO's job" grep -q "lro.ini:5: \[host a\] lro: lro = on is not modelled .*gro = on" "$tmp/err"

# sampling periods: 0 (none) or at least 1us, as ss_interval always was
# (qdisc_interval and trace_interval of 1ps ran for minutes)
world "" "" "qdisc_interval = 1ps" > "$tmp/sp1.ini"
world "" "" "" "trace_interval = 1ps" > "$tmp/sp2.ini"
world "" "" "rev.qdisc_interval = 999ns" > "$tmp/sp3.ini"
printf '[sim]\nduration = 1s\n[link l]\nends = a:eth0 b:eth0\n[flow 1]\napp = %s\nfrom = a\nto = b\n%s = 1ps\n' \
    sctp_iperf3 trace_interval > "$tmp/sp4.ini"
printf '[sim]\nduration = 1s\n[link l]\nends = a:eth0 b:eth0\n[flow 1]\napp = %s\nfrom = a\nto = b\n%s = 1ps\n' \
    sctp_stream hb_sample > "$tmp/sp5.ini"
for f in sp1:8:qdisc_interval:1ps sp2:14:trace_interval:1ps sp3:8:rev.qdisc_interval:999ns sp4:9:trace_interval:1ps \
    sp5:9:hb_sample:1ps; do
    IFS=: read -r n line key v <<< "$f"
    refuse "$tmp/$n.ini"
    check "$key = $v refused at once: exit 2" test $? -eq 2
    check "... at its line, 0 or at least 1us" \
        grep -q "$n.ini:$line: .* $key: got '$v', expected 0 (none) or a period of 1us to" "$tmp/err"
done

# --- files that are not scenarios, lines that are not text
refuse /dev/zero
check "/dev/zero refused: exit 2" test $? -eq 2
check "... as not a regular file" grep -q "/dev/zero: not a scenario file: not a regular file" "$tmp/err"
head -c 17000000 /dev/zero | tr '\0' 'a' > "$tmp/huge.ini"
refuse "$tmp/huge.ini"
check "a 17 MB file refused: exit 2, one line" test $? -eq 2 -a "$(wc -l < "$tmp/err")" -le 2
check "... naming the limit" grep -q "a scenario file is at most 16777216 bytes" "$tmp/err"
# flows are bounded by memory only: 300 flows load; with the memory said to
# be 5 MB they are refused at once, with the estimate, as one error
tools/bench-flows 300 0.01s > "$tmp/flows.ini"
NETSIM_MEM_AVAILABLE=5000000 timeout 60 "$NETSIM" run "$tmp/flows.ini" --no-db > "$tmp/out" 2> "$tmp/err"
check "300 flows in 5 MB refused: exit 2" test $? -eq 2
check "... with the estimate" grep -q "300 flows need about 7 MB (about 24 KB each), more than the 4 MB of memory available" "$tmp/err"
check "... as one error" test "$(errors)" -eq 1
timeout 60 "$NETSIM" run "$tmp/flows.ini" --no-db -q > "$tmp/out" 2> "$tmp/err"
check "300 flows run (more than the old limit of 256)" test $? -eq 0
# qdisc state counts: 40 links of fq_codel flows 65536 (6.5 MB of flow
# queues each, 260 MB) on 41 hosts estimated at 3 MB were run, and
# 2334 hosts of them were killed by the OOM killer at 24 GB
awk 'BEGIN { printf "[sim]\nduration = 1ms\n"; for (i = 0; i < 40; i++) printf "[link l%d]\nends = h%d:eth%d h%d:eth0\nfwd.qdisc = fq_codel flows 65536\n", i, i, (i > 0), i + 1 }' > "$tmp/fqc.ini"
NETSIM_MEM_AVAILABLE=200000000 timeout 60 "$NETSIM" run "$tmp/fqc.ini" --no-db > "$tmp/out" 2> "$tmp/err"
check "40 ports of fq_codel flows 65536 in 200 MB: refused, exit 2" test $? -eq 2
check "... with the estimate, qdisc state counted" \
    grep -q "fqc.ini: 41 hosts on 40 links need about [0-9]* MB (about 48 KB a host, 32 KB a link, and up to 0 MB of next hops for 39 routers), and their qdiscs [0-9][0-9][0-9] MB (the largest, \[link l0\] fwd.qdisc, [0-9.]* MB), more than the 190 MB of memory available" "$tmp/err"
check "... as one error" test "$(errors)" -eq 1
NETSIM_MEM_AVAILABLE=1e9 timeout 60 "$NETSIM" run "$tmp/fqc.ini" --no-db -q > "$tmp/out" 2> "$tmp/err"
check "... and in NETSIM_MEM_AVAILABLE=1e9 (10^9 bytes, not 1): runs" test $? -eq 0
NETSIM_MEM_AVAILABLE=lots timeout 60 "$NETSIM" run "$tmp/fqc.ini" --no-db > "$tmp/out" 2> "$tmp/err"
check "NETSIM_MEM_AVAILABLE=lots: refused, saying what it takes" \
    grep -q "NETSIM_MEM_AVAILABLE: got 'lots', expected bytes such as 2000000000, 2e9 or 2G" "$tmp/err"
{ printf '[sim]\n['; head -c 1000000 /dev/zero | tr '\0' 'h'; printf ']\n'; } > "$tmp/hdr.ini"
refuse "$tmp/hdr.ini"
check "a 1 MB section header refused as a long line" grep -q "hdr.ini:2: line too long (1000002 characters, at most 198)" "$tmp/err"
check "... with a short stderr" test "$(wc -c < "$tmp/err")" -lt 400
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[host h%d]\ncores = 1\n", i }' > "$tmp/many.ini"
refuse "$tmp/many.ini"
check "100 000 sections: exit 2" test $? -eq 2
check "... at most 100 messages and the count of the rest" grep -q "and 99902 more errors" "$tmp/err"
printf '[sim]\nname = caf\xe9\n[link l]\nends = a:eth0 b:eth0\n' > "$tmp/utf.ini"
refuse "$tmp/utf.ini"
check "a Latin-1 byte in [sim] name refused" grep -q "utf.ini:2: line is not valid UTF-8 (byte 0xe9 in column 11)" "$tmp/err"
printf '[sim]\n[link l]\nends = \xff:eth0 b:eth0\n' > "$tmp/utf2.ini"
refuse "$tmp/utf2.ini"
check "a non-UTF-8 host name refused" test $? -eq 2 -a "$(grep -c "utf2.ini:3: line is not valid UTF-8" "$tmp/err")" -eq 1
printf '[sim]\nname = caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\xa7\n[link l]\nends = a:eth0 b:eth0\n' > "$tmp/utf3.ini"
timeout 60 "$NETSIM" run "$tmp/utf3.ini" --no-db --json > "$tmp/j.json" 2> "$tmp/err"
check "valid UTF-8 in [sim] name runs, and --json stays valid JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/j.json"
printf '[sim]\n[link l]\nends = a\x01:eth0 b:eth0\n' > "$tmp/ctl.ini"
refuse "$tmp/ctl.ini"
check "a control character refused" grep -q "ctl.ini:3: control character 0x01 in column 9" "$tmp/err"
refuse "$tmp/utf3.ini" --set $'sim.name=\xe9'
check "a non-UTF-8 --set refused" grep -q "^--set: byte 0xe9 in column 10 is not UTF-8 text" "$tmp/err"

# --- a sweep is counted before anything is built
ten() { local v=; for i in 1 2 3 4 5 6 7 8 9 10; do v="$v${v:+, }$1$i"; done; echo "\${$v}"; }
cat > "$tmp/huge_sweep.ini" <<INI
[sim]
duration = 1s
seed = $(ten "")
[host a]
cores = $(ten "")
tcp.init_cwnd = $(ten "")
[link l]
ends = a:eth0 b:eth0
mtu = $(ten 140)
propagation = $(ten "" | sed 's/\([0-9]\+\)/\1us/g')
[flow 1]
app = tcp_stream
from = a
to = b
send_size = $(ten 100)
recv_size = $(ten 200)
INI
timeout 60 "$NETSIM" sweep "$tmp/huge_sweep.ini" --dry-run > "$tmp/out" 2> "$tmp/err"
check "a 10^7-run sweep --dry-run: exit 2" test $? -eq 2
check "... with the count" grep -q "the sweep has 1e+07 runs (1e+07 combinations x repeat 1); at most 1000000 runs" "$tmp/err"
check "... and nothing listed" test ! -s "$tmp/out"
sed -i 's/^recv_size = .*/recv_size = 87380/; s/^send_size = .*/send_size = 16K/' "$tmp/huge_sweep.ini"
# its first line comes once its first combination is checked, not after
# all 10^5 (25 s of silence): a bound of 10 s, where checking them all
# takes 25 s here and four times that under the sanitizers
timeout 10 "$NETSIM" sweep "$tmp/huge_sweep.ini" --dry-run 2>&1 | head -2 > "$tmp/out"
check "a 10^5-run --dry-run streams its list: its first line within 10 s" \
    test "$(sed -n 1p "$tmp/out" | awk '{ print $1, $2 }')" = "run 1/100000"
# a combination with errors stops the list there, and nothing runs
sed 's/^mtu = .*/mtu = ${1401, 1402, 50}/' "$tmp/huge_sweep.ini" > "$tmp/bad_sweep.ini"
timeout 120 "$NETSIM" sweep "$tmp/bad_sweep.ini" --dry-run > "$tmp/out" 2> "$tmp/err"
check "a --dry-run whose third mtu is refused: exit 2" test $? -eq 2
check "... the list stops before the first run with it" test "$(tail -1 "$tmp/out" | awk '{ print $2 }')" = "20/30000"
check "... which the closing line names" grep -q "errors in 10000 of 30000 combinations (the first: run 21, seed=1,cores=1,tcp.init_cwnd=1,mtu=50,propagation=1us); nothing was run" "$tmp/err"

# --set HOST.KEY reaches a host that only a link names (no [host] section)
cat > "$tmp/linkhost.ini" <<'INI'
[sim]
duration = 100ms
[link lan]
ends = client:eth0 server:eth0
rate = 1gbit
[flow 1]
app = tcp_iperf3
from = client
to = server
INI
"$NETSIM" run "$tmp/linkhost.ini" -o "$tmp/linkhost.db" -q --set client.tcp.cc=bbr --set server.net.ipv4.tcp_rmem='4096 131072 12582912' \
    > /dev/null 2> "$tmp/err"
check "--set on a host only a link names: runs" test $? -eq 0
check "... and the sender uses the value" grep -q "^client.tcp.cc|bbr$" <(q "$tmp/linkhost.db" "select key, value from param")
check "... and so does the receiver" grep -q "^server.net.ipv4.tcp_rmem|4096 131072 12582912$" <(q "$tmp/linkhost.db" "select key, value from param")
"$NETSIM" run "$tmp/linkhost.ini" --no-db -q --set nohost.tcp.cc=bbr > /dev/null 2> "$tmp/err"
check "--set on a name no link has: still refused" grep -q "no section named 'nohost'" "$tmp/err"
