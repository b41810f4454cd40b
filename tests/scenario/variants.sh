#!/usr/bin/env bash
# A variant is one file (sim/variant.h): variants kept out of the tree
# build in through EXTRA_MODELS (tests/extra_models: a tcp.drs, an
# ipfrag.evictor, an sctp.rwnd and a tcp.cc with keys) and do what their code says; a file
# dropped into models/FAMILY/ is all an in-tree variant takes; a copied
# variant is caught, naming both files; a variant that breaks the contract
# (a duplicate name, a required member missing) stops netsim with a
# message naming its file.
. "$(dirname "$0")/common.bash"

counter() { q "$1" "select value from counter where name = '$2'"; }

xb=$tmp/xb
make -s PGO= BUILD="$xb" NETSIM="$xb/netsim" EXTRA_MODELS=tests/extra_models "$xb/netsim" > "$tmp/make.out" 2>&1
check "make EXTRA_MODELS=tests/extra_models builds" test $? -eq 0 -a -x "$xb/netsim"
tools/check-links "$xb" tests/extra_models > "$tmp/links.out" 2>&1
check "... and keeps the link walls, its variants counted as models (tools/check-links)" \
    test $? -eq 0 -a ! -s "$tmp/links.out"
x=$xb/netsim
"$x" models > "$tmp/models.out" 2>&1
for v in triple never new-copy; do
    check "netsim models lists the out-of-tree variant $v" grep -qE "^    $v +test variant" "$tmp/models.out"
done
"$NETSIM" models > "$tmp/models0.out" 2>&1
check "netsim without EXTRA_MODELS does not" test "$(grep -cE '^    (triple|never|new-copy) ' "$tmp/models0.out")" -eq 0

# tcp.drs = triple grows the receive buffer faster than continuous
drs() {    # drs VARIANT DB
    "$x" run scenarios/tcp_drs.ini --set receiver.tcp.drs="$1" --set sim.repeat=1 --set sim.duration=1.1s \
        --set 1.length=1s --set path.fwd.loss=0 --set 1.trace_interval=100ms -o "$2" -q > /dev/null 2>"$tmp/drs.err"
}
drs triple "$tmp/t.db"; rc=$?
drs continuous "$tmp/c.db"
check "tcp.drs = triple runs" test $rc -eq 0
bt=$(q "$tmp/t.db" "select max(value) from series where name = 'flow.1.rcv.rcvbuf' and t <= 0.8")
bc=$(q "$tmp/c.db" "select max(value) from series where name = 'flow.1.rcv.rcvbuf' and t <= 0.8")
check "triple's rcvbuf by 0.8 s ($bt) is larger than continuous' ($bc)" awk -v a="$bt" -v b="$bc" 'BEGIN { exit !(b > 0 && a > b) }'
"$x" run scenarios/tcp_drs.ini --set receiver.tcp.drs=quadruple --set sim.repeat=1 --no-db > /dev/null 2> "$tmp/bad.err"
check "an unknown tcp.drs lists the registered ones, triple among them" \
    grep -q "tcp.drs: got 'quadruple', expected one of: trimodal, continuous, rcvbuf_grow, rcvbuf_grow_rate, space_from_win, triple" "$tmp/bad.err"

# ipfrag.evictor = never: nothing evicted, memory past high_thresh
frag() {    # frag EVICTOR DB
    "$x" run scenarios/frag_evict.ini --set receiver.ipfrag.evictor="$1" --set receiver.ipfrag_high_thresh=256K \
        --set receiver.ipfrag_low_thresh=192K --set sim.repeat=1 --set sim.duration=0.3s --set sim.interval=100ms \
        -o "$2" -q > /dev/null 2>&1
}
frag never "$tmp/n.db"; rc=$?
frag lru "$tmp/l.db"
check "ipfrag.evictor = never runs" test $rc -eq 0
check "never evicts nothing" test "$(counter "$tmp/n.db" receiver.ipfrag.evicted)" = 0
check "lru evicts on the same load" awk -v e="$(counter "$tmp/l.db" receiver.ipfrag.evicted)" 'BEGIN { exit !(e > 0) }'
check "never's memory passes high_thresh" awk -v m="$(counter "$tmp/n.db" receiver.ipfrag.mem_peak)" 'BEGIN { exit !(m > 262144 * 2) }'

