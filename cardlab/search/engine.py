"""The search engine: :func:`search` (the hits), :func:`search_page` (a page and the total, in one
pass), :func:`count`; each one call in one snapshot of the index (:func:`cardlab.search.connection.snapshot`)
and one :class:`~cardlab.search.request.SearchRequest` passed through its steps. Plain ``sqlite3``
(no sqlmodel at search time) or cardlab's PostgreSQL index.

Opening the index goes through :func:`open_index`, which rebuilds it first when the catalog
changed (:func:`cardlab.index.access.open_fresh`).
"""

from __future__ import annotations

import sqlite3
from contextlib import nullcontext
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardlab.core.bulk import bulk_objects
from cardlab.core.errors import UsageError
from cardlab.index.access import open_fresh
from cardlab.search.compile import SORTS, count_statement, dialect_of, search_statement
from cardlab.search.connection import fetch, snapshot, stem_languages, stems_changed
from cardlab.search.hits import Hit, assemble
from cardlab.search.query.parse import parse
from cardlab.search.request import UNIQUE, SearchRequest
from cardlab.search.vocabulary import check_vocabulary


def open_index(roots: list[Path], db: Path | str) -> sqlite3.Connection:
    """Return a read-only connection to a fresh index, (re)building it if the catalog changed.

    The policy (older index used when the catalog has problems or the index cannot be written) is
    :func:`cardlab.index.access.open_fresh`'s.

    Raises:
        CatalogError, IndexWriteError: the index cannot be rebuilt and there is no older one.
    """
    return open_fresh(roots, db)[0]


def count(con: sqlite3.Connection, query: str, *, timeout: float | None = None) -> int:
    """Return how many cards match ``query`` (as :func:`search` would return with no limit).

    Raises:
        QueryError: the query cannot be parsed; QueryTimeoutError: it ran longer than ``timeout`` seconds.
    """
    sql, params = count_statement(parse(query), dialect_of(con))
    with snapshot(con):
        return fetch(con, sql, params, timeout)[0][0]


_parsed = lru_cache(maxsize=1024)(parse)
""":func:`cardlab.search.query.parse.parse`, its trees (frozen) kept for the last 1,024 queries: a query
asked again (the next page of a web search) is not parsed again."""


def search(
    con: sqlite3.Connection,
    query: str,
    *,
    langs: tuple[str, ...] | list[str] = (),
    sort: str = "number",
    reverse: bool = False,
    limit: int | None = None,
    offset: int = 0,
    timeout: float | None = None,
    unique: str = "prints",
) -> list[Hit]:
    """Return the cards matching ``query``, sorted.

    Args:
        con: an index connection (:func:`open_index`).
        query: a query in the language of :mod:`cardlab.search.query` (fields: :mod:`cardlab.search.fields`).
        langs: preferred languages for names, first first; the source language is the fallback.
        sort: a key of :data:`cardlab.search.compile.SORTS`; ``reverse`` reverses it.
        limit: the most hits to return, or None for all; ``offset``: hits to skip first (paging).
        timeout: seconds the query may run before it is cut off, or None for no limit.
        unique: ``prints`` (default) lists every printing that matches; ``cards`` lists each card
            once (printings grouped by :meth:`cardlab.catalog.model.Catalog.oracle_of`), as Scryfall
            does: its first printing when it matches, else the first matching printing in the sort
            order (Base Set 2's Charizard stands for base1-4 only when base1-4 does not match, e.g.
            under ``set:base4``).

    Raises:
        QueryError: the query cannot be parsed (with the offending column).
        QueryTimeoutError: the query ran longer than ``timeout``.
        UsageError: unknown sort key or ``unique`` value.
    """
    request = SearchRequest(query, tuple(langs), sort, reverse, limit, offset, timeout, unique)
    with snapshot(con):
        return _search(con, request)[1]


_SEARCH_DEFAULTS: dict[str, Any] = {
    "langs": (),
    "sort": "number",
    "reverse": False,
    "limit": None,
    "offset": 0,
    "timeout": None,
    "unique": "prints",
}
"""The keyword options of :func:`search` and their defaults (:func:`search_page` takes the same)."""


def search_page(con: sqlite3.Connection, query: str, **options: Any) -> tuple[int, list[Hit]]:
    """Return ``(how many cards match in all, the hits from offset to offset + limit)`` in one pass
    over the index (the total is a window count, not a second query), sorted. ``options`` and the
    errors are those of :func:`search` (``langs``, ``sort``, ``reverse``, ``limit``, ``offset``,
    ``timeout``, ``unique``)."""
    unknown = set(options) - set(_SEARCH_DEFAULTS)
    if unknown:
        raise TypeError(f"search_page() got unexpected options: {', '.join(sorted(unknown))}")
    request = SearchRequest(query, **{**_SEARCH_DEFAULTS, **options}, with_total=True)
    with snapshot(con):
        total, hits = _search(con, request)
        if total is None:  # the page is past the last card: nothing to count the window on
            total = count(con, query, timeout=request.timeout)
        return total, hits


def _search(con: Any, request: SearchRequest) -> tuple[int | None, list[Hit]]:
    """:func:`search` and :func:`search_page` within their snapshot: ``(total or None, hits)``
    (:func:`cardlab.search.hits.assemble`). The steps: the query parsed (cached), its closed
    vocabularies checked (:func:`cardlab.search.vocabulary.check_vocabulary`), compiled
    (:func:`cardlab.search.compile.search_statement`), run, its rows made hits.

    Raises:
        UsageError: unknown sort key or ``unique`` value; QueryError, QueryTimeoutError: as :func:`search`.
    """
    if request.sort not in SORTS:
        raise UsageError(f"unknown sort '{request.sort}'; choose one of: {', '.join(SORTS)}")
    if request.unique not in UNIQUE:
        raise UsageError(f"unknown --unique '{request.unique}'; choose one of: {', '.join(UNIQUE)}")
    tree = check_vocabulary(con, request.query, _parsed(request.query))
    stems = stem_languages(con)
    statement = search_statement(request, tree, stems, dialect_of(con))
    # on PostgreSQL, a page in no language but the source's is the snapshot's one statement: its
    # transaction ends in the same round trip (a first page with no row needs no count either)
    last = statement.page and not request.langs and (request.offset <= 0 or not request.with_total)
    # a whole result may build tens of thousands of rows and hits: the garbage collector waits (for
    # the whole process: a page cut in SQL, what the web server asks for in the default order, never pauses it)
    with nullcontext() if statement.page else bulk_objects():
        rows = fetch(con, statement.sql, statement.params, request.timeout, last, statement.generic)
        if stems_changed(con, stems):
            # the index was rebuilt with other languages since the query was compiled (checked in
            # the same round trip): compile and run it again
            return _search(con, request)
        return assemble(con, rows, request, statement)
