#!/usr/bin/env python3
"""Korf & Felner's 50 random 24-puzzle instances (benches/korf24.txt) as a `statespace solve
--boards` file in our convention (blank last): each board rotated 180 degrees and tile t renamed
25 - t, as `statespace_tiles::board::from_blank_first` does; optimal lengths are unchanged. Boards
separated by blank lines; the instances' ids, lengths and published node counts, in the same
order, go to stderr.

    python3 benches/korf24_boards.py > /tmp/korf24.boards              # all 50, in the file's order
    python3 benches/korf24_boards.py --easiest 5 > /tmp/korf24-easy.boards  # fewest published nodes first
    python3 benches/korf24_boards.py --ids 38,40 > /tmp/korf24-38-40.boards
"""
import argparse
import pathlib
import sys

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--easiest", type=int, help="the N instances with the fewest published nodes")
parser.add_argument("--ids", help="these instances (comma-separated ids), in this order")
args = parser.parse_args()

source = pathlib.Path(__file__).resolve().parent / "korf24.txt"
instances = {}
for line in source.read_text().splitlines():
    if not line.strip() or line.startswith("#"):
        continue
    words = line.split()
    instances[int(words[0])] = (int(words[1]), int(words[2]), [int(w) for w in words[3:]])

if args.ids:
    chosen = [int(i) for i in args.ids.split(",")]
elif args.easiest:
    chosen = sorted(instances, key=lambda i: instances[i][1])[: args.easiest]
else:
    chosen = sorted(instances)

blocks = []
for i in chosen:
    length, nodes, cells = instances[i]
    ours = [0 if t == 0 else 25 - t for t in reversed(cells)]
    rows = [" ".join("_" if t == 0 else str(t) for t in ours[r * 5:r * 5 + 5]) for r in range(5)]
    blocks.append("\n".join(rows))
    print(f"instance {i}: optimal {length}, Korf & Felner nodes {nodes:,}", file=sys.stderr)
print("\n\n".join(blocks))
