#!/usr/bin/env python3
"""Side by side with twsearch on its own sample corpus (issue 47's measuring tool).

For every twsearch definition (`.tws`) under the samples folders and every scramble depth
(default 1, 5 and 8 moves), one random scramble of that many moves is made from the file's own
generators, and both solvers solve it cold, each as a whole process on one thread with a 4 GiB
budget, their order alternating from case to case:

    statespace solve --no-cache FILE --scramble "S" --threads 1 --memory 4GiB --json
    twsearch -t 1 -M 4000 --nowrite --scramblealg "S" FILE

Measured: the wall time of the whole process (reading the file, building tables, searching,
exiting) and its peak RSS (GNU time's `%M`: see `run`), each killed at `--timeout` seconds
(default 30). Where both finish, their solution lengths must agree: a disagreement is printed
loudly and makes the exit code 1. Nothing else is checked (no path is replayed). A solver that
exits with an error (ours: its one-line `statespace: error: ...`; twsearch: its `! ...` line)
is recorded as such, not solved; the report lists every error.

The scramble: seeded by `--seed`, the file name and the depth, so reproducible. The generators
are the file's `Move`, `MoveTransformation` and `MoveSequence` moves (not `MoveAlias`), less the
rotations as both solvers decide them (`x`, `y`, `z` with `2` or `'`, or a grip of capitals and
`_` followed by `v`), less moves that do nothing. Each step turns a generator other than the
previous step's by a random power `1..order-1`, written as twsearch names the powers and
statespace's `--scramble` reads them (`R`, `R2`, `R'`; a 5-fold move: `R`, `R2`, `R2'`, `R'`).
In a file with `Illegal` rules, a step never enters an illegal state.

The report (Markdown, on stdout): per depth, the files each loads, the cases each solves within
the timeout, the median time ratio ours/twsearch over the cases both solve where either takes
over 0.1 s, how many of those are over 2x; the worst ten ratios; the cases one solves and the
other does not; every error. Progress goes to stderr.

    python3 benches/tws_corpus.py --twsearch /tmp/h-tws/build/bin/twsearch \\
        --samples /tmp/h-tws/samples --json /tmp/corpus.json > /tmp/corpus.md
    python3 benches/tws_corpus.py --only helicopter 3x3x3 FTO maltese --twsearch TWS
    python3 benches/tws_corpus.py --report /tmp/corpus.json      # the report of a saved run

With `--json`, the raw results are rewritten after every case, so a run that is stopped still
leaves them; `--resume` skips the cases a saved file already holds (same scramble).
"""

import argparse
import concurrent.futures
import datetime
import json
import math
import os
import pathlib
import random
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SLOW = 0.1  # seconds: a case counts for the ratios when either solver takes longer
WORST = 10


# ---------------------------------------------------------------------------------------------
# Reading a definition: just enough of twsearch's format to know the generators, their orders
# and the legal states.


class Definition:
    """The sets, solved state, moves and illegal rules of a `.tws` file."""

    def __init__(self):
        self.sets = []  # (name, size, omod)
        self.solved = {}  # set name -> (labels, orientations); labels None = wildcard
        self.moves = {}  # name -> {set name: (perm, ori)} (0-based, new style)
        self.kinds = {}  # name -> "Move" | "MoveTransformation" | "MoveSequence" | "MoveAlias"
        self.order = []  # move names in file order
        self.sequences = {}  # name -> sequence text
        self.illegal = []  # (set name, slot, set of labels), 0-based


