"""Cold start of everyday commands, paired: two cardlab installs (e.g. before and after a change)
run in turn, A B A B ..., each run a fresh process, so a drifting machine affects both alike.

Usage:
    python benchmarks/bench_cold.py --a PATH/TO/cardlab --b PATH/TO/other/cardlab [--runs 15]

Each install gets its own cache folder and index (built once before timing). The commands are
``cardlab search charizard`` and ``cardlab deck validate examples/decks/zap-theme-deck.txt``, run on
each install's own shipped catalog. Prints, per command, the median wall time of A and of B, their
min-max, and the median of the pairwise ratios A/B (below 1: A is faster). Uses only the standard
library (``time.perf_counter`` around ``subprocess.run``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {
    "search charizard": ["search", "charizard"],
    "deck validate zap": ["deck", "validate", str(REPO / "examples" / "decks" / "zap-theme-deck.txt")],
}


def _run(exe: str, args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([exe, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the cardlab executable measured (A)")
    parser.add_argument("--b", required=True, help="the cardlab executable it is paired with (B)")
    parser.add_argument("--runs", type=int, default=15, help="timed pairs per command (default 15)")
    args = parser.parse_args()
    envs = {}
    for side, exe in (("A", args.a), ("B", args.b)):
        env = dict(os.environ, CARDLAB_CACHE_DIR=tempfile.mkdtemp(prefix=f"bench-cold-{side}-"), NO_COLOR="1")
        env["CARDLAB_DB"] = str(Path(env["CARDLAB_CACHE_DIR"]) / "index.sqlite")
        for cmd in COMMANDS.values():                     # warm-up: build the index and the caches
            _run(exe, cmd, env)
        envs[side] = env
    print(f"A = {args.a}\nB = {args.b}\n{args.runs} pairs per command, A then B in turn")
    for label, cmd in COMMANDS.items():
        a_times, b_times = [], []
        for _ in range(args.runs):
            a_times.append(_run(args.a, cmd, envs["A"]))
            b_times.append(_run(args.b, cmd, envs["B"]))
        ratios = [a / b for a, b in zip(a_times, b_times, strict=True)]
        print(f"{label:20s} A median {statistics.median(a_times):.3f} s ({min(a_times):.3f}-{max(a_times):.3f})  "
              f"B median {statistics.median(b_times):.3f} s ({min(b_times):.3f}-{max(b_times):.3f})  "
              f"A/B median {statistics.median(ratios):.3f} ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
