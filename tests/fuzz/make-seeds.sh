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
#   OUT/netem     the values of netem's keys among them;
#   OUT/qdisc     fuzz_qdisc's inputs: each link direction's qdisc, classes,
#                 filters and netem_at in those scenarios, with a script.
# The scenarios include every ```ini block of README.md and docs/, and a
# tree of every qdisc kind (htb's classes and filters, netem at root and
# leaf, mq's children) with TCP, SCTP and UDP flows on one host.
# It also rewrites tests/fuzz/scenario.dict (tests/fuzz/make-dict.py: the
# key table of `netsim keys`, with example values, and the sources' words).
#
# The raw seeds are large and redundant; the committed corpora are them and
# what the fuzzers found, minimised to the smallest inputs that reach every
# edge (without -use_counters=0, hit counts keep thousands of inputs):
#   build-fuzz/fuzz_load -merge=1 -use_counters=0 -max_len=8192 NEW OUT/scenario build-fuzz/corpus/load
# into an empty NEW, which then replaces tests/fuzz/corpus/load (likewise
# fuzz_run with OUT/scenario, fuzz_units with OUT/values, fuzz_netem with
# OUT/netem, fuzz_qdisc with OUT/qdisc, -max_len=4096).
# Needs a built ./netsim (`make`), perl, and a few minutes for the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-fuzz/seeds}
real=$(pwd)/netsim
[ -x "$real" ] || { echo "make-seeds.sh: build ./netsim first (make)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/scenario" "$out/values" "$out/netem" "$out/qdisc"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/c" "$work/d"

# name a seed by its content, so that repeats collapse
keep() {   # keep DIR FILE
    local h
    h=$(sha1sum "$2" | cut -c1-16)
    mv "$2" "$1/$h"
}

for f in scenarios/*.ini scenarios/bench/*.ini; do
    cp "$f" "$out/scenario/tmp" && keep "$out/scenario" "$out/scenario/tmp"
done

# The docs' examples: every ```ini block of README.md and docs/
n=0
for f in README.md docs/*.md docs/*/*.md; do
    awk -v dir="$work/d" -v base="$(basename "$f" .md)" '
        /^```ini/ { on = 1; n++; file = sprintf("%s/%s-%d", dir, base, n); next }
        /^```/ { on = 0; next }
        on { print > file }' "$f" 2>/dev/null || true
done
for f in "$work"/d/*; do [ -e "$f" ] && keep "$out/scenario" "$f"; done

# What the qdisc family takes, whatever the tests hold: a tree of each
# kind (htb's classes and filters, netem at its root and at its leaves,
# mq's children) and TCP, SCTP and UDP flows on one host, whose teardown
# is one world's
two_hosts() {   # two_hosts LINK-LINES: a, b and a router r, three protocols
    printf '[sim]\nduration = 20ms\ninterval = 10ms\n[link l]\nends = a:eth0 r:eth0\n%s\n' "$1"
    printf '[link m]\nends = r:eth1 b:eth0\nrate = 1gbit\n%s\n' "$1"
    printf '[flow 1]\napp = tcp_stream\nfrom = a\nto = b\n[flow 2]\napp = sctp_iperf3\nfrom = a\nto = b\n'
    printf '[flow 3]\napp = udp_stream\nfrom = b\nto = a\n[flow 4]\napp = ping\nfrom = a\nto = b\n'
}
i=0
while IFS= read -r tree; do
    i=$((i + 1))
    two_hosts "$(printf '%b' "$tree")" > "$work/t$i"
    keep "$out/scenario" "$work/t$i"
done <<'TREES'
fwd.qdisc = htb default 20\nfwd.class.1 = parent 1: rate 1gbit\nfwd.class.10 = parent 1:1 rate 600mbit ceil 1gbit\nfwd.class.20 = parent 1:1 rate 400mbit ceil 1gbit prio 1\nfwd.filter.1 = match ip dport 12866 flowid 1:10\nfwd.filter.2 = match ip protocol 132 0xff flowid 1:20
qdisc = htb default 10\nclass.10 = parent 1: rate 500mbit\ndelay = 1ms\nnetem_at = leaf
qdisc = tbf rate 300mbit burst 32kb latency 10ms\ndelay = 1ms\nloss = 1%
qdisc = tbf rate 300mbit burst 32kb latency 10ms peakrate 600mbit mtu 2000\ndelay = 1ms\nnetem_at = leaf
qdisc = fq_codel quantum 300 flows 16 target 1ms interval 10ms ce_threshold 1ms ecn
qdisc = fq maxrate 200mbit buckets 16 refill_delay 1ms ce_threshold 1ms
qdisc = codel limit 100 target 1ms interval 10ms ecn
qdisc = red limit 400k min 30k max 100k avpkt 1000 burst 55 bandwidth 1gbit ecn adaptive
qdisc = pfifo_head_drop limit 1\ndelay = 1ms\nduplicate = 10%
qdisc = bfifo limit 10k\nreorder = 25%\ndelay = 2ms
fwd.qdisc = pfifo limit 100\nrev.qdisc = fq_codel\nfwd.netem_rate = 100mbit 20
delay = 1ms 100us distribution normal\nloss = gemodel 1% 10% 70% 0.1%\ncorrupt = 1%
TREES
cat > "$work/mq" <<'INI'
[sim]
duration = 20ms
interval = 10ms
[host a]
net.core.default_qdisc = fq_codel
num_rx_queues = 4
[host b]
net.core.default_qdisc = htb
[link l]
ends = a:eth0 b:eth0
delay = 1ms
netem_at = leaf
qdisc = mq
[flow 1]
app = tcp_stream
from = a
to = b
[flow 2]
app = sctp_stream
from = b
to = a
INI
keep "$out/scenario" "$work/mq"

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

# qdisc: fuzz_qdisc's input (its header) from every link's qdisc keys in
# those scenarios, a direction at a time, with a script of packets
python3 - "$out/qdisc" "$out"/scenario/* <<'PY'
import hashlib, os, random, re, sys
out, files = sys.argv[1], sys.argv[2:]
rng = random.Random(43)
for path in files:
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        continue
    for sec in re.split(r"^\[", text, flags=re.M):
        if not sec.startswith("link"):
            continue
        keys = dict(re.findall(r"^\s*([\w.]+)\s*=\s*(.*?)\s*(?:;.*)?$", sec, flags=re.M))
        for d in ("fwd", "rev"):
            q = keys.get(d + ".qdisc", keys.get("qdisc"))
            if not q or "${" in q:
                continue
            lines = [q]
            for k, v in keys.items():
                m = re.match(r"(?:(fwd|rev)\.)?class\.(\w+)$", k)
                if m and m.group(1) in (None, d):
                    lines.append("class %s %s" % (m.group(2), v))
                m = re.match(r"(?:(fwd|rev)\.)?filter\.(\d+)$", k)
                if m and m.group(1) in (None, d):
                    lines.append("filter " + v)
            if keys.get(d + ".netem_at", keys.get("netem_at")) == "leaf":
                lines.append("netem")
            body = ("\n".join(lines) + "\n--\n").encode() + bytes(rng.randrange(256) for _ in range(256))
            name = hashlib.sha1(body).hexdigest()[:16]
            open(os.path.join(out, name), "wb").write(body)
PY

# values: the right-hand side of every "key = value" and "--set s.k=value"
perl -e '
    my ($vdir, $ndir, @files) = @ARGV;
    my (%v, %n);
    for my $file (@files) {
        next if -s $file > 65536;    # a generated topology: a value per host is noise
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

# The dictionary, from the key table and the sources' words
tests/fuzz/make-dict.py "$real" > tests/fuzz/scenario.dict
echo "make-seeds.sh: $(ls "$out/scenario" | wc -l) scenarios, $(ls "$out/values" | wc -l) values, $(ls "$out/netem" | wc -l) netem values in $out" >&2
