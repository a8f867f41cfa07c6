"""The catalog read from its index: sets at once, each card only when it is asked for (issue 12).

A deck names 10 to 60 cards; loading and validating 100,000 card files to check it cost 5 s. A
:class:`StoredCatalog` is a :class:`~cardlab.catalog.model.Catalog` whose ``cards``, ``paths`` and
``card_set`` are filled from the SQLite index (:mod:`cardlab.index.sqlite`) on first use, and whose
name maps (:meth:`StoredCatalog.name_maps`) are queries on the index's name tables, so deck lines
are resolved by the same code (:mod:`cardlab.decks.resolve`) at the cost of the lines, not of the
catalog. :func:`open_catalog` is how commands get a catalog to read: the index when it is fresh,
else the catalog validated in memory (a catalog with problems has no fresh index).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.catalog.formats import Format
from cardlab.catalog.model import Catalog, SetInfo
from cardlab.catalog.validate import formats_only, load_formats, validate
from cardlab.core.errors import CardlabError, DataError, Problem
from cardlab.core.paths import default_db
from cardlab.core.text import fold
from cardlab.index.access import open_fresh
from cardlab.index.sqlite import data_decoder

Rows = Callable[..., list[tuple]]
"""How the lazy parts of a :class:`StoredCatalog` run a query: ``rows(sql, params)`` → every row,
fetched whole under the catalog's lock (:meth:`StoredCatalog.rows`)."""

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

MAX_CACHED_NAMES = 20_000
"""Most unknown keys a lazy dict, and most names a name map, keeps the answer of (asked for by
anyone: a server's requests) before it starts again."""
MAX_KEPT = 10_000
"""Most cards (data, paths, sets...) a :class:`StoredCatalog` keeps loaded, each, until it is
iterated whole (then every card is kept: what iterating asked for)."""
_NONE = object()


class _Lazy(dict):
    """A dict filled on demand: ``one(key)`` loads a missing key (None: no such key); asking for
    every key (iterating, ``len``, ``items``...) loads them all once with ``every()``.

    Loading runs under ``lock`` (the catalog's), so a thread iterating the whole dict never meets
    a key another thread is adding: once whole, nothing is added any more. Until then it keeps at
    most :data:`MAX_KEPT` keys (and :data:`MAX_CACHED_NAMES` unknown ones), then starts again: a
    server asked for every card's face one by one holds 10,000 cards, not 100,000."""

    def __init__(self, one: Callable[[str], Any], every: Callable[[], Iterable[tuple[str, Any]]], lock: threading.RLock) -> None:
        super().__init__()
        self._one = one
        self._every = every
        self._lock = lock
        self._whole = False
        self._absent: set[str] = set()

    def _fetch(self, key: object) -> tuple[bool, Any]:
        """``(True, value)`` for a key there is (loaded now if need be), else ``(False, None)``."""
        value = dict.get(self, key, _NONE)
        if value is not _NONE:
            return True, value
        if self._whole or not isinstance(key, str) or key in self._absent:
            return False, None
        with self._lock:
            value = dict.get(self, key, _NONE)
            if value is not _NONE:
                return True, value
            if self._whole:
                return False, None
            value = self._one(key)
            if value is None:
                if len(self._absent) >= MAX_CACHED_NAMES:  # ids asked for by anyone (a server's faces): bounded
                    self._absent.clear()
                self._absent.add(key)
                return False, None
            if dict.__len__(self) >= MAX_KEPT:
                dict.clear(self)
            dict.__setitem__(self, key, value)
            return True, value

    def _load_all(self) -> None:
        if not self._whole:
            with self._lock:
                if not self._whole:
                    for key, value in self._every():
                        dict.setdefault(self, key, value)
                    self._whole = True

    def __missing__(self, key: str) -> Any:
        found, value = self._fetch(key)
        if found:
            return value
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return self._fetch(key)[0]

    def get(self, key: str, default: Any = None) -> Any:
        found, value = self._fetch(key)
        return value if found else default

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_all()
        return dict.__len__(self)

    def keys(self) -> dict_keys[Any, Any]:
        self._load_all()
        return dict.keys(self)

    def values(self) -> dict_values[Any, Any]:
        self._load_all()
        return dict.values(self)

    def items(self) -> dict_items[Any, Any]:
        self._load_all()
        return dict.items(self)


