#!/usr/bin/env bash
# Runs every bundled scenario that has no database in results/ yet, so
# that `make plots` has something to draw: `netsim sweep` for scenarios
# with ${...} axes, `netsim run` for the others. Existing databases are
# kept as they are (delete one to have it made again).
set -u
netsim=${1:-./netsim}
mkdir -p results
for sc in scenarios/*.ini; do
    stem=$(basename "$sc" .ini)
    db=results/$stem.db
    if [ -e "$db" ]; then
        echo "$db: present, kept"
        continue
    fi
    if grep -q '\${' "$sc"; then
        echo "$sc: sweeping into $db ($("$netsim" sweep "$sc" --dry-run | grep -c '^run') runs)"
        "$netsim" sweep "$sc" -o "$db" -q || echo "$sc: sweep failed (exit $?)" >&2
    else
        echo "$sc: running into $db"
        "$netsim" run "$sc" -o "$db" -q > /dev/null || echo "$sc: run failed (exit $?)" >&2
    fi
done
