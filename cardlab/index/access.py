"""The search index on either backend, chosen by where it is: a file is SQLite
(:mod:`cardlab.index.sqlite`), a ``postgresql+psycopg://`` URL is a PostgreSQL server
(:mod:`cardlab.index.postgres`, which builds on the SQLite index). Commands and the web open the
index through here, so that neither backend module imports the other's dispatch (every import
points down: this module sits above both). :func:`validate_and_record` is ``cardlab validate``
without its printing: a validation, and what it tells the index."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.catalog.freshness import record_clean_run
from cardlab.core.paths import is_server
from cardlab.index import sqlite

if TYPE_CHECKING:
    import sqlite3

    from cardlab.catalog.validate import Validation  # lazy: jsonschema-rs and PyYAML; `search` never loads them
    from cardlab.core.errors import CardlabError
    from cardlab.index.sqlite import BuildReport


def ensure_index(roots: list[Path], db: Path | str, full: bool = False) -> BuildReport | None:
    """:func:`cardlab.index.sqlite.ensure_index` for a file. On PostgreSQL nothing is rebuilt
    implicitly: a fresh index gives None, a missing or stale one raises
    :class:`cardlab.index.postgres.IndexOutOfDateError` (``cardlab index`` builds it:
    :func:`cardlab.index.postgres.build`)."""
    if is_server(db):
        from cardlab.index import postgres  # lazy: psycopg (1.2 s); `search` on a file never loads it

        postgres.open_fresh(roots, str(db)).close()
        return None
    return sqlite.ensure_index(roots, db, full)


def open_fresh(roots: list[Path], db: Path | str, threads: bool = False) -> tuple[Any, BuildReport | None, CardlabError | None]:
    """:func:`cardlab.index.sqlite.open_fresh` for a file (``threads``: a connection any thread may
    use); on PostgreSQL ``(a PgIndex, None, None)``, which the search engine reads as it reads SQLite.

    Raises:
        CatalogError, IndexWriteError: (a file) the rebuild failed and there is no older index.
        IndexOutOfDateError: (a server) the index is missing or stale.
    """
    if is_server(db):
        from cardlab.index import postgres  # lazy: psycopg (1.2 s); `search` on a file never loads it

        return postgres.open_fresh(roots, str(db)), None, None
    return sqlite.open_fresh(roots, db, threads)


def connect(db: Path | str) -> sqlite3.Connection:
    """Open the index read-only: :func:`cardlab.index.sqlite.connect` for a file,
    :func:`cardlab.index.postgres.connect` for a URL. Raises sqlite3.Error when a file cannot be opened."""
    if is_server(db):
        from cardlab.index import postgres  # lazy: psycopg (1.2 s); `search` on a file never loads it

        return postgres.connect(str(db))  # type: ignore[return-value]
    return sqlite.connect(db)


def index_fingerprint(con: Any) -> str:
    """Return the catalog fingerprint the open index ``con`` was built from (its ``meta`` table, on
    either backend: :func:`cardlab.index.sqlite.fingerprint`), or ``""`` when it records none. Two
    indexes with one fingerprint answer every search alike; the web's ETags start from it
    (:mod:`cardlab.web.caching`)."""
    row = con.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
    return str(row[0]) if row else ""


def validate_and_record(paths: list[Path], roots: list[Path], db: str | Path) -> Validation:
    """``cardlab validate`` without its printing (the CLI command and the quick path of
    :mod:`cardlab.cli.entry` both call it): :func:`cardlab.catalog.validate.validate_paths` under the index's salt
    (:data:`cardlab.index.sqlite.FINGERPRINT_SALT`), then what the run tells the next ones: a
    changed file makes the next search check every file against the index at ``db``
    (:func:`cardlab.index.sqlite.mark_stale`), and a clean whole-catalog run is recorded so that
    the next one, nothing changed, answers from one ``stat`` per file
    (:func:`cardlab.catalog.freshness.record_clean_run`).

    Args:
        paths: as :func:`cardlab.catalog.validate.validate_paths` (empty: the whole catalog); roots: the catalog roots;
            db: the index file or PostgreSQL URL the catalog's searches use.

    Returns:
        The :class:`cardlab.catalog.validate.Validation`.

    Raises:
        InputError, UsageError: as :func:`cardlab.catalog.validate.validate_paths`.
    """
    from cardlab.catalog.validate import validate_paths  # lazy: jsonschema-rs and PyYAML; `search` never loads them

    result = validate_paths(paths, roots, sqlite.FINGERPRINT_SALT)
    if result.reparsed or (result.index_fingerprint and sqlite.stored_fingerprint(db) not in (None, result.index_fingerprint)):
        sqlite.mark_stale(db)
    if result.run_key and not result.problems:
        record_clean_run(roots, result.run_key, result.files, db)
    return result
