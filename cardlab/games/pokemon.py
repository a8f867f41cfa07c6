"""The Pokémon TCG (Base Set era): searchable fields, display, and cross-card checks.

Rules source: seed 001 (Pokémon TCG Base Set rulebook, French): Basic / Stage 1 / Stage 2 Pokémon,
Energy types, weakness, resistance, retreat cost, Trainer and Energy cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from cardlab.core import l10n, words
from cardlab.core.l10n import N_, _
from cardlab.core.text import fold, outdated_mark, pick
from cardlab.games.base import CardSource, DetailRow, FieldSpec, Problem, Span, row

if TYPE_CHECKING:
    from cardlab.games.figures import Counted, DeckFigures

TITLE = "Pokémon"
"""The game's name as people write it."""

ENERGY_SYMBOL: dict[str, tuple[str, str]] = {
    "Grass": ("G", "green"),
    "Fire": ("R", "red"),
    "Water": ("W", "blue"),
    "Lightning": ("L", "yellow"),
    "Psychic": ("P", "magenta"),
    "Fighting": ("F", "dark_orange"),
    "Darkness": ("D", "bright_black"),
    "Metal": ("M", "grey70"),
    "Colorless": ("C", "white"),
}
"""Energy type -> its one-letter symbol and colour (a :data:`cardlab.games.base.STYLES` tag)."""

FIELDS: dict[str, FieldSpec] = {
    "supertype": FieldSpec("facet", "pokemon, trainer or energy", closed=True),
    "type": FieldSpec(
        "facet",
        "the Pokémon's type, the Energy an Energy card provides, or a supertype or stage (type:fire, t:trainer, t:basic)",
        closed=True,
    ),
    "stage": FieldSpec("facet", 'basic, "stage 1", "stage 2"', closed=True),
    "hp": FieldSpec("num", "hit points (hp>=80)"),
    "retreat": FieldSpec("num", "retreat cost (retreat<=1)"),
    "cost": FieldSpec("num", "converted Energy cost of an attack (cost<=2)"),
    "damage": FieldSpec("num", "base damage of an attack (damage>=50)"),
    "weakness": FieldSpec("facet", "weakness type (weakness:water)", closed=True),
    "resistance": FieldSpec("facet", "resistance type (resistance:psychic)", closed=True),
    "attack": FieldSpec("like", 'attack or Pokémon Power name, substring, any language (attack:"fire spin")'),
    "evolves": FieldSpec("facet", "the name it evolves from (evolves:charmeleon)"),
    "energy": FieldSpec("facet", "Energy card kind, basic or special", closed=True),
    "level": FieldSpec("num", "level printed on the card"),
    "dex": FieldSpec("num", "national Pokédex number"),
}
"""The query fields of Pokémon cards (:func:`facets` gives their rows)."""

OPENING_HAND = 7
"""Seed 001: seven cards in the opening hand."""

DECK_KINDS: tuple[str, tuple[str, ...]] | None = ("supertype", ("Pokémon", "Trainer", "Energy"))
"""The card field and the kinds ``deck stats --need`` names: the schema's supertypes."""


def facets(card: dict) -> Iterator[tuple[str, str | None, float | None]]:
    """Yield the searchable values of a Pokémon card as ``(field, folded text, number)``.

    Fields: supertype, stage, type (Pokémon types, or what an Energy provides), hp, retreat,
    weakness, resistance, attack (attack and Pokémon Power names, every language), cost (converted
    Energy cost of each attack), damage (base damage of each attack), energy (basic/special),
    evolves (the name it evolves from), level, dex (national Pokédex numbers).
    """
    yield "supertype", fold(card["supertype"]), None
    if "stage" in card:
        yield "stage", fold(card["stage"]), None
    for t in card.get("types") or card.get("provides") or []:
        yield "type", fold(t), None
    for name in ("hp", "level"):
        if name in card:
            yield name, None, float(card[name])
    if card.get("supertype") == "Pokémon":
        yield "retreat", None, float(card.get("retreat_cost", 0))
    for w in card.get("weaknesses") or []:
        yield "weakness", fold(w["type"]), None
    for r in card.get("resistances") or []:
        yield "resistance", fold(r["type"]), None
    if "evolves_from" in card:
        yield "evolves", fold(card["evolves_from"]), None
    if "energy_type" in card:
        yield "energy", card["energy_type"], None
    for n in card.get("national_pokedex_numbers") or []:
        yield "dex", None, float(n)
    power = card.get("pokemon_power")
    if power:
        for lang, text in power["name"].items():
            if lang != "_source":
                yield "attack", fold(text), None
    for attack in card.get("attacks") or []:
        for lang, text in attack["name"].items():
            if lang != "_source":
                yield "attack", fold(text), None
        yield "cost", None, float(len(attack.get("cost") or []))
        digits = "".join(ch for ch in attack.get("damage", "") if ch.isdigit())
        if digits:
            yield "damage", None, float(digits)