def is_rotation(name):
    """A rotation as statespace (`is_rotation_name`) and twsearch (`isrotation`) decide."""
    if name[:1] in ("x", "y", "z") and name[1:] in ("", "2", "'"):
        return True
    grip = len(name) - len(name.lstrip("_ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return grip > 0 and grip + 1 == len(name) and name[grip] == "v"


def parse_tws(path):
    """Reads `path` into a Definition; raises ValueError on what it does not understand."""
    lines = []
    for raw in pathlib.Path(path).read_text(errors="replace").splitlines():
        toks = raw.split("#", 1)[0].split()
        if toks:
            lines.append(toks)
    d = Definition()
    sizes = {}
    i = 0

    def block(kind):
        nonlocal i
        out = {}
        cur = None
        rows = []

        def close():
            if cur is not None:
                n, omod = sizes[cur]
                if not rows or len(rows) > 2:
                    raise ValueError(f"set {cur} in a {kind} block: {len(rows)} rows")
                perm = rows[0]
                ori = rows[1] if len(rows) > 1 else ["0"] * n
                if len(perm) != n or len(ori) != n:
                    raise ValueError(f"set {cur} in a {kind} block: wrong length")
                out[cur] = (perm, ori)

        while i < len(lines):
            toks = lines[i]
            i += 1
            if toks[0] == "End":
                close()
                return out
            if toks[0] in sizes:
                close()
                cur, rows = toks[0], []
            elif cur is not None:
                rows.append(toks)
            else:
                raise ValueError(f"unexpected {toks[0]!r} in a {kind} block")
        raise ValueError(f"a {kind} block without End")

    while i < len(lines):
        toks = lines[i]
        i += 1
        key = toks[0]
        if key == "Name":
            continue
        if key == "Set":
            name, n, omod = toks[1], int(toks[2]), int(toks[3]) if len(toks) > 3 else 1
            d.sets.append((name, n, omod))
            sizes[name] = (n, omod)
        elif key in ("Solved", "StartState"):
            for name, (perm, ori) in block(key).items():
                labels = [None if t == "?" else int(t) - 1 for t in perm]
                oris = [None if t == "?" else int(t) for t in ori]
                d.solved[name] = (labels, oris)
        elif key in ("Move", "MoveTransformation"):
            name = toks[1]
            sets = {}
            for s, (perm, ori) in block(key).items():
                p = [int(t) - 1 for t in perm]
                o = [int(t) for t in ori]
                if key == "Move":  # old style: the twist travels with the piece
                    o = [o[p[j]] for j in range(len(p))]
                sets[s] = (p, [x % sizes[s][1] for x in o])
            d.moves[name] = sets
            d.kinds[name] = key
            d.order.append(name)
        elif key in ("MoveSequence", "MoveAlias"):
            d.kinds[toks[1]] = key
            d.order.append(toks[1])
            d.sequences[toks[1]] = " ".join(toks[2:])
        elif key == "Illegal":
            labels = {int(t) - 1 for t in toks[3:]}
            d.illegal.append((toks[1], int(toks[2]) - 1, labels))
        else:
            raise ValueError(f"unknown line {key!r}")
    for name, n, _ in d.sets:
        d.solved.setdefault(name, (list(range(n)), [0] * n))
    expand_sequences(d)
    return d


def identity(d):
    return {name: (list(range(n)), [0] * n) for name, n, _ in d.sets}


def full(d, move):
    """A move with every set present (a set a block leaves out does not move)."""
    out = identity(d)
    out.update(move)
    return out


def mul(d, a, b):
    """a then b, as twsearch composes (`puzdef::mul`)."""
    out = {}
    for name, n, omod in d.sets:
        ap, ao = a[name]
        bp, bo = b[name]
        out[name] = (
            [ap[bp[j]] for j in range(n)],
            [(ao[bp[j]] + bo[j]) % omod for j in range(n)],
        )
    return out


def order(d, move):
    """The order of a move: the lcm over its cycles of length x twist order."""
    r = 1
    for name, n, omod in d.sets:
        p, o = move[name]
        seen = [False] * n
        for j in range(n):
            if seen[j]:
                continue
            length, twist, k = 0, 0, j
            while not seen[k]:
                seen[k] = True
                twist += o[k]
                length += 1
                k = p[k]
            c = length * (omod // math.gcd(twist % omod, omod))
            r = r * c // math.gcd(r, c)
    return r


def power_name(base, amount, order_):
    """twsearch's name of base^amount (`expandonemove`): R, R2, R', R2' ..."""
    tw = amount
    if order_ - tw < tw:
        tw -= order_
    name = base + (str(abs(tw)) if abs(tw) != 1 else "")
    return name + ("'" if tw < 0 else "")


def power(d, move, k):
    out = identity(d)
    for _ in range(k):
        out = mul(d, out, move)
    return out


def expand_sequences(d):
    """Composes MoveSequence/MoveAlias moves, in any order, as twsearch's expandalgomoves."""
    for name in d.order:
        if name in d.moves:
            d.moves[name] = full(d, d.moves[name])
    names = {}  # every power name of every composed move -> transform

    def add(name):
        m = d.moves[name]
        k = order(d, m)
        p = identity(d)
        for a in range(1, max(k, 2)):
            p = mul(d, p, m)
            names.setdefault(power_name(name, a, k), p)

    for name in d.order:
        if name in d.moves:
            add(name)
    pending = [n for n in d.order if n in d.sequences]
    while pending:
        left = []
        for name in pending:
            t = identity(d)
            for tok in d.sequences[name].replace(",", " ").split():
                if tok not in names:
                    break
                t = mul(d, t, names[tok])
            else:
                d.moves[name] = t
                add(name)
                continue
            left.append(name)
        if len(left) == len(pending):
            raise ValueError(f"cannot expand the sequences {left}")
        pending = left


def generators(d):
    """(name, order, {amount: transform}) of each generator, in file order."""
    out = []
    for name in d.order:
        if d.kinds[name] == "MoveAlias" or is_rotation(name):
            continue
        m = d.moves[name]
        k = order(d, m)
        if k == 1:
            continue
        powers = {}
        p = identity(d)
        for a in range(1, k):
            p = mul(d, p, m)
            powers[a] = p
        out.append((name, k, powers))
    return out


def apply(d, state, move):
    """The state after `move`: the pieces at move's sources come here, twisted."""
    out = {}
    for name, n, omod in d.sets:
        labels, oris = state[name]
        p, o = move[name]
        out[name] = (
            [labels[p[j]] for j in range(n)],
            [None if oris[p[j]] is None else (oris[p[j]] + o[j]) % omod for j in range(n)],
        )
    return out


def legal(d, state):
    return all(state[s][0][slot] not in labels for s, slot, labels in d.illegal)


def scramble(d, gens, depth, rng):
    """`depth` random turns, no generator twice in a row, never into an illegal state."""
    state = d.solved
    moves = []
    last = None
    for _ in range(depth):
        choices = [g for g in gens if g[0] != last]
        rng.shuffle(choices)
        for name, k, powers in choices:
            amounts = list(range(1, k))
            rng.shuffle(amounts)
            for a in amounts:
                nxt = apply(d, state, powers[a]) if d.illegal else state
                if not d.illegal or legal(d, nxt):
                    break
            else:
                continue
            state = nxt
            moves.append(power_name(name, a, k))
            last = name
            break
        else:
            break  # no legal step: a shorter scramble
    return " ".join(moves)


# ---------------------------------------------------------------------------------------------
# Running one solver.

RUNNING = set()
STOP = threading.Event()  # set when the run is interrupted: no case is recorded after
RUNNING_LOCK = threading.Lock()


GNU_TIME = "/usr/bin/time"


def run(cmd, timeout):
    """Runs cmd as a process of its own: (seconds, peak RSS in MiB, exit code or None if it was
    killed at the timeout, stdout, stderr).

    The peak RSS comes from GNU time, which starts cmd from a small process of its own: Linux
    counts in a child's peak RSS the memory of the process it was forked from before its exec,
    so cmd started straight from this script would never show less than the script's own RSS.
    Without /usr/bin/time it is the child's `wait4` figure, a floor of this script's RSS."""
    wrapped = os.access(GNU_TIME, os.X_OK)
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r") as rss,
    ):
        if wrapped:
            cmd = [GNU_TIME, "-f", "%M", "-o", rss.name] + cmd
        start = time.monotonic()
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True
        )
        state = {"done": False, "killed": False}
        lock = threading.Lock()

        def kill(group):
            # At the timeout the solver alone, so that GNU time still writes its peak RSS; the
            # whole group a moment later if that did not end it.
            with lock:
                if state["done"]:
                    return
                state["killed"] = True
                pids = []
                if wrapped and not group:
                    try:
                        with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
                            pids = [int(x) for x in f.read().split()]
                    except (OSError, ValueError):
                        pass
                try:
                    if pids:
                        for pid in pids:
                            os.kill(pid, signal.SIGKILL)
                        backup = threading.Timer(2, kill, (True,))
                        backup.daemon = True
                        backup.start()
                    else:
                        os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

        timer = threading.Timer(timeout, kill, (False,))
        with RUNNING_LOCK:
            RUNNING.add(proc.pid)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            with lock:
                state["done"] = True
            timer.cancel()
            with RUNNING_LOCK:
                RUNNING.discard(proc.pid)
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        code = None if state["killed"] else proc.returncode
        peak = usage.ru_maxrss  # KiB
        if wrapped:
            last = (rss.read().split() or ["?"])[-1]  # after "Command exited with ..."
            peak = int(last) if last.isdigit() else None  # GNU time was killed too
        return (
            seconds,
            None if peak is None else peak / 1024,
            code,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
        )


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""


def run_ours(binary, path, scr, timeout):
    cmd = [binary, "solve", "--no-cache", str(path), "--scramble", scr]
    cmd += ["--threads", "1", "--memory", "4GiB", "--json"]
    seconds, rss, code, out, err = run(cmd, timeout)
    r = {"seconds": round(seconds, 4), "rss_mib": None if rss is None else round(rss, 1)}
    if code is None:
        return {**r, "status": "timeout"}
    try:
        j = json.loads(out[out.index("{") : out.rindex("}") + 1])
    except ValueError:
        j = None
    if code != 0 or j is None:
        msg = first_line(err) or first_line(out) or f"exit code {code}"
        return {**r, "status": "error", "code": code, "message": msg}
    if j.get("outcome") != "solved":
        return {**r, "status": str(j.get("outcome")), "message": first_line(out)}
    return {**r, "status": "solved", "length": len(j["path"]), "solution": " ".join(j["path"])}


FOUND = re.compile(r"^Found (\d+) solutions? max depth (\d+)")


def run_twsearch(binary, path, scr, timeout):
    cmd = [binary, "-t", "1", "-M", "4000", "--nowrite", "--scramblealg", scr, str(path)]
    seconds, rss, code, out, err = run(cmd, timeout)
    r = {"seconds": round(seconds, 4), "rss_mib": None if rss is None else round(rss, 1)}
    if code is None:
        return {**r, "status": "timeout"}
    lines = out.splitlines()
    bang = [ln for ln in lines + err.splitlines() if ln.startswith("!")]
    for k, line in enumerate(lines):
        m = FOUND.match(line)
        if m:
            solution = lines[k - 1].strip() if k > 0 else ""
            length = len(solution.split())
            if length != int(m.group(2)):  # the line before is not the solution
                solution, length = None, int(m.group(2))
            return {**r, "status": "solved", "length": length, "solution": solution}
    msg = first_line("\n".join(bang)) or first_line(err) or f"no solution, exit code {code}"
    return {**r, "status": "error", "code": code, "message": msg}


# ---------------------------------------------------------------------------------------------
# The report.


def fmt_s(case, side):
    r = case[side]
    if r["status"] == "solved":
        return f"{r['seconds']:.2f}"
    if r["status"] == "timeout":
        return f">{r['seconds']:.0f}"
    return r["status"]


def mib(case, side):
    rss = case[side].get("rss_mib")
    return "-" if rss is None else f"{rss:.0f}"


def ratio(case):
    o, t = case["ours"], case["tws"]
    if o["status"] == "solved" and t["status"] == "solved":
        return o["seconds"] / max(t["seconds"], 1e-3)
    return None


def slow(case):
    return max(case["ours"]["seconds"], case["tws"]["seconds"]) > SLOW


def report(meta, cases):
    out = []
    w = out.append
    w(f"# statespace vs twsearch on twsearch's samples ({meta.get('date', '?')})")
    w("")
    w(f"`{meta.get('command', '')}`")
    w("")
    w(
        f"Machine: {meta.get('nproc')} CPUs, {meta.get('cpu')}; load average (1, 5, 15 min) "
        f"{meta.get('load_start')} at start, {meta.get('load_end', '(not finished)')} at end. "
        f"ours: `{meta.get('ours')}`, twsearch: `{meta.get('twsearch')}`; seed "
        f"{meta.get('seed')}, timeout {meta.get('timeout')} s, {meta.get('jobs')} job(s) at "
        f"a time; each solver one thread, 4 GiB, cold (`--no-cache`, `--nowrite`)."
    )
    done = len(cases)
    planned = meta.get("planned")
    if planned and done < planned:
        w("")
        w(f"**Partial: {done} of {planned} cases ran.**")
    w("")
    w(
        "| depth | files | loads ours / tws | solved ≤ timeout ours / tws | both | "
        f"length disagree | cases > {SLOW} s | median ratio ours/tws | over 2x |"
    )
    w("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    depths = sorted({c["depth"] for c in cases})
    for depth in depths + ["all"]:
        cs = [c for c in cases if depth == "all" or c["depth"] == depth]
        loads = [sum(c[s]["status"] != "error" for c in cs) for s in ("ours", "tws")]
        solved = [sum(c[s]["status"] == "solved" for c in cs) for s in ("ours", "tws")]
        both = [c for c in cs if ratio(c) is not None]
        disagree = sum(c["ours"]["length"] != c["tws"]["length"] for c in both)
        rs = [ratio(c) for c in both if slow(c)]
        med = f"{statistics.median(rs):.2f}" if rs else "-"
        over = sum(r > 2 for r in rs)
        w(
            f"| {depth} | {len(cs)} | {loads[0]} / {loads[1]} | {solved[0]} / {solved[1]} | "
            f"{len(both)} | {disagree} | {len(rs)} | {med} | {over} |"
        )
    w("")
    w(
        f"Ratios: wall time of the whole process, ours / twsearch, over the cases both solve "
        f"where either takes over {SLOW} s."
    )

    def table(rows, title, extra=""):
        w("")
        w(f"## {title}")
        w("")
        if not rows:
            w("None.")
            return
        if extra:
            w(extra)
            w("")
        w("| file | depth | scramble length | ours s | tws s | ratio | ours MiB | tws MiB | note |")
        w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for c in rows:
            r = ratio(c)
            note = []
            for side in ("ours", "tws"):
                if c[side]["status"] not in ("solved", "timeout"):
                    note.append(f"{side}: {c[side].get('message', c[side]['status'])}")
            w(
                f"| {c['file']} | {c['depth']} | {c['length']} | {fmt_s(c, 'ours')} | "
                f"{fmt_s(c, 'tws')} | {'-' if r is None else f'{r:.2f}'} | "
                f"{mib(c, 'ours')} | {mib(c, 'tws')} | "
                f"{'; '.join(note).replace('|', '/')} |"
            )

    ranked = sorted((c for c in cases if ratio(c) is not None and slow(c)), key=ratio)
    table(ranked[::-1][:WORST], f"The worst {WORST} (largest ratios, either over {SLOW} s)")
    disagree = [
        c for c in cases if ratio(c) is not None and c["ours"]["length"] != c["tws"]["length"]
    ]
    if disagree:
        w("")
        w("## LENGTH DISAGREEMENTS")
        w("")
        for c in disagree:
            w(
                f"- {c['file']} depth {c['depth']} `{c['scramble']}`: ours "
                f"{c['ours']['length']} `{c['ours'].get('solution')}`, twsearch "
                f"{c['tws']['length']} `{c['tws'].get('solution')}`"
            )
    only_tws = [
        c for c in cases if c["tws"]["status"] == "solved" and c["ours"]["status"] != "solved"
    ]
    only_ours = [
        c for c in cases if c["ours"]["status"] == "solved" and c["tws"]["status"] != "solved"
    ]
    table(only_tws, "Solved by twsearch within the timeout, not by us")
    table(only_ours, "Solved by us within the timeout, not by twsearch")
    errors = {}
    for c in cases:
        for side in ("ours", "tws"):
            if c[side]["status"] not in ("solved", "timeout"):
                key = (side, c["file"], c[side].get("message", c[side]["status"]))
                errors.setdefault(key, []).append(str(c["depth"]))
    w("")
    w("## Errors (a file that does not load, or another end than a solution)")
    w("")
    if not errors:
        w("None.")
    for (side, f, msg), ds in sorted(errors.items()):
        w(f"- {side}, {f} (depth {', '.join(ds)}): {msg}")
    skipped = meta.get("skipped", {})
    if skipped:
        w("")
        w("## Files with no scramble (the script could not read them)")
        w("")
        for f, msg in sorted(skipped.items()):
            w(f"- {f}: {msg}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return os.cpu_count(), cpu


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def find_files(dirs, only):
    files = []
    for d in dirs:
        root = pathlib.Path(d)
        for p in sorted(root.glob("**/*.tws")):
            rel = p.relative_to(root).with_suffix("").as_posix()
            if only and p.stem not in only and rel not in only:
                continue
            files.append((rel, p))
    return files


def save(path, meta, cases):
    if not path:
        return
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump({"meta": meta, "cases": cases}, f, indent=1)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="See the module docstring (the top of this file) for the method.",
    )
    ap.add_argument("--ours", default="target/release/statespace", help="statespace binary")
    ap.add_argument(
        "--twsearch", default="twsearch", help="twsearch binary (built outside the project)"
    )
    ap.add_argument(
        "--samples",
        nargs="+",
        default=["/tmp/h-tws/samples"],
        metavar="DIR",
        help="folders searched for **/*.tws (default /tmp/h-tws/samples)",
    )
    ap.add_argument("--depths", default="1,5,8", help="scramble lengths (default 1,5,8)")
    ap.add_argument("--seed", type=int, default=47, help="scramble seed (default 47)")
    ap.add_argument("--timeout", type=float, default=30, help="seconds per solve (30)")
    ap.add_argument(
        "--only", nargs="+", metavar="NAME", help="only these files (stem or DIR-relative path)"
    )
    ap.add_argument("--jobs", type=int, default=1, help="cases run at once (default 1)")
    ap.add_argument("--json", metavar="OUT", help="save the raw results here (after each case)")
    ap.add_argument("--resume", action="store_true", help="skip the cases --json OUT already holds")
    ap.add_argument("--report", metavar="JSON", help="only print the report of a saved run")
    args = ap.parse_args()

    if args.report:
        saved = json.load(open(args.report))
        if "load_end" not in saved["meta"]:
            saved["meta"]["load_end"] = f"(run not finished; {load()} at this report)"
        sys.stdout.write(report(saved["meta"], saved["cases"]))
        return 1 if any_disagreement(saved["cases"]) else 0

    depths = [int(x) for x in args.depths.split(",") if x.strip()]
    nproc, cpu = machine()
    meta = {
        "command": " ".join(shlex.quote(a) for a in [sys.argv[0]] + sys.argv[1:]),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": nproc,
        "cpu": cpu,
        "load_start": load(),
        "ours": args.ours,
        "twsearch": args.twsearch,
        "seed": args.seed,
        "timeout": args.timeout,
        "jobs": args.jobs,
        "depths": depths,
        "skipped": {},
    }
    files = find_files(args.samples, set(args.only or []))
    if not files:
        sys.exit(f"no .tws files under {args.samples}")

    # Every scramble first (cheap), depth by depth, so that a partial run covers whole depths.
    work = []
    gens_of = {}
    for rel, path in files:
        try:
            d = parse_tws(path)
            gens_of[rel] = (d, generators(d))
            if not gens_of[rel][1]:
                raise ValueError("no generators")
        except (ValueError, IndexError, KeyError) as e:
            meta["skipped"][rel] = f"{type(e).__name__}: {e}"
            print(f"{rel}: not read ({e}), skipped", file=sys.stderr)
    for depth in depths:
        for rel, path in files:
            if rel in gens_of:
                d, gens = gens_of[rel]
                rng = random.Random(f"{args.seed}/{rel}/{depth}")
                work.append((rel, path, depth, scramble(d, gens, depth, rng)))
    meta["planned"] = len(work)

    cases = []
    if args.resume and args.json and os.path.exists(args.json):
        old = {
            (c["file"], c["depth"], c["scramble"]): c for c in json.load(open(args.json))["cases"]
        }
        cases = [old[(r, dp, s)] for r, _, dp, s in work if (r, dp, s) in old]
        work = [w for w in work if (w[0], w[2], w[3]) not in old]
    lock = threading.Lock()

    def one(index, item):
        rel, path, depth, scr = item
        order = [("ours", run_ours, args.ours), ("tws", run_twsearch, args.twsearch)]
        if index % 2:
            order.reverse()
        case = {"file": rel, "depth": depth, "scramble": scr, "length": len(scr.split())}
        case["first"] = order[0][0]
        for side, fn, binary in order:
            if STOP.is_set():
                return
            case[side] = fn(binary, path, scr, args.timeout)
        with lock:
            if STOP.is_set():  # a solver of this case may have been killed by the interrupt
                return
            cases.append(case)
            save(args.json, meta, cases)
            r = ratio(case)
            print(
                f"[{len(cases)}/{meta['planned']}] {rel} d{depth}: ours {fmt_s(case, 'ours')}"
                f" tws {fmt_s(case, 'tws')}" + ("" if r is None else f" ratio {r:.2f}"),
                file=sys.stderr,
            )
            if r is not None and case["ours"]["length"] != case["tws"]["length"]:
                print(
                    f"!!! LENGTH DISAGREEMENT {rel} depth {depth} `{scr}`: ours "
                    f"{case['ours']['length']}, twsearch {case['tws']['length']}",
                    file=sys.stderr,
                )

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    interrupted = False
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        futures = [pool.submit(one, k, item) for k, item in enumerate(work)]
        for f in futures:
            f.result()
    except KeyboardInterrupt:
        interrupted = True
        with lock:
            STOP.set()
        for f in futures:
            f.cancel()
        with RUNNING_LOCK:
            for pid in list(RUNNING):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        print("interrupted: the report covers the cases that ran", file=sys.stderr)
    pool.shutdown(wait=not interrupted, cancel_futures=True)
    meta["load_end"] = load()
    with lock:
        done = list(cases)
    save(args.json, meta, done)
    sys.stdout.write(report(meta, done))
    return 1 if any_disagreement(done) else 0


def any_disagreement(cases):
    return any(ratio(c) is not None and c["ours"]["length"] != c["tws"]["length"] for c in cases)


if __name__ == "__main__":
    sys.exit(main())
