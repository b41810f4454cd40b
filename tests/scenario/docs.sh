#!/usr/bin/env bash
# The documentation says what netsim does: every number docs/ and the
# README quote from a bundled scenario is what that scenario gives today
# (docs/figures/quoted.tsv: the quote, the command, the query, the value);
# the README's own first scenario and sweep run and print what it shows;
# every relative link in README.md and docs/ resolves; no file points to
# documents outside the repository; README.md stays a quickstart.
# The runs are the quoted ones, each once: about 20 s of CPU. Rows whose
# command is marked slow (the 200-run tcp_drs sweep, 60-s runs at 2
# Gbit/s) have only their quote checked unless NETSIM_DOCS_SLOW=1, which
# runs them too (about 4 minutes more).
. "$(dirname "$0")/common.bash"

squeeze() { tr -s ' \t\n' '   '; }    # line breaks and runs of blanks as one space

# ---- quoted figures
declare -A ran                        # command -> index of its run in $tmp
n=0
while IFS=$'\t' read -r doc quote cmd chk want; do
    case $doc in '#'* | '') continue ;; esac
    squeeze < "$doc" > "$tmp/doc"
    check "$doc quotes \"$quote\"" grep -qF -- "$(printf '%s' "$quote" | squeeze)" "$tmp/doc"
    case $cmd in
    slow\ *)
        [ "${NETSIM_DOCS_SLOW:-0}" = 1 ] || continue
        cmd=${cmd#slow } ;;
    esac
    if [ -z "${ran[$cmd]:-}" ]; then
        n=$((n + 1))
        ran[$cmd]=$n
        # words as a shell splits them, quotes kept ('receiver.ifb0.qdisc=netem
        # loss 1%'), nothing expanded (a sweep's ${a, b} is netsim's)
        mapfile -d '' -t args < <(python3 -c 'import shlex, sys; sys.stdout.write("\0".join(shlex.split(sys.argv[1])) + "\0")' "$cmd")
        "$NETSIM" "${args[@]}" -o "$tmp/q$n.db" < /dev/null > "$tmp/q$n.out" 2> "$tmp/q$n.err"
        check "runs: netsim $cmd" test $? -eq 0
    fi
    k=${ran[$cmd]}
    case $chk in
    sql:*) got=$(q "$tmp/q$k.db" "${chk#sql:}") ;;
    report:*)
        # shellcheck disable=SC2086
        got=$("$NETSIM" report "$tmp/q$k.db" ${chk#report:} 2>&1 | squeeze) ;;
    stdout) got=$(squeeze < "$tmp/q$k.out") ;;
    *) got="unknown check kind '$chk'" ;;
    esac
    if [ "${chk%%:*}" = sql ]; then
        check "$doc: $quote ($cmd: $want)" test "$got" = "$want"
    else
        check "$doc: $quote ($cmd: '$want')" grep -qF -- "$(printf '%s' "$want" | squeeze)" <<<"$got"
    fi
    [ "$got" = "$want" ] || [ "${chk%%:*}" != sql ] || echo "#   got '$got'"
done < docs/figures/quoted.tsv

# ---- the README's first scenario, sweep and report, as written
awk '/^## A first scenario/ { s = 1 } s && /^```ini/ { f = 1; next } f && /^```/ { exit } f' README.md > "$tmp/my_path.ini"
check "README's first scenario is in an ini block" grep -q '^\[flow 1\]' "$tmp/my_path.ini"
"$NETSIM" run "$tmp/my_path.ini" -o "$tmp/my_path.db" > "$tmp/my_path.out" 2>&1
check "README's first scenario runs" test $? -eq 0
# the output lines the README shows after its ./netsim run block
# (the fences after it: the sh block's end, the output's start and end)
awk '/^\.\/netsim run my_path.ini/ { s = 1 } s && /^```/ { if (++c == 3) exit; next } c == 2 && $0 != "..." { print }' \
    README.md > "$tmp/shown"
check "README shows output of its first scenario" test -s "$tmp/shown"
while IFS= read -r line; do
    check "README's first scenario prints: $line" grep -qF -- "$line" "$tmp/my_path.out"
done < "$tmp/shown"
sweep=$(grep -m1 '^\./netsim sweep my_path.ini' README.md | sed 's/^\.\/netsim //; s/ -o results\/my_sweep.db//; s/my_path.ini/'"${tmp//\//\\/}"'\/my_path.ini/')
eval "set -- $sweep"
"$NETSIM" "$@" -q -o "$tmp/my_sweep.db" > /dev/null 2>&1
check "README's sweep runs" test $? -eq 0
"$NETSIM" report "$tmp/my_sweep.db" > "$tmp/report.out" 2>&1
awk '/^cc +n +goodput/ { f = 1 } f && /^```/ { exit } f' README.md > "$tmp/rshown"
check "README shows the report" test -s "$tmp/rshown"
while IFS= read -r line; do
    check "README's report prints: $line" grep -qF -- "$line" "$tmp/report.out"
done < "$tmp/rshown"