VOCABULARY = (
    N_("Pokémon"),
    N_("Trainer"),
    N_("Energy"),
    N_("Basic"),
    N_("Stage 1"),
    N_("Stage 2"),
    N_("basic"),
    N_("special"),
    N_("Grass"),
    N_("Fire"),
    N_("Water"),
    N_("Lightning"),
    N_("Psychic"),
    N_("Fighting"),
    N_("Darkness"),
    N_("Metal"),
    N_("Colorless"),
    N_("Common"),
    N_("Uncommon"),
    N_("Rare"),
    N_("Rare Holo"),
    N_("Promo"),
    N_("Power"),
    N_("{n} HP"),
    N_("{n} attack"),
    N_("{n} attacks"),
    N_("retreat {n}"),
)
"""The words of the type lines and stats (stored in English in the index, translated where shown
by :func:`cardlab.core.l10n.words`): supertypes, stages, Energy kinds and types, rarities."""


def type_line(card: dict, langs: Sequence[str] = ()) -> str:
    """Return e.g. ``Pokémon · Stage 2 · Fire``, ``Trainer``, ``Energy · basic · Fire`` (English:
    the index stores it; :func:`cardlab.core.l10n.words` translates it where it is shown)."""
    parts = [card["supertype"]]
    if "stage" in card:
        parts.append(card["stage"])
    if "energy_type" in card:
        parts.append(card["energy_type"])
    parts.extend(card.get("types") or card.get("provides") or [])
    return " · ".join(dict.fromkeys(parts))


def rarity(card: dict) -> tuple[str, int] | None:
    """None: the common ``rarity`` field is the card's rarity (:meth:`cardlab.games.base.Game.rarity`)."""
    return None


def key_stats(card: dict) -> str:
    """Return short stats for a table row: ``120 HP · 1 attack · retreat 3``."""
    if card.get("supertype") != "Pokémon":
        return ""
    n = len(card.get("attacks") or [])
    parts = [f"{card['hp']} HP", words.count(n, "attack"), f"retreat {card.get('retreat_cost', 0)}"]
    if card.get("pokemon_power"):
        parts.insert(1, "Power")
    return " · ".join(parts)


def energy_span(energy: str) -> Span:
    """Return an Energy type as its coloured one-letter symbol (:data:`ENERGY_SYMBOL`), its name the
    symbol's ``alt``; an unknown type as its name, unstyled."""
    letter, colour = ENERGY_SYMBOL.get(energy, (energy, None))
    return Span(letter, colour, energy) if colour else Span(letter)


def cost_symbols(cost: Iterable[str]) -> list[Span]:
    """Return Energy costs as coloured one-letter symbols, space-separated; ``-`` for a free cost."""
    spans: list[Span] = []
    for c in cost:
        if spans:
            spans.append(Span(" "))
        spans.append(energy_span(c))
    return spans or [Span("-")]


