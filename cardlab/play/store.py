"""Saved mini-games (issue 13 §3, issue 33): a game's setup, host seed, commitment, log and result,
in the collections database (table ``game``), so a forum game goes on turn by turn across days.

The state is never stored as such: it is :func:`cardlab.play.thread.play` of the setup, the seed
and the log (column ``moves``), so what ``play show`` prints is always what the seed gives.

Stakes (seed 002 "Généralités": one card each, "une seule", with every player's clear agreement;
the organisers enforce the deal): a staked copy is **reserved** from the game's creation until its
end (:func:`reserved`: a copy staked in one running game cannot be staked in another, nor removed
from the collection); the game stays **pending**, with no draw, until each player accepts
(:func:`accept`), and an acceptance is refused when the player no longer holds the staked copy.
When an entry ends the game, the stakes move (every other player's staked card to the winner; a
draw or a cancelled game moves nothing) in the same transaction as the entry and the result are
saved: a process killed in between leaves the game and the collections as they were.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import NoReturn

import sqlalchemy as sa

from cardlab.collection import tables
from cardlab.collection.db import Database
from cardlab.collection.owned import NotOwnedError, move_card, owned, reserved
from cardlab.core.errors import CardlabError, InputError, UsageError
from cardlab.core.text import clip
from cardlab.play import rng
from cardlab.play.engine import KINDS, MAX_ROUNDS, MoveError
from cardlab.play.thread import SCHEME, Played, claim_opens, parse_time, play, say, show_time


class GameNotFoundError(CardlabError):
    """No saved game has that number: exit 1."""


@dataclass
class GameRecord:
    """A saved game: ``id``, ``kind``, ``created``, ``commitment`` (SHA-256 of the seed), ``setup``,
    ``moves`` (the log, :mod:`cardlab.play.thread`), ``stakes`` (player -> card id), ``status``
    (``pending``/``on``/``over``), ``result`` (winner, draw, reason, cancelled, stakes moved), and
    the host's ``seed`` (kept secret until revealed, see :func:`reveal`)."""

    id: int
    kind: str
    created: str
    commitment: str
    setup: dict
    moves: list[dict]
    stakes: dict[str, str]
    status: str
    seed: bytes = field(repr=False, default=b"")
    result: dict | None = None

    @property
    def revealed(self) -> bool:
        """The seed may be shown: the game is over."""
        return self.status == "over"


def _now(now: datetime | None = None) -> str:
    return show_time(now or datetime.now(UTC))


after_transfer: Callable[[], None] | None = None
"""A test seam: called inside the transaction after each staked card is moved (the kill -9 test
pauses there); None in use."""


def _row(r: tuple) -> GameRecord:
    gid, kind, created, seed, commitment, setup, moves, stakes, status, result = r
    return GameRecord(
        gid,
        kind,
        created,
        commitment,
        json.loads(setup),
        json.loads(moves),
        json.loads(stakes),
        status,
        bytes(seed),
        json.loads(result) if result else None,
    )


def _select() -> sa.Select:
    g = tables.game
    return sa.select(g.c.id, g.c.kind, g.c.created, g.c.seed, g.c.commitment, g.c.setup, g.c.moves, g.c.stakes, g.c.status, g.c.result)


def load(con: Database, game_id: int | str, *, lock: bool = False) -> GameRecord:
    """Return saved game ``game_id`` (``12`` or ``#12``).

    Args:
        lock: lock the game's row until the end of the caller's transaction (``FOR UPDATE``).

    Raises:
        UsageError: not a game number; GameNotFoundError: no such game.
    """
    text = str(game_id).lstrip("#")
    if not text.isdigit() or len(text) > 18:
        raise UsageError(say("'{game}' is not a game number (see 'cardlab play list')", game=game_id))
    stmt = _select().where(tables.game.c.id == int(text))
    rows = con.execute(stmt.with_for_update() if lock else stmt)
    if not rows:
        raise GameNotFoundError(say("no game #{n} (see 'cardlab play list')", n=text))
    return _row(tuple(rows[0]))


def games(con: Database) -> list[GameRecord]:
    """Return every saved game, newest first."""
    return [_row(tuple(r)) for r in con.execute(_select().order_by(tables.game.c.id.desc()))]


def replay_record(rec: GameRecord) -> Played:
    """Return the replayed state and posts of a saved game (:func:`cardlab.play.thread.play`)."""
    return play(rec.setup, rec.stakes, rec.commitment, rec.seed, rec.moves, rec.created)


