#!/usr/bin/env bash
# Runs every unit test binary (cmocka, TAP output) and every scenario test
# (tests/scenario/*.sh, TAP through common.bash) under prove, which fails a
# test that reports a failure, exits non-zero, dies on a signal or prints
# fewer tests than its plan. Ends with prove's summary; exit status 0 only
# if every test passed.
# Usage: tests/run.sh [BUILD_DIR [NETSIM [TEST...]]]: TEST defaults to all.
set -u
if [ "${1:-}" = --one ]; then
    # prove's --exec: a scenario script need not be executable; cmocka's
    # closing "# ok - GROUP" is noise among --comments
    case $2 in
        *.sh) exec bash "$2" ;;
        *) set -o pipefail; "$2" | sed '/^# ok - /d'; exit ;;
    esac
fi
build=${1:-build}
export NETSIM=${2:-./netsim}
shift $(($# < 2 ? $# : 2))
export CMOCKA_MESSAGE_OUTPUT=TAP
if [ $# -eq 0 ]; then
    set -- "$build"/tests/test_* tests/scenario/*.sh
fi
# --comments: the "# " lines carry why a test failed; -j: the tests are
# independent (each its own temporary directory), so TEST_JOBS of them run
# at once (default: the machine's cores)
exec prove --failures --comments -j "${TEST_JOBS:-$(nproc)}" --exec "$0 --one" "$@"
