"""The search engine: :func:`search` (the hits), :func:`search_page` (a page and the total, in one
pass), :func:`count`; each one call in one snapshot of the index (:func:`cardlab.search.connection.snapshot`)
and one :class:`~cardlab.search.request.SearchRequest` passed through its steps. Plain ``sqlite3``
(no sqlmodel at search time) or cardlab's PostgreSQL index.

Opening the index goes through :func:`open_index`, which rebuilds it first when the catalog
changed (:func:`cardlab.index.access.open_fresh`).
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from contextlib import nullcontext
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardlab.core.bulk import bulk_objects
from cardlab.core.errors import UsageError
from cardlab.index.access import open_fresh
from cardlab.search.compile import (
    SORTS,
    WordStats,
    bounded_count_statement,
    count_statement,
    counted_page_statement,
    counted_sql,
    dialect_of,
    exact_name,
    gated,
    one_bare_word,
    page_statement,
    search_statement,
    when_found,
    word_count_statement,
    word_stats_statement,
)
from cardlab.search.connection import fetch, fetch_many, index_fingerprint, index_unchanged, snapshot, stem_languages, stems_changed
from cardlab.search.hits import Hit, assemble, hits_of
from cardlab.search.paging import MAX_PAGE, MAX_PAGE_SIZE, TOTAL_BOUND, CursorError, Page, decode_cursor, encode_cursor
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
    ``timeout``, ``unique``). Its cost grows with the matches (every one counted and sorted): a
    page whose cost does not is :func:`find_page`."""
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


_built_once = lru_cache(maxsize=1024)(page_statement)
_words_once = lru_cache(maxsize=1024)(word_count_statement)
_count_once = lru_cache(maxsize=1024)(bounded_count_statement)
_counted_page_once = lru_cache(maxsize=1024)(counted_page_statement)
"""The statements PostgreSQL plans once (one bare word, ``generic``: a first page, its word count,
its total), built once too for the last 1,024 words: their text is what the connection finds its
prepared statement by (0.32 -> 0.22 ms a page of a word with no match at 100,000 cards; SQLite's
statements are built each time, 0.03 ms of its 0.12)."""

_TOTALS: OrderedDict[tuple, tuple[int, bool]] = OrderedDict()
"""Totals of the last :data:`_TOTALS_KEPT` queries, by (index fingerprint, dialect, query):
``(total, exact)``. A query's next pages (and other sorts of it) count nothing again; a
rebuilt index has another fingerprint."""

_TOTALS_KEPT = 4096


def find_page(
    con: sqlite3.Connection,
    query: str,
    *,
    page_size: int = 50,
    cursor: str | None = None,
    page: int = 1,
    langs: tuple[str, ...] | list[str] = (),
    sort: str = "number",
    reverse: bool = False,
    timeout: float | None = None,
    unique: str = "prints",
) -> Page:
    """Return one page of the cards matching ``query``: what a web page or an API client reads.

    A page costs about the same whatever matches: its rows are read by keyset over the sort order
    (:func:`cardlab.search.compile.page_statement`: ``page_size`` + 1 rows after the cursor's, never
    every match sorted), and the total is counted up to :data:`cardlab.search.paging.TOTAL_BOUND`
    (exact below it, "more than 1,000" above), once per query and index (cached by the index's
    fingerprint; a query known to match nothing is answered without a statement while the
    connection still reads that index: :func:`cardlab.search.connection.index_unchanged`).
    ``sort="name"`` and ``unique="cards"`` keep their meaning (the shown language's
    names, printings grouped): those orders are made in Python over every match, as
    :func:`search` does, and their totals are exact.

    Args:
        con, query, langs, sort, reverse, timeout, unique: as :func:`search`.
        page_size: hits a page, 1 to :data:`cardlab.search.paging.MAX_PAGE_SIZE`.
        cursor: the ``next_cursor`` of the previous page (:class:`cardlab.search.paging.Page`), or None.
        page: without a cursor, the page's number (1 to :data:`cardlab.search.paging.MAX_PAGE`):
            its rows are skipped in SQL (bounded by the catalog), not sorted in Python.

    Returns:
        The :class:`cardlab.search.paging.Page`.

    Raises:
        UsageError: ``page_size`` or ``page`` out of range, both a cursor and a page, unknown sort
            or ``unique``; CursorError: a cursor this index did not give for this search;
            QueryError, QueryTimeoutError: as :func:`search`.
    """
    if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= MAX_PAGE_SIZE:
        raise UsageError(f"page_size: a number from 1 to {MAX_PAGE_SIZE:,}, not {page_size!r}")
    if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= MAX_PAGE:
        raise UsageError(f"page: a number from 1 to {MAX_PAGE:,}, not {page!r}")
    if cursor and page != 1:
        raise UsageError("give a cursor or a page number, not both")
    if sort not in SORTS:
        raise UsageError(f"unknown sort '{sort}'; choose one of: {', '.join(SORTS)}")
    if unique not in UNIQUE:
        raise UsageError(f"unknown --unique '{unique}'; choose one of: {', '.join(UNIQUE)}")
    request = SearchRequest(query, tuple(langs), sort, reverse, None, 0, timeout, unique)
    with snapshot(con):
        return _find_page(con, request, page_size, cursor or None, (page - 1) * page_size)