def _check_stake(con: Database, player: str, card_id: str, game_id: int | None) -> None:
    """Refuse a stake ``player`` cannot hold for this game: not owned, or every copy reserved by
    another running game (the row is locked first, so two games never reserve one copy)."""
    have = owned(con, player, card_id, lock=True)
    others = [g for g in reserved(con, player, card_id) if g != game_id]
    if have < 1:
        raise NotOwnedError(f"refused: {player} does not own {card_id}, so cannot stake it")
    if have - len(others) < 1:
        games = ", ".join(f"#{g}" for g in others)
        raise NotOwnedError(
            f"refused: {player}'s {'copy' if have == 1 else f'{have} copies'} of {card_id} are staked in running game(s) {games}"
        )


def _save(con: Database, rec: GameRecord, before: str, played: Played, now: str) -> None:
    """Write a game's log and state; when it has just ended, move its stakes (same transaction)."""
    rec.status = played.status
    if played.status == "over" and before != "over":
        rec.result = dict(played.result or {})
        for s in rec.result.get("stakes_moved", []):
            try:
                move_card(con, s["card"], s["from"], s["to"])
            except NotOwnedError as err:
                raise NotOwnedError(f"{err}: the stake cannot move, so nothing was saved (game #{rec.id} goes on)") from None
            if after_transfer is not None:
                after_transfer()
    g = tables.game
    con.execute(
        sa.update(g)
        .where(g.c.id == rec.id)
        .values(
            moves=json.dumps(rec.moves, ensure_ascii=False),
            updated=now,
            status=rec.status,
            result=json.dumps(rec.result, ensure_ascii=False) if rec.result else None,
        )
    )


def create(
    con: Database, setup: dict, stakes: dict[str, str] | None = None, seed: bytes | None = None, *, now: datetime | None = None
) -> tuple[GameRecord, Played]:
    """Save a new game, pending until every player accepts (:func:`accept`); its stakes are
    reserved from now on.

    Args:
        setup: see :mod:`cardlab.play.engine` (marked ``scheme`` :data:`~cardlab.play.thread.SCHEME`
            here); stakes: player -> staked card id; seed: the host's seed, None for a fresh one
            (:func:`rng.new_seed`); now: the start post's time (default: the clock).

    Returns:
        ``(record, played)``: ``played.posts[0]`` is the start post to publish.

    Raises:
        NotOwnedError: a staked card its player does not own, or whose every copy is staked in
            another running game; UsageError: a stake of a non-player.
    """
    seed = seed if seed is not None else rng.new_seed()
    setup = {**setup, "scheme": SCHEME}
    stakes = dict(stakes or {})
    created = _now(now)
    g = tables.game
    with con.transaction():
        for player, card_id in sorted(stakes.items()):
            if player not in setup["players"]:
                raise UsageError(f"stake for '{player}', who does not play this game (players: {', '.join(setup['players'])})")
            _check_stake(con, player, card_id, None)
        gid = con.scalar(
            sa.insert(g)
            .values(
                kind=setup["kind"],
                created=created,
                updated=created,
                seed=seed,
                commitment=rng.commitment(seed),
                setup=json.dumps(setup, ensure_ascii=False),
                moves="[]",
                stakes=json.dumps(stakes, ensure_ascii=False),
                status="pending",
            )
            .returning(g.c.id)
        )
        rec = GameRecord(int(gid), setup["kind"], created, rng.commitment(seed), setup, [], stakes, "pending", seed)
    return rec, replay_record(rec)


def _append(
    con: Database, game_id: int | str, entries: Callable[[GameRecord, Played], list[dict]], now: datetime | None
) -> tuple[GameRecord, Played]:
    """Add log entries to a game in one transaction (row locked), replay, save, settle."""
    with con.transaction():
        rec = load(con, game_id, lock=True)
        before = replay_record(rec)
        if before.status == "over":
            raise MoveError(say("game #{n} is over", n=rec.id))
        rec.moves = [*rec.moves, *entries(rec, before)]
        played = replay_record(rec)
        _save(con, rec, before.status, played, _now(now))
    return rec, played


