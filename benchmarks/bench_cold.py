"""Cold start of everyday commands, paired: two cardlab installs (e.g. before and after a change)
run in turn, A B A B ..., each run a fresh process, so a drifting machine affects both alike.

Usage:
    python benchmarks/bench_cold.py --a PATH/TO/cardlab --b PATH/TO/other/cardlab [--runs 15] [--catalog DIR]
        [--usage] [--both-orders]

Each install gets its own cache folder and index (built once before timing). The commands are
``cardlab search charizard`` and ``cardlab deck validate examples/decks/zap-theme-deck.txt -f pokemon-base``,
run on each install's own shipped catalog, or both on ``--catalog DIR`` (to compare two versions on
the same cards). Prints, per command, the median wall time of A and of B, their
min-max, and the median of the pairwise ratios A/B (below 1: A is faster). ``--usage`` adds each
side's median CPU time (user + system) and the median CPU ratio, steadier than wall time on a shared
machine; ``--both-orders`` also runs B before A (half the pairs each way), so an order effect shows.
Uses only the standard library (``time.perf_counter`` around ``subprocess.run``, ``os.wait4``).
A cardlab tree without an install can be measured through a two-line wrapper script:
``PYTHONPATH=/path/to/tree exec /path/to/venv/bin/cardlab "$@"`` (both sides alike).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from paired import paired, run  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {
    "search charizard": ["search", "charizard"],
    "deck validate zap": ["deck", "validate", str(REPO / "examples" / "decks" / "zap-theme-deck.txt"), "--format", "pokemon-base"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the cardlab executable measured (A)")
    parser.add_argument("--b", required=True, help="the cardlab executable it is paired with (B)")
    parser.add_argument("--runs", type=int, default=15, help="timed pairs per command (default 15)")
    parser.add_argument("--catalog", help="a catalog folder both installs use (default: each its own)")
    parser.add_argument("--usage", action="store_true", help="also CPU time per side and the CPU ratio A/B")
    parser.add_argument("--both-orders", action="store_true", help="half the pairs A then B, half B then A")
    args = parser.parse_args()
    extra = ["--catalog", args.catalog] if args.catalog else []
    envs = {}
    for side, exe in (("A", args.a), ("B", args.b)):
        env = dict(os.environ, CARDLAB_CACHE_DIR=tempfile.mkdtemp(prefix=f"bench-cold-{side}-"), NO_COLOR="1")
        env["CARDLAB_DB"] = str(Path(env["CARDLAB_CACHE_DIR"]) / "index.sqlite")
        for cmd in COMMANDS.values():  # warm-up: build the index and the caches
            run([exe, *cmd, *extra], env)
        envs[side] = env
    print(f"A = {args.a}\nB = {args.b}\n{args.runs} pairs per command, A then B in turn")
    orders = ("AB", "BA") if args.both_orders else ("AB",)
    for label, cmd in COMMANDS.items():
        for order in orders:
            runs = args.runs // len(orders)
            a, b = [args.a, *cmd, *extra], [args.b, *cmd, *extra]
            if order == "AB":
                pair = paired(label, a, b, runs, envs["A"], envs["B"], usage=args.usage)
            else:  # B first: swapped back, so A and the ratio A/B read as above
                pair = paired(label, b, a, runs, envs["B"], envs["A"], usage=args.usage)
                pair.a, pair.b, pair.cpu_a, pair.cpu_b = pair.b, pair.a, pair.cpu_b, pair.cpu_a
            line = pair.line() + (f"  [{order}]" if args.both_orders else "")
            if args.usage:
                line += (
                    f"  CPU A {statistics.median(pair.cpu_a):.3f} s B {statistics.median(pair.cpu_b):.3f} s"
                    f" A/B {statistics.median(pair.cpu_ratios):.3f}"
                )
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
