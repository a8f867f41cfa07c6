"""``collection list`` and ``deck have``: a player's cards joined to the index or to a deck list."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cardlab.core import l10n
from cardlab.core.errors import Problem
from cardlab.core.l10n import _
from cardlab.core.text import pick
from cardlab.search.compile import compile_sql, dialect_of
from cardlab.search.query.parse import parse

if TYPE_CHECKING:
    from cardlab.catalog.model import Catalog
    from cardlab.decks.model import Deck


class OwnedRow(NamedTuple):
    """One owned card: ``card_id``, ``copies``, and from the index ``name``, ``set_code``, ``number``,
    ``game``, ``type_line``, ``stats`` (empty, with ``known`` False, for an id the catalog lost).
    A named tuple: 30,000 of them are made in a few milliseconds."""

    card_id: str
    copies: int
    name: str = ""
    set_code: str = ""
    number: str = ""
    game: str = ""
    type_line: str = ""
    stats: str = ""
    known: bool = True

    def to_json(self) -> dict:
        """Return a JSON-ready dict of the row."""
        return {
            "id": self.card_id,
            "count": self.copies,
            "name": self.name,
            "set": self.set_code,
            "number": self.number,
            "game": self.game,
            "type": self.type_line,
            "stats": self.stats,
            "in_catalog": self.known,
        }


def list_owned(index: sqlite3.Connection, owned: dict[str, int], query: str | None = None, langs: Sequence[str] = ()) -> list[OwnedRow]:
    """Return the owned cards matching ``query`` (the search language; None or empty: all), sorted by
    set and collector number; ids unknown to the index come last, only when there is no query.

    Args:
        index: a search index connection (:func:`cardlab.search.engine.open_index`);
        owned: ``card id -> count`` (:func:`cardlab.collection.owned.counts`);
        langs: preferred languages of the names (``["fr"]``); a card without a name in them keeps
            its source-language name.

    Raises:
        QueryError: a bad query (exit 2).
    """

    dialect = dialect_of(index)
    where, params = compile_sql(parse(query) if query and query.strip() else None, dialect=dialect)
    select = (
        "SELECT c.id, c.name, c.set_code, c.number, c.game, c.type_line, c.stats, c.game, s.release_date, c.set_code,"
        f" c.number_int, c.number FROM card c LEFT JOIN card_set s ON s.code = c.set_code WHERE ({where})"
    )
    found = []
    ids = sorted(owned)
    for start in range(0, len(ids), OWNED_BATCH):  # the owned cards' rows only: the cost of the collection
        part = ids[start : start + OWNED_BATCH]
        found.extend(index.execute(f"{select} AND c.id IN ({', '.join('?' * len(part))})", [*params, *part]).fetchall())
    # the order of the sets and numbers, nulls first (as SQLite sorts them, and PostgreSQL told to)
    found.sort(key=lambda r: tuple((v is not None, v if v is not None else 0) for v in r[7:]))
    rows = [
        OwnedRow(cid, owned[cid], name, code, number, game, type_line or "", stats or "")
        for cid, name, code, number, game, type_line, stats, *_order in found
    ]
    if langs and rows:
        rows = _named(index, rows, langs)
    if not (query and query.strip()) and len(rows) < len(owned):
        seen = {r.card_id for r in rows}
        rows.extend(OwnedRow(cid, n, known=False) for cid, n in sorted(owned.items()) if cid not in seen)
    return rows


OWNED_BATCH = 500
"""Owned card ids looked up in the index together by :func:`list_owned` (SQL parameters per statement)."""


def _named(index: sqlite3.Connection, rows: list[OwnedRow], langs: Sequence[str]) -> list[OwnedRow]:
    """``rows`` with each name in the first of ``langs`` the index holds it in."""
    names: dict[str, dict[str, str]] = {}
    ids = [r.card_id for r in rows]
    for start in range(0, len(ids), OWNED_BATCH):
        part = ids[start : start + OWNED_BATCH]
        marks = ",".join(["?"] * len(part))  # SQLite placeholders on either backend (PgIndex.execute)
        for cid, lang, name in index.execute(f"SELECT card_id, lang, name FROM card_name WHERE card_id IN ({marks})", part):
            names.setdefault(cid, {})[lang] = name
    return [r._replace(name=pick(names[r.card_id], langs, r.name)) if names.get(r.card_id) else r for r in rows]


def plain(rows: list[OwnedRow], fmt: str = "text") -> str:
    """Return owned cards as ``text`` (aligned columns and a total line), ``json`` or ``csv``
    (``card_id,count,name``: importable by ``collection import``)."""
    import csv  # lazy: csv (33 ms cold), only for CSV output

    if fmt == "json":
        return json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["card_id", "count", "name"])
        w.writerows((r.card_id, r.copies, r.name) for r in rows)
        return buf.getvalue()
    table = [(_("Count"), _("Id"), _("Name"), _("Type"), _("Stats"))] + [
        (str(r.copies), r.card_id, r.name if r.known else "(" + _("not in the catalog") + ")", l10n.words(r.type_line), l10n.words(r.stats))
        for r in rows
    ]
    widths = [max(map(len, column)) for column in zip(*table, strict=True)]
    line = f"{{:>{widths[0]}}}  {{:<{widths[1]}}}  {{:<{widths[2]}}}  {{:<{widths[3]}}}  {{}}"
    lines = [line.format(*t).rstrip() for t in table]
    total = sum(r.copies for r in rows)
    cards = _("{n} card") if len(rows) == 1 else _("{n} cards")
    copies = _("{n} copy") if total == 1 else _("{n} copies")
    lines.append(cards.format(n=len(rows)) + ", " + copies.format(n=total))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class HaveRow:
    """One card of a deck list against a collection: ``need`` copies in the list, ``own`` owned
    (every printing of the card counts: a reprint, the holo and the plain one; for a name alone, every
    card it may be), ``missing`` = max(0, need - own); ``printings`` the owned copies by printing
    (card id -> copies, only those owned)."""

    card_id: str
    name: str
    need: int
    own: int
    printings: tuple[tuple[str, int], ...] = ()
    chosen_lines: tuple[int, ...] = ()
    """Lines naming the card by name alone where the collection chose it over the deck's assumption."""

    @property
    def missing(self) -> int:
        """Copies still to get."""
        return max(0, self.need - self.own)


