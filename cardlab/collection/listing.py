"""``collection list`` and ``deck have``: a player's cards joined to the index or to a deck list."""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cardlab.core import words
from cardlab.search.query import compile_sql, dialect_of, parse

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


def list_owned(index: sqlite3.Connection, owned: dict[str, int], query: str | None = None) -> list[OwnedRow]:
    """Return the owned cards matching ``query`` (the search language; None or empty: all), sorted by
    set and collector number; ids unknown to the index come last, only when there is no query.

    Args:
        index: a search index connection (:func:`cardlab.search.engine.open_index`);
        owned: ``card id -> count`` (:func:`cardlab.collection.owned.counts`).

    Raises:
        QueryError: a bad query (exit 2).
    """

    where, params = compile_sql(parse(query) if query and query.strip() else None, dialect=dialect_of(index))
    sql = (
        "SELECT c.id, c.name, c.set_code, c.number, c.game, c.type_line, c.stats FROM card c"
        f" LEFT JOIN card_set s ON s.code = c.set_code WHERE {where}"
        " ORDER BY "
        + ", ".join(
            f"{k} NULLS FIRST" if dialect_of(index) != "sqlite" else k
            for k in ("c.game", "s.release_date", "c.set_code", "c.number_int", "c.number")
        )
    )
    rows = [
        OwnedRow(cid, owned[cid], name, code, number, game, type_line or "", stats or "")
        for cid, name, code, number, game, type_line, stats in index.execute(sql, params)
        if cid in owned
    ]
    if not (query and query.strip()) and len(rows) < len(owned):
        seen = {r.card_id for r in rows}
        rows.extend(OwnedRow(cid, n, known=False) for cid, n in sorted(owned.items()) if cid not in seen)
    return rows


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
    table = [("Count", "Id", "Name", "Type", "Stats")] + [
        (str(r.copies), r.card_id, r.name if r.known else "(not in the catalog)", r.type_line, r.stats) for r in rows
    ]
    widths = [max(map(len, column)) for column in zip(*table, strict=True)]
    line = f"{{:>{widths[0]}}}  {{:<{widths[1]}}}  {{:<{widths[2]}}}  {{:<{widths[3]}}}  {{}}"
    lines = [line.format(*t).rstrip() for t in table]
    total = sum(r.copies for r in rows)
    lines.append(f"{words.count(len(rows), 'card')}, {words.count(total, 'copy', 'copies')}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class HaveRow:
    """One card of a deck list against a collection: ``need`` copies in the list, ``own`` owned
    (every printing of the card counts: a reprint, the holo and the plain one), ``missing`` =
    max(0, need - own); ``printings`` the owned copies by printing (card id -> copies, only
    those owned)."""

    card_id: str
    name: str
    need: int
    own: int
    printings: tuple[tuple[str, int], ...] = ()

    @property
    def missing(self) -> int:
        """Copies still to get."""
        return max(0, self.need - self.own)


def have(deck: Deck, owned: dict[str, int], catalog: Catalog | None = None) -> list[HaveRow]:
    """Return, for each card of a matched deck (:class:`cardlab.decks.model.Deck`; the same card on
    several lines adds up), how many the list needs and the player owns, in list order.

    A card is owned in any of its printings (issue 27): for a line that names a card by name
    alone, each of its candidates (the printings the format allows, :attr:`DeckCard.candidates`),
    and the player's collection decides among different candidate cards (the one owned most is
    the line's card; the deck's assumption on a tie); for a line that names its printing, every
    printing of that card (:meth:`cardlab.catalog.model.Catalog.oracle_of`: a reprint, the holo
    and the plain one).

    Args:
        deck: a matched deck; owned: card id -> copies the player owns.
        catalog: the catalog the deck was matched against (None: each printing alone counts).

    Returns:
        One :class:`HaveRow` per card of the deck (keyed by the card chosen), in list order.
    """
    oracle = catalog.oracle_of if catalog is not None else (lambda i: i)
    wanted = {oracle(c.card_id) for c in deck.cards if not c.candidates}
    printings: dict[str, list[str]] = {}
    if catalog is not None and wanted:
        for i in catalog.by_print_order(i for i in catalog.cards if oracle(i) in wanted):
            printings.setdefault(oracle(i), []).append(i)
    need: dict[str, int] = {}
    names: dict[str, str] = {}
    where: dict[str, tuple[str, ...]] = {}
    for c in deck.cards:
        if c.candidates:  # the different cards among the candidates, each with its printings
            by_card: dict[str, list[str]] = {}
            for i in c.candidates:
                by_card.setdefault(oracle(i), []).append(i)
            best = max(by_card.values(), key=lambda ids: (sum(owned.get(i, 0) for i in ids), c.card_id in ids))
            card_id = c.card_id if c.card_id in best else best[0]
            choice = tuple(best)
        else:
            card_id = c.card_id
            choice = tuple(printings.get(oracle(card_id), [card_id]))
        need[card_id] = need.get(card_id, 0) + c.count
        names.setdefault(card_id, c.name)
        where[card_id] = tuple(dict.fromkeys((*where.get(card_id, ()), *choice)))
    rows = []
    for cid, n in need.items():
        held = tuple((i, owned[i]) for i in where[cid] if owned.get(i, 0) > 0)
        rows.append(HaveRow(cid, names[cid], n, sum(k for _i, k in held), held))
    return rows


def have_json(rows: list[HaveRow], player: str) -> dict:
    """Return ``deck have`` as a JSON-ready dict: player, cards (id, name, need, own, missing, owned
    printings as ``{id: copies}``), totals."""
    return {
        "player": player,
        "cards": [
            {"id": r.card_id, "name": r.name, "need": r.need, "own": r.own, "missing": r.missing, "printings": dict(r.printings)}
            for r in rows
        ],
        "need": sum(r.need for r in rows),
        "missing": sum(r.missing for r in rows),
        "complete": all(r.missing == 0 for r in rows),
    }
