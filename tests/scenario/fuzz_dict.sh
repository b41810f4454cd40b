#!/usr/bin/env bash
# The fuzzers follow the key table: every key `netsim keys --names` prints,
# every variant of every family and every qdisc option word is in the
# scenario fuzzers' dictionary, tests/fuzz/scenario.dict, which
# tests/fuzz/make-dict.py writes from `netsim keys`. A new key, family or
# discipline cannot ship unfuzzed: this fails until the dictionary is
# written again. Prints "ok NAME" or "not ok NAME".
. "$(dirname "$0")/common.bash"

dict=tests/fuzz/scenario.dict
again="tests/fuzz/make-dict.py $NETSIM > $dict"
absent() {   # absent WORD...: those not in the dictionary, as an entry's start
    local w
    for w in "$@"; do grep -qF "\"$w" "$dict" || printf ' %s' "$w"; done
}

"$NETSIM" keys --names > "$tmp/names" 2>&1
check "netsim keys --names runs" test $? -eq 0 -a -s "$tmp/names"
# a kernel module's variant and keys (NAME@LABEL, kcompat/) exist only in
# a build with KSRC: the dictionary is the plain build's
m=$(absent $(sort -u "$tmp/names" | grep -v '@'))
check "every key netsim keys --names prints is in $dict${m:+ (missing:$m; $again)}" test -z "$m"

"$NETSIM" keys > "$tmp/keys" 2>&1
variants=$(sed -n 's/^  = \([^ ]*\).*/\1/p' "$tmp/keys" | grep -v '@' | sort -u)
check "netsim keys lists the families' variants ($(echo $variants | wc -w))" test "$(echo $variants | wc -w)" -gt 20
m=$(absent $variants)
check "every variant of every family, each qdisc among them, is in $dict${m:+ (missing:$m; $again)}" test -z "$m"

# a qdisc's options: the lines after its "  = KIND" line, "  WORD = ..."
# or "  class: WORD = ...", aliases split at | and /
opts=$(awk '/^qdisc: /{ on = 1; next } on && /^[^ ]/{ on = 0 } on && /^  (class: )?[a-z_|\/]+ = /{
        sub(/^  (class: )?/, ""); sub(/ = .*/, ""); gsub(/[|\/]/, "\n"); print }' "$tmp/keys" | sort -u)
check "netsim keys qdisc lists the qdiscs' options ($(echo $opts | wc -w))" test "$(echo $opts | wc -w)" -gt 40
m=$(absent $opts)
check "every qdisc option word is in $dict${m:+ (missing:$m; $again)}" test -z "$m"

# the rule bites: a key the table has and the dictionary lacks is named
grep -vF '"duration' "$dict" > "$tmp/short.dict"
dict=$tmp/short.dict
# a kernel module's variant and keys (NAME@LABEL, kcompat/) exist only in
# a build with KSRC: the dictionary is the plain build's
m=$(absent $(sort -u "$tmp/names" | grep -v '@'))
check "a dictionary without duration is caught, naming it" test "$m" = " duration"
