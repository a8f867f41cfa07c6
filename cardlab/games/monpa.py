"""Monpa OCG (a French fan game in beta): searchable fields and display of its cards.

The facts come from one rule text, seed 004 (``../shared/seeds``): card types, elements, mana
costs (none for commanders and favors, which differs from 0), attack/defense, the special effects
Rapide, upkeep cost (coût d'entretien) and Prédiction N, the symbols {T}, {X} and ``?``, tokens.
The card shape is ``schema/monpa.card.schema.json``; the source language is French.

Search fields (``facets``), one ``(field, folded text, number)`` row per value:

===========  =======================================================================================
field        rows
===========  =======================================================================================
``type``     the type code (``commander``, ``favor``, ``charm``, ``servant``, ``spell``) and its
             French name (``commandant``, ``faveur``, ``charme``, ``serviteur``, ``sort``).
``element``  the element as written on the card, folded (``feu``). The rules list no elements, so
             any non-empty text is accepted; the test fixtures use ``air``, ``eau``, ``feu``,
             ``ombre`` and ``terre``.
``mana``     mana cost as a number; ``X`` gives the text ``x`` and ``?`` the text ``?`` with no
             number; commanders and favors (no mana cost) give no row, so ``mana=0`` skips them.
``atk``      a servant's attack (number); ``?`` gives the text ``?`` and no number.
``def``      a servant's defense, likewise.
``kw``       one row per special effect: ``rapide`` (alias ``fast``), ``upkeep`` (alias
             ``entretien``), ``prediction`` (``num`` = N).
===========  =======================================================================================

Numbers are given both as ``num`` and as text (``"3"``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.text import fold, pick
from cardlab.games.base import CardSource, DetailRow, FieldSpec, Problem, Span, row

if TYPE_CHECKING:
    from cardlab.games.figures import Counted, DeckFigures

TITLE = "Monpa"
"""The game's name as people write it."""

FIELDS: dict[str, FieldSpec] = {
    "element": FieldSpec("facet", "element", closed=True),
    "mana": FieldSpec("num", "mana cost (commanders and favors have none); mana:x for X"),
    "atk": FieldSpec("num", "a servant's attack; atk:? for ?"),
    "type": FieldSpec("facet", "card type (type:servant, type:serviteur)", closed=True),
    "def": FieldSpec("num", "a servant's defense"),
    "kw": FieldSpec("facet", "rapide, upkeep, prediction", closed=True, lead="keyword"),
}
"""The query fields of Monpa cards (the module docstring lists their rows)."""

OPENING_HAND = 5
"""Seed 004: five cards in the opening hand."""

DECK_KINDS: tuple[str, tuple[str, ...]] | None = ("type", ("charm", "servant", "spell"))
"""The card field and the kinds ``deck stats --need`` names: the schema's types but commander and
favor, which sit in their own sections, never in the main deck."""

TYPES: dict[str, dict[str, str]] = {
    "commander": {"fr": "Commandant", "en": "Commander"},
    "favor": {"fr": "Faveur", "en": "Favor"},
    "charm": {"fr": "Charme", "en": "Charm"},
    "servant": {"fr": "Serviteur", "en": "Servant"},
    "spell": {"fr": "Sort", "en": "Spell"},
}
"""Card types (seed 004 'Les cartes')."""

KEYWORDS: dict[str, dict[str, str]] = {
    "rapide": {"fr": "Rapide", "en": "Fast"},
    "upkeep": {"fr": "Coût d'entretien", "en": "Upkeep cost"},
    "prediction": {"fr": "Prédiction", "en": "Prediction"},
}
"""The three special effects (seed 004 'Effets spéciaux')."""

KW_ALIASES = {"rapide": ("rapide", "fast"), "upkeep": ("upkeep", "entretien"), "prediction": ("prediction",)}
NO_MANA_TYPES = ("commander", "favor")
"""Types without a mana cost (seed 004 'Précisions': not the same as a cost of 0)."""

Row = tuple[str, str | None, float | None]


# --- search ----------------------------------------------------------------------------------


def _value(field: str, value: Any) -> Iterator[Row]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield field, str(value), float(value)
    elif isinstance(value, str):
        yield field, fold(value), None


