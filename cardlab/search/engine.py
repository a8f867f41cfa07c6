"""Run queries against the index with plain ``sqlite3`` (no sqlmodel at search time).

Opening the index goes through :func:`open_index`, which rebuilds it first when the catalog
changed (:func:`cardlab.index.sqlite.ensure_index`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardlab.core import words
from cardlab.core.bulk import bulk_objects
from cardlab.core.errors import CardlabError, ExitStatus
from cardlab.core.text import compact, fold, norm_value, pick
from cardlab.index.sqlite import data_decoder
from cardlab.search.query import QueryError, Term, compile_sql, dialect_of, one_bare_word, parse, replace_terms, terms

SORTS = {
    "number": "c.rowid",  # the index's row order: release date, set, number (cardlab.index.sqlite.search_order)
    "name": "c.name COLLATE NOCASE, c.set_code, c.number_int",  # then by the shown name, in Python (see search)
    "set": "c.set_code, c.number_int, c.number",
    "rarity": "c.rarity_rank, c.set_code, c.number_int",
    "artist": "c.illustrator COLLATE NOCASE, c.set_code, c.number_int",
    "hp": "hp_sort.v, c.set_code, c.number_int",
}
"""Sort keys for ``--sort``: name -> SQL ORDER BY expression. ``rarity`` follows each set's
``rarities`` list (commonest first); ``name`` sorts by the name shown (``--lang``), folded."""

_SORT_JOINS = {
    "hp": " LEFT JOIN (SELECT card, MAX(num) AS v FROM facet_num WHERE field = 'hp' GROUP BY card) hp_sort ON hp_sort.card = c.rowid"
}
"""Joins a sort key needs: one pass over that field's facet rows, not one lookup per card."""

_PG_SORTS = {
    name: sql.replace("c.name COLLATE NOCASE", "lower(c.name)").replace("c.illustrator COLLATE NOCASE", "lower(c.illustrator)")
    for name, sql in SORTS.items()
}
""":data:`SORTS` on PostgreSQL: ``lower()`` of a ``COLLATE "C"`` column folds ASCII letters only, as
SQLite's ``NOCASE`` does."""


def _order(keys: list[str], reverse: bool, dialect: str) -> list[str]:
    """ORDER BY terms: SQLite puts NULL first going up and last going down; PostgreSQL is told to."""
    if dialect == "sqlite":
        return [f"{k} DESC" for k in keys] if reverse else keys
    return [f"{k} DESC NULLS LAST" for k in keys] if reverse else [f"{k} NULLS FIRST" for k in keys]


_NO_SNAPSHOT = nullcontext()


def _snapshot(con: Any) -> Any:
    """The context one engine call runs in: nothing on SQLite (an index file is never changed in
    place: a rebuild renames a new file in), on PostgreSQL one read-only transaction during which
    no rebuild can swap the index (:meth:`cardlab.index.postgres.PgIndex.snapshot`), so that the
    call's statements all read the same index."""
    return _NO_SNAPSHOT if isinstance(con, sqlite3.Connection) else con.snapshot()


def _fetch(con: Any, sql: str, params: list, timeout: float | None, last: bool = False, generic: bool = False) -> list:
    """Every row of ``sql`` on ``con``, cut off after ``timeout`` seconds (SQLite: a progress
    handler; PostgreSQL: ``statement_timeout``, :meth:`cardlab.index.postgres.PgIndex.fetch`).
    ``last``: the snapshot runs no other statement after this one (PostgreSQL ends its
    transaction in the same round trip). ``generic``: on PostgreSQL, one plan serves every value
    (:meth:`cardlab.index.postgres.PgIndex.fetch`).

    Raises:
        QueryTimeoutError: the time limit was reached; UsageError: the index could not run it.
    """
    from cardlab.core.errors import UsageError

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


CLOSED_FIELDS = (
    "game",
    "set",
    "rarity",
    "supertype",
    "type",
    "stage",
    "weakness",
    "resistance",
    "energy",
    "kind",
    "blow",
    "blocks",
    "attr",
    "timing",
    "element",
    "kw",
)
"""Fields whose values form a closed vocabulary (the values the catalog holds): any other value is
a query error with a caret and did-you-mean, never a silent empty result."""


