#!/usr/bin/env python3
"""A fuzzer of netsim's command line and files: random sequences of run,
sweep (-j 1|2, --resume, --only, --shard), merge, report, --dry-run and
--emit-jobs over three tiny scenarios (edited between steps, sometimes fed
through a FIFO or <(...)) and a few databases they share, with SIGINT,
SIGTERM or SIGKILL a few ms into a command, two commands on one database at
once, output to /dev/full or a closed stdout, and a FIFO, a device or a
directory where a database belongs. After every step the
databases must keep the rules of cli_check.py: nothing complete lost,
replaced or changed; every complete run has its rows; every run is one that
was asked for, under the hash of the bytes it ran; equal configurations give
equal rows (-j 1, -j 2, shards and emitted jobs merged, a plain run); exit 0
only when everything asked for was written; no crash, hang or stray worker.

Each session is one seed: a fresh scratch directory and --steps steps. On
the first broken rule it prints the seed, the step, every command so far as
a shell script with the scenario texts, writes that script and the
databases to a reproducer directory, and exits 1. The regressions in
tests/fuzz/regressions/cli/ (lines "--seed N --steps K") run first.

  tests/fuzz/cli_fuzz.py --seconds 60                  what `make fuzz-cli` runs
  tests/fuzz/cli_fuzz.py --seed 17 --steps 23 --sessions 1   one session again
  tests/fuzz/cli_fuzz.py --netsim ./netsim-asan ...    the sanitizer build
"""
import argparse
import collections
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True          # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_check as C                # noqa: E402
from cli_ops import Ops, script_lines  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
REGRESSIONS = os.path.join(ROOT, "tests", "fuzz", "regressions", "cli")
TIMEOUT = 30                          # seconds a command may take; they take well under one


STATS = collections.Counter()           # (command, how it ran, exit status): how many


class Violation(Exception):
    pass


