# Sourced by the scenario tests, which tests/run.sh runs under prove.
# Makes the script a TAP producer: each ok/notok/check is one test,
# "ok N - NAME" or "not ok N - NAME" with its reason on "# " lines, and the
# plan "1..N" is printed at exit. The exit status is the script's own if it
# stopped on an error (exit 3, set -u, a signal), else non-zero if a test
# failed, so prove fails a script that passes its checks and then dies.
# A scratch directory $tmp is removed at exit. Do not replace the EXIT trap
# (without the plan prove fails the script): a script that needs more
# cleaning up defines tap_cleanup, which runs before $tmp is removed.
set -u
NETSIM=${NETSIM:-./netsim}
tmp=$(mktemp -d)
# The count lives in a file so that checks run in a subshell (a pipeline,
# a $(...)) still get their own number and count towards the plan.
_tap=$(mktemp -d)
: > "$_tap/log"

_tap_line() {   # _tap_line "ok"|"not ok" NAME
    local n name=${2//$'\n'/ }
    echo "$1" >> "$_tap/log"
    n=$(wc -l < "$_tap/log")
    printf '%s %d - %s\n' "$1" "$n" "${name//#/\\#}"
}
ok() { _tap_line ok "$1"; }
# skip REASON [NAME]: a test that cannot run here, in TAP's words ("ok N -
# NAME # SKIP REASON"), which prove counts as skipped, not passed (ok's
# escaping of '#' made "# SKIP" in a name a pass)
skip() {
    local n name=${2:-}
    echo ok >> "$_tap/log"
    n=$(wc -l < "$_tap/log")
    name=${name//$'\n'/ }
    printf 'ok %d - %s # SKIP %s\n' "$n" "${name//#/\\#}" "${1//#/\\#}"
}
notok() {
    _tap_line "not ok" "$1"
    shift
    local l
    for l in "$@"; do [ -z "$l" ] || printf '%s\n' "$l" | sed 's/^/#   /'; done
}
# check NAME CMD...: ok if CMD succeeds; its output is shown only if it fails
check() {
    local name=$1
    shift
    if "$@" > "$_tap/out" 2>&1; then ok "$name"; else notok "$name" "failed: $*" "$(head -30 "$_tap/out")"; fi
}
q() { sqlite3 "$1" "$2"; }
# float comparison: X within [LO, HI]
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

_tap_end() {
    local rc=$? n failed
    n=$(wc -l < "$_tap/log")
    failed=$(grep -c '^not ok' "$_tap/log")
    if [ "$n" -eq 0 ]; then
        echo "not ok 1 - the script ran at least one test"
        n=1 failed=1
    fi
    echo "1..$n"
    [ "$rc" -eq 0 ] || echo "# $(basename "$0") exited with status $rc after $n tests"
    ! declare -F tap_cleanup > /dev/null || tap_cleanup
    rm -rf "$tmp" "$_tap"
    [ "$rc" -ne 0 ] && exit "$rc"
    [ "$failed" -eq 0 ] || exit 1
    exit 0
}
trap _tap_end EXIT
