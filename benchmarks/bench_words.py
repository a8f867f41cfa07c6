#!/usr/bin/env python3
"""One-word searches on PostgreSQL against SQLite over words drawn from the catalog, not chosen
(issue 29, item 4: warm one-word searches within 2x of SQLite at 100,000 cards).

    python benchmarks/bench_words.py --pg-url 'postgresql+psycopg://postgres@/bench?host=/tmp/pg' \\
        --sqlite /tmp/index-c100000.sqlite [--words 60] [--seed 7] [--calls 15] [--out FILE]

``--out``: every word's line, written to FILE too.

Both indexes are of the same catalog (``cardlab index --db``). The words: from every 250th card of
the PostgreSQL index, up to three of its rules-text words and a prefix (3 letters or more) of each
of its name words, letters only, then ``--words`` of them drawn with ``--seed``. For each word, in
one process: ``find_page(con, word, page_size=50)`` on each backend, called in turn (PostgreSQL,
SQLite, PostgreSQL, ...) ``--calls`` times each after a warm-up call, its first view (its total
counted anew each call) and with its total known; printed: each word's medians and ratio, then
the words above 2x and the median and 90th percentile of the ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from paired import paired_calls, report  # noqa: E402


def draw(pg: object, count: int, seed: int) -> list[str]:
    """``count`` words of the index read by ``pg`` (a PgIndex), drawn with ``seed``."""
    rows = pg.con.execute(  # type: ignore[attr-defined]
        "SELECT tsvector_to_array(names), tsvector_to_array(body) FROM card_fts WHERE rowid % 250 = 0 ORDER BY rowid"
    ).fetchall()
    pick = random.Random(seed)
    words: set[str] = set()
    for names, body in rows:
        letters = [w for w in body if w.isalpha()]
        words.update(pick.sample(letters, min(3, len(letters))))
        words.update(w[: pick.randint(3, len(w))] for w in names if w.isalpha() and len(w) >= 3)
    ordered = sorted(words)
    pick.shuffle(ordered)
    return ordered[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg-url", required=True)
    parser.add_argument("--sqlite", required=True)
    parser.add_argument("--words", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--out")
    args = parser.parse_args()

    from cardlab.index import postgres, sqlite
    from cardlab.search import engine

    pg, lite = postgres.connect(args.pg_url), sqlite.connect(args.sqlite)
    lines = [f"# PostgreSQL / SQLite, find_page of one word, page_size=50, {args.calls} calls each in turn, seed {args.seed}"]
    ratios: dict[str, list[float]] = {"first view": [], "total known": []}
    above: list[str] = []
    for word in draw(pg, args.words, args.seed):
        parts = []
        for view in ratios:

            def call(con: object, view: str = view, word: str = word) -> object:
                if view == "first view":
                    engine._TOTALS.clear()  # the first view of the query: its total counted
                return engine.find_page(con, word, page_size=50)

            total = engine.find_page(lite, word, page_size=50).total
            call(pg)
            pair = paired_calls(f"{word} {view}", lambda: call(pg), lambda: call(lite), args.calls)
            a, b = statistics.median(pair.a) * 1000, statistics.median(pair.b) * 1000
            ratios[view].append(a / b)
            parts.append(f"{view} {a:6.2f} / {b:6.2f} ms = {a / b:5.2f}")
        line = f"{word:14s} total {total:5d}  " + "  ".join(parts)
        lines.append(line)
        print(line, flush=True)
        if max(ratios["first view"][-1], ratios["total known"][-1]) > 2:
            above.append(line)
    summary = [f"\nabove 2x: {len(above)} of {len(lines) - 1}", *above]
    for view, values in ratios.items():
        values.sort()
        summary.append(
            f"{view}: median {statistics.median(values):.2f}, 90th percentile {values[int(0.9 * (len(values) - 1))]:.2f}, max {values[-1]:.2f}"
        )
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return report(summary, None)


if __name__ == "__main__":
    raise SystemExit(main())