def accept(
    con: Database, game_id: int | str, player: str, contribution: str | None = None, *, now: datetime | None = None
) -> tuple[GameRecord, Played]:
    """Record ``player``'s acceptance of a pending game's rules and stakes, with their contribution
    to the seed (:func:`rng.check_contribution`; None: a fresh one). The last acceptance starts the
    draws (Los Lobos deals, Zangetsu is played in full; stakes move if that ends it).

    Raises:
        MoveError: not a player, accepted already, the game has started or is over;
        NotOwnedError: ``player`` stakes a card they no longer own (or every copy is staked elsewhere);
        UsageError: a malformed contribution.
    """
    try:
        given = rng.check_contribution(contribution) if contribution is not None else rng.new_contribution()
    except ValueError as err:
        raise UsageError(f"--contribution: {err}") from None

    def entries(rec: GameRecord, before: Played) -> list[dict]:
        if player not in rec.setup["players"]:
            raise MoveError(
                say(
                    "refused: {player} does not play game #{n} (players: {players})",
                    player=player,
                    n=rec.id,
                    players=", ".join(rec.setup["players"]),
                )
            )
        if player in rec.stakes:
            _check_stake(con, player, rec.stakes[player], rec.id)
        return [{"move": "accept", "player": player, "contribution": given, "at": _now(now)}]

    return _append(con, game_id, entries, now)


def decline(con: Database, game_id: int | str, player: str, *, now: datetime | None = None) -> tuple[GameRecord, Played]:
    """Record that ``player`` refuses a pending game: it is cancelled, nothing is drawn, its
    reserved stakes are free again. Raises MoveError (not a player, the game has started)."""
    return _append(con, game_id, lambda rec, before: [{"move": "decline", "player": player, "at": _now(now)}], now)


def claim(con: Database, game_id: int | str, player: str, *, now: datetime | None = None) -> tuple[GameRecord, Played]:
    """Win a running game by forfeit (seed 002 "Généralités": a win may be asked against a player
    who has not answered for more than a week): ``player`` answered last and every opponent's last
    entry is more than 7 days old. The claim is a post of the thread; stakes move with it.

    Raises:
        MoveError: refused (a non-player, a pending or finished game, too early: the message gives
            the time after which the claim is possible).
    """
    when = now or datetime.now(UTC)

    def entries(rec: GameRecord, before: Played) -> list[dict]:
        players = rec.setup["players"]
        if before.status == "pending":
            raise MoveError(say("refused: game #{n} has not started (waiting for acceptances); nothing to claim", n=rec.id))
        opens, why = claim_opens(players, before.last, player)
        if opens is None:
            dates = [d for d in (claim_opens(players, before.last, p)[0] for p in players) if d is not None]
            later = say("; the players' claim opens after {time}", time=show_time(min(dates))) if dates and player not in players else ""
            raise MoveError(say("refused: {why}", why=why) + later)
        if when <= opens:
            raise MoveError(
                say(
                    "refused: {player} may claim game #{n} after {time} (7 days after the opponents' last answer)",
                    player=player,
                    n=rec.id,
                    time=show_time(opens),
                )
            )
        return [{"move": "claim", "player": player, "at": _now(when)}]

    return _append(con, game_id, entries, when)


def play_move(
    con: Database, game_id: int | str, move: dict, until_over: bool = False, *, now: datetime | None = None
) -> tuple[GameRecord, Played]:
    """Add one move to a running game (``replace`` for Los Lobos, ``roll`` for the dice games, with
    ``player``: who moves), replay it, save it; if the game ends, its stakes move in the same transaction.

    Args:
        until_over: a roll repeated until the game ends (``play roll --to-end``), one post (at
            most :data:`cardlab.play.engine.MAX_ROUNDS` rounds).

    Raises:
        MoveError: the rules refuse the move (game pending or over, second replacement...): nothing is saved.
    """

    def entries(rec: GameRecord, before: Played) -> list[dict]:
        entry = {**move, "at": _now(now)}
        if entry.get("move") == "roll" and until_over:
            for n in range(1, MAX_ROUNDS + 1):
                entry["rounds"] = n
                trial = play(rec.setup, rec.stakes, rec.commitment, rec.seed, [*rec.moves, entry], rec.created)
                if trial.status == "over":
                    break
        return [entry]

    return _append(con, game_id, entries, now)


def state(con: Database, game_id: int | str) -> tuple[GameRecord, Played]:
    """Return a saved game and its replayed state and posts."""
    rec = load(con, game_id)
    return rec, replay_record(rec)


def reveal(con: Database, game_id: int | str) -> str:
    """Return the host's seed of a finished game as hex (its SHA-256 is the commitment of the start
    post). Raises CardlabError (exit 1) while the game is on: the seed would tell the draws to come."""
    rec = load(con, game_id)
    if rec.status != "over":
        raise CardlabError(say("game #{n} is still on; its seed is revealed once it is over", n=rec.id))
    return rec.seed.hex()


