"""The steps cli_fuzz.py takes and what each command promises. An Op is a
step: lines of the fuzzer's own (a scenario edited, a database removed)
and batches of netsim commands, run one after the other or all at once. A
Cmd is one netsim command with what its exit status promises (rule 5) and
what it may write (rules 2 and 4, through cli_check.Rules)."""
import os
import re
import shlex
import signal

import cli_check as C
from cli_scen import Scenario, write_line, BIG_SEED

SCENARIOS = ["a.ini", "b x.ini", "c'q.ini"]   # a space and a quote for --emit-jobs to quote
DBS = ["d0.db", "d1.db", "d2.db"]
MERGED = ["m0.db", "m1.db"]
ODD = ["fifo1", "/dev/null", "tmp"]            # no results database: a FIFO, a device, a directory
JOB_DBS = ["d0.run1.db", "d0.run2.db", "d1.run1.db", "d1.run3.db", "d2.run2.db"]
SIGS = {signal.SIGINT: "INT", signal.SIGTERM: "TERM", signal.SIGKILL: "KILL"}
PRINTS = ("run", "dry", "emit", "report", "merge")      # commands that always print something
DRY = re.compile(r"^run\s+(\d+)/(\d+)\s+rep (\d+)\s+seed (\d+)\s*(.*?)\s*$")


def q(s):
    return shlex.quote(s)