# sctp.rwnd = new-copy: rwnd_new.c's rule, so exactly new's rows
rows() { q "$1" "select flow, t_start, bytes from interval order by flow, t_start" | md5sum; }
sctp() {    # sctp RWND DB
    "$x" run scenarios/sctp_rwnd.ini --set receiver.sctp.rwnd="$1" --set 1.ip=4 --set 1.len=1452 --set 1.paths=2 \
        --set sim.duration=3s -o "$2" -q \
        > /dev/null 2>"$tmp/sctp.err"
}
sctp new-copy "$tmp/s1.db"; rc=$?
sctp new "$tmp/s2.db"
sctp old "$tmp/s3.db"
check "sctp.rwnd = new-copy runs" test $rc -eq 0
check "new-copy gives new's interval rows" test "$(q "$tmp/s1.db" "select count(*) from interval")" -gt 0 \
    -a "$(rows "$tmp/s1.db")" = "$(rows "$tmp/s2.db")"
check "... which are not old's" test "$(rows "$tmp/s1.db")" != "$(rows "$tmp/s3.db")"

# tcp.cc = scalable (docs/adding-a-variant.md's worked example): a loss
# costs cwnd >> md_scale, so under random loss md_scale 3 (1/8) keeps a
# larger window than md_scale 1 (a half, Reno's cut)
cat > "$tmp/sc.ini" <<'INI'
[sim]
duration = 2s
[host a]
tso = off
gso = off
gro = off
tcp.tsq = off
tcp.cc = scalable
[host b]
tso = off
gso = off
gro = off
tcp.tsq = off
[link l]
ends = a b
rate = 1gbit
delay = 1ms
fwd.loss = 0.5%
[flow 1]
app = tcp_stream
from = a
to = b
length = 2s
ss_interval = 100ms
INI
check "netsim models lists scalable" grep -qE "^    scalable +test variant" "$tmp/models.out"
"$x" run "$tmp/sc.ini" -q -o "$tmp/sc3.db" --ss "$tmp/sc3.ss" > /dev/null 2>&1
check "tcp.cc = scalable runs" test $? -eq 0
"$x" run "$tmp/sc.ini" -q -o "$tmp/sc1.db" --set a.tcp.cc.scalable.md_scale=1 > /dev/null 2>&1
g3=$(counter "$tmp/sc3.db" flow.1.goodput_bps)
g1=$(counter "$tmp/sc1.db" flow.1.goodput_bps)
check "scalable: md_scale 3 delivers more than md_scale 1 under random loss ($g3 against $g1)" \
    awk -v a="$g3" -v b="$g1" 'BEGIN { exit !(a > 1.3 * b) }'
check "... and the run records its key" test "$(q "$tmp/sc1.db" "select value from param where key = 'a.tcp.cc.scalable.md_scale'")" = 1
"$x" keys host > "$tmp/sc_keys.out" 2>&1
check "netsim keys host lists scalable's keys with their docs" \
    grep -q "tcp.cc.scalable.md_scale" "$tmp/sc_keys.out"
"$x" sweep "$tmp/sc.ini" -q -o "$tmp/scs.db" -j 2 --set 'a.tcp.cc.scalable.md_scale=${1, 3}' \
    --set sim.duration=0.5s --set 1.length=0.5s --set 1.ss_interval=0 > /dev/null 2>&1
check "a sweep over tcp.cc.scalable.md_scale records each value in param" \
    test "$(q "$tmp/scs.db" "select group_concat(value, ',') from (select value from param where key = 'a.tcp.cc.scalable.md_scale' order by run_id)")" = "1,3"
"$x" run "$tmp/sc.ini" --no-db --set a.tcp.cc.scalable.md_scale=17 > /dev/null 2> "$tmp/sc.err"
check "scalable: md_scale 17 is refused with its range" grep -q "tcp.cc.scalable.md_scale.*1\.\.16\|tcp.cc.scalable.md_scale.*16" "$tmp/sc.err"

# In the tree: a copy of the tree with drs_triple.c dropped into models/tcp/
tree=$tmp/tree
mkdir -p "$tree"
cp -a Makefile sim load sinks cli drill models kcompat tools "$tree/"
cp -a "$xb" "$tmp/xb2"                          # its objects are up to date for the copied sources
cp tests/extra_models/drs_triple.c "$tree/models/tcp/"
make -s -C "$tree" PGO= BUILD="$tmp/xb2" NETSIM="$tmp/xb2/netsim" "$tmp/xb2/netsim" > "$tmp/make2.out" 2>&1
check "a variant file dropped into models/tcp/ builds with plain make" test $? -eq 0
"$tmp/xb2/netsim" models > "$tmp/models2.out" 2>&1
check "... netsim models lists it" grep -qE "^    triple +test variant" "$tmp/models2.out"
check "... and no out-of-tree one" test "$(grep -cE '^    (never|new-copy) ' "$tmp/models2.out")" -eq 0
"$tmp/xb2/netsim" run scenarios/tcp_drs.ini --set receiver.tcp.drs=triple --set sim.repeat=1 --set sim.duration=0.3s \
    --set 1.length=0.2s --no-db -q > /dev/null 2>&1