class _NameMap(Mapping[str, set[str]]):
    """Folded name -> ids of the cards of one game with that name: one indexed query per name asked
    for (cached); iterating lists every distinct name of the game (for "did you mean")."""

    def __init__(self, rows: Rows, game: str, column: str) -> None:
        self._rows = rows
        self._game = game
        self._column = column  # "folded" or "compact": both tables have both, indexed
        self._cache: dict[str, set[str]] = {}
        self._all: list[str] | None = None

    def __getitem__(self, key: str) -> set[str]:
        found = self._cache.get(key)
        if found is None:
            col = self._column
            rows = self._rows(
                f"SELECT n.card_id FROM card_name n JOIN card c ON c.id = n.card_id WHERE n.{col} = ? AND c.game = ?"
                f" UNION SELECT p.card_id FROM printed_name p JOIN card c ON c.id = p.card_id WHERE p.{col} = ? AND c.game = ?",
                (key, self._game, key, self._game),
            )
            if len(self._cache) >= MAX_CACHED_NAMES:  # names typed by anyone, misses too: bounded
                self._cache.clear()
            found = self._cache[key] = {r[0] for r in rows}
        if not found:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self[key]
        except KeyError:
            return False
        return True

    def _names(self) -> list[str]:
        if self._all is None:
            col = self._column
            self._all = [
                r[0]
                for r in self._rows(
                    f"SELECT n.{col} FROM card_name n JOIN card c ON c.id = n.card_id WHERE c.game = ?"
                    f" UNION SELECT p.{col} FROM printed_name p JOIN card c ON c.id = p.card_id WHERE c.game = ?",
                    (self._game, self._game),
                )
            ]
        return self._all

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


