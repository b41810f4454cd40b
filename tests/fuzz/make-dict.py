#!/usr/bin/env python3
"""Writes the scenario fuzzers' dictionary from the key table itself.

    tests/fuzz/make-dict.py [NETSIM] > tests/fuzz/scenario.dict

`netsim keys` is what the scenario reader checks keys with, so a
dictionary made from it follows every key, variant, qdisc and option as
they are added: each key as a word and as "KEY = VALUE" lines with values
from its default, its range's ends and its type's units (and past them),
each section kind, each family's variants, each qdisc with each of its
options and the class and filter words of the classful ones, the netem
syntax, and the words of a sweep axis; then every lower-case word the
library's sources spell out. tests/scenario/fuzz_dict.sh fails when a key
`netsim keys --names` prints is not in the committed file, or the file is
not what this script writes.
"""
import glob
import os
import re
import subprocess
import sys

netsim = sys.argv[1] if len(sys.argv) > 1 else "./netsim"
text = subprocess.run([netsim, "keys"], check=True, capture_output=True, text=True).stdout
names = subprocess.run([netsim, "keys", "--names"], check=True, capture_output=True, text=True).stdout.split()

out = []
seen = set()


def tok(s):
    """One dictionary entry, escaped as libFuzzer reads them."""
    if not s or s in seen:
        return
    seen.add(s)
    esc = ""
    for c in s:
        if c == "\\":
            esc += "\\\\"
        elif c == '"':
            esc += '\\"'
        elif c == "\n":
            esc += "\\x0a"
        elif c == "\t":
            esc += "\\x09"
        elif 0x20 <= ord(c) < 0x7F:
            esc += c
        else:
            esc += "".join("\\x%02x" % b for b in c.encode())
    out.append('"%s"' % esc)


# values a type takes, at and past its ends
TYPE_VALUES = {
    "time": ["0", "1ps", "1ns", "1us", "999ns", "1ms", "5ms", "100ms", "1s", "1000s", "1000000s", "1m"],
    "bit/s": ["1bit", "1kbit", "100mbit", "1gbit", "10gbit", "100gbit", "1tbit", "125mbps", "18446744073709551615"],
    "bytes": ["0", "1", "64", "1500", "64K", "4M", "2G", "1.5K", "18446744073709551615"],
    "integer": ["0", "1", "-1", "65535", "65536", "2147483647", "4294967295", "9223372036854775807"],
    "number": ["0", "0.5", "1", "100", "1e308", "nan", "inf", "-0"],
    "percent": ["0%", "0.1%", "1%", "100%", "101%", "0.5"],
    "on/off": ["on", "off"],
}
# values of a qdisc option by its kind, tc's words, at and past its ends
QDISC_VALUES = {
    "NUMBER": ["0", "1", "2", "100", "1000", "65536", "65537", "1048576", "2147483648", "4294967295", "4294967296"],
    "BYTES": ["0", "1", "1500", "1514", "1.3k", "64kb", "1mbit", "1mb", "4g", "4294967295"],
    "TIME": ["0", "1", "1us", "5MS", "1e3ms", "100ms", "1s", "4294967295us", "4295s"],
    "RATE": ["0", "7bit", "8bit", "1mbit", "100mbit", "1e3mbit", "1gbit", "10gbit", "10MBps", "34359738368bit",
             "9223372036854775808bit"],
    "MINOR": ["0", "1", "a", "10", "0x1f", "ffff", "10000"],
    "PROBABILITY": ["0", "0.02", "0.5", "1", "1.5"],
}

for head in ("[sim]", "[link ", "[host ", "[switch ", "[flow ", "]", " = ", "\n", "--set ", "sim.", "fwd.", "rev.", "${", "}", ", ",
             " ! ", "=", ";", "#", "ends = a:eth0 b:eth0", "ends = b:eth1 c:eth0", "app = ", "from = ", "to = ",
             "from = a", "to = b", "to = c", "[link l]", "[link m]", "[host a]", "[host b]", "[flow 1]", "[flow 2]",
             "[flow 3]", "${r=10mbit, 20mbit}", "${1ms, 2ms ! r}"):
    tok(head)
# templates: ranges, "{}" and "{EXPR}" over the section's number n
for t in ("[host s{1..8}]", "[link l{1..8}]", "[flow {1..2}]", "s{1..8}", "{}", "{n}", "{", "{n", "(n", "n)", "(",
          ")", "n", " * ", "-", "/", "%", "{(n-1)/16+1}", "{(n-1)%16}", "{n*99999999999*99999999999}", "{n/0}",
          "{-n}", "9223372036854775807", "ends = h{}:eth0 leaf{(n-1)/4+1}:eth{(n-1)%4}"):
    tok(t)

