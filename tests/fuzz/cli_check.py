"""What cli_fuzz.py checks after each step: the databases read back, and
the rules every command must keep, whatever was run and however it ended.

A snapshot holds, per database file, every run row with a digest of its
rows in each child table, taken when no netsim process is alive. The rules
compare the snapshot before a step with the one after; each broken rule is
one line of text (the caller stops at the first step that has any).
"""
import glob
import hashlib
import os
import re
import sqlite3

RUN_COLS = ("id", "scenario", "variant_label", "seed", "rep", "started_at", "wall_s", "events", "status",
            "error", "scenario_hash", "sim_s", "hostname")
# what differs between two executions of one run: the wall clock and the machine
WALL_COLS = ("started_at", "wall_s", "hostname")
CHILDREN = ("param", "interval", "series", "counter", "profile")
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|"
                       r"invariant broken|Assertion .* failed|stack smashing|double free|free\(\): ")


def fnv1a64(data):
    """netsim's scenario_hash: FNV-1a 64 over the bytes, 16 hex digits."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def unsigned(seed):
    """run.seed is SQLite's signed 64-bit integer; --dry-run prints it unsigned."""
    return seed % (1 << 64) if seed is not None else None


class Run:
    """One run row and what it owns."""
    __slots__ = ("row", "counts", "data", "params", "config")

    def __init__(self, row):
        self.row = row                       # every column, in RUN_COLS order
        self.counts = {t: 0 for t in CHILDREN}
        self.data = None                     # digest of the results: the child rows but param's
        self.params = None                   # digest of the param rows
        self.config = None                   # digest of the parameters that configure the run

    def col(self, name):
        return self.row[RUN_COLS.index(name)]

    def ident(self):
        """Who the run is: what a sweep or merge matches a run by."""
        return (self.col("scenario"), self.col("scenario_hash"), self.col("variant_label"),
                unsigned(self.col("seed")), self.col("rep"))

    def same(self, other):
        return (self.row == other.row and self.counts == other.counts and self.data == other.data and
                self.params == other.params)

    def same_rows(self, other):
        return self.counts == other.counts and self.data == other.data and self.params == other.params

    def describe(self):
        counts = " ".join("%s=%d" % (t, self.counts[t]) for t in CHILDREN)
        return "run %s: %s, %s" % (self.row[0], dict(zip(RUN_COLS[1:], self.row[1:])), counts)


class DbError(Exception):
    pass


def read_db(path):
    """Every run of the database at path, {id: Run}. Raises DbError when
    the file is no readable database: corrupt, or rows without a run."""
    if os.path.getsize(path) == 0:
        return {}
    try:
        con = sqlite3.connect("file:%s?mode=rw" % path, uri=True, timeout=5)
    except sqlite3.Error as e:
        raise DbError("cannot open: %s" % e)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchall()
        if ok != [("ok",)]:
            raise DbError("integrity_check: %s" % ok[:5])
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "run" not in tables:
            if tables:
                raise DbError("tables %s but no run table" % sorted(tables))
            return {}
        runs = {}
        for row in con.execute("SELECT %s FROM run ORDER BY id" % ", ".join(RUN_COLS)):
            runs[row[0]] = Run(row)
        for t in CHILDREN:
            if t not in tables:
                raise DbError("no %s table" % t)
            digests = {}
            for row in con.execute("SELECT * FROM %s ORDER BY run_id, rowid" % t):
                rid = row[0]
                if rid not in runs:
                    raise DbError("%s rows of run %s, which is not in run" % (t, rid))
                runs[rid].counts[t] += 1
                digests.setdefault(rid, hashlib.sha1()).update(repr(row[1:]).encode())
            for rid, d in digests.items():
                if t == "param":
                    runs[rid].params = d.hexdigest()[:16]
                else:
                    runs[rid].data = (runs[rid].data or "") + t + d.hexdigest()[:16]
        # a run's configuration: its parameters but those that name rather
        # than set (label.*) and the sweep's own record of its axes (axis.*),
        # so that a run and the sweep combination it equals compare alike
        conf = {}
        for rid, k, v in con.execute("SELECT run_id, key, value FROM param ORDER BY run_id, key, value"):
            if not k.startswith(("label.", "axis.")):
                conf.setdefault(rid, []).append((k, v))
        for rid, run in runs.items():
            run.config = hashlib.sha1(repr(conf.get(rid, [])).encode()).hexdigest()[:16]
        return runs
    except sqlite3.Error as e:
        raise DbError(str(e))
    finally:
        con.close()


