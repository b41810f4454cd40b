#!/usr/bin/env bash
# The tree's walls (tools/check-includes): the real tree keeps them, and
# the check fails, naming file:line, when an include crosses one: the
# engine reaching an output or the loader, a model reaching the loader or
# another family, the loader reaching an output.
. "$(dirname "$0")/common.bash"

tools/check-includes > "$tmp/tree.out" 2>&1
check "the tree keeps its walls" test $? -eq 0 -a ! -s "$tmp/tree.out"

# crosses NAME FILE INCLUDE WHY: a copy of the tree with INCLUDE added to
# FILE fails the check with FILE:LINE and WHY
crosses() {
    local n=$1 f=$2 inc=$3 why=$4 rc
    rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r sim models "$tmp/t/"
    printf '#include "%s"\n' "$inc" >> "$tmp/t/$f"
    local line
    line=$(wc -l < "$tmp/t/$f")
    tools/check-includes "$tmp/t" > "$tmp/$n.out" 2>&1; rc=$?
    check "$n: fails the check" test $rc -eq 1
    check "$n: names $f:$line" grep -qF "$f:$line: includes \"$inc\": $why" "$tmp/$n.out"
}
crosses "engine -> output" sim/nic.c sim/out/record.h "the engine may include only engine headers"
crosses "engine -> loader" sim/sim.h sim/load/units.h "the engine may include only engine headers"
crosses "engine -> command line" sim/ip.c sim/cli/runner.h "the engine may include only engine headers"
crosses "model -> loader" models/tcp/cc_cubic.c sim/load/units.h "a model may include the engine"
crosses "model -> another family" models/tcp/drs.c models/sctp/sctp.h "a model may include the engine"
crosses "loader -> output" sim/load/scenario.c sim/out/report.h "the loader may include the engine and sim/load/"
crosses "output -> loader" sim/out/report.c sim/load/units.h "an output may include the engine and sim/out/"

# an out-of-tree variant folder (EXTRA_MODELS) is held to a model's wall
mkdir -p "$tmp/extra"
printf '#include "sim/sim.h"\n#include "models/tcp/tcp.h"\n' > "$tmp/extra/drs_x.c"
tools/check-includes . "$tmp/extra" > "$tmp/extra.out" 2>&1
check "an EXTRA_MODELS variant may include the engine and a family" test $? -eq 0
printf '#include "sim/out/record.h"\n' >> "$tmp/extra/drs_x.c"
tools/check-includes . "$tmp/extra" > "$tmp/extra2.out" 2>&1
check "an EXTRA_MODELS variant may not include an output" test $? -eq 1
