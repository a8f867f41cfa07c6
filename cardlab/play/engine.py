"""The four mini-games of seed 002 as pure replay functions: a game is its setup (players, draw pool
or lists, options) plus its seed plus the players' moves, in order; :func:`replay` re-runs it from
scratch and returns every draw, roll, hand, score and the result. The same setup, seed and moves
always give the same events (:mod:`cardlab.play.rng`), so any player can check a game from its
revealed seed. No I/O here; saving games is :mod:`cardlab.play.store`.

A setup is a JSON-ready dict (``GameSetup``)::

    {"kind": "los-lobos" | "doll-house" | "ryujin-jakka" | "zangetsu",
     "players": ["alice", "bob"],
     "pool": [{"id", "name", "value", "faction"}...],      # Los Lobos, Zangetsu: the Commons of a set
     "replacement": true,                                   # draws with replacement (a forum draw)
     "lists": {"alice": [{"id", "name", "value", "faction"} x 10], ...},   # Doll House, Ryūjin Jakka
     "options": {...}}                                      # per game, see each function

Moves (``{"move": ..., "player": ...}``): Los Lobos ``replace`` (``cards``: positions 1-5, empty to
keep the hand), Doll House and Ryūjin Jakka ``roll`` (one round for every player at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.core import words
from cardlab.core.errors import CardlabError, UsageError
from cardlab.games.forumtcg import FOUR_FACTIONS
from cardlab.play.hands import describe, rank, winners
from cardlab.play.rng import Stream

KINDS = ("los-lobos", "doll-house", "ryujin-jakka", "zangetsu")
MAX_ROUNDS = 10_000
"""A dice game still undecided after this many rounds ends (never reached in practice: the odds of
a round with no progress are at most 9/10)."""


class MoveError(CardlabError):
    """A move the game's rules refuse (not your turn, already replaced, game over...): exit 1."""


@dataclass
class Outcome:
    """A replayed game.

    Attributes:
        events: what happened, in order: dicts with ``type`` (``draw``, ``roll``, ``hand``, ``score``,
            ``burn``, ``round``, ``result``, ``note``) and their details.
        over: the game has ended; waiting: the players whose move is awaited (empty when over).
        winner: the winner's name, None for a draw or an unfinished game; draw: ended without winner.
        hands: Los Lobos: player -> current hand (card dicts); scores: player -> points or sums.
        counter: the generator blocks used (the stream's counter at the end).
    """

    events: list[dict] = field(default_factory=list)
    over: bool = False
    waiting: list[str] = field(default_factory=list)
    winner: str | None = None
    draw: bool = False
    hands: dict[str, list[dict]] = field(default_factory=dict)
    scores: dict[str, Any] = field(default_factory=dict)
    counter: int = 0

    def finish(self, winner: str | None, reason: str) -> None:
        """End the game: ``winner`` None is a draw; adds the ``result`` event."""
        self.over, self.waiting, self.winner, self.draw = True, [], winner, winner is None
        self.events.append({"type": "result", "winner": winner, "draw": winner is None, "reason": reason})


class _Pool:
    """Draws from the draw pool (seed 002 "Los Lobos", "Zangetsu": "les cartes du tirage"): uniform
    over the pool's cards, with replacement unless ``replacement`` is False."""

    def __init__(self, cards: Sequence[dict], replacement: bool, stream: Stream) -> None:
        self.cards = list(cards)
        self.replacement = replacement
        self.stream = stream

    def draw(self) -> dict | None:
        """Return one card, or None when a pool drawn without replacement is empty."""
        if not self.cards:
            return None
        i = self.stream.below(len(self.cards))
        return self.cards[i] if self.replacement else self.cards.pop(i)


def _card(c: dict) -> dict:
    return {"id": c["id"], "name": c["name"], "value": c["value"], "faction": c.get("faction")}


# --- Los Lobos ---------------------------------------------------------------------------------