def dump(path, exclude=WALL_COLS):
    """Rows of every table as text, run without the wall-clock columns, the
    others by run and insertion order: -j 1 and -j 2 must give the same."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        cols = [c for c in RUN_COLS if c not in exclude]
        out = ["run %r" % (r,) for r in con.execute("SELECT %s FROM run ORDER BY id" % ", ".join(cols))]
        for t in CHILDREN:
            out += ["%s %r" % (t, r) for r in con.execute("SELECT * FROM %s ORDER BY run_id, rowid" % t)]
        return out
    finally:
        con.close()


def snapshot(work):
    """{db name: {id: Run}} for every *.db in the work directory, with
    {db name: error} for those that cannot be read."""
    snap, bad = {}, {}
    for path in sorted(glob.glob(os.path.join(work, "*.db"))):
        name = os.path.basename(path)
        try:
            snap[name] = read_db(path)
        except DbError as e:
            bad[name] = str(e)
    return snap, bad


def side_files(work, db):
    """What netsim leaves beside db: claims, a sweep's temporaries, journals."""
    base = os.path.join(work, db)
    return sorted(os.path.basename(p) for p in glob.glob(glob.escape(base) + ".*") + glob.glob(glob.escape(base) + "-*"))


class Rules:
    """The rules, with the history they need: the complete runs seen so
    far, the configurations' results, and for each database what was ever
    asked to run in it (a killed run's claim may be copied in later)."""

    def __init__(self):
        self.complete = {}      # (db, id) -> Run, every complete run ever seen
        self.results = {}       # (hash, config) -> (data, events, where)
        self.attempts = {}      # db -> {(scenario, hash): {(label, seed, rep)}}

    def databases(self):
        return sorted(set(k[0] for k in self.complete) | set(self.attempts))

    def forget(self, db):
        """The fuzzer removed db."""
        self.complete = {k: v for k, v in self.complete.items() if k[0] != db}
        self.attempts.pop(db, None)

    def attempt(self, db, scenario, hsh, runs):
        self.attempts.setdefault(db, {}).setdefault((scenario, hsh), set()).update(runs)

    def after_step(self, before, after, bad, written, merges, own):
        """The rules every step keeps. written: the databases the step's
        commands could write; merges: {out: [input names]}; own: {db: the
        runs (idents) a sweep of this step may run again there}."""
        errs = ["%s: %s" % (db, why) for db, why in sorted(bad.items())]
        # a sweep's --resume deletes and runs again its own unfinished runs;
        # nothing else removes or rewrites a run, complete or not
        for db, runs in sorted(before.items()):
            for rid, old in sorted(runs.items()):
                new = (after.get(db) or {}).get(rid)
                if old.col("status") != "complete" and (new is None or not new.same(old)) and \
                        old.ident() not in own.get(db, ()):
                    errs.append("%s: %s run %s, which no sweep of this step owns, was %s:\n    was %s%s"
                                % (db, old.col("status"), rid, "deleted" if new is None else "replaced",
                                   old.describe(), "" if new is None else "\n    now " + new.describe()))
        for (db, rid), old in sorted(self.complete.items()):
            new = after.get(db, {}).get(rid)
            if new is None:
                errs.append("%s: complete run %s is gone (was %s)" % (db, rid, old.describe()))
            elif not new.same(old):
                errs.append("%s: complete run %s changed:\n    was %s\n    now %s" % (db, rid, old.describe(),
                                                                                  new.describe()))
        for db in sorted(set(before) | set(after)):
            if db not in written and before.get(db) is not None and not _same_db(before.get(db), after.get(db)):
                errs.append("%s changed, though no command of this step writes it" % db)
            if db not in written and db not in before and db in after:
                errs.append("%s appeared, though no command of this step writes it" % db)
            for rid, run in sorted(after.get(db, {}).items()):
                status = run.col("status")
                if status == "running":
                    errs.append("%s: run %s is 'running' with no netsim alive" % (db, rid))
                if status == "complete" and run.counts["interval"] == 0:
                    errs.append("%s: complete run %s has no interval rows" % (db, rid))
                old = before.get(db, {}).get(rid)
                if old is not None and old.same(run):
                    continue
                if db in merges:
                    errs += self._merged(db, run, [after.get(i, {}) for i in merges[db] if i != db])
                else:
                    errs += self._attempted(db, run)
                if status == "complete":
                    errs += self._deterministic(db, run)
        for db, runs in after.items():
            for rid, run in runs.items():
                if run.col("status") == "complete":
                    self.complete[(db, rid)] = run
        return errs

    def _attempted(self, db, run):
        scen, hsh, label, seed, rep = run.ident()
        runs = self.attempts.get(db, {}).get((scen, hsh))
        if runs is None:
            known = ", ".join("%s %s" % k for k in sorted(self.attempts.get(db, {}), key=str))
            return ["%s: run %s of %s has scenario_hash %s, which is no version of %s ever run into %s "
                    "(versions run into it: %s)" % (db, run.row[0], scen, hsh, scen, db, known or "none")]
        if (label, seed, rep) not in runs:
            return ["%s: run %s (%s, label %r, seed %s, rep %s) is no run ever asked of this scenario version"
                    % (db, run.row[0], scen, label, seed, rep)]
        return []

    def _merged(self, db, run, inputs):
        for src in inputs:
            for other in src.values():
                if other.row[1:] == run.row[1:] and other.same_rows(run):
                    return []
        return ["%s: run %s after the merge is no run of its inputs: %s" % (db, run.row[0], run.describe())]

    def _deterministic(self, db, run):
        """Equal configuration (scenario bytes, parameters, seed), equal rows:
        whether it ran alone, in a sweep with -j 1 or 2, or came by merge."""
        key = (run.col("scenario_hash"), run.config, unsigned(run.col("seed")))
        mine = (run.data, run.col("events"))
        seen = self.results.setdefault(key, mine + ("%s run %s" % (db, run.row[0]),))
        if seen[:2] != mine:
            return ["%s: run %s has other rows than %s, which ran the same scenario bytes with the same "
                    "parameters (events %s, now %s)" % (db, run.row[0], seen[2], seen[1], mine[1])]
        return []