class Cmd:
    def __init__(self, kind, args, db=None, src=None, stdout="file"):
        self.kind = kind                 # run, sweep, dry, emit, merge, report, job
        self.args = args                 # after the program; "{SRC}" for the scenario
        self.db = db                     # the database it writes
        self.inputs = []                 # merge's
        self.src = src                   # (how, Scenario): file, fifo, procsub
        self.fifo = "fifo0"
        self.stdout = stdout             # file, full (/dev/full) or closed
        self.signals = []                # (seconds after the start, signal, to the process group)
        self.raw = None                  # an emitted job's line, run as printed
        self.wanted = []                 # (run number or None, ident) it must leave complete on exit 0
        self.expect_rc = None            # the exit statuses it may end with, not killed and alone
        self.listing = None              # --dry-run's lines, or --emit-jobs' argvs, expected
        self.pre_errors = []
        self.attempt = None              # (scenario, hash, idents) it may record
        self.prints = kind in PRINTS     # it always prints something when it succeeds

    def source_arg(self):
        how, sc = self.src
        return {"file": q(sc.file), "fifo": self.fifo, "procsub": "<(cat %s)" % q(sc.file)}[how]

    def command(self):
        if self.raw is not None:
            return self.raw
        args = " ".join(self.source_arg() if a == "{SRC}" else q(a) for a in self.args)
        return '"$NETSIM" ' + args

    def redirect(self):
        return {"file": "", "full": " > /dev/full", "closed": " >&-"}[self.stdout]

    def prefix(self):
        return "cat %s > %s & " % (q(self.src[1].file), self.fifo) if self.src and self.src[0] == "fifo" else ""

    def body(self):
        return self.prefix() + "exec " + self.command() + self.redirect()

    def line(self):
        return self.prefix() + self.command() + self.redirect()

    def reads(self):
        return ([self.db] if self.db else []) + [i for i in self.inputs if i != self.db]

    def writes(self):
        return [self.db] if self.db else []

    def register(self, rules):
        if self.attempt and self.db:
            rules.attempt(self.db, *self.attempt)

    def check(self, s, concurrent):
        errs = list(self.pre_errors)
        rc, killed = self.rc, bool(self.sent)
        if rc is None:
            return errs
        if self.stdout != "file" and self.prints and rc == 0:
            errs.append("exit 0, though what it prints could not be written (stdout %s)" % self.stdout)
        expect = self.expect_rc
        if expect is not None and self.stdout != "file" and self.prints:
            expect = {1 if x == 0 else x for x in expect}
        if not killed and not concurrent and expect is not None and rc not in expect:
            errs.append("exit %d, expected %s; stderr:\n%s" % (rc, sorted(expect), self.stderr[-1500:]))
        after = {db: s.state(db) for db in self.reads()}
        if self.kind in ("run", "sweep", "job"):
            b, a = self.before.get(self.db), after.get(self.db)
            for k, ident in self.wanted if self.done() else []:
                got = C.find_complete(a or {}, ident)
                if self.kind == "run":
                    got = [r for r in got if not (b and r.row[0] in b and b[r.row[0]].same(r))]
                if not got:
                    errs.append("exit %d, but %s (scenario, hash, label, seed, rep = %s) is not complete in %s"
                                % (rc, "its run %d" % k if k else "its run", ident, self.db))
                elif k and not concurrent and k not in [r.row[0] for r in got]:
                    errs.append("exit 0, but its run %d is recorded as run %s" % (k, [r.row[0] for r in got]))
            if rc == 2 and not concurrent and not C.same_db(b, a):
                errs.append("exit 2 (nothing run, no database touched), but %s changed" % self.db)
        if self.kind == "merge" and not concurrent:
            errs += self.check_merge(after)
        if self.listing is not None and rc == 0 and self.stdout == "file":
            errs += self.check_listing()
        if self.db and not killed and not concurrent and rc == 0:
            new = set(C.side_files(s.work, self.db)) - self.side_before
            if new:
                errs.append("exit 0, but it left %s beside %s" % (sorted(new), self.db))
        return errs

    def done(self):
        """Did it do its work: exit 0, or 1 for no other fault than its
        standard output (which it writes last)?"""
        lines = [x for x in self.stderr.splitlines() if x and "note: " not in x]
        lost = len(lines) == 1 and ": writing standard output: " in lines[0]
        return self.rc == 0 or (self.rc == 1 and self.stdout != "file" and not self.sent and lost)

    def check_merge(self, after):
        out = after.get(self.db) or {}
        if not self.done():
            if not self.sent and not C.same_db(self.before.get(self.db), after.get(self.db)):
                return ["merge failed (exit %d) and changed %s: a refused merge leaves OUT as it was"
                        % (self.rc, self.db)]
            return []
        errs = []
        for name in self.inputs:
            src = self.before.get(name)
            if src is None:
                errs.append("exit 0, though input %s is missing or no results database" % name)
                continue
            for r in src.values():
                if any(o.row[1:] == r.row[1:] and o.same_rows(r) for o in out.values()):
                    continue
                # a duplicate of a complete run (the same bytes, label, seed,
                # rep and parameters, whatever the scenario's name), skipped
                if any(o.col("status") == "complete" and o.ident()[1:] == r.ident()[1:] and o.params == r.params
                       for o in out.values()):
                    continue
                errs.append("exit 0, but %s's %s is not in %s" % (name, r.describe(), self.db))
        return errs

    def check_listing(self):
        text = self.out_bytes.decode(errors="replace").splitlines()
        if self.kind == "dry":
            got = []
            for line in text:
                m = DRY.match(line)
                got.append((int(m.group(1)), int(m.group(3)), int(m.group(4)), m.group(5)) if m else line)
        else:
            got = [shlex.split(line) for line in text]
        if got != self.listing:
            return ["it printed\n%s\nexpected\n%s" % ("\n".join(map(str, got)), "\n".join(map(str, self.listing)))]
        return []


class Op:
    def __init__(self, desc):
        self.desc = desc
        self.setup = []                  # the fuzzer's shell lines, before the commands
        self.batches = []                # [([Cmd], concurrent)], in order
        self.compare = []                # databases that must dump alike (rule 3)

    def cmds(self):
        return [c for batch, _ in self.batches for c in batch]

    def final_check(self, s):
        dbs = [d for d in self.compare if os.path.exists(os.path.join(s.work, d))]
        if len(dbs) < 2:
            return []
        first = C.dump(os.path.join(s.work, dbs[0]))
        errs = []
        for d in dbs[1:]:
            other = C.dump(os.path.join(s.work, d))
            if other != first:
                diff = [("- " + a, "+ " + b) for a, b in zip(first, other) if a != b][:5]
                errs.append("%s and %s hold different rows (%d and %d lines; first differences: %s)"
                            % (dbs[0], d, len(first), len(other), diff))
        return errs