def los_lobos(setup: dict, moves: Sequence[dict], stream: Stream) -> Outcome:
    """Replay a Los Lobos game (seed 002 "Los Lobos").

    Each player, in order, draws exactly 5 Commons. A hand of 5 Values alike (Los Lobos) ends the
    game at once: the best Los Lobos wins (the higher Value; equal ones draw). Otherwise each player
    may replace chosen cards once (move ``replace`` with ``cards`` = positions 1-5; ``[]`` keeps the
    hand); replacements are drawn when the move is made. When every player has moved, the best hand
    wins (:mod:`cardlab.play.hands`); equal best hands are a draw.

    Raises:
        MoveError: a move out of turn (unknown player, second replacement, bad positions, game over).
    """
    out = Outcome()
    pool = _Pool(setup["pool"], setup.get("replacement", True), stream)
    players = setup["players"]
    for p in players:
        out.hands[p] = []
        for slot in range(1, 6):
            card = pool.draw()
            if card is None:
                raise MoveError("the draw pool ran out before every player had 5 cards")
            out.hands[p].append(_card(card))
            out.events.append({"type": "draw", "player": p, "slot": slot, "card": _card(card), "phase": "deal"})
    ranks = {p: rank([c["value"] for c in out.hands[p]]) for p in players}
    for p in players:
        out.events.append(
            {
                "type": "hand",
                "player": p,
                "class": ranks[p].hand_class,
                "text": describe(ranks[p]),
                "values": [c["value"] for c in out.hands[p]],
            }
        )
    lobos = [p for p in players if ranks[p].hand_class == "los-lobos"]
    if lobos:
        best = winners([ranks[p] for p in lobos])
        out.finish(lobos[best[0]] if len(best) == 1 else None, "Los Lobos")
        _check_no_moves(moves)
        return out
    done: set[str] = set()
    for move in moves:
        p = move.get("player")
        if p not in out.hands:
            raise MoveError(f"'{p}' does not play this game (players: {', '.join(players)})")
        if p in done:
            raise MoveError(f"{p} has already replaced cards or kept the hand (once only, seed 002 'Los Lobos')")
        given = list(move.get("cards") or [])
        slots = sorted(set(given))
        if any(not isinstance(s, int) or not 1 <= s <= 5 for s in slots):
            raise MoveError("cards to replace are positions 1 to 5, e.g. --cards 2,5")
        twice = sorted({s for s in given if given.count(s) > 1})
        if twice:  # the post would name the position twice for one card replaced
            raise MoveError(f"position {', '.join(map(str, twice))} given twice: each card is replaced once (--cards 2,5)")
        for s in slots:
            card = pool.draw()
            if card is None:
                raise MoveError("the draw pool is empty: no card left to replace with")
            old = out.hands[p][s - 1]
            out.hands[p][s - 1] = _card(card)
            out.events.append({"type": "draw", "player": p, "slot": s, "card": _card(card), "phase": "replace", "replaced": old})
        if not slots:
            out.events.append({"type": "note", "player": p, "text": f"{p} keeps the hand"})
        done.add(p)
        r = rank([c["value"] for c in out.hands[p]])
        ranks[p] = r
        out.events.append(
            {"type": "hand", "player": p, "class": r.hand_class, "text": describe(r), "values": [c["value"] for c in out.hands[p]]}
        )
    out.waiting = [p for p in players if p not in done]
    out.scores = {p: describe(ranks[p]) for p in players}
    if not out.waiting:
        best = winners([ranks[p] for p in players])
        out.finish(players[best[0]] if len(best) == 1 else None, "best hand" if len(best) == 1 else "equal best hands")
    return out


def _check_no_moves(moves: Sequence[dict]) -> None:
    if moves:
        raise MoveError("the game is over")


# --- Zangetsu ----------------------------------------------------------------------------------


def zangetsu(setup: dict, moves: Sequence[dict], stream: Stream) -> Outcome:
    """Replay a Zangetsu game (seed 002 "Zangetsu"): each player draws exactly 3 Commons and adds
    their Values; the players tied for the highest sum each draw one more Common (added to their
    sum), again and again, until one is ahead. Played in full when the game is created (no moves).
    A pool drawn without replacement that runs out leaves the tied players in a draw.

    Raises:
        MoveError: any move (Zangetsu has none).
    """
    _check_no_moves(moves)
    out = Outcome()
    pool = _Pool(setup["pool"], setup.get("replacement", True), stream)
    players = list(setup["players"])
    sums = dict.fromkeys(players, 0)
    for p in players:
        for slot in range(1, 4):
            card = pool.draw()
            if card is None:
                out.finish(None, "the draw pool ran out")
                return out
            sums[p] += card["value"]
            out.events.append({"type": "draw", "player": p, "slot": slot, "card": _card(card), "phase": "deal"})
        out.events.append({"type": "score", "player": p, "sum": sums[p]})
    tied = [p for p in players if sums[p] == max(sums.values())]
    extra = 0
    while len(tied) > 1:
        extra += 1
        if extra > MAX_ROUNDS:
            out.finish(None, "no tie-break after many draws")
            return out
        out.events.append({"type": "round", "round": extra, "text": f"tie at {sums[tied[0]]}: {', '.join(tied)} draw again"})
        for p in tied:
            card = pool.draw()
            if card is None:
                out.scores = sums
                out.finish(None, "the draw pool ran out during the tie-break")
                return out
            sums[p] += card["value"]
            out.events.append({"type": "draw", "player": p, "slot": 3 + extra, "card": _card(card), "phase": "tie-break"})
            out.events.append({"type": "score", "player": p, "sum": sums[p]})
        top = max(sums[p] for p in tied)
        tied = [p for p in tied if sums[p] == top]
    out.scores = sums
    out.finish(tied[0], "highest sum")
    return out


