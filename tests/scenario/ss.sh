#!/usr/bin/env bash
# Socket state as ss prints it (ss_interval, models/tcp/tcp_ss.c,
# models/sctp/sctp_ss.c, sinks/ss_file.c): a 1 s TCP run with 1 % loss
# and a 0.3 s SCTP run on two paths write the ss file where docs/usage.md
# says, one sample per socket per interval exactly, lines that parse as
# ss's, the same values in `series`, and figures that agree with the flow's
# counters and interval table where the model ties them exactly; with
# ss_interval = 0 nothing is written and the run is the same run.
. "$(dirname "$0")/common.bash"

ctr() { q "$1" "select cast(value as int) from counter where run_id = ${3:-1} and name = '$2'"; }

cp tests/data/routed-tcp.ini "$tmp/tcp.ini"

# ---- TCP: two runs into one database, so two files named by run id
for i in 1 2; do
    "$NETSIM" run "$tmp/tcp.ini" -o "$tmp/t.db" -q --set 1.ss_interval=100ms --set 1.trace_interval=100ms \
        > /dev/null 2> "$tmp/t$i.err"
    check "tcp run $i with ss_interval = 100ms exits 0" test $? -eq 0
done
f=$tmp/t.run1.ss.txt
check "the file is beside the database, named by the run's id: t.run1.ss.txt, t.run2.ss.txt" test -s "$f" -a -s "$tmp/t.run2.ss.txt"
check "no pending file is left" bash -c "! ls '$tmp'/*pending* 2> /dev/null | grep -q ."
check "stderr says what was written" grep -qx "netsim: ss: $f: 20 socket samples" "$tmp/t1.err"
check "the two runs of one scenario and seed write the same file" cmp -s "$f" "$tmp/t.run2.ss.txt"

# one record per socket sample: "# t=T host=H flow=F", the state line, the info line
awk '/^# t=/ { split($2, a, "="); split($3, h, "="); t = a[2]; host = h[2]; n = NR; next }
     n && NR == n + 1 { state = $0; next }
     n && NR == n + 2 { sub(/^\t/, ""); print t "\t" host "\t" state "\t" $0; n = 0 }' "$f" > "$tmp/t.rec"
for h in sender receiver; do
    got=$(awk -F'\t' -v h=$h '$2 == h { printf "%s ", $1 }' "$tmp/t.rec")
    want="0.100000000 0.200000000 0.300000000 0.400000000 0.500000000 0.600000000 0.700000000 0.800000000 0.900000000 1.000000000 "
    check "tcp $h: one sample every 100 ms, 1 s / 100 ms = 10 exactly ($got)" test "$got" = "$want"
done
check "the file starts with the run and ss's column titles" bash -c "head -2 '$f' | tr -s ' ' |
    diff - <(printf '# netsim ss -tmi: scenario tcp, seed 1, rep 0\nState Recv-Q Send-Q Local Address:Port Peer Address:Port\n')"
check "every record's state line: ESTAB, two queues, the two ends as ss writes them" \
    awk -F'\t' '{ split($3, s, " +"); if (s[1] != "ESTAB" || s[2] !~ /^[0-9]+$/ || s[3] !~ /^[0-9]+$/) exit 1
                  want = $2 == "sender" ? "10.0.0.1:[0-9]+ 10.0.0.3:5201" : "10.0.0.3:5201 10.0.0.1:[0-9]+"
                  if (s[4] " " s[5] !~ "^" want "$") exit 1 }' "$tmp/t.rec"
# the info line: a tab, skmem's nine members, then ss's tokens: NAME:VALUE, the
# congestion control, "send|pacing_rate|delivery_rate RATE", app_limited
check "every info line parses as ss -tmi's" awk -F'\t' '
    { if ($4 !~ /^ skmem:\(r[0-9]+,rb[0-9]+,t[0-9]+,tb[0-9]+,f[0-9]+,w[0-9]+,o[0-9]+,bl[0-9]+,d[0-9]+\) cubic /) exit 1
      n = split($4, w, " ")
      for (i = 3; i <= n; i++) {
          if (w[i] ~ /^(send|pacing_rate|delivery_rate)$/) { if (w[++i] !~ /^[0-9.]+[kMGT]?bps$/) exit 1; continue }
          if (w[i] == "app_limited") continue
          if (w[i] ~ /^rtt:[0-9.]+\/[0-9.]+$/ || w[i] ~ /^(wscale|retrans):[0-9]+[,\/][0-9]+$/) continue
          if (w[i] !~ /^[a-z_]+:[0-9.]+$/) { print "bad token " w[i]; exit 1 }
      } }' "$tmp/t.rec"

