"""What the rules text in three more languages costs the index (issue 32): the shipped catalog's
index built as it is (English, French, German and Italian rules text) paired with the index of a
copy whose translated texts are taken out (English only; the official card names stay), each built
from scratch in its own cache folder, A B A B ...

Usage:
    python benchmarks/bench_lang_index.py [--exe cardlab] [--runs 3]

Prints each side's index file size (bytes, the SQLite file after the build) and build time (median
and min-max of the runs), and the ratios with translations / English only. The copy is made with
``strip_translations`` of tests/unit/i18n/test_strings.py (the helper the tests use to get a set
back to untranslated), so both sides differ only in the translated texts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.unit.i18n.test_strings import strip_translations  # noqa: E402


def build(exe: str, catalog: Path, work: Path) -> tuple[int, float]:
    """Build the index of ``catalog`` into a fresh file; return (its size in bytes, wall seconds)."""
    db = work / "index.sqlite"
    for leftover in work.glob("index.sqlite*"):
        leftover.unlink()
    env = dict(os.environ, CARDLAB_CACHE_DIR=str(work / "cache"), NO_COLOR="1")
    env.pop("CARDLAB_CATALOG", None)
    start = time.perf_counter()
    subprocess.run([exe, "index", "--catalog", str(catalog), "--db", str(db), "--force", "-q"], env=env, check=True, capture_output=True)
    return db.stat().st_size, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=shutil.which("cardlab") or "cardlab", help="the cardlab executable")
    parser.add_argument("--runs", type=int, default=3, help="builds of each side (default 3)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-lang-index-"))
    try:
        english = tmp / "english"
        shutil.copytree(REPO / "cards", english)
        files = strip_translations(english)
        sides = {"three languages": (REPO / "cards", tmp / "a"), "English only": (english, tmp / "b")}
        for _, work in sides.values():
            work.mkdir()
        sizes: dict[str, list[int]] = {k: [] for k in sides}
        times: dict[str, list[float]] = {k: [] for k in sides}
        for _ in range(args.runs):
            for name, (catalog, work) in sides.items():
                size, took = build(args.exe, catalog, work)
                sizes[name].append(size)
                times[name].append(took)
        print(f"exe = {args.exe}\n{args.runs} builds of each side, in turn; {files} card files lose their translated texts")
        for name in sides:
            t = times[name]
            print(
                f"{name:16s} index {statistics.median(sizes[name]):>12,.0f} bytes   build {statistics.median(t):.2f} s ({min(t):.2f}-{max(t):.2f})"
            )
        a, b = "three languages", "English only"
        print(f"ratio size {statistics.median(sizes[a]) / statistics.median(sizes[b]):.3f}")
        ratios = [x / y for x, y in zip(times[a], times[b], strict=True)]
        print(f"ratio build time (median of pairs) {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
