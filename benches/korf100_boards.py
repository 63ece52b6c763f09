#!/usr/bin/env python3
"""Korf's 100 instances (tests/cases/korf100.txt) as a `statespace solve --boards` file in our
convention (blank last): each board rotated 180 degrees and tile t renamed 16 - t, as
`heuristic::from_blank_first` does; optimal lengths are unchanged. Boards separated by blank lines,
in the file's order.

    python3 benches/korf100_boards.py > /tmp/korf100.boards
"""
import pathlib

source = pathlib.Path(__file__).resolve().parent.parent / "tests/cases/korf100.txt"
blocks = []
for line in source.read_text().splitlines():
    if not line.strip() or line.startswith("#"):
        continue
    cells = [int(w) for w in line.split()[3:]]
    ours = [0 if t == 0 else 16 - t for t in reversed(cells)]
    rows = [" ".join("_" if t == 0 else str(t) for t in ours[r * 4:r * 4 + 4]) for r in range(4)]
    blocks.append("\n".join(rows))
print("\n\n".join(blocks))