check "... and a scenario selects it" test $? -eq 0

# A copied variant, the natural first step of a new one: copied with only
# its name changed it keeps the original's ops symbol, which the linker
# would drop without a word; the build stops naming both files. Copied
# with its symbol renamed and its name kept, the start-up check stops
# netsim naming both files. In the tree and through EXTRA_MODELS alike.
cp models/tcp/drs_continuous.c "$tree/models/tcp/drs_mine.c"
sed -i 's/\.name = "continuous"/.name = "mine"/' "$tree/models/tcp/drs_mine.c"
make -s -C "$tree" PGO= BUILD="$tmp/xb2" NETSIM="$tmp/xb2/netsim_copy" "$tmp/xb2/netsim_copy" > "$tmp/copy.out" 2>&1
check "in tree, a copy keeping the ops symbol: the build fails" test $? -ne 0 -a ! -e "$tmp/xb2/netsim_copy"
check "... naming both files" grep -qF \
    "models/tcp/drs_mine.c and models/tcp/drs_continuous.c both register the ops table 'tcp_drs_continuous'" \
    "$tmp/copy.out"
sed -i 's/tcp_drs_continuous/tcp_drs_mine/; s/\.name = "mine"/.name = "continuous"/' "$tree/models/tcp/drs_mine.c"
make -s -C "$tree" PGO= BUILD="$tmp/xb2" NETSIM="$tmp/xb2/netsim_same" "$tmp/xb2/netsim_same" > "$tmp/same.out" 2>&1
"$tmp/xb2/netsim_same" models > "$tmp/same_run.out" 2>&1
check "in tree, a copy with its own symbol and the same name: netsim exits 1" test $? -eq 1
check "... naming both files" grep -qF \
    "models/tcp/drs_mine.c: tcp.drs variant 'continuous' is registered twice (first in models/tcp/drs_continuous.c)" \
    "$tmp/same_run.out"
rm -f "$tree/models/tcp/drs_mine.c"
mkdir -p "$tmp/copy_extra"
cp models/tcp/drs_continuous.c "$tmp/copy_extra/drs_mine.c"
sed -i 's/\.name = "continuous"/.name = "mine"/' "$tmp/copy_extra/drs_mine.c"
make -s PGO= BUILD="$xb" NETSIM="$xb/netsim_copy" EXTRA_MODELS="$tmp/copy_extra" "$xb/netsim_copy" \
    > "$tmp/copy_x.out" 2>&1
check "EXTRA_MODELS, a copy keeping the ops symbol: the build fails" test $? -ne 0 -a ! -e "$xb/netsim_copy"
check "... naming both files" grep -qF \
    "$tmp/copy_extra/drs_mine.c and models/tcp/drs_continuous.c both register the ops table 'tcp_drs_continuous'" \
    "$tmp/copy_x.out"

