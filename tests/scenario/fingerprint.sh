#!/usr/bin/env bash
# The fingerprint test: every bundled scenario, and every combination of
# each sweep, gives the rows it gave when tests/fingerprints.txt was last
# written (tools/fingerprint says how they are made). A change meant to
# move results runs `tools/fingerprint --update` in its own commit and says
# there what moved and why.
. "$(dirname "$0")/common.bash"

tools/fingerprint "$NETSIM" > "$tmp/now.txt" 2> "$tmp/err"
check "fingerprint runs complete" test $? -eq 0 -a -s "$tmp/now.txt"
check "as many runs as tests/fingerprints.txt" test "$(wc -l < "$tmp/now.txt")" -eq "$(wc -l < tests/fingerprints.txt)"
while read -r sc label hash; do
    got=$(awk -v s="$sc" -v l="$label" '$1 == s && $2 == l { print $3 }' "$tmp/now.txt")
    check "fingerprint $sc $label" test "$got" = "$hash"
done < tests/fingerprints.txt
