"""``cardlab db copy``: move the user data (collections and saved mini-games) between backends,
SQLite file to PostgreSQL server and back. The search index is never copied: it is rebuilt from the
catalog wherever it lives.

The source is read in one snapshot; the target is written in one transaction (both tables locked
on PostgreSQL), so a failed or interrupted copy leaves the target as it was. A target that already
holds data is refused unless ``overwrite`` (its data is then replaced, in the same transaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from cardlab.collection import tables
from cardlab.collection.db import HEAD, Database, DataDirError, Location, connect, locate, open_database, version
from cardlab.core.errors import InputError, UsageError
from cardlab.core.progress import step
from cardlab.core.words import count


class TargetNotEmptyError(UsageError):
    """The target database already holds collections or games and ``--overwrite`` was not given: exit 2."""


@dataclass
class CopyReport:
    """What a copy did: ``source`` and ``target`` (shown without passwords), the ``rows`` of owned
    cards, the ``players`` and the ``games`` copied, and the owned rows and games ``replaced`` in
    the target (with ``overwrite``)."""

    source: str
    target: str
    rows: int
    players: int
    games: int
    replaced: tuple[int, int] = (0, 0)


_OURS = {"owned", "game", "alembic_version", "schema_version", "sqlite_sequence"}
"""The tables of a collections database (and SQLite's own)."""


def _tables(database: Database) -> set[str]:
    """The tables a database holds (its current schema on PostgreSQL)."""
    with database.errors(), database.engine.connect() as con:
        return set(sa.inspect(con).get_table_names())


def _open_source(where: str | Path) -> Database:
    """Open the source read-only when it is up to date; a collections database of an older cardlab is
    brought up to date first. Anything else is refused before a byte is written to it.

    Raises:
        InputError: no such SQLite file, or a database that is not a cardlab collections database (exit 2).
    """
    loc = locate(where)
    if loc.path is not None and not loc.path.is_file():
        raise InputError(f"no collection database at {loc.path}; give the SQLite file (or its folder) or a postgresql+psycopg:// URL")
    database = open_database(loc, readonly=loc.path is not None)
    try:
        current = version(database)
    except DataDirError as err:
        raise InputError(f"{loc.shown} is not a cardlab collection database ({err})") from None
    if current is None:
        others = sorted(_tables(database) - _OURS)
        what = f"it holds other tables ({', '.join(others[:5])})" if others else "it holds no collections"
        database.close()
        raise InputError(f"{loc.shown} is not a cardlab collection database: {what}; nothing was read or written")
    if current == HEAD:
        return database  # read as it is: a source on a read-only disk is fine
    database.close()
    return connect(loc)


def _check_target(where: str | Path | Location) -> None:
    """Refuse a target that holds tables of something else (a search index, another program's
    database): the copy would add cardlab's tables to it.

    Raises:
        InputError: with the tables found (exit 2).
    """
    loc = locate(where)
    if loc.path is not None and (not loc.path.is_file() or loc.path.stat().st_size == 0):
        return  # a new file
    database = open_database(loc, readonly=loc.path is not None)
    try:
        others = sorted(_tables(database) - _OURS)
    except DataDirError as err:
        raise InputError(f"{loc.shown} is not a cardlab collection database ({err}); nothing was copied") from None
    finally:
        database.close()
    if others:
        raise InputError(
            f"{loc.shown} holds tables that are not cardlab's ({', '.join(others[:5])}); nothing was copied. Give a new file or a collections database"
        )


def _counts(con: sa.Connection) -> tuple[int, int]:
    return (
        con.execute(sa.select(sa.func.count()).select_from(tables.owned)).scalar() or 0,
        con.execute(sa.select(sa.func.count()).select_from(tables.game)).scalar() or 0,
    )


COPY_BATCH = 1000
"""Rows inserted together by :func:`copy_database` (its progress is told between batches)."""


def copy_database(source: str | Path, target: str | Path, *, overwrite: bool = False) -> CopyReport:
    """Copy every collection and saved game from ``source`` to ``target``.

    Args:
        source, target: a database URL (``sqlite:///FILE``, ``postgresql+psycopg://USER@HOST/DB``),
            a SQLite file or a data folder (its ``collection.sqlite``); see
            :func:`cardlab.collection.db.locate`. The target is created (SQLite) and its schema
            brought up to date; so is a source at an older schema.
        overwrite: replace what the target holds; without it a target with data is refused.

    Returns:
        A :class:`CopyReport`.

    Raises:
        UsageError: the same database twice, a URL cardlab cannot use (exit 2);
        InputError: no SQLite source file, or one that is not a collection database (exit 2); TargetNotEmptyError: the target holds data
        (exit 2); DatabaseUnavailableError: a server unreachable, a login refused, no such
        database (exit 2); DataDirError: a database that cannot be used (exit 1).
    """
    src_loc, dst_loc = locate(source), locate(target)
    same = (
        src_loc.path.resolve() == dst_loc.path.resolve()
        if src_loc.path is not None and dst_loc.path is not None
        else src_loc.url.render_as_string(hide_password=False) == dst_loc.url.render_as_string(hide_password=False)
    )
    if same:
        raise UsageError(f"--from and --to are the same database ({src_loc.shown})")
    _check_target(dst_loc)
    src = _open_source(source)
    with src.errors(), src.engine.connect() as con:  # one snapshot of both tables
        if src.backend == "postgresql":
            con.execution_options(isolation_level="REPEATABLE READ")
        owned_rows = [dict(r._mapping) for r in con.execute(sa.select(tables.owned).order_by(*tables.owned.primary_key.columns))]
        game_rows = [dict(r._mapping) for r in con.execute(sa.select(tables.game).order_by(tables.game.c.id))]
    dst = connect(dst_loc)
    with dst.transaction() as con:
        if dst.backend == "postgresql":
            con.execute(sa.text("LOCK TABLE owned, game IN EXCLUSIVE MODE"))
        held = _counts(con)
        if any(held) and not overwrite:
            raise TargetNotEmptyError(
                f"{dst.where.shown} already holds {count(held[0], 'owned card row')} and {count(held[1], 'game')}; nothing was copied. "
                "Give --overwrite to replace them (keep a backup first: cardlab collection export --all-players -o backup.csv)"
            )
        con.execute(sa.delete(tables.game))
        con.execute(sa.delete(tables.owned))
        total = len(owned_rows) + len(game_rows)
        for table, rows, before in ((tables.owned, owned_rows, 0), (tables.game, game_rows, len(owned_rows))):
            for start in range(0, len(rows), COPY_BATCH):
                step("copying rows", before + start, total)
                con.execute(sa.insert(table), rows[start : start + COPY_BATCH])
        if dst.backend == "postgresql":  # new games continue after the copied ids
            con.execute(sa.text("SELECT setval(pg_get_serial_sequence('game', 'id'), COALESCE((SELECT MAX(id) FROM game), 0) + 1, false)"))
        copied = _counts(con)
        if copied != (len(owned_rows), len(game_rows)):  # never commit a partial copy
            raise DataDirError(
                f"{dst.where.shown} holds {copied[0]} rows and {copied[1]} games after the copy, not the source's; nothing was copied"
            )
    src.close()
    dst.close()
    return CopyReport(
        source=src.where.shown,
        target=dst.where.shown,
        rows=len(owned_rows),
        players=len({r["player"] for r in owned_rows}),
        games=len(game_rows),
        replaced=held,
    )
