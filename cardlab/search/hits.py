"""Search hits and whole cards: :class:`Hit` (one card of a result, its names, data and display
strings read for the whole result when first asked for), :class:`CardView` (a whole card for
``cardlab show``), and the assembly of a search's rows into hits (:func:`assemble`)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab import games
from cardlab.core.text import fold, pick
from cardlab.games.base import DetailRow
from cardlab.index.sqlite import data_decoder
from cardlab.search.compile import SearchStatement
from cardlab.search.request import SearchRequest


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
    evolves_from_names: dict[str, str] = field(default_factory=dict)
    """Every name (language -> text) of the card it evolves from (``evolves_from`` holds its
    English name), so it is shown in the player's language; empty when none is found."""

    def details(self, langs: Sequence[str] = ()) -> list[DetailRow]:
        """The game's detail rows of the card (:meth:`cardlab.games.base.Game.details`) in
        ``langs``, the card it evolves from named in them too (:attr:`evolves_from_names`):
        ``cardlab show`` and the web card page show these, then
        :func:`cardlab.games.base.common_rows`."""
        data, src = self.data, self.set_data.get("source_language", "en")
        if self.evolves_from_names and "evolves_from" in data:
            data = {**data, "evolves_from": pick(self.evolves_from_names, list(langs), "en")}
        return games.get(self.game).details(data, langs, src)


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


def assemble(con: Any, rows: list, request: SearchRequest, statement: SearchStatement) -> tuple[int | None, list[Hit]]:
    """The hits of a search's rows (``statement`` run for ``request``): grouped (``unique="cards"``:
    a card's first printing when it matched, else its first matching printing), sorted by name in
    Python (:func:`name_order`, exact names first), paged when SQL could not do it.

    Returns:
        ``(total or None, hits)``: the total is None unless ``request.with_total`` and at least one
        card matched or the page starts at the first card (total 0).
    """
    langs, offset, limit = request.langs, request.offset, request.limit
    in_sql, shown, exact = statement.in_sql, statement.shown, statement.exact
    total: int | None = None
    if in_sql:
        if request.with_total and rows:
            total = rows[0][-1]
        elif request.with_total and offset <= 0:
            total = 0  # nothing matched at all
    else:
        if request.unique == "cards":
            rows = _one_per_card(rows, 8 if shown else 5)
        total = len(rows)
    hits, data, later = hits_of(con, rows, langs, shown)
    if request.sort == "name":
        # the shown language's names, folded (accents, case) then as written; exact matches stay first
        first: set[str] = set()
        if exact:
            first = {r[0] for r in con.execute("SELECT card_id FROM card_name WHERE compact = ?", exact)}
        hits.sort(key=name_order, reverse=request.reverse)
        hits.sort(key=lambda h: h.id not in first)
    if not in_sql:
        start = max(int(offset), 0)
        hits = hits[start : start + limit] if limit is not None else hits[start:]
    data.ids = later.ids = [h.id for h in hits]
    return total, hits


def hits_of(con: Any, rows: list, langs: tuple[str, ...], shown: bool) -> tuple[list[Hit], _DataBatch, _DisplayBatch]:
    """A :class:`Hit` of each row, its name in ``langs`` (first known) when asked, its names, data and
    (unless ``shown``: the rows hold them) display strings read for all the hits when first asked.

    Returns:
        ``(hits, data batch, display batch)``: the caller tells both batches the ids once it has paged.
    """
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
    return hits, data, later


def _one_per_card(rows: list, oracle_at: int) -> list:
    """``rows`` (in order) with one row per card (its ``oracle_id`` at ``oracle_at``): the card's
    first printing when it is among them, else its first row; as Scryfall's ``unique=cards``."""
    matched = {r[0] for r in rows}
    seen: set[str] = set()
    kept = []
    for r in rows:
        oracle = r[oracle_at]
        if oracle in seen or (r[0] != oracle and oracle in matched):
            continue  # another printing of a card already listed, or its original is listed
        seen.add(oracle)
        kept.append(r)
    return kept


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