def _find_page(con: Any, request: SearchRequest, size: int, cursor: str | None, offset: int) -> Page:
    """:func:`find_page` within its snapshot (arguments checked)."""
    tree = check_vocabulary(con, request.query, _parsed(request.query))
    stems = stem_languages(con)
    fingerprint = index_fingerprint(con)
    # a cursor is signed for this backend too: the sides of an order differ between them
    signer = f"{dialect_of(con)}:{fingerprint}"
    place = decode_cursor(cursor, request, signer) if cursor else None
    if place is None and fingerprint and _TOTALS.get((fingerprint, dialect_of(con), request.query)) == (0, True) and index_unchanged(con):
        # known to match no card of the index the connection still reads: nothing to read again
        return Page([], 0, True, None, fingerprint)
    if request.sort == "name" or request.unique == "cards":
        # orders made in Python over every match (as search): the cursor is the next hit's offset
        if place is not None:
            if place[0] != "offset" or isinstance(place[1], bool) or not isinstance(place[1], int) or place[1] < 0:
                raise CursorError("cursor: not one this server gave for this search; start again from the first page")
            offset = place[1]
        paged = SearchRequest(
            request.query, request.langs, request.sort, request.reverse, size + 1, offset, request.timeout, request.unique, True
        )
        total, hits = _search(con, paged)
        more = len(hits) > size
        nxt = encode_cursor(request, signer, ["offset", offset + size]) if more else None
        if total is None:  # past the last card: no window to count on
            return Page([], *_total(con, request, tree, stems, fingerprint), None, fingerprint)
        return Page(hits[:size], total, True, nxt, fingerprint)
    after = None
    if place is not None:
        after = _keyset_place(place)
        offset = 0
    dialect = dialect_of(con)
    whole_name = exact_name(request, tree)
    # a side of exact names no card has is left out on SQLite: reading it, and keeping its cards out
    # of the next side, would read every match. PostgreSQL reads that side from the name's index
    # first and stops there when it is empty (0.03 ms a page), cheaper than a round trip to ask
    named = whole_name is None or dialect != "sqlite"
    named = named or bool(fetch(con, "SELECT 1 FROM card_name WHERE compact = ? LIMIT 1", [whole_name], None))
    generic = dialect != "sqlite" and one_bare_word(tree)  # the same statement for every word: planned once on PostgreSQL
    key = (fingerprint, dialect, request.query)
    # a total already known: the page is the snapshot's last statement (PostgreSQL commits in its round trip)
    known = bool(fingerprint) and key in _TOTALS
    counted_now = None
    first = None
    if generic and not known and after is None:
        first = _first_view(con, request, tree, stems, size, offset, named, key)
    if first is not None:
        rows, counted_now, counted = first
    else:
        broad, counted = (False, False) if dialect == "sqlite" else _broad(con, request, tree, stems, fingerprint, generic)
        known = bool(fingerprint) and key in _TOTALS
        probe = broad and _row_order(key, offset + size + 1)
        if dialect == "sqlite":
            # each full-text arm read bounded from the cursor, unless the word is known to match
            # few cards: gathering those few is cheaper than the longer statement (0.5 against 0.6
            # ms a page of noru, 90 cards, at 100,000 cards)
            probe = not (known and _TOTALS[key][1])
        build = _built_once if generic and after is None else page_statement
        # a common bare word's cards by row id, where the index keeps them for this bound (word_rows)
        posted = TOTAL_BOUND if broad and generic and (fingerprint, TOTAL_BOUND) in _WORD_STATS else None
        sql, params, sides = build(request, tree, stems, dialect, after, size + 1, offset, named, broad, probe, posted)
        if after is not None and not 0 <= after[0] < sides:
            raise CursorError("cursor: not one this server gave for this search; start again from the first page")
        counted_page = None
        if generic and after is None and not broad:
            # PostgreSQL, a word of few matches: gathered once for its page and its total
            counted_page = _counted_page_once(request, tree, stems, size + 1, offset, TOTAL_BOUND, named)
        if counted_page is not None:
            rows, counted_now = _counted_rows(fetch(con, *counted_page, request.timeout, True, True))
        elif known or dialect == "sqlite":
            rows = fetch(con, sql, params, request.timeout, known, generic)
        else:
            # PostgreSQL: the total (not known, so not past the bound by the word count) is counted in
            # the page's round trip, and the transaction ends there: the count is needed when the page
            # is full, and costs little when it is not (the few matches the page holds)
            count = (_count_once if generic else bounded_count_statement)(tree, stems, dialect, None if tree is None else TOTAL_BOUND)
            rows, counts = fetch_many(con, [(sql, params, generic), (*count, generic)], request.timeout, True)
            counted_now = counts[0][0]
    if stems_changed(con, stems) or index_fingerprint(con) != fingerprint:
        # the index was rebuilt since the query was compiled (seen in the same round trip)
        if cursor:
            decode_cursor(cursor, request, f"{dialect_of(con)}:{index_fingerprint(con)}")  # refused: rows numbered anew
        return _find_page(con, request, size, cursor, offset)
    more = len(rows) > size
    rows = rows[:size]
    width = len(rows[0]) if rows else 0
    nxt = encode_cursor(request, signer, [rows[-1][8], list(rows[-1][9:width])]) if more else None
    hits, _data, _later = hits_of(con, rows, request.langs, True)
    _data.ids = _later.ids = [h.id for h in hits]
    if after is None and not more and (rows or not offset):
        total, exact = offset + len(rows), True  # the whole result, or its end, is in hand
        _remember((fingerprint, dialect_of(con), request.query), (total, exact))
    else:
        total, exact = _total(con, request, tree, stems, fingerprint, counted, generic, counted_now)
    return Page(hits, total, exact, nxt, fingerprint)


