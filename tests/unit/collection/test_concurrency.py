"""Writers at the same time on a shared PostgreSQL database (READ COMMITTED, PostgreSQL's default):
a stake transfer locks both rows, additions never lose an update."""

from __future__ import annotations

import threading
import time

import pytest

from cardlab.collection import db, owned


def test_a_second_transfer_waits_for_the_first_and_finds_the_card_gone(pg_url):
    setup = db.connect(pg_url)
    owned.change(setup, "alice", [("add", "ftcg-test-1", 1)])
    first, second = db.connect(pg_url), db.connect(pg_url)
    moved = threading.Event()

    def hold_the_lock() -> None:
        with first.transaction():
            owned.move_card(first, "ftcg-test-1", "alice", "bob")
            moved.set()
            time.sleep(0.5)  # still inside the transaction: alice's and bob's rows stay locked

    thread = threading.Thread(target=hold_the_lock)
    thread.start()
    assert moved.wait(10)
    started = time.monotonic()
    with pytest.raises(owned.NotOwnedError, match="alice no longer owns ftcg-test-1"):
        with second.transaction():
            owned.move_card(second, "ftcg-test-1", "alice", "carol")
    waited = time.monotonic() - started
    thread.join()
    assert waited >= 0.3  # it waited for the first transfer's commit, then read alice's new count
    assert owned.export_csv(setup, None) == "player,card_id,count\nbob,ftcg-test-1,1\n"


def test_concurrent_additions_lose_nothing(pg_url):
    db.connect(pg_url)
    errors: list[BaseException] = []

    def add_many(player: str) -> None:
        database = db.connect(pg_url)
        try:
            for _ in range(20):
                owned.change(database, player, [("add", "ftcg-test-5", 1)])
                owned.change(database, "shared", [("add", "ftcg-test-5", 1)])
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=add_many, args=(p,)) for p in ("a", "b", "c")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert owned.counts(db.connect(pg_url), "shared") == {"ftcg-test-5": 60}


def test_concurrent_removals_never_go_below_zero(pg_url):
    database = db.connect(pg_url)
    owned.change(database, "alice", [("add", "ftcg-test-2", 10)])
    refused: list[str] = []

    def remove_some() -> None:
        mine = db.connect(pg_url)
        for _ in range(5):
            try:
                owned.change(mine, "alice", [("remove", "ftcg-test-2", 1)])
            except owned.NotOwnedError as err:
                refused.append(str(err))

    threads = [threading.Thread(target=remove_some) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert owned.counts(database, "alice") == {}
    assert len(refused) == 5  # 15 removals of 10 copies: exactly 5 refused


def test_processes_opening_a_new_database_at_once_migrate_it_once(pg_url):
    import subprocess
    import sys

    code = "import sys; from cardlab.collection import db; print(db.version(db.connect(sys.argv[1])))"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, pg_url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)
    ]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [(p.returncode, out.strip()) for p, (out, _) in zip(procs, outs, strict=True)] == [(0, db.HEAD)] * 4, outs
    assert db.migrate(db.connect(pg_url)) == []  # the advisory lock: one migrated, the others found it done
