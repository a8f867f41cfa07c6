"""Running search's statements on an index connection of either backend: a plain
:class:`sqlite3.Connection`, or cardlab's PostgreSQL index (:class:`cardlab.index.postgres.PgIndex`).
One engine call runs in one :func:`snapshot`; :func:`fetch` runs a statement with a time limit;
:func:`stem_languages` says which stemmed words the index holds. The SQL itself is written by
:mod:`cardlab.search.compile`."""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import nullcontext
from functools import lru_cache
from typing import Any

from cardlab.core.errors import CardlabError, ExitStatus, UsageError


class QueryTimeoutError(CardlabError):
    """A search ran longer than its time limit and was cut off (``seconds`` is the limit)."""

    exit_code = ExitStatus.USAGE

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the query took longer than {seconds:g} s and was cut off; make it narrower")
        self.seconds = seconds


_NO_SNAPSHOT = nullcontext()


def snapshot(con: Any) -> Any:
    """The context one engine call runs in: nothing on SQLite (an index file is never changed in
    place: a rebuild renames a new file in), on PostgreSQL one read-only transaction during which
    no rebuild can swap the index (:meth:`cardlab.index.postgres.PgIndex.snapshot`), so that the
    call's statements all read the same index."""
    return _NO_SNAPSHOT if isinstance(con, sqlite3.Connection) else con.snapshot()


def fetch(con: Any, sql: str, params: list, timeout: float | None, last: bool = False, generic: bool = False) -> list:
    """Every row of ``sql`` on ``con``, cut off after ``timeout`` seconds (SQLite: a progress
    handler; PostgreSQL: ``statement_timeout``, :meth:`cardlab.index.postgres.PgIndex.fetch`).
    ``last``: the snapshot runs no other statement after this one (PostgreSQL ends its
    transaction in the same round trip). ``generic``: on PostgreSQL, one plan serves every value
    (:meth:`cardlab.index.postgres.PgIndex.fetch`).

    Raises:
        QueryTimeoutError: the time limit was reached; UsageError: the index could not run it.
    """
    if isinstance(con, sqlite3.Connection):
        with _Deadline(con, timeout) as deadline:
            try:
                return con.execute(sql, params).fetchall()
            except sqlite3.OperationalError as err:
                if deadline.hit:
                    raise QueryTimeoutError(timeout or 0) from None
                raise UsageError(f"the query is too complex for the index ({err}); make it shorter") from None
    try:
        return con.fetch(sql, params, timeout, last=last, generic=generic)
    except TimeoutError:
        raise QueryTimeoutError(timeout or 0) from None
    except ValueError as err:
        raise UsageError(f"the index cannot run this query ({err})") from None


def fetch_many(con: Any, statements: list[tuple[str, list, bool]], timeout: float | None, last: bool = False) -> list[list]:
    """Every row of each of ``statements`` (``(sql, params, generic)``) on a PostgreSQL index,
    sent together in one round trip (:meth:`cardlab.index.postgres.PgIndex.fetch_many`);
    ``timeout``, ``last`` and the errors as :func:`fetch`."""
    try:
        return con.fetch_many(statements, timeout, last=last)
    except TimeoutError:
        raise QueryTimeoutError(timeout or 0) from None
    except ValueError as err:
        raise UsageError(f"the index cannot run this query ({err})") from None


class _Deadline:
    """Within ``with _Deadline(con, seconds)``, SQLite statements on ``con`` are interrupted once
    ``seconds`` have passed (a progress handler); None means no limit."""

    def __init__(self, con: sqlite3.Connection, seconds: float | None) -> None:
        self.con, self.seconds, self.hit = con, seconds, False

    def __enter__(self) -> _Deadline:
        if self.seconds is not None:
            end = time.monotonic() + self.seconds

            def check() -> int:
                """SQLite's progress handler: non-zero (interrupt) once the deadline has passed."""
                if time.monotonic() > end:
                    self.hit = True
                    return 1
                return 0

            self.con.set_progress_handler(check, 2000)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.seconds is not None:
            self.con.set_progress_handler(None, 0)


def stem_languages(con: Any) -> tuple[str, ...] | None:
    """The languages whose stemmed words the index holds (recorded at build time; on PostgreSQL
    as last seen by the connection: :meth:`cardlab.index.postgres.PgIndex.stem_languages`), or
    None when the index does not say (every language with a stemmer)."""
    if not isinstance(con, sqlite3.Connection):
        value = con.stem_languages()
        return _languages(value) if value else None
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'stem_languages'").fetchone()
    except sqlite3.Error:
        return None
    return tuple(json.loads(row[0])) if row else None


@lru_cache(maxsize=16)
def _languages(value: str) -> tuple[str, ...]:
    """The ``stem_languages`` JSON list of an index's meta as a tuple (read once per value)."""
    return tuple(json.loads(value))


def stems_changed(con: Any, stems: tuple[str, ...] | None) -> bool:
    """True when the index was rebuilt with other stem languages than ``stems`` since a query was
    compiled with them: on PostgreSQL (checked in the round trip of the statement just run), never
    on SQLite (a connection keeps reading the file it opened)."""
    return not isinstance(con, sqlite3.Connection) and stem_languages(con) != stems


def index_unchanged(con: Any) -> bool:
    """True when ``con`` reads, without a doubt and without a round trip, the index whose
    fingerprint :func:`index_fingerprint` last gave: always on SQLite (a connection keeps reading
    the file it opened), on PostgreSQL while no swap has been seen since a snapshot read it
    (:meth:`cardlab.index.postgres.PgIndex.unchanged`)."""
    return isinstance(con, sqlite3.Connection) or con.unchanged()


def index_fingerprint(con: Any) -> str:
    """The fingerprint of the catalog the index was built from (its ``meta`` table; on PostgreSQL
    as last seen by the connection, read again by each snapshot's first round trip:
    :meth:`cardlab.index.postgres.PgIndex.fingerprint`), or ``""`` when the index does not say.
    What the totals are cached by and the page cursors signed with (:mod:`cardlab.search.paging`)."""
    if not isinstance(con, sqlite3.Connection):
        return con.fingerprint() or ""
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
    except sqlite3.Error:
        return ""
    return row[0] if row else ""