def _first_view(
    con: Any, request: SearchRequest, tree: Any, stems: tuple[str, ...] | None, size: int, offset: int, named: bool, key: tuple
) -> tuple[list, int | None, bool] | None:
    """PostgreSQL, the first page of one bare word whose total is not known, in one message.

    With the index's ``word_stat`` held by the process (:class:`cardlab.search.compile.WordStats`,
    read with the first such message on an index, by fingerprint): a word past the bound has its
    total (remembered) and its page read in row order when that is cheaper (:func:`_row_order`);
    a word within it its bounded total, then its page only when the total is not 0 (a word that
    matches nothing runs one count). Without them (or where they cannot tell): its word count (which
    sets ``cardlab.words`` for its transaction), its page as a word with few matches and that
    page's bounded total, both read only when the count is within the bound
    (:func:`cardlab.search.compile.gated`), and COMMIT; a word past the bound has its page read by a
    second message (a new transaction: a rebuild in between is seen by :func:`_find_page`'s
    fingerprint check, as a rebuild since the rows were read is). Returns ``(the page's rows, its
    bounded total or None, whether the words were counted within the bound)``, or None when the
    word has no word count."""
    dialect = dialect_of(con)
    words = _words_once(tree, stems, dialect, TOTAL_BOUND)
    if words is None:
        return None
    stats = _WORD_STATS.get((key[0], TOTAL_BOUND))
    known = None if stats is None else stats.words(tree, stems)
    count, count_params = _count_once(tree, stems, dialect, TOTAL_BOUND)
    if known is not None and known[0] <= TOTAL_BOUND:
        counted_page = _counted_page_once(request, tree, stems, size + 1, offset, TOTAL_BOUND, named)
        if counted_page is not None:
            rows, total_now = _counted_rows(fetch(con, *counted_page, request.timeout, True, True))
            return rows, total_now, True
        sql, params, _sides = _built_once(request, tree, stems, dialect, None, size + 1, offset, named, False, False)
        statements = [(counted_sql(count), count_params, True), (when_found(sql), params, True)]
        total, rows = fetch_many(con, statements, request.timeout, True)
        return rows, total[0][0], True
    if known is None:
        sql, params, _sides = _built_once(request, tree, stems, dialect, None, size + 1, offset, named, False, False)
        statements = [(*words, True), (gated(sql, TOTAL_BOUND), params, True), (gated(count, TOTAL_BOUND), count_params, True)]
        if stats is None:
            statements.append((word_stats_statement(TOTAL_BOUND), [], True))
        counted, rows, total, *loaded = fetch_many(con, statements, request.timeout, True)
        if loaded:
            _keep_word_stats((index_fingerprint(con), TOTAL_BOUND), WordStats.of(loaded[0], TOTAL_BOUND))
        if counted[0][0] <= TOTAL_BOUND:
            return rows, total[0][0], True
        known = counted[0]
    _remember(key, (TOTAL_BOUND + 1, False), known)
    probe = _row_order(key, offset + size + 1)
    posted = TOTAL_BOUND if (key[0], TOTAL_BOUND) in _WORD_STATS else None
    sql, params, _sides = _built_once(request, tree, stems, dialect, None, size + 1, offset, named, True, probe, posted)
    return fetch(con, sql, params, request.timeout, True, True), None, False


