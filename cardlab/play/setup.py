"""Building a game's setup from the catalog and the collections (seed 002): the draw pool of a set,
the players' lists of 10 owned cards, the stakes. Pure checks; nothing is written here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cardlab.catalog.model import Catalog, number_int
from cardlab.collection.cards import CardResolver
from cardlab.collection.owned import UnknownCardError, owned
from cardlab.core.errors import CardlabError, DataError, UsageError
from cardlab.decks.check import check_list
from cardlab.decks.read import read_deck
from cardlab.games.forumtcg import COMMON, FOUR_FACTIONS
from cardlab.play.engine import KINDS

if TYPE_CHECKING:
    from cardlab.collection.db import Database

LIST_FORMAT = "forumtcg-list"
"""The deck format of a mini-game list (``cards/forumtcg/formats/forumtcg-list.yaml``: 10 cards)."""


class SetupError(CardlabError):
    """A game that cannot start as asked (a card not owned, a list that cannot win...): exit 1."""


def card_info(catalog: Catalog, card_id: str) -> dict:
    """Return the snapshot of a card a game keeps: ``{id, name, value, faction}`` (the name in the
    set's source language)."""
    card = catalog.cards[card_id]
    return {"id": card_id, "name": catalog.name_of(card_id), "value": card.get("value"), "faction": card.get("faction")}


def draw_pool(catalog: Catalog, set_code: str) -> list[dict]:
    """Return the draw pool of seed 002 ("les cartes du tirage", "cartes Communes"): every card of
    rarity ``Commune`` of the set, by collector number, as :func:`card_info` snapshots.

    Raises:
        UsageError: unknown set (with suggestions) or not a forum TCG set (exit 2);
        SetupError: the set has no Common card.
    """
    info = catalog.require_set(set_code)
    if info.game != "forumtcg":
        raise UsageError(f"set {info.code} is a {info.game} set; the mini-games use forum TCG sets (game forumtcg)")
    ids = [cid for cid, code in catalog.card_set.items() if code == info.code and catalog.cards[cid].get("rarity") == COMMON]
    ids.sort(key=lambda cid: (number_int(catalog.cards[cid]["number"]) or 0, cid))
    if not ids:
        raise SetupError(f"set {info.code} has no {COMMON} card to draw; load its cards with 'cardlab import csv'")
    return [card_info(catalog, cid) for cid in ids]


def read_list(path: Path, catalog: Catalog, formats: dict) -> list[dict]:
    """Read a player's list (seed 002 "Doll House", "Ryūjin Jakka": 10 cards, duplicates allowed,
    numbered 1-10 in list order) from a deck-list file (``2 Lame errante``, ``1 FT 12``...), matched
    by the deck-list matcher under the ``forumtcg-list`` format.

    Returns:
        10 :func:`card_info` snapshots, number 1 first (a line of 2 gives two numbers).

    Raises:
        InputError: unreadable file; DataError: unknown cards or not 10 cards (with lines).
    """

    fmt = formats.get(LIST_FORMAT)
    if fmt is None:
        raise UsageError(f"the catalog has no '{LIST_FORMAT}' format (shipped in cards/forumtcg/formats)")
    check = check_list(read_deck(Path(path), fmt.header_words()), catalog, {LIST_FORMAT: fmt}, LIST_FORMAT)
    deck, problems = check.best.deck, check.best.problems
    if problems:
        raise DataError(problems)
    out: list[dict] = []
    for c in deck.cards:
        out.extend(card_info(catalog, c.card_id) for _ in range(c.count))
    return out


def check_owned(con: Database | None, player: str, cards: Sequence[dict]) -> None:
    """Check that ``player`` owns every card of a list, as many copies as listed (seed 002: "10
    cartes qu'il possède réellement"). Raises SetupError naming what is missing."""

    missing = []
    for card_id, n in Counter(c["id"] for c in cards).items():
        have = owned(con, player, card_id) if con is not None else 0
        if have < n:
            missing.append(f"{card_id} (lists {n}, owns {have})")
    if missing:
        raise SetupError(
            f"{player}'s list holds cards {player} does not own: {', '.join(missing)}; "
            f"add them with 'cardlab collection add --player {player}'"
        )


def check_doll_house(lists: dict[str, list[dict]], independent_reroll: bool) -> None:
    """Refuse a Doll House nobody can win (no list holds the four factions), and with the
    Independent variant a list with more than one Independent (seed 002: "limiter à un seul")."""
    if independent_reroll:
        for p, cards in lists.items():
            n = sum(c["faction"] == "independent" for c in cards)
            if n > 1:
                raise SetupError(f"{p}'s list holds {n} Independent cards; with the extra-roll variant at most one (seed 002)")
    if not any(set(FOUR_FACTIONS) <= {c["faction"] for c in cards} for cards in lists.values()):
        raise SetupError("no list holds the four factions (Gotei 13, Acuerdo, Ultima Necat, neutral): nobody could win")


def resolve_stakes(catalog: Catalog, con: Database | None, players: Sequence[str], stakes: dict[str, str]) -> dict[str, str]:
    """Resolve ``player -> card reference`` stakes (an id, ``SET NUMBER`` or a name, through the
    deck-list matcher) to card ids and check them (:func:`check_stakes`).

    Returns:
        ``player -> card id``.

    Raises:
        UnknownCardError: a card the catalog does not know (with suggestions); SetupError, UsageError:
            as :func:`check_stakes`.
    """

    resolver = CardResolver(catalog)
    out = {}
    for player, ref in stakes.items():
        card_id, message = resolver.resolve(ref)
        if card_id is None:
            raise UnknownCardError(f"stake of {player}: {message}")
        out[player] = card_id
    check_stakes(con, players, out)
    return out


def check_stakes(con: Database | None, players: Sequence[str], stakes: dict[str, str]) -> None:
    """Check the stakes (seed 002 "Généralités" puts one card at stake, "une seule", with every
    player's clear agreement; read here as one card per player at most):
    each staking player plays the game and owns the card. Raises SetupError/UsageError."""

    for p, card_id in stakes.items():
        if p not in players:
            raise UsageError(f"stake for '{p}', who does not play this game (players: {', '.join(players)})")
        if con is None or owned(con, p, card_id) < 1:
            raise SetupError(f"{p} stakes {card_id} but does not own it")


def build_setup(
    catalog: Catalog,
    formats: dict,
    con: Database | None,
    kind: str,
    players: Sequence[str],
    *,
    set_code: str | None = None,
    lists: dict[str, Path] | None = None,
    replacement: bool = True,
    independent_reroll: bool = False,
    points: int = 3,
    best_of: int | None = None,
    burn_out: bool = False,
) -> dict:
    """Check a new game's parameters against seed 002 and return its setup (:mod:`cardlab.play.engine`).

    Args:
        kind: ``los-lobos``, ``doll-house``, ``ryujin-jakka`` or ``zangetsu``; players: names, in
            play order; set_code: the set whose Commons are the draw pool (Los Lobos, Zangetsu);
        lists: player -> list file (Doll House, Ryūjin Jakka), cards checked against the collections
            in ``con``; replacement: draws with replacement (a forum draw) or not;
        independent_reroll: Doll House's Independent variant; points, best_of, burn_out: Ryūjin
            Jakka's win condition (first to ``points``; best of ``best_of`` manches; until a list is
            all burned).

    Raises:
        UsageError: wrong number of players, a missing set or list, options of another game (exit 2);
        SetupError: cards not owned, a Doll House nobody can win, a pool of one Value for Zangetsu.
    """

    if kind not in KINDS:
        raise UsageError(f"unknown game '{kind}'; choose one of {', '.join(KINDS)}")
    players = [p.strip() for p in players]
    if len(set(players)) != len(players) or any(not p for p in players):
        raise UsageError("each player once, with a non-empty name")
    if len(players) < 2:
        raise UsageError(f"{kind} needs at least 2 players (--player NAME, repeated)")
    if kind == "ryujin-jakka" and len(players) != 2:
        raise UsageError("Ryūjin Jakka is played by exactly 2 players (seed 002)")
    setup: dict = {"kind": kind, "players": players, "options": {}}
    if kind in ("los-lobos", "zangetsu"):
        if lists:
            raise UsageError(f"{kind} is played with the draw pool, not with lists (seed 002)")
        if not set_code:
            raise UsageError(f"{kind} draws from a set's Commons: give --set CODE")
        pool = draw_pool(catalog, set_code)
        setup.update({"set": catalog.require_set(set_code).code, "pool": pool, "replacement": replacement})
        need = 5 * len(players) if kind == "los-lobos" else 3 * len(players)
        if not replacement and len(pool) < need + (5 * len(players) if kind == "los-lobos" else 0):
            raise SetupError(f"{len(pool)} Commons are too few to play {kind} without replacement with {len(players)} players")
        if kind == "zangetsu" and len({c["value"] for c in pool}) < 2:
            raise SetupError("the draw pool's Commons all have the same Value: a Zangetsu tie could never be broken")
    else:
        if set_code:
            raise UsageError(f"{kind} is played with each player's list, not a set (--list PLAYER:FILE)")
        lists = lists or {}
        extra = [p for p in lists if p not in players]
        if extra:
            raise UsageError(f"list for '{extra[0]}', who does not play (players: {', '.join(players)})")
        missing = [p for p in players if p not in lists]
        if missing:
            raise UsageError(f"{kind} needs a list of 10 owned cards for each player: --list {missing[0]}:FILE")
        setup["lists"] = {}
        for p in players:
            cards = read_list(lists[p], catalog, formats)
            check_owned(con, p, cards)
            setup["lists"][p] = cards
        if kind == "doll-house":
            check_doll_house(setup["lists"], independent_reroll)
            setup["options"]["independent_reroll"] = independent_reroll
        else:
            if not 1 <= points <= 10:
                raise UsageError("--points is 1 to 10 (a list has 10 cards)")
            if burn_out and best_of:
                raise UsageError("choose one win condition: --points, --best-of or --burn-out")
            if burn_out:
                setup["options"]["win"] = {"mode": "burn-out"}
            elif best_of:
                if best_of < 1 or best_of % 2 == 0:
                    raise UsageError("--best-of takes an odd number of manches (3, 5...)")
                setup["options"]["win"] = {"mode": "best-of", "games": best_of, "points": points}
            else:
                setup["options"]["win"] = {"mode": "points", "points": points}
    if kind != "doll-house" and independent_reroll:
        raise UsageError("--independent-reroll is a Doll House variant")
    return setup
