"""The scenarios cli_fuzz.py runs: tiny TCP runs (20 to 100 simulated ms)
with small sweep axes and repeats, which an edit changes between steps so
that their bytes (scenario_hash) change, sometimes only by a comment. Every
choice comes from the session's random generator, so a seed gives the same
texts again."""
import shlex

RATES = ["10mbit", "100mbit", "1gbit", "5gbit", "10gbit"]
DELAYS = ["0", "1ms", "2ms", "5ms"]
BIG_SEED = 2 ** 63 + 12345          # --seed's unsigned spelling, stored negative in run.seed
FILE_SEED = 2 ** 63 - 12345         # [sim] seed takes a signed 64-bit integer


class Scenario:
    def __init__(self, rng, file):
        self.file = file                     # its name in the work directory
        self.stem = file[:-4] if file.endswith(".ini") else file
        self.edits = 0
        self.generate(rng)

    def generate(self, rng):
        self.duration = rng.choice(["0.02s", "0.05s", "0.1s"])
        self.seed = rng.choice([None, None, 1, 7, FILE_SEED])
        self.repeat = rng.choice([None, 1, 2, 3])
        self.name = rng.choice([None] * 5 + ["shared"])
        self.loss = rng.choice([None, None, "1%"])
        self.ping = rng.random() < 0.3
        self.crlf = rng.random() < 0.1
        self.final_newline = rng.random() < 0.9
        self.axes(rng)

    def axes(self, rng):
        """rate: a value or an axis (named r when delay moves with it);
        delay: a value, an axis, or in lockstep with rate. A value given
        twice (rarely) makes the scenario one that netsim must refuse."""
        def values(pool, n):
            v = rng.sample(pool, n)
            if rng.random() < 0.08:
                v.append(v[0])               # a repeated value
            return v
        self.rate = values(RATES, rng.randint(1, 3)) if rng.random() < 0.7 else rng.choice(RATES)
        self.lock = isinstance(self.rate, list) and rng.random() < 0.25
        if self.lock:
            self.delay = [rng.choice(DELAYS) for _ in self.rate]
        elif rng.random() < 0.4:
            self.delay = values(DELAYS, 2)
        else:
            self.delay = rng.choice(DELAYS)

    def edit(self, rng):
        """One change to the file; its bytes always change."""
        self.edits += 1
        what = rng.choice(["comment", "comment", "duration", "seed", "repeat", "axes", "name", "bytes", "all"])
        if what == "duration":
            self.duration = rng.choice([d for d in ["0.02s", "0.05s", "0.1s", "0.03s"] if d != self.duration])
        elif what == "seed":
            self.seed = rng.choice([None, 1, 2, 7, FILE_SEED])
        elif what == "repeat":
            self.repeat = rng.choice([None, 1, 2, 3])
        elif what == "axes":
            self.axes(rng)
        elif what == "name":
            self.name = None if self.name else rng.choice(["shared", "a"])
        elif what == "bytes":
            self.crlf = not self.crlf if rng.random() < 0.5 else self.crlf
            self.final_newline = not self.final_newline
        elif what == "all":
            self.generate(rng)
        return what

    def copy(self, other):
        """Becomes a copy of other's file, byte for byte: the same version
        (scenario_hash) under another name."""
        for k, v in vars(other).items():
            if k not in ("file", "stem"):
                setattr(self, k, list(v) if isinstance(v, list) else v)

    def axis_keys(self):
        """{key: the axis's values} of the keys that are axes."""
        return {k: v for k, v in (("rate", self.rate), ("delay", self.delay)) if isinstance(v, list)}

    def valid(self):
        """netsim refuses a value twice in an axis, or a lockstep pair twice."""
        if self.lock:
            pairs = list(zip(self.rate, self.delay))
            return len(set(pairs)) == len(pairs)
        return all(len(set(v)) == len(v) for v in self.axis_keys().values())

    def nruns(self):
        n = self.repeat or 1
        n *= len(self.rate) if isinstance(self.rate, list) else 1
        if isinstance(self.delay, list) and not self.lock:
            n *= len(self.delay)
        return n

    def scenario_name(self, piped):
        return self.name or ("pipe" if piped else self.stem)

    def text(self):
        def axis(v, head="", tail=""):
            return "${%s%s%s}" % (head, ", ".join(v), tail) if isinstance(v, list) else v
        lines = ["; cli_fuzz scenario", "[sim]", "duration = %s" % self.duration,
                 "interval = 0.01s"]
        if self.seed is not None:
            lines.append("seed = %d" % self.seed)
        if self.repeat is not None:
            lines.append("repeat = %d" % self.repeat)
        if self.name:
            lines.append("name = %s" % self.name)
        lines += ["[link l]", "ends = a:eth0 b:eth0", "rate = %s" % axis(self.rate, "r=" if self.lock else "")]
        lines.append("delay = %s" % axis(self.delay, "", " ! r" if self.lock else ""))
        if self.loss:
            lines.append("loss = %s" % self.loss)
        lines += ["[flow 1]", "app = tcp_stream", "from = a", "to = b"]
        if self.ping:
            lines += ["[flow 2]", "app = ping", "from = b", "to = a"]
        lines += ["; edit %d" % i for i in range(self.edits)]
        nl = "\r\n" if self.crlf else "\n"
        return (nl.join(lines) + (nl if self.final_newline else "")).encode()


def write_line(path, data):
    """A shell line that writes exactly these bytes to path: a here-document
    when it can, else printf of an ANSI-C string."""
    text = data.decode()
    if text.endswith("\n") and "\r" not in text and "\nEOF_SCENARIO\n" not in text:
        return "cat > %s <<'EOF_SCENARIO'\n%sEOF_SCENARIO" % (shlex.quote(path), text)
    esc = text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
    return "printf %%s $'%s' > %s" % (esc, shlex.quote(path))
