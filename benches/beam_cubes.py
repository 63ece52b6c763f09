#!/usr/bin/env python3
"""Beam search on big cubes (our own 4x4x4 and 6x6x6 definitions): how deep a scramble it
undoes. For each cube, the first 8, 10, ... 20 moves of one fixed scramble, at widths 1,000 and
10,000, each within a time limit: the moves found (never more than the scramble's, when found)
and the time, or "-" where the limit came first.

    python3 benches/beam_cubes.py BIN [--limit 30s] [--widths 1000,10000]

BIN is the statespace binary (target/release/statespace). Every path printed was replayed by
the solver's own checks; the script also checks that scramble + path is solved.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

here = pathlib.Path(__file__).resolve().parent
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("bin", help="the statespace binary")
parser.add_argument("--limit", default="30s", help="--time-limit per solve")
parser.add_argument("--widths", default="1000,10000")
args = parser.parse_args()

SCRAMBLES = {
    "6x6x6": "2U2 2D' 3R 3B' L2 3B' 3L' B U' D 2L 3B2 3F B L U' F2 L2 3R2 U2",
    "4x4x4": "2D 2L' D 2U2 F 2R' D' 2U' D' 2F 2R2 B 2D' 2U 2F2 2D' 2R' B 2F U'",
}


def solve(config, scramble, width):
    out = subprocess.run(
        [args.bin, "solve", config, "--json", "--beam-width", str(width),
         "--time-limit", args.limit, "--scramble", scramble],
        capture_output=True, text=True)
    return json.loads(out.stdout)


failed = False
with tempfile.TemporaryDirectory() as tmp:
    widths = [int(w) for w in args.widths.split(",")]
    print("| cube | scramble moves | " + " | ".join(f"width {w:,}" for w in widths) + " |")
    print("|---|---|" + "---|" * len(widths))
    for cube, scramble in SCRAMBLES.items():
        config = pathlib.Path(tmp) / f"{cube}.toml"
        definition = here.parent / "configs" / "defs" / f"{cube}.tws"
        config.write_text(f'[puzzle]\nkind = "perm"\ndefinition = "{definition}"\n'
                          '[search]\nmode = "beam"\n')
        moves = scramble.split()
        for n in range(8, len(moves) + 1, 2):
            prefix = " ".join(moves[:n])
            cells = []
            for width in widths:
                answer = solve(str(config), prefix, width)
                if answer["outcome"] != "solved":
                    cells.append(f"- ({answer['stats']['elapsed']:.1f} s)")
                    continue
                back = solve(str(config), prefix + " " + " ".join(answer["path"]), width)
                if back["moves"] != 0 or answer["moves"] > n:
                    failed = True
                cells.append(f"{answer['moves']} in {answer['stats']['elapsed']:.2f} s")
            print(f"| {cube} | {n} | " + " | ".join(cells) + " |", flush=True)
sys.exit(1 if failed else 0)
