"""``collection list`` and ``deck have``: a player's cards joined to the index or to a deck list."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import NamedTuple

from cardlab.core import words


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
    from cardlab.search.query import compile_sql, dialect_of, parse

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
    import csv
    import io

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
    """One card of a deck list against a collection: ``need`` copies in the list, ``own`` owned,
    ``missing`` = max(0, need - own)."""

    card_id: str
    name: str
    need: int
    own: int

    @property
    def missing(self) -> int:
        """Copies still to get."""
        return max(0, self.need - self.own)


def have(deck, owned: dict[str, int]) -> list[HaveRow]:  # noqa: ANN001 - cardlab.decks.model.Deck
    """Return, for each card of a matched deck (:class:`cardlab.decks.model.Deck`; the same card on
    several lines adds up), how many the list needs and the player owns, in list order."""
    need: dict[str, int] = {}
    names: dict[str, str] = {}
    for c in deck.cards:
        need[c.card_id] = need.get(c.card_id, 0) + c.count
        names.setdefault(c.card_id, c.name)
    return [HaveRow(cid, names[cid], n, owned.get(cid, 0)) for cid, n in need.items()]


def have_json(rows: list[HaveRow], player: str) -> dict:
    """Return ``deck have`` as a JSON-ready dict: player, cards (id, name, need, own, missing), totals."""
    return {
        "player": player,
        "cards": [{"id": r.card_id, "name": r.name, "need": r.need, "own": r.own, "missing": r.missing} for r in rows],
        "need": sum(r.need for r in rows),
        "missing": sum(r.missing for r in rows),
        "complete": all(r.missing == 0 for r in rows),
    }


def open_any_deck(path, roots, format_name: str | None = None, langs=()):  # noqa: ANN001, ANN201
    """Read a deck list of any game and match it: under ``format_name``, else the format the file
    names, else the format under which it has the fewest unknown cards
    (:func:`cardlab.decks.check.choose_format`). Returns the :class:`cardlab.decks.model.Deck`.

    Raises:
        InputError, UsageError: as :func:`cardlab.decks.check.choose_format`; CatalogError: the
            catalog's problems leave no format (other invalid catalog files are left out, as for
            every deck command, and kept in ``Deck.catalog_problems``).
    """
    from pathlib import Path

    from cardlab.decks.check import choose_format, header_words, with_catalog
    from cardlab.decks.read import read_deck

    def match(result, formats):  # noqa: ANN001, ANN202 - the catalog as deck commands read it
        deck, _problems, _notes = choose_format(read_deck(Path(path), header_words(formats)), result.catalog, formats, format_name, langs)
        deck.catalog_problems = list(result.problems)
        return deck

    return with_catalog(list(roots), match)
