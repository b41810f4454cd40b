#!/usr/bin/env bash
# Scenario tests of `netsim run --pcap` (docs/pcap.md), checked by
# Wireshark's own decoders: tshark reads every capture of a TCP run with
# 1 % loss, a fragmented-UDP run (65507-byte datagrams, as
# scenarios/bench/w3.ini) and an SCTP rwnd run (scenarios/sctp_rwnd.ini)
# with every checksum check on and finds no malformed, truncated, bad
# checksum or undissected frame; its analysis agrees with netsim's
# counters: frames per port, TCP retransmissions, reassembled datagrams,
# per-interval UDP goodput, SCTP retransmitted TSNs and SACK gap blocks.
# Skipped (one ok with the reason) when tshark is absent.
. "$(dirname "$0")/common.bash"

if ! command -v tshark > /dev/null; then
    skip "tshark is not installed (make deps installs it)"
    exit 0
fi
# every checksum Wireshark can verify, verified (all are off by default)
TS=(-o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE -o sctp.checksum:CRC-32C
    -o ip.defragment:TRUE)
ts() { tshark -n "${TS[@]}" "$@" 2> /dev/null; }
# One pass of tshark per capture (each costs about half a second): the
# fields every check below reads, one line per frame, tab-separated, a
# field that occurs more than once comma-separated, into F.tsv.
FIELDS=(frame.protocols ip.src ip.checksum.status tcp.checksum.status udp.checksum.status sctp.checksum.status
        _ws.expert.severity _ws.expert.group _ws.expert.message tcp.len tcp.seq_raw tcp.flags.syn
        tcp.options.sack_le ip.reassembled.length udp.length sctp.data_tsn_raw sctp.sack_cumulative_tsn_ack_raw
        sctp.sack_number_of_gap_blocks sctp.sack_gap_block_start sctp.sack_gap_block_end frame.len frame.cap_len
        tcp.options.mss_val tcp.options.wscale.shift tcp.options.timestamp.tsval tcp.options.sack_perm)
col() {    # col NAME: the field's column in F.tsv
    local i
    for i in "${!FIELDS[@]}"; do [ "${FIELDS[$i]}" = "$1" ] && { echo $((i + 1)); return; }; done
    echo "col: no field $1" >&2
    exit 3
}
fields() {    # fields F: writes F.tsv, fails if tshark cannot read F
    local args=() f
    for f in "${FIELDS[@]}"; do args+=(-e "$f"); done
    tshark -n "${TS[@]}" -r "$1" -T fields -E separator=/t "${args[@]}" > "$1.tsv" 2> "$1.err"
}
# rows F AWK-CONDITION: how many frames of F satisfy it ($N are fields by col)
rows() { awk -F'\t' "$2 { n++ } END { print n + 0 }" "$1.tsv"; }
C_PROTO=$(col frame.protocols) C_SRC=$(col ip.src) C_SEV=$(col _ws.expert.severity) C_GRP=$(col _ws.expert.group)
C_MSG=$(col _ws.expert.message) C_TLEN=$(col tcp.len) C_SEQ=$(col tcp.seq_raw) C_SYN=$(col tcp.flags.syn)
C_SACK=$(col tcp.options.sack_le) C_REASM=$(col ip.reassembled.length) C_ULEN=$(col udp.length)
C_TSN=$(col sctp.data_tsn_raw) C_CUM=$(col sctp.sack_cumulative_tsn_ack_raw) C_NGAP=$(col sctp.sack_number_of_gap_blocks)
C_GS=$(col sctp.sack_gap_block_start) C_GE=$(col sctp.sack_gap_block_end) C_LEN=$(col frame.len) C_CAP=$(col frame.cap_len)
C_MSS=$(col tcp.options.mss_val) C_WS=$(col tcp.options.wscale.shift) C_TSV=$(col tcp.options.timestamp.tsval)
C_SPERM=$(col tcp.options.sack_perm)
C_CK=($(col ip.checksum.status) $(col tcp.checksum.status) $(col udp.checksum.status) $(col sctp.checksum.status))
# counter NAME from a --json result
counter() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['netsim']['counters'].get(sys.argv[2], 0))" "$1" "$2"; }
# sum of the counters whose name matches a regular expression
counter_sum() {
    python3 -c "import json,re,sys; c=json.load(open(sys.argv[1]))['netsim']['counters']; print(sum(v for k,v in c.items() if re.fullmatch(sys.argv[2],k)))" "$1" "$2"
}

