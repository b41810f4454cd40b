#!/usr/bin/env bash
# Self-test of the test harness: tests/run.sh on throw-away tests must fail
# each way a test can fail (a pass then exit 3, set -u, a signal, fewer
# tests than planned, a failed or aborted cmocka test) and pass a good one.
. "$(dirname "$0")/common.bash"

common=$PWD/tests/scenario/common.bash
# script NAME BODY: a scenario script in $tmp that sources common.bash
script() { printf '. "%s"\n%s\n' "$common" "$2" > "$tmp/$1.sh"; }
# harness NAME FILE...: run the harness on FILEs, output in $tmp/NAME.out
harness() { local n=$1; shift; tests/run.sh build "$NETSIM" "$@" > "$tmp/$n.out" 2>&1; }
# fails NAME WHY FILE...: the harness exits non-zero, says FAIL and WHY
fails() {
    local n=$1 why=$2 rc
    shift 2
    harness "$n" "$@"; rc=$?
    if [ $rc -ne 0 ] && grep -q '^Result: FAIL' "$tmp/$n.out" && grep -qF -- "$why" "$tmp/$n.out"; then ok "harness fails: $n"
    else notok "harness fails: $n" "exit $rc, expected non-zero, 'Result: FAIL' and '$why'" "$(cat "$tmp/$n.out")"; fi
}

script pass 'check "true succeeds" true
ok "a second test"'
script exit3 'ok "reported a pass"
exit 3'
script unbound 'ok "reported a pass"
echo "$no_such_variable"'
script killed 'ok "reported a pass"
kill -KILL $$'
script notok 'ok "one pass"
check "false succeeds" false'
script none ':'
printf 'echo 1..3\necho ok 1 - first\necho ok 2 - second\n' > "$tmp/short.sh"

harness pass "$tmp/pass.sh"
check "harness passes a good script" grep -q '^Result: PASS' "$tmp/pass.out"
check "harness counts its tests" grep -q '^Files=1, Tests=2,' "$tmp/pass.out"
fails exit3 "Non-zero exit status: 3" "$tmp/exit3.sh"
fails unbound "Non-zero exit status: 1" "$tmp/unbound.sh"
fails killed "No plan found" "$tmp/killed.sh"
fails notok "Failed test:  2" "$tmp/notok.sh"
fails no-tests "Failed test:  1" "$tmp/none.sh"
fails short-plan "Bad plan.  You planned 3 tests but ran 2." "$tmp/short.sh"
# one bad file among good ones fails the run
fails mixed "Non-zero exit status: 3" "$tmp/pass.sh" "$tmp/exit3.sh" "$tmp/pass.sh"

# cmocka binaries: TAP through CMOCKA_MESSAGE_OUTPUT, a failure and an abort
cat > "$tmp/cm.c" <<'C'
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
static void one(void **s) { (void)s; assert_int_equal(1, 1); }
static void two(void **s) { (void)s; if (getenv("CM_FAIL")) assert_int_equal(1, 2); if (getenv("CM_ABORT")) abort(); }
int main(void)
{
    const struct CMUnitTest t[] = { cmocka_unit_test(one), cmocka_unit_test(two), cmocka_unit_test(one) };
    return cmocka_run_group_tests(t, NULL, NULL);
}
C
if ${CC:-cc} -o "$tmp/cm" "$tmp/cm.c" -lcmocka > "$tmp/cc.out" 2>&1; then
    harness cm-pass "$tmp/cm"
    check "harness passes a good cmocka binary (3 tests)" grep -q '^Files=1, Tests=3,' "$tmp/cm-pass.out"
    CM_FAIL=1 fails cm-fail "Failed test:  2" "$tmp/cm"
    CM_ABORT=1 fails cm-abort "Bad plan.  You planned 3 tests but ran 1." "$tmp/cm"
else
    notok "compile a cmocka test" "$(cat "$tmp/cc.out")"
fi