# the fields as "t name value" rows, for the comparisons below
awk -F'\t' '{ split($3, s, " +"); print $1, $2, "recv_q", s[2]; print $1, $2, "send_q", s[3]
              n = split($4, w, " ")
              for (i = 2; i <= n; i++) {
                  if (w[i] ~ /^(send|pacing_rate|delivery_rate)$/) { i++; continue }
                  if (split(w[i], kv, ":") == 2) { sub(/\/.*/, "", kv[2]); print $1, $2, kv[1], kv[2] }
              } }' "$tmp/t.rec" > "$tmp/t.kv"
fld() { awk -v t="$1" -v h="$2" -v k="$3" '$1 == t && $2 == h && $3 == k { print $4 }' "$tmp/t.kv"; }
last=1.000000000

# the same values in series, at the same times
mism=$(q "$tmp/t.db" "select t, value from series where run_id = 1 and name = 'flow.1.snd.ss.cwnd' order by t" | tr '|' ' ' |
    awk 'NR == FNR { c[sprintf("%.9f", $1)] = $2; n++; next } $2 == "sender" && $3 == "cwnd" { m++; if (c[$1] != $4) bad++ }
               END { print (n == 10 && m == 10 ? bad + 0 : "count " n "/" m) }' - "$tmp/t.kv")
check "cwnd in the file = series flow.1.snd.ss.cwnd at each of the 10 times ($mism differ)" test "$mism" = 0
mism=$(q "$tmp/t.db" "select t, value from series where run_id = 1 and name = 'flow.1.snd.cwnd' order by t" | tr '|' ' ' |
    awk 'NR == FNR { c[sprintf("%.9f", $1)] = $2; next } $2 == "sender" && $3 == "cwnd" { m++; if (!($1 in c) || c[$1] != $4) bad++ }
               END { print m == 10 ? bad + 0 : "count " m }' - "$tmp/t.kv")
check "cwnd in the file = the trace_interval series flow.1.snd.cwnd at the same times ($mism differ)" test "$mism" = 0
mism=$(q "$tmp/t.db" "select t, value from series where run_id = 1 and name = 'flow.1.rcv.ss.rcv_space' order by t" | tr '|' ' ' |
    awk 'NR == FNR { c[sprintf("%.9f", $1)] = $2; n++; next } $2 == "receiver" && $3 == "rcv_space" { m++; if (c[$1] != $4) bad++ }
               END { print n == 10 && m == 10 ? bad + 0 : "count " n "/" m }' - "$tmp/t.kv")
check "receiver rcv_space in the file = series flow.1.rcv.ss.rcv_space ($mism differ)" test "$mism" = 0
check "series for the ssthresh, rtt, rto, bytes_acked, delivery_rate, pacing rate, rcv_ssthresh and skmem of each sample" \
    test "$(q "$tmp/t.db" "select count(distinct name) || ' ' || count(*) from series where run_id = 1 and name in
        ('flow.1.snd.ss.ssthresh', 'flow.1.snd.ss.rtt_ms', 'flow.1.snd.ss.rttvar_ms', 'flow.1.snd.ss.rto_ms',
         'flow.1.snd.ss.bytes_acked', 'flow.1.snd.ss.delivery_rate_bps', 'flow.1.snd.ss.pacing_rate_bps',
         'flow.1.rcv.ss.rcv_ssthresh', 'flow.1.snd.ss.skmem_rb', 'flow.1.rcv.ss.skmem_r')")" = "10 100"

# bytes_acked only grows, never passes what the receiver got, and with the
# unacknowledged bytes makes up the new data sent (every segment a full MSS)
check "sender bytes_acked is non-decreasing over the 10 samples" \
    awk '$2 == "sender" && $3 == "bytes_acked" { n++; if ($4 < p) exit 1; p = $4 } END { exit n != 10 }' "$tmp/t.kv"
check "at every sample, sender bytes_acked <= receiver bytes_received" \
    awk '$3 == "bytes_acked" { a[$1] = $4 } $3 == "bytes_received" { r[$1] = $4 }
         END { for (t in a) { n++; if (a[t] > r[t]) exit 1 } exit n != 10 }' "$tmp/t.kv"
check "at every sample, bytes_acked + Send-Q = bytes_sent - bytes_retrans (the new data sent)" \
    awk '$2 == "sender" { v[$1, $3] = $4; ts[$1] = 1 }
         END { for (t in ts) { n++; if (v[t, "bytes_acked"] + v[t, "send_q"] != v[t, "bytes_sent"] - v[t, "bytes_retrans"]) exit 1 }
               exit n != 10 }' "$tmp/t.kv"
mss=$(fld $last sender mss)
check "last sample: bytes_sent = data_segs_out x mss = the counter flow.1.snd.data_segs_out x $mss" \
    test "$(fld $last sender bytes_sent)" -eq $(($(ctr "$tmp/t.db" flow.1.snd.data_segs_out) * mss))
check "last sample: segs_out = the counter flow.1.snd.segs_out = packets link a carried forward" \
    test "$(fld $last sender segs_out)" -eq "$(ctr "$tmp/t.db" flow.1.snd.segs_out)" -a \
         "$(fld $last sender segs_out)" -eq "$(ctr "$tmp/t.db" link.a.fwd.tx_packets)"
rt=$(awk -F'\t' -v t=$last '$1 == t && $2 == "sender"' "$tmp/t.rec" | grep -o 'retrans:[0-9]*/[0-9]*' | cut -d/ -f2)
check "last sample: retrans total ($rt) = flow.1.snd.retrans = the segments netem lost, and bytes_retrans = that x mss" \
    test "$rt" -eq "$(ctr "$tmp/t.db" flow.1.snd.retrans)" -a "$rt" -eq "$(ctr "$tmp/t.db" link.b.fwd.netem_loss)" -a \
         "$(fld $last receiver bytes_received)" -gt 0 -a "$(fld $last sender bytes_retrans)" -eq $((rt * mss))
# what the reader has read = bytes_received less Recv-Q, at each interval boundary
for t in 0.5 1.0; do
    tt=$(printf '%.9f' $t)
    read_=$(( $(fld $tt receiver bytes_received) - $(fld $tt receiver recv_q) ))
    table=$(q "$tmp/t.db" "select sum(bytes) from interval where run_id = 1 and t_end <= $t + 1e-9")
    check "at $t s: receiver bytes_received - Recv-Q ($read_) = the interval table's bytes up to $t s ($table)" \
        test "$read_" -eq "$table"
done

# ---- off: no file, no series, the same run
"$NETSIM" run "$tmp/tcp.ini" -o "$tmp/z.db" -q --set 1.ss_interval=0 --set 1.trace_interval=100ms > /dev/null 2> "$tmp/z.err"
check "tcp run with ss_interval = 0 exits 0, says nothing of ss" test $? -eq 0 -a ! -s "$tmp/z.err"
check "ss_interval = 0 writes no file" bash -c "! ls '$tmp'/z.run* 2> /dev/null | grep -q ."
check "ss_interval = 0 writes no ss series" test "$(q "$tmp/z.db" "select count(*) from series where name like '%.ss.%'")" -eq 0
"$NETSIM" run "$tmp/tcp.ini" -o "$tmp/z.db" -q --set 1.trace_interval=100ms > /dev/null 2>&1
check "ss_interval = 0 schedules nothing: the same number of events as without the key" \
    test "$(q "$tmp/z.db" "select count(distinct events) || ' ' || count(*) from run")" = "1 2"
check "sampling does not change the run: interval table and counters as with ss_interval = 0" \
    test "$(q "$tmp/t.db" "select group_concat(bytes) from interval where run_id = 1") $(q "$tmp/t.db" "select group_concat(value) from counter where run_id = 1")" = \
         "$(q "$tmp/z.db" "select group_concat(bytes) from interval where run_id = 1") $(q "$tmp/z.db" "select group_concat(value) from counter where run_id = 1")"

# ---- --no-db: SCENARIO.ss.txt in the current directory; --ss FILE names it
mkdir "$tmp/nd"
case $NETSIM in /*) abs=$NETSIM ;; *) abs=$PWD/$NETSIM ;; esac
(cd "$tmp/nd" && "$abs" run "$tmp/tcp.ini" --no-db -q --set 1.ss_interval=250ms > /dev/null 2>&1)
check "--no-db: tcp.ss.txt in the current directory, 4 samples per socket (1 s / 250 ms)" \
    test "$(grep -c '^# t=' "$tmp/nd/tcp.ss.txt" 2> /dev/null)" = 8
"$NETSIM" run "$tmp/tcp.ini" -o "$tmp/o.db" --ss "$tmp/named.txt" -q --set 1.ss_interval=500ms > /dev/null 2>&1
check "--ss FILE: the samples there (2 per socket), none beside the database" \
    test "$(grep -c '^# t=' "$tmp/named.txt" 2> /dev/null)" = 4 -a ! -e "$tmp/o.run1.ss.txt"

# ---- a sweep: one file per run, by run number
sed 's/^time = 1s/time = 1s\nss_interval = ${100ms, 250ms}/' "$tmp/tcp.ini" > "$tmp/sw.ini"
"$NETSIM" sweep "$tmp/sw.ini" -o "$tmp/sw.db" -j 2 -q > /dev/null 2>&1
check "sweep exits 0" test $? -eq 0
for r in 1 2; do
    iv=$(q "$tmp/sw.db" "select value from param where run_id = $r and key = '1.ss_interval'")
    want=$([ "$iv" = 100ms ] && echo 20 || echo 8)
    check "sweep run $r (ss_interval $iv): sw.run$r.ss.txt with $want samples" \
        test "$(grep -c '^# t=' "$tmp/sw.run$r.ss.txt" 2> /dev/null)" = "$want"
done

# ---- SCTP: scenarios/sctp_rwnd.ini, rwnd new, IPv4 on two paths, 0.3 s
"$NETSIM" run scenarios/sctp_rwnd.ini -o "$tmp/s.db" -q --set sim.duration=0.3s --set sim.interval=100ms \
    --set receiver.sctp.rwnd=new --set 1.ip=4 --set 1.len=1452 --set 1.paths=2 \
    --set 1.ss_interval=50ms --set 1.trace_interval=50ms > /dev/null 2> "$tmp/s.err"
check "sctp run with ss_interval = 50ms exits 0" test $? -eq 0
f=$tmp/s.run1.ss.txt
check "sctp: s.run1.ss.txt, stderr says 12 samples" grep -qx "netsim: ss: $f: 12 socket samples" "$tmp/s.err"
awk '/^# t=/ { split($2, a, "="); split($3, h, "="); t = a[2]; host = h[2]; n = NR; next }
     n && NR == n + 1 { state = $0; next }
     n && NR == n + 2 { sub(/^\t/, ""); print t "\t" host "\t" state "\t" $0; n = 0 }' "$f" > "$tmp/s.rec"
for h in sender receiver; do
    got=$(awk -F'\t' -v h=$h '$2 == h { printf "%s ", $1 }' "$tmp/s.rec")
    check "sctp $h: one sample every 50 ms, 0.3 s / 50 ms = 6 exactly ($got)" \
        test "$got" = "0.050000000 0.100000000 0.150000000 0.200000000 0.250000000 0.300000000 "
done
check "sctp: every info line parses as ss -Smi's, one paddr per path with a valid state" awk -F'\t' '
    { want = $2 == "sender" ? "locals:10.0.0.1,10.1.0.1 peers:10.0.0.2,10.1.0.2" : "locals:10.0.0.2,10.1.0.2 peers:10.0.0.1,10.1.0.1"
      if ($4 !~ /^ skmem:\(r[0-9]+,rb[0-9]+,t[0-9]+,tb[0-9]+,f0,w[0-9]+,o0,bl[0-9]+,d0\) / || index($4, " " want " tag:") == 0) exit 1
      n = split($4, w, " "); p = 0
      for (i = 4; i <= n; i++) {
          if (w[i] ~ /^(tag|ptag):[0-9a-f]+$/ || w[i] == "state:ESTAB") continue
          if (w[i] ~ /^paddr:\(10\.[01]\.0\.[12],(ACTIVE|PF|INACTIVE|UNCONFIRMED),cwnd:[0-9]+,ssthresh:[0-9]+,srtt:[0-9]+,rto:[0-9]+,mtu:1500,error:[0-9]+,flight:[0-9]+\)$/) { p++; continue }
          if (w[i] !~ /^[a-z]+:[0-9]+$/) { print "bad token " w[i]; exit 1 }
      }
      if (p != 2) exit 1 }' "$tmp/s.rec"
tags=$(awk -F'\t' '{ match($4, / tag:[0-9a-f]+/); t = substr($4, RSTART + 5, RLENGTH - 5)
                     match($4, / ptag:[0-9a-f]+/); print $2, t, substr($4, RSTART + 6, RLENGTH - 6) }' "$tmp/s.rec" | sort -u)
check "sctp: each end's tag is the other's ptag" \
    test "$(echo "$tags" | awk '{ t[$1] = $2; p[$1] = $3 } END { print (NR == 2 && t["sender"] == p["receiver"] && p["sender"] == t["receiver"]) }')" = 1
awk -F'\t' '{ split($3, s, " +"); print $1, $2, "recv_q", s[2]; print $1, $2, "send_q", s[3]
              match($4, /skmem:\([^)]*\)/); split(substr($4, RSTART + 7, RLENGTH - 8), m, ",")
              print $1, $2, "skmem_r", substr(m[1], 2); print $1, $2, "skmem_t", substr(m[3], 2)
              n = split($4, w, " "); k = 0
              for (i = 2; i <= n; i++) {
                  if (w[i] ~ /^paddr:/) { split(substr(w[i], 8, length(w[i]) - 8), pa, ",")
                      for (j = 3; j <= 9; j++) { split(pa[j], kv, ":"); print $1, $2, "path" k "." kv[1], kv[2] } k++; continue }
                  if (split(w[i], kv, ":") == 2 && kv[2] ~ /^[0-9]+$/) print $1, $2, kv[1], kv[2]
              } }' "$tmp/s.rec" > "$tmp/s.kv"
# ss's values = the ss series = the trace_interval series the model already had, at each time
same() {    # same HOST FIELD SERIES: how many of the 6 samples differ from the series (or "count N")
    q "$tmp/s.db" "select t, value from series where run_id = 1 and name = '$3' order by t" | tr '|' ' ' |
        awk -v h="$1" -v k="$2" 'NR == FNR { c[sprintf("%.9f", $1)] = $2; next }
            $2 == h && $3 == k { m++; if (!($1 in c) || c[$1] != $4) bad++ } END { print m == 6 ? bad + 0 : "count " m }' - "$tmp/s.kv"
}
for x in "sender path0.cwnd flow.1.sctp.client.ss.path0.cwnd" "sender path0.cwnd sctp.cwnd" \
         "sender prwnd flow.1.sctp.client.ss.prwnd" "sender prwnd sctp.peer_rwnd" \
         "sender path0.rto flow.1.sctp.client.ss.path0.rto_ms" "sender path0.rto sctp.rto_ms" \
         "sender skmem_t sctp.wmem" "receiver rwnd flow.1.sctp.server.ss.rwnd" "receiver rwnd sctp.rwnd" \
         "receiver skmem_r sctp.rmem" "receiver recv_q sctp.rmem"; do
    set -- $x
    d=$(same "$@")
    check "sctp $1 $2 in the file = series $3 at the 6 times ($d differ)" test "$d" = 0
done
fl=$(q "$tmp/s.db" "select t, value from series where run_id = 1 and name = 'sctp.flight_size' order by t" | tr '|' ' ' |
    awk 'NR == FNR { c[sprintf("%.9f", $1)] = $2; next } $2 == "sender" && $3 ~ /^path[01]\.flight$/ { s[$1] += $4 }
               END { for (t in s) { n++; if (s[t] != c[t]) bad++ } print n == 6 ? bad + 0 : "count " n }' - "$tmp/s.kv")
check "sctp sender: the paths' flight sizes add up to the series sctp.flight_size ($fl differ)" test "$fl" = 0
"$NETSIM" run scenarios/sctp_rwnd.ini -o "$tmp/s0.db" -q --set sim.duration=0.3s --set sim.interval=100ms \
    --set receiver.sctp.rwnd=new --set 1.ip=4 --set 1.len=1452 --set 1.paths=2 --set 1.trace_interval=0 > /dev/null 2>&1
check "sctp without ss_interval: no file, no ss series" \
    test ! -e "$tmp/s0.run1.ss.txt" -a "$(q "$tmp/s0.db" "select count(*) from series where name like '%.ss.%'")" -eq 0