@dataclass(slots=True)
class Hit:
    """One card in a search result.

    Attributes:
        id: card id (``base1-4``); ``game``, ``set_code``, ``number`` as in the card.
        name: the name in the first requested language known, else the source language.
        names: every name, language -> text.
        type_line, stats: short display strings from the game module.
        rarity: the printed rarity, or None.
    """

    id: str
    game: str
    set_code: str
    number: str
    name: str
    names_source: Any = field(default=None, repr=False, compare=False)
    """Every name (language -> text), or a :class:`_NameBatch` that loads them when first asked."""
    display: Any = field(default=("", "", None), repr=False, compare=False)
    """``(type_line, stats, rarity)``, or a :class:`_DisplayBatch` that reads them when first asked
    (a whole result of 21,000 cards listed by id never reads them)."""
    raw: Any = field(default=None, repr=False, compare=False)
    """The card's stored data (``card.data``) or a :class:`_DataBatch` that reads it, decoded by
    ``decode`` on first use of :attr:`data`."""
    decode: Any = field(default=None, repr=False, compare=False)

    def __eq__(self, other: object) -> bool:
        """Two hits are equal when their id, game, set, number, name and display strings are."""
        if not isinstance(other, Hit):
            return NotImplemented
        return (self.id, self.game, self.set_code, self.number, self.name, self._shown()) == (
            other.id,
            other.game,
            other.set_code,
            other.number,
            other.name,
            other._shown(),
        )

    def _shown(self) -> tuple:
        if isinstance(self.display, _DisplayBatch):
            self.display = self.display.of(self.id)
        return self.display

    @property
    def type_line(self) -> str:
        """The game module's short type line (``Pokémon · Stage 2 · Fire``)."""
        return self._shown()[0]

    @property
    def stats(self) -> str:
        """The game module's short statistics (``120 HP · Power · 1 attack · retreat 3``)."""
        return self._shown()[1]

    @property
    def rarity(self) -> str | None:
        """The printed rarity, or None."""
        return self._shown()[2]

    @property
    def names(self) -> dict:
        """Every name of the card, language -> text (loaded with those of the other hits of its
        result on first use)."""
        if isinstance(self.names_source, _NameBatch):
            self.names_source = self.names_source.of(self.id)
        return self.names_source if self.names_source is not None else {}

    @property
    def data(self) -> dict:
        """Every stored field of the card, as in its file (decoded when first asked for: a page of
        a big result decodes only what it shows)."""
        if isinstance(self.raw, _DataBatch):
            self.raw = self.raw.of(self.id)
        if not isinstance(self.raw, dict):
            self.raw = self.decode(self.raw) if self.decode is not None and self.raw is not None else {}
        return self.raw

    def to_json(self) -> dict:
        """Return the card as data: its id, game and set code, then every stored field as in its
        file (localized maps stay maps: ``{"name": {"en": "Pikachu", "fr": "Pikachu"}, ...}``);
        no display strings."""
        return {"id": self.id, "game": self.game, "set": self.set_code, **{k: v for k, v in self.data.items() if k != "id"}}


class CardNotFoundError(CardlabError):
    """No card matches a card reference; ``suggestions`` lists close names."""

    def __init__(self, ref: str, suggestions: list[str]) -> None:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no card '{ref}'{hint}")
        self.suggestions = suggestions


class QueryTimeoutError(CardlabError):
    """A search ran longer than its time limit and was cut off (``seconds`` is the limit)."""

    exit_code = ExitStatus.USAGE

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the query took longer than {seconds:g} s and was cut off; make it narrower")
        self.seconds = seconds


class AmbiguousCardError(CardlabError):
    """Several cards match a card reference; ``choices`` lists them as ``(id, name, set code)``."""

    def __init__(self, ref: str, choices: list[tuple[str, str, str]]) -> None:
        lines = "\n".join(f"  {cid}  {name} ({code})" for cid, name, code in choices)
        super().__init__(f"'{ref}' names {len(choices)} cards; give an id:\n{lines}")
        self.choices = choices