def details(card: dict, langs: Sequence[str] = (), source: str = "en") -> list[DetailRow]:
    """Return the labelled lines of ``cardlab show`` and the web card page: type, HP, level,
    evolution, Pokémon Power, attacks (cost symbols, name and damage in bold, text), Trainer text,
    what an Energy provides, weakness, resistance and retreat cost (as Colorless symbols). Labels
    and words in the interface language (:mod:`cardlab.core.l10n`); a rules text translated from
    an English text that changed since is marked (:func:`cardlab.core.text.outdated_mark`)."""

    def tr(loc: dict | None) -> str:
        return pick(loc, langs, source)

    def text_of(loc: dict | None) -> str:
        return tr(loc) + outdated_mark(loc, langs, source)

    lines = [row(_("Type"), l10n.words(type_line(card, langs)))]
    if "hp" in card:
        lines.append(row(_("HP"), str(card["hp"])))
    if "level" in card:
        lines.append(row(_("Level"), str(card["level"])))
    if "evolves_from" in card:
        lines.append(row(_("Evolves from"), card["evolves_from"]))
    power = card.get("pokemon_power")
    if power:
        lines.append(row(_("Pokémon Power"), Span(tr(power["name"]), "bold"), f": {text_of(power['text'])}"))
    for attack in card.get("attacks") or []:
        damage: list[str | Span] = [" ", Span(attack["damage"], "bold")] if attack.get("damage") else []
        text = f"\n{text_of(attack['text'])}" if attack.get("text") else ""
        lines.append(row(_("Attack"), *cost_symbols(attack.get("cost", [])), "  ", Span(tr(attack["name"]), "bold"), *damage, text))
    if card.get("text"):
        lines.append(row(_("Text"), text_of(card["text"])))
    if card.get("provides"):
        lines.append(row(_("Provides"), *cost_symbols(card["provides"])))
    for label, key in ((_("Weakness"), "weaknesses"), (_("Resistance"), "resistances")):
        if card.get(key):
            parts: list[str | Span] = []
            for m in card[key]:
                parts += [", " if parts else "", energy_span(m["type"]), f" {m['value']}"]
            lines.append(row(label, *parts))
    if card.get("supertype") == "Pokémon":
        lines.append(row(_("Retreat"), *cost_symbols(["Colorless"] * card.get("retreat_cost", 0))))
    return lines


def plays_as_pokemon(card: dict) -> bool:
    """True for a Pokémon card, and for a Trainer that is played as a Basic Pokémon: one that
    carries ``hp`` (Mysterious Fossil, Clefairy Doll)."""
    return card.get("supertype") == "Pokémon" or (card.get("supertype") == "Trainer" and "hp" in card)


def check(catalog: CardSource) -> Iterator[Problem]:
    """Cross-card rule ``evolves-from``: an evolution names a Pokémon present in the catalog
    (any set of the game; matched on the folded English/source name), or a Trainer that plays as a
    Basic Pokémon (:func:`plays_as_pokemon`: Fossil's Aerodactyl evolves from Mysterious Fossil). Yields problems as
    ``(card id, data path, message, rule)``."""
    names: set[str] = set()
    for card_id, card in catalog.cards.items():
        if catalog.card_set.get(card_id) and catalog.set_of(card_id).game == "pokemon" and plays_as_pokemon(card):
            names.update(fold(n) for k, n in card["name"].items() if k != "_source")
    for card_id, card in catalog.cards.items():
        if catalog.set_of(card_id).game != "pokemon":
            continue
        evo = card.get("evolves_from")
        if isinstance(evo, str) and fold(evo) not in names:
            yield card_id, ["evolves_from"], f"evolves_from '{evo}' names no Pokémon in the catalog", "evolves-from"
        if card.get("stage") in ("Stage 1", "Stage 2") and not evo:
            yield card_id, ["stage"], f"a {card['stage']} Pokémon needs evolves_from", "evolves-from"


# --- skeletons for ``cardlab card new`` ------------------------------------------------------

SKELETON_KINDS = ("pokemon", "trainer", "energy")
"""Kinds ``cardlab card new --kind`` offers for Pokémon cards (the first is the default)."""

