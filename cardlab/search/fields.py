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

from cardlab.games import closed_fields, search_fields

# field -> (kind, help). kinds: facet (exact folded text), like (substring of a facet), num (number),
# name, text, number (text or number), set
FIELDS: dict[str, tuple[str, str]] = search_fields()  # assembled from the games (cardlab.games)
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
    ``num``, ``name``, ``text``, ``number`` or ``set``. Raises KeyError for an unknown field."""
    return FIELDS[field][0]


def fields_help(indent: str = "") -> str:
    """Return the search fields, one ``name  help`` line each (after ``indent``), for ``--help``."""
    return "\n".join(f"{indent}{name:<11} {help_}" for name, (_, help_) in FIELDS.items())
