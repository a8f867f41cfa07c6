#!/usr/bin/env python3
"""A page of one word on SQLite whatever it matches (issue 29): warm ``find_page(con, word,
page_size=50)`` in-process, this code against an older commit's, on one index.

    python benchmarks/bench_word_page.py --base /work/main --db /work/scale/idx/index-c100000.sqlite \\
        [--words energy damage ...] [--rounds 3] [--calls 30] [--reverse] [--page N]

Each round runs a process of ``--base``'s code, then one of this worktree's (A B A B ...), on the same
index file (read only); each process times every word: two warm-up calls (the bounded total is then
remembered, as for a query's next pages), then the median of ``--calls`` calls. The ratio A/B is taken
pair by pair; printed: per word, the medians of A and B and the median (min – max) of the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

WORDS = ["damage", "energy", "attack", "coin", "heads", "flip", "basic", "fire", "water", "noru", "zzzz"]
"""Words of the synthetic catalog from the broadest (rules text of a quarter of the cards) to a name
prefix (``noru``) and no match (``zzzz``)."""


def worker(args: argparse.Namespace) -> None:
    """One process: ``{word: median ms}`` as JSON on stdout."""
    from cardlab.index.access import connect
    from cardlab.search import engine

    con = connect(args.db)
    out = {}
    for word in args.words:
        for _ in range(2):
            engine.find_page(con, word, page_size=50, reverse=args.reverse, page=args.page)
        times = []
        for _ in range(args.calls):
            start = time.perf_counter()
            engine.find_page(con, word, page_size=50, reverse=args.reverse, page=args.page)
            times.append((time.perf_counter() - start) * 1000)
        out[word] = statistics.median(times)
    print(json.dumps(out))


def run(code: Path, args: argparse.Namespace) -> dict[str, float]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--db", args.db, "--calls", str(args.calls), "--page", str(args.page)]
    cmd += ["--words", *args.words] + (["--reverse"] if args.reverse else [])
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="a worktree of the older commit (A); required")
    parser.add_argument("--db", required=True, help="a SQLite index both commits read")
    parser.add_argument("--words", nargs="+", default=WORDS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--page", type=int, default=1)
    parser.add_argument("--reverse", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.base is None:
        parser.error("--base: a worktree of the older commit")
    print(f"load average at start: {os.getloadavg()}")
    rounds = []
    for _ in range(args.rounds):
        rounds.append((run(args.base, args), run(REPO, args)))
    print(f"load average at end: {os.getloadavg()}")
    print(f"{'word':<8} {'A ms':>8} {'B ms':>8}  A/B median (min - max)")
    for word in args.words:
        a = [r[0][word] for r in rounds]
        b = [r[1][word] for r in rounds]
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        print(
            f"{word:<8} {statistics.median(a):8.3f} {statistics.median(b):8.3f}  "
            f"{statistics.median(ratios):.2f} ({min(ratios):.2f} - {max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()
