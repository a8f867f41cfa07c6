"""Per-game knowledge: each game module knows its cards' searchable fields and how to show them.

A game module (``cardlab.games.<game>``) provides:

- ``facets(card: dict) -> Iterable[tuple[str, str | None, float | None]]``: searchable values,
  one ``(field, folded text or None, number or None)`` per value (a card with two types gives two
  ``type`` rows). Field names are those of the query language (README, "Search fields").
- ``type_line(card: dict, langs: Sequence[str]) -> str``: e.g. ``Pokémon · Stage 2 · Fire``.
- ``key_stats(card: dict) -> str``: short stats for a search table row (``120 HP · retreat 3``).
- ``detail(card: dict, langs: Sequence[str], source: str) -> list[tuple[str, str]]``: labelled lines
  for ``cardlab show`` (values may hold rich markup; labels are plain).
- ``check(catalog) -> Iterable[tuple[str, list, str, str]]``: cross-file problems as
  ``(card id, data path, message, rule)``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAMES = ("pokemon", "ippo", "monpa", "forumtcg")


def game_module(game: str) -> ModuleType:
    """Return the module for ``game``. Raises KeyError for a game cardlab does not know."""
    if game not in GAMES:
        raise KeyError(game)
    return importlib.import_module(f"cardlab.games.{game}")