def _counted_rows(rows: list) -> tuple[list, int]:
    """The rows of :func:`cardlab.search.compile.counted_page_statement` as ``(the page's rows, the bounded total)``."""
    return [r for r in rows if r[8] != -1], next(r[9] for r in rows if r[8] == -1)


_WORD_STATS: OrderedDict[tuple[str, int], WordStats] = OrderedDict()
"""PostgreSQL: the ``word_stat`` rows of the last :data:`_WORD_STATS_KEPT` indexes searched, by
(index fingerprint, bound): a few hundred rows each (832 at 100,000 cards)."""

_WORD_STATS_KEPT = 4


def _keep_word_stats(key: tuple[str, int], stats: WordStats) -> None:
    """Keep ``stats`` for ``key`` in :data:`_WORD_STATS`; nothing for an index without a
    fingerprint, or whose ``word_stat`` was not kept for this bound (no row of no lexeme: it tells
    nothing, and another index of the same catalog and fingerprint, or the next build, may)."""
    if key[0] and stats.complete:
        _keep(_WORD_STATS, key, stats, _WORD_STATS_KEPT)


def total(con: sqlite3.Connection, query: str, *, timeout: float | None = None) -> tuple[int, bool]:
    """Return ``(how many cards match query, whether that is exact)``: exact up to
    :data:`cardlab.search.paging.TOTAL_BOUND` (and for the empty query), else ``TOTAL_BOUND + 1``,
    a lower bound; counted once per query and index (:func:`find_page`'s totals).

    Raises:
        QueryError: the query cannot be parsed; QueryTimeoutError: it ran longer than ``timeout`` seconds.
    """
    request = SearchRequest(query, timeout=timeout)
    with snapshot(con):
        tree = check_vocabulary(con, query, _parsed(query))
        return _total(con, request, tree, stem_languages(con), index_fingerprint(con))


def _keyset_place(place: list) -> tuple[int, list]:
    """A keyset cursor's ``(side, key values)``, checked for shape (a signed cursor has it).

    Raises:
        CursorError: not a keyset place.
    """
    side, values = place
    if isinstance(side, bool) or not isinstance(side, int) or side < 0 or not isinstance(values, list) or not values:
        raise CursorError("cursor: not one this server gave for this search; start again from the first page")
    if not all(v is None or isinstance(v, (int, float, str)) for v in values):
        raise CursorError("cursor: not one this server gave for this search; start again from the first page")
    return side, values


def _broad(
    con: Any, request: SearchRequest, tree: Any, stems: tuple[str, ...] | None, fingerprint: str, generic: bool = False
) -> tuple[bool, bool]:
    """``(broad, counted)``: broad when the query is known to match more than :data:`TOTAL_BOUND`
    cards: its total was counted, or it is one word whose full-text rows alone pass the bound
    (counted from its index, and then remembered as its total); counted when those rows were
    counted and did not pass it (:func:`_total` need not count them again). PostgreSQL then reads
    a page in row order (see :func:`cardlab.search.compile.page_statement`), else it sorts the few
    matches. ``generic``: the count is planned once (one bare word, :func:`cardlab.search.connection.fetch`)."""
    key = (fingerprint, dialect_of(con), request.query)
    known = _TOTALS.get(key) if fingerprint else None
    if known is not None:
        return not known[1], False
    words = (_words_once if generic else word_count_statement)(tree, stems, dialect_of(con), TOTAL_BOUND)
    if words is None:
        return False, False
    row = fetch(con, *words, request.timeout, generic=generic)[0]
    if row[0] <= TOTAL_BOUND:
        return False, True
    _remember(key, (TOTAL_BOUND + 1, False), row)
    return True, False


