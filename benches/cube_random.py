#!/usr/bin/env python3
"""Random-state 3x3x3 scrambles (issue 23, item 3): N scrambles of 25 random face turns (no face
twice in a row), reproducible from a seed, one a line, as `statespace solve --scrambles` reads
them. With --run, solves them with the random-state config (the tables built once, cached),
one at a time under a time limit each, and prints per scramble the optimal length, nodes
generated, nodes a second and the time, then the median.

    python3 benches/cube_random.py --count 10 > /tmp/random10.scr
    python3 benches/cube_random.py --count 10 --run target/release/statespace --time-limit 30m

With --peer, a second optimal solver checks the lengths: Voltara's vcube (`vc-optimal`, built
outside this project; its pruning table is made beside the binary on first use). Its length
of every scramble is printed beside ours, each of its solutions is checked with --run (the
scramble followed by it must leave the cube solved: statespace then answers 0 moves), and the
script exits 1 when a length or a check disagrees.

    python3 benches/cube_random.py --count 10 --run target/release/statespace --time-limit 30m \
        --peer /tmp/vcube/vc-optimal --peer-coord 112

Side by side: --vs OTHER solves each scramble with a second build too, right after the first (the
same machine state for both), and prints its nodes and time and the ratio; --quick takes the
three scrambles of the default ten that solve in a minute or two (2, 8 and 5: --pick 2,8,5);
--json prints one JSON object a scramble and build instead of the table.

    python3 benches/cube_random.py --quick --run target/release/statespace --vs /tmp/old/statespace
"""
import argparse
import json
import pathlib
import random
import signal
import statistics
import subprocess
import sys
import tempfile

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--count", type=int, default=10, help="how many scrambles (default 10)")
parser.add_argument("--seed", type=int, default=23, help="the generator's seed (default 23)")
parser.add_argument("--length", type=int, default=25, help="moves a scramble (default 25)")
parser.add_argument("--run", metavar="STATESPACE", help="solve them with this binary")
parser.add_argument("--config", default=str(pathlib.Path(__file__).resolve().parent.parent
                                             / "configs" / "perm-3x3x3-random.toml"))
parser.add_argument("--time-limit", default="30m", help="per scramble (default 30m)")
parser.add_argument("--cache-dir", help="where the tables are kept (default: statespace's)")
parser.add_argument("--peer", metavar="VC_OPTIMAL", help="check the lengths with vcube's solver")
parser.add_argument("--peer-coord", default="112",
                    help="vcube's pruning table (`vc-optimal --help` lists them; default 112)")
parser.add_argument("--vs", metavar="STATESPACE", help="solve each with this build too, after --run")
parser.add_argument("--pick", help="only these scrambles of the --count, 1-based (e.g. 2,8,5)")
parser.add_argument("--quick", action="store_true",
                    help="the three of the default ten solved soonest: --pick 2,8,5")
parser.add_argument("--json", action="store_true", help="one JSON object a scramble and build")
args = parser.parse_args()
if args.quick:
    args.pick = args.pick or "2,8,5"
if args.vs and not args.run:
    parser.error("--vs needs --run (the build it is compared with)")
if args.vs and args.peer:
    parser.error("--vs and --peer: one comparison a run")
# A closed pipe (`| head`) ends the script quietly, as it does a command-line tool.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
if args.count < 1 or args.length < 1:
    parser.error("--count and --length must be at least 1")

rng = random.Random(args.seed)
scrambles = []
for _ in range(args.count):
    moves, last = [], None
    while len(moves) < args.length:
        face = rng.choice("UDFBLR")
        if face != last:
            moves.append(face + rng.choice(["", "2", "'"]))
            last = face
    scrambles.append(" ".join(moves))
numbers = list(range(1, len(scrambles) + 1))
if args.pick:
    try:
        numbers = [int(n) for n in args.pick.split(",")]
    except ValueError:
        parser.error(f"--pick {args.pick}: numbers separated by commas, such as 2,8,5")
    if not all(1 <= n <= len(scrambles) for n in numbers):
        parser.error(f"--pick {args.pick}: each from 1 to --count ({len(scrambles)})")



def peer_solutions():
    """vcube's optimal solution of every scramble, in order: {index: (length, seconds, moves)}."""
    command = [args.peer, f"--coord={args.peer_coord}", "--format=moves", "--ordered"]
    # From a file, not a pipe: a peer that exits unread must not end this script by SIGPIPE.
    with tempfile.TemporaryFile("w+") as lines:
        lines.write("\n".join(scrambles) + "\n")
        lines.seek(0)
        try:
            run = subprocess.run(command, stdin=lines, capture_output=True, text=True)
        except OSError as error:
            sys.exit(f"--peer {args.peer}: cannot run it: {error.strerror}")
    found = {}
    for line in run.stdout.splitlines():
        fields = line.split(maxsplit=3)
        try:
            found[int(fields[0])] = (int(fields[2]), float(fields[1]),
                                     fields[3].split() if len(fields) == 4 else [])
        except (IndexError, ValueError):
            pass  # not an answer line
    if run.returncode != 0 or len(found) != len(scrambles):
        sys.exit(f"--peer {args.peer}: {len(found)} answers for {len(scrambles)} scrambles "
                 f"(exit {run.returncode}): {run.stderr.strip()[-300:]}")
    print(f"peer: {run.stderr.strip()}", file=sys.stderr)
    return found