# Every capture in DIR: read whole, nothing malformed, in error or with a
# bad checksum, every checksum verified (the frames are whole: snap 1600),
# every frame dissected to its transport (or an IP fragment), and as many
# frames as the port's NIC counted (sent at the TX ring + handed up from
# the RX ring: where the tap is). Expert severities: 0x00800000 error,
# group 0x07000000 malformed, 0x01000000 checksum.
clean_captures() {    # clean_captures NAME DIR JSON
    local name=$1 dir=$2 json=$3 f base host port n want bad k
    for f in "$dir"/*.pcap; do
        base=$(basename "$f" .pcap)
        host=${base%-*} port=${base##*-}
        check "$name: tshark reads $base" fields "$f"
        n=$(wc -l < "$f.tsv")
        want=$(counter_sum "$json" "$host\\.$port\\.q[0-9]+\\.(tx|rx)_packets")
        check "$name: $base holds the $want frames its NIC sent and received (got $n)" test "$n" -eq "$want"
        bad=$(rows "$f" "\$$C_SEV ~ /8388608/ || \$$C_GRP ~ /117440512|16777216/ || \$$C_MSG ~ /[Mm]alformed|checksum/")
        check "$name: $base has no malformed, error or checksum expert item (got $bad)" test "$bad" -eq 0
        bad=0
        for k in "${C_CK[@]}"; do   # status 1 good, 0 bad, 2 unverified
            bad=$((bad + $(rows "$f" "\$$k != \"\" && \$$k !~ /^1(,1)*\$/")))
        done
        check "$name: $base: every IP, TCP, UDP and SCTP checksum verified good (bad or unverified: $bad)" test "$bad" -eq 0
        bad=$(rows "$f" "\$$C_PROTO !~ /:(tcp|udp|sctp|icmp|ip)(:data)?\$/")
        check "$name: $base: every frame dissected to its transport (others: $bad)" test "$bad" -eq 0
    done
}

# ---- TCP, 1 % loss on the router's egress: the sender's port sees every
# transmission (a tap after netem would miss the ones netem drops)
cp tests/data/routed-tcp.ini "$tmp/tcp.ini"
"$NETSIM" run "$tmp/tcp.ini" --no-db --json --pcap "$tmp/tcp" --pcap-snaplen 1600 > "$tmp/tcp.json" 2> "$tmp/tcp.err"
check "tcp run with --pcap exits 0" test $? -eq 0
check "tcp run says what it wrote on stderr" grep -q "^netsim: pcap: 4 files in $tmp/tcp: [0-9]* frames" "$tmp/tcp.err"
clean_captures tcp "$tmp/tcp" "$tmp/tcp.json"
retrans=$(counter "$tmp/tcp.json" flow.1.snd.retrans)
snd=$tmp/tcp/sender-eth0.pcap
data="\$$C_SRC == \"10.0.0.1\" && \$$C_TLEN > 0"
ws_re=$(rows "$snd" "$data && \$$C_MSG ~ /\\(suspected\\) retransmission/")
ws_ooo=$(rows "$snd" "$data && \$$C_MSG ~ /out-of-order/")
# Wireshark calls a retransmission "out-of-order" when it follows the
# highest segment by less than the handshake's RTT and is no fast
# retransmission (docs/pcap.md): together they are every retransmission
check "tcp: Wireshark's retransmissions + out-of-order ($ws_re + $ws_ooo) at the sender = netsim's retrans ($retrans)" \
    test $((ws_re + ws_ooo)) -eq "$retrans" -a "$retrans" -gt 20
# the same without Wireshark's heuristics: segments whose bytes were sent before
seen=$(awk -F'\t' "$data"' { e = $'"$C_SEQ"' + $'"$C_TLEN"'; if (e <= hi) n++; else hi = e } END { print n + 0 }' "$snd.tsv")
check "tcp: segments sent again, by sequence number ($seen) = netsim's retrans ($retrans)" test "$seen" -eq "$retrans"
segs=$(rows "$snd" "\$$C_SRC == \"10.0.0.1\"")
check "tcp: frames the sender sent ($segs) = netsim's segs_out" test "$segs" -eq "$(counter "$tmp/tcp.json" flow.1.snd.segs_out)"
# netem is the router's egress qdisc, ahead of the tap: what it drops
# reached the router's eth0 and never its eth1
lost=$(($(rows "$tmp/tcp/router-eth0.pcap" "\$$C_SRC == \"10.0.0.1\"") - $(rows "$tmp/tcp/router-eth1.pcap" "\$$C_SRC == \"10.0.0.1\"")))
check "tcp: frames into the router less frames out ($lost) = netem's losses" test "$lost" -eq "$(counter "$tmp/tcp.json" link.b.fwd.netem_loss)"
sack=$(rows "$tmp/tcp/receiver-eth0.pcap" "\$$C_SACK != \"\"")
check "tcp: the receiver's ACKs carry SACK blocks ($sack)" test "$sack" -gt 0
check "tcp: SYN options decoded (MSS 1460, SACK-permitted, timestamps, window scale)" \
    test "$(rows "$snd" "\$$C_SYN == 1 && \$$C_MSS == 1460 && \$$C_SPERM != \"\" && \$$C_TSV != \"\" && \$$C_WS != \"\"")" -eq 2
# the default snap length: 128 bytes kept, the true length in the record
"$NETSIM" run "$tmp/tcp.ini" --no-db -q --pcap "$tmp/tcp128" --pcap-filter "host 10.0.0.1" > /dev/null 2>&1
f=$tmp/tcp128/sender-eth0.pcap
check "tcp at 128 bytes: tshark reads it" fields "$f"
check "tcp at 128 bytes: frames kept at most 128 bytes, true lengths as at full size" \
    test "$(rows "$f" "\$$C_CAP > 128")" -eq 0 -a \
    "$(awk -F'\t' '{ s += $'"$C_LEN"' } END { print s }' "$f.tsv")" = "$(awk -F'\t' '{ s += $'"$C_LEN"' } END { print s }' "$snd.tsv")"
bad=$(rows "$f" "\$$C_SEV ~ /8388608/ || \$$C_GRP ~ /117440512|16777216/ || \$${C_CK[0]} != 1")
check "tcp at 128 bytes: nothing malformed, every IP checksum verified good ($bad)" test "$bad" -eq 0
"$NETSIM" run "$tmp/tcp.ini" --no-db -q --pcap "$tmp/tcpf" --pcap-filter "tcp[tcpflags] & tcp-syn != 0" > /dev/null 2> "$tmp/f.err"
fields "$tmp/tcpf/receiver-eth0.pcap"
check "--pcap-filter keeps only the matching frames (the SYN and the SYN-ACK)" \
    test "$(wc -l < "$tmp/tcpf/receiver-eth0.pcap.tsv")" -eq 2 -a "$(rows "$tmp/tcpf/receiver-eth0.pcap" "\$$C_SYN == 1")" -eq 2
check "--pcap-filter: stderr says how many were left out" grep -q "frames left out by the filter" "$tmp/f.err"
"$NETSIM" run "$tmp/tcp.ini" --no-db -q --pcap "$tmp/x" --pcap-filter "tcp porrt 1" > /dev/null 2> "$tmp/x.err"
check "a bad --pcap-filter is a usage error naming the option" test $? -eq 2 -a "$(grep -c -- "--pcap-filter 'tcp porrt 1': .*syntax error" "$tmp/x.err")" -eq 1
sed 's/^\[host sender\]$/&\npcap = eth7/' "$tmp/tcp.ini" > "$tmp/bad.ini"
"$NETSIM" run "$tmp/bad.ini" --no-db -q --pcap "$tmp/x" > /dev/null 2> "$tmp/x.err"
check "a pcap key naming no port is an error at file:line" \
    test $? -eq 2 -a "$(grep -c "bad.ini:[0-9]*: .*pcap.*no port 'eth7'" "$tmp/x.err")" -eq 1

# ---- the same TCP run over IPv6: tshark reads every capture clean
"$NETSIM" run "$tmp/tcp.ini" --no-db --json --pcap "$tmp/tcp6" --pcap-snaplen 1600 --set 1.family=inet6 \
    > "$tmp/tcp6.json" 2> /dev/null
clean_captures tcp6 "$tmp/tcp6" "$tmp/tcp6.json"
check "tcp6: the SYNs carry MSS 1440 (1500 - 40 - 20)" \
    test "$(rows "$tmp/tcp6/sender-eth0.pcap" "\$$C_SYN == 1 && \$$C_MSS == 1440 && \$$C_PROTO ~ /ipv6:tcp/")" -eq 2

# ---- UDP, 65507-byte datagrams in 45 fragments each, at 500 Mbit/s
cat > "$tmp/udp.ini" <<'INI'
[sim]
duration = 1s
interval = 250ms
[host sender]
cpu = ideal
[host receiver]
cpu = ideal
pcap = eth0
[link path]
ends = sender:eth0 receiver:eth0
rate = 10gbit
propagation = 25us
[flow 1]
app = udp_stream
from = sender
to = receiver
msg_size = 65507
rate = 500mbit
INI
"$NETSIM" run "$tmp/udp.ini" --no-db --json --pcap "$tmp/udp" --pcap-snaplen 1600 > "$tmp/udp.json" 2> "$tmp/udp.err"
check "udp run with --pcap exits 0" test $? -eq 0
check "the pcap key chose one port: receiver-eth0 only" test "$(ls "$tmp/udp")" = receiver-eth0.pcap
clean_captures udp "$tmp/udp" "$tmp/udp.json"
rcv=$tmp/udp/receiver-eth0.pcap
reasm=$(rows "$rcv" "\$$C_REASM != \"\" && \$$C_ULEN != \"\"")
want=$(counter "$tmp/udp.json" receiver.ipfrag.ReasmOKs)
check "udp: datagrams Wireshark reassembled ($reasm) = netsim's ReasmOKs ($want)" test "$reasm" -eq "$want" -a "$want" -gt 100
check "udp: every reassembled datagram is 65507 bytes of payload" test "$(rows "$rcv" "\$$C_ULEN == 65515")" -eq "$reasm"
# io,stat per 250 ms of reassembled UDP payload against the interval table
# (the reader takes each datagram at the instant it is reassembled: ideal CPU)
ts -r "$rcv" -q -z "io,stat,0.25,SUM(udp.length)udp.length,COUNT(udp.length)udp.length" |
    awk -F'|' '/<>/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3 - 8 * $4 }' > "$tmp/io.txt"
python3 -c "import json,sys; [print(i['bytes']) for i in json.load(open(sys.argv[1]))['netsim']['intervals']]" "$tmp/udp.json" > "$tmp/iv.txt"
check "udp: io,stat payload bytes per 250 ms = the interval table's ($(paste -sd' ' "$tmp/iv.txt"))" \
    diff "$tmp/io.txt" "$tmp/iv.txt"

# ---- SCTP, scenarios/sctp_rwnd.ini (rwnd new: the receiver's backlog
# drops chunks, so SACKs carry gap blocks), 0.3 s, IPv4 on two paths
"$NETSIM" run scenarios/sctp_rwnd.ini --no-db --json --set sim.duration=0.3s --set sim.interval=100ms \
    --set receiver.sctp.rwnd=new --set 1.ip=4 --set 1.len=1452 --set 1.paths=2 \
    --pcap "$tmp/sctp" --pcap-snaplen 1600 > "$tmp/sctp.json" 2> "$tmp/sctp.err"
check "sctp run with --pcap exits 0" test $? -eq 0
clean_captures sctp "$tmp/sctp" "$tmp/sctp.json"
snd=$tmp/sctp/sender-eth0.pcap
rtx=$(rows "$snd" "\$$C_MSG ~ /Retransmitted TSN/")
want=$(counter "$tmp/sctp.json" flow.1.sctp.client.retransmits)
check "sctp: TSNs Wireshark calls retransmitted ($rtx) = netsim's retransmits ($want)" test "$rtx" -eq "$want" -a "$want" -gt 0
data=$(awk -F'\t' '$'"$C_TSN"' != "" { n += split($'"$C_TSN"', a, ",") } END { print n + 0 }' "$snd.tsv")
check "sctp: DATA chunks sent ($data) = netsim's data_chunks_sent" test "$data" -eq "$(counter "$tmp/sctp.json" flow.1.sctp.client.data_chunks_sent)"
sacks=$(rows "$tmp/sctp/receiver-eth0.pcap" "\$$C_CUM != \"\" && \$$C_SRC == \"10.0.0.2\"")
check "sctp: SACKs the receiver sent ($sacks) = netsim's sacks_tx" test "$sacks" -eq "$(counter "$tmp/sctp.json" flow.1.sctp.server.sacks_tx)"
# The gap blocks: every TSN a SACK reports missing (between the cumulative
# ack and a gap block) is a chunk the receiver dropped, and the sender
# retransmits each: the missing set is the retransmitted set.
awk -F'\t' '$'"$C_NGAP"' > 0 { n = split($'"$C_GS"', s, ","); split($'"$C_GE"', e, ","); prev = 0
        for (i = 1; i <= n; i++) { for (t = prev + 1; t < s[i]; t++) print $'"$C_CUM"' + t; prev = e[i] } }' \
    "$tmp/sctp/receiver-eth0.pcap.tsv" | sort -un > "$tmp/missing.txt"
awk -F'\t' '$'"$C_MSG"' ~ /Retransmitted TSN/ { n = split($'"$C_TSN"', a, ","); for (i = 1; i <= n; i++) print a[i] }' \
    "$snd.tsv" | sort -un > "$tmp/rtx.txt"
gaps=$(awk -F'\t' '{ s += $'"$C_NGAP"' } END { print s + 0 }' "$tmp/sctp/receiver-eth0.pcap.tsv")
check "sctp: SACKs carry gap blocks ($gaps); the TSNs they report missing ($(wc -l < "$tmp/missing.txt")) are the TSNs retransmitted" \
    diff "$tmp/missing.txt" "$tmp/rtx.txt"
