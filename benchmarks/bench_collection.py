#!/usr/bin/env python3
"""Collection benchmark (issue 13): ``cardlab collection list`` cold with 30,000 owned cards.

    python benchmarks/bench_collection.py [--catalog benchmarks/out/catalog30k] [--runs 10]

Setup (not timed): the synthetic 30,000-card catalog of ``benchmarks/gen_catalog.py`` (made first when
missing), its index built once (``cardlab index``), and a collection owning every one of its 30,000
cards (1 to 4 copies each) written into a private ``CARDLAB_DATA`` folder in one transaction.

Timed, each a fresh ``cardlab`` process with its output piped (plain text), median of ``--runs``:

- ``cardlab collection list``: the 30,000 owned cards with names. Goal: <= 0.3 s.
- ``cardlab collection list 'hp>=100'``: a query on top.
- floors, measured in the same run: ``cardlab --version`` (the CLI's start-up) and
  ``cardlab search 'name:zzz'`` (start-up + the index freshness check + an empty query), the least any
  command reading the index pays.

Your own cache, index and collections are not touched (temporary folders).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _cold(cmd: list[str], env: dict, runs: int) -> tuple[float, float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalog", type=Path, default=REPO / "benchmarks" / "out" / "catalog30k")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    if not args.catalog.exists():
        subprocess.run(
            [sys.executable, str(REPO / "benchmarks" / "gen_catalog.py"), str(args.catalog), "--cards", "30000", "--seed", "1"], check=True
        )
    cardlab = str(Path(sys.executable).parent / "cardlab")
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as tmp:
        env = dict(
            os.environ,
            CARDLAB_CACHE_DIR=f"{tmp}/cache",
            CARDLAB_DATA=f"{tmp}/data",
            CARDLAB_DB=f"{tmp}/index.sqlite",
            CARDLAB_CATALOG=str(args.catalog.resolve()),
            CARDLAB_PLAYER="bench",
        )
        t = time.perf_counter()
        subprocess.run([cardlab, "index"], env=env, check=True, stdout=subprocess.DEVNULL)
        print(f"setup: index built in {time.perf_counter() - t:.1f} s")
        os.environ["CARDLAB_DATA"] = env["CARDLAB_DATA"]
        import sqlite3

        from cardlab.collection import db, owned

        ids = [r[0] for r in sqlite3.connect(env["CARDLAB_DB"]).execute("SELECT id FROM card")]
        rng = random.Random(13)
        con = db.connect()
        owned.change(con, "bench", [("set", cid, rng.randint(1, 4)) for cid in ids])
        held = owned.counts(con, "bench")
        print(f"setup: {len(held):,} owned cards, {sum(held.values()):,} copies")
        out = subprocess.run([cardlab, "collection", "list"], env=env, stdout=subprocess.PIPE, check=True, text=True).stdout
        last = out.rstrip().splitlines()[-1]
        assert last == f"{len(held)} cards, {sum(held.values())} copies", last
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
        rows = [
            ("cardlab collection list (30,000 owned)", [cardlab, "collection", "list"], 0.3),
            ("cardlab collection list 'hp>=100'", [cardlab, "collection", "list", "hp>=100"], None),
            ("floor: cardlab --version", [cardlab, "--version"], None),
            ("floor: cardlab search 'name:zzz'", [cardlab, "search", "name:zzz"], None),
        ]
        ok = True
        for label, cmd, goal in rows:
            med, lo, hi = _cold(cmd, env, args.runs)
            verdict = ""
            if goal is not None:
                verdict = f"  goal <= {goal} s: {'PASS' if med <= goal else 'FAIL'}"
                ok &= med <= goal
            print(f"{label:<42} median {med:.3f} s (min {lo:.3f}, max {hi:.3f}){verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