def solve(scramble, time_limit, binary=None):
    """statespace's JSON answer for the config from `scramble` (by --run, or `binary`)."""
    binary = binary or args.run
    command = [binary, "solve", args.config, "--scramble", scramble, "--json",
               "--time-limit", time_limit]
    if args.cache_dir:
        command += ["--cache-dir", args.cache_dir]
    try:
        run = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"{binary}: cannot run it: {error.strerror}")
    if not run.stdout.strip():
        sys.exit(f"`{scramble}`: no answer (exit {run.returncode}): {run.stderr.strip()}")
    return json.loads(run.stdout)


peer = peer_solutions() if args.peer else None
if not args.run:
    for i in numbers:
        scramble = scrambles[i - 1]
        print(scramble if peer is None else f"{scramble}  # vcube: {peer[i - 1][0]} moves")
    sys.exit(0)

def measured(answer):
    """(moves or None when unsolved, generated, search seconds) of a JSON answer."""
    stats = answer["stats"]
    search = stats["elapsed"] - stats.get("build", 0.0)
    moves = answer["moves"] if answer["outcome"] == "solved" else None
    return moves, stats["generated"], search


if args.vs:
    if not args.json:
        print("| # | moves | generated | search s | --vs moves | --vs generated | --vs search s "
              "| time ratio |")
        print("|---|---|---|---|---|---|---|---|")
    ratios, differ = [], []
    for i in numbers:
        scramble = scrambles[i - 1]
        row = []
        for binary in (args.run, args.vs):
            moves, generated, search = measured(solve(scramble, args.time_limit, binary))
            row.append((moves, generated, search))
            if args.json:
                print(json.dumps({"scramble": i, "build": binary, "moves": moves,
                                  "generated": generated, "search_s": round(search, 3)}),
                      flush=True)
        (a, b) = row
        if a[0] is not None and b[0] is not None and a[0] != b[0]:
            differ.append(f"scramble {i}: {a[0]} moves, {b[0]} by --vs")
        ratio = a[2] / b[2] if b[2] > 0 else float("inf")
        ratios.append(ratio)
        if not args.json:
            print(f"| {i} | {a[0]} | {a[1]:,} | {a[2]:.1f} | {b[0]} | {b[1]:,} | {b[2]:.1f} "
                  f"| {ratio:.2f} |", flush=True)
    summary = f"time ratio (--run / --vs): median {statistics.median(ratios):.2f}"
    print(summary if not args.json else json.dumps({"median_ratio": statistics.median(ratios)}))
    if differ:
        sys.exit("lengths differ: " + "; ".join(differ))
    sys.exit(0)

if not args.json:
    print("| # | scramble | moves | generated | search s | M nodes/s |"
          + (" vcube | vcube s |" if peer else ""))
    print("|---|---|---|---|---|---|" + ("---|---|" if peer else ""))
disagreements = []
solved_times, times = [], []
for i in numbers:
    scramble = scrambles[i - 1]
    answer = solve(scramble, args.time_limit)
    stats = answer["stats"]
    search = stats["elapsed"] - stats.get("build", 0.0)
    rate = stats["generated"] / search / 1e6 if search > 0 else 0.0
    if answer["outcome"] == "solved":
        moves = str(answer["moves"])
        solved_times.append(search)
        times.append(search)
    else:
        last = stats["iterations"][-1]["threshold"] if stats.get("iterations") else "?"
        moves = f"not within {args.time_limit} (at {last})"
        times.append(float("inf"))
    row = f"| {i} | `{scramble}` | {moves} | {stats['generated']:,} | {search:.1f} | {rate:.2f} |"
    if peer:
        length, seconds, solution = peer[i - 1]
        row += f" {length} | {seconds:.1f} |"
        if answer["outcome"] == "solved" and answer["moves"] != length:
            disagreements.append(f"scramble {i}: {answer['moves']} moves here, {length} by vcube")
        # The peer's solution must solve the scramble: from there statespace finds 0 moves.
        check = solve(f"{scramble} {' '.join(solution)}", "60s")
        if check["outcome"] != "solved" or check["moves"] != 0:
            disagreements.append(f"scramble {i}: vcube's {length} moves do not solve it")
    if args.json:
        print(json.dumps({"scramble": i, "moves": answer["moves"], "outcome": answer["outcome"],
                          "generated": stats["generated"], "search_s": round(search, 3)}),
              flush=True)
    else:
        print(row, flush=True)

median = statistics.median(times)
median = f"{median:.1f} s" if median != float("inf") else f"beyond {args.time_limit}"
longest = f"{max(solved_times):.1f} s" if solved_times else "-"
print(f"\nsolved {len(solved_times)} of {len(numbers)}; median search {median} (an unsolved "
      f"scramble counts as beyond the limit); longest solved {longest}")
if peer:
    print("vcube: " + ("; ".join(disagreements) if disagreements else
                       "every length solved here is its length too, and its solutions solve"))
    sys.exit(1 if disagreements else 0)
