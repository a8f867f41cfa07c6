"""Card lookup: one card by id (``base1-4``), by set code or alias and number (``BS 4``), or by its
whole name in any language (``Dracaufeu``, ``farfetchd``), with its printings; close names suggested
(:func:`cardlab.core.fuzzy.suggest`) when nothing matches."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cardlab.core.errors import CardlabError, UsageError
from cardlab.core.fuzzy import suggest
from cardlab.core.text import compact, fold, norm_value
from cardlab.index.sqlite import data_decoder
from cardlab.search.compile import dialect_of, order_terms
from cardlab.search.connection import snapshot
from cardlab.search.hits import CardView


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
    with snapshot(con):
        return _get_card(con, ref)


def _get_card(con: sqlite3.Connection, ref: str) -> CardView:
    """:func:`get_card` within its snapshot."""
    ref_s = ref.strip()
    if not ref_s:
        raise UsageError("no card given: name one by id (base1-4), set and number (BS 4) or name (Charizard)")
    row = con.execute("SELECT id FROM card WHERE lower(id) = lower(?)", (ref_s,)).fetchone()
    ids = [row[0]] if row else []
    if not ids:
        parts = ref_s.rsplit(None, 1)
        if len(parts) == 2:
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
                f" ORDER BY {', '.join(order_terms(['set_code', 'number_int'], False, dialect_of(con)))}",
                ids,
            )
        ]
        raise AmbiguousCardError(ref, choices)
    cid, game, data, name, set_path, set_data, oracle = con.execute(
        "SELECT c.id, c.game, c.data, c.path, s.path, s.data, c.oracle_id FROM card c JOIN card_set s ON s.code = c.set_code WHERE c.id = ?",
        (ids[0],),
    ).fetchone()
    path = str(Path(set_path).parent / name)
    card = data_decoder(con)(data)
    if cid != oracle:  # a printing shows the names it takes from the card it prints (the index's card_name rows)
        held = card.get("name") or {}
        card["name"] = {
            **held,
            **{lang: text for lang, text in con.execute("SELECT lang, name FROM card_name WHERE card_id = ?", (cid,)) if lang not in held},
        }
    evolves = _names_of(con, game, card["evolves_from"]) if isinstance(card.get("evolves_from"), str) else {}
    return CardView(cid, game, card, json.loads(set_data), path, _printings(con, oracle), evolves)


def _names_of(con: sqlite3.Connection, game: str, name: str) -> dict[str, str]:
    """Every name (language -> text) of the first card of ``game`` whose name in some language
    is ``name`` (folded): the card an evolution names by its English name."""
    row = con.execute(
        "SELECT n.card_id FROM card_name n JOIN card c ON c.id = n.card_id WHERE n.folded = ? AND c.game = ? ORDER BY c.id = c.oracle_id DESC, c.pos LIMIT 1",
        (fold(name), game),
    ).fetchone()
    if row is None:
        return {}
    return {lang: text for lang, text in con.execute("SELECT lang, name FROM card_name WHERE card_id = ?", (row[0],))}


def printings(con: sqlite3.Connection, card_id: str) -> list[tuple[str, str, str, str | None]]:
    """Return every printing of a card, whichever of them ``card_id`` is: the original first, then
    by set release date (the same list as :attr:`CardView.printings`).

    Returns:
        ``[(card id, set code, collector number, rarity), ...]``; just the card itself when it has one
        printing; empty for an unknown id.
    """
    with snapshot(con):
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
            + ", ".join(order_terms(["c.id != c.oracle_id", "s.release_date", "c.set_code", "c.number_int"], False, dialect_of(con))),
            (oracle,),
        )
    ]


def languages(con: sqlite3.Connection) -> list[str]:
    """Return the languages card names are known in (``["de", "en", "fr", ...]``), sorted."""
    return [r[0] for r in con.execute("SELECT DISTINCT lang FROM card_name ORDER BY lang")]