def open_index(roots: list[Path], db: Path | str) -> sqlite3.Connection:
    """Return a read-only connection to a fresh index, (re)building it if the catalog changed.

    The policy (older index used when the catalog has problems or the index cannot be written) is
    :func:`cardlab.index.sqlite.open_fresh`'s.

    Raises:
        CatalogError, IndexWriteError: the index cannot be rebuilt and there is no older one.
    """
    from cardlab.index.access import open_fresh

    return open_fresh(roots, db)[0]


class _NameBatch:
    """The names of a result's hits, loaded in one go when the first hit's names are asked for (a
    table without ``--lang`` never asks: 21,000 hits then cost no name query)."""

    def __init__(self, con: sqlite3.Connection, rows: list) -> None:
        self._con = con
        self._rows = rows
        self._names: dict[str, dict] | None = None
        self._languages: dict[str, str] | None = None

    def of(self, card_id: str) -> dict:
        """Every name of the card ``card_id`` of this result, language -> text."""
        if self._names is None:
            self._names = _names(self._con, [r[0] for r in self._rows])
            for r in self._rows:
                if not self._names.get(r[0]):
                    self._names[r[0]] = {self.source_language(r[2]): r[4]}  # no name row: the source-language name
        return self._names[card_id]

    def source_language(self, set_code: str) -> str:
        """The source language of the set ``set_code`` (read for every set at once, when first asked)."""
        if self._languages is None:
            self._languages = dict(self._con.execute("SELECT code, source_language FROM card_set"))
        return self._languages[set_code]


class _LazyDecoder:
    """:func:`cardlab.index.sqlite.data_decoder` of ``con``, made when the first card is decoded
    (a search whose hits' data nobody asks for reads no dictionary)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con
        self._decode: Any = None

    def __call__(self, blob: bytes) -> dict:
        if self._decode is None:
            self._decode = data_decoder(self._con)
        return self._decode(blob)


class _DataBatch:
    """The stored data of a result's hits, read in one go when the first hit's data is asked for:
    the search itself neither reads nor sorts the widest column, and a table never asks for it."""

    def __init__(self, con: sqlite3.Connection, ids: list[str] | None = None) -> None:
        self._con = con
        self.ids: list[str] = ids or []
        """The result's card ids (set once the result is paged)."""
        self._data: dict[str, bytes] | None = None

    def of(self, card_id: str) -> bytes | None:
        if self._data is None:
            self._data = dict(_where_in(self._con, "SELECT id, data FROM card WHERE id", self.ids))
        return self._data.get(card_id)


class _DisplayBatch:
    """The display strings (type line, stats, rarity) of a result's hits, read in one go when the
    first hit's are asked for: a whole result (no ``limit``) does not read them with its rows, so a
    listing of ids or a count of 21,000 cards never creates them; a page reads them with its rows."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con
        self.ids: list[str] = []
        """The result's card ids (set once the result is paged)."""
        self._shown: dict[str, tuple] | None = None

    def of(self, card_id: str) -> tuple:
        """``(type_line, stats, rarity)`` of the card ``card_id`` of this result."""
        if self._shown is None:
            self._shown = {r[0]: r[1:] for r in _where_in(self._con, "SELECT id, type_line, stats, rarity FROM card WHERE id", self.ids)}
        return self._shown.get(card_id, ("", "", None))


def _where_in(con: sqlite3.Connection, select: str, ids: list[str]) -> Iterator[tuple]:
    """The rows of ``select`` (ending ``WHERE <column>``) ``IN`` ``ids``, 900 ids a statement
    (SQLite's parameter limit)."""
    for chunk in range(0, len(ids), 900):
        part = ids[chunk : chunk + 900]
        yield from con.execute(f"{select} IN ({','.join('?' * len(part))})", part)


