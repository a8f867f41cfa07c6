"""Collections (issue 13 §2): the database, counts, CSV import/export, crash safety, the index apart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardlab.catalog.validate import load_catalog
from cardlab.collection import db, owned
from cardlab.collection.cards import CardResolver
from cardlab.core.csvfile import parse_csv
from cardlab.core.errors import DataError, UsageError


@pytest.fixture
def con(backend):
    """The collections database on each backend (SQLite file, PostgreSQL database)."""
    return db.connect()


@pytest.fixture
def sqlite_con():
    """The SQLite collections database in the test's data folder."""
    return db.connect()


@pytest.fixture
def resolver(forum_catalog):
    return CardResolver(load_catalog([forum_catalog]))


def test_database_lives_in_the_data_dir_not_the_cache(sqlite_con, tmp_path):
    from cardlab.core.paths import collection_db

    assert collection_db() == tmp_path / "cardlab-data" / "collection.sqlite"
    assert collection_db().exists()
    assert "cache" not in str(collection_db().parent.name)


def test_add_remove_set(con):
    assert owned.change(con, "alice", [("add", "ftcg-test-1", 2)]) == {"ftcg-test-1": 2}
    assert owned.change(con, "alice", [("add", "ftcg-test-1", 1), ("remove", "ftcg-test-1", 3)]) == {"ftcg-test-1": 0}
    assert owned.counts(con, "alice") == {}
    owned.change(con, "alice", [("set", "ftcg-test-2", 5)])
    assert owned.counts(con, "alice") == {"ftcg-test-2": 5}


def test_removing_more_than_owned_is_refused_and_changes_nothing(con):
    owned.change(con, "alice", [("add", "ftcg-test-1", 2)])
    with pytest.raises(owned.NotOwnedError, match="owns 2"):
        owned.change(con, "alice", [("add", "ftcg-test-2", 1), ("remove", "ftcg-test-1", 3)])
    assert owned.counts(con, "alice") == {"ftcg-test-1": 2}  # the add in the same transaction is rolled back


@pytest.mark.parametrize("text", ["-1", "1.5", "x", "", "٣", "10000000", "--1", "+-2"])
def test_bad_counts(text):
    with pytest.raises(UsageError):
        owned.parse_count(text)


def test_zero_count_only_where_allowed():
    assert owned.parse_count("0", allow_zero=True) == 0
    with pytest.raises(UsageError):
        owned.parse_count("0")


def test_resolver_names_ids_and_set_numbers(resolver):
    assert resolver.resolve("ftcg-test-3") == ("ftcg-test-3", "")
    assert resolver.resolve("FT 3")[0] == "ftcg-test-3"
    assert resolver.resolve("lame errante")[0] == "ftcg-test-1"
    found, message = resolver.resolve("Lame erante")
    assert found is None and '"Lame errante"' in message


def _table(text: str, tmp_path: Path):
    return parse_csv(text, tmp_path / "in.csv")


def test_csv_import_adds_and_replace_restores(con, resolver, tmp_path):
    owned.change(con, "alice", [("add", "ftcg-test-1", 1)])
    owned.import_csv(con, _table("card_id,count\nftcg-test-1,2\nftcg-test-2,1\nftcg-test-2,1\n", tmp_path), resolver, "alice")
    assert owned.counts(con, "alice") == {"ftcg-test-1": 3, "ftcg-test-2": 2}
    backup = owned.export_csv(con, None)
    owned.change(con, "alice", [("set", "ftcg-test-9", 7)])
    owned.import_csv(con, _table(backup, tmp_path), resolver, "alice", replace=True)
    assert owned.counts(con, "alice") == {"ftcg-test-1": 3, "ftcg-test-2": 2}


def test_csv_with_bad_rows_names_row_and_column_and_writes_nothing(con, resolver, tmp_path):
    text = "name,count\nLame errante,1\nLame erante,1\nBrume fendue,-2\n"
    with pytest.raises(DataError) as err:
        owned.import_csv(con, _table(text, tmp_path), resolver, "alice")
    where = [(p.pos.line, p.pos.col, p.rule) for p in err.value.problems]
    assert where == [(3, 1, "unknown-card"), (4, 2, "count")]
    assert "did you mean" in err.value.problems[0].message
    assert owned.counts(con, "alice") == {}


