#!/usr/bin/env python3
"""The web server's start at 100,000 cards (issue 29): ``create_app`` and its first ``/api/sets``
answer, in a fresh process, with a fresh index, for two checkouts of cardlab (``--before``, e.g.
main, and this one), each paired with the import floor.

    python benchmarks/bench_web_start.py --before /tmp/w100k/before --sizes 1000,100000 \\
        --root /work/scale --index-dir /tmp/w100k/idx --cache /tmp/w100k/cache --pairs 3

Run it with the Python of the venv whose libraries are used. ``--before`` is a source tree of the
other cardlab (``git archive <commit> | tar -x -C DIR``); this script's own tree is "after". Each
child process is ``python bench_web_start.py --child ROOT DB`` with ``PYTHONPATH`` naming the tree
it measures: it builds the app (``cardlab.web.app.create_app([ROOT], DB)``), asks for ``/api/sets``
through Starlette's TestClient and exits 0 on a 200. Each side has its own index of each catalog
(``<index-dir>/<side>-c<N>.sqlite``) and its own ``CARDLAB_CACHE_DIR`` (``<cache>/<side>``): an
index's fingerprint hashes the stamps of the schemas it was checked with, which are the side's own
files, so one side would find the other's index stale and rebuild it. Each is built once before the
timed runs by that side's ``cardlab index`` (not timed), so both find their index fresh and their
per-file validation cache warm (what "before" validates from). The floor is the same process
importing ``cardlab.web.app`` and the TestClient and stopping there.

Each round runs after, before, floor, in turn, each a fresh process: wall time, CPU time and peak
memory (GNU time's ``%M``, :func:`paired.measure`). Prints a Markdown table of medians, the paired
ratios after/before and after/floor, and the growth of "after" from the first size to the last.
Exit 0 when it ran, 2 when a child failed.
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
from paired import Usage, measure, report  # noqa: E402

HERE = Path(__file__).resolve()
AFTER = HERE.parents[1]
SIDES = ("after", "before", "floor")


def _child(root: str, db: str) -> int:
    """The measured process: the app over ``root`` and ``db``, then one ``/api/sets`` answer."""
    from fastapi.testclient import TestClient  # lazy: the child's own imports are what is measured

    from cardlab.web.app import create_app

    with TestClient(create_app([Path(root)], Path(db))) as client:
        resp = client.get("/api/sets")
    return 0 if resp.status_code == 200 and resp.json()["data"] else 1


def _floor() -> int:
    """The floor: the imports of the measured process, no app."""
    from fastapi.testclient import TestClient  # noqa: F401

    import cardlab.web.app  # noqa: F401

    return 0


def _mib(kib: float) -> float:
    return kib / 1024


def _med(values: list[float]) -> float:
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", nargs=2, metavar=("ROOT", "DB"), help=argparse.SUPPRESS)
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--before", help="source tree of the cardlab to compare with (its PYTHONPATH)")
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--root", default="/work/scale")
    parser.add_argument("--index-dir", default=None, help="where each catalog's index is built (kept for later runs)")
    parser.add_argument("--cache", default=None, help="parent of each side's CARDLAB_CACHE_DIR (kept)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--pairs-last", type=int, default=None, help="rounds at the largest size (default --pairs)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.child:
        return _child(*args.child)
    if args.floor:
        return _floor()
    if not args.before:
        parser.error("--before DIR is required")
    sizes = [int(s) for s in args.sizes.split(",")]
    index_dir = Path(args.index_dir or tempfile.mkdtemp(prefix="bench-web-start-idx."))
    index_dir.mkdir(parents=True, exist_ok=True)
    cache = Path(args.cache or tempfile.mkdtemp(prefix="bench-web-start-cache."))
    data = Path(tempfile.mkdtemp(prefix="bench-web-start-data."))
    base = {k: v for k, v in os.environ.items() if k not in ("CARDLAB_DB", "CARDLAB_CATALOG", "PYTHONPATH")}
    base["CARDLAB_DATA"] = str(data)
    trees = {"after": AFTER, "before": Path(args.before).resolve(), "floor": AFTER}
    envs = {side: {**base, "PYTHONPATH": str(tree), "CARDLAB_CACHE_DIR": str(cache / side)} for side, tree in trees.items()}
    for env in envs.values():
        Path(env["CARDLAB_CACHE_DIR"]).mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=AFTER).stdout.strip()
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; after: commit {commit}"
        f" ({AFTER}), before: {args.before}",
        f"start: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}, load average {os.getloadavg()[0]:.2f}",
        "",
    ]
    print("\n".join(lines), flush=True)
    results: dict[tuple[int, str], list[Usage]] = {}
    loads: dict[int, tuple[float, float]] = {}
    for n, size in enumerate(sizes):
        root = Path(args.root) / f"c{size}"
        dbs = {side: index_dir / f"{side}-c{size}.sqlite" for side in ("after", "before")}
        for side, db in dbs.items():
            subprocess.run(
                [sys.executable, "-m", "cardlab", "index", "--quiet", "--catalog", str(root), "--db", str(db)],
                env=envs[side],
                check=True,
                capture_output=True,
            )
        cmds = {
            "after": [sys.executable, str(HERE), "--child", str(root), str(dbs["after"])],
            "before": [sys.executable, str(HERE), "--child", str(root), str(dbs["before"])],
            "floor": [sys.executable, str(HERE), "--floor"],
        }
        start_load = os.getloadavg()[0]
        rounds = args.pairs_last if (args.pairs_last and n == len(sizes) - 1) else args.pairs
        for _ in range(rounds):
            for side in SIDES:
                got = measure(cmds[side], envs[side])
                if got.rc != 0:
                    print(f"error: {side} at {size} exited {got.rc}: {' '.join(cmds[side])}", file=sys.stderr)
                    return 2
                results.setdefault((size, side), []).append(got)
                print(f"{size:>7,} {side:6s} {got.wall:8.3f} s  cpu {got.cpu:8.3f} s  peak {_mib(got.maxrss_kib):7.1f} MiB", flush=True)
        loads[size] = (start_load, os.getloadavg()[0])
    table = [
        "| cards | side | wall (median, min-max) | CPU | peak RSS | after/before wall | after/before RSS | over the floor: wall, RSS | load avg |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for size in sizes:
        runs = {side: results[(size, side)] for side in SIDES}
        walls = {side: [u.wall for u in runs[side]] for side in SIDES}
        rss = {side: [u.maxrss_kib for u in runs[side]] for side in SIDES}
        wall_ratio = [a / b for a, b in zip(walls["after"], walls["before"], strict=True)]
        rss_ratio = [a / b for a, b in zip(rss["after"], rss["before"], strict=True)]
        for side in SIDES:
            w = walls[side]
            over = (
                ""
                if side == "floor"
                else f"{_med([a / f for a, f in zip(w, walls['floor'], strict=True)]):.2f}x, "
                f"{_med([a / f for a, f in zip(rss[side], rss['floor'], strict=True)]):.2f}x"
            )
            paired_cells = (
                f"{_med(wall_ratio):.3f} ({min(wall_ratio):.3f}-{max(wall_ratio):.3f}) | {_med(rss_ratio):.2f}"
                if side == "after"
                else " | "
            )
            table.append(
                f"| {size:,} | {side} | {_med(w):.2f} s ({min(w):.2f}-{max(w):.2f}) | {_med([u.cpu for u in runs[side]]):.2f} s | "
                f"{_mib(_med(rss[side])):.0f} MiB | {paired_cells} | {over} | {loads[size][0]:.2f} → {loads[size][1]:.2f} |"
            )
    first, last = sizes[0], sizes[-1]
    growth = [
        "",
        f"| side | growth {first:,} → {last:,} cards: wall | CPU | peak RSS | wall over the floor |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for side in ("after", "before"):
        a, b = results[(first, side)], results[(last, side)]
        fa, fb = results[(first, "floor")], results[(last, "floor")]
        over_a = _med([u.wall / f.wall for u, f in zip(a, fa, strict=True)])
        over_b = _med([u.wall / f.wall for u, f in zip(b, fb, strict=True)])
        growth.append(
            f"| {side} | {_med([u.wall for u in b]) / _med([u.wall for u in a]):.2f}x | "
            f"{_med([u.cpu for u in b]) / _med([u.cpu for u in a]):.2f}x | "
            f"{_med([u.maxrss_kib for u in b]) / _med([u.maxrss_kib for u in a]):.2f}x | {over_b / over_a:.2f}x |"
        )
    return report(lines + table + growth, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