def _names(con: sqlite3.Connection, ids: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {i: {} for i in ids}
    for cid, lang, name in _where_in(con, "SELECT card_id, lang, name FROM card_name WHERE card_id", ids):
        out[cid][lang] = name
    return out


class _Deadline:
    """Within ``with _Deadline(con, seconds)``, SQLite statements on ``con`` are interrupted once
    ``seconds`` have passed (a progress handler); None means no limit."""

    def __init__(self, con: sqlite3.Connection, seconds: float | None) -> None:
        self.con, self.seconds, self.hit = con, seconds, False

    def __enter__(self) -> _Deadline:
        if self.seconds is not None:
            import time

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


def count(con: sqlite3.Connection, query: str, *, timeout: float | None = None) -> int:
    """Return how many cards match ``query`` (as :func:`search` would return with no limit).

    Raises:
        QueryError: the query cannot be parsed; QueryTimeoutError: it ran longer than ``timeout`` seconds.
    """
    where, params = compile_sql(parse(query), dialect=dialect_of(con))
    with _snapshot(con):
        return _fetch(con, f"SELECT COUNT(*) FROM card c WHERE {where}", params, timeout)[0][0]


def _vocabulary(con: sqlite3.Connection, field_name: str) -> list[str]:
    """The values of a closed field the index holds (folded), plus each set's rarities."""
    if field_name == "game":
        values = {r[0] for r in con.execute("SELECT DISTINCT game FROM card_set")}
    elif field_name == "set":
        values = {r[0] for r in con.execute("SELECT key FROM set_key")}
    else:
        # the distinct values by a skip scan of the (field, text) key: one seek per value, not one
        # step per card (type: 7 seeks instead of 25,000 rows at 30,000 cards)
        values = {
            r[0]
            for r in con.execute(
                "WITH RECURSIVE v(t) AS (SELECT MIN(text) FROM facet_text WHERE field = ? UNION ALL"
                " SELECT (SELECT MIN(text) FROM facet_text WHERE field = ? AND text > v.t) FROM v WHERE v.t IS NOT NULL)"
                " SELECT t FROM v WHERE t IS NOT NULL",
                (field_name, field_name),
            )
        }
    if field_name == "rarity":
        for (data,) in con.execute("SELECT data FROM card_set"):
            values.update(norm_value(r) for r in json.loads(data).get("rarities") or [] if isinstance(r, str))
    if field_name == "game":
        from cardlab.games import GAMES

        values.update(GAMES)
    if field_name == "set":  # every set of the catalog, with or without cards yet (Ippo: 0 of 162)
        for code, aliases in con.execute("SELECT code, aliases FROM card_set"):
            values.update(norm_value(v) for v in [code, *json.loads(aliases or "[]")])
    return sorted(values)


def _holds(con: sqlite3.Connection, field_name: str, value: str) -> bool:
    """True when ``value`` (normalized) is surely in :func:`_vocabulary` of ``field_name``: a card or
    set of the index holds it (False may still be in it: the vocabulary then decides)."""
    if field_name == "game":
        sql, params = "SELECT 1 FROM card_set WHERE game = ? LIMIT 1", [value]
    elif field_name == "set":
        sql, params = "SELECT 1 FROM set_key WHERE key = ? LIMIT 1", [value]
    else:
        sql, params = "SELECT 1 FROM facet_text WHERE field = ? AND text = ? LIMIT 1", [field_name, value]
    return con.execute(sql, params).fetchone() is not None


SCRYFALL_RARITY_LETTERS = {"c": "common", "u": "uncommon", "r": "rare", "m": "mythic", "s": "special"}
"""Scryfall's one-letter rarities (``r:c``): the letter names that rarity wherever the catalog has it."""


def check_vocabulary(con: sqlite3.Connection, query: str, tree):  # noqa: ANN001, ANN201 - query nodes
    """Check every value of a closed field (:data:`CLOSED_FIELDS`) against the values the catalog
    holds; Scryfall's rarity letters (``r:c``, ``r:u``, ``r:r``: :data:`SCRYFALL_RARITY_LETTERS`)
    become that rarity where the catalog has it. Returns the tree (letters replaced).

    Raises:
        QueryError: a value outside the vocabulary, with the offending column and "did you mean".
    """
    from cardlab.core.fuzzy import suggest

    new: dict[int, Term] = {}
    cache: dict[str, list[str]] = {}
    for t in terms(tree):
        if t.field not in CLOSED_FIELDS:
            continue
        if t.field not in cache and _holds(con, t.field, norm_value(t.value)):
            continue  # the usual case: one seek instead of the field's whole vocabulary
        known = cache.get(t.field)
        if known is None:
            known = cache[t.field] = _vocabulary(con, t.field)
        if not known:
            continue  # no card of the catalog has this field (another game's field)
        value = norm_value(t.value)
        if value in known:
            continue
        if t.field == "rarity" and SCRYFALL_RARITY_LETTERS.get(value) in known:
            new[t.pos] = Term(t.field, t.op, SCRYFALL_RARITY_LETTERS[value], t.pos, t.quoted)
            continue
        hint = suggest(t.value, known)
        shown = "; did you mean " + " or ".join(f"{t.field}:{_quoted(h)}" for h in hint) + "?" if hint else ""
        listed = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
        raise QueryError(query, t.pos, f"no card has {t.field} '{t.value}'{shown} (known: {listed})")
    return replace_terms(tree, new) if new else tree


_parsed = lru_cache(maxsize=1024)(parse)
""":func:`cardlab.search.query.parse`, its trees (frozen) kept for the last 1,024 queries: a query
asked again (the next page of a web search) is not parsed again."""


def _stem_languages(con: sqlite3.Connection) -> tuple[str, ...] | None:
    """The languages whose stemmed words the index holds (recorded at build time; on PostgreSQL
    as last seen by the connection: :meth:`cardlab.index.postgres.PgIndex.stem_languages`)."""
    if not isinstance(con, sqlite3.Connection):
        value = con.stem_languages()
        return tuple(json.loads(value)) if value else None
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'stem_languages'").fetchone()
    except sqlite3.Error:
        return None
    return tuple(json.loads(row[0])) if row else None


def _quoted(value: str) -> str:
    return f'"{value}"' if " " in value else value


UNIQUE = ("prints", "cards")
"""``--unique`` choices: every printing, or one hit per card (its printings collapsed)."""


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
        query: a query in the language of :mod:`cardlab.search.query`.
        langs: preferred languages for names, first first; the source language is the fallback.
        sort: a key of :data:`SORTS`; ``reverse`` reverses it.
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
    with _snapshot(con):
        return _search(con, query, langs, sort, reverse, limit, offset, timeout, False, unique)[1]


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
    args = {**_SEARCH_DEFAULTS, **options}
    with _snapshot(con):
        total, hits = _search(
            con, query, args["langs"], args["sort"], args["reverse"], args["limit"], args["offset"], args["timeout"], True, args["unique"]
        )
        if total is None:  # the page is past the last card: nothing to count the window on
            total = count(con, query, timeout=args["timeout"])
        return total, hits


def _search(
    con: sqlite3.Connection,
    query: str,
    langs: tuple[str, ...] | list[str],
    sort: str,
    reverse: bool,
    limit: int | None,
    offset: int,
    timeout: float | None,
    with_total: bool,
    unique: str = "prints",
) -> tuple[int | None, list[Hit]]:
    """:func:`search` and :func:`search_page`: ``(total or None, hits)``; the total is None unless
    ``with_total`` and at least one card matched or the page starts at the first card (total 0).

    A query of bare words lists the cards whose whole name is those words first (``pikachu``:
    Pikachu before Surfing Pikachu), then the chosen order. The page is cut in SQL (``LIMIT``, with
    the total as a window count) unless the order or the grouping needs every match first: ``--sort
    name`` (the shown language's names, folded) and ``unique="cards"`` (printings collapsed).
    """
    from cardlab.core.errors import UsageError

    if sort not in SORTS:
        raise UsageError(f"unknown sort '{sort}'; choose one of: {', '.join(SORTS)}")
    if unique not in UNIQUE:
        raise UsageError(f"unknown --unique '{unique}'; choose one of: {', '.join(UNIQUE)}")
    dialect = dialect_of(con)
    tree = check_vocabulary(con, query, _parsed(query))
    stems = _stem_languages(con)
    where, params = compile_sql(tree, stems, dialect)
    sorts = SORTS if dialect == "sqlite" else _PG_SORTS
    parts = _order(sorts[sort].split(", "), reverse, dialect)
    # cards without the sort value (Trainers have no HP, sets no release date) come last either way,
    # ties in row order; the row order itself puts undated sets last, and needs no sort at all
    if sort != "number":
        order = [f"({SORTS[sort].split(', ')[0].split(' COLLATE')[0]}) IS NULL", *parts, "c.rowid"]
    else:
        order = ["(s.release_date) IS NULL", *parts] if reverse else parts
    words = terms(tree)
    exact: list = []
    if words and all(t.field is None and t.op == ":" for t in words) and compact(query):
        order.insert(0, "c.id NOT IN (SELECT card_id FROM card_name WHERE compact = ?)")
        exact = [compact(" ".join(t.value for t in words))]
    in_sql = sort != "name" and unique == "prints"
    # only the columns a hit shows (its data and names are read when first asked for); the set table
    # is joined only for an order on its release date
    # a page reads its display strings with its rows; a whole result (or one paged in Python) when
    # first shown (_DisplayBatch)
    page = in_sql and limit is not None
    # on PostgreSQL in the search's own snapshot too: read later, they could come from an index
    # swapped in since (names and data still are; see ARCHITECTURE.md)
    shown = page or dialect != "sqlite"
    columns = "c.id, c.game, c.set_code, c.number, c.name" + (", c.type_line, c.stats, c.rarity" if shown else "")
    columns += ", c.oracle_id" if unique == "cards" else ""
    sets = " LEFT JOIN card_set s ON s.code = c.set_code" if any(re.search(r"\bs\.", part) for part in order) else ""
    sql = (
        f"SELECT {columns}{', COUNT(*) OVER ()' if with_total and in_sql else ''}"
        f" FROM card c{sets}{_SORT_JOINS.get(sort, '')} WHERE {where} ORDER BY {', '.join(order)}"
    )
    params = [*params, *exact]
    if in_sql and (limit is not None or offset):
        sql += " LIMIT ? OFFSET ?"
        params = [*params, (-1 if dialect == "sqlite" else None) if limit is None else int(limit), max(int(offset), 0)]
    # a whole result may build tens of thousands of rows and hits: the garbage collector waits (for
    # the whole process: a page cut in SQL, what the web server asks for in the default order, never pauses it)
    # on PostgreSQL, a page in no language but the source's is the snapshot's one statement: its
    # transaction ends in the same round trip (a first page with no row needs no count either)
    last = page and not langs and (offset <= 0 or not with_total)
    with nullcontext() if page else bulk_objects():
        rows = _fetch(con, sql, params, timeout, last, dialect != "sqlite" and one_bare_word(tree))
        if dialect != "sqlite" and _stem_languages(con) != stems:
            # the index was rebuilt with other languages since the query was compiled (checked in
            # the same round trip): compile and run it again
            return _search(con, query, langs, sort, reverse, limit, offset, timeout, with_total, unique)
        total, hits = _hits(con, rows, langs, sort, reverse, limit, offset, in_sql, with_total, unique, exact, shown)
    return total, hits


def _hits(
    con: Any,
    rows: list,
    langs: tuple[str, ...] | list[str],
    sort: str,
    reverse: bool,
    limit: int | None,
    offset: int,
    in_sql: bool,
    with_total: bool,
    unique: str,
    exact: list,
    shown: bool,
) -> tuple[int | None, list[Hit]]:
    """The hits of :func:`_search`'s rows: grouped (``unique``), sorted by name in Python, paged
    when SQL could not do it; ``(total or None, hits)``. ``shown``: the rows hold the display
    strings (``type_line, stats, rarity`` after the name), else they are read when first asked."""
    total: int | None = None
    if in_sql:
        if with_total and rows:
            total = rows[0][-1]
        elif with_total and offset <= 0:
            total = 0  # nothing matched at all
    else:
        if unique == "cards":
            matched = {r[0] for r in rows}
            seen: set[str] = set()
            kept = []
            for r in rows:
                oracle = r[8 if shown else 5]
                if oracle in seen or (r[0] != oracle and oracle in matched):
                    continue  # another printing of a card already listed, or its original is listed
                seen.add(oracle)
                kept.append(r)
            rows = kept
        total = len(rows)
    batch = _NameBatch(con, rows)
    decode = _LazyDecoder(con)
    data = _DataBatch(con)
    later = _DisplayBatch(con)
    if langs:
        hits = [
            Hit(
                r[0],
                r[1],
                r[2],
                r[3],
                pick(batch.of(r[0]), langs, batch.source_language(r[2])),
                batch,
                r[5:8] if shown else later,
                data,
                decode,
            )
            for r in rows
        ]
    elif shown:
        hits = [Hit(r[0], r[1], r[2], r[3], r[4], batch, r[5:8], data, decode) for r in rows]
    else:
        hits = [Hit(r[0], r[1], r[2], r[3], r[4], batch, later, data, decode) for r in rows]
    if sort == "name":
        # the shown language's names, folded (accents, case) then as written; exact matches stay first
        first: set[str] = set()
        if exact:
            first = {r[0] for r in con.execute("SELECT card_id FROM card_name WHERE compact = ?", exact)}
        hits.sort(key=name_order, reverse=reverse)
        hits.sort(key=lambda h: h.id not in first)
    if not in_sql:
        start = max(int(offset), 0)
        hits = hits[start : start + limit] if limit is not None else hits[start:]
    data.ids = later.ids = [h.id for h in hits]
    return total, hits


def name_order(hit: Hit) -> tuple:
    """The sort key of ``--sort name``: the name shown, folded (:func:`cardlab.core.text.fold`:
    case, accents, width, ``œ`` as ``oe``), then as written, then the card id with its numbers
    compared as numbers (``base1-9`` before ``base1-10``), so equal names always come in one order.

    Folding rather than a locale's collation (ICU): PyICU ships no wheel (it builds against the
    system's ICU with a C++ compiler), pyuca's last release is from 2017, and the folding is the
    one names are matched with everywhere else."""
    return (fold(hit.name), hit.name, hit.set_code, _natural(hit.number), hit.id)


def _natural(text: str) -> tuple:
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(text)) if part)


