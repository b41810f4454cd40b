#!/usr/bin/env bash
# Regenerates the fuzzers' raw seeds and the scenario dictionary.
#
#   tests/fuzz/make-seeds.sh [OUT]        (from the repository root; OUT: build-fuzz/seeds)
#
# Seeds, in the harnesses' input formats (tests/fuzz/fuzz.h):
#   OUT/scenario  every bundled scenario; every INI text in the unit tests
#                 (adjacent C string literals that hold a section header);
#                 every scenario the scenario tests hand to `netsim run` or
#                 `netsim sweep`, with their --set options as "--set " lines,
#                 captured by running those tests with a NETSIM that copies
#                 its input (so heredocs come out with their variables filled in);
#   OUT/values    every value of every key in those scenarios, and of --set;
#   OUT/netem     the values of netem's keys among them.
# It also rewrites tests/fuzz/scenario.dict from the string literals the
# library asks for (keys, choices, application and profile names).
#
# The raw seeds are large and redundant; the committed corpora are them and
# what the fuzzers found, minimised to the smallest inputs that reach every
# edge (without -use_counters=0, hit counts keep thousands of inputs):
#   build-fuzz/fuzz_load -merge=1 -use_counters=0 -max_len=8192 NEW OUT/scenario build-fuzz/corpus/load
# into an empty NEW, which then replaces tests/fuzz/corpus/load.
# Needs a built ./netsim (`make`), perl, and a few minutes for the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-fuzz/seeds}
real=$(pwd)/netsim
[ -x "$real" ] || { echo "make-seeds.sh: build ./netsim first (make)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/scenario" "$out/values" "$out/netem"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/c"

# name a seed by its content, so that repeats collapse
keep() {   # keep DIR FILE
    local h
    h=$(sha1sum "$2" | cut -c1-16)
    mv "$2" "$1/$h"
}

for f in scenarios/*.ini; do
    cp "$f" "$out/scenario/tmp" && keep "$out/scenario" "$out/scenario/tmp"
done

# INI texts of the unit tests: runs of adjacent string literals, unescaped
perl -e '
    my %esc = (n => "\n", t => "\t", r => "\r", a => "\a", b => "\b", f => "\f", v => "\x0b");
    sub unescape {
        my $e = shift;
        return chr(hex(substr($e, 1))) if $e =~ /^x/;
        return chr(oct($e)) if $e =~ /^[0-7]/;
        return exists $esc{$e} ? $esc{$e} : $e;
    }
    my $dir = shift @ARGV;
    my $n = 0;
    for my $file (@ARGV) {
        local $/;
        open my $fh, "<", $file or die;
        my $src = <$fh>;
        while ($src =~ /((?:"(?:[^"\\\n]|\\.)*"\s*)+)/g) {
            my $run = $1;
            my $text = "";
            while ($run =~ /"((?:[^"\\\n]|\\.)*)"/g) { $text .= $1; }
            next unless $text =~ /\[(sim|link|host|flow)\b/;
            $text =~ s{\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)}{unescape($1)}ge;
            open my $o, ">", sprintf("%s/c%05d", $dir, $n++) or die;
            print $o $text;
            close $o;
        }
    }' "$work/c" tests/test_*.c
for f in "$work"/c/*; do keep "$out/scenario" "$f"; done

# The scenario tests, with a NETSIM that keeps what `run` and `sweep` read.
cat > "$work/netsim" <<'SH'
#!/usr/bin/env bash
if [ "${1:-}" = run ] || [ "${1:-}" = sweep ]; then
    file="" sets=()
    args=("${@:2}")
    for ((i = 0; i < ${#args[@]}; i++)); do
        case ${args[i]} in
            --set | -s) sets+=("${args[i + 1]:-}"); i=$((i + 1)) ;;
            --set=*) sets+=("${args[i]#--set=}") ;;
            -o | --output | --seed | --rep | -j | --jobs | --only | --shard) i=$((i + 1)) ;;
            -*) ;;
            *) [ -z "$file" ] && [ -f "${args[i]}" ] && file=${args[i]} ;;
        esac
    done
    if [ -n "$file" ]; then
        t=$(mktemp "$SEED_OUT/.capture.XXXXXX")
        { cat "$file"; for s in "${sets[@]}"; do printf '\n--set %s' "$s"; done; echo; } > "$t" 2>/dev/null || true
    fi
fi
exec "$REAL_NETSIM" "$@"
SH
chmod +x "$work/netsim"
echo "make-seeds.sh: running the scenario tests to capture their scenarios (a few minutes)" >&2
SEED_OUT=$out/scenario REAL_NETSIM=$real tests/run.sh build "$work/netsim" tests/scenario/*.sh > "$work/log" 2>&1 || true
for f in "$out"/scenario/.capture.*; do [ -e "$f" ] && keep "$out/scenario" "$f"; done

# values: the right-hand side of every "key = value" and "--set s.k=value"
perl -e '
    my ($vdir, $ndir, @files) = @ARGV;
    my (%v, %n);
    for my $file (@files) {
        open my $fh, "<", $file or next;
        while (<$fh>) {
            chomp;
            s/^--set [^.=]*\.([^=]*)=// or s/^\s*([A-Za-z0-9_.-]+)\s*[=:]\s*// or next;
            my $key = $1;
            s/\s+;.*$//; s/\s+$//;
            next if length($_) > 200;
            $v{$_} = 1;
            $n{$_} = 1 if $key =~ /^((fwd|rev)\.)?(delay|loss|duplicate|corrupt|reorder|netem_rate|limit)$/;
        }
    }
    my $i = 0;
    for my $x (sort keys %v) { open my $o, ">", "$vdir/v" . $i++; print $o $x; }
    $i = 0;
    for my $x (sort keys %n, "50ms 1ms distribution normal", "gemodel 1% 10% 70% 0.1%", "random 0.5%",
               "100mbit 20 53 5", "1gbit -4", "10ms 2ms 25%", "loss state 1%") {
        open my $o, ">", "$ndir/n" . $i++; print $o $x;
    }' "$out/values" "$out/netem" "$out"/scenario/*
for d in values netem; do
    for f in "$out/$d"/*; do keep "$out/$d" "$f"; done
done

# The dictionary: what the fuzzer cannot guess quickly. Syntax first, then
# every lower-case word the library spells out (keys, choices, names).
{
    cat <<'DICT'
# tests/fuzz/scenario.dict - generated by tests/fuzz/make-seeds.sh; edit the script, not this file
"[sim]"
"[link "
"[host "
"[flow "
"]"
" = "
"\x0a"
"--set "
"sim."
"${"
"}"
", "
" ! "
"="
";"
"#"
"fwd."
"rev."
"cost."
"ends = a:eth0 b:eth0"
"app = "
"from = "
"to = "
"duration = "
"ms"
"us"
"ns"
"ps"
"s"
"gbit"
"mbit"
"kbit"
"bps"
"K"
"M"
"%"
"gemodel "
"random "
"distribution normal"
"inet6"
DICT
    ls sim/*.c models/*.c models/*/*.c | grep -vE 'sim/(main|merge_cmd|report_cmd|sweep_cmd|record|record_copy|report|json)\.c' |
        xargs grep -hoE '"[a-z][a-z0-9_.-]{1,40}"' | sort -u
} > tests/fuzz/scenario.dict
echo "make-seeds.sh: $(ls "$out/scenario" | wc -l) scenarios, $(ls "$out/values" | wc -l) values, $(ls "$out/netem" | wc -l) netem values in $out" >&2