# --- Doll House --------------------------------------------------------------------------------


def doll_house(setup: dict, moves: Sequence[dict], stream: Stream) -> Outcome:
    """Replay a Doll House game (seed 002 "Doll House"). Each player has a list of 10 cards
    (numbered 1-10). The first ``roll`` move is 4d10 for every player, each later one 1d10 for every
    player (all at once); a roll takes the card of that number. Whoever holds the four factions
    (Gotei 13, Acuerdo, Ultima Necat, neutral) at the end of a round wins; two or more at once draw.
    Independent cards count for nothing, unless ``options.independent_reroll``: then rolling an
    Independent grants an immediate extra roll (the seed's variant).

    Raises:
        MoveError: a move that is not ``roll``, or a roll after the end.
    """

    out = Outcome()
    players = setup["players"]
    reroll = bool(setup.get("options", {}).get("independent_reroll"))
    held: dict[str, set[str]] = {p: set() for p in players}
    for n, move in enumerate(moves, 1):
        if out.over:
            raise MoveError("the game is over")
        if move.get("move") != "roll":
            raise MoveError("Doll House moves are rolls: cardlab play roll GAME")
        out.events.append({"type": "round", "round": n})
        for p in players:
            dice = 4 if n == 1 else 1
            while dice:
                dice -= 1
                number = stream.die(10)
                card = setup["lists"][p][number - 1]
                faction = card.get("faction")
                counts = faction in FOUR_FACTIONS
                new = counts and faction not in held[p]
                if counts:
                    held[p].add(faction)
                event = {
                    "type": "roll",
                    "player": p,
                    "round": n,
                    "die": number,
                    "card": _card(card),
                    "new_faction": new,
                    "factions": sorted(held[p]),
                }
                if faction == "independent" and reroll:
                    event["extra_roll"] = True
                    dice += 1
                out.events.append(event)
        done = [p for p in players if len(held[p]) == len(FOUR_FACTIONS)]
        if done:
            out.finish(
                done[0] if len(done) == 1 else None, "Doll House" if len(done) == 1 else "Doll House for several players in the same round"
            )
        elif n >= MAX_ROUNDS:
            out.finish(None, "no Doll House after many rounds")
    out.scores = {p: len(held[p]) for p in players}
    if not out.over:
        out.waiting = list(players)
    return out


# --- Ryūjin Jakka ------------------------------------------------------------------------------


