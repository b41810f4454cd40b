#!/usr/bin/env bash
# The tree's walls (tools/check-includes), one rule per folder: the real
# tree keeps them, and the check fails, naming file:line, when an include
# crosses one: the engine reaching a sink, the loader or the command line,
# a model reaching the loader or another family, the loader and the sinks
# reaching each other, the command line reaching a model; and a folder
# inside the engine is refused.
. "$(dirname "$0")/common.bash"

tools/check-includes > "$tmp/tree.out" 2>&1
check "the tree keeps its walls" test $? -eq 0 -a ! -s "$tmp/tree.out"

# crosses NAME FILE INCLUDE WHY: a copy of the tree with INCLUDE added to
# FILE fails the check with FILE:LINE and WHY
crosses() {
    local n=$1 f=$2 inc=$3 why=$4 rc
    rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r sim load sinks cli models "$tmp/t/"
    printf '#include "%s"\n' "$inc" >> "$tmp/t/$f"
    local line
    line=$(wc -l < "$tmp/t/$f")
    tools/check-includes "$tmp/t" > "$tmp/$n.out" 2>&1; rc=$?
    check "$n: fails the check" test $rc -eq 1
    check "$n: names $f:$line" grep -qF "$f:$line: includes \"$inc\": $why" "$tmp/$n.out"
}
crosses "engine -> sink" sim/nic.c sinks/record.h "the engine may include only engine headers"
crosses "engine -> loader" sim/sim.h load/load.h "the engine may include only engine headers"
crosses "engine -> command line" sim/ip.c cli/runner.h "the engine may include only engine headers"
crosses "model -> loader" models/tcp/cc_cubic.c load/load.h "a model may include the engine"
crosses "model -> another family" models/tcp/drs.c models/sctp/sctp.h "a model may include the engine"
crosses "registry -> a family" models/registry.c models/tcp/tcp.h "a model may include the engine"
crosses "loader -> sink" load/scenario.c sinks/report.h "the loader may include the engine and load/"
crosses "loader -> command line" load/sweep.c cli/runner.h "the loader may include the engine and load/"
crosses "sink -> loader" sinks/report.c load/load.h "a sink may include the engine and sinks/"
crosses "sink -> command line" sinks/record.c cli/stats.h "a sink may include the engine and sinks/"
crosses "command line -> model" cli/keys_cmd.c models/tcp/tcp.h "the command line may include the engine, load/, sinks/, drill/ and cli/"

# a folder inside the engine (or another wall) is refused, naming the file
rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r sim load sinks cli models "$tmp/t/"
mkdir -p "$tmp/t/sim/load" && printf 'int x;\n' > "$tmp/t/sim/load/extra.c"
tools/check-includes "$tmp/t" > "$tmp/sub.out" 2>&1
check "a folder inside sim/: fails the check" test $? -eq 1
check "... naming the file" grep -qF "sim/load/extra.c: a folder inside sim/" "$tmp/sub.out"

# an out-of-tree variant folder (EXTRA_MODELS) is held to a model's wall
mkdir -p "$tmp/extra"
printf '#include "sim/sim.h"\n#include "models/tcp/tcp.h"\n' > "$tmp/extra/drs_x.c"
tools/check-includes . "$tmp/extra" > "$tmp/extra.out" 2>&1
check "an EXTRA_MODELS variant may include the engine and a family" test $? -eq 0
printf '#include "sinks/record.h"\n' >> "$tmp/extra/drs_x.c"
tools/check-includes . "$tmp/extra" > "$tmp/extra2.out" 2>&1
check "an EXTRA_MODELS variant may not include an output" test $? -eq 1

# The walls at link level (tools/check-links, on the built objects; make
# test runs it over the tree's): in a small tree, the engine calling the
# loader and a model calling the command line fail it, one line each
# naming the object, the symbol and its folder; the engine calling itself
# and the loader calling the engine pass.
lt=$tmp/links
mkdir -p "$lt"/{sim,load,models,sinks,cli} "$lt"/b/{sim,load,models,cli,gen}
printf 'int eng_own(void);\nint eng_own(void) { return 0; }\n' > "$lt/sim/own.c"
printf 'int eng_own(void);\nint cfg_x(void);\nint cfg_x(void) { return eng_own(); }\n' > "$lt/load/l.c"
printf 'int cmd_y(void);\nint cmd_y(void) { return 2; }\n' > "$lt/cli/c.c"
printf 'int variant_table;\n' > "$lt/variants.c"
build_links() {
    local f
    for f in sim/own.c load/l.c cli/c.c models/m.c sim/e.c; do
        [ -e "$lt/$f" ] && ${CC:-cc} -c -o "$lt/b/${f%.c}.o" "$lt/$f"
    done
    ${CC:-cc} -c -o "$lt/b/gen/variants.o" "$lt/variants.c"
}
printf 'int eng_own(void);\nint m(void);\nint m(void) { return eng_own(); }\n' > "$lt/models/m.c"
build_links
(cd "$lt" && "$OLDPWD/tools/check-links" b) > "$tmp/links0.out" 2>&1
check "link walls: the engine calling itself, the loader and a model the engine, pass" \
    test $? -eq 0 -a ! -s "$tmp/links0.out"
printf 'int cfg_x(void);\nint e(void);\nint e(void) { return cfg_x(); }\n' > "$lt/sim/e.c"
printf 'int cmd_y(void);\nint m(void);\nint m(void) { return cmd_y(); }\n' > "$lt/models/m.c"
build_links
(cd "$lt" && "$OLDPWD/tools/check-links" b) > "$tmp/links1.out" 2>&1
check "link walls: a crossing fails the check" test $? -eq 1
check "... engine -> loader named" grep -qxF "b/sim/e.o: cfg_x, defined in load/: the engine may call only the engine" "$tmp/links1.out"
check "... model -> command line named" grep -qxF "b/models/m.o: cmd_y, defined in cli/: a model may not call the command line" "$tmp/links1.out"
check "... and nothing else" test "$(wc -l < "$tmp/links1.out")" -eq 2
