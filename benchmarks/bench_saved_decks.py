#!/usr/bin/env python3
"""Saved decks benchmark (issue 30): saving a deck at 10 concurrent writers, paired with a bare SQLite insert.

    python benchmarks/bench_saved_decks.py [--writers 10] [--saves 40] [--rounds 3] [--backend sqlite|URL]

Each writer is a thread (as the web's request threads are) that saves ``--saves`` decks one after the
other; every save is what a web save does to the database: open the collections database
(:func:`cardlab.collection.db.connect`: its schema revision checked), :func:`cardlab.collection.saved.save`
(the size checks, a new id, one INSERT in a ``BEGIN IMMEDIATE`` transaction, committed with
``synchronous=FULL``), close. The latency of each save is recorded; p50 and p99 over every save.

Sides, run in turn in each round (A S B O): A, a save that opens the database first
(``db.connect()``, as a command does); S, saves on one shared open Database (``keep_open``), as the web
saves; the floors, the same threads doing a bare ``sqlite3`` ``BEGIN IMMEDIATE``, INSERT of the same
row and commit into a table of the same shape (WAL, ``synchronous=FULL``): B connecting and closing
each time, O on a connection each thread keeps open. Goal: saving p99 <= 50 ms at 10 writers.

Then the edit path: 10 writers editing one deck from the version they read, each retrying after a
409 (:class:`cardlab.collection.saved.VersionConflictError`) until its edit lands; the count of
conflicts and the final version show that no update was lost (final version = 1 + all edits).

A private data folder is used (``CARDLAB_DATA`` is set to a temporary folder).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DECK = (REPO / "examples" / "decks" / "zap-theme-deck.txt").read_text(encoding="utf-8")


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def _run(writers: int, saves: int, one: object) -> list[float]:
    """``writers`` threads each calling ``one()`` ``saves`` times; every call's seconds."""
    times: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(writers)

    def work() -> None:
        mine = []
        barrier.wait()
        for _ in range(saves):
            t = time.perf_counter()
            one()  # type: ignore[operator]
            mine.append(time.perf_counter() - t)
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=work) for _ in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--writers", type=int, default=10)
    ap.add_argument("--saves", type=int, default=40, help="saves per writer per round")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cardlab-bench-saved."))
    os.environ["CARDLAB_DATA"] = str(tmp / "data")

    import secrets

    from cardlab.collection import db, saved

    db.connect().close()  # the schema, made once (not timed)

    def cardlab_save() -> None:
        database = db.connect()
        try:
            saved.save(database, DECK, "bench")
        finally:
            database.close()

    shared = db.connect(keep_open=True)  # as the web opens it (cardlab.web.collections.write_database)

    def shared_save() -> None:
        saved.save(shared, DECK, "bench")

    floor_path = tmp / "floor.sqlite"
    con = sqlite3.connect(floor_path)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute(
        "CREATE TABLE saved_deck (id TEXT PRIMARY KEY, name TEXT NOT NULL, format TEXT, text TEXT NOT NULL, cards INTEGER NOT NULL,"
        " version INTEGER NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL)"
    )
    con.close()

    def bare_insert() -> None:
        c = sqlite3.connect(floor_path, isolation_level=None, timeout=10, check_same_thread=False)
        c.execute("PRAGMA synchronous = FULL")
        c.execute("BEGIN IMMEDIATE")
        c.execute(
            "INSERT INTO saved_deck VALUES (?, 'bench', 'pokemon-base', ?, 60, 1, '2026-12-03T00:00:00Z', '2026-12-03T00:00:00Z')",
            (secrets.token_urlsafe(6), DECK),
        )
        c.execute("COMMIT")
        c.close()

    held = threading.local()

    def bare_insert_open() -> None:
        c = getattr(held, "con", None)
        if c is None:
            c = held.con = sqlite3.connect(floor_path, isolation_level=None, timeout=10, check_same_thread=False)
            c.execute("PRAGMA synchronous = FULL")
        c.execute("BEGIN IMMEDIATE")
        c.execute(
            "INSERT INTO saved_deck VALUES (?, 'bench', 'pokemon-base', ?, 60, 1, '2026-12-03T00:00:00Z', '2026-12-03T00:00:00Z')",
            (secrets.token_urlsafe(6), DECK),
        )
        c.execute("COMMIT")

    a: list[float] = []
    s: list[float] = []
    b: list[float] = []
    o: list[float] = []
    for r in range(args.rounds):
        ra = _run(args.writers, args.saves, cardlab_save)
        rs = _run(args.writers, args.saves, shared_save)
        rb = _run(args.writers, args.saves, bare_insert)
        ro = _run(args.writers, args.saves, bare_insert_open)
        a += ra
        s += rs
        b += rb
        o += ro
        print(
            f"round {r + 1}: save p50 {statistics.median(ra) * 1000:.1f} ms p99 {_pct(ra, 99) * 1000:.1f} ms | "
            f"shared p50 {statistics.median(rs) * 1000:.1f} ms p99 {_pct(rs, 99) * 1000:.1f} ms | "
            f"bare insert p50 {statistics.median(rb) * 1000:.1f} ms p99 {_pct(rb, 99) * 1000:.1f} ms | "
            f"bare, open connection p50 {statistics.median(ro) * 1000:.1f} ms p99 {_pct(ro, 99) * 1000:.1f} ms"
        )
    n = len(a)
    print(f"\n{args.writers} writers, {n} saves each side ({args.rounds} rounds, A S B O A S B O ...)")
    print(
        f"cardlab save (connect + saved.save + close): p50 {statistics.median(a) * 1000:.1f} ms  p99 {_pct(a, 99) * 1000:.1f} ms  max {max(a) * 1000:.1f} ms"
    )
    print(
        f"cardlab save on one open Database (web):     p50 {statistics.median(s) * 1000:.1f} ms  p99 {_pct(s, 99) * 1000:.1f} ms  max {max(s) * 1000:.1f} ms"
    )
    print(
        f"floor, bare sqlite3 insert:                   p50 {statistics.median(b) * 1000:.1f} ms  p99 {_pct(b, 99) * 1000:.1f} ms  max {max(b) * 1000:.1f} ms"
    )
    print(
        f"floor, bare insert, open connection:          p50 {statistics.median(o) * 1000:.1f} ms  p99 {_pct(o, 99) * 1000:.1f} ms  max {max(o) * 1000:.1f} ms"
    )
    print(
        f"one open Database / the open-connection floor: p50 {statistics.median(s) / statistics.median(o):.2f}  p99 {_pct(s, 99) / _pct(o, 99):.2f}"
    )
    print(
        f"ratio to the floor: connect each time p50 {statistics.median(a) / statistics.median(b):.2f} p99 {_pct(a, 99) / _pct(b, 99):.2f};"
        f" one open Database p50 {statistics.median(s) / statistics.median(b):.2f} p99 {_pct(s, 99) / _pct(b, 99):.2f}"
    )
    print(f"goal p99 <= 50 ms (one open Database, as the web saves): {'PASS' if _pct(s, 99) <= 0.050 else 'FAIL'}")

    # edits: every writer edits one deck from the version it read, retrying after a conflict
    deck_id = saved.save(db.connect(), DECK, "edited").id
    conflicts = [0]
    lock = threading.Lock()
    edits = 5

    def edit_once() -> None:
        database = db.connect()
        try:
            while True:
                current = saved.get(database, deck_id)
                try:
                    saved.update(database, deck_id, DECK, current.version)
                    return
                except saved.VersionConflictError:
                    with lock:
                        conflicts[0] += 1
        finally:
            database.close()

    e = _run(args.writers, edits, edit_once)
    final = saved.get(db.connect(), deck_id).version
    print(
        f"\nedits: {args.writers} writers x {edits} edits of one deck: p50 {statistics.median(e) * 1000:.1f} ms  p99 {_pct(e, 99) * 1000:.1f} ms;"
        f" {conflicts[0]} conflicts (409) retried; final version {final} (expected {1 + args.writers * edits}: "
        f"{'no update lost' if final == 1 + args.writers * edits else 'LOST UPDATES'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
