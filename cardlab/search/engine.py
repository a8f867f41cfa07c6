"""Run queries against the index with plain ``sqlite3`` (no sqlmodel at search time).

Opening the index goes through :func:`open_index`, which rebuilds it first when the catalog
changed (:func:`cardlab.search.index.ensure_index`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from cardlab.core.errors import CardlabError
from cardlab.search.query import compile_sql, parse
from cardlab.core.text import fold, pick

SORTS = {
    "number": "s.release_date, c.set_code, c.number_int, c.number",
    "name": "c.name COLLATE NOCASE, c.set_code, c.number_int",
    "set": "c.set_code, c.number_int, c.number",
    "rarity": "c.rarity, c.set_code, c.number_int",
    "artist": "c.illustrator COLLATE NOCASE, c.set_code, c.number_int",
    "hp": "(SELECT MAX(num) FROM facet f WHERE f.card_id = c.id AND f.field = 'hp'), c.set_code, c.number_int",
}
"""Sort keys for ``--sort``: name -> SQL ORDER BY expression."""


@dataclass
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
    names: dict = field(default_factory=dict)
    type_line: str = ""
    stats: str = ""
    rarity: str | None = None

    def to_json(self) -> dict:
        """Return a JSON-ready dict of the hit."""
        return {"id": self.id, "game": self.game, "set": self.set_code, "number": self.number, "name": self.name,
                "names": self.names, "type": self.type_line, "stats": self.stats, "rarity": self.rarity}


class CardNotFoundError(CardlabError):
    """No card matches a card reference; ``suggestions`` lists close names."""

    def __init__(self, ref: str, suggestions: list[str]) -> None:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no card '{ref}'{hint}")
        self.suggestions = suggestions


class AmbiguousCardError(CardlabError):
    """Several cards match a card reference; ``choices`` lists them as ``(id, name, set code)``."""

    def __init__(self, ref: str, choices: list[tuple[str, str, str]]) -> None:
        lines = "\n".join(f"  {cid}  {name} ({code})" for cid, name, code in choices)
        super().__init__(f"'{ref}' names {len(choices)} cards; give an id:\n{lines}")
        self.choices = choices


def open_index(roots: list[Path], db: Path) -> sqlite3.Connection:
    """Return a read-only connection to a fresh index, (re)building it if the catalog changed.

    The policy (older index used when the catalog has problems or the index cannot be written) is
    :func:`cardlab.search.index.open_fresh`'s.

    Raises:
        CatalogError, IndexWriteError: the index cannot be rebuilt and there is no older one.
    """
    from cardlab.search.index import open_fresh

    return open_fresh(roots, db)[0]


def _names(con: sqlite3.Connection, ids: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {i: {} for i in ids}
    for chunk in range(0, len(ids), 900):
        part = ids[chunk:chunk + 900]
        marks = ",".join("?" * len(part))
        for cid, lang, name in con.execute(f"SELECT card_id, lang, name FROM card_name WHERE card_id IN ({marks})", part):
            out[cid][lang] = name
    return out


def search(con: sqlite3.Connection, query: str, *, langs: tuple[str, ...] | list[str] = (), sort: str = "number",
           reverse: bool = False, limit: int | None = None) -> list[Hit]:
    """Return the cards matching ``query``, sorted.

    Args:
        con: an index connection (:func:`open_index`).
        query: a query in the language of :mod:`cardlab.search.query`.
        langs: preferred languages for names, first first; the source language is the fallback.
        sort: a key of :data:`SORTS`; ``reverse`` reverses it.
        limit: the most hits to return, or None for all.

    Raises:
        QueryError: the query cannot be parsed (with the offending column).
        UsageError: unknown sort key.
    """
    from cardlab.core.errors import UsageError

    if sort not in SORTS:
        raise UsageError(f"unknown sort '{sort}'; choose one of: {', '.join(SORTS)}")
    where, params = compile_sql(parse(query))
    parts = SORTS[sort].split(", ")
    if reverse:
        parts = [f"{part} DESC" for part in parts]
    # cards without the sort value (Trainers have no HP) come last either way
    order = ", ".join([f"({SORTS[sort].split(', ')[0].split(' COLLATE')[0]}) IS NULL", *parts])
    sql = (f"SELECT c.id, c.game, c.set_code, c.number, c.name, c.source_language, c.type_line, c.stats, c.rarity"
           f" FROM card c LEFT JOIN card_set s ON s.code = c.set_code WHERE {where} ORDER BY {order}")
    if limit is not None:
        sql += " LIMIT ?"
        params = [*params, int(limit)]
    try:
        rows = con.execute(sql, params).fetchall()
    except sqlite3.OperationalError as err:
        raise UsageError(f"the query is too complex for the index ({err}); make it shorter") from None
    names = _names(con, [r[0] for r in rows])
    hits = []
    for cid, game, code, number, name, src, type_line, stats, rarity in rows:
        all_names = names.get(cid) or {src: name}
        shown = pick(all_names, langs, src) if langs else name
        hits.append(Hit(cid, game, code, number, shown, all_names, type_line, stats, rarity))
    return hits


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
    lines = ["  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.append(f"{len(hits)} card{'s' if len(hits) != 1 else ''}")
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

    @property
    def source_language(self) -> str:
        """The set's source language."""
        return self.set_data.get("source_language", "en")


def get_card(con: sqlite3.Connection, ref: str) -> CardView:
    """Find one card by id (``base1-4``, any case), by set code or alias and number (``BS 4``,
    ``base1 4``), or by its whole name in any language (``Dracaufeu``).

    Raises:
        AmbiguousCardError: the name belongs to several cards (choices listed).
        CardNotFoundError: nothing matches (close names suggested).
    """
    ref_s = ref.strip()
    row = con.execute("SELECT id FROM card WHERE lower(id) = lower(?)", (ref_s,)).fetchone()
    ids = [row[0]] if row else []
    if not ids:
        parts = ref_s.rsplit(None, 1)
        if len(parts) == 2:
            from cardlab.core.text import norm_value

            ids = [r[0] for r in con.execute(
                "SELECT c.id FROM card c JOIN facet f ON f.card_id = c.id AND f.field = 'set' AND f.text = ?"
                " WHERE c.number = ?", (norm_value(parts[0]), parts[1]))]
    if not ids:
        ids = [r[0] for r in con.execute("SELECT DISTINCT card_id FROM card_name WHERE folded = ?", (fold(ref_s),))]
    if not ids:
        from cardlab.core.fuzzy import suggest

        names = sorted({r[0] for r in con.execute("SELECT name FROM card_name")})
        raise CardNotFoundError(ref, suggest(ref_s, names))
    if len(ids) > 1:
        choices = [tuple(r) for r in con.execute(
            f"SELECT id, name, set_code FROM card WHERE id IN ({','.join('?' * len(ids))}) ORDER BY set_code, number_int", ids)]
        raise AmbiguousCardError(ref, choices)  # type: ignore[arg-type]
    cid, game, data, path, set_data = con.execute(
        "SELECT c.id, c.game, c.data, c.path, s.data FROM card c JOIN card_set s ON s.code = c.set_code WHERE c.id = ?",
        (ids[0],)).fetchone()
    return CardView(cid, game, json.loads(data), json.loads(set_data), path)