class _OtherGames(Mapping[str, str]):
    """Folded name -> the game of a card of another game with that name (one query per name)."""

    def __init__(self, rows: Rows, game: str) -> None:
        self._rows = rows
        self._game = game

    def __getitem__(self, key: str) -> str:
        rows = self._rows(
            "SELECT c.game FROM card_name n JOIN card c ON c.id = n.card_id WHERE n.folded = ? AND c.game != ? ORDER BY c.pos LIMIT 1",
            (key, self._game),
        )
        if not rows:
            raise KeyError(key)
        return str(rows[0][0])

    def __iter__(self) -> Iterator[str]:
        rows = self._rows("SELECT DISTINCT n.folded FROM card_name n JOIN card c ON c.id = n.card_id WHERE c.game != ?", (self._game,))
        return (r[0] for r in rows)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class StoredCatalog(Catalog):
    """A :class:`~cardlab.catalog.model.Catalog` read from an index connection (module docstring).

    Args:
        con: a connection to a fresh index (:func:`cardlab.index.sqlite.open_fresh`); opened with
            ``check_same_thread=False`` (``open_fresh(..., threads=True)``, as :func:`open_catalog`
            does) for a catalog many threads read.
        roots: the catalog roots the index was built from.

    Every set is loaded at once (a few hundred rows); ``cards``, ``paths``, ``card_set`` and ``own``
    load a card when it is first asked for, and everything when iterated (correct, but the cost of
    the whole catalog: the deck code and the web never iterate them). :meth:`oracle_of` and
    :meth:`printings` read the index's ``oracle_id``.

    Threads: the web's routes run on a thread pool and share one catalog. Every query runs through
    :meth:`rows`, under one lock, and fetches its rows whole before the lock is let go; the lazy
    dicts fill under the same lock. One shared connection rather than one per thread: the sets are
    read once, here, and one connection stays on the file it opened, so an index rebuilt (renamed
    over this one) while a server runs cannot hand a thread started later cards of another
    catalog than these sets. The queries are indexed lookups of one card or one name (tens of
    microseconds), so taking turns costs the routes little.
    """

    def __init__(self, con: sqlite3.Connection, roots: Iterable[Path]) -> None:
        super().__init__(roots=list(roots))
        self.con = con
        self._lock = threading.RLock()
        self._oracle: dict[str, str] = {}
        self._print_keys: dict[str, tuple] = {}
        self._name_maps: dict[str, tuple[_NameMap, _NameMap, _OtherGames]] = {}
        for code, game, data, path in self.rows("SELECT code, game, data, path FROM card_set ORDER BY rowid"):
            self.sets[code] = SetInfo(code=code, game=game, data=json.loads(data), path=Path(path))

        def column(name: str, convert: Callable[[Any], Any] = lambda v: v) -> _Lazy:
            def one(card_id: str) -> Any:
                rows = self.rows(f"SELECT {name} FROM card WHERE id = ?", (card_id,))
                return convert(rows[0][0]) if rows else None

            def every() -> Iterator[tuple[str, Any]]:
                return ((cid, convert(v)) for cid, v in self.rows(f"SELECT id, {name} FROM card ORDER BY pos"))

            return _Lazy(one, every, self._lock)

        with self._lock:
            decode = data_decoder(con)
        self.cards = column("data", decode)
        self.paths = _Lazy(self._path_one, self._path_every, self._lock)
        self.card_set = column("set_code")
        self.own = _Lazy(self._own_one, self._own_every, self._lock)
        self.reprints = _Lazy(self._reprints_one, self._reprints_every, self._lock)

    def rows(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        """Run one query on the index and return every row (fetched whole under the catalog's lock:
        class docstring). Raises sqlite3.Error."""
        with self._lock:
            return self.con.execute(sql, params).fetchall()

    def _path_one(self, card_id: str) -> Path | None:
        rows = self.rows("SELECT c.path, s.path FROM card c JOIN card_set s ON s.code = c.set_code WHERE c.id = ?", (card_id,))
        return Path(rows[0][1]).parent / rows[0][0] if rows else None

    def _path_every(self) -> Iterator[tuple[str, Any]]:
        rows = self.rows("SELECT c.id, c.path, s.path FROM card c JOIN card_set s ON s.code = c.set_code ORDER BY c.pos")
        return ((cid, Path(folder).parent / name) for cid, name, folder in rows)

    def _own_one(self, card_id: str) -> dict | None:
        card = self.cards.get(card_id)
        if card is None or "reprint_of" not in card:
            return None
        from cardlab.core.yamlio import load  # lazy: PyYAML (17 ms), only for a file changed since the build

        return load(self.paths[card_id])[0]  # what its own file holds

    def _own_every(self) -> Iterator[tuple[str, Any]]:
        for card_id, card in self.cards.items():
            if "reprint_of" in card:
                yield card_id, self._own_one(card_id)

    def _reprints_one(self, card_id: str) -> list[str] | None:
        rows = self.rows("SELECT id FROM card WHERE reprint_of = ? ORDER BY pos", (card_id,))
        return [r[0] for r in rows] or None

    def _reprints_every(self) -> Iterator[tuple[str, Any]]:
        found: dict[str, list[str]] = {}
        for card_id, card in self.cards.items():
            if "reprint_of" in card:
                found.setdefault(card["reprint_of"], []).append(card_id)
        return iter(found.items())

    def set_sizes(self) -> dict[str, int]:
        """As :meth:`Catalog.set_sizes`, from the index's count per set (``card_set.cards``): one
        row a set, whatever the number of cards."""
        return {code: n for code, n in self.rows("SELECT code, cards FROM card_set") if n}

    def set_numbers(self, code: str) -> list[str]:
        """As :meth:`Catalog.set_numbers`: the set's rows of the index (``card.set_code`` is indexed)."""
        return [r[0] for r in self.rows("SELECT number FROM card WHERE set_code = ? ORDER BY pos", (code,))]

    def oracle_of(self, card_id: str) -> str:
        """The index's ``oracle_id`` of the card (as :meth:`Catalog.oracle_of`). Raises KeyError."""
        found = self._oracle.get(card_id)
        if found is None:
            rows = self.rows("SELECT oracle_id FROM card WHERE id = ?", (card_id,))
            if not rows:
                raise KeyError(card_id)
            found = self._oracle[card_id] = rows[0][0]
        return found

    def by_print_order(self, ids: Iterable[str]) -> list[str]:
        """As :meth:`Catalog.by_print_order`, with each card's sort key read from the index in one
        query for the ids not seen yet (a basic Energy has a printing in every set: hundreds of
        ids), also noting each card's ``oracle_id``."""
        ids = list(ids)
        keys = self._print_keys
        missing = [i for i in dict.fromkeys(ids) if i not in keys]
        for chunk in range(0, len(missing), 500):
            part = missing[chunk : chunk + 500]
            rows = self.rows(
                "SELECT c.id, c.oracle_id, c.reprint_of IS NOT NULL, coalesce(s.release_date, ''), c.set_code, coalesce(c.number_int, 0),"
                f" c.number FROM card c JOIN card_set s ON s.code = c.set_code WHERE c.id IN ({','.join('?' * len(part))})",
                part,
            )
            for cid, oracle, reprint, date, code, num, number in rows:
                self._oracle[cid] = oracle
                keys[cid] = (bool(reprint), str(date), code, num, number)
        if any(i not in keys for i in ids):
            return super().by_print_order(ids)  # an id the index does not hold: let print_order raise
        return sorted(ids, key=keys.__getitem__)

    def printings(self, card_id: str) -> list[str]:
        """Every printing of the card (as :meth:`Catalog.printings`), from the index."""
        oracle = self.oracle_of(card_id)
        ids = [r[0] for r in self.rows("SELECT id FROM card WHERE oracle_id = ?", (oracle,))]
        # by_print_order reads the sort keys from the index (print_order would read a reprint's own file)
        return sorted(self.by_print_order(ids), key=lambda i: i != oracle)

    def named(self, game: str, name: str) -> list[str]:
        """As :meth:`Catalog.named`: one indexed query on the name tables (no table of every name)."""
        return self.by_print_order(self.name_maps(game)[0].get(fold(name), ()))

    def name_maps(self, game: str) -> tuple[Mapping[str, set[str]], Mapping[str, set[str]], Mapping[str, str]]:
        """As :meth:`Catalog.name_maps`, as indexed queries on the index's name tables; one set of
        maps per game, shared by every caller (the web's card indexes, one per game and languages),
        so the names a "did you mean" lists (every name of the game: 200,000 at 100,000 cards) are
        read and held once."""
        maps = self._name_maps.get(game)
        if maps is None:
            maps = self._name_maps[game] = (
                _NameMap(self.rows, game, "folded"),
                _NameMap(self.rows, game, "compact"),
                _OtherGames(self.rows, game),
            )
        return maps


def open_catalog(roots: Iterable[Path], db: Path | str | None = None) -> tuple[Catalog, dict, list[Problem]]:
    """Return the catalog to read from, its formats and the catalog's problems.

    When the index at ``db`` (default: :func:`cardlab.core.paths.default_db`) is fresh or can be
    rebuilt, a :class:`StoredCatalog` on it and the formats (read from their files, cached); no
    problems then, since an index is only built from a catalog without any. With the index on a
    PostgreSQL server (a URL), the catalog validated in memory (the same answers). Otherwise (a catalog
    with problems, an index that cannot be written) the catalog validated in memory, with its
    problems: the valid cards are still used, as before the index existed.

    Returns:
        ``(catalog, format name -> Format (sorted by name), problems)``.

    Raises:
        InputError: a root is missing or not a folder.
    """

    roots = [Path(r) for r in roots]
    con: sqlite3.Connection | None = None
    where = default_db(roots, db)
    if isinstance(where, str):  # the index on a PostgreSQL server: decks are checked on the catalog in memory
        result = validate(roots)
        return result.catalog, dict(sorted(result.formats.items())), list(result.problems)
    try:
        con, _report, failure = open_fresh(roots, where, threads=True)
    except (CardlabError, OSError, sqlite3.Error):  # a missing root is reported by validate below
        failure = None
    if con is not None and failure is None:
        formats, problems = formats_only(roots)
        if not problems:
            return StoredCatalog(con, roots), formats, []
    if con is not None:
        con.close()
    result = validate(roots)
    return result.catalog, dict(sorted(result.formats.items())), list(result.problems)


def open_formats(roots: Iterable[Path], db: Path | str | None = None) -> dict[str, Format]:
    """Return every deck format under ``roots`` (name -> :class:`~cardlab.catalog.formats.Format`,
    sorted by name), as :func:`cardlab.catalog.validate.load_formats` does, at the cost of the
    format files alone when the index at ``db`` (default: the catalog's own) is fresh: an index is
    only built from a catalog without problems, so no problem across files can touch a format
    then. Otherwise (a stale index that cannot be rebuilt, a PostgreSQL URL) the whole catalog
    is validated.

    Raises:
        DataError: with every problem (positioned) of the format files.
        InputError: a root is missing or not a folder.
    """
    roots = [Path(r) for r in roots]
    where = default_db(roots, db)
    if not isinstance(where, str):
        try:
            con, _report, failure = open_fresh(roots, where, threads=True)
        except (CardlabError, OSError, sqlite3.Error):  # a missing root is reported by load_formats below
            con, failure = None, None
        if con is not None:
            con.close()
            if failure is None:
                formats, problems = formats_only(roots)
                if problems:
                    raise DataError(problems)
                return formats
    return load_formats(roots)
