"""The registry of games: :data:`GAMES`, :func:`get`, and the query field table assembled from them.

Each game is a module ``cardlab.games.<game>`` that implements :class:`cardlab.games.base.Game`
(title, search fields and their closed vocabularies, facets, type line, key stats, detail rows,
cross-card checks, ``card new`` skeletons, deck statistics). Adding a game: its code in
:data:`GAMES`, its module, its card schema and the game enums of ``set.schema.json`` and
``format.schema.json`` (docs/ARCHITECTURE.md, "Add a game").
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # mypy holds each game module to the Game protocol here (nothing runs)
    from cardlab.games import forumtcg, ippo, monpa, pokemon
    from cardlab.games.base import FieldSpec, Game

    _POKEMON: Game = pokemon
    _IPPO: Game = ippo
    _MONPA: Game = monpa
    _FORUMTCG: Game = forumtcg

GAMES = ("pokemon", "ippo", "monpa", "forumtcg")
"""Every game cardlab knows, in the order help texts list them (the schemas' game enums hold the same)."""


def get(game: str) -> Game:
    """Return the module of ``game``, which implements :class:`~cardlab.games.base.Game`.

    Raises:
        KeyError: a game cardlab does not know (not in :data:`GAMES`).
    """
    if game not in GAMES:
        raise KeyError(game)
    return cast("Game", importlib.import_module(f"cardlab.games.{game}"))


def game_module(game: str) -> ModuleType:
    """The name :func:`get` had before the ``Game`` protocol, untyped as it was; kept while
    ``catalog/validate.py`` and ``index/sqlite.py`` move on a parallel branch (issue 28), then to be
    removed in favour of :func:`get`.

    Raises:
        KeyError: a game cardlab does not know.
    """
    get(game)
    return importlib.import_module(f"cardlab.games.{game}")


def _games_help() -> str:
    """``pokemon, ippo, monpa or forumtcg``: the ``game`` field's help, from :data:`GAMES`."""
    return GAMES[0] if len(GAMES) == 1 else f"{', '.join(GAMES[:-1])} or {GAMES[-1]}"


def common_fields() -> dict[str, FieldSpec]:
    """Return the query fields every game shares (name, text, game, set, number, rarity, artist)."""
    # imported here: cli/options reads GAMES at start-up, and base's Protocol costs 1.5 ms there
    from cardlab.games.base import FieldSpec

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
    ``search.query.FIELDS``: the common fields, then each game's in :data:`GAMES` order (a field
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
    """Return the fields whose values form a closed vocabulary (``search.engine.CLOSED_FIELDS``):
    the common ones, then each game's, in :func:`search_fields` order.

    Raises:
        ValueError: as :func:`search_fields`.
    """
    return tuple(name for name, (spec, _owners) in _assembled().items() if spec.closed)