# ---- every key a run resolved is documented: the TCP flow keys on the TCP
# page, every key of every run above somewhere in docs/models/ or usage.md
keys() {    # keys DB [SECTION_PREFIX]: key names, section and direction stripped
    q "$1" "select distinct key from param where key like '${2:-}%'" |
        grep -vE '^(label|axis)\.' | sed -E 's/^([a-z]+ )?[^. ]+\.//; s/^(fwd|rev)\.//' | sort -u
}
tcpdb=$tmp/q${ran["run scenarios/tcp_drs.ini --set sim.repeat=1 --set receiver.tcp.drs=trimodal --set 1.trace_interval=10ms"]:-0}.db
for db in "$tcpdb" "$tmp/my_path.db"; do
    [ -f "$db" ] || continue
    for k in $(q "$db" "select distinct substr(key, 3) from param p where key like '1.%'
                         and exists (select 1 from param a where a.run_id = p.run_id and a.key = '1.app' and a.value like 'tcp%')"); do
        check "docs/models/tcp.md documents the TCP flow key $k" grep -qF "\`$k\`" docs/models/tcp.md
    done
done
cat docs/models/*.md docs/usage.md > "$tmp/alldocs"
missing=""
for db in "$tmp"/q*.db "$tmp/my_path.db"; do
    for k in $(keys "$db"); do
        grep -qF "\`$k\`" "$tmp/alldocs" || case " $missing " in *" $k "*) ;; *) missing="$missing $k" ;; esac
    done
done
check "every key the runs above resolved is in docs/models/ or docs/usage.md${missing:+ (missing:$missing)}" test -z "$missing"

# ---- every key the docs set is a key: the ini blocks and --set examples
# of README.md and docs/ (adding-a-variant.md builds a variant of its own,
# whose keys this netsim lacks); fwd./rev., class.MINOR, filter.N,
# cost.SYMBOL, IFB.qdisc and PORT.ingress as `netsim keys` spells them
{ "$NETSIM" keys --names; "$NETSIM" keys | grep -oE '^  [A-Za-z][a-z0-9_.]*[A-Z][A-Za-z_.]*' | sed 's/^  //'; } |
    sort -u > "$tmp/keynames"
unknown=""
for f in README.md $(find docs -name '*.md' ! -name adding-a-variant.md | sort); do
    while read -r k; do
        kk=$(sed -E 's/^(fwd|rev)\.//; s/^class\.[0-9a-f]+$/class.MINOR/; s/^filter\.[0-9]+$/filter.N/; s/^cost\.[A-Za-z0-9_.]+$/cost.SYMBOL/; s/^ifb[0-9]+\.qdisc$/IFB.qdisc/; s/^eth[0-9]+\.ingress$/PORT.ingress/' <<<"$k")
        grep -qxF "$kk" "$tmp/keynames" || unknown="$unknown $f:$k"
    done < <(awk '/^```ini/ { b = 1; next } /^```/ { b = 0 } b && /^ *[a-z][a-z0-9_.:]* *=/ { k = $1; sub(/=.*/, "", k); print k }' "$f"
             grep -oE -- '--set [a-z0-9_]+\.[a-z0-9_.]+=' "$f" | sed -E 's/^--set [a-z0-9_]+\.//; s/=$//')
done
check "every key README.md and docs/ set in an ini block or a --set is one netsim knows${unknown:+ (unknown:$unknown)}" test -z "$unknown"

# ---- links, pointers, length
mds=(README.md $(find docs -name '*.md' | sort))
bad=""
for f in "${mds[@]}"; do
    d=$(dirname "$f")
    # [text](target): relative targets only; an anchor is not checked
    while IFS= read -r t; do
        t=${t%%#*}
        [ -n "$t" ] || continue
        [ -e "$d/$t" ] || bad="$bad $f:$t"
    done < <(grep -oE '\]\([^)]+\)' "$f" | sed 's/^](//; s/)$//' | grep -vE '^(https?|mailto):')
done
check "every relative link in README.md and docs/ resolves${bad:+ (broken:$bad)}" test -z "$bad"
# the pattern in pieces, so that this file does not match itself
pat='\.\./shar''ed|shar''ed/models'
if git rev-parse --git-dir > /dev/null 2>&1; then
    hits=$(git grep -nE "$pat" 2>/dev/null | head -5)
else
    hits=$(grep -rnE "$pat" --exclude-dir=build --exclude-dir=results . | head -5)
fi
check "no tracked file points outside the repository${hits:+: $hits}" test -z "$hits"
spec='VA[0-9]|seeds/[0-9]|(sctp|tcp|ipfrag|nic)\.md (§|[A-B]?\.?[0-9])'
hits=$(grep -nE "$spec" "${mds[@]}" | head -5)
check "README.md and docs/ cite no spec sections${hits:+: $hits}" test -z "$hits"
hits=$("$NETSIM" models 2>&1 | grep -E "$spec|seeds? 00[0-9]|[a-z]\.md [0-9]" | head -3)
check "netsim models points to no document outside docs/${hits:+: $hits}" test -z "$hits"
lines=$(wc -l < README.md)
check "README.md is a quickstart of at most 150 lines ($lines)" test "$lines" -le 150
