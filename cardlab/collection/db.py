"""The collections database: the user's own data, never rebuilt or deleted by cardlab.

Where (:func:`cardlab.core.paths.collection_location`): by default the SQLite file
``<user data dir>/cardlab/collection.sqlite`` (platformdirs; ``CARDLAB_DATA`` set to a folder
overrides the folder); on a shared server, PostgreSQL when ``CARDLAB_DATA`` is a URL
(``postgresql+psycopg://user@host/db``; ``sqlite:///path/file.sqlite`` names a SQLite file). The
search index lives elsewhere and no index code opens this database.

Access goes through SQLAlchemy Core (:class:`Database`), the same statements on both backends.

Safety: every change runs in one transaction (:meth:`Database.transaction`): ``BEGIN IMMEDIATE``
on SQLite (WAL mode, ``synchronous=FULL``), so a killed process (even ``kill -9``) leaves either the
old state or the new one; on PostgreSQL rows read before a change are locked (``SELECT ... FOR
UPDATE``) and additions are single upserts, so concurrent writers never lose an update.

Schema: Alembic migrations shipped in ``cardlab/collection/migrations`` (:data:`REVISIONS`), run
programmatically when a database is opened, all missing steps in one transaction (serialized by an
advisory lock on PostgreSQL). A SQLite database made by the hand-made migrations of earlier cardlab
versions (table ``schema_version``, versions 1 and 2) is adopted: stamped at the matching revision,
then upgraded, its data kept. A database written by a newer cardlab (an unknown revision) is
refused rather than damaged. To change the schema, add a revision (and append it to
:data:`REVISIONS`); never edit a released one.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, Row

from cardlab.core.database import DatabaseUnavailableError, DataDirError, Location, hide_secrets, locate, server_error, shown_url

__all__ = ["DataDirError", "DatabaseUnavailableError", "Location", "hide_secrets", "locate", "server_error", "shown_url"]

REVISIONS: tuple[str, ...] = ("0001", "0002", "0003")
"""The Alembic revisions shipped, oldest first; a database is at one of them (the last: up to date)."""

HEAD = REVISIONS[-1]

LEGACY_VERSIONS = {1: "0001", 2: "0002"}
"""``schema_version`` of the hand-made migrations (cardlab before Alembic) -> the same schema's revision."""

_MIGRATION_LOCK = 0x63617264  # pg_advisory_xact_lock key ("card"): one migration at a time per database


_WRITE_LOCKS: dict[str, threading.RLock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def _write_lock(path: Path) -> threading.RLock:
    """The lock this process's writers of the SQLite file ``path`` take turns at (one per file)."""
    key = os.path.abspath(path)
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(key, threading.RLock())


def _sqlite_engine(path: Path, readonly: bool, keep_open: bool = False) -> Engine:

    from sqlalchemy import event  # lazy: SQLAlchemy's dialects and pools, only for the engine that needs them
    from sqlalchemy.pool import NullPool, QueuePool  # lazy: SQLAlchemy's dialects and pools, only for the engine that needs them

    def make() -> sqlite3.Connection:
        if readonly:
            return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
        con = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA synchronous = FULL")
        con.execute("PRAGMA foreign_keys = ON")
        return con

    # NullPool: a command opens a connection per transaction; a long-lived process (the web) keeps a
    # few open: closing the last connection of a WAL database checkpoints it (11 ms a save measured).
    pool: dict[str, Any] = {"poolclass": QueuePool, "pool_size": 4, "max_overflow": 8} if keep_open else {"poolclass": NullPool}
    engine = sa.create_engine("sqlite://", creator=make, **pool)

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:  # sqlite3 itself never begins: isolation_level=None
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("cardlab_write") else "BEGIN")

    return engine


def _pg_engine(url: sa.URL) -> Engine:
    from sqlalchemy.pool import NullPool  # lazy: SQLAlchemy's dialects and pools, only for the engine that needs them

    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise DatabaseUnavailableError(
            "PostgreSQL needs the psycopg 3 driver: pip install 'cardlab[postgres]' (or 'psycopg[binary]')"
        ) from None
    # NullPool: a command opens a connection per transaction and keeps none open between them.
    return sa.create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 10})