def ryujin_jakka(setup: dict, moves: Sequence[dict], stream: Stream) -> Outcome:
    """Replay a Ryūjin Jakka game (seed 002 "Ryūjin Jakka"): exactly 2 players with lists of 10
    cards. Each ``roll`` move is one round: each player rolls 1d10 for a card of the list, rerolling
    the numbers of burned cards. Odd rounds the higher Value scores 1 point, even rounds the lower;
    the beaten card is burned (for this game only). Equal Values: nobody scores and nothing burns
    (our rule; the seed says nothing).

    ``options.win`` (set at the start, as the seed asks): ``{"mode": "points", "points": 3}`` (first
    to N points; the seed's suggestion, 1 is a variant), ``{"mode": "best-of", "games": 3, "points":
    N}`` (manches to N points each, burned cards restored between manches; first to win most of the
    ``games``; a drawn manche is replayed), ``{"mode": "burn-out"}`` (play until one list is all
    burned; more points wins, equal points draw). A manche where no round can ever score (every
    unburned card on both sides has the same Value) or where a list is all burned ends there: more
    points wins it, equal points draw it.

    Raises:
        MoveError: a move that is not ``roll``, or a roll after the end.
    """
    out = Outcome()
    players = setup["players"]
    win = setup.get("options", {}).get("win") or {"mode": "points", "points": 3}
    mode = win.get("mode", "points")
    target = int(win.get("points", 3))
    games = int(win.get("games", 1)) if mode == "best-of" else 1
    need = games // 2 + 1
    manches = dict.fromkeys(players, 0)
    state = _manche(players)
    played = 0
    for move in moves:
        if out.over:
            raise MoveError("the game is over")
        if move.get("move") != "roll":
            raise MoveError("Ryūjin Jakka moves are rolls: cardlab play roll GAME")
        state["round"] += 1
        r = state["round"]
        out.events.append({"type": "round", "round": r, "manche": played + 1, "rule": "higher" if r % 2 else "lower"})
        drawn = {}
        for p in players:
            while True:
                number = stream.die(10)
                if number not in state["burned"][p]:
                    break
                out.events.append({"type": "roll", "player": p, "round": r, "die": number, "burned": True})
            card = setup["lists"][p][number - 1]
            drawn[p] = (number, card)
            out.events.append({"type": "roll", "player": p, "round": r, "die": number, "card": _card(card)})
        (a, (na, ca)), (b, (nb, cb)) = drawn.items()
        if ca["value"] == cb["value"]:
            out.events.append({"type": "score", "round": r, "winner": None, "text": "equal Values: no point, nothing burned"})
        else:
            higher = a if ca["value"] > cb["value"] else b
            scorer = higher if r % 2 else (b if higher == a else a)
            loser = b if scorer == a else a
            state["points"][scorer] += 1
            number = drawn[loser][0]
            state["burned"][loser].add(number)
            out.events.append({"type": "score", "round": r, "winner": scorer, "points": dict(state["points"])})
            out.events.append({"type": "burn", "player": loser, "die": number, "card": _card(drawn[loser][1])})
        ended = _manche_end(setup, players, state, mode, target)
        if ended is not None:
            played += 1
            winner, reason = ended
            if games == 1:
                out.scores = dict(state["points"])
                out.finish(winner, reason)
                continue
            if winner is not None:
                manches[winner] += 1
            out.events.append(
                {
                    "type": "note",
                    "text": f"manche {played}: " + (f"{winner} wins" if winner else "draw, replayed"),
                    "manches": dict(manches),
                }
            )
            if winner is not None and manches[winner] >= need:
                out.scores = dict(manches)
                out.finish(winner, f"best of {games}")
                continue
            if played >= MAX_ROUNDS:
                out.finish(None, "too many drawn manches")
                continue
            state = _manche(players)
        elif state["round"] >= MAX_ROUNDS:
            out.finish(None, "undecided after many rounds")
    if not out.over:
        out.scores = dict(state["points"]) if games == 1 else {"manches": dict(manches), "points": dict(state["points"])}
        out.waiting = list(players)
    return out


def _manche(players: Sequence[str]) -> dict:
    return {"round": 0, "points": dict.fromkeys(players, 0), "burned": {p: set() for p in players}}


def _manche_end(setup: dict, players: Sequence[str], state: dict, mode: str, target: int) -> tuple[str | None, str] | None:
    """``(winner or None, reason)`` when the manche is over, else None."""
    pts = state["points"]
    if mode in ("points", "best-of"):
        for p in players:
            if pts[p] >= target:
                return p, f"first to {words.count(target, 'point')}"
    left = {p: {c["value"] for i, c in enumerate(setup["lists"][p], 1) if i not in state["burned"][p]} for p in players}
    a, b = players
    reason = None
    if not left[a] or not left[b]:
        reason = "a list is all burned"
    elif len(left[a]) == 1 and left[a] == left[b]:
        reason = "no round can score any more (equal Values left)"
    if reason is None:
        return None
    if pts[a] == pts[b]:
        return None, reason + ", equal points"
    return (a if pts[a] > pts[b] else b), reason + ", more points"


ENGINES = {"los-lobos": los_lobos, "doll-house": doll_house, "ryujin-jakka": ryujin_jakka, "zangetsu": zangetsu}


def replay(setup: dict, seed: bytes, moves: Sequence[dict]) -> Outcome:
    """Re-run a game from scratch: ``setup`` (module docstring), its ``seed`` and its ``moves``.

    Returns:
        The :class:`Outcome`, with ``counter`` = the generator blocks used.

    Raises:
        MoveError: a move the rules refuse; UsageError: an unknown kind.
    """
    engine = ENGINES.get(setup.get("kind", ""))
    if engine is None:
        raise UsageError(f"unknown game '{setup.get('kind')}'; choose one of {', '.join(KINDS)}")
    stream = Stream(seed)
    out = engine(setup, list(moves), stream)
    out.counter = stream.counter
    return out
