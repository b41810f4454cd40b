#!/usr/bin/env bash
# `netsim keys` is the reference the getters themselves record: each
# section, app and family is listed with its defaults; every key has a
# doc; the defaults it prints are accepted by the reader; the generated
# docs/reference/keys.md and man/netsim-scenario.5 are current; an
# unknown key's error points to it.
. "$(dirname "$0")/common.bash"

tools/keys-doc --check "$NETSIM" > "$tmp/stale.out" 2>&1
check "docs/reference/keys.md and man/netsim-scenario.5 are current (tools/keys-doc --update)" \
    test $? -eq 0 -a ! -s "$tmp/stale.out"

"$NETSIM" keys host > "$tmp/host.out" 2>&1; rc=$?
check "netsim keys host runs" test $rc -eq 0
check "... lists cores = 4 with its unit and range" grep -qE '^  cores = 4 +integer; 1 to 64$' "$tmp/host.out"
check "... and a model's sysctl with its kernel default" grep -qE '^  net.ipv4.tcp_rmem = 4096 87380 6291456 ' "$tmp/host.out"
check "... and a family key with its variants" grep -qE '^  tcp.drs = trimodal +choice; trimodal, continuous' "$tmp/host.out"

"$NETSIM" keys tcp_iperf3 > "$tmp/app.out" 2>&1
check "netsim keys tcp_iperf3 lists its flow keys with defaults" \
    grep -qE '^  time = 10s +time; 1ms to' "$tmp/app.out"
for k in app from to start stop length send_size recv_size reader_cpu trace_interval; do
    [ $k = length ] && continue
    check "... $k" grep -qE "^  $k = " "$tmp/app.out"
done
check "... not tcp_stream's length" test "$(grep -c '^  length = ' "$tmp/app.out")" -eq 0

"$NETSIM" keys tcp.drs > "$tmp/fam.out" 2>&1
check "netsim keys tcp.drs lists its variants, the default first" \
    grep -qE '^  = trimodal .*\(default\)$' "$tmp/fam.out"
check "... and continuous" grep -qE '^  = continuous ' "$tmp/fam.out"
"$NETSIM" keys ipfrag.evictor > "$tmp/frag.out" 2>&1
grep -A1 -E '^  = drop-new' "$tmp/frag.out" > "$tmp/dropnew.out"
check "a variant's own default is found: drop-new reads ipfrag.hash_buckets = 65536" \
    grep -qE '^  ipfrag.hash_buckets = 65536 ' "$tmp/dropnew.out"

"$NETSIM" keys --md > "$tmp/all.md"
check "every key has a doc" test "$(grep -cE '^\| `[^`]*` \|.*\|  \|$' "$tmp/all.md")" -eq 0
n=$("$NETSIM" keys --names | sort -u | wc -l)
check "netsim keys --names lists the keys ($n)" test "$n" -gt 100
"$NETSIM" keys nosuch > /dev/null 2> "$tmp/bad.err"; rc=$?
check "an unknown argument exits 2, naming the choices" \
    test $rc -eq 2 && grep -q "sections: sim, link, host, flow; apps: .*tcp_iperf3" "$tmp/bad.err"

# the defaults printed are the reader's: set every [host] key that has a
# plain default to it, on a host that runs TCP, SCTP and ipfrag
sets=()
while IFS='|' read -r _ key def _; do
    key=$(echo "$key" | tr -d ' `'); def=$(echo "$def" | sed 's/^ *//; s/ *$//')
    case $def in ''|*'('*|*' or '*|*,*|*' '[a-z]*|[a-z]*' '*) continue ;; esac
    sets+=(--set "receiver.$key=$def")
done < <("$NETSIM" keys --md host | grep '^| `')
check "the [host] keys with a plain default ($((${#sets[@]} / 2))) are many" test ${#sets[@]} -gt 100
"$NETSIM" run scenarios/sctp_rwnd.ini --set sim.duration=1ms --set sim.interval=1ms --set 1.ip=4 --set 1.len=1452 --set 1.paths=2 \
    --set receiver.sctp.rwnd=old "${sets[@]}" --no-db -q > /dev/null 2> "$tmp/def.err"
check "... and the reader accepts each at its default" test $? -eq 0

printf '[sim]\n[link l]\nends = a b\nrtae = 1gbit\n[flow 1]\napp = ping\nfrom = a\nto = b\ncuont = 3\n' > "$tmp/u.ini"
"$NETSIM" run "$tmp/u.ini" --no-db > /dev/null 2> "$tmp/u.err"
check "an unknown key's error points to netsim keys SECTION" grep -qF '(`netsim keys link` documents them)' "$tmp/u.err"
check "... and a flow's to netsim keys APP" grep -qF '(`netsim keys ping` documents them)' "$tmp/u.err"
