"""The collections database: the user's own data, never rebuilt or deleted by cardlab.

Where: ``<user data dir>/cardlab/collection.sqlite`` (platformdirs; ``CARDLAB_DATA`` overrides the
folder), see :func:`cardlab.core.paths.collection_db`. The search index lives in the cache folder and
no index code opens this file.

Safety: SQLite in WAL mode with ``synchronous=FULL``; every change runs in one transaction
(:func:`transaction`, ``BEGIN IMMEDIATE``), so a killed process (even ``kill -9``) leaves either the
old state or the new one.

Schema version: table ``schema_version(version, applied_at)``, one row per migration applied. The
migrations are :data:`MIGRATIONS`, an ordered list of SQL steps; opening the database applies the
missing ones in order, each in its own transaction with its version row. A database written by a
newer cardlab (a version above the last step) is refused rather than damaged. To change the schema,
append a step; never edit a released one.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cardlab.core.errors import CardlabError

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "owned cards per player",
        """
        CREATE TABLE owned (
            player  TEXT NOT NULL,
            card_id TEXT NOT NULL,
            count   INTEGER NOT NULL CHECK (count > 0),
            PRIMARY KEY (player, card_id)
        ) WITHOUT ROWID;
    """,
    ),
    (
        2,
        "mini-games (seed 002): setup, seed, moves, result",
        """
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
        );
    """,
    ),
]
"""Ordered schema steps ``(version, what, SQL)``; the database's version is the last one applied."""

SCHEMA_VERSION = MIGRATIONS[-1][0]


class DataDirError(CardlabError):
    """The data folder or database cannot be used (read-only folder, not a database...): exit 1."""


def _check_writable(path: Path) -> None:
    folder = path.parent
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise DataDirError(f"cannot use {path}: {probe} is a file, not a folder (set CARDLAB_DATA to a folder)")
    if not os.access(probe, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise DataDirError(
            f"cannot write the collection database {path}: {probe if not path.exists() else path} is "
            "read-only; make it writable or set CARDLAB_DATA to a writable folder"
        )


def connect(path: Path | None = None) -> sqlite3.Connection:
    """Open (creating it and its folder if needed) the collections database and bring its schema up
    to date (:data:`MIGRATIONS`).

    Args:
        path: the database file; default :func:`cardlab.core.paths.collection_db`.

    Returns:
        A connection in autocommit mode; use :func:`transaction` for changes.

    Raises:
        DataDirError: the folder is read-only or not a folder, the file is not a database, or it was
            written by a newer cardlab.
    """
    from cardlab.core.paths import collection_db

    path = Path(path) if path else collection_db()
    _check_writable(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(path, isolation_level=None, timeout=10)
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA synchronous = FULL")
        con.execute("PRAGMA foreign_keys = ON")
        migrate(con)
    except sqlite3.DatabaseError as err:
        raise DataDirError(f"cannot use the collection database {path}: {err}") from None
    except OSError as err:
        raise DataDirError(f"cannot create {path.parent}: {err.strerror or err}") from None
    return con


def version(con: sqlite3.Connection) -> int:
    """Return the schema version of an open database (0 for a new, empty one)."""
    has = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
    if not has:
        return 0
    return con.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]


def migrate(con: sqlite3.Connection) -> list[int]:
    """Apply the missing :data:`MIGRATIONS` in order, each in one transaction; return the versions
    applied. Raises DataDirError for a database newer than this cardlab."""
    current = version(con)
    if current > SCHEMA_VERSION:
        raise DataDirError(
            f"the collection database is at schema version {current}, newer than this cardlab ({SCHEMA_VERSION}); upgrade cardlab"
        )
    done = []
    for number, what, sql in MIGRATIONS:
        if number <= current:
            continue
        with transaction(con):
            con.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, what TEXT, "
                "applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
            )
            for statement in sql.split(";"):
                if statement.strip():
                    con.execute(statement)
            con.execute("INSERT INTO schema_version (version, what) VALUES (?, ?)", (number, what))
        done.append(number)
    return done


@contextmanager
def transaction(con: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block in one write transaction (``BEGIN IMMEDIATE``): committed at the end, rolled
    back on any exception (nothing half-written)."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
