"""The forum TCG of seed 002 (``../shared/seeds/002``, French): a collection game run on a forum,
whose cards carry a **Value** (an integer) and a **faction**; four mini-games are played with them
(``cardlab.play``). Game code ``forumtcg``: the seed names the game only "le TCG" of a forum, so the
code says just that. The card shape is ``schema/forumtcg.card.schema.json``; source language French.

Factions (seed 002, "Doll House", "Principe"): each card shows its faction's symbol at the bottom.
They are data (:data:`FACTIONS`): code, printed name, symbol, and whether it is one of the four
factions a Doll House needs (the Independents, a cross, are not).

Search fields (``facets``), one ``(field, folded text, number)`` row per value:

- ``value``: the card's Value, as a number and as text (``value>=4``, ``value=3``);
- ``faction``: the faction code (``gotei-13``), its name (``gotei 13``), its symbol in English and
  French (``lozenge``/``losange``...): ``faction:triangle`` finds Ultima Necat cards;
- ``rarity`` is the common field (the set manifest lists the set's rarities, commonest first).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.text import fold, pick
from cardlab.games.base import CardSource, DetailRow, FieldSpec, Problem, Span, row

if TYPE_CHECKING:
    from cardlab.games.figures import Counted, DeckFigures

TITLE = "forum TCG"
"""The game's name as people write it: the seed names it only "le TCG" of a forum."""

FIELDS: dict[str, FieldSpec] = {
    "value": FieldSpec("num", "the card's Value (value>=4)"),
    "faction": FieldSpec("facet", "faction code, name or symbol (faction:gotei-13, faction:lozenge, faction:skull)"),
}
"""The query fields of forum TCG cards (the module docstring lists their rows)."""

OPENING_HAND = 7
"""No opening hand in seed 002 (the mini-games deal their own); the default of deck tools."""

DECK_KINDS: tuple[str, tuple[str, ...]] | None = None
"""No deck statistics: the forum TCG's mini-games are played from collections (``cardlab.play``)."""

FACTIONS: dict[str, dict[str, Any]] = {
    "gotei-13": {"name": "Gotei 13", "symbol": "lozenge", "symbol_fr": "losange", "glyph": "◆", "faction": True},
    "acuerdo": {"name": "Acuerdo", "symbol": "circle", "symbol_fr": "cercle", "glyph": "●", "faction": True},
    "ultima-necat": {"name": "Ultima Necat", "symbol": "triangle", "symbol_fr": "triangle", "glyph": "▲", "faction": True},
    "neutral": {"name": "Neutre", "symbol": "skull", "symbol_fr": "crâne", "glyph": "☠", "faction": True},
    "independent": {"name": "Indépendants", "symbol": "cross", "symbol_fr": "croix", "glyph": "✚", "faction": False},
}
"""Faction code -> printed name, symbol (English, French), a glyph for text output, and ``faction``:
True for the four factions of seed 002 "Doll House" (Gotei 13 = lozenge, Acuerdo = circle, Ultima
Necat = triangle, neutral = skull); the Independents (cross) are not one of them."""

FOUR_FACTIONS = tuple(code for code, f in FACTIONS.items() if f["faction"])
"""The four factions a Doll House needs (seed 002 "Doll House")."""

COMMON = "Commune"
"""The rarity of the cards of the draw pool (seed 002 "Los Lobos": "cartes Communes")."""

Row = tuple[str, str | None, float | None]


def faction_words(code: str) -> list[str]:
    """Return the folded words ``faction:`` matches for a faction code: code, name, both symbols."""
    info = FACTIONS.get(code)
    if info is None:
        return [fold(code)]
    return list(dict.fromkeys([code, fold(info["name"]), info["symbol"], fold(info["symbol_fr"])]))


def facets(card: dict) -> Iterator[Row]:
    """Yield ``value`` (number) and ``faction`` rows (code, name and symbol names; see the module
    docstring). Missing or malformed fields give no rows (validation reports them)."""
    value = card.get("value")
    if isinstance(value, int) and not isinstance(value, bool):
        yield "value", str(value), float(value)
    if isinstance(card.get("faction"), str):
        for word in faction_words(card["faction"]):
            yield "faction", word, None


def faction_label(code: str | None, glyph: bool = True) -> str:
    """Return ``◆ Gotei 13`` for a faction code (``?`` when unknown)."""
    info = FACTIONS.get(code or "")
    if info is None:
        return "?"
    return f"{info['glyph']} {info['name']}" if glyph else info["name"]


def type_line(card: dict, langs: Sequence[str] = ()) -> str:
    """Return the faction with its symbol, e.g. ``◆ Gotei 13``."""
    return faction_label(card.get("faction"))


def rarity(card: dict) -> tuple[str, int] | None:
    """None: the common ``rarity`` field is the card's rarity (:meth:`cardlab.games.base.Game.rarity`)."""
    return None


def key_stats(card: dict) -> str:
    """Return ``Value 3`` (short stats for a search table row)."""
    return f"Value {card.get('value', '?')}"


def details(card: dict, langs: Sequence[str] = (), source: str = "fr") -> list[DetailRow]:
    """Return the labelled lines of ``cardlab show`` and the web card page: Value (bold), faction
    (with its glyph and symbol name), flavour (italics)."""
    code = card.get("faction")
    info = FACTIONS.get(code or "")
    lines = [
        row("Value", Span(str(card.get("value", "?")), "bold")),
        row("Faction", f"{faction_label(code)} ({info['symbol']})" if info else "?"),
    ]
    if card.get("flavor"):
        lines.append(row("Flavor", Span(pick(card["flavor"], list(langs), source), "italic")))
    return lines


def check(catalog: CardSource) -> Iterator[Problem]:
    """Cross-file rules: none (``cardlab validate`` sees card summaries only). That a card's rarity
    is one of its set manifest's ``rarities`` is checked where cards are made: ``cardlab import csv``.

    Yields:
        ``(card id, data path, message, rule)``; nothing today.
    """
    return iter(())


SKELETON_KINDS = ("card",)
"""``cardlab card new --kind`` for forum TCG cards: one kind."""


def skeleton(kind: str, source: str = "fr") -> str:
    """Return the forum-TCG-specific YAML lines of a new card (Value, faction, flavour)."""
    return (
        "value: null  # the card's Value, a whole number\n"
        "faction: null  # gotei-13 (lozenge) | acuerdo (circle) | ultima-necat (triangle) | neutral (skull) | independent (cross)\n"
        f'# flavor: {{{source}: ""}}  # optional\n'
    )


def deck_figures(figures: DeckFigures, cards: Sequence[Counted], need: Sequence[str]) -> None:
    """No deck statistics for the forum TCG (:data:`DECK_KINDS` is None).

    Raises:
        ValueError: always.
    """
    raise ValueError("no statistics for the game forumtcg")


if TYPE_CHECKING:  # mypy holds this module to the Game protocol (nothing runs)
    from cardlab.games import forumtcg as _this
    from cardlab.games.base import Game

    _CONTRACT: Game = _this
