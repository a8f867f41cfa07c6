#!/usr/bin/env python3
"""Search pages whatever matches (issue 29): one page of a broad query at 1k / 30k / 100k cards, this
code against an older commit, and one-word searches on PostgreSQL against SQLite at 100k.

    git worktree add /tmp/base447 447d471
    python benchmarks/bench_page.py --base /tmp/base447 [--sizes 1000 30000 100000] [--rounds 3]
        [--calls 9] [--pg-url postgresql+psycopg://...] [--pg-size 100000]

Indexes: ``/work/scale/c<N>`` (``benchmarks/gen_catalog.py OUT --cards N --seed 1``) indexed once with
``cardlab index`` into ``--cache`` (the same file read by both commits: the index format did not
change). Every figure is the median of ``--calls`` calls in one process after two warm-up calls; the
process of A and the process of B run in turn (A B A B ..., ``--rounds`` pairs), and the ratio is
taken pair by pair:

- *page*: ``search_page(con, q, limit=50)`` (the old API's page: rows and a window count of every
  match) against ``find_page(con, q, page_size=50)`` with its total counted anew each call (the
  first view of a query) and with the total remembered (the next pages, other sorts);
- *deep*: the same at page 1,000 (offset 49,950);
- *pg*: ``find_page`` of one word on PostgreSQL against SQLite, this commit and the ``--base`` one,
  its first view (total counted) and with its total known, with ``--pg-url``: a database whose
  index is ``--pg-size`` cards (built with ``cardlab index --db URL``);
- *cold CLI*: ``cardlab search WORD --limit 50`` (:data:`CLI_WORDS`) as a new process on PostgreSQL,
  this commit against the ``--base`` one, and against SQLite (this commit; run from ``/``: ``python -m``
  would put a worktree first on sys.path).
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

QUERIES = {"broad word": "energy", "broad facet": "type:fire", "everything": ""}
"""The broad queries: a rules-text word in most cards (and no card's whole name), a facet value in a
tenth of them, the empty query (every card)."""

WORDS = ["energy", "damage", "coin", "noru", "zzzz", "water", "pied", "attacking"]
"""One-word searches for the PostgreSQL table: common rules-text words, a name prefix, no match, a
word in about 1 % and 2 % of the cards, a rare word with a common stem."""

CLI_WORDS = ["charizard", "noru"]
"""Cold ``cardlab search WORD`` on PostgreSQL against SQLite: a word no synthetic card has, a name prefix."""


def worker(args: argparse.Namespace) -> None:
    """One process's figure: the median milliseconds of ``args.calls`` calls (printed as JSON)."""
    from cardlab.search import engine

    if args.db.startswith("postgresql"):
        from cardlab.index import postgres

        con = postgres.connect(args.db)
    else:
        from cardlab.index.sqlite import connect

        con = connect(args.db)
    page = args.page

    def call() -> object:
        if args.mode == "old":
            return engine.search_page(con, args.query, limit=50, offset=(page - 1) * 50)
        if args.mode == "first":
            engine._TOTALS.clear()  # the first view of the query: its total counted
        return engine.find_page(con, args.query, page_size=50, page=page)

    for _ in range(2):
        call()
    times = []
    for _ in range(args.calls):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"ms": statistics.median(times)}))