def plain(hits: list[Hit], fmt: str = "table") -> str:
    """Return search hits as plain text: ``table`` (aligned columns, one card a line, then the
    count), ``ids`` (one id a line), ``json`` (a list of :meth:`Hit.to_json`) or ``csv`` (with a
    header). No colour and no wrapping: for pipes and files."""
    import csv
    import io

    if fmt == "ids":
        return "".join(f"{h.id}\n" for h in hits)
    if fmt == "json":
        return json.dumps([h.to_json() for h in hits], ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["id", "set", "number", "name", "type", "stats", "rarity"])
        writer.writerows([h.id, h.set_code, h.number, h.name, h.type_line, h.stats, h.rarity or ""] for h in hits)
        return buf.getvalue()
    rows = [("Id", "Name", "Type", "Stats", "Rarity")] + [(h.id, h.name, h.type_line, h.stats, h.rarity or "") for h in hits]
    widths = [max(_width(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.append(words.count(len(hits), "card"))
    return "\n".join(lines) + "\n"


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (East Asian wide characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@dataclass
class CardView:
    """A whole card for ``cardlab show``: its data, its set's data, and the file it comes from."""

    id: str
    game: str
    data: dict
    set_data: dict
    path: str
    printings: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    """Every printing of the card, the original first: ``(id, set code, number, rarity)``."""


def get_card(con: sqlite3.Connection, ref: str) -> CardView:
    """Find one card by id (``base1-4``, any case), by set code or alias and number (``BS 4``,
    ``base1 4``), or by its whole name in any language (``Dracaufeu``). A name shared by the
    printings of one card only (an original and its reprints) gives the original. The view lists
    every printing (:attr:`CardView.printings`).

    Raises:
        AmbiguousCardError: the name belongs to several cards (choices listed).
        CardNotFoundError: nothing matches (close names suggested).
        UsageError: an empty or blank reference (exit 2).
    """
    with _snapshot(con):
        return _get_card(con, ref)


def _get_card(con: sqlite3.Connection, ref: str) -> CardView:
    """:func:`get_card` within its snapshot."""
    ref_s = ref.strip()
    if not ref_s:
        from cardlab.core.errors import UsageError

        raise UsageError("no card given: name one by id (base1-4), set and number (BS 4) or name (Charizard)")
    row = con.execute("SELECT id FROM card WHERE lower(id) = lower(?)", (ref_s,)).fetchone()
    ids = [row[0]] if row else []
    if not ids:
        parts = ref_s.rsplit(None, 1)
        if len(parts) == 2:
            from cardlab.core.text import norm_value

            ids = [
                r[0]
                for r in con.execute(
                    "SELECT c.id FROM card c JOIN set_key k ON k.code = c.set_code AND k.key = ? WHERE c.number = ?",
                    (norm_value(parts[0]), parts[1]),
                )
            ]
    if not ids:
        ids = [r[0] for r in con.execute("SELECT DISTINCT card_id FROM card_name WHERE folded = ?", (fold(ref_s),))]
    if not ids and compact(ref_s):  # typed without spaces or punctuation: farfetchd
        ids = [r[0] for r in con.execute("SELECT DISTINCT card_id FROM card_name WHERE compact = ?", (compact(ref_s),))]
    if not ids:
        from cardlab.core.fuzzy import suggest

        names = sorted({r[0] for r in con.execute("SELECT name FROM card_name")})
        raise CardNotFoundError(ref, suggest(ref_s, names))
    if len(ids) > 1:
        marks = ",".join("?" * len(ids))
        oracles = {r[0] for r in con.execute(f"SELECT DISTINCT oracle_id FROM card WHERE id IN ({marks})", ids)}
        if len(oracles) == 1:  # printings of one card (Dracaufeu: base1-4 and its reprint base4-4): the original
            oracle = oracles.pop()
            ids = [oracle] if oracle in ids else sorted(ids)[:1]
        else:  # several cards: one choice per card, its first printing (as deck lists count them)
            first: dict[str, str] = {}
            for cid, oracle in con.execute(f"SELECT id, oracle_id FROM card WHERE id IN ({marks}) ORDER BY id != oracle_id", ids):
                first.setdefault(oracle, cid)
            ids = list(first.values())
    if len(ids) > 1:
        choices = [
            tuple(r)
            for r in con.execute(
                f"SELECT id, name, set_code FROM card WHERE id IN ({','.join('?' * len(ids))})"
                f" ORDER BY {', '.join(_order(['set_code', 'number_int'], False, dialect_of(con)))}",
                ids,
            )
        ]
        raise AmbiguousCardError(ref, choices)
    cid, game, data, name, set_path, set_data, oracle = con.execute(
        "SELECT c.id, c.game, c.data, c.path, s.path, s.data, c.oracle_id FROM card c JOIN card_set s ON s.code = c.set_code WHERE c.id = ?",
        (ids[0],),
    ).fetchone()
    path = str(Path(set_path).parent / name)
    return CardView(cid, game, data_decoder(con)(data), json.loads(set_data), path, _printings(con, oracle))


def printings(con: sqlite3.Connection, card_id: str) -> list[tuple[str, str, str, str | None]]:
    """Return every printing of a card, whichever of them ``card_id`` is: the original first, then
    by set release date (the same list as :attr:`CardView.printings`).

    Returns:
        ``[(card id, set code, collector number, rarity), ...]``; just the card itself when it has one
        printing; empty for an unknown id.
    """
    with _snapshot(con):
        row = con.execute("SELECT oracle_id FROM card WHERE id = ?", (card_id,)).fetchone()
        if row is None:
            return []
        return _printings(con, row[0])


def _printings(con: sqlite3.Connection, oracle: str) -> list[tuple[str, str, str, str | None]]:
    return [
        tuple(r)
        for r in con.execute(
            "SELECT c.id, c.set_code, c.number, c.rarity FROM card c LEFT JOIN card_set s ON s.code = c.set_code"
            " WHERE c.oracle_id = ? ORDER BY "
            + ", ".join(_order(["c.id != c.oracle_id", "s.release_date", "c.set_code", "c.number_int"], False, dialect_of(con))),
            (oracle,),
        )
    ]


def languages(con: sqlite3.Connection) -> list[str]:
    """Return the languages card names are known in (``["de", "en", "fr", ...]``), sorted."""
    return [r[0] for r in con.execute("SELECT DISTINCT lang FROM card_name ORDER BY lang")]