# The contract, checked at start-up
bad() {    # bad NAME FILE-TEXT WHY: an EXTRA_MODELS folder with that file stops netsim with WHY
    mkdir -p "$tmp/bad_$1"
    printf '%s\n' "$2" > "$tmp/bad_$1/$1.c"
    make -s PGO= BUILD="$xb" NETSIM="$xb/netsim_$1" EXTRA_MODELS="$tmp/bad_$1" "$xb/netsim_$1" > "$tmp/make_$1.out" 2>&1
    "$xb/netsim_$1" models > "$tmp/$1.out" 2>&1
    local rc=$?
    check "$1: netsim exits 1" test $rc -eq 1
    check "$1: and says so" grep -qF "$3" "$tmp/$1.out"
}
bad dup '#include "models/tcp/tcp.h"
static uint64_t g(uint64_t w, uint64_t c, uint64_t s) { (void)c; (void)s; return w; }
const struct tcp_drs_ops dup_drs = { .name = "continuous", .doc = "again", .grow = g };
VARIANT("tcp.drs", dup_drs);' "/bad_dup/dup.c: tcp.drs variant 'continuous' is registered twice (first in models/tcp/drs_continuous.c)"
bad nogrow '#include "models/tcp/tcp.h"
const struct tcp_drs_ops nogrow_drs = { .name = "nogrow", .doc = "neither adjust nor grow" };
VARIANT("tcp.drs", nogrow_drs);' "tcp.drs variant 'nogrow' lacks its required member 'adjust or grow'"
bad nokey '#include "models/tcp/tcp.h"
static uint64_t g(uint64_t w, uint64_t c, uint64_t s) { (void)c; (void)s; return w; }
const struct tcp_drs_ops nokey_drs = { .name = "x", .doc = "y", .grow = g };
VARIANT("tcp.nosuch", nokey_drs);' "variant of 'tcp.nosuch': no model family has that key"
bad keyrange '#include "models/tcp/tcp.h"
static uint64_t g(uint64_t w, uint64_t c, uint64_t s) { (void)c; (void)s; return w; }
static const struct variant_key k[] = { { "gain", "9", 0, 4, "a gain" }, { NULL, NULL, 0, 0, NULL } };
const struct tcp_drs_ops keyrange_drs = { .name = "kr", .doc = "y", .keys = k, .grow = g };
VARIANT("tcp.drs", keyrange_drs);' "/bad_keyrange/keyrange.c: tcp.drs variant 'kr', key 'gain': its default is no whole number within its range"

bad noundo '#include "models/tcp/tcp.h"
const struct tcp_cc_ops noundo_cc = { .name = "noundo", .doc = "no undo_cwnd",
    .ssthresh = tcp_reno_ssthresh, .cong_avoid = tcp_reno_cong_avoid };
VARIANT("tcp.cc", noundo_cc);' "tcp.cc variant 'noundo' lacks its required member 'undo_cwnd'"
# A variant's own keys: tcp_cubic's module parameters
cat > "$tmp/keys.ini" <<'INI'
[sim]
duration = 2s
[host a]
tcp.cc.cubic.beta = 819
[link l]
ends = a:eth0 b:eth0
rate = 100mbit
fwd.loss = 0.1%
delay = 5ms
[flow 1]
app = tcp_stream
from = a
to = b
INI
# per-segment losses: the offloads off (netem would drop whole GSO packets)
koff=$(for h in a b; do for k in tso gso gro tcp.tsq; do printf -- '--set %s.%s=off ' $h $k; done; done)
# shellcheck disable=SC2086
"$NETSIM" run "$tmp/keys.ini" -o "$tmp/keys.db" -q $koff > /dev/null 2> "$tmp/keys.err"
check "tcp.cc.cubic.beta = 819 runs, recorded as a parameter" \
    test "$(sqlite3 "$tmp/keys.db" "select value from param where key = 'a.tcp.cc.cubic.beta'")" = 819
# shellcheck disable=SC2086
"$NETSIM" run "$tmp/keys.ini" -o "$tmp/keys.db" -q $koff --set a.tcp.cc.cubic.beta=717 > /dev/null 2>&1
check "... and moves the result against the default 717 (more bytes: a smaller decrease)" \
    test "$(sqlite3 "$tmp/keys.db" "select (select sum(bytes) from interval where run_id = 1) > (select sum(bytes) from interval where run_id = 2)")" = 1
"$NETSIM" run "$tmp/keys.ini" --no-db -q --set a.tcp.cc.cubic.beta=1024 > /dev/null 2> "$tmp/keys.err"
check "beta = 1024 refused with its range" grep -q "tcp.cc.cubic.beta: got '1024', expected 1 to 1023" "$tmp/keys.err"
"$NETSIM" run "$tmp/keys.ini" --no-db -q --set a.tcp.cc=bbr > /dev/null 2> "$tmp/keys.err"
check "a cubic key on a BBR host: a warning" \
    grep -q "keys.ini:4: \[host a\] tcp.cc.cubic.beta: warning: changes nothing: tcp.cc.cubic.beta is cubic's; this host's tcp.cc is bbr" "$tmp/keys.err"
"$NETSIM" keys host > "$tmp/keys.txt"
check "netsim keys lists the variant's keys" grep -q "tcp.cc.cubic.hystart_detect = 3" "$tmp/keys.txt"

# The documented list is the registered one
tools/variants-doc "$NETSIM" > "$tmp/variants.md" 2>&1
check "docs/reference/variants.md is what the registry says (tools/variants-doc --update)" \
    cmp -s "$tmp/variants.md" docs/reference/variants.md
