#!/usr/bin/env bash
# Scenario templates: a section named with a range ([host s{1..8}],
# [link l{1..8}]) is one section a number, "{}" in its values that
# number; a host list takes ranges (incast's servers = s{1..8}); a sweep
# axis may hold them; a template's copies of one lockstep axis fold into
# their root's column. Bad ranges are errors at their line.
. "$(dirname "$0")/common.bash"

star() {   # star FILE [servers-value]
    cat > "$1" <<EOI
[sim]
duration = 50ms
seed = 1
[host c]
tcp.cc = \${cc=cubic, dctcp}
[host s{1..8}]
route.rto_min = 1ms
tcp.cc = \${cubic, dctcp ! cc}
[link up]
ends = c:eth0 sw:eth0
rate = 1gbit
[link l{1..8}]
ends = s{}:eth0 sw:eth{}
rate = 1gbit
[flow 1]
app = incast
from = c
to = s1
servers = ${2:-s{1..8\}}
block = 64K
rounds = 3
EOI
}
star "$tmp/t.ini"
sed -i 's/^tcp.cc = .*//' "$tmp/t.ini"
"$NETSIM" run "$tmp/t.ini" -o "$tmp/t.db" -q > "$tmp/t.out" 2>&1
check "a template's sections: eight hosts, each with its keys" test \
    "$(q "$tmp/t.db" "select count(*) from param where key glob 's[1-8].route.rto_min' and value = '1ms'")" = 8
check "{} is the section's number: l8's ends" test "$(q "$tmp/t.db" "select value from param where key = 'l8.ends'")" = \
    "s8:eth0 sw:eth8"
check "servers = s{1..8}: rounds of 8 blocks" test \
    "$(q "$tmp/t.db" "select group_concat(n, ' ') from (select count(*) n from message where kind = 'block' group by t_start)")" = "8 8 8"

star "$tmp/s.ini" '${n=s{1..2}, s{1..8}}'
"$NETSIM" sweep "$tmp/s.ini" -o "$tmp/s.db" -q > "$tmp/s.out" 2>&1
check "an axis of ranges: rounds of 2 and of 8 blocks" test \
    "$(q "$tmp/s.db" "select group_concat(value) from (select distinct value from param where key = 'axis.n' order by value)")" = "s{1..2},s{1..8}"
check "the template's eight lockstep copies fold: two axes recorded a run" test \
    "$(q "$tmp/s.db" "select count(*) from param where run_id = 1 and key glob 'axis.*'")" = 2
check "... and the label names cc and n only" test \
    "$(q "$tmp/s.db" "select variant_label from run where id = 4")" = "cc=dctcp,n=s{1..8}"
check "... while every server ran the axis's value" test \
    "$(q "$tmp/s.db" "select count(*) from param where run_id = 4 and key glob 's[1-8].tcp.cc' and value = 'dctcp'")" = 8

bad() {   # bad NAME LINE PATTERN: the scenario with LINE appended fails, PATTERN at that line
    star "$tmp/b.ini"
    printf '%s\n' "$2" >> "$tmp/b.ini"
    local n
    n=$(wc -l < "$tmp/b.ini")
    "$NETSIM" run "$tmp/b.ini" -o "$tmp/b.db" > "$tmp/b.out" 2>&1
    check "$1" grep -q "b.ini:$n: $3" "$tmp/b.out"
}
bad "a range backwards: an error at its line" "[host x{3..1}]" "bad template name .x{3..1}.: the range's first number is above its last"
bad "a range of 5000: refused" "[host x{1..5000}]" "bad template name .*more than 4096 values"
bad "a template that makes an existing section: duplicate" "[host s{8..9}]" "duplicate section \[host s8\]"
bad "not a range: said so" "[host x{a..b}]" "bad template name .*expected {LO..HI}"
star "$tmp/v.ini" "s{1..x}"
sed -i "s/^tcp.cc = .*//" "$tmp/v.ini"
"$NETSIM" run "$tmp/v.ini" -o "$tmp/v.db" > "$tmp/v.out" 2>&1
check "a host list's bad range: an error at the key" grep -q "v.ini:[0-9]*: .*servers: got .s{1..x}.: expected {LO..HI}" "$tmp/v.out"
