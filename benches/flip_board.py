#!/usr/bin/env python3
"""A Flip config of a random solvable N x N board (N*N/2 random presses on an all-white board,
seeded), for BENCHMARKS.md's "Large Flip boards: the algebraic solver".

    python3 benches/flip_board.py N [wrap] > flip-N.toml
"""
import random
import sys

n = int(sys.argv[1])
wrap = len(sys.argv) > 2
random.seed(1)
b = [[0] * n for _ in range(n)]
for _ in range(n * n // 2):
    r, c = random.randrange(n), random.randrange(n)
    for rr, cc in ((r, c), (r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
        if wrap:
            rr %= n
            cc %= n
        if 0 <= rr < n and 0 <= cc < n:
            b[rr][cc] ^= 1
rows = "\n".join("".join("bw"[1 - x] for x in row) for row in b)
print(f'[puzzle]\nkind = "flip"\nrows = {n}\ncols = {n}\nwrap = {"true" if wrap else "false"}\n'
      f'[goal]\nkind = "uniform"\n[search]\nmode = "auto"\n[start]\nboard = """\n{rows}\n"""')
