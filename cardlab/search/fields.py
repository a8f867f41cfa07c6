"""The search fields: what each ``field:`` of the query language is, which fields take only the
values the catalog holds, and the ``--help`` lines listing them.

To add a search field: its row in :data:`FIELDS` (its kind says how it is matched and compiled),
its short forms in :data:`ALIASES`, its name in :data:`CLOSED_FIELDS` when its values form a closed
vocabulary; the facet rows that hold its values come from ``games/<game>.py``, and the index version
(:data:`cardlab.index.sqlite.INDEX_VERSION`) is bumped so every index is rebuilt with them.
"""

from __future__ import annotations

import re

# field -> (kind, help). kinds: facet (exact folded text), like (substring of a facet), num (number),
# name, text, number (text or number), set
FIELDS: dict[str, tuple[str, str]] = {
    "name": ("name", "card name in any language, substring (name:char); name=... for the whole name"),
    "text": ("text", "rules text (attacks, powers, abilities, Trainer text), words in any language"),
    "game": ("facet", "pokemon, ippo, monpa or forumtcg"),
    "set": ("facet", "set code or alias (set:base1, set:BS)"),
    "number": ("number", "collector number (number:4, number<=10)"),
    "rarity": ("facet", "rarity (rarity:rare, rarity:rare-holo, rarity:common)"),
    "artist": ("like", "illustrator, substring (artist:arita)"),
    # Pokémon
    "supertype": ("facet", "Pokémon: pokemon, trainer or energy"),
    "type": (
        "facet",
        "Pokémon: the Pokémon's type, or the Energy an Energy card provides (type:fire); Monpa: card type (type:servant, type:serviteur)",
    ),
    "stage": ("facet", 'Pokémon: basic, "stage 1", "stage 2"'),
    "hp": ("num", "Pokémon: hit points (hp>=80)"),
    "retreat": ("num", "Pokémon: retreat cost (retreat<=1)"),
    "cost": ("num", "Pokémon: converted Energy cost of an attack (cost<=2); Ippo: total cost"),
    "damage": ("num", "Pokémon: base damage of an attack (damage>=50)"),
    "weakness": ("facet", "Pokémon: weakness type (weakness:water)"),
    "resistance": ("facet", "Pokémon: resistance type (resistance:psychic)"),
    "attack": ("like", 'Pokémon: attack or Pokémon Power name, substring, any language (attack:"fire spin")'),
    "evolves": ("facet", "Pokémon: the name it evolves from (evolves:charmeleon)"),
    "energy": ("facet", "Pokémon: Energy card kind, basic or special"),
    "level": ("num", "Pokémon: level printed on the card"),
    "dex": ("num", "Pokémon: national Pokédex number"),
    # Ippo
    "kind": ("facet", "Ippo: blow, defense, support or fight"),
    "blow": ("facet", "Ippo: blow type of a Blow card (straight, hook, upper, special)"),
    "blocks": ("facet", "Ippo: a blow type a Defense card blocks"),
    "attr": ("facet", "Ippo: attribute icon (courage, kan, technique, calm, generic)"),
    "power": ("num", "Ippo: blow power"),
    "def": ("num", "Ippo: defense power; Monpa: a servant's defense"),
    "kw": ("facet", 'keyword (Ippo: "guard break", "shut off", knock-down, "round up"; Monpa: rapide, upkeep, prediction)'),
    "timing": ("facet", "Ippo: ability timing (placement, fast, boxing, interval, constant)"),
    "stars": ("num", "Ippo: rarity in stars"),
    # Monpa
    "element": ("facet", "Monpa: element"),
    "mana": ("num", "Monpa: mana cost (commanders and favors have none); mana:x for X"),
    "atk": ("num", "Monpa: a servant's attack; atk:? for ?"),
    # the forum TCG (seed 002)
    "value": ("num", "forum TCG: the card's Value (value>=4)"),
    "faction": ("facet", "forum TCG: faction code, name or symbol (faction:gotei-13, faction:lozenge, faction:skull)"),
}
ALIASES = {
    "t": "type",
    "s": "set",
    "e": "set",
    "r": "rarity",
    "a": "artist",
    "o": "text",
    "cn": "number",
    "n": "name",
    "hp": "hp",
    "illustrator": "artist",
    "keyword": "kw",
    "attribute": "attr",
    "k": "kind",
}
TEXT_OPS = (":", "=", "!=")
"""The operators a text field takes (numbers also take ``<``, ``<=``, ``>``, ``>=``)."""

CARD_COLUMNS = ("game", "set")
"""Fields read from the ``card`` table itself (``game``; ``set`` through ``set_key``), not from facets."""

NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")
"""A value that a ``num`` field (and ``number`` with ``<``, ``>``...) compares as a number."""

CLOSED_FIELDS = (
    "game",
    "set",
    "rarity",
    "supertype",
    "type",
    "stage",
    "weakness",
    "resistance",
    "energy",
    "kind",
    "blow",
    "blocks",
    "attr",
    "timing",
    "element",
    "kw",
)
"""Fields whose values form a closed vocabulary (the values the catalog holds): any other value is
a query error with a caret and did-you-mean, never a silent empty result
(:func:`cardlab.search.vocabulary.check_vocabulary`)."""

SCRYFALL_RARITY_LETTERS = {"c": "common", "u": "uncommon", "r": "rare", "m": "mythic", "s": "special"}
"""Scryfall's one-letter rarities (``r:c``): the letter names that rarity wherever the catalog has it."""


def kind(field: str) -> str:
    """The kind of the search field ``field`` (a key of :data:`FIELDS`): ``facet``, ``like``,
    ``num``, ``name``, ``text``, ``number`` or ``set``. Raises KeyError for an unknown field."""
    return FIELDS[field][0]


def fields_help(indent: str = "") -> str:
    """Return the search fields, one ``name  help`` line each (after ``indent``), for ``--help``."""
    return "\n".join(f"{indent}{name:<11} {help_}" for name, (_, help_) in FIELDS.items())
