#!/usr/bin/env python3
"""Takes the kernel's own definitions out of a Linux tree, unmodified, for
the differential check of netsim's ports (tests/kdiff/kdiff.c).

    tests/kdiff/extract.py KSRC OUTDIR

KSRC is a kernel tree (Debian's linux-source-6.1, unpacked, or any other);
nothing of it enters the repository. For each group below, OUTDIR/k_GROUP.inc
receives the named items in the order listed, each under a #line directive
pointing at the tree, so that a compiler error names the kernel's file and
line. An item is a function (its definition, signature to closing brace),
a struct (to its '};'), a #define (with continuation lines), or a variable
or typedef (the declaration line). A missing item is an error naming it:
the check does not pass on a tree it could not read. OUTDIR/k_version.h
records the tree's VERSION.PATCHLEVEL.SUBLEVEL from its Makefile.
"""
import os
import re
import sys

# group -> [(path in the tree, kind, name)]
GROUPS = {
    "minmax": [
        ("include/linux/win_minmax.h", "struct", "minmax_sample"),
        ("include/linux/win_minmax.h", "struct", "minmax"),
        ("include/linux/win_minmax.h", "func", "minmax_get"),
        ("include/linux/win_minmax.h", "func", "minmax_reset"),
        ("lib/win_minmax.c", "func", "minmax_subwin_update"),
        ("lib/win_minmax.c", "func", "minmax_running_max"),
        ("lib/win_minmax.c", "func", "minmax_running_min"),
    ],
    "dql": [
        ("include/linux/dynamic_queue_limits.h", "struct", "dql"),
        ("include/linux/dynamic_queue_limits.h", "define", "DQL_MAX_OBJECT"),
        ("include/linux/dynamic_queue_limits.h", "define", "DQL_MAX_LIMIT"),
        ("include/linux/dynamic_queue_limits.h", "func", "dql_queued"),
        ("include/linux/dynamic_queue_limits.h", "func", "dql_avail"),
        ("lib/dynamic_queue_limits.c", "define", "POSDIFF"),
        ("lib/dynamic_queue_limits.c", "define", "AFTER_EQ"),
        ("lib/dynamic_queue_limits.c", "func", "dql_completed"),
        ("lib/dynamic_queue_limits.c", "func", "dql_reset"),
        ("lib/dynamic_queue_limits.c", "func", "dql_init"),
    ],
    "codel": [
        ("include/net/codel.h", "line", "codel_time_t"),
        ("include/net/codel.h", "struct", "codel_vars"),
        ("include/net/codel.h", "define", "REC_INV_SQRT_BITS"),
        ("include/net/codel.h", "define", "REC_INV_SQRT_SHIFT"),
        ("include/linux/math.h", "func", "reciprocal_scale"),
        ("include/net/codel_impl.h", "func", "codel_Newton_step"),
        ("include/net/codel_impl.h", "func", "codel_control_law"),
    ],
    "cubic": [
        ("net/ipv4/tcp_cubic.c", "define", "BICTCP_BETA_SCALE"),
        ("net/ipv4/tcp_cubic.c", "define", "BICTCP_HZ"),
        ("net/ipv4/tcp_cubic.c", "line", "beta"),
        ("net/ipv4/tcp_cubic.c", "line", "bic_scale"),
        ("net/ipv4/tcp_cubic.c", "line", "tcp_friendliness"),
        ("net/ipv4/tcp_cubic.c", "line", "cube_rtt_scale"),
        ("net/ipv4/tcp_cubic.c", "line", "beta_scale"),
        ("net/ipv4/tcp_cubic.c", "line", "cube_factor"),
        ("net/ipv4/tcp_cubic.c", "struct", "bictcp"),
        ("net/ipv4/tcp_cubic.c", "func", "cubic_root"),
        ("net/ipv4/tcp_cubic.c", "func", "bictcp_update"),
        ("net/ipv4/tcp_cubic.c", "func", "cubictcp_register"),
    ],
    "bbr": [
        ("net/ipv4/tcp_bbr.c", "define", "BW_SCALE"),
        ("net/ipv4/tcp_bbr.c", "define", "BW_UNIT"),
        ("net/ipv4/tcp_bbr.c", "define", "BBR_SCALE"),
        ("net/ipv4/tcp_bbr.c", "define", "BBR_UNIT"),
        ("net/ipv4/tcp_bbr.c", "func", "bbr_rate_bytes_per_sec"),
        ("net/ipv4/tcp_bbr.c", "func", "bbr_bw_to_pacing_rate"),
    ],
    "tso": [
        ("net/ipv4/tcp_output.c", "func", "tcp_tso_autosize"),
    ],
}