_HEX = re.compile(r"[0-9a-fA-F]*")
_MOVES = ("accept", "decline", "replace", "roll", "claim")
_EXPORT = "export the game again with 'cardlab play show GAME --output-format json'"


def check_record(record: object, where: str = "the game record", seed_given: bool = False) -> None:
    """Check the shape of a game record as ``play show --output-format json`` writes it, before it
    is replayed: every field :func:`verify` reads, with its type (the setup's game, players, cards,
    the log's entries and their times, the stakes, the seed and the commitment).

    Args:
        record: the record read from JSON; where: the record's file, to name in messages;
        seed_given: the seed comes from ``--seed``, so the record's own may be null.

    Raises:
        InputError: the first field missing or of the wrong kind, named by its path in the record
            (``setup.pool[2].value``) with what it should be (exit 2).
    """

    def bad(path: str, what: str) -> NoReturn:
        raise InputError(f"{where}: field '{path}' {what}; {_EXPORT}")

    def time(value: object, path: str) -> None:
        try:
            parse_time(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            bad(path, f"is {_shown(value)}, not a time such as 2026-12-03T12:00:00Z")

    def card(value: object, path: str) -> None:
        if not isinstance(value, dict):
            bad(path, f'is {_shown(value)}, not a card ({{"id", "name", "value", "faction"}})')
        for key in ("id", "name"):
            if not isinstance(value.get(key), str):
                bad(f"{path}.{key}", "is missing" if key not in value else f"is {_shown(value[key])}, not text")
        if not isinstance(value.get("value"), int) or isinstance(value.get("value"), bool):
            bad(f"{path}.value", "is missing" if "value" not in value else f"is {_shown(value['value'])}, not a whole number")
        if value.get("faction") is not None and not isinstance(value["faction"], str):
            bad(f"{path}.faction", f"is {_shown(value['faction'])}, not text")

    if not isinstance(record, dict):
        raise InputError(f"{where}: not a game record (a JSON object); {_EXPORT}")
    seed = record.get("seed")
    if not seed_given and not (isinstance(seed, str) and _HEX.fullmatch(seed) and len(seed) >= 32 and len(seed) % 2 == 0):
        what = "is missing" if "seed" not in record else f"is {_shown(seed)}"
        bad("seed", f"{what}, not the revealed seed (hexadecimal digits; give --seed HEX once the game is over)")
    commitment = record.get("commitment")
    if not (isinstance(commitment, str) and _HEX.fullmatch(commitment) and len(commitment) == 64):
        bad("commitment", "is missing" if "commitment" not in record else f"is {_shown(commitment)}, not 64 hexadecimal digits")
    setup = record.get("setup")
    if not isinstance(setup, dict):
        bad("setup", "is missing" if "setup" not in record else f"is {_shown(setup)}, not an object")
    if setup.get("kind") not in KINDS:
        bad("setup.kind", "is missing" if "kind" not in setup else f"is {_shown(setup['kind'])}, not one of {', '.join(KINDS)}")
    players = setup.get("players")
    if not isinstance(players, list) or len(players) < 2 or not all(isinstance(p, str) for p in players):
        bad("setup.players", "is missing" if "players" not in setup else f"is {_shown(players)}, not a list of two or more names")
    if "pool" in setup:
        if not isinstance(setup["pool"], list):
            bad("setup.pool", f"is {_shown(setup['pool'])}, not a list of cards")
        for i, c in enumerate(setup["pool"]):
            card(c, f"setup.pool[{i}]")
    lists = setup.get("lists")
    if lists is not None:
        if not isinstance(lists, dict) or not all(isinstance(v, list) for v in lists.values()):
            bad("setup.lists", f"is {_shown(lists)}, not an object of players' card lists")
        for p, cards in lists.items():
            for i, c in enumerate(cards):
                card(c, f"setup.lists.{p}[{i}]")
    for key, kind, word in (("options", dict, "an object"), ("replacement", bool, "true or false"), ("set", str, "text")):
        if setup.get(key) is not None and not isinstance(setup[key], kind):
            bad(f"setup.{key}", f"is {_shown(setup[key])}, not {word}")
    moves = record.get("moves")
    if not isinstance(moves, list):
        bad("moves", "is missing" if "moves" not in record else f"is {_shown(moves)}, not a list of log entries")
    for i, m in enumerate(moves):
        path = f"moves[{i}]"
        if not isinstance(m, dict):
            bad(path, f"is {_shown(m)}, not a log entry (an object)")
        if m.get("move") not in _MOVES:
            bad(f"{path}.move", "is missing" if "move" not in m else f"is {_shown(m['move'])}, not one of {', '.join(_MOVES)}")
        for key in ("player", "contribution"):
            if m.get(key) is not None and not isinstance(m[key], str):
                bad(f"{path}.{key}", f"is {_shown(m[key])}, not text")
        if m.get("at"):
            time(m["at"], f"{path}.at")
        cards = m.get("cards")
        if cards is not None and not (isinstance(cards, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in cards)):
            bad(f"{path}.cards", f"is {_shown(cards)}, not a list of positions (1 to 5)")
        rounds = m.get("rounds")
        if rounds is not None and not (isinstance(rounds, int) and not isinstance(rounds, bool) and 1 <= rounds <= MAX_ROUNDS):
            bad(f"{path}.rounds", f"is {_shown(rounds)}, not a number of rounds from 1 to {MAX_ROUNDS}")
    stakes = record.get("stakes")
    if stakes is not None and not (isinstance(stakes, dict) and all(isinstance(v, str) for v in stakes.values())):
        bad("stakes", f"is {_shown(stakes)}, not an object of players' card ids")
    if record.get("created"):
        time(record["created"], "created")
    if not isinstance(record.get("events"), list):
        bad("events", "is missing" if "events" not in record else f"is {_shown(record['events'])}, not a list")


def _shown(value: object) -> str:
    """A JSON value as a message quotes it (at most 60 characters)."""
    return clip(json.dumps(value, ensure_ascii=False), 60)


def verify(record: dict, seed_hex: str | None = None, where: str = "the game record") -> tuple[bool, list[str]]:
    """Check a game as exported by ``play show --output-format json`` against its seed (``seed_hex``,
    else the record's own ``seed``): the seed's SHA-256 must be the commitment, and replaying the
    setup, stakes and log must give the record's kind, draw algorithm, players, events, scores,
    status and result (winner, draw, reason, stakes moved): a field edited by hand is a finding
    (the posts are the thread's, checked by ``play verify`` on their text).

    Returns:
        ``(ok, findings)``: what does not match (empty when ok).

    Raises:
        InputError: a field missing or of the wrong kind (:func:`check_record`, naming the field
            and ``where``, the record's file).
        UsageError: ``seed_hex`` is not a seed.
    """
    check_record(record, where, seed_given=seed_hex is not None)
    try:
        seed = rng.parse_seed(seed_hex if seed_hex is not None else record["seed"])
    except ValueError as err:
        if seed_hex is None:
            raise InputError(f"{where}: field 'seed' is not a seed: {err}") from None
        raise UsageError(f"--seed {clip(seed_hex, 80)} is not a seed: hexadecimal digits, at least 32") from None
    setup, log, commitment = record["setup"], record["moves"], record["commitment"]
    stakes, created = record.get("stakes") or {}, record.get("created") or ""
    findings = []
    if rng.commitment(seed) != commitment:
        findings.append(f"SHA-256 of the seed is {rng.commitment(seed)}, not the commitment {commitment}")
    try:
        played = play(setup, stakes, commitment, seed, list(log), created)
    except MoveError as err:
        return False, [f"the record's log cannot be replayed: {err}"]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):  # a shape check_record does not know
        raise InputError(f"{where}: its setup and moves cannot be replayed; {_EXPORT}") from None
    events = json.loads(json.dumps(played.outcome.events))
    got = record.get("events")
    if not isinstance(got, list) or events != got:
        got = got if isinstance(got, list) else []
        first = next((i for i, (a, b) in enumerate(zip(events, got, strict=False)) if a != b), min(len(events), len(got)))
        findings.append(f"the replayed events differ from event {first + 1} on")
    expected = {
        "kind": setup.get("kind"),
        "algorithm": rng.ALGORITHM,
        "players": setup.get("players"),
        "status": played.status,
        "scores": json.loads(json.dumps(played.outcome.scores)),
        "result": json.loads(json.dumps(played.result)),
    }
    for key, want in expected.items():
        if record.get(key) != want:
            findings.append(
                f"'{key}' is {json.dumps(record.get(key), ensure_ascii=False)}, the replay gives {json.dumps(want, ensure_ascii=False)}"
            )
    return not findings, findings