def have(deck: Deck, owned: dict[str, int], catalog: Catalog | None = None) -> list[HaveRow]:
    """Return, for each card of a matched deck (:class:`cardlab.decks.model.Deck`), how many the list
    needs and the player owns, in list order; one row per card in play, however many lines and
    spellings name it (``2 Scyther JU 10`` and ``2 Scyther JU 26``, the holo and the plain one,
    are one row needing 4).

    A card is owned in any of its printings (issue 27: a Base Set 2 reprint, the holo and the
    plain one; :meth:`cardlab.catalog.model.Catalog.printings`), whether the line names a printing
    or the card by name alone; for a name alone whose candidates are different cards
    (:attr:`DeckCard.candidates`: the same to every rule of the format), copies of any of them
    count, and the player's collection decides the row: the card owned most (the deck's
    assumption on a tie).

    Args:
        deck: a matched deck; owned: card id -> copies the player owns.
        catalog: the catalog the deck was matched against (None: each printing alone counts).

    Returns:
        One :class:`HaveRow` per card in play, keyed by the printing the list names or assumes.
    """
    oracle = catalog.oracle_of if catalog is not None else (lambda i: i)
    printings: dict[str, list[str]] = {}

    def printings_of(card_id: str) -> list[str]:
        key = oracle(card_id)
        if key not in printings:
            printings[key] = catalog.printings(card_id) if catalog is not None else [card_id]
        return printings[key]

    need: dict[str, int] = {}  # oracle -> copies
    shown: dict[str, tuple[str, str]] = {}  # oracle -> (card id, name) of the row
    pools: dict[str, dict[str, None]] = {}  # oracle -> the cards whose copies count for the row
    chosen: dict[str, list[int]] = {}
    for c in deck.cards:
        card_id = c.card_id
        cards = list(dict.fromkeys(oracle(i) for i in c.candidates)) or [oracle(card_id)]
        if len(cards) > 1:  # a bare name that several cards share: the one owned most is the row's
            held = {o: sum(owned.get(i, 0) for i in printings_of(o)) for o in cards}
            mine = oracle(c.card_id)
            best = max(cards, key=lambda o: (held[o], o == mine))
            if best != mine:
                card_id = next(i for i in c.candidates if oracle(i) == best)
                chosen.setdefault(best, []).append(c.line)
        key = oracle(card_id)
        need[key] = need.get(key, 0) + c.count
        shown.setdefault(key, (card_id, c.name))
        pools.setdefault(key, {}).update(dict.fromkeys(cards))  # copies of any of them fill the line
    rows = []
    for key, n in need.items():
        held_by = tuple((i, owned[i]) for o in pools[key] for i in printings_of(o) if owned.get(i, 0) > 0)
        card_id, name = shown[key]
        rows.append(HaveRow(card_id, name, n, sum(k for _i, k in held_by), held_by, tuple(chosen.get(key, ()))))
    return rows


def unmatched_lines(deck: Deck) -> list[Problem]:
    """The lines of a deck ``deck have`` cannot count (an unknown or ambiguous card): a list with
    any of them is never complete."""
    return [p for p in deck.problems if p.rule in ("unknown-card", "ambiguous-card")]


def have_json(rows: list[HaveRow], player: str, unmatched: Sequence[Problem] = ()) -> dict:
    """Return ``deck have`` as a JSON-ready dict: player, cards (id, name, need, own, missing, owned
    printings as ``{id: copies}``), totals, ``unmatched`` (the lines that name no one card, each
    with its line, rule and message) and ``complete`` (nothing missing and no unmatched line)."""
    return {
        "player": player,
        "cards": [
            {"id": r.card_id, "name": r.name, "need": r.need, "own": r.own, "missing": r.missing, "printings": dict(r.printings)}
            for r in rows
        ],
        "need": sum(r.need for r in rows),
        "missing": sum(r.missing for r in rows),
        "unmatched": [{"line": p.pos.line, "rule": p.rule, "message": p.message} for p in unmatched],
        "complete": all(r.missing == 0 for r in rows) and not unmatched,
    }
