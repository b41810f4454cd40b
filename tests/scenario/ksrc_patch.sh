#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The patch demonstration of docs/kernel-source.md ("Test your patch"): two
# Linux trees built into one netsim, Debian's 6.1 (label 6.1) and a copy of
# it with one change to net/ipv4/tcp_cubic.c's source, beta's default 717
# -> 819 (label patched; tests/ksrc/patch-tree.sh). make check-ksrc builds
# that netsim (KSRC="6.1=... patched=...") when Debian's linux-source-6.1
# tarball is installed; on any other netsim this skips, saying so.
. "$(dirname "$0")/common.bash"

if ! "$NETSIM" models 2>/dev/null | grep -q '^    cubic@patched '; then
    why="no patched tree built in (make check-ksrc builds one beside the 6.1 tree"
    [ -f /usr/src/linux-source-6.1.tar.xz ] || why="$why; it needs /usr/src/linux-source-6.1.tar.xz, which is not installed"
    skip "$why)"
    exit 0
fi

models=$("$NETSIM" models)
doc() { printf '%s\n' "$models" | awk -v v="$1" '$1 == v { $1 = ""; print substr($0, 2) }'; }
n=$(printf '%s\n' "$models" | grep -cE '^    [a-z]+@patched ')
check "both trees in one netsim: 16 modules of each ($n labelled patched)" \
    test "$n" -eq 16 -a "$(printf '%s\n' "$models" | grep -cE '^    [a-z]+@6\.1 ')" -eq 16
# netsim models names each variant's release, file (sha256) and tree
c61=$(doc cubic@6.1) cp=$(doc cubic@patched)
check "models: cubic@patched is Linux 6.1.192's tcp_cubic.c from the patched tree, another file than cubic@6.1's" \
    bash -c '[[ "$1" == "Linux 6.1.192'"'"'s net/ipv4/tcp_cubic.c (sha256 "*"), compiled unmodified from "*/linux-patched ]] &&
             [[ "$2" == *"compiled unmodified from "*/linux-source-6.1 ]] && [ "${1%%)*}" != "${2%%)*}" ]' _ "$cp" "$c61"
check "models: bbr@patched is the same file as bbr@6.1 (sha256)" \
    test "$(doc bbr@patched | cut -d')' -f1)" = "$(doc bbr@6.1 | cut -d')' -f1)"
# a module parameter's key takes its default from the module's source
keys=$("$NETSIM" keys 2>/dev/null)
check "keys: tcp.cc.cubic@patched.beta defaults to 819, tcp.cc.cubic@6.1.beta to 717" \
    bash -c 'grep -qE "^  tcp\.cc\.cubic@patched\.beta = 819 " <<< "$1" && grep -qE "^  tcp\.cc\.cubic@6\.1\.beta = 717 " <<< "$1"' _ "$keys"

cwnd() {   # cwnd CC [--set ...]: the sender's cwnd series over 5 s of tests/ksrc/bulk.ini (0.1 % loss)
    local cc=$1 db
    shift
    db=$tmp/$(echo "$cc$*" | tr -c 'a-zA-Z0-9\n' _).db
    "$NETSIM" run tests/ksrc/bulk.ini --set "s.tcp.cc=$cc" --set sim.duration=5s -q -o "$db" "$@" > /dev/null 2>&1 ||
        { echo "run failed"; return; }
    sqlite3 "$db" "select t, cast(value as int) from series where name = 'flow.1.snd.cwnd' order by t"
}
# the patch is exactly beta = 819: the patched module's run is the
# release's with the parameter set so, segment for segment
p=$(cwnd cubic@patched)
k=$(cwnd cubic@6.1 --set s.tcp.cc.cubic@6.1.beta=819)
r=$(cwnd cubic@6.1)
check "cubic@patched = cubic@6.1 with tcp.cc.cubic@6.1.beta = 819: identical cwnd traces ($(echo "$p" | wc -l) samples)" \
    test -n "$p" -a "$p" = "$k"
check "cubic@patched and cubic@6.1 (beta 717) part after the first loss" test -n "$r" -a "$p" != "$r"
# the two trees' other modules, one file in both, give one run: the
# trees' objects keep their own globals (kcompat/ksrc-build localizes them),
# and BBR's and CDG's random numbers are the module's, not the tree's
for cc in bbr cdg vegas; do
    a=$(cwnd $cc@6.1) b=$(cwnd $cc@patched)
    check "$cc@patched = $cc@6.1: identical cwnd traces" test -n "$a" -a "$a" = "$b"
done

# the sweep the docs show, 10 paired seeds of 5 s, and report --compare
db=$tmp/patch.db
"$NETSIM" sweep tests/ksrc/patch.ini -j 2 -q -o "$db" --set sim.repeat=10 --set sim.duration=5s \
    --set 1.length=5s --set 's.tcp.cc=${cc=cubic@6.1, cubic@patched}' > "$tmp/sweep.out" 2>&1
check "sweep over \${cc=cubic@6.1, cubic@patched}, repeat 10: 20 runs complete" \
    test "$(q "$db" "select count(*) from run where status = 'complete'")" = 20
check "... on paired seeds: replication r of both values runs on one seed, 10 seeds" \
    test "$(q "$db" "select count(distinct seed) || ' ' || count(distinct rep || ':' || seed) from run")" = "10 10"
json=$("$NETSIM" report "$db" --compare cc=cubic@6.1,cubic@patched --json)
row=$(printf '%s\n' "$json" | python3 -c 'import json, sys
r = json.load(sys.stdin)["rows"][0]
print(r["pairs"], r["verdict"], "%.2f" % r["ci95_change_pct"][0], "%.2f" % r["ci95_change_pct"][1])')
set -- $row
check "report --compare: beta 819 against 717 is a goodput improvement over 10 pairs, its 95% CI above 0 ([$3, $4] %)" \
    bash -c '[ "$1" = 10 ] && [ "$2" = improvement ] && awk -v lo="$3" "BEGIN { exit !(lo > 0) }"' _ "$@"
