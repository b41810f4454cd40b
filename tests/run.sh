#!/usr/bin/env bash
# Runs every unit test binary and every scenario test, then prints the
# total as "N passed, N failed". Usage: tests/run.sh BUILD_DIR NETSIM
set -u
build=${1:-build}
netsim=${2:-./netsim}
passed=0
failed=0
failures=()

for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    out=$("$t" 2>&1)
    rc=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1    # crashed or aborted before cmocka's summary
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -ne 0 ]; then
        failures+=("$(basename "$t")")
        printf '%s\n' "$out" | grep -E 'FAILED|ERROR|error|Assert|Sanitizer|runtime error' | head -20
    fi
    printf '%-28s %3d passed, %d failed\n' "$(basename "$t")" "$p" "$f"
done

# Scenario tests: each script prints "ok NAME" or "not ok NAME" lines.
for s in tests/scenario/*.sh; do
    [ -f "$s" ] || continue
    out=$(NETSIM="$netsim" bash "$s" 2>&1)
    p=$(printf '%s\n' "$out" | grep -c '^ok ')
    f=$(printf '%s\n' "$out" | grep -c '^not ok ')
    passed=$((passed + p))
    failed=$((failed + f))
    printf '%s\n' "$out" | grep -A8 '^not ok ' || true
    if [ "$f" -ne 0 ]; then failures+=("$(basename "$s")"); fi
    printf '%-28s %3d passed, %d failed\n' "$(basename "$s")" "$p" "$f"
done

[ ${#failures[@]} -eq 0 ] || echo "failing: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
