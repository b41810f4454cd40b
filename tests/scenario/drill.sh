#!/usr/bin/env bash
# netsim drill (docs/conformance.md): the project's own packetdrill
# scripts in tests/drill/ pass; a script whose expectation is wrong fails
# with packetdrill's "expected ... got ..." and exit status 1; one that
# uses what netsim cannot run says "unsupported: WHAT" and exits 77,
# never 0; a script that does not parse fails with its file and line.
. "$(dirname "$0")/common.bash"

for f in tests/drill/*.pkt; do
    out=$("$NETSIM" drill "$f" 2>&1); rc=$?
    check "$f passes${out:+: $out}" test "$rc" = 0 -a "$out" = "pass  $f"
done
# scripts of a later release's rules, run with its profile (its warning,
# that the rest of the host stays 4.15's, goes to stderr)
for f in tests/drill/6.1/*.pkt; do
    out=$("$NETSIM" drill --kernel=6.1 "$f" 2> /dev/null); rc=$?
    check "$f passes with --kernel=6.1${out:+: $out}" test "$rc" = 0 -a "$out" = "pass  $f"
done
# a lost tail in CWR: each release's script fails under the other's rule
out=$("$NETSIM" drill --kernel=6.1 tests/drill/tlp-cwr.pkt 2> /dev/null); rc=$?
check "4.15's RTO for a tail lost in CWR is not 6.1's (status $rc)" test "$rc" = 1
check "... 6.1 probes the last segment instead: $out" grep -qF \
    "tlp-cwr.pkt:31: bad outbound packet (sequence 8001:9001(1000) vs 9001:10001(1000))" <<< "$out"
out=$("$NETSIM" drill tests/drill/6.1/tlp-cwr.pkt 2> /dev/null); rc=$?
check "6.1's probe in CWR is not 4.15's (status $rc)" test "$rc" = 1
check "... 4.15 sends nothing there: $out" grep -qF \
    "timed out waiting for packet: expected > . 9001:10001(1000) ack 1" <<< "$out"
# the SYN-ACK's window: 20 segments (4.15), what tcp_rmem[1] holds (4.19 on)
out=$("$NETSIM" drill --kernel=6.1 tests/drill/syn-ack-window.pkt 2> /dev/null); rc=$?
check "4.15's SYN-ACK window is not 6.1's (status $rc)" test "$rc" = 1
check "... 6.1 offers 65160: $out" grep -qF "bad outbound packet (win 28960 vs 65160)" <<< "$out"
out=$("$NETSIM" drill tests/drill/6.1/syn-ack-window.pkt 2> /dev/null); rc=$?
check "6.1's SYN-ACK window is not 4.15's (status $rc)" test "$rc" = 1
check "... 4.15 offers 28960: $out" grep -qF "bad outbound packet (win 65160 vs 28960)" <<< "$out"
out=$("$NETSIM" drill --kernel=6.2 tests/drill/tlp-cwr.pkt 2>&1); rc=$?
check "--kernel of a release netsim does not model is bad usage (status $rc)" test "$rc" = 2
check "... naming those it does: $out" grep -qF \
    "expected a release netsim models: 4.15, 4.16, 6.1" <<< "$out"

# the handshake of passive-open.pkt with a window the SYN-ACK does not carry
sed 's/^   +0 > S\. 0:0(0) ack 1 </   +0 > S. 0:0(0) ack 1 win 1000 </' tests/drill/passive-open.pkt > "$tmp/wrong.pkt"
out=$("$NETSIM" drill "$tmp/wrong.pkt" 2>&1); rc=$?
check "a wrong expectation fails with status 1 (got $rc)" test "$rc" = 1
# (each line on its own: grep takes a pattern's lines as alternatives)
want="FAIL  $tmp/wrong.pkt:11: bad outbound packet (win 1000 vs 29200)
  expected: > S. 0:0(0) ack 1 win 1000 <mss 1460,nop,nop,sackOK,nop,wscale 7>
  got:      > 8080>40000 S. 0:0(0) ack 1 win 29200 <mss 1460,sackOK,wscale 7> at 0.000001"
check "it says which field, expected and got: $out" test "$out" = "$want"

# a data segment expected 10 ms late is a timing error beyond 4 ms
sed 's/^   +0 > P\. 1:1001(1000) ack 1$/ +.01 > P. 1:1001(1000) ack 1/' tests/drill/passive-open.pkt > "$tmp/late.pkt"
out=$("$NETSIM" drill "$tmp/late.pkt" 2>&1); rc=$?
check "an early packet fails: $out" test "$rc" = 1
check "as a timing error with the tolerance" grep -qF \
    "timing error: expected outbound packet at 0.020001 sec but happened at 0.010002 sec; tolerance 0.004000 sec" <<< "$out"
out=$("$NETSIM" drill --tolerance_usecs=20000 "$tmp/late.pkt" 2>&1); rc=$?
check "within --tolerance_usecs=20000 it passes: $out" test "$rc" = 0

# close() of a connection: netsim's TCP has no FIN yet
{ cat tests/drill/passive-open.pkt; echo "   +0 close(4) = 0"; echo "   +0 > F. 1001:1001(0) ack 1"; } > "$tmp/close.pkt"
out=$("$NETSIM" drill "$tmp/close.pkt" 2>&1); rc=$?
check "an unsupported call exits 77 (got $rc)" test "$rc" = 77
check "and says what: $out" test "$out" = \
    "unsupported  $tmp/close.pkt:18: unsupported: close() of a connection (netsim's TCP sends no FIN)"
printf '0 %%{ assert tcpi_ca_state == 0 }%%\n' > "$tmp/code.pkt"
out=$("$NETSIM" drill "$tmp/code.pkt" 2>&1); rc=$?
check "a %{ }% block is unsupported, not a pass: $out" test "$rc" = 77
printf '`sysctl -q net.ipv4.tcp_no_metrics_save=1`\n0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3\n' > "$tmp/sysctl.pkt"
out=$("$NETSIM" drill "$tmp/sysctl.pkt" 2>&1); rc=$?
check "a sysctl without a netsim key is unsupported: $out" test "$rc" = 77 -a \
    "$out" = "unsupported  $tmp/sysctl.pkt:1: unsupported: sysctl net.ipv4.tcp_no_metrics_save (no netsim key)"
# a mapped sysctl reaches the host: without SACK the SYN-ACK offers none
printf '`sysctl -q net.ipv4.tcp_sack=0`\n' > "$tmp/nosack.pkt"
sed 's/<mss 1460,nop,nop,sackOK,nop,wscale 7>/<mss 1460,nop,wscale 7>/' tests/drill/passive-open.pkt >> "$tmp/nosack.pkt"
out=$("$NETSIM" drill "$tmp/nosack.pkt" 2>&1); rc=$?
check "net.ipv4.tcp_sack=0 maps to the host's key: $out" test "$rc" = 0

printf '0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3\n+0 < S 0:0 win 1\n' > "$tmp/bad.pkt"
out=$("$NETSIM" drill "$tmp/bad.pkt" 2>&1); rc=$?
check "a parse error fails with its line: $out" test "$rc" = 1 -a \
    "$out" = "FAIL  $tmp/bad.pkt:2: expected '(', got 'win'"

# a tolerance is a whole number of microseconds, on the command line and in a script
out=$("$NETSIM" drill --tolerance_usecs=1e99 tests/drill/passive-open.pkt 2>&1); rc=$?
check "--tolerance_usecs=1e99 refused ($rc): $out" test "$rc" = 2 -a -n "$(echo "$out" | grep 'expected a whole number of microseconds')"
{ echo '--tolerance_usecs=-5'; cat tests/drill/passive-open.pkt; } > "$tmp/tol.pkt"
out=$("$NETSIM" drill "$tmp/tol.pkt" 2>&1); rc=$?
check "a script's --tolerance_usecs=-5 fails the script ($rc): $out" test "$rc" = 1 -a -n "$(echo "$out" | grep 'expected a whole number')"
