#!/usr/bin/env bash
# Scenario templates: a section named with a range ([host s{1..8}],
# [link l{1..8}]) is one section a number, "{}" in its values that
# number; a host list takes ranges (incast's servers = s{1..8}); a sweep
# axis may hold them; a template's copies of one lockstep axis fold into
# their root's column. Bad ranges are errors at their line. "{EXPR}", an
# integer expression over the section's number n, wires a leaf-spine
# fabric; a bad one is an error at its line, naming the section.
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
# one combination alone: --set AXIS=VALUE keeps that value of the axis,
# and the template's lockstep copies follow it (the same rows as the full
# sweep's run of that combination)
"$NETSIM" sweep "$tmp/s.ini" --set cc=dctcp --set 'n=s{1..8}' -o "$tmp/pick.db" -q > "$tmp/pick.out" 2>&1
check "--set cc=dctcp --set n=s{1..8}: one run, labelled so" \
    test "$(q "$tmp/pick.db" "select count(*) || ' ' || variant_label from run")" = "1 cc=dctcp,n=s{1..8}"
check "... its servers on dctcp, its messages the full sweep's run 4's" test \
    "$(q "$tmp/pick.db" "select count(*) from param where key glob 's[1-8].tcp.cc' and value = 'dctcp'")
$(q "$tmp/pick.db" "select group_concat(kind || size || printf('%.9f', t_end), ' ') from (select * from message order by id, kind)")" = \
    "8
$(q "$tmp/s.db" "select group_concat(kind || size || printf('%.9f', t_end), ' ') from (select * from message where run_id = 4 order by id, kind)")"
"$NETSIM" sweep "$tmp/s.ini" --set cc=bbr -o "$tmp/pick2.db" > "$tmp/pick2.out" 2>&1
check "--set cc=bbr, not a value of the axis: an error naming its values, nothing run" \
    grep -q -- "--set cc=bbr: not one of the axis's values: cubic, dctcp" "$tmp/pick2.out"
"$NETSIM" sweep "$tmp/s.ini" --set s3.tcp.cc=dctcp --set nope=1 -o "$tmp/pick3.db" > "$tmp/pick3.out" 2>&1
check "--set nope=1: no such axis, the axes named" grep -q -- "--set nope=1: no axis of that name; the axes to pick from: cc, n" "$tmp/pick3.out"

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

# {EXPR}: 128 hosts on 8 leaves of 16, each leaf with an uplink to each
# of 4 spines, written with arithmetic on n; flow 1 is a template too, its
# server list a range
cat > "$tmp/ls.ini" <<'EOI'
[sim]
duration = 50ms
seed = 1
[link h{1..128}]
ends = h{}:eth0 leaf{(n-1)/16+1}:eth{(n-1)%16}
rate = 1gbit
[link up{1..32}]
ends = leaf{(n-1)/4+1}:eth{16+(n-1)%4} spine{(n-1)%4+1}:eth{(n-1)/4}
rate = 10gbit
[flow {1..1}]
app = incast
from = h{n*128}
to = h{}
servers = h{1..16}
block = 64K
rounds = 3
EOI
"$NETSIM" run "$tmp/ls.ini" -o "$tmp/ls.db" -q > "$tmp/ls.out" 2>&1
check "{EXPR}: the leaf-spine fabric runs" test $? -eq 0
ends() { q "$tmp/ls.db" "select value from param where key = '$1.ends'"; }
check "{EXPR}: h17 on leaf 2's first port" test "$(ends h17)" = "h17:eth0 leaf2:eth0"
check "... h16 on leaf 1's last, h128 on leaf 8's" test "$(ends h16) $(ends h128)" = \
    "h16:eth0 leaf1:eth15 h128:eth0 leaf8:eth15"
check "... up1 from leaf 1's first uplink to spine 1's first port" test "$(ends up1)" = "leaf1:eth16 spine1:eth0"
check "... up32 from leaf 8's fourth uplink to spine 4's eighth port" test "$(ends up32)" = "leaf8:eth19 spine4:eth7"
q "$tmp/ls.db" "select value from param where key glob 'h*.ends' or key glob 'up*.ends'" | tr ' ' '\n' |
    grep -v '^h' | sort > "$tmp/ports"
check "... 192 switch ports, each used once: 20 a leaf, 8 a spine" test \
    "$(wc -l < "$tmp/ports") $(sort -u "$tmp/ports" | wc -l) $(grep -c '^leaf8:' "$tmp/ports") $(grep -c '^spine3:' "$tmp/ports")" = \
    "192 192 20 8"
check "... a template flow: from = h{n*128} is h128" test \
    "$(q "$tmp/ls.db" "select value from param where key = '1.from'")" = h128
check "... its servers = h{1..16} stays a range: rounds of 16 blocks" test \
    "$(q "$tmp/ls.db" "select group_concat(n, ' ') from (select count(*) n from message where kind = 'block' group by t_start)")" = "16 16 16"

# a bad {EXPR}: an error at the key's line naming the section made, and
# nothing runs (the fabric above runs without it)
bad_expr() {   # bad_expr NAME EXPR TEXT K: "[link xK] ends: '{EXPR}'TEXT"
    { cat "$tmp/ls.ini"; printf '[link x{1..4}]\nends = x{}:eth0 sw:eth{%s}\n' "$2"; } > "$tmp/x.ini"
    local n rc
    n=$(wc -l < "$tmp/x.ini")
    "$NETSIM" run "$tmp/x.ini" -o "$tmp/x.db" > "$tmp/x.out" 2>&1
    rc=$?
    check "$1" grep -qF "x.ini:$n: [link x$4] ends: '{$2}'$3" "$tmp/x.out"
    check "... exit 2, one error, nothing run" test $rc -eq 2 -a "$(grep -c "1 error; nothing was run" "$tmp/x.out")" -eq 1
}
bad_expr "{EXPR}: division by zero, for x1" "n/0" ": division by zero: 1 / 0" 1
bad_expr "{EXPR}: remainder by zero, for x3" "n%(n-3)" ": remainder by zero: 3 % 0" 3
bad_expr "{EXPR}: a syntax error says what was expected where" "(n" ": expected ')' before '}'" 1
bad_expr "{EXPR}: a negative result" "n-5" " is -4 for n = 1: a template's number cannot be negative" 1
bad_expr "{EXPR}: an overflow" "n*99999999999*99999999999" \
    ": overflow: 99999999999 * 99999999999 does not fit in a long (64 bits)" 1