def pgroup_members(pgid):
    """(pid, comm) of the live processes in process group pgid."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                s = f.read()
        except OSError:
            continue
        comm = s[s.index("(") + 1:s.rindex(")")]
        fields = s[s.rindex(")") + 2:].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append((int(d), comm))
    return found


class Session:
    def __init__(self, seed, work, netsim, log):
        self.seed = seed
        self.work = work
        self.netsim = netsim
        self.log = log                       # print function for progress
        self.rng = random.Random(seed)
        self.rules = C.Rules()
        self.script = []                     # the shell lines so far
        self.commands = 0
        self.env = dict(os.environ, NETSIM=netsim, TMPDIR=os.path.join(work, "tmp"),
                        ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
        os.makedirs(self.env["TMPDIR"])
        self.ops = Ops(self)

    # -- running commands ---------------------------------------------------

    def shell(self, line, note=None):
        """Runs a line of the fuzzer's own (a scenario written, a file removed)."""
        if note:
            self.script.append("# " + note)
        self.script.append(line)
        subprocess.run(["bash", "-c", line], cwd=self.work, env=self.env, check=True)

    def oracle(self, args):
        """Runs netsim for an answer of the fuzzer's own (not in the script):
        returns (exit status, stdout)."""
        p = subprocess.run([self.netsim] + args, cwd=self.work, env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def run_cmds(self, cmds, concurrent):
        """Runs the commands (all at once when concurrent), sending their
        signals on time, and sets on each its exit status (None: timed
        out), the signals sent, its output and the errors seen running it."""
        procs = []
        for i, c in enumerate(cmds):
            c.before = {db: self.state(db) for db in c.reads()}
            c.side_before = set(C.side_files(self.work, c.db)) if c.db else set()
            c.out_path, c.err_path = (os.path.join(self.work, "tmp", "step%d.%d.%s" % (self.step, i, x))
                                      for x in ("out", "err"))
            with open(c.out_path, "wb") as out, open(c.err_path, "wb") as err:
                p = subprocess.Popen(["bash", "-c", c.body()], cwd=self.work, env=self.env,
                                     stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True)
            procs.append((c, p, time.monotonic()))
            if not concurrent:
                self.finish(*procs.pop())
        for item in procs:
            self.finish(*item)

    def finish(self, c, p, t0):
        sent = set()
        for delay, sig, group in c.signals:
            while time.monotonic() < t0 + delay and p.poll() is None:
                time.sleep(0.001)
            if p.poll() is not None:
                break
            try:
                (os.killpg if group else os.kill)(p.pid, sig)
                sent.add(sig)
            except ProcessLookupError:
                pass
        errs = []
        try:
            rc = p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
        # workers die with their sweep, also when it was killed
        deadline = time.monotonic() + 5
        while True:
            left = [m for m in pgroup_members(p.pid) if m[1].startswith("netsim")]
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        if left:
            errs.append("netsim processes %s are still alive 5 s after the command ended" % left)
        try:
            os.killpg(p.pid, signal.SIGKILL)         # a FIFO's writer that no one opened
        except ProcessLookupError:
            pass
        with open(c.out_path, "rb") as f:
            c.out_bytes = f.read()
        with open(c.err_path, "rb") as f:
            c.stderr = f.read().decode(errors="replace")
        c.rc, c.sent, c.run_errors = rc, sent, errs
        self.commands += 1
        STATS[(c.kind, "killed" if sent else "concurrent" if c.concurrent else c.stdout, rc)] += 1
        last = c.stderr.strip().splitlines()[-1:] or [""]
        self.log("  %d: %s\n    exit %s%s  %s" % (self.step, c.line(), rc, " (sent %s)" % sorted(sent) if sent
                                                   else "", last[0][:160]))

    def state(self, db):
        path = os.path.join(self.work, db)
        if not os.path.exists(path):
            return None
        try:
            return C.read_db(path)
        except C.DbError:
            return None

    # -- a session ------------------------------------------------------------

    def run(self, steps, deadline):
        self.step = 0
        self.ops.setup()
        before, bad = C.snapshot(self.work)
        for self.step in range(1, steps + 1):
            if time.monotonic() > deadline:
                return self.step - 1
            op = self.ops.next_step()
            self.script.append("# --- step %d: %s" % (self.step, op.desc))
            if op.setup:
                for line in op.setup:
                    self.shell(line)
                for db in self.rules.databases():
                    if not os.path.exists(os.path.join(self.work, db)):
                        self.rules.forget(db)
                before, bad = C.snapshot(self.work)
            errs = []
            for batch, concurrent in op.batches:
                for c in batch:
                    c.register(self.rules)
                    c.concurrent = concurrent
                self.run_cmds(batch, concurrent)
                self.script += script_lines(batch, concurrent)
                for c in batch:
                    cerrs = c.run_errors + C.exit_ok(c.rc, c.sent, c.stderr) + c.check(self, concurrent)
                    errs += ["%s\n  %s" % (c.line(), e.replace("\n", "\n  ")) for e in cerrs]
                    if c.kind == "emit":
                        self.ops.take_jobs(c, op)
                if errs:
                    break
            after, bad = C.snapshot(self.work)
            written = set(db for c in op.cmds() for db in c.writes())
            merges = {c.db: c.inputs for c in op.cmds() if c.kind == "merge"}
            own = {}
            for c in op.cmds():
                if c.kind in ("sweep", "job") and c.db:
                    own.setdefault(c.db, set()).update(ident for _, ident in c.wanted)
            errs += self.rules.after_step(before, after, bad, written, merges, own)
            errs += op.final_check(self)
            if errs:
                raise Violation("\n".join(errs))
            before = after
        return steps

    def reproducer(self, where, errors):
        os.makedirs(where, exist_ok=True)
        head = ["#!/usr/bin/env bash",
                "# netsim cli_fuzz: seed %d, broken at step %d. Replays the session in a" % (self.seed, self.step),
                "# fresh directory (DIR, default ./work); NETSIM: the netsim to run.",
                "# The kills are timed, so a replay may not break the same way:",
                "# tests/fuzz/cli_fuzz.py --seed %d --steps %d --sessions 1 tries again." % (self.seed, self.step),
                "set -m", 'NETSIM=${NETSIM:-%s}' % shlex.quote(self.netsim), "export NETSIM",
                'mkdir -p "${DIR:-work}" && cd "${DIR:-work}" || exit 1']
        text = "\n".join(head + self.script) + "\n"
        with open(os.path.join(where, "replay.sh"), "w") as f:
            f.write(text)
        os.chmod(os.path.join(where, "replay.sh"), 0o755)
        with open(os.path.join(where, "violation.txt"), "w") as f:
            f.write(errors + "\n")
        shutil.copytree(self.work, os.path.join(where, "state"), symlinks=True,
                        ignore=lambda d, names: [n for n in names if n.startswith("fifo")])
        return text


def regressions():
    """[(seed, steps, file)] of tests/fuzz/regressions/cli/*."""
    out = []
    for name in sorted(os.listdir(REGRESSIONS)) if os.path.isdir(REGRESSIONS) else []:
        with open(os.path.join(REGRESSIONS, name)) as f:
            for line in f:
                line = line.split("#")[0].split()
                if line:
                    a = argparse.ArgumentParser()
                    a.add_argument("--seed", type=int, required=True)
                    a.add_argument("--steps", type=int, required=True)
                    r = a.parse_args(line)
                    out.append((r.seed, r.steps, name))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, help="seed of the first session (default: from the clock)")
    ap.add_argument("--seconds", type=float, default=60, help="time budget; no step starts after it (60)")
    ap.add_argument("--steps", type=int, default=40, help="steps per session (40)")
    ap.add_argument("--sessions", type=int, default=0, help="stop after this many sessions (0: the budget)")
    ap.add_argument("--netsim", default=os.environ.get("NETSIM", os.path.join(ROOT, "netsim")))
    ap.add_argument("--work", help="scratch directory (default: a new one under $TMPDIR)")
    ap.add_argument("--no-regressions", action="store_true", help="skip tests/fuzz/regressions/cli")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per step")
    args = ap.parse_args()
    netsim = os.path.abspath(args.netsim)
    if not os.access(netsim, os.X_OK):
        sys.exit("cli_fuzz: no netsim at %s (make)" % netsim)
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % 1000000007
    root = args.work or tempfile.mkdtemp(prefix="netsim-clifuzz-")
    os.makedirs(root, exist_ok=True)
    t0 = time.monotonic()
    deadline = t0 + args.seconds
    log = print if args.verbose else (lambda *a, **k: None)
    plan = [] if args.no_regressions else [(s, n, f) for s, n, f in regressions()]
    sessions = steps = commands = 0
    seeds = []
    print("cli_fuzz: %s, %d regressions, then seeds from %d for %g s, %d steps each; scratch %s"
          % (netsim, len(plan), seed, args.seconds, args.steps, root), flush=True)
    while True:
        if plan:
            s, n, why = plan.pop(0)
            limit = float("inf")
        else:
            if time.monotonic() > deadline or (args.sessions and sessions >= args.sessions):
                break
            s, n, why = seed, args.steps, None
            seed += 1
            limit = deadline
        work = os.path.join(root, "s%d" % s)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        sess = Session(s, work, netsim, log)
        try:
            done = sess.run(n, limit)
        except Violation as v:
            where = os.path.join(root, "repro-%d-%d" % (s, sess.step))
            text = sess.reproducer(where, str(v))
            print(text)
            print("cli_fuzz: VIOLATION, seed %d, step %d%s:\n%s" % (s, sess.step, " (regression %s)" % why
                                                                    if why else "", v))
            print("cli_fuzz: reproducer in %s (replay.sh, violation.txt, state/); again: "
                  "tests/fuzz/cli_fuzz.py --netsim %s --seed %d --steps %d --sessions 1"
                  % (where, shlex.quote(netsim), s, sess.step))
            sys.exit(1)
        sessions += 1
        steps += done
        commands += sess.commands
        seeds.append(s)
        log("cli_fuzz: seed %d: %d steps, %d commands" % (s, done, sess.commands))
        shutil.rmtree(work, ignore_errors=True)
    if not args.work:
        shutil.rmtree(root, ignore_errors=True)
    for (kind, how, rc), n in sorted(STATS.items(), key=str):
        log("cli_fuzz: %6d x %-6s %-10s exit %s" % (n, kind, how, rc))
    span = "%d..%d" % (seeds[0], seeds[-1]) if seeds else "none"
    print("cli_fuzz: %d sessions (seeds %s), %d steps, %d commands in %.0f s: no violation"
          % (sessions, span, steps, commands, time.monotonic() - t0))


if __name__ == "__main__":
    main()