def _same_db(a, b):
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(a[k].same(b[k]) for k in a)


def same_db(a, b):
    return _same_db(a, b)


def find_complete(runs, ident):
    """The complete runs of runs ({id: Run}) that are ident."""
    return [r for r in runs.values() if r.col("status") == "complete" and r.ident() == ident]


def exit_ok(rc, sent, stderr_text):
    """Rule 6 for one command: the exit status is netsim's own (0, 1, 2;
    130 after an interrupt), or death by the signal the fuzzer sent; no
    sanitizer report."""
    errs = []
    if rc is None:
        errs.append("did not finish in time (killed by the fuzzer)")
    elif rc < 0 and -rc not in sent:
        errs.append("died of signal %d, which the fuzzer did not send (sent: %s)" % (-rc, sorted(sent) or "none"))
    elif rc == 130 and not sent & {2, 15}:
        errs.append("exit 130 (interrupted) with no SIGINT or SIGTERM sent")
    elif rc >= 0 and rc not in (0, 1, 2, 130):
        errs.append("exit status %d, not one netsim documents" % rc)
    m = SANITIZER.search(stderr_text)
    if m:
        i = stderr_text.find(m.group(0))
        errs.append("stderr reports %r:\n%s" % (m.group(0), stderr_text[max(0, i - 200):i + 1500]))
    return errs
