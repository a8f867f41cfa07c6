"""The search fields: what each ``field:`` of the query language is, which fields take only the
values the catalog holds, and the ``--help`` lines listing them.

To add a search field: a ``FieldSpec`` in the game's ``FIELDS`` (``games/<game>.py``; one every game
shares in :func:`cardlab.games.common_fields`): :data:`FIELDS` and :data:`CLOSED_FIELDS` are
assembled from the games (its kind says how it is matched and compiled, ``closed`` when its values
form a closed vocabulary); its short forms in :data:`ALIASES`; the facet rows that hold its values
come from the game's ``facets``, and the index version (:data:`cardlab.index.sqlite.INDEX_VERSION`)
is bumped so every index is rebuilt with them.
"""

from __future__ import annotations

import re

from cardlab.core.l10n import N_
from cardlab.games import closed_fields, search_fields

IS_VALUES: dict[str, str] = {
    "holo": "a holographic printing (its rarity says Holo)",
    "reprint": "a card printed before in another set (Base Set 2's Charizard)",
    "first-printing": "a card in the set it was first printed in (not a reprint)",
    "promo": "a promotional card (rarity Promo)",
}
"""``is:`` values (Scryfall's, where they fit our cards) -> what they find."""

IS_ALIASES = {"firstprint": "first-printing", "firstprinting": "first-printing", "first": "first-printing", "holofoil": "holo"}
"""Other spellings of :data:`IS_VALUES` (Scryfall writes ``is:firstprint``)."""

EDITION_WORDS = frozenset(
    {"1st", "1e", "1ed", "1st-edition", "1stedition", "1st-ed", "first-edition", "firstedition", "edition", "shadowless", "unlimited"}
)
"""``is:`` values asking for a print run of a set (Base Set's 1st Edition, Shadowless and Unlimited
runs): the catalog records a printing by set and number, not by edition stamp, so these are refused
with that reason (:func:`cardlab.search.query.tokens.tokenize`), never taken for a near
:data:`IS_VALUES` word such as ``first-printing``."""

DISPLAY_KEYWORDS: dict[str, tuple[str, str]] = {
    "order": ("--sort KEY (number, name, set, rarity, artist, hp)", N_("the order of the results, not a filter")),
    "direction": ("--reverse (descending; ascending is the default)", N_("the direction of the order, not a filter")),
    "unique": ("--unique cards or --unique prints", N_("one hit per card or per printing, not a filter")),
    "lang": ("--lang CODE (fr, de, ja...)", N_("the language names are shown in, not a filter")),
}
"""Scryfall's display keywords: cardlab takes them as options, not in the query; the query answers
each with a caret error naming its option (:func:`cardlab.search.query.tokens.tokenize`):
keyword -> (the option, what it sets)."""

TYPE_LINE_FIELDS = ("type", "supertype", "stage", "energy")
"""What ``type:`` (``t:``) matches, as Scryfall's type line does: the types, and the supertypes,
stages and Energy kinds (``t:trainer``, ``t:basic``, ``t:"stage 2"``, ``t:special``) of the games
that have them."""

# field -> (kind, help). kinds: facet (exact folded text), like (substring of a facet), num (number),
# name, text, number (text or number), set, is (IS_VALUES), display (DISPLAY_KEYWORDS: an option),
# exact (not a field: Scryfall's !name, a row of the syntax table that --help and the web page list)
FIELDS: dict[str, tuple[str, str]] = {
    **search_fields(),  # assembled from the games (cardlab.games)
    "is": ("is", "is:" + ", is:".join(IS_VALUES) + "; not:... for the opposite (not:reprint)"),
    "!": ("exact", '!"Dark Charizard" or !pikachu: that whole name (as name="...")'),
    **{name: ("display", f"{what}: give {option}") for name, (option, what) in DISPLAY_KEYWORDS.items()},
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

CLOSED_FIELDS = closed_fields()  # the common fields' and each game's closed vocabularies
"""Fields whose values form a closed vocabulary (the values the catalog holds): any other value is
a query error with a caret and did-you-mean, never a silent empty result
(:func:`cardlab.search.vocabulary.check_vocabulary`)."""

SCRYFALL_RARITY_LETTERS = {"c": "common", "u": "uncommon", "r": "rare", "m": "mythic", "s": "special"}
"""Scryfall's one-letter rarities (``r:c``): the letter names that rarity wherever the catalog has it."""


def kind(field: str) -> str:
    """The kind of the search field ``field`` (a key of :data:`FIELDS`): ``facet``, ``like``,
    ``num``, ``name``, ``text``, ``number``, ``set``, ``is``, ``display`` or ``exact``. Raises
    KeyError for an unknown field."""
    return FIELDS[field][0]


def fields_help(indent: str = "") -> str:
    """Return the search fields, one ``name  help`` line each (after ``indent``), for ``--help``
    (the web's syntax page lists the same table)."""
    return "\n".join(f"{indent}{name:<11} {help_}" for name, (_, help_) in FIELDS.items())