def script_lines(cmds, concurrent):
    """The batch as shell lines, with its kills and the exit statuses seen."""
    lines, waits = [], []
    for i, c in enumerate(cmds):
        bg = concurrent or c.signals
        seen = "timed out" if c.rc is None else c.rc
        if not bg:
            lines.append("( %s ); echo \"# exit $? (fuzzer: %s)\"" % (c.body(), seen))
            continue
        lines.append("( %s ) & p%d=$!" % (c.body(), i))
        waits.append("wait $p%d; echo \"# exit $? (fuzzer: %s)\"" % (i, seen))
    t = 0.0
    timed = sorted((d, i, sig, g) for i, c in enumerate(cmds) for d, sig, g in c.signals)
    for d, i, sig, g in timed:
        if d > t:
            lines.append("sleep %.3f" % (d - t))
            t = d
        lines.append("kill -%s %s$p%d 2>/dev/null" % (SIGS[sig], "-- -" if g else "", i))
    return lines + waits


class Ops:
    """Chooses the steps. Every choice comes from the session's generator
    and none from what happened, so a seed takes the same steps again."""

    def __init__(self, session):
        self.s = session
        self.rng = session.rng
        self.cache = {}

    def setup(self):
        self.scens = [Scenario(self.rng, f) for f in SCENARIOS]
        self.s.shell("mkfifo fifo0 fifo1", "two FIFOs a scenario is sometimes read through")
        for sc in self.scens:
            self.write(sc)

    def write(self, sc):
        self.s.shell(write_line(sc.file, sc.text()))

    def take_jobs(self, emit, op):
        """The jobs of op that follow emit run as emit printed them."""
        if emit.rc != 0 or emit.stdout != "file":
            return
        lines = emit.out_bytes.decode(errors="replace").splitlines()
        me = q(self.s.netsim)
        for c in op.cmds():
            if getattr(c, "after_emit", None) is not emit:
                continue
            for line in lines:
                try:
                    argv = shlex.split(line)
                except ValueError:
                    continue
                if argv[-4:-2] == ["--only", str(c.sel[1])]:
                    c.raw = '"$NETSIM"' + line[len(me):] if line.startswith(me + " ") else line

    def bytes(self, sc):
        with open(os.path.join(self.s.work, sc.file), "rb") as f:
            return f.read()

    def next_step(self):
        r = self.rng
        kinds = [("edit", 10), ("run", 14), ("sweep", 22), ("merge", 8), ("report", 5), ("dry", 4), ("emit", 3),
                 ("emitexec", 4), ("compare", 6), ("concurrent", 7), ("rm", 3)]
        kind = r.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        return getattr(self, "op_" + kind)()

    # -- pieces -------------------------------------------------------------

    def kills(self, p):
        if self.rng.random() >= p:
            return []
        r = self.rng
        # most in the middle of a run (tens of ms), some in the start-up
        lo, hi = r.choices([(0, 0.004), (0.004, 0.03), (0.03, 0.12)], [15, 45, 40])[0]
        d = r.uniform(lo, hi)
        sig = r.choices([signal.SIGINT, signal.SIGTERM, signal.SIGKILL], [40, 25, 35])[0]
        group = r.random() < 0.3
        out = [(d, sig, group)]
        if sig != signal.SIGKILL and r.random() < 0.2:     # a second Ctrl-C kills the workers
            out.append((d + r.uniform(0, 0.02), sig, group))
        return out

    def out_mode(self):
        return self.rng.choices(["file", "full", "closed"], [85, 8, 7])[0]

    def source(self, sc, piped=True):
        how = self.rng.choices(["file", "fifo", "procsub"], [80, 10, 10])[0] if piped else "file"
        return (how, sc)

    def dry(self, sc, sets):
        """The runs netsim's --dry-run lists for sc with sets, [(k, rep,
        seed, label)], or None when it refuses the scenario; the fuzzer's
        own count of runs, and refusal of a repeated value, checked."""
        data = self.bytes(sc)
        key = (data, tuple(sets))
        if key not in self.cache:
            args = ["sweep", sc.file] + [x for st in sets for x in ("--set", st)] + ["--dry-run"]
            rc, out, err = self.s.oracle(args)
            rows = [DRY.match(line) for line in out.splitlines()]
            rows = [(int(m.group(1)), int(m.group(3)), int(m.group(4)), m.group(5)) for m in rows if m]
            errs = []
            check = not any(st.startswith(("l.rate", "l.delay", "sim.repeat")) for st in sets)
            if check and sc.valid() and (rc != 0 or len(rows) != sc.nruns()):
                errs.append("sweep --dry-run of %s (%s): exit %d, %d runs; expected %d runs\n%s%s"
                            % (sc.file, sets, rc, len(rows), sc.nruns(), out[-800:], err[-800:]))
            if check and not sc.valid() and rc != 2:
                errs.append("sweep --dry-run of %s, whose axis repeats a value: exit %d, not 2" % (sc.file, rc))
            if rc == 0 and len(set((x[1], x[3]) for x in rows)) != len(rows):
                errs.append("sweep --dry-run of %s lists a combination twice:\n%s" % (sc.file, out[-800:]))
            self.cache[key] = (rows if rc == 0 else None, errs)
        return self.cache[key]

    def extra_sets(self):
        return self.rng.choices([[], ["sim.duration=0.03s"], ["l.loss=1%"]], [75, 15, 10])[0]

    def selection(self, n_hint=4):
        r = self.rng.random()
        if r < 0.7:
            return [], None
        if r < 0.85:
            k = self.rng.randint(1, n_hint)
            return ["--only", str(k)], ("only", k)
        n = self.rng.randint(2, 3)
        i = self.rng.randint(1, n)
        return ["--shard", "%d/%d" % (i, n)], ("shard", i, n)

    @staticmethod
    def selected(rows, sel):
        if sel is None:
            return rows
        if sel[0] == "only":
            return [x for x in rows if x[0] == sel[1]]
        return [x for x in rows if (x[0] - 1) % sel[2] == sel[1] - 1]

    def sweep_cmd(self, sc, db, kind="sweep", src=None, sets=None, sel=None, jobs=None, resume=None):
        r = self.rng
        sets = self.extra_sets() if sets is None else sets
        selargs, sel = self.selection() if sel is None else sel
        src = src or self.source(sc)
        args = ["sweep", "{SRC}"] + [x for st in sets for x in ("--set", st)] + selargs
        if kind == "sweep":
            args += ["-o", db, "-j", str(jobs or r.choice([1, 2]))]
            if resume if resume is not None else r.random() < 0.5:
                args.append("--resume")
            if r.random() < 0.7:
                args.append("-q")
        elif kind == "emit":
            args += ["--emit-jobs", "-o", db]
        else:
            args.append("--dry-run")
        c = Cmd(kind, args, db=db if kind == "sweep" else None, src=src)
        rows, c.pre_errors = self.dry(sc, sets)
        name, hsh = sc.scenario_name(src[0] != "file"), C.fnv1a64(self.bytes(sc))
        want = self.selected(rows or [], sel)
        c.wanted = [(k, (name, hsh, label, seed, rep)) for k, rep, seed, label in want]
        c.attempt = (name, hsh, set(ident[2:] for _, ident in c.wanted))
        # an --only past the last run is refused; an empty --shard is no error
        refused = rows is None or (sel is not None and sel[0] == "only" and not want)
        c.expect_rc = {2} if refused else {0} if kind != "sweep" else {0, 1, 2}
        c.prints = kind != "sweep" and bool(want)
        if kind == "dry":
            c.listing = want
        elif kind == "emit" and src[0] == "file":
            base = db[:-3] if db.endswith(".db") else db
            c.listing = [[self.s.netsim, "sweep", sc.file] + [x for st in sets for x in ("--set", st)] +
                         ["--only", str(k), "-o", "%s.run%d.db" % (base, k)] for k, _, _, _ in want]
        c.sets, c.sel, c.scen = sets, sel, sc
        return c

    def run_cmd(self, sc, db):
        r = self.rng
        src = self.source(sc)
        sets = ["l.%s=%s" % (k, r.choice(v + ["50mbit" if k == "rate" else "3ms"]))
                for k, v in sorted(sc.axis_keys().items())]
        if r.random() < 0.1:
            sets.append("sim.duration=0.03s")
        args = ["run", "{SRC}", "-o", db] + [x for st in sets for x in ("--set", st)]
        seed = rep = None
        if r.random() < 0.25:
            seed = r.choice(["3", "-5", str(BIG_SEED)])
            args += ["--seed", seed]
        if r.random() < 0.3:
            rep = r.randint(0, 3)
            args += ["--rep", str(rep)]
        if r.random() < 0.7:
            args.append("-q")
        if r.random() < 0.1:
            args.append("--json")
        c = Cmd("run", args, db=db, src=src, stdout=self.out_mode())
        name, hsh = sc.scenario_name(src[0] != "file"), C.fnv1a64(self.bytes(sc))
        if seed is None:
            rows, c.pre_errors = self.dry(sc, sets + ["sim.repeat=%d" % ((rep or 0) + 1)])
            seeds = [x[2] for x in rows or [] if x[1] == (rep or 0)]
            if not seeds:
                c.pre_errors = c.pre_errors + ["sweep --dry-run refuses %s with %s" % (sc.file, sets)]
                return c
            seed = seeds[0]
        ident = (name, hsh, "", C.unsigned(int(seed)), rep or 0)
        c.wanted = [(None, ident)]
        c.attempt = (name, hsh, {ident[2:]})
        c.expect_rc = {0}
        return c

    # -- the steps ------------------------------------------------------------

    def op_edit(self):
        sc = self.rng.choice(self.scens)
        if self.rng.random() < 0.15:
            other = self.rng.choice([x for x in self.scens if x is not sc])
            sc.copy(other)
            what = "a copy of %s" % other.file
        else:
            what = sc.edit(self.rng)
        op = Op("edit %s (%s)" % (sc.file, what))
        op.setup = [write_line(sc.file, sc.text())]
        return op

    def odd_output(self, c):
        """Sometimes -o names no file a database can be: refused, no hang."""
        if self.rng.random() < 0.04:
            c.args[c.args.index("-o") + 1] = self.rng.choice(ODD)
            c.db, c.wanted, c.attempt, c.expect_rc = None, [], None, {1, 2}

    def op_run(self):
        c = self.run_cmd(self.rng.choice(self.scens), self.rng.choice(DBS))
        self.odd_output(c)
        c.signals = self.kills(0.35)
        op = Op("run")
        op.batches = [([c], False)]
        return op

    def op_sweep(self):
        c = self.sweep_cmd(self.rng.choice(self.scens), self.rng.choice(DBS))
        self.odd_output(c)
        c.stdout = self.out_mode()
        c.signals = self.kills(0.35)
        op = Op("sweep")
        op.batches = [([c], False)]
        return op

    def op_concurrent(self):
        db = self.rng.choice(DBS)
        cmds = [self.run_cmd(self.rng.choice(self.scens), db) if self.rng.random() < 0.5
                else self.sweep_cmd(self.rng.choice(self.scens), db) for _ in range(2)]
        cmds[1].fifo = "fifo1"
        cmds[self.rng.randint(0, 1)].signals = self.kills(0.4)
        op = Op("two commands on %s at once" % db)
        op.batches = [(cmds, True)]
        return op

    def op_merge(self):
        r = self.rng
        out = r.choice(MERGED + MERGED + ["d0.db"])
        pool = DBS + MERGED + JOB_DBS
        inputs = r.sample(pool, r.randint(1, 3))
        if r.random() < 0.05:
            inputs.append(r.choice([SCENARIOS[0], out]))
        odd = r.random() < 0.06
        if odd:
            inputs.insert(r.randint(0, len(inputs)), r.choice(ODD))
        if r.random() < 0.03:
            out, odd = r.choice(ODD), True
        c = Cmd("merge", ["merge", out] + inputs, db=None if out in ODD else out, stdout=self.out_mode())
        c.inputs = [i for i in inputs if i not in ODD]
        c.expect_rc = {1, 2} if odd else None          # 2: OUT among the inputs
        c.signals = self.kills(0.25)
        op = Op("merge")
        op.batches = [([c], False)]
        return op

    def op_report(self):
        r = self.rng
        db = r.choice(DBS + MERGED + JOB_DBS[:2] + ODD[r.randint(0, 20):])
        opts = r.choice([[], ["--by", "flow"], ["--json"], ["--metric", "retransmits"], ["--by", "host"],
                         ["--compare", "rate=10mbit,1gbit"]])
        c = Cmd("report", ["report", db] + opts, stdout=self.out_mode())
        c.inputs = [db] if db not in ODD else []
        c.expect_rc = {1, 2} if db in ODD else None
        op = Op("report")
        op.batches = [([c], False)]
        return op

    def op_dry(self):
        c = self.sweep_cmd(self.rng.choice(self.scens), None, kind="dry")
        c.stdout = self.out_mode()
        op = Op("dry-run")
        op.batches = [([c], False)]
        return op

    def op_emit(self):
        c = self.sweep_cmd(self.rng.choice(self.scens), self.rng.choice(DBS), kind="emit")
        c.stdout = self.out_mode()
        op = Op("emit-jobs")
        op.batches = [([c], False)]
        return op

    def op_emitexec(self):
        sc, db = self.rng.choice(self.scens), self.rng.choice(DBS)
        emit = self.sweep_cmd(sc, db, kind="emit", src=("file", sc))
        op = Op("emit-jobs, then run each job")
        jobs = [self.job(emit, k, self.kills(0.15)) for k, _ in emit.wanted]
        op.batches = [([emit], False)] + [([j], False) for j in jobs]
        return op

    def job(self, emit, k, signals):
        """Job k of emit's list, run as emit printed it."""
        base = emit.args[emit.args.index("-o") + 1][:-3]
        c = self.sweep_cmd(emit.scen, "%s.run%d.db" % (base, k), src=("file", emit.scen), sets=emit.sets,
                           sel=(["--only", str(k)], ("only", k)), jobs=1, resume=False)
        c.kind, c.signals = "job", signals
        c.after_emit = emit
        return c

    def op_compare(self):
        r = self.rng
        sc = r.choice(self.scens)
        sets = self.extra_sets()
        op = Op("%s into fresh databases: -j 1, -j 2, shards, jobs; alike" % sc.file)
        op.setup = ["rm -f cmp*"]
        kw = dict(src=("file", sc), sets=sets, sel=([], None), resume=r.random() < 0.3)
        one, two = self.sweep_cmd(sc, "cmp1.db", jobs=1, **kw), self.sweep_cmd(sc, "cmp2.db", jobs=2, **kw)
        op.batches = [([one], False), ([two], False)]
        op.compare = ["cmp1.db", "cmp2.db"]
        if r.random() < 0.5:
            n = r.randint(2, 3)
            shards = [self.sweep_cmd(sc, "cmps%d.db" % i, sel=(["--shard", "%d/%d" % (i, n)], ("shard", i, n)),
                                     **{k: v for k, v in kw.items() if k != "sel"}) for i in range(1, n + 1)]
            m = Cmd("merge", ["merge", "cmpm.db"] + ["cmps%d.db" % i for i in range(1, n + 1)], db="cmpm.db")
            m.inputs = ["cmps%d.db" % i for i in range(1, n + 1)]
            m.expect_rc = {0} if sc.valid() else {0, 1}
            op.batches += [([x], False) for x in shards] + [([m], False)]
            op.compare.append("cmpm.db")
        if r.random() < 0.3:
            emit = self.sweep_cmd(sc, "cmpe.db", kind="emit", src=("file", sc), sets=sets, sel=([], None))
            jobs = [self.job(emit, k, []) for k, _ in emit.wanted]
            m = Cmd("merge", ["merge", "cmpem.db"] + ["cmpe.run%d.db" % k for k, _ in emit.wanted], db="cmpem.db")
            m.inputs = ["cmpe.run%d.db" % k for k, _ in emit.wanted]
            m.expect_rc = {0}
            op.batches += [([emit], False)] + [([j], False) for j in jobs] + ([([m], False)] if jobs else [])
            op.compare.append("cmpem.db")
        for c in op.cmds():
            if c.kind in ("sweep", "job") and c.pre_errors == [] and c.wanted:
                c.expect_rc = {0}
        return op

    def op_rm(self):
        db = self.rng.choice(DBS + MERGED)
        op = Op("remove %s and what lies beside it" % db)
        op.setup = ["rm -f %s %s.* %s-*" % (db, db, db)]
        return op