class Database:
    """An open collections database, SQLite or PostgreSQL, through SQLAlchemy Core.

    Statements run with :meth:`execute` (rows) and :meth:`scalar`; inside a :meth:`transaction`
    block they join that transaction (the transaction of the calling thread: threads may share one
    Database, each with its own transactions), outside it each runs alone.
    """

    def __init__(self, engine: Engine, where: Location, readonly: bool = False) -> None:
        self.engine = engine
        self.where = where
        self.readonly = readonly
        self._local = threading.local()

    @property
    def _tx(self) -> Connection | None:
        """The calling thread's open transaction, or None."""
        return getattr(self._local, "tx", None)

    @_tx.setter
    def _tx(self, con: Connection | None) -> None:
        self._local.tx = con

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.where.backend

    def __repr__(self) -> str:
        return f"Database({self.where.shown!r})"

    @contextmanager
    def errors(self) -> Iterator[None]:
        """Turn a driver error inside the block into cardlab's: on PostgreSQL
        :func:`server_error` (unreachable, login refused, no database, no rights: exit 2), on SQLite
        :class:`DataDirError` (not a database, locked, read-only: exit 1)."""
        try:
            yield
        except sa.exc.DBAPIError as err:
            if self.backend == "postgresql":
                raise server_error(err, self.where) from None
            raise DataDirError(f"cannot use the collection database {self.where.shown}: {hide_secrets(str(err.orig))}") from None

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """Run the block in one write transaction: committed at the end, rolled back on any
        exception (nothing half-written). A block inside another joins the outer transaction.

        Yields:
            The SQLAlchemy connection (statements through :meth:`execute` use it too).

        Raises:
            DataDirError, DatabaseUnavailableError: the database cannot be reached or written.
        """
        if self._tx is not None:
            yield self._tx
            return
        # SQLite: the writers of this process take turns at a lock before BEGIN IMMEDIATE, so they
        # wait in line instead of in SQLite's busy handler (which sleeps up to 100 ms between tries:
        # 10 writers had a p99 of seconds); other processes still meet the busy timeout.
        turn = _write_lock(self.where.path) if self.where.path is not None else contextlib.nullcontext()
        with turn, self.errors(), self.engine.connect() as con:
            con.execution_options(cardlab_write=True)
            with con.begin():
                self._tx = con
                try:
                    yield con
                finally:
                    self._tx = None

    def execute(self, statement: sa.Executable | str, params: dict[str, Any] | Sequence[dict[str, Any]] | None = None) -> list[Row]:
        """Run one statement (SQLAlchemy Core, or SQL text with ``:name`` parameters) and return
        its rows (an empty list for a statement that returns none).

        Raises:
            DataDirError, DatabaseUnavailableError: as :meth:`transaction`.
        """
        stmt = sa.text(statement) if isinstance(statement, str) else statement
        if self._tx is not None:
            result = self._tx.execute(stmt, params)
            return list(result.all()) if result.returns_rows else []
        with self.errors(), self.engine.connect() as con:
            result = con.execute(stmt, params)
            rows = list(result.all()) if result.returns_rows else []
            con.commit()
        return rows

    def scalar(self, statement: sa.Executable | str, params: dict[str, Any] | None = None) -> Any:
        """Return the first column of the first row of a statement (None without a row)."""
        rows = self.execute(statement, params)
        return rows[0][0] if rows else None

    def insert(self, table: sa.Table) -> Any:
        """Return this backend's INSERT construct for ``table`` (it has ``on_conflict_do_update``)."""
        if self.backend == "postgresql":
            from sqlalchemy.dialects import postgresql  # lazy: SQLAlchemy's dialects and pools, only for the engine that needs them

            return postgresql.insert(table)
        from sqlalchemy.dialects import sqlite  # lazy: SQLAlchemy's dialects and pools, only for the engine that needs them

        return sqlite.insert(table)

    def close(self) -> None:
        """Release the engine (no connection stays open)."""
        self.engine.dispose()