def facets(card: dict) -> Iterator[Row]:
    """Yield the card's searchable values as ``(field, folded text or None, number or None)``.

    Fields and their rows are listed in the module docstring. Missing or malformed fields give no
    rows (validation reports them).
    """
    kind = card.get("type")
    if kind in TYPES:
        yield "type", kind, None
        yield "type", fold(TYPES[kind]["fr"]), None
    if isinstance(card.get("element"), str):
        yield "element", fold(card["element"]), None
    if kind not in NO_MANA_TYPES:
        yield from _value("mana", card.get("mana"))
    yield from _value("atk", card.get("attack"))
    yield from _value("def", card.get("defense"))
    seen: set[tuple[str, int | None]] = set()
    for effect in card.get("effects") or []:
        kw = effect.get("keyword") if isinstance(effect, dict) else None
        if kw not in KW_ALIASES:
            continue
        n = effect.get("n") if kw == "prediction" and isinstance(effect.get("n"), int) else None
        for alias in KW_ALIASES[kw]:
            if (alias, n) not in seen:
                seen.add((alias, n))
                yield "kw", alias, float(n) if n is not None else None


# --- display ---------------------------------------------------------------------------------


def _label(labels: dict[str, str], langs: Sequence[str]) -> str:
    return pick(labels, list(langs), "fr")


def mana_symbol(value: Any) -> str:
    """Return a mana cost as printed in the rules' notation: ``{3}``, ``{X}``, ``{?}``."""
    return "{" + str(value) + "}"


def stat(value: Any) -> str:
    """Return an attack or defense as printed: ``3`` or ``?``."""
    return "?" if value is None else str(value)


def cost_text(cost: dict | None, langs: Sequence[str] = (), source: str = "fr") -> str:
    """Render an effect's cost: ``{T}, {X}, <other cost in words>`` (``""`` for no cost).

    Args:
        cost: ``{tap: bool, mana: int | "X" | "?", other: localized}`` (keys may be absent).
    """
    if not isinstance(cost, dict):
        return ""
    parts = []
    if cost.get("tap"):
        parts.append("{T}")
    if "mana" in cost:
        parts.append(mana_symbol(cost["mana"]))
    if cost.get("other"):
        parts.append(pick(cost["other"], list(langs), source))
    return ", ".join(parts)


def effect_text(effect: dict, langs: Sequence[str] = (), source: str = "fr") -> str:
    """Render one effect as plain text: ``Rapide``, ``Prédiction 2``, ``Coût d'entretien : {1}``,
    ``{T}, {1} : <text>`` (labels in the first of ``langs`` among fr/en, else French)."""
    head = ""
    kw = effect.get("keyword")
    if kw in KEYWORDS:
        head = _label(KEYWORDS[kw], langs)
        if kw == "prediction":
            head += f" {effect.get('n', '?')}"
    cost = cost_text(effect.get("cost"), langs, source)
    text = pick(effect.get("text"), list(langs), source) if effect.get("text") else ""
    if kw == "upkeep":
        return f"{head} : {cost}" + (f". {text}" if text else "")
    body = f"{cost} : {text}" if cost else text
    return " · ".join(p for p in (head, body) if p)


def type_line(card: dict, langs: Sequence[str] = ()) -> str:
    """Return e.g. ``Serviteur · feu`` (type in the first of ``langs`` among fr/en, else French)."""
    kind = card.get("type")
    label = _label(TYPES[kind], langs) if kind in TYPES else "?"
    return f"{label} · {card['element']}" if card.get("element") else label


def rarity(card: dict) -> tuple[str, int] | None:
    """None: the common ``rarity`` field is the card's rarity (:meth:`cardlab.games.base.Game.rarity`)."""
    return None


def key_stats(card: dict) -> str:
    """Return short plain stats for a search table: ``{3} · 3/2``, ``{X}``, ``no cost``."""
    parts = []
    if card.get("type") in NO_MANA_TYPES or "mana" not in card:
        parts.append("no cost")
    else:
        parts.append(mana_symbol(card["mana"]))
    if card.get("type") == "servant":
        parts.append(f"{stat(card.get('attack'))}/{stat(card.get('defense'))}")
    return " · ".join(parts)


