"""The collections database's schema (Alembic, both backends): from an empty database, from each
earlier revision, from the hand-made ``schema_version`` databases of earlier cardlab versions, and a
database from a newer cardlab refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from cardlab.collection import db, owned
from cardlab.play import store

# The hand-made migrations of cardlab before Alembic, verbatim: the "previous version" to adopt.
LEGACY_SCHEMA_VERSION = (
    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, what TEXT, applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
)
LEGACY_OWNED = """
CREATE TABLE owned (
    player  TEXT NOT NULL,
    card_id TEXT NOT NULL,
    count   INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (player, card_id)
) WITHOUT ROWID"""
LEGACY_GAME = """
CREATE TABLE game (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT NOT NULL,
    created    TEXT NOT NULL,
    updated    TEXT NOT NULL,
    seed       BLOB NOT NULL,
    commitment TEXT NOT NULL,
    setup      TEXT NOT NULL,
    moves      TEXT NOT NULL DEFAULT '[]',
    stakes     TEXT NOT NULL DEFAULT '{}',
    status     TEXT NOT NULL DEFAULT 'on',
    result     TEXT
)"""

ZANGETSU = {
    "kind": "zangetsu",
    "players": ["alice", "bob"],
    "pool": [{"id": f"ftcg-test-{i}", "name": f"C{i}", "value": v, "faction": "neutral"} for i, v in ((1, 1), (2, 9))],
    "replacement": True,
}


def _legacy(path: Path, version: int) -> None:
    """A database as cardlab's hand-made migrations left it at ``version`` (1 or 2), with data."""
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("PRAGMA journal_mode = WAL")
    old.execute(LEGACY_SCHEMA_VERSION)
    old.execute(LEGACY_OWNED)
    old.execute("INSERT INTO schema_version (version, what) VALUES (1, 'owned cards per player')")
    old.execute("INSERT INTO owned VALUES ('alice', 'ftcg-test-1', 4), ('bob', 'ftcg-test-2', 1)")
    if version >= 2:
        old.execute(LEGACY_GAME)
        old.execute("INSERT INTO schema_version (version, what) VALUES (2, 'mini-games')")
        old.execute(
            "INSERT INTO game (kind, created, updated, seed, commitment, setup) VALUES ('zangetsu', 't', 't', ?, 'c', '{}')",
            (bytes(32),),
        )
    old.close()


def _tables(database: db.Database) -> set[str]:
    with database.engine.connect() as con:
        return set(sa.inspect(con).get_table_names())


def test_the_revision_list_is_alembics_history():
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(Path(db.__file__).with_name("migrations")))
    assert [r.revision for r in reversed(list(script.walk_revisions()))] == list(db.REVISIONS)
    assert script.get_current_head() == db.HEAD == "0002"


def test_an_empty_database_gets_every_revision(backend):
    database = db.open_database()
    assert db.version(database) is None
    assert db.migrate(database) == ["0001", "0002"]
    assert db.version(database) == "0002"
    assert _tables(database) == {"alembic_version", "owned", "game"}
    assert db.migrate(database) == []  # opening again applies nothing
    assert db.version(db.connect()) == "0002"


@pytest.mark.parametrize("legacy", [1, 2])
def test_a_hand_made_sqlite_database_is_adopted_with_its_data(tmp_path, legacy):
    path = tmp_path / "old.sqlite"
    _legacy(path, legacy)
    database = db.connect(path)
    assert db.version(database) == "0002"
    assert _tables(database) == {"alembic_version", "owned", "game"}  # schema_version dropped
    assert owned.counts(database, "alice") == {"ftcg-test-1": 4}
    assert owned.counts(database, "bob") == {"ftcg-test-2": 1}
    assert [g.id for g in store.games(database)] == ([1] if legacy == 2 else [])
    rec, _ = store.create(database, ZANGETSU, seed=bytes(32))  # the adopted tables take new rows
    assert rec.id == (2 if legacy == 2 else 1)
    owned.change(database, "alice", [("add", "ftcg-test-1", 1)])
    assert owned.counts(db.connect(path), "alice") == {"ftcg-test-1": 5}


def test_a_database_at_the_first_revision_is_upgraded_with_its_data(backend):
    from alembic import command

    database = db.open_database()
    with database.transaction() as con:
        command.upgrade(db._alembic_config(con), "0001")
    assert db.version(database) == "0001"
    owned.change(database, "alice", [("add", "ftcg-test-7", 3)])
    assert _tables(database) == {"alembic_version", "owned"}
    upgraded = db.connect()
    assert db.version(upgraded) == "0002"
    assert owned.counts(upgraded, "alice") == {"ftcg-test-7": 3}
    rec, played = store.create(upgraded, ZANGETSU, {"alice": "ftcg-test-7"}, seed=bytes(32))
    assert (rec.id, played.status) == (1, "pending")


