#!/usr/bin/env bash
# A share of the physics matrix (tools/physics-matrix, whose header says
# what each cell is held to): eight cells spread over it, each at its
# start-up and a short steady state. make check-physics runs every cell
# at full length, make check-arith every cell under the arithmetic checks.
. "$(dirname "$0")/common.bash"

out=$(tools/physics-matrix --netsim "$NETSIM" -j 1 --quick --subset 8 2>&1)
rc=$?
check "tools/physics-matrix --quick --subset 8: every cell holds" test $rc -eq 0 -a -n "$(grep -c '^ok ' <<<"$out")"
[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
# a cell is held to physics: a netsim whose frames went faster than the
# wire fails it (a fake netsim that claims twice the line's goodput)
fake=$tmp/fake-netsim
cat > "$fake" <<FAKE
#!/usr/bin/env bash
"$NETSIM" "\$@" || exit
db=\${@: -1}
sqlite3 "\$db" "update interval set bytes = bytes * 2"
FAKE
chmod +x "$fake"
tools/physics-matrix --netsim "$fake" -j 1 --quick --only cell021 > "$tmp/fake.out" 2>&1
check "a run that claims twice the line fails its cell" grep -q "above the frame-limited" "$tmp/fake.out"
