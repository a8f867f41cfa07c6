"""Saved mini-games (issue 13 §3): a game's setup, seed, commitment, moves and result, in the
collections database (table ``game``), so a forum game goes on turn by turn across days.

The state is never stored as such: it is :func:`cardlab.play.engine.replay` of the setup, the seed
and the moves, so what ``play show`` prints is always what the seed gives. When a move ends the
game, its stakes move in the same transaction as the move is saved (seed 002 "Généralités": "une
seule" card each; the loser's staked card goes to the winner; a draw moves nothing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlalchemy as sa

from cardlab.collection import tables
from cardlab.collection.db import Database
from cardlab.collection.owned import NotOwnedError, move_card
from cardlab.core.errors import CardlabError, UsageError
from cardlab.play import rng
from cardlab.play.engine import MAX_ROUNDS, MoveError, Outcome, replay


class GameNotFoundError(CardlabError):
    """No saved game has that number: exit 1."""


@dataclass
class GameRecord:
    """A saved game: ``id``, ``kind``, ``created``, ``commitment`` (SHA-256 of the seed), ``setup``,
    ``moves``, ``stakes`` (player -> card id), ``status`` (``on``/``over``), ``result`` (winner,
    draw, reason, stakes moved), and the ``seed`` (kept secret until revealed, see :func:`reveal`)."""

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


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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
        raise UsageError(f"'{game_id}' is not a game number (see 'cardlab play list')")
    stmt = _select().where(tables.game.c.id == int(text))
    rows = con.execute(stmt.with_for_update() if lock else stmt)
    if not rows:
        raise GameNotFoundError(f"no game #{text} (see 'cardlab play list')")
    return _row(tuple(rows[0]))


def games(con: Database) -> list[GameRecord]:
    """Return every saved game, newest first."""
    return [_row(tuple(r)) for r in con.execute(_select().order_by(tables.game.c.id.desc()))]


def _settle(con: Database, rec: GameRecord, out: Outcome) -> dict:
    """The result of a finished game, moving its stakes (inside the caller's transaction)."""
    result: dict = {
        "winner": out.winner,
        "draw": out.draw,
        "reason": out.events[-1].get("reason", ""),
        "stakes_moved": [],
        "stakes_not_moved": [],
    }
    if out.winner is None:
        return result
    for player, card_id in sorted(rec.stakes.items()):
        if player == out.winner:
            continue
        try:
            move_card(con, card_id, player, out.winner)
            result["stakes_moved"].append({"card": card_id, "from": player, "to": out.winner})
        except NotOwnedError as err:
            result["stakes_not_moved"].append({"card": card_id, "from": player, "to": out.winner, "why": str(err)})
    return result


def create(con: Database, setup: dict, stakes: dict[str, str] | None = None, seed: bytes | None = None) -> tuple[GameRecord, Outcome]:
    """Save a new game and play what needs no move (the deals of Los Lobos, all of Zangetsu); if
    that ends the game, its stakes move in the same transaction.

    Args:
        setup: see :mod:`cardlab.play.engine`; stakes: player -> staked card id (checked by
            :func:`cardlab.play.setup.check_stakes`); seed: None for a fresh one (:func:`rng.new_seed`).

    Returns:
        ``(record, outcome)``.
    """
    seed = seed if seed is not None else rng.new_seed()
    stakes = dict(stakes or {})
    out = replay(setup, seed, [])
    now = _now()
    g = tables.game
    with con.transaction():
        gid = con.scalar(
            sa.insert(g)
            .values(
                kind=setup["kind"],
                created=now,
                updated=now,
                seed=seed,
                commitment=rng.commitment(seed),
                setup=json.dumps(setup, ensure_ascii=False),
                moves="[]",
                stakes=json.dumps(stakes),
                status="on",
            )
            .returning(g.c.id)
        )
        rec = GameRecord(int(gid), setup["kind"], now, rng.commitment(seed), setup, [], stakes, "on", seed)
        if out.over:
            rec.result = _settle(con, rec, out)
            rec.status = "over"
            con.execute(sa.update(g).where(g.c.id == rec.id).values(status="over", result=json.dumps(rec.result)))
    return rec, out


def play_move(con: Database, game_id: int | str, move: dict, until_over: bool = False) -> tuple[GameRecord, Outcome]:
    """Add one move to a saved game (``replace`` for Los Lobos, ``roll`` for the dice games), replay
    it, save it; if the game ends, settle the stakes in the same transaction.

    Args:
        until_over: repeat ``move`` until the game ends (``play roll --to-end``), all in one
            transaction (at most :data:`cardlab.play.engine.MAX_ROUNDS` moves).

    Raises:
        MoveError: the rules refuse the move (game over, second replacement...): nothing is saved.
    """

    with con.transaction():
        rec = load(con, game_id, lock=True)
        if rec.status == "over":
            raise MoveError(f"game #{rec.id} is over")
        moves = [*rec.moves, move]
        out = replay(rec.setup, rec.seed, moves)
        while until_over and not out.over and len(moves) < MAX_ROUNDS:
            moves.append(move)
            out = replay(rec.setup, rec.seed, moves)
        rec.moves = moves
        if out.over:
            rec.result = _settle(con, rec, out)
            rec.status = "over"
        g = tables.game
        con.execute(
            sa.update(g)
            .where(g.c.id == rec.id)
            .values(
                moves=json.dumps(moves, ensure_ascii=False),
                updated=_now(),
                status=rec.status,
                result=json.dumps(rec.result) if rec.result else None,
            )
        )
    return rec, out


def state(con: Database, game_id: int | str) -> tuple[GameRecord, Outcome]:
    """Return a saved game and its replayed outcome."""
    rec = load(con, game_id)
    return rec, replay(rec.setup, rec.seed, rec.moves)


def reveal(con: Database, game_id: int | str) -> str:
    """Return the seed of a finished game as hex (its SHA-256 is the commitment printed at the
    start). Raises CardlabError (exit 1) while the game is on: the seed would tell the draws to come."""
    rec = load(con, game_id)
    if rec.status != "over":
        raise CardlabError(f"game #{rec.id} is still on; its seed is revealed once it is over")
    return rec.seed.hex()


def verify(record: dict, seed_hex: str) -> tuple[bool, list[str]]:
    """Check a game as exported by ``play show --output-format json`` against a revealed seed:
    the seed's SHA-256 must be the commitment, and replaying setup + moves must give the same
    events and result.

    Returns:
        ``(ok, findings)``: what does not match (empty when ok).

    Raises:
        UsageError: the seed is not hex, or the record lacks setup/moves/events.
    """
    try:
        seed = rng.parse_seed(seed_hex)
    except ValueError as err:
        raise UsageError(f"bad seed: {err}") from None
    try:
        setup, moves, events, commitment = record["setup"], record["moves"], record["events"], record["commitment"]
    except (KeyError, TypeError):
        raise UsageError("not a game record: export it with 'cardlab play show GAME --output-format json'") from None
    findings = []
    if rng.commitment(seed) != commitment:
        findings.append(f"SHA-256 of the seed is {rng.commitment(seed)}, not the commitment {commitment}")

    try:
        out = replay(setup, seed, list(moves))
    except MoveError as err:
        return False, [f"the record's moves cannot be replayed: {err}"]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise UsageError(
            f"not a valid game record ({type(err).__name__}: {err}); export it with 'cardlab play show GAME --output-format json'"
        ) from None
    if not isinstance(events, list) or json.loads(json.dumps(out.events)) != events:
        first = next(
            (i for i, (a, b) in enumerate(zip(json.loads(json.dumps(out.events)), events, strict=False)) if a != b),
            min(len(out.events), len(events)),
        )
        findings.append(f"the replayed events differ from event {first + 1} on")
    return not findings, findings
