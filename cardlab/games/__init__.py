"""The registry of games: :data:`GAMES`, :func:`get`, and the query field table assembled from them.

Each game is a module ``cardlab.games.<game>`` that implements :class:`cardlab.games.base.Game`
(title, search fields and their closed vocabularies, facets, type line, key stats, detail rows,
cross-card checks, ``card new`` skeletons, deck statistics). A game is registered by its card
schema: :data:`GAMES` is every ``<game>.card.schema.json`` of the schema folder (:func:`discover`),
and ``catalog.schemas`` fills the ``game`` enums of the set and format schemas from the same
list. Adding a game is its card schema, its module, its formats and fixtures; no list to edit
(docs/ARCHITECTURE.md, "Where each kind of change goes").
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, cast

from cardlab.core.paths import schema_folder

if TYPE_CHECKING:  # each game module holds itself to the Game protocol for mypy (its last lines)
    from cardlab.games.base import FieldSpec, Game

CARD_SCHEMA_SUFFIX = ".card.schema.json"
"""A game's card schema is ``<game>.card.schema.json``: its presence registers the game."""


def discover(folder: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """Return the games of a schema folder: the ``<game>`` of each ``<game>.card.schema.json`` in
    ``folder`` (default: the shipped schemas, ``core.paths.schema_folder``), sorted by code.

    Raises:
        OSError: the folder cannot be listed.
    """
    names = os.listdir(folder if folder is not None else schema_folder())
    return tuple(sorted(n[: -len(CARD_SCHEMA_SUFFIX)] for n in names if n.endswith(CARD_SCHEMA_SUFFIX)))


GAMES = discover()
"""Every game cardlab knows, by code (the help texts list them in this order), read once from the
shipped card schemas (one ``listdir``). A test registering a game of its own sets it (``discover``)."""


def get(game: str) -> Game:
    """Return the module of ``game``, which implements :class:`~cardlab.games.base.Game`.

    Raises:
        KeyError: a game cardlab does not know (not in :data:`GAMES`).
    """
    if game not in GAMES:
        raise KeyError(game)
    return cast("Game", importlib.import_module(f"cardlab.games.{game}"))


def _games_help() -> str:
    """``forumtcg, ippo, monpa or pokemon``: the ``game`` field's help, from :data:`GAMES`."""
    return GAMES[0] if len(GAMES) == 1 else f"{', '.join(GAMES[:-1])} or {GAMES[-1]}"


def common_fields() -> dict[str, FieldSpec]:
    """Return the query fields every game shares (name, text, game, set, number, rarity, artist)."""
    from cardlab.games.base import FieldSpec  # lazy: typing's Protocol (1.5 ms); cli/options reads GAMES at start-up

    return {
        "name": FieldSpec("name", "card name in any language, substring (name:char); name=... for the whole name"),
        "text": FieldSpec("text", "rules text (attacks, powers, abilities, Trainer text), words in any language"),
        "game": FieldSpec("facet", _games_help(), closed=True),
        "set": FieldSpec("facet", 'set code, alias or name in any language (set:base1, set:BS, set:"Base Set 2")', closed=True),
        "number": FieldSpec("number", "collector number (number:4, number<=10)"),
        "rarity": FieldSpec("facet", "rarity (rarity:rare, rarity:rare-holo, rarity:common)", closed=True),
        "artist": FieldSpec("like", "illustrator, substring (artist:arita)"),
    }


def _assembled() -> dict[str, tuple[FieldSpec, list[tuple[str, FieldSpec]]]]:
    """Field -> (the common spec or the first game's, every game's (title, spec) in GAMES order).

    Raises:
        ValueError: two games give one field different kinds, closedness or leads (the query
            language compares a field one way in every game).
    """
    table: dict[str, tuple[FieldSpec, list[tuple[str, FieldSpec]]]] = {name: (spec, []) for name, spec in common_fields().items()}
    for code in GAMES:
        game = get(code)
        for name, spec in game.FIELDS.items():
            first, owners = table.setdefault(name, (spec, []))
            if (first.kind, first.closed, first.lead) != (spec.kind, spec.closed, spec.lead) or (name in common_fields()):
                raise ValueError(f"{code}: field '{name}' differs from its other definition ({first} vs {spec})")
            owners.append((game.TITLE, spec))
    return table


def search_fields() -> dict[str, tuple[str, str]]:
    """Return the query language's field table: field -> (kind, help), in the shape of
    ``search.fields.FIELDS``: the common fields, then each game's in :data:`GAMES` order (a field
    several games share is listed once, where it first appears). A game's help is prefixed by its
    title (``Pokémon: hit points (hp>=80)``); shared fields join them (``Ippo: defense power; Monpa:
    a servant's defense``), inside their ``lead`` when they have one.

    Raises:
        ValueError: two games define one field differently (kind, closedness, lead).
    """
    fields: dict[str, tuple[str, str]] = {}
    for name, (spec, owners) in _assembled().items():
        if not owners:
            fields[name] = (spec.kind, spec.help)
            continue
        joined = "; ".join(f"{title}: {own.help}" for title, own in owners)
        fields[name] = (spec.kind, f"{spec.lead} ({joined})" if spec.lead else joined)
    return fields


def closed_fields() -> tuple[str, ...]:
    """Return the fields whose values form a closed vocabulary (``search.fields.CLOSED_FIELDS``):
    the common ones, then each game's, in :func:`search_fields` order.

    Raises:
        ValueError: as :func:`search_fields`.
    """
    return tuple(name for name, (spec, _owners) in _assembled().items() if spec.closed)
