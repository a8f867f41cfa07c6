"""Benchmark ``cardlab proxies``: time (a cold process per run) and PDF size for a 60-card deck.

Goal (issue 6): at most 1.5 s per cold process and at most 1 MB per 60-card PDF.

Usage: python benchmarks/bench_proxies.py [DECK] [--runs N]
DECK defaults to examples/decks/zap-theme-deck.txt (the "Zap!" theme deck, written to a temporary
file when the example is not there). The first run fills cardlab's validation cache in a private
cache folder and is reported apart ("first run"); the median of the others is the figure to watch.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZAP = (
    "4 Pikachu\n3 Magnemite\n3 Abra\n1 Kadabra\n3 Gastly\n2 Haunter\n2 Drowzee\n2 Jynx\n1 Mewtwo\n2 Bill\n"
    "1 Computer Search\n1 Defender\n2 Gust of Wind\n1 Potion\n1 Professor Oak\n1 Super Potion\n2 Switch\n"
    "12 Lightning Energy\n16 Psychic Energy\n"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", nargs="?", type=Path, default=REPO / "examples" / "decks" / "zap-theme-deck.txt")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        deck = args.deck
        if not deck.is_file():
            deck = Path(tmp) / "zap.txt"
            deck.write_text(ZAP, encoding="utf-8")
        out = Path(tmp) / "deck.pdf"
        env = {**os.environ, "CARDLAB_CACHE_DIR": str(Path(tmp) / "cache"), "LC_ALL": "C.UTF-8"}
        cmd = [
            sys.executable,
            "-m",
            "cardlab",
            "proxies",
            str(deck),
            "-o",
            str(out),
            "--overwrite",
            "--paper",
            "a4",
            "--catalog",
            str(REPO / "cards" / "pokemon"),
        ]
        times, cpus = [], []
        for _ in range(args.runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(cmd, env=env, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return done.returncode
        size = out.stat().st_size
        median = statistics.median(times[1:])
        print(f"deck: {args.deck if args.deck.is_file() else 'Zap! theme deck (built in)'}")
        print(f"{done.stderr.strip()}")
        print(f"first run (empty validation cache): {times[0]:.2f} s")
        print(
            f"cold process, median of {args.runs}: {median:.2f} s wall, {statistics.median(cpus[1:]):.2f} s CPU "
            f"(goal <= 1.5 s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)"
        )
        print(f"PDF size: {size / 1024:.0f} kB (goal <= 1024 kB)")
        return 0 if median <= 1.5 and size <= 1_048_576 else 1


if __name__ == "__main__":
    sys.exit(main())