_SUPERTYPE = "  # Pokémon | Trainer | Energy (cardlab card new --kind pokemon | trainer | energy)\n"
_TAIL = """\
rarity: null  # the rarity symbol: Common (●), Uncommon (◆), Rare (★), Rare Holo (★, holofoil picture)
illustrator: ""  # the artist credited on the card (Illus. ...); delete the line if none is printed
"""
_BODIES = {
    "pokemon": "supertype: Pokémon"
    + _SUPERTYPE
    + """\
stage: null  # Basic | Stage 1 | Stage 2
# evolves_from: ""  # Stage 1 and Stage 2 need it: the English name of the Pokémon it evolves from
# level: null  # the LV. number, if one is printed
hp: null  # the hit points printed at the top right (a multiple of 10)
types: null  # its type(s), e.g. [Fire]: Grass | Fire | Water | Lightning | Psychic | Fighting | Darkness | Metal | Colorless
# pokemon_power:  # a Pokémon Power, if the card has one
#   name: {SRC: ""}  # its name, as printed
#   text: {SRC: ""}  # what it does, in your own words
attacks:  # one entry per attack, in the card's order
  - name: {SRC: ""}  # required: the attack's name, as printed
    cost: null  # one entry per Energy symbol, e.g. [Fire, Colorless]; [] for a free attack
    damage: null  # the damage as printed, quoted: "30", "30+", "10×", "30-"; delete the line if none
    text: {SRC: ""}  # what the attack does, in your own words; delete the line if it has no text
weaknesses: null  # e.g. [{type: Water, value: "×2"}]; [] when none is printed
resistances: null  # e.g. [{type: Fighting, value: "-30"}]; [] when none is printed
retreat_cost: null  # how many Energy symbols the retreat cost shows, 0 to 5
"""
    + _TAIL
    + """\
# national_pokedex_numbers: [null]  # optional: its national Pokédex number(s)
""",
    "trainer": "supertype: Trainer"
    + _SUPERTYPE
    + """\
text: {SRC: ""}  # required: what the card does, in your own words
"""
    + _TAIL,
    "energy": "supertype: Energy"
    + _SUPERTYPE
    + """\
energy_type: null  # basic (a basic Energy card) | special
provides: null  # the Energy it provides, one entry per symbol, e.g. [Fire] or [Colorless, Colorless]
# text: {SRC: ""}  # a special Energy card: what it does, in your own words
# rarity: null  # if a rarity symbol is printed: Common (●), Uncommon (◆), Rare (★)
# illustrator: ""  # the artist credited on the card, if any
""",
}


def skeleton(kind: str, source: str = "en") -> str:
    """Return the Pokémon-specific YAML lines of a new card of ``kind`` (one of :data:`SKELETON_KINDS`),
    with a comment on each field (the fields of ``schema/pokemon.card.schema.json``).

    Raises:
        KeyError: unknown kind.
    """
    return _BODIES[kind].replace("SRC", source)


# --- deck statistics -------------------------------------------------------------------------


def _type_of(card: dict) -> list[str]:
    extra = card.get("stage") or card.get("energy_type")
    return [f"{card['supertype']}: {extra}" if extra else card["supertype"]]


def deck_figures(figures: DeckFigures, cards: Sequence[Counted], need: Sequence[str]) -> None:
    """Fill in a Pokémon deck's figures (seed 001): cards by type (``Pokémon: Basic``, ``Trainer``,
    ``Energy: basic``...), Energy cards by the type they provide, attacks by Energy cost; the chance
    of at least one Basic Pokémon in the opening hand and the expected number of mulligans; with
    ``need`` (supertypes), the chance of one of each in the opening hand."""
    # lazy: figures and odds load fractions and decimal (6-17 ms cold), kept off `cardlab search`
    from cardlab.games import odds
    from cardlab.games.figures import Odds, count_by, curve_of, each_kind, held, too_small

    figures.by_type = count_by(cards, _type_of)
    figures.energy_label = _("Energy cards by type provided")
    figures.by_energy = count_by([c for c in cards if c.card.get("supertype") == "Energy"], lambda card: card.get("provides", []))
    figures.curve_label = _("attacks by Energy cost")
    figures.curve = curve_of(cards, lambda card: [len(a.get("cost", [])) for a in card.get("attacks", [])])
    if too_small(figures):
        return
    basics = held(cards, lambda card: card.get("supertype") == "Pokémon" and card.get("stage") == "Basic")
    n, hand = figures.size, figures.hand
    p = odds.p_at_least(1, basics, n, hand)
    figures.odds.append(
        Odds(
            "opening-basic",
            _("at least one Basic Pokémon in the {hand}-card opening hand").format(hand=hand),
            p,
            _("1 - C({rest},{hand})/C({n},{hand}) with {basics} Basic Pokémon in {n} cards").format(
                rest=n - basics, hand=hand, basics=basics, n=n
            ),
        )
    )
    figures.odds.append(
        Odds(
            "mulligans",
            _("expected mulligans before a hand with a Basic Pokémon"),
            odds.expected_mulligans(p),
            _("(1 - p)/p, p as above (each mulligan is a new shuffle)"),
            "expected",
        )
    )
    if need:
        each_kind(figures, cards, "supertype", need)


if TYPE_CHECKING:  # mypy holds this module to the Game protocol (nothing runs)
    from cardlab.games import pokemon as _this
    from cardlab.games.base import Game

    _CONTRACT: Game = _this