def fail(msg):
    sys.stderr.write("extract.py: %s\n" % msg)
    sys.exit(1)


def brace_end(lines, start):
    """Index of the line holding the '}' that closes the first '{' at or
    after lines[start], skipping comments and literals."""
    depth, seen, in_comment = 0, False, False
    for i in range(start, len(lines)):
        s = lines[i]
        j = 0
        while j < len(s):
            if in_comment:
                k = s.find("*/", j)
                if k < 0:
                    break
                in_comment, j = False, k + 2
                continue
            c = s[j]
            if s.startswith("/*", j):
                in_comment, j = True, j + 2
                continue
            if s.startswith("//", j):
                break
            if c in "\"'":
                k = j + 1
                while k < len(s) and s[k] != c:
                    k += 2 if s[k] == "\\" else 1
                j = k + 1
                continue
            if c == "{":
                depth, seen = depth + 1, True
            elif c == "}":
                depth -= 1
                if seen and depth == 0:
                    return i
            j += 1
    return -1


def find(lines, kind, name, path):
    word = re.escape(name)
    if kind == "func":
        pat = re.compile(r"^[A-Za-z_].*\b%s\s*\(" % word)
        for i, s in enumerate(lines):
            if pat.match(s) and not s.rstrip().endswith(";") and not s.startswith(("EXPORT_", "#")):
                # a return type on the line before ("static u32\nname(...)")
                if i and re.match(r"^[A-Za-z_][\w\s\*]*$", lines[i - 1].rstrip()) and "(" not in lines[i - 1]:
                    i -= 1
                end = brace_end(lines, i)
                if end > 0:
                    return i, end
    elif kind == "struct":
        pat = re.compile(r"^struct %s\s*\{" % word)
        for i, s in enumerate(lines):
            if pat.match(s):
                end = brace_end(lines, i)
                if end > 0:
                    return i, end
    elif kind == "define":
        pat = re.compile(r"^#\s*define\s+%s\b" % word)
        for i, s in enumerate(lines):
            if pat.match(s):
                end = i
                while lines[end].rstrip().endswith("\\"):
                    end += 1
                # a comment that runs on past the definition's last line
                while "\n".join(lines[i:end + 1]).count("/*") > "\n".join(lines[i:end + 1]).count("*/"):
                    end += 1
                return i, end
    elif kind == "line":
        pat = re.compile(r"^(static |typedef ).*\b%s\b[^(]*;" % word)
        for i, s in enumerate(lines):
            if pat.match(s):
                return i, i
    fail("%s: no %s %s (is this a Linux tree?)" % (path, kind, name))


def main():
    if len(sys.argv) != 3:
        fail("usage: extract.py KSRC OUTDIR")
    ksrc, out = sys.argv[1], sys.argv[2]
    mk = os.path.join(ksrc, "Makefile")
    if not os.path.isfile(mk):
        fail("%s: no Makefile: KSRC must be the top of a Linux tree" % ksrc)
    ver = {}
    with open(mk) as f:
        for s in f.read().splitlines()[:12]:
            m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d*)", s)
            if m:
                ver[m.group(1)] = m.group(2) or "0"
    if "VERSION" not in ver or "PATCHLEVEL" not in ver:
        fail("%s: no VERSION/PATCHLEVEL" % mk)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "k_version.h"), "w") as f:
        f.write('#define KDIFF_KERNEL "%s.%s.%s"\n' % (ver["VERSION"], ver["PATCHLEVEL"], ver.get("SUBLEVEL", "0")))
        f.write("#define KDIFF_KERNEL_CODE %d\n" % (int(ver["VERSION"]) * 65536 + int(ver["PATCHLEVEL"]) * 256))
    cache = {}
    for group, items in GROUPS.items():
        text = ["/* generated by tests/kdiff/extract.py from %s: do not edit */\n" % os.path.abspath(ksrc)]
        for path, kind, name in items:
            full = os.path.join(ksrc, path)
            if full not in cache:
                if not os.path.isfile(full):
                    fail("%s: missing" % full)
                with open(full, errors="replace") as f:
                    cache[full] = f.read().splitlines()
            lines = cache[full]
            a, b = find(lines, kind, name, path)
            text.append('#line %d "%s"\n' % (a + 1, os.path.abspath(full)))
            text.extend(s + "\n" for s in lines[a:b + 1])
        with open(os.path.join(out, "k_%s.inc" % group), "w") as f:
            f.writelines(text)


if __name__ == "__main__":
    main()