def test_csv_header_problems_are_usage_errors(resolver, tmp_path):
    with pytest.raises(UsageError, match="unknown column"):
        owned.plan_import(_table("card,count\nx,1\n", tmp_path), resolver, "alice")
    with pytest.raises(UsageError, match="needs a count column"):
        owned.plan_import(_table("card_id\nx\n", tmp_path), resolver, "alice")


def test_read_only_data_dir_is_a_clear_error(monkeypatch, tmp_path):
    target = tmp_path / "ro"
    target.mkdir()
    monkeypatch.setenv("CARDLAB_DATA", str(target))
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == target else real(p, mode, **kw))
    with pytest.raises(db.DataDirError, match="read-only"):
        db.connect()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_data_dir_for_real(monkeypatch, tmp_path):
    target = tmp_path / "ro"
    target.mkdir()
    target.chmod(0o500)
    monkeypatch.setenv("CARDLAB_DATA", str(target))
    with pytest.raises(db.DataDirError, match="read-only"):
        db.connect()


def test_index_rebuild_and_deletion_never_touch_the_collection(con, forum_catalog, tmp_path):
    from cardlab.catalog.index import build_index

    owned.change(con, "alice", [("add", "ftcg-test-1", 2)])
    index = tmp_path / "index.sqlite"
    build_index([forum_catalog], index)  # a fresh build over an existing index
    index.unlink()
    assert owned.counts(db.connect(), "alice") == {"ftcg-test-1": 2}


KILLED_IMPORT = r"""
import sys, time
from pathlib import Path
from cardlab.catalog.validate import load_catalog
from cardlab.collection import db, owned
from cardlab.collection.cards import CardResolver
from cardlab.core.csvfile import read_csv

marker = Path(sys.argv[2])

def progress(i):
    if i >= 200:
        marker.write_text("inside the transaction")
        time.sleep(60)

owned.import_csv(db.connect(), read_csv(Path(sys.argv[1])), CardResolver(load_catalog([Path(sys.argv[3])])),
                 "alice", progress=progress)
"""


def test_kill_9_during_an_import_leaves_the_old_collection_whole(sqlite_con, forum_catalog, tmp_path):
    con = sqlite_con
    owned.change(con, "alice", [("add", "ftcg-test-1", 2)])
    rows = [f"p{p},ftcg-test-{n},1" for p in range(10) for n in range(1, 33)]
    csv_path = tmp_path / "big.csv"
    csv_path.write_text("player,card_id,count\n" + "\n".join(rows) + "\n")
    marker = tmp_path / "marker"
    proc = subprocess.Popen([sys.executable, "-c", KILLED_IMPORT, str(csv_path), str(marker), str(forum_catalog)])
    deadline = time.monotonic() + 30
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert marker.exists(), "the import never reached its transaction"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    after = db.connect()
    assert after.scalar("PRAGMA integrity_check") == "ok"
    assert owned.players(after) == ["alice"]
    assert owned.counts(after, "alice") == {"ftcg-test-1": 2}


def test_csv_player_column(con, resolver, tmp_path):
    text = 'player,card_id,count\nbob,ftcg-test-1,2\n,ftcg-test-2,1\n"bad\x01name",ftcg-test-3,1\n'
    with pytest.raises(DataError) as err:
        owned.import_csv(con, _table(text, tmp_path), resolver, "alice")
    assert [(p.pos.line, p.pos.col, p.rule) for p in err.value.problems] == [(4, 1, "player")]
    owned.import_csv(con, _table(text.rsplit("\n", 2)[0] + "\n", tmp_path), resolver, "alice")
    assert owned.counts(con, "bob") == {"ftcg-test-1": 2} and owned.counts(con, "alice") == {"ftcg-test-2": 1}


def test_list_shows_cards_the_catalog_lost(con, forum_catalog, tmp_path):
    from cardlab.collection.listing import list_owned, plain
    from cardlab.search.engine import open_index

    owned.change(con, "alice", [("add", "ftcg-test-1", 1), ("add", "gone-7", 2)])
    rows = list_owned(open_index([forum_catalog], tmp_path / "i.sqlite"), owned.counts(con, "alice"))
    assert [(r.card_id, r.copies, r.known) for r in rows] == [("ftcg-test-1", 1, True), ("gone-7", 2, False)]
    assert "(not in the catalog)" in plain(rows) and plain(rows).endswith("2 cards, 3 copies\n")
