#!/usr/bin/env python3
"""Every everyday command flat (issue 29 items 3 and 5): cold ``sets``, ``formats``, ``collection
list``, ``show`` and ``search`` at each catalog size, each run paired with the import floor, and the
peak memory of ``cardlab index --force``.

    python benchmarks/bench_flat.py --sizes 1000,30000,100000 --root /work/scale --cache /tmp/flat-cache
    python benchmarks/bench_flat.py --sizes 1000 --pairs 3 --no-index-memory

Run it with the Python of the venv whose ``cardlab`` is measured. Catalogs are ``<root>/c<N>``
(``benchmarks/gen_catalog.py OUT --cards N --seed 1``); they are only read. Each catalog's index
lives in ``--cache`` (``CARDLAB_CACHE_DIR``; a temporary folder by default) and is built before
the timed runs (``cardlab index``, not timed), so every command finds it fresh; a collection of
three of the catalog's cards is imported into a private ``CARDLAB_DATA`` for ``collection list``.

For each size and command, the command and the floor ``python -c "import typer, rich.table,
sqlite3"`` run in turn, A B A B ... (``benchmarks/paired.py``), each a fresh process, wall time
and peak memory (GNU time's ``%M``) per run. The table gives the medians, the median ratio to the
floor, and (last size against the first) the growth of the command's own time and of its ratio
to the floor; goal: the growth of the ratio (the paired figure, which a busy machine moves least)
<= 1.5.

With the index memory figure (default on), ``cardlab index --force`` at the largest size is run
``--index-runs`` times, each paired with the floor; goal <= 250 MiB peak. Prints Markdown tables
(``--out FILE.md`` writes them too); exit 0 when it ran, 2 when a command failed.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from paired import Pair, paired, report  # noqa: E402

BIN = Path(sys.executable).parent
CARDLAB = str(BIN / "cardlab")
FLOOR = [sys.executable, "-c", "import typer, rich.table, sqlite3"]
COMMANDS = ("sets", "formats", "collection list", "show", "search")


def _first_cards(root: Path, n: int) -> list[tuple[str, str]]:
    """``(id, name)`` of the first ``n`` cards of the catalog's first set (read from the index)."""
    import sqlite3

    db = subprocess.run([CARDLAB, "index", "--catalog", str(root)], capture_output=True, text=True, check=True, env=os.environ)
    path = next(line.split(": ", 1)[1] for line in db.stdout.splitlines() if line.startswith(("index: ", "index is up to date: ")))
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
        return con.execute("SELECT id, name FROM card ORDER BY rowid LIMIT ?", (n,)).fetchall()


def _commands(root: Path, cards: list[tuple[str, str]]) -> dict[str, list[str]]:
    catalog = ["--catalog", str(root)]
    return {
        "sets": [CARDLAB, "sets", *catalog],
        "formats": [CARDLAB, "formats", *catalog],
        "collection list": [CARDLAB, "collection", "list", *catalog],
        "show": [CARDLAB, "show", cards[0][0], *catalog],
        "search": [CARDLAB, "search", cards[1][1], *catalog],
    }


def _mib(kib: float) -> float:
    return kib / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,30000,100000")
    parser.add_argument("--root", default="/work/scale")
    parser.add_argument("--cache", default=None, help="CARDLAB_CACHE_DIR (kept: the indexes are reused by later runs)")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--index-runs", type=int, default=1)
    parser.add_argument("--no-index-memory", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cache = Path(args.cache) if args.cache else Path(tempfile.mkdtemp(prefix="bench-flat-cache."))
    cache.mkdir(parents=True, exist_ok=True)
    data = Path(tempfile.mkdtemp(prefix="bench-flat-data."))
    os.environ.update(CARDLAB_CACHE_DIR=str(cache), CARDLAB_DATA=str(data), CARDLAB_PLAYER="bench")
    for var in ("CARDLAB_DB", "CARDLAB_CATALOG"):
        os.environ.pop(var, None)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
    ).stdout.strip()
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; commit {commit}",
        f"start: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}, load average {os.getloadavg()[0]:.2f}",
        "",
    ]
    print("\n".join(lines), flush=True)
    results: dict[tuple[int, str], Pair] = {}
    for size in sizes:
        root = Path(args.root) / f"c{size}"
        cards = _first_cards(root, 3)
        csv = data / f"c{size}.csv"
        csv.write_text("card_id,count\n" + "".join(f"{cid},2\n" for cid, _name in cards), encoding="utf-8")
        subprocess.run([CARDLAB, "collection", "import", str(csv), "--replace", "--catalog", str(root)], check=True, capture_output=True)
        for name, cmd in _commands(root, cards).items():
            pair = paired(f"{name} @ {size}", cmd, FLOOR, args.pairs, usage=True)
            if any(pair.rc_a):
                print(f"error: {' '.join(cmd)} exited {pair.rc_a}", file=sys.stderr)
                return 2
            results[(size, name)] = pair
            print(
                f"{pair.label:28s} {statistics.median(pair.a):.3f} s  floor {statistics.median(pair.b):.3f} s  "
                f"ratio {statistics.median(pair.ratios):.2f}  peak {_mib(statistics.median(pair.rss_a)):.0f} MiB",
                flush=True,
            )
    table = [
        "| command | cards | wall (median) | floor | ratio to floor | peak RSS | floor RSS |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in COMMANDS:
        for size in sizes:
            p = results[(size, name)]
            table.append(
                f"| `{name}` | {size:,} | {statistics.median(p.a):.3f} s | {statistics.median(p.b):.3f} s | "
                f"{statistics.median(p.ratios):.2f} ({min(p.ratios):.2f}-{max(p.ratios):.2f}) | "
                f"{_mib(statistics.median(p.rss_a)):.0f} MiB | {_mib(statistics.median(p.rss_b)):.0f} MiB |"
            )
    growth = [
        "",
        f"| command | growth {sizes[0]:,} -> {sizes[-1]:,}: wall | ratio to floor | peak RSS | goal: ratio growth <= 1.5 |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for name in COMMANDS:
        a, b = results[(sizes[0], name)], results[(sizes[-1], name)]
        wall = statistics.median(b.a) / statistics.median(a.a)
        ratio = statistics.median(b.ratios) / statistics.median(a.ratios)
        rss = statistics.median(b.rss_a) / statistics.median(a.rss_a)
        growth.append(f"| `{name}` | {wall:.2f}x | {ratio:.2f}x | {rss:.2f}x | {'met' if ratio <= 1.5 else 'MISSED'} |")
    out = lines + table + growth
    if not args.no_index_memory:
        root = Path(args.root) / f"c{sizes[-1]}"
        pair = paired(
            f"index --force @ {sizes[-1]}", [CARDLAB, "index", "--force", "--catalog", str(root)], FLOOR, args.index_runs, usage=True
        )
        if any(pair.rc_a):
            print(f"error: cardlab index --force exited {pair.rc_a}", file=sys.stderr)
            return 2
        peak = _mib(max(pair.rss_a))
        out += [
            "",
            "| figure | cards | runs | wall (median) | peak RSS (max) | floor RSS | goal |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
            f"| `cardlab index --force` | {sizes[-1]:,} | {args.index_runs} | {statistics.median(pair.a):.1f} s | {peak:.1f} MiB | "
            f"{_mib(statistics.median(pair.rss_b)):.0f} MiB | <= 250 MiB: {'met' if peak <= 250 else 'MISSED'} |",
        ]
    return report(out, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