def details(card: dict, langs: Sequence[str] = (), source: str = "fr") -> list[DetailRow]:
    """Return the labelled lines of ``cardlab show`` and the web card page: type (bold), element,
    mana, attack/defense, effects (a keyword alone in italics), tokens, flavour (italics).

    Commanders and favors show ``no mana cost`` (dim; seed 004: this is not a cost of 0).
    """
    kind = card.get("type")
    lines = [row("Type", Span(_label(TYPES[kind], langs), "bold") if kind in TYPES else "?")]
    if card.get("element"):
        lines.append(row("Element", str(card["element"])))
    if kind in NO_MANA_TYPES:
        lines.append(row("Mana", Span("no mana cost", "dim")))
    elif "mana" in card:
        lines.append(row("Mana", mana_symbol(card["mana"])))
    if kind == "servant":
        lines.append(row("Attack / defense", f"{stat(card.get('attack'))}/{stat(card.get('defense'))}"))
    effects = [e for e in card.get("effects") or [] if isinstance(e, dict)]
    for i, effect in enumerate(effects, 1):
        label = f"Effect {i}" if len(effects) > 1 else "Effect"
        text = effect_text(effect, langs, source)
        lines.append(row(label, Span(text, "italic") if effect.get("keyword") and not effect.get("text") else text))
    for token in card.get("tokens") or []:
        if isinstance(token, dict):
            stats = f" {stat(token.get('attack'))}/{stat(token.get('defense'))}" if token.get("type") == "servant" else ""
            desc = f"{pick(token.get('name'), list(langs), source)} ({_label(TYPES.get(str(token.get('type')), {'fr': '?'}), langs)}{stats}, {{0}})"
            lines.append(row("Token", desc))
    if card.get("flavor"):
        lines.append(row("Flavor", Span(pick(card["flavor"], list(langs), source), "italic")))
    return lines


# --- cross-file rules ------------------------------------------------------------------------


def check(catalog: CardSource) -> Iterator[Problem]:
    """Cross-file rules for Monpa cards: none so far.

    What types may carry a mana cost or attack/defense is enforced by the schema's if/then; the
    deck rules (40 cards + commander + favor, at most 3 of a name) belong to deck formats.

    Yields:
        ``(card id, data path, message, rule)``; nothing today.
    """
    return iter(())


# --- skeletons for ``cardlab card new`` ------------------------------------------------------

SKELETON_KINDS = ("servant", "spell", "charm", "commander", "favor")
"""Types ``cardlab card new --kind`` offers for Monpa cards (the first is the default)."""

_EFFECTS = """\
effects:  # the card's effects, in order (delete this block if it has none); ~ stands for this card
  - text: {SRC: ""}  # what the effect does, in your own words
    # cost: {tap: true, mana: 1}  # the "<cost> :" part: {T} is tap: true, {X} is mana: X
  # - keyword: rapide  # Rapide
  # - keyword: upkeep  # coût d'entretien: <cost>
  #   cost: {mana: 1}
  # - keyword: prediction  # Prédiction N
  #   n: 2
# tokens:  # tokens the effects create
#   - name: {SRC: ""}
#     type: servant  # servant | charm
#     attack: 1
#     defense: 1
# flavor: {SRC: ""}  # texte d'ambiance, optional
"""


def skeleton(kind: str, source: str = "fr") -> str:
    """Return the Monpa-specific YAML lines of a new card of type ``kind`` (one of
    :data:`SKELETON_KINDS`), with a comment on each field and ``null`` (``""`` for a text) for every
    fact to fill in.

    Raises:
        KeyError: unknown type.
    """
    lines = [
        f"type: {kind}  # {TYPES[kind]['fr'].lower()}; commander | favor | charm | servant | spell",
        "element: null  # e.g. feu; the rules list no elements yet: write it as printed, lower case",
    ]
    if kind in NO_MANA_TYPES:
        lines.append("# no mana cost: commanders and favors have none (which is not a cost of 0)")
    else:
        lines.append("mana: null  # the mana cost: a number, X or ?")
    if kind == "servant":
        lines += ["attack: null  # a number, or ? when the effect sets it", "defense: null  # a number, or ? when the effect sets it"]
    return "\n".join(lines) + "\n" + _EFFECTS.replace("SRC", source)


# --- deck statistics -------------------------------------------------------------------------


def deck_figures(figures: DeckFigures, cards: Sequence[Counted], need: Sequence[str]) -> None:
    """Fill in a Monpa deck's figures (seed 004): cards by type and element, cards by mana cost, and
    the chance that the opening hand holds at least one card of each of ``need`` (types; default:
    every type in the deck; a note when the deck has none)."""
    # lazy: figures and odds load fractions and decimal (6-17 ms cold), kept off `cardlab search`
    from cardlab.games.figures import count_by, curve_of, each_kind, too_small

    figures.by_type = count_by(cards, lambda card: [card["type"]])
    figures.energy_label = "cards by element"
    figures.by_energy = count_by(cards, lambda card: [card["element"]] if card.get("element") else [])
    figures.curve_label = "cards by mana cost"
    figures.curve = curve_of(cards, lambda card: [card["mana"]] if "mana" in card else [])
    if too_small(figures):
        return
    kinds = list(need) or list(dict.fromkeys(c.card["type"] for c in cards))
    each_kind(figures, cards, "type", kinds)


if TYPE_CHECKING:  # mypy holds this module to the Game protocol (nothing runs)
    from cardlab.games import monpa as _this
    from cardlab.games.base import Game

    _CONTRACT: Game = _this
