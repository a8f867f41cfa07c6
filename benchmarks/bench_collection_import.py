#!/usr/bin/env python3
"""Collection import from another app's export (issue 31 §1): rows per second and peak memory of
``cardlab.collection.apps.import_export`` on a 100,000-row TCGplayer export, paired with a bare
``csv.reader`` pass over the same file.

    python benchmarks/bench_collection_import.py [--rows 100000] [--runs 3]

Setup (not timed): a TCGplayer-shaped export of ``--rows`` rows cycling over every card of the
shipped catalog (set names, printed numbers ``4/102``, condition, printing, language), written to a
temporary folder. Each run is a fresh Python process (import, then the bare read, in turn):

- import: the catalog loaded and the resolver made first (not timed), then the whole import timed
  (sniffing, header detection, every row checked, the counts written in one transaction to a new
  SQLite collections database); peak memory is the process's ``ru_maxrss`` after the import minus
  its ``ru_maxrss`` before it (what the import itself added).
- floor: ``csv.reader`` over the same file (``utf-8-sig``, ``newline=""``), counting rows; its peak
  memory is the process's ``ru_maxrss`` after the read minus before it.

Prints each run and the medians, and the ratio import / bare read (time per row).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CHILD = r"""
import csv, resource, sys, time
from pathlib import Path
mode, path, data = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
if mode == "import":
    from cardlab.catalog.validate import load_catalog
    from cardlab.collection import db
    from cardlab.collection.apps import import_export
    from cardlab.collection.cards import CardResolver
    from cardlab.core.paths import shipped_catalog
    resolver = CardResolver(load_catalog(shipped_catalog()))
    con = db.connect(data / "c.sqlite")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    report = import_export(con, path, resolver, "bench")
    elapsed = time.perf_counter() - t
    rows = report.rows
else:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = sum(1 for _ in csv.reader(f)) - 1
    elapsed = time.perf_counter() - t
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(rows, elapsed, after - before, after)
"""


def write_export(path: Path, rows: int) -> int:
    """Write a TCGplayer export of ``rows`` rows over the shipped catalog's cards; return its size in bytes."""
    from cardlab.catalog.validate import load_catalog
    from cardlab.collection.apps import APPS, export_rows
    from cardlab.core.paths import shipped_catalog

    catalog = load_catalog(shipped_catalog())
    ids = [c for c in catalog.cards if catalog.game_of(c) == "pokemon"]
    body = list(export_rows(dict.fromkeys(ids, 1), catalog, "tcgplayer", "bench"))
    header, lines = body[0], body[1:]
    assert header == list(APPS["tcgplayer"].header)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for i in range(rows):
            w.writerow(lines[i % len(lines)])
    return path.stat().st_size


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as tmp:
        path = Path(tmp) / "tcgplayer.csv"
        size = write_export(path, args.rows)
        print(f"export: {args.rows:,} rows, {size / 1e6:.1f} MB")
        results: dict[str, list[tuple[float, float, int]]] = {"import": [], "csv": []}
        for run in range(args.runs):
            for mode in ("import", "csv"):
                data = Path(tmp) / f"data-{mode}-{run}"
                data.mkdir()
                out = subprocess.run([sys.executable, "-c", CHILD, mode, str(path), str(data)], check=True, capture_output=True, text=True)
                rows, elapsed, added, peak = out.stdout.split()
                assert int(rows) == args.rows, (mode, rows)
                results[mode].append((float(elapsed), int(rows) / float(elapsed), int(added)))
                print(
                    f"run {run + 1} {mode:6}: {float(elapsed):7.3f} s, {int(rows) / float(elapsed):10,.0f} rows/s, peak +{int(added) / 1024:.1f} MiB (process {int(peak) / 1024:.0f} MiB)"
                )
        med = {
            m: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v), statistics.median(r[2] for r in v))
            for m, v in results.items()
        }
        for mode, (elapsed, rate, added) in med.items():
            print(f"median {mode:6}: {elapsed:7.3f} s, {rate:10,.0f} rows/s, peak +{added / 1024:.1f} MiB")
        print(f"ratio import / bare csv read: {med['import'][0] / med['csv'][0]:.1f}x the time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