def run_worker(base: Path | None, mode: str, db: str, query: str, page: int = 1, *, calls: int) -> float:
    """Run :func:`worker` in a new process (``base``: the old commit's worktree on PYTHONPATH)."""
    env = {**os.environ, "PYTHONPATH": str(base or REPO)}
    cmd = [sys.executable, __file__, "--worker", mode, "--db", db, "--query", query, "--calls", str(calls), "--page", str(page)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/").stdout
    return json.loads(out.strip().splitlines()[-1])["ms"]


def pairs(label: str, a: tuple, b: tuple, rounds: int, calls: int) -> tuple[float, float, float]:
    """``rounds`` pairs of processes A then B; print and return medians (ms) and the median ratio A/B."""
    xs, ys = [], []
    for _ in range(rounds):
        xs.append(run_worker(*a, calls=calls))
        ys.append(run_worker(*b, calls=calls))
    ratios = [x / y for x, y in zip(xs, ys, strict=True)]
    med = statistics.median(ratios)
    print(
        f"{label:48s} A {statistics.median(xs):9.2f} ms  B {statistics.median(ys):8.2f} ms  A/B {med:7.2f} ({min(ratios):.2f}-{max(ratios):.2f})",
        flush=True,
    )
    return statistics.median(xs), statistics.median(ys), med


def index_of(scale: Path, cache: Path, n: int) -> str:
    """The index file of ``scale/c<n>`` in ``cache`` (built with ``cardlab index`` when missing)."""
    db = cache / f"base_c{n}.sqlite"
    if not db.exists():
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        subprocess.run([sys.executable, "-m", "cardlab", "index", "--catalog", str(scale / f"c{n}"), "--db", str(db)], env=env, check=True)
    return str(db)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", choices=["old", "first", "new"], help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    ap.add_argument("--query", default="", help=argparse.SUPPRESS)
    ap.add_argument("--page", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--base", type=Path, help="a worktree of the older commit (git worktree add /tmp/base447 447d471)")
    ap.add_argument("--scale", type=Path, default=Path("/work/scale"))
    ap.add_argument("--cache", type=Path, default=Path("/tmp/h29"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 30000, 100000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", type=int, default=9)
    ap.add_argument("--pg-url", help="a PostgreSQL database holding the index of --pg-size cards")
    ap.add_argument("--pg-size", type=int, default=100000)
    ap.add_argument("--skip-pages", action="store_true", help="only the PostgreSQL table")
    ap.add_argument("--skip-words", action="store_true", help="of the PostgreSQL table, only the cold CLI")
    ap.add_argument("--words", nargs="+", default=WORDS, help="the one-word searches of the PostgreSQL table")
    ap.add_argument("--skip-cli", action="store_true", help="of the PostgreSQL table, no cold CLI")
    ap.add_argument("--skip-before", action="store_true", help="of the PostgreSQL one-word table, this commit only")
    args = ap.parse_args()
    if args.worker:
        args.mode = args.worker
        return worker(args)
    if args.base is None:
        sys.exit("give --base: a worktree of the older commit")
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}", flush=True)
    if not args.skip_pages:
        for n in args.sizes:
            db = index_of(args.scale, args.cache, n)
            for name, q in QUERIES.items():
                pairs(
                    f"{n:>6} {name} {q!r}: old / new first view", (args.base, "old", db, q), (None, "first", db, q), args.rounds, args.calls
                )
                pairs(
                    f"{n:>6} {name} {q!r}: old / new next pages", (args.base, "old", db, q), (None, "new", db, q), args.rounds, args.calls
                )
            q = "type:fire"
            if n >= 60_000:
                for mode in ("first", "new"):
                    pairs(
                        f"{n:>6} page 1,000 of {q!r}: old / new ({mode})",
                        (args.base, "old", db, q, 1000),
                        (None, mode, db, q, 1000),
                        args.rounds,
                        args.calls,
                    )
    if args.pg_url:
        db = index_of(args.scale, args.cache, args.pg_size)
        print(f"# PostgreSQL / SQLite, one word, {args.pg_size:,} cards (B is SQLite)", flush=True)
        for word in [] if args.skip_words else args.words:
            for base, label in ((None, "after"), (args.base, "before"))[: 1 if args.skip_before else 2]:
                for mode, view in (("first", "first view"), ("new", "total known")):
                    pairs(
                        f"{label} find_page {word!r} {view}: pg / sqlite",
                        (base, mode, args.pg_url, word),
                        (base, mode, db, word),
                        args.rounds,
                        args.calls,
                    )
        sys.path.insert(0, str(REPO))
        from benchmarks.paired import paired

        catalog = str(args.scale / f"c{args.pg_size}")
        os.chdir("/")  # python -m puts the working folder first on sys.path: no worktree there, PYTHONPATH decides
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        before = {**os.environ, "PYTHONPATH": str(args.base)}
        for word in [] if args.skip_cli else CLI_WORDS:
            cli = [sys.executable, "-m", "cardlab", "search", word, "--catalog", catalog, "--limit", "50", "--db"]
            # the SQLite index file is fresh for one commit only (the other would rebuild it: the
            # schemas' folder is part of what it records), so each side of a pair runs one commit
            for label, b, env_b in (
                (f"cold CLI {word!r}: pg after / pg before", args.pg_url, before),
                (f"cold CLI {word!r}: pg / sqlite", db, env),
            ):
                print(paired(label, [*cli, args.pg_url], [*cli, b], args.rounds + 2, env, env_b).line(), flush=True)
    print(f"# done {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
