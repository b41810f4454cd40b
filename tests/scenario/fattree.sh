#!/usr/bin/env bash
# The k = 4 fat-tree of docs/usage.md ("Templates"), taken from the page:
# its templates make 16 hosts and 20 switches wired as Al-Fares et al.'s
# fat-tree; with a flow from every host to one in another pod, every flow
# delivers, no host lacks a route, every core switch carries traffic, and
# what goes up to the core is what the core forwards (each inter-pod
# packet crosses one core switch; those on the links at the end aside).
. "$(dirname "$0")/common.bash"

awk '/^A k = 4$/ || /A k = 4/ { on = 1 } on && /^    / { sub(/^    /, ""); print; got = 1; next } got && !/^    / { exit }' \
    docs/usage.md > "$tmp/ft.body"
check "usage.md has the fat-tree's templates ($(wc -l < "$tmp/ft.body") lines)" grep -q '^\[link ac{1..16}\]' "$tmp/ft.body"
{ printf '[sim]\nduration = 50ms\ninterval = 10ms\n'; cat "$tmp/ft.body"
  printf '[flow {1..16}]\napp = tcp_stream\nfrom = h{}\nto = h{(n+7)%%16+1}\n'; } > "$tmp/ft.ini"
"$NETSIM" run "$tmp/ft.ini" -q -o "$tmp/ft.db" > "$tmp/ft.out" 2>&1
check "the fat-tree runs" test $? -eq 0
sum() { q "$tmp/ft.db" "select coalesce(sum(value), 0) from counter where name glob '$1'"; }
check "16 hosts and 20 switches (8 edge, 8 aggregation, 4 core)" test \
    "$(q "$tmp/ft.db" "select count(distinct substr(name, 1, instr(name, '.') - 1)) from counter where name glob '*.ip_forwarded'")" = 36
# the wiring: every edge and aggregation switch has 2 ports down and 2 up,
# every core switch one port to each of the 4 pods, every host one port
ports() {   # ports GLOB: "switch:ports" of each switch, its ports counted by their rx_missed rows
    q "$tmp/ft.db" "select group_concat(sw || ':' || n, ' ') from (select sw, count(*) as n from
                    (select substr(name, 1, instr(name, '.') - 1) as sw from counter where name glob '$1.rx_missed')
                    group by sw order by sw)"
}
two() { local i w=""; for i in 1 2 3 4 5 6 7 8; do w="$w $1$i:2"; done; echo "${w# }"; }
check "each edge switch has 2 ports down" test "$(ports 'e*.dn*')" = "$(two e)"
check "... and 2 up" test "$(ports 'e*.up*')" = "$(two e)"
check "each aggregation switch 2 down and 2 up" test "$(ports 'a*.dn*') $(ports 'a*.up*')" = "$(two a) $(two a)"
check "each core switch a port to each of the 4 pods" test "$(ports 'c*.p*')" = "c1:4 c2:4 c3:4 c4:4"
check "every flow delivers" test "$(q "$tmp/ft.db" "select count(distinct flow) from interval where bytes > 0")" = 16
check "no host lacks a route" test "$(sum '*.ip_no_route')" = 0
for c in 1 2 3 4; do
    check "core switch c$c forwards ($(sum "c$c.ip_forwarded") packets)" test "$(sum "c$c.ip_forwarded")" -gt 0
done
# up the tree and through the core once: what the aggregation switches send
# up is what the core forwards, less what is on those links at the end
aup=$(sum 'a*.up*.q*.tx_packets') eup=$(sum 'e*.up*.q*.tx_packets') core=$(sum 'c*.ip_forwarded')
check "the core forwards what the aggregation switches send up: $core of $aup" \
    awk -v c="$core" -v a="$aup" 'BEGIN { exit !(c <= a && c >= 0.99 * a) }'
check "and they send up no more than the edges gave them ($aup of $eup)" test "$aup" -le "$eup"
check "intra-pod packets do not: the edges forward more than the core" test "$(sum 'e*.ip_forwarded')" -gt "$core"