def test_a_database_from_a_newer_cardlab_is_refused(backend):
    database = db.connect()
    database.execute("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(db.DataDirError, match="at schema revision 0099, newer than this cardlab"):
        db.connect()
    assert owned.counts(database, "alice") == {}


def test_a_hand_made_database_newer_than_the_last_one_is_refused(tmp_path):
    path = tmp_path / "old.sqlite"
    _legacy(path, 2)
    with sqlite3.connect(path) as old:
        old.execute("INSERT INTO schema_version (version, what) VALUES (3, 'future')")
    with pytest.raises(db.DataDirError, match="at schema revision 3, newer than this cardlab"):
        db.connect(path)
    with sqlite3.connect(path) as old:  # nothing was changed
        assert old.execute("SELECT COUNT(*) FROM owned").fetchone()[0] == 2
        assert old.execute("SELECT name FROM sqlite_master WHERE name = 'alembic_version'").fetchone() is None


def test_a_failed_migration_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite"
    _legacy(path, 1)
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE game (x)")  # in the way of revision 0002
    with pytest.raises(db.DataDirError, match="game"):
        db.connect(path)
    with sqlite3.connect(path) as old:  # still the hand-made version 1, data intact
        assert old.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 1
        assert old.execute("SELECT COUNT(*) FROM owned").fetchone()[0] == 2
        assert old.execute("SELECT name FROM sqlite_master WHERE name = 'alembic_version'").fetchone() is None


def test_sqlite_locations(tmp_path, monkeypatch):
    assert db.locate(tmp_path).path == tmp_path / "collection.sqlite"  # a folder: its collection.sqlite
    assert db.locate(str(tmp_path / "c.db")).path == tmp_path / "c.db"
    assert db.locate(f"sqlite:///{tmp_path}/c.db").path == tmp_path / "c.db"
    assert db.locate(f"sqlite:///{tmp_path}").path == tmp_path / "collection.sqlite"
    monkeypatch.setenv("CARDLAB_DATA", f"sqlite:///{tmp_path}/x.sqlite")
    assert db.locate().path == tmp_path / "x.sqlite"
    monkeypatch.setenv("CARDLAB_DATA", str(tmp_path / "folder"))
    assert db.locate().path == tmp_path / "folder" / "collection.sqlite"


def test_postgresql_locations(monkeypatch):
    monkeypatch.setenv("CARDLAB_DATA", "postgresql://bob:pw@db.example:5433/cards")
    where = db.locate()
    assert (where.backend, where.path, where.shown) == ("postgresql", None, "postgresql+psycopg://bob:***@db.example:5433/cards")
    assert where.url.password == "pw"


def test_messages_never_show_a_password(runner, monkeypatch):
    """A password in the user part or in a ``?password=`` query parameter is masked wherever a URL is
    shown: the location, a URL cardlab cannot parse, a server that cannot be reached (the CLI's words)."""
    from cardlab.cli.whole import app
    from cardlab.core.errors import UsageError

    where = db.locate("postgresql://bob:S3cret%40x@db.example:5433/cards?password=QueryPW123&sslmode=require")
    assert where.shown == "postgresql+psycopg://bob:***@db.example:5433/cards?password=***&sslmode=require"
    assert where.url.query["password"] == "QueryPW123"  # still used to log in
    with pytest.raises(UsageError) as caught:
        db.locate("postgresql://bob:S3cret@h:port/db?sslmode=require&password=QueryPW123")
    assert str(caught.value).startswith("'postgresql://bob:***@h:port/db?sslmode=require&password=***' is not a database URL")
    assert db.hide_secrets("a postgresql://u:pw@h/d?passfile=/p&password=x b") == "a postgresql://u:***@h/d?passfile=***&password=*** b"
    monkeypatch.setenv("CARDLAB_DATA", "postgresql://cluser:S3cretPW%40x@127.0.0.1:1/cards?password=QueryPW123")
    result = runner.invoke(app, ["collection", "list", "--player", "alice"])
    assert result.exit_code == 2
    assert "127.0.0.1:1" in result.output and "cards" in result.output
    assert ("S3cretPW" in result.output, "QueryPW123" in result.output) == (False, False)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://u@h/db", "not 'mysql'"),
        ("postgresql+psycopg://u@h", "names no database"),
        ("sqlite://", "names no file"),
        ("postgresql://u@h:port/db", "is not a database URL"),
    ],
)
def test_urls_cardlab_cannot_use(url, message):
    from cardlab.core.errors import UsageError

    with pytest.raises(UsageError, match=message):
        db.locate(url)