def _total(
    con: Any,
    request: SearchRequest,
    tree: Any,
    stems: tuple[str, ...] | None,
    fingerprint: str,
    words_counted: bool = False,
    generic: bool = False,
    counted_now: int | None = None,
) -> tuple[int, bool]:
    """``(total, exact)`` for ``request``'s query: counted up to :data:`TOTAL_BOUND` (every card
    when the query is empty: one count of the table), remembered by the index's fingerprint.
    ``words_counted``: its full-text rows were counted and did not pass the bound (:func:`_broad`);
    ``generic``: as :func:`_broad`. The count is the snapshot's last statement (PostgreSQL commits
    in its round trip). ``counted_now``: the bounded count, already read with the page (PostgreSQL,
    :func:`_find_page`)."""
    key = (fingerprint, dialect_of(con), request.query)
    known = _TOTALS.get(key)
    if known is not None and fingerprint:
        _TOTALS.move_to_end(key)
        return known
    bound = None if tree is None else TOTAL_BOUND
    if counted_now is not None:
        result = (counted_now, True) if bound is None or counted_now <= bound else (counted_now, False)
        _remember(key, result)
        return result
    words = None if words_counted else (_words_once if generic else word_count_statement)(tree, stems, dialect_of(con), TOTAL_BOUND)
    row = None if words is None else fetch(con, *words, request.timeout, generic=generic)[0]
    if row is not None and row[0] > TOTAL_BOUND:
        result = (TOTAL_BOUND + 1, False)  # the word alone passes the bound (from its index, early)
        _remember(key, result, row)
        return result
    sql, params = (_count_once if generic else bounded_count_statement)(tree, stems, dialect_of(con), bound)
    n = fetch(con, sql, params, request.timeout, True, generic)[0][0]
    result = (n, True) if bound is None or n <= bound else (n, False)
    _remember(key, result)
    return result


def _remember(key: tuple, total: tuple[int, bool], words: tuple | None = None) -> None:
    """Keep ``total`` for ``key`` (:data:`_TOTALS`; nothing for an index without a fingerprint),
    and ``words``, the row of a word count that passed the bound on PostgreSQL, in :data:`_REACH`."""
    if key[0]:
        _keep(_TOTALS, key, total, _TOTALS_KEPT)
        if words is not None and len(words) >= 3 and words[1] and words[2]:
            _keep(_REACH, key, (words[0], words[1], words[2]), _TOTALS_KEPT)


def _keep(cache: OrderedDict, key: tuple, value: Any, kept: int) -> None:
    """Put ``value`` for ``key`` last in ``cache``, dropping the least recently kept beyond ``kept``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > kept:
        cache.popitem(last=False)


_REACH: OrderedDict[tuple, tuple[int, int, int]] = OrderedDict()
"""For a word whose full-text rows pass :data:`TOTAL_BOUND` on PostgreSQL, by the key of
:data:`_TOTALS`: ``(rows counted, the row id of the last of them, the highest row id)``
(:func:`cardlab.search.compile.word_count_statement`): how densely its matches lie in row order."""


def _row_order(key: tuple, rows: int) -> bool:
    """True when a page that needs the first ``rows`` matches of a broad word (offset, page and
    one more) is cheaper read card by card in row order, stopping after them
    (:func:`cardlab.search.compile.pg_row_probe`), than by gathering and sorting every match.

    With ``n`` matches counted among the first ``last`` of ``cards`` rows, the first reads about
    ``rows * last / n`` cards and the second about ``n * cards / last`` matches twice (a common
    word's cards are found both by its lexeme in ``card_fts`` and by its stem in ``card_stem``,
    each read from its table), at about the same cost a row (1.2 and 1.3 µs, EXPLAIN ANALYZE at
    100,000 cards): row order wins when ``rows * last**2 < 2 * n**2 * cards``. A word in a quarter
    of 100,000 cards: 0.3 against 35 ms; one in 1.2% of them: 5 against 3 ms, so it is gathered;
    one in 2% (``pied``, its 1,001st card at row 45,956): 8.9 against 14.5 ms, read in row order
    (BENCHMARKS.md). Unknown: False."""
    reach = _REACH.get(key)
    if reach is None:
        return False
    n, last, cards = reach
    return rows * last * last < 2 * n * n * cards
