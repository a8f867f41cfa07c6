"""Card lookup: one card by id (``base1-4``), by set code or alias and number (``BS 4``), or by its
whole name in any language (``Dracaufeu``, ``farfetchd``), with its printings; close names suggested
(:func:`cardlab.core.fuzzy.suggest`) when nothing matches. Scryfall's lookups too: a card by name,
exact or fuzzy (:func:`card_named`), by set and collector number (:func:`card_by_number`), and the
names that start with what is typed (:func:`autocomplete`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from cardlab.core.errors import CardlabError, UsageError
from cardlab.core.fuzzy import best_match, suggest
from cardlab.core.l10n import _
from cardlab.core.text import clip, compact, fold, norm_value
from cardlab.index.sqlite import data_decoder
from cardlab.search.compile import dialect_of, order_terms
from cardlab.search.connection import snapshot
from cardlab.search.hits import CardView


class CardNotFoundError(CardlabError):
    """No card matches a card reference; ``suggestions`` lists close names; ``reason`` is the
    message without them (a page shows them as links)."""

    def __init__(self, ref: str, suggestions: list[str]) -> None:
        self.reason = _("no card '{ref}'").format(ref=clip(ref))
        hint = _("; did you mean: {names}?").format(names=", ".join(suggestions)) if suggestions else ""
        super().__init__(self.reason + hint)
        self.suggestions = suggestions


class SetNotFoundError(CardlabError):
    """No set has the code or alias given; ``suggestions`` lists close codes; ``reason`` is the
    message without them."""

    def __init__(self, ref: str, suggestions: list[str]) -> None:
        self.reason = _("no set '{ref}'").format(ref=clip(ref))
        hint = _("; did you mean: {names}?").format(names=", ".join(suggestions)) if suggestions else ""
        super().__init__(self.reason + hint)
        self.suggestions = suggestions


class AmbiguousCardError(CardlabError):
    """Several cards match a card reference; ``choices`` lists them as ``(id, name, set code)``."""

    def __init__(self, ref: str, choices: list[tuple[str, str, str]]) -> None:
        lines = "\n".join(f"  {cid}  {name} ({code})" for cid, name, code in choices)
        super().__init__(f"'{ref}' names {len(choices)} cards; give an id:\n{lines}")
        self.choices = choices


def get_card(con: sqlite3.Connection, ref: str, printing: Callable[[str], str | None] | None = None) -> CardView:
    """Find one card by id (``base1-4``, any case), by set code or alias and number (``BS 4``,
    ``base1 4``), or by its whole name in any language (``Dracaufeu``). A name shared by the
    printings of one card only (an original and its reprints) gives the original. The view lists
    every printing (:attr:`CardView.printings`).

    ``printing`` reads the references none of these match: the deck-line resolver
    (:func:`cardlab.decks.resolve.printing_named`), which knows a name with its printing
    (``Charizard BS 4``, ``Charizard 4/102``); it answers a card id or None.

    Raises:
        AmbiguousCardError: the name belongs to several cards (choices listed).
        CardNotFoundError: nothing matches (close names suggested).
        UsageError: an empty or blank reference (exit 2).
    """
    with snapshot(con):
        return _get_card(con, ref, printing)


def _get_card(con: sqlite3.Connection, ref: str, printing: Callable[[str], str | None] | None = None) -> CardView:
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
    if not ids and printing is not None:  # Charizard BS 4, Charizard 4/102: as a deck line names it
        found = printing(ref_s)
        ids = [found] if found else []
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
        raise _ambiguous(con, ref, ids)
    return _view(con, ids[0])


def _ambiguous(con: sqlite3.Connection, ref: str, ids: list[str]) -> AmbiguousCardError:
    """The error of a reference naming the cards ``ids``: each as (id, name, set code), in set
    and number order."""
    choices = [
        tuple(r)
        for r in con.execute(
            f"SELECT id, name, set_code FROM card WHERE id IN ({','.join('?' * len(ids))})"
            f" ORDER BY {', '.join(order_terms(['set_code', 'number_int'], False, dialect_of(con)))}",
            ids,
        )
    ]
    return AmbiguousCardError(ref, choices)


def _view(con: sqlite3.Connection, card_id: str) -> CardView:
    """The :class:`CardView` of a card id the index holds."""
    cid, game, data, name, set_path, set_data, oracle = con.execute(
        "SELECT c.id, c.game, c.data, c.path, s.path, s.data, c.oracle_id FROM card c JOIN card_set s ON s.code = c.set_code WHERE c.id = ?",
        (card_id,),
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
        "SELECT n.card_id FROM card_name n JOIN card c ON c.id = n.card_id WHERE n.folded = ? AND c.game = ? ORDER BY c.id = c.oracle_id DESC, c.rowid LIMIT 1",
        (fold(name), game),
    ).fetchone()
    if row is None:
        return {}
    return {lang: text for lang, text in con.execute("SELECT lang, name FROM card_name WHERE card_id = ?", (row[0],))}


def card_named(con: sqlite3.Connection, name: str, *, fuzzy: bool = False, set_ref: str | None = None) -> CardView:
    """Find one card by name, as Scryfall's ``/cards/named`` does: the whole name in any language,
    case, accents and punctuation aside (:func:`cardlab.core.text.fold`); several printings of one
    card give the first printing (the original, or the first in ``set_ref``'s set).

    Args:
        con: an index connection.
        name: the name typed.
        fuzzy: also take a name typed without spaces (``farfetchd``), the words' beginnings
            (``dark char`` for Dark Charizard, when only one name starts so), or the one name
            closest to it (:func:`cardlab.core.fuzzy.best_match`: ``charzard``).
        set_ref: a set code or alias (``BS``, ``base2``) the card must be printed in, or None.

    Raises:
        AmbiguousCardError: the name belongs to several cards (Pikachu), or (fuzzy) its beginning
            starts several names; ``choices`` gives each card's first printing.
        CardNotFoundError: no card has the name (in that set); ``suggestions`` are close names.
        SetNotFoundError: ``set_ref`` names no set.
        UsageError: an empty or blank name.
    """
    with snapshot(con):
        text = name.strip()
        if not text:
            raise UsageError("no name given: name a card as it is printed (Charizard, Dracaufeu)")
        codes = _set_codes(con, set_ref) if set_ref is not None else None
        ids = [r[0] for r in con.execute("SELECT DISTINCT card_id FROM card_name WHERE folded = ?", (fold(text),))]
        if not ids and fuzzy:
            ids = _fuzzy_ids(con, text)
        if codes is not None and ids:
            marks = ",".join("?" * len(ids))
            ids = [
                r[0]
                for r in con.execute(
                    f"SELECT id FROM card WHERE id IN ({marks}) AND set_code IN ({','.join('?' * len(codes))})", [*ids, *codes]
                )
            ]
        if not ids:
            where = f" in set '{set_ref}'" if set_ref is not None else ""
            names = sorted({r[0] for r in con.execute("SELECT name FROM card_name")})
            raise CardNotFoundError(text + where, suggest(text, names))
        return _view(con, _first_printing(con, text, ids, codes is not None))


def _fuzzy_ids(con: sqlite3.Connection, text: str) -> list[str]:
    """The card ids :func:`card_named` finds for a fuzzy name no card has exactly: the name typed
    without spaces, or the one name whose words start with the words typed, or the one closest name.

    Raises:
        AmbiguousCardError: the words typed start several names.
    """
    if compact(text):
        ids = [r[0] for r in con.execute("SELECT DISTINCT card_id FROM card_name WHERE compact = ?", (compact(text),))]
        if ids:
            return ids
    words = fold(text).split()
    if not words:
        return []
    # names with a word starting with the first word typed (an indexed range and one LIKE scan in SQL)
    rows = con.execute(
        "SELECT folded, card_id FROM card_name WHERE (folded >= ? AND folded < ?) OR folded LIKE ? ESCAPE '\\'",
        (words[0], words[0] + "\U0010ffff", _word_start(words[0])),
    ).fetchall()
    starting: dict[str, str] = {}
    for folded, card_id in rows:
        have = folded.split()
        if len(words) <= len(have) and all(any(h.startswith(w) for h in have) for w in words):
            starting.setdefault(folded, card_id)
    if len(starting) > 1:
        firsts = sorted(set(starting.values()))
        choices = [
            tuple(r)
            for r in con.execute(
                f"SELECT id, name, set_code FROM card WHERE id IN ({','.join('?' * len(firsts))}) ORDER BY name, id", firsts
            )
        ]
        raise AmbiguousCardError(text, choices)
    chosen = next(iter(starting), None)
    if chosen is None:
        chosen = best_match(text, (r[0] for r in con.execute("SELECT DISTINCT folded FROM card_name")), folded=True)
    if chosen is None:
        return []
    return [r[0] for r in con.execute("SELECT DISTINCT card_id FROM card_name WHERE folded = ? ORDER BY card_id", (chosen,))]


def _word_start(key: str) -> str:
    """A LIKE pattern for folded names with a word (after a space) that starts with ``key``, its
    ``%``, ``_`` and ``\\`` escaped (``ESCAPE '\\'``)."""
    return "% " + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _first_printing(con: sqlite3.Connection, ref: str, ids: list[str], narrowed: bool) -> str:
    """The card ``ids`` (cards of one name) stand for: their one card's first printing
    (:func:`_printings` order), or with ``narrowed`` (the ids are one set's) the first of the ids.

    Raises:
        AmbiguousCardError: the ids are printings of several cards (one choice per card).
    """
    marks = ",".join("?" * len(ids))
    oracles = sorted({r[0] for r in con.execute(f"SELECT DISTINCT oracle_id FROM card WHERE id IN ({marks})", ids)})
    if len(oracles) > 1:
        firsts = [next(p[0] for p in _printings(con, o) if p[0] in ids) for o in oracles]
        raise _ambiguous(con, ref, firsts)
    printed = _printings(con, oracles[0])
    return next(p[0] for p in printed if p[0] in ids or not narrowed)


def _set_codes(con: sqlite3.Connection, set_ref: str) -> list[str]:
    """The set codes a set code or alias names (``BS`` -> ``["base1"]``), as ``set:`` reads it.

    Raises:
        SetNotFoundError: no set has that code or alias (close ones suggested).
    """
    codes = [r[0] for r in con.execute("SELECT code FROM set_key WHERE key = ? ORDER BY code", (norm_value(set_ref),))]
    if not codes:
        raise SetNotFoundError(set_ref, suggest(set_ref, sorted({r[0] for r in con.execute("SELECT code FROM card_set")})))
    return codes


def card_by_number(con: sqlite3.Connection, set_ref: str, number: str) -> CardView:
    """Find the card with collector number ``number`` in the set ``set_ref`` names (a code or alias:
    ``base1``, ``BS``), as Scryfall's ``/cards/:code/:number``; ``4/102`` (the number as printed,
    over the set's total) is ``4``.

    Raises:
        SetNotFoundError: no such set. CardNotFoundError: no card of that number in it.
        AmbiguousCardError: the code names several sets, each with that number.
    """
    with snapshot(con):
        codes = _set_codes(con, set_ref)
        wanted = number.strip()
        marks = ",".join("?" * len(codes))
        ids = [r[0] for r in con.execute(f"SELECT id FROM card WHERE set_code IN ({marks}) AND number = ? ORDER BY id", [*codes, wanted])]
        if not ids and "/" in wanted:
            wanted = wanted.split("/", 1)[0].strip()
            ids = [
                r[0] for r in con.execute(f"SELECT id FROM card WHERE set_code IN ({marks}) AND number = ? ORDER BY id", [*codes, wanted])
            ]
        if not ids:
            raise CardNotFoundError(f"{set_ref} {number}", [])
        if len(ids) > 1:
            choices = [
                tuple(r)
                for r in con.execute(f"SELECT id, name, set_code FROM card WHERE id IN ({','.join('?' * len(ids))}) ORDER BY id", ids)
            ]
            raise AmbiguousCardError(f"{set_ref} {number}", choices)
        return _view(con, ids[0])


AUTOCOMPLETE_LIMIT = 20
"""Most names :func:`autocomplete` returns (Scryfall's catalog of names gives 20)."""


def autocomplete(con: sqlite3.Connection, text: str, limit: int = AUTOCOMPLETE_LIMIT) -> list[str]:
    """Return up to ``limit`` card names (any language, each once, compared folded) for what is
    typed so far, as Scryfall's ``/cards/autocomplete``: the names that start with it first, then
    those with a word that starts with it, each group in folded order; nothing for under 2 letters.

    Args:
        con: an index connection; text: what is typed; limit: most names (at least 1).
    """
    key = fold(text).strip()
    if len(key) < 2:
        return []
    with snapshot(con):
        found: dict[str, str] = {}
        for folded, shown in con.execute(
            "SELECT folded, name FROM card_name WHERE folded >= ? AND folded < ? ORDER BY folded, lang", (key, key + "\U0010ffff")
        ):
            found.setdefault(folded, shown)
            if len(found) >= limit:
                return list(found.values())
        for folded, shown in con.execute(
            "SELECT folded, name FROM card_name WHERE folded LIKE ? ESCAPE '\\' ORDER BY folded, lang", (_word_start(key),)
        ):
            found.setdefault(folded, shown)
            if len(found) >= limit:
                break
        return list(found.values())


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
