"""The search index on either backend, chosen by where it is: a file is SQLite
(:mod:`cardlab.catalog.index`), a ``postgresql+psycopg://`` URL is a PostgreSQL server
(:mod:`cardlab.catalog.pgindex`, which builds on the SQLite index). Commands and the web open the
index through here, so that neither backend module imports the other's dispatch (every import
points down: this module sits above both)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.catalog import index
from cardlab.core.paths import is_server

if TYPE_CHECKING:
    import sqlite3

    from cardlab.catalog.index import BuildReport
    from cardlab.core.errors import CardlabError


def ensure_index(roots: list[Path], db: Path | str, full: bool = False) -> BuildReport | None:
    """:func:`cardlab.catalog.index.ensure_index` for a file. On PostgreSQL nothing is rebuilt
    implicitly: a fresh index gives None, a missing or stale one raises
    :class:`cardlab.catalog.pgindex.IndexOutOfDateError` (``cardlab index`` builds it:
    :func:`cardlab.catalog.pgindex.build`)."""
    if is_server(db):
        from cardlab.catalog import pgindex

        pgindex.open_fresh(roots, str(db)).close()
        return None
    return index.ensure_index(roots, db, full)


def open_fresh(roots: list[Path], db: Path | str) -> tuple[Any, BuildReport | None, CardlabError | None]:
    """:func:`cardlab.catalog.index.open_fresh` for a file; on PostgreSQL ``(a PgIndex, None, None)``,
    which the search engine reads as it reads SQLite.

    Raises:
        CatalogError, IndexWriteError: (a file) the rebuild failed and there is no older index.
        IndexOutOfDateError: (a server) the index is missing or stale.
    """
    if is_server(db):
        from cardlab.catalog import pgindex

        return pgindex.open_fresh(roots, str(db)), None, None
    return index.open_fresh(roots, db)


def connect(db: Path | str) -> sqlite3.Connection:
    """Open the index read-only: :func:`cardlab.catalog.index.connect` for a file,
    :func:`cardlab.catalog.pgindex.connect` for a URL. Raises sqlite3.Error when a file cannot be opened."""
    if is_server(db):
        from cardlab.catalog import pgindex

        return pgindex.connect(str(db))  # type: ignore[return-value]
    return index.connect(db)
