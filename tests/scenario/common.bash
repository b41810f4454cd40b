# Sourced by the scenario tests (not run on its own: tests/run.sh runs *.sh).
# A scratch directory removed at exit, and the "ok NAME" / "not ok NAME"
# reporting that tests/run.sh counts.
set -u
NETSIM=${NETSIM:-./netsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok $1"; }
notok() { echo "not ok $1"; shift; printf '    %s\n' "$@"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name" "failed: $*"; fi; }
q() { sqlite3 "$1" "$2"; }
# float comparison: X within [LO, HI]
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
