#!/usr/bin/env bash
# Runs libFuzzer harnesses built by `make fuzz`, one after the other, each
# as one process (libFuzzer's default; -jobs=N would fork N workers), with
# the harness's dictionary, input length and timeout. For each NAME:
#   1. every input in tests/fuzz/regressions/NAME (each once crashed it) is
#      run once;
#   2. the fuzzer runs SECONDS over the committed corpus tests/fuzz/corpus/NAME,
#      the regressions and (for the scenario harnesses) scenarios/; what it
#      finds new goes to BUILD/corpus/NAME (kept between runs, not committed),
#      a crash to BUILD/artifacts/NAME/.
# Prints one summary line per harness (time, execs, cov, ft) and exits 1 if
# any harness crashed, leaked, timed out or ran out of memory.
#
#   tests/fuzz/fuzz.sh BUILD SECONDS NAME...      e.g. build-fuzz 60 load run units netem qdisc
# Extra libFuzzer options go in FUZZ_ARGS (e.g. FUZZ_ARGS=-seed=1).
# The command line and its files have a fuzzer of their own, which needs no
# clang: tests/fuzz/cli_fuzz.py (`make fuzz-cli`; its header says what it
# checks), with its regressions in tests/fuzz/regressions/cli.
set -u
cd "$(dirname "$0")/../.."
[ $# -ge 3 ] || { echo "usage: tests/fuzz/fuzz.sh BUILD SECONDS NAME..." >&2; exit 2; }
build=$1 secs=$2
shift 2
failed=0
summary=""
for name in "$@"; do
    bin=$build/fuzz_$name
    [ -x "$bin" ] || { echo "fuzz.sh: no $bin (make fuzz)" >&2; exit 2; }
    # a scenario is a few KB and a run can take a while; a value is one line
    # (the bundled scenarios seed the scenario harnesses as they are)
    seeds=()
    case $name in
        load) opts=(-dict=tests/fuzz/scenario.dict -max_len=8192 -timeout=10) seeds=(scenarios) ;;
        run) opts=(-dict=tests/fuzz/scenario.dict -max_len=8192 -timeout=30) seeds=(scenarios) ;;
        units | netem) opts=(-dict=tests/fuzz/values.dict -max_len=512 -timeout=5) ;;
        qdisc) opts=(-dict=tests/fuzz/scenario.dict -max_len=4096 -timeout=10) ;;
        *) echo "fuzz.sh: unknown harness $name" >&2; exit 2 ;;
    esac
    opts+=(-rss_limit_mb=2048)
    reg=tests/fuzz/regressions/$name
    mkdir -p "$build/corpus/$name" "$build/artifacts/$name" "$reg" "tests/fuzz/corpus/$name"
    log=$build/artifacts/$name/last.log
    rc=0
    mapfile -t cases < <(find "$reg" -type f | sort)
    if [ ${#cases[@]} -gt 0 ]; then
        echo "== fuzz_$name: ${#cases[@]} regression inputs"
        "$bin" "${opts[@]}" -artifact_prefix="$build/artifacts/$name/" "${cases[@]}" > "$log" 2>&1 || rc=$?
        if [ $rc -ne 0 ]; then
            tail -40 "$log"
            echo "fuzz_$name: a regression input fails again (exit $rc); log: $log"
            failed=1
            summary+="fuzz_$name: REGRESSION FAILED"$'\n'
            continue
        fi
    fi
    echo "== fuzz_$name: $secs s"
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$bin" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$build/artifacts/$name/" \
        ${FUZZ_ARGS:-} "$build/corpus/$name" "tests/fuzz/corpus/$name" "$reg" "${seeds[@]}" > "$log" 2>&1 || rc=$?
    took=$(($(date +%s) - start))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    line="fuzz_$name: ${took} s, ${execs:-?} execs, ${cov:-cov: ?}"
    if [ $rc -ne 0 ]; then
        tail -60 "$log"
        line+=", FAILED (exit $rc): input in $build/artifacts/$name/; keep it in $reg once fixed"
        failed=1
    fi
    echo "$line"
    summary+="$line"$'\n'
done
[ $# -gt 1 ] && printf '%s' "$summary"
exit $failed