section = None
family = None
for line in text.splitlines():
    m = re.match(r"^\[(\w+)", line)
    if m:
        section, family = m.group(1), None
        tok("[%s" % section)
        app = re.match(r"^\[flow N\] app = (\S+):", line)
        if app:
            tok(app.group(1))
            tok("app = " + app.group(1))
        continue
    m = re.match(r"^([a-z][\w.]*): \[", line)
    if m:                    # a family: its variants follow as "  = NAME"
        family, section = m.group(1), None
        tok(family)
        continue
    m = re.match(r"^  = (\S+)", line)
    if m and family:
        tok(m.group(1))
        tok("%s = %s" % (family if family != "qdisc" else "qdisc", m.group(1)))
        if family == "qdisc":
            tok("net.core.default_qdisc = " + m.group(1))
            tok("fwd.qdisc = " + m.group(1) + " ")
            kind = m.group(1)
        continue
    m = re.match(r"^  (class: )?([\w|./]+) = (.*?)\s{2,}(.*)$", line)
    if m and family == "qdisc":
        words = m.group(2).replace("/", "|").split("|")
        kind_word = m.group(4).strip()
        for w in words:
            tok(w)
            tok(" %s " % w)
            for v in QDISC_VALUES.get(kind_word, []):
                tok("%s %s" % (w, v))
        continue
    m = re.match(r"^  ([\w.]+) = (.*?)(\s{2,}(.*))?$", line)
    if m and section:
        key, default, kind = m.group(1), m.group(2).strip(), (m.group(4) or "").strip()
        tok(key)
        tok(key + " = ")
        if default and not default.startswith(("(", "as ", "the ", "duration", "{")) and len(default) < 60:
            tok("%s = %s" % (key, default))
        typ, _, rng = kind.partition("; ")
        for v in TYPE_VALUES.get(typ, []):
            tok("%s = %s" % (key, v))
        if typ == "choice":
            for v in rng.split(", "):
                tok("%s = %s" % (key, v))
        for end in re.findall(r"(?:^|to |least |most )([-\w.]+)", rng):
            tok("%s = %s" % (key, end))

for n in names:
    tok(n)
    tok(n + " = ")

# the classful qdisc's classes and filters, netem at root and leaf, netem's
# own syntax
for s in ("class.1 = parent 1: rate 1gbit", "class.10 = parent 1:1 rate 600mbit ceil 1gbit",
          "class.20 = parent 1:1 rate 400mbit ceil 1gbit prio 1", "class.9 = parent 1:8 rate ",
          "fwd.class.", "rev.class.", "class.", "filter.", "fwd.filter.1 = ", "filter.1 = match ip dport 5201 flowid 1:10",
          "filter.2 = match ip src a match ip protocol tcp 0xff flowid 1:20",
          "match ip ", "dst ", "src ", "dport ", "sport ", "protocol ", "tcp", "udp", "icmp", "0xffff", "0xff", "0",
          "flowid 1:", "classid 1:", "parent 1:", "parent 1:1 ", "rate ", "ceil ", "burst ", "cburst ", "prio ",
          "quantum ", "none", "netem_at = leaf", "netem_at = root", "fwd.netem_at = leaf",
          "qdisc = htb default 20", "qdisc = tbf rate 100mbit burst 32kb latency 50ms",
          "qdisc = fq_codel quantum 4294967295", "qdisc = pfifo limit 0", "qdisc = pfifo_head_drop limit 1",
          "qdisc = bfifo limit 1000", "qdisc = fq buckets 1 quantum 0", "qdisc = red limit 400k avpkt 1000",
          "delay = 20ms", "delay = 10ms 2ms distribution normal", "loss = 1%", "loss = gemodel 1% 10% 70% 0.1%",
          "loss = random 0.5% ecn", "netem_rate = 100mbit 20 53 5", "duplicate = 1%", "corrupt = 1%", "reorder = 25%",
          "limit = 1", "app = tcp_stream", "app = sctp_stream", "app = udp_stream", "app = ping",
          "app = sctp_iperf3", "app = tcp_iperf3", "family = inet6", "mtu = 9000", "mtu = 45000", "mtu = 68",
          "ms", "us", "ns", "ps", "s", "gbit", "mbit", "kbit", "bps", "K", "M", "G", "%", "e3", "MS",
          "qdisc = netem delay 50ms 5ms distribution normal loss 1% limit 1000", "netem delay ", "netem loss ",
          "rate 100mbit 20", "ecn", "ifb = ifb0", "ifb = ifb0 ifb1", "ifb0.qdisc = ", "ifb0.qdisc = netem loss 1%",
          "ifb0.qdisc = tbf rate 100mbit burst 32kb latency 50ms", "ifb1.qdisc = mq",
          "eth0.ingress = u32 match u32 0 0 action mirred egress redirect dev ifb0",
          "eth0.ingress = protocol ip matchall action mirred egress redirect dev ifb1", "eth1.ingress = ",
          "matchall", "mirred", "redirect", "dev ifb0", "protocol ipv6 ", "protocol all "):
    tok(s)

# then every lower-case word the library spells out (keys, choices,
# names, the words of its messages), which the table does not show
root = os.path.dirname(os.path.abspath(__file__)) + "/../.."
words = set()
for path in sorted(glob.glob(root + "/sim/*.c") + glob.glob(root + "/models/*.c") + glob.glob(root + "/models/*/*.c")):
    with open(path, encoding="utf-8") as f:
        words.update(re.findall(r'"([a-z][a-z0-9_.-]{1,40})"', f.read()))
for w in sorted(words):
    tok(w)

print("# tests/fuzz/scenario.dict - generated by tests/fuzz/make-dict.py NETSIM from `netsim keys` (every key,")
print("# variant, qdisc and option, with example values from their ranges and units) and the sources' words;")
print("# edit the script, not this file (tests/scenario/fuzz_dict.sh checks that it is current)")
print("\n".join(out))