def open_database(where: str | Path | Location | None = None, *, readonly: bool = False, keep_open: bool = False) -> Database:
    """Return a :class:`Database` for ``where`` (see :func:`locate`) without touching its schema
    (a SQLite file's folder is created unless ``readonly``).

    Raises:
        UsageError, DatabaseUnavailableError: as :func:`locate`, or no PostgreSQL driver;
        DataDirError: a SQLite folder that cannot be created.
    """
    loc = locate(where)
    if loc.path is not None:
        if not readonly:
            try:
                loc.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise DataDirError(f"cannot create {loc.path.parent}: {err.strerror or err}") from None
        return Database(_sqlite_engine(loc.path, readonly, keep_open), loc, readonly)
    return Database(_pg_engine(loc.url), loc, readonly)


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


def connect(where: str | Path | Location | None = None, *, keep_open: bool = False) -> Database:
    """Open (creating it, and its folder for SQLite, if needed) the collections database and bring
    its schema up to date (:func:`migrate`).

    Args:
        where: see :func:`locate`; default :func:`cardlab.core.paths.collection_location`.
        keep_open: a SQLite database keeps a few connections open between transactions (a
            long-lived process such as the web; :meth:`Database.close` closes them): no checkpoint
            of the WAL at each transaction's end. Default: none kept (a command).

    Returns:
        The open :class:`Database`; use :meth:`Database.transaction` for changes.

    Raises:
        DataDirError: the folder is read-only or not a folder, the file is not a database, or it was
            written by a newer cardlab (exit 1).
        DatabaseUnavailableError: the server is unreachable, refuses the login, has no such
            database, or the driver is missing (exit 2). UsageError: a URL cardlab cannot use.
    """
    loc = locate(where)
    if loc.path is not None:
        _check_writable(loc.path)
    database = open_database(loc, keep_open=keep_open)
    with database.errors(), database.engine.connect() as con:  # the usual case, without Alembic: up to date
        current = con.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() if _has_table(con, "alembic_version") else None
    if current != HEAD:
        migrate(database)
    return database


def _has_table(con: Connection, name: str) -> bool:
    if con.dialect.name == "sqlite":
        sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :n"
    else:
        sql = "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = :n"
    return con.execute(sa.text(sql), {"n": name}).first() is not None


def _revision(con: Connection) -> str | None:
    """The database's revision: Alembic's, else the hand-made ``schema_version``'s equivalent
    (``legacy:N`` for one unknown here), else None (an empty database)."""
    if _has_table(con, "alembic_version"):
        return con.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    if _has_table(con, "schema_version"):
        number = con.execute(sa.text("SELECT COALESCE(MAX(version), 0) FROM schema_version")).scalar() or 0
        return LEGACY_VERSIONS.get(number, f"legacy:{number}") if number else None
    return None


def version(database: Database) -> str | None:
    """Return the schema revision of a database (None for a new, empty one)."""
    with database.errors(), database.engine.connect() as con:
        return _revision(con)


def _alembic_config(con: Connection) -> Any:
    from alembic.config import Config  # lazy: Alembic (1.4 s cold), only to migrate

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    cfg.attributes["connection"] = con
    return cfg


def migrate(database: Database) -> list[str]:
    """Apply the missing migrations, all in one transaction, and return the revisions applied
    (empty when the schema was up to date). A database of the hand-made migrations is adopted
    first (stamped at its revision, ``schema_version`` dropped).

    Raises:
        DataDirError: a database newer than this cardlab, or one that cannot be written.
    """
    with database.transaction() as con:
        if con.dialect.name == "postgresql":
            con.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        current = _revision(con)
        if current is not None and current not in REVISIONS:
            raise DataDirError(
                f"the collection database {database.where.shown} is at schema revision {current.removeprefix('legacy:')}, "
                "newer than this cardlab; upgrade cardlab"
            )
        if current == HEAD and _has_table(con, "alembic_version"):
            return []
        from alembic import command  # lazy: Alembic (1.4 s cold), only to migrate

        cfg = _alembic_config(con)
        if current is not None and not _has_table(con, "alembic_version"):
            command.stamp(cfg, current)
            con.execute(sa.text("DROP TABLE schema_version"))
        start = REVISIONS.index(current) + 1 if current else 0
        if start < len(REVISIONS):
            command.upgrade(cfg, "head")
    return list(REVISIONS[start:])
