"""A game as its forum thread (issue 33 §1, §2): the game's log (acceptances, moves, claims) replayed
into posts whose lines prove themselves.

A saved game is its setup, its stakes, the commitment to the host's seed, and its **log**: a list of
entries, each one post of the thread, in order::

    {"move": "accept",  "player": P, "contribution": C, "at": T}   # consent to rules and stakes
    {"move": "decline", "player": P, "at": T}                      # refuses: the game is cancelled
    {"move": "replace", "player": P, "cards": [2, 5], "at": T}     # Los Lobos
    {"move": "roll", "player": P or None, "rounds": N, "at": T}    # Doll House, Ryūjin Jakka
    {"move": "claim", "player": P, "at": T}                        # forfeit win (seed 002)

(``T``: UTC ``YYYY-MM-DDTHH:MM:SSZ``.) A game made by cardlab before issue 33 has no ``scheme`` in
its setup: it needs no acceptance, its seed is the host's seed, and its log holds only moves.

Rules kept here (every one replayed by :func:`play`, so a verifier applies them too):

- A game is **pending** until every player has accepted (seed 002 "Généralités": a staked card
  needs every player's clear agreement); no draw before that. The last acceptance fixes the game's
  seed (:func:`cardlab.play.rng.derive_seed`) and the draws begin.
- A **claim** (seed 002 "Généralités": an automatic win against a player who has not answered for
  more than a week) is allowed to a player P of a running game when P acted last and every other
  player's last action is more than :data:`CLAIM_AFTER` old; P wins by forfeit.

Posts (:func:`posts`): post 1 (the start: rules, players, lists or pool, stakes, commitment), then
one post per log entry. Every line of a post is a text line the forum keeps; the first line names
the game (the first 16 hex digits of :func:`game_hash`) and the post's number and time, the last
closes it, so posts are found in a pasted thread among quotes and signatures
(:mod:`cardlab.play.verify`).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from cardlab.games.forumtcg import faction_label
from cardlab.play import rng
from cardlab.play.engine import MAX_ROUNDS, MoveError, Outcome, replay

SCHEME = "commit-reveal-v2"
"""``setup["scheme"]`` of games whose seed mixes the players' contributions (:mod:`cardlab.play.rng`)."""

CLAIM_AFTER = timedelta(days=7)
"""Seed 002 "Généralités": a win may be asked against a player silent for more than a week."""

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
TITLES = {"los-lobos": "Los Lobos", "doll-house": "Doll House", "ryujin-jakka": "Ryūjin Jakka", "zangetsu": "Zangetsu"}

_TAG = re.compile(r"\[/?(?:b|i|u|s|size|color|font|quote|list|\*|url|center|code|spoiler|indent|left|right)(?:=[^\]]*)?\]", re.I)


def clean(line: str) -> str:
    """Return a post line as read back from any forum: HTML entities decoded, BBCode tags and
    Markdown marks (``**``, headings, bullets, ``>`` quotes) removed, spaces collapsed. Lines are
    compared, and the game hash taken, on this form."""
    s = html.unescape(line).replace("\u00a0", " ").replace("\u200b", "")
    s = _TAG.sub("", s)
    s = s.replace("**", "").replace("`", "")
    s = s.strip()
    while True:
        m = re.match(r"^(?:>+|#{1,6}\s|[-*•]\s)\s*", s)
        if not m or not m.group(0):
            break
        s = s[m.end() :]
    return " ".join(s.split())


def parse_time(text: str) -> datetime:
    """Read a post's time (``2026-12-03T12:00:00Z``). Raises ValueError."""
    return datetime.strptime(text, TIME_FORMAT).replace(tzinfo=UTC)


def show_time(t: datetime) -> str:
    """Write a time as posts carry it (UTC, seconds)."""
    return t.astimezone(UTC).strftime(TIME_FORMAT)


def _safe(text: object) -> str:
    """One line of text with no BBCode brackets (a forum would read them as tags)."""
    return " ".join(str(text).replace("[", "(").replace("]", ")").split())


def card_line(c: dict) -> str:
    """A card of a pool or list as the start post writes it: ``Value 4, neutral, ID, name`` (the
    name last, so it may hold anything)."""
    return f"Value {c['value']}, {c.get('faction') or 'none'}, {_safe(c['id'])}, {_safe(c['name'])}"


def setup_lines(setup: dict, stakes: dict[str, str], commitment: str) -> list[str]:
    """Return the lines of the start post that fix the game (hashed by :func:`game_hash`): the
    game, players, draw pool or lists, options, stakes, commitment and seed rule."""
    players = setup["players"]
    lines = [f"game: {setup['kind']}"]
    lines += [f"player {i}: {_safe(p)}" for i, p in enumerate(players, 1)]
    if "pool" in setup:
        lines.append(f"set: {_safe(setup.get('set', '?'))}, draws {'with' if setup.get('replacement', True) else 'without'} replacement")
        lines += [f"pool card {i}: {card_line(c)}" for i, c in enumerate(setup["pool"], 1)]
    for i, p in enumerate(players, 1):
        lines += [f"list of player {i}, card {n}: {card_line(c)}" for n, c in enumerate((setup.get("lists") or {}).get(p, []), 1)]
    lines.append(f"options: {json.dumps(setup.get('options') or {}, sort_keys=True, ensure_ascii=False)}")
    for i, p in enumerate(players, 1):
        if p in stakes:
            lines.append(f"stake of player {i}: {_safe(stakes[p])}")
    lines.append(f"commitment: SHA-256 of the host's seed = {commitment}")
    if setup.get("scheme") == SCHEME:
        lines.append("seed: HMAC-SHA256 of the host's seed over the game hash and each player's contribution; draws hmac-sha256-ctr-v1")
    else:
        lines.append("seed: the host's seed; draws hmac-sha256-ctr-v1")
    return [clean(x) for x in lines]


def game_hash(setup: dict, stakes: dict[str, str], commitment: str) -> str:
    """Return the SHA-256 (hex) of the start post's :func:`setup_lines`, joined by newlines: what
    each player accepts, and what names the game in every post (its first 16 digits)."""
    return hashlib.sha256("\n".join(setup_lines(setup, stakes, commitment)).encode("utf-8")).hexdigest()


@dataclass
class Post:
    """One post of the thread: ``number`` (1 = the start), ``at`` (time text), ``title``, ``lines``
    (``(style, text)``: ``meta``, ``item`` or ``result``)."""

    number: int
    at: str
    title: str
    lines: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Played:
    """A replayed log: ``status`` (``pending``, ``on``, ``over``), ``outcome`` (the engine's, plus
    a forfeit or cancellation), ``result`` (``winner``, ``draw``, ``reason``, ``cancelled``,
    ``stakes_moved``) once over, ``accepted`` (player -> contribution), ``posts``, ``last``
    (player -> time of their last entry)."""

    status: str
    outcome: Outcome
    result: dict | None
    accepted: dict[str, str]
    posts: list[Post]
    last: dict[str, datetime]


def transfers(stakes: dict[str, str], players: Sequence[str], winner: str | None) -> list[dict]:
    """Return the stakes a result moves (seed 002: the deal the players agreed): every other
    player's staked card to the winner, in play order; none for a draw or a cancelled game."""
    if winner is None:
        return []
    return [{"card": stakes[p], "from": p, "to": winner} for p in players if p in stakes and p != winner]


def _event(e: dict) -> str | None:
    t = e["type"]
    p = e.get("player", "")

    def card(c: dict) -> str:
        return f"{c['name']} ({c['id']}, Value {c['value']}, {faction_label(c.get('faction'))})"

    if t == "draw":
        if e.get("phase") == "replace":
            return f"{p} replaces card {e['slot']} ({e['replaced']['name']}) with {card(e['card'])}"
        what = "tie-break draw" if e.get("phase") == "tie-break" else f"card {e['slot']}"
        return f"{p} draws {what}: {card(e['card'])}"
    if t == "hand":
        return f"{p}: {e['text']} — Values {' '.join(str(v) for v in e['values'])}"
    if t == "roll":
        if e.get("burned"):
            return f"{p} rolls {e['die']}: burned card, rolls again"
        extra = ""
        if "factions" in e:
            extra = f" — new faction ({len(e['factions'])}/4)" if e.get("new_faction") else f" ({len(e['factions'])}/4 factions)"
            if e.get("extra_roll"):
                extra += " — Independent: extra roll"
        return f"{p} rolls {e['die']}: {card(e['card'])}{extra}"
    if t == "round":
        if "rule" in e:
            return f"Round {e['round']} ({e['rule']} Value scores)"
        return e.get("text") or f"Round {e['round']}"
    if t == "score":
        if "sum" in e:
            return f"{p}: sum {e['sum']}"
        if e.get("winner"):
            return f"{e['winner']} scores: " + ", ".join(f"{k} {v}" for k, v in e["points"].items())
        return e.get("text", "")
    if t == "burn":
        return f"{p}'s card {e['die']} ({e['card']['name']}) is burned"
    if t == "note":
        return e.get("text", "")
    return None


def _entry_lines(entry: dict, game: str) -> list[str]:
    """The lines of a log entry's post that state the entry itself (what the verifier reads back)."""
    p, kind = entry.get("player"), entry["move"]
    if kind == "accept":
        return [f"{p} accepts game {game}, its rules and stakes", f"contribution of {p}: {entry['contribution']}"]
    if kind == "decline":
        return [f"{p} declines game {game}: it is cancelled, nothing is drawn, no stake moves"]
    if kind == "replace":
        cards = entry.get("cards") or []
        return [f"{p} replaces cards {', '.join(str(c) for c in cards)}" if cards else f"{p} keeps the hand"]
    if kind == "roll":
        n = int(entry.get("rounds", 1))
        return [f"roll of {n} round{'s' if n != 1 else ''}" + (f", asked by {p}" if p else "")]
    if kind == "claim":
        return [f"{p} claims the win: every opponent silent for more than 7 days (seed 002)"]
    raise MoveError(f"unknown log entry '{kind}'")


def _engine_moves(log: Sequence[dict]) -> list[dict]:
    out: list[dict] = []
    for e in log:
        if e["move"] == "replace":
            out.append({"move": "replace", "player": e.get("player"), "cards": list(e.get("cards") or [])})
        elif e["move"] == "roll":
            out += [{"move": "roll"}] * int(e.get("rounds", 1))
    return out


def claim_opens(players: Sequence[str], last: dict[str, datetime], player: str) -> tuple[datetime | None, str]:
    """When ``player`` may claim a running game (seed 002: an opponent silent for more than a week).

    Returns:
        ``(time, why)``: the claim is allowed strictly after ``time``; ``time`` None when it never
        opens as things stand (``why`` says: not a player, or ``player`` owes the next answer).
    """
    if player not in players:
        return None, f"{player} does not play this game (players: {', '.join(players)}); only a player may claim it"
    others = [last[q] for q in players if q != player]
    newest = max(others)
    if last[player] < newest:
        who = max((q for q in players if q != player), key=lambda q: last[q])
        return None, f"{who} answered last ({show_time(newest)}): {player} answers first, then may claim once the others are silent"
    return newest + CLAIM_AFTER, ""


def play(setup: dict, stakes: dict[str, str], commitment: str, host_seed: bytes, log: Sequence[dict], created: str) -> Played:
    """Replay a game's log (module docstring) from the host's seed and return its state and posts.

    Args:
        setup: see :mod:`cardlab.play.engine` (``scheme`` :data:`SCHEME` for games that need
            acceptances); stakes: player -> card id; commitment: SHA-256 of ``host_seed`` (hex);
        log: the entries, in order; created: the start post's time.

    Raises:
        MoveError: an entry the rules refuse (accept twice or by a non-player, a move before every
            player accepted, a claim before it opens, anything after the end), naming its post.
    """
    players = list(setup["players"])
    ghash = game_hash(setup, stakes, commitment)
    gid = ghash[:16]
    fair = setup.get("scheme") == SCHEME
    t0 = parse_time(created) if created else datetime.min.replace(tzinfo=UTC)
    last = dict.fromkeys(players, t0)
    accepted: dict[str, str] = {}
    title = f"{TITLES.get(setup['kind'], setup['kind'])}: {' vs '.join(_safe(p) for p in players)}"
    start = Post(1, created, title, [("meta", x) for x in setup_lines(setup, stakes, commitment)])
    start.lines.append(("meta", f"game hash: {ghash}"))
    posts = [start]
    seed: bytes | None = None if fair else host_seed
    out = Outcome()
    status = "pending" if fair else "on"
    result: dict | None = None
    shown = 0

    def advance(moves: list[dict], where: str = "post 1") -> list[str]:
        nonlocal out, shown
        assert seed is not None
        try:
            out = replay(setup, seed, moves)
        except MoveError as err:
            raise MoveError(f"{where}: {err}") from None
        new = [t for t in (_event(e) for e in out.events[shown:] if e["type"] != "result") if t]
        shown = len(out.events)
        return new

    def finish(post: Post, winner: str | None, reason: str, cancelled: bool = False) -> None:
        nonlocal status, result
        status = "over"
        if not out.over:
            out.finish(winner, reason)
        result = {"winner": winner, "draw": winner is None and not cancelled, "reason": reason, "cancelled": cancelled}
        result["stakes_moved"] = transfers(stakes, players, winner)
        post.lines.append(
            ("result", f"Result: {winner} wins ({reason})" if winner else f"Result: {'cancelled' if cancelled else 'draw'} ({reason})")
        )
        for s in result["stakes_moved"]:
            post.lines.append(("result", f"Stake: {s['card']} goes from {s['from']} to {s['to']}"))
        post.lines.append(("result", f"seed: {host_seed.hex()}"))
        post.lines.append(("result", "check: the seed's SHA-256 is the commitment of post 1; replay with 'cardlab play verify'"))

    if not fair:
        start.lines += [("item", t) for t in advance([])]
        if out.over:
            finish(start, out.winner, out.events[-1]["reason"])
        else:
            start.lines.append(("result", f"Waiting for: {', '.join(out.waiting)}"))
    else:
        start.lines.append(("result", f"Waiting for: {', '.join(players)} to accept"))
    moves: list[dict] = []
    for n, entry in enumerate(log, 2):
        kind, p = entry.get("move"), entry.get("player")
        where = f"post {n} ({kind} by {p})" if p else f"post {n} ({kind})"
        if status == "over":
            raise MoveError(f"{where}: the game is over")
        at = entry.get("at", "")
        when = parse_time(at) if at else None
        if p is None and kind != "roll":
            raise MoveError(f"{where}: no player named")
        if when is not None and when < max(last.values()):
            raise MoveError(f"{where}: dated {at}, before the post it follows")
        if p is not None and p not in players:
            raise MoveError(f"{where}: '{p}' does not play this game (players: {', '.join(players)})")
        post = Post(n, at, f"{kind} by {_safe(p)}" if p else str(kind))
        post.lines += [("meta", x) for x in _entry_lines(entry, ghash)]
        posts.append(post)
        if kind in ("accept", "decline"):
            if status != "pending":
                raise MoveError(
                    f"{where}: the game has started; every player has accepted already"
                    if fair
                    else f"{where}: this game needs no acceptance"
                )
            assert p is not None  # checked above: only a roll may name nobody
            if p in accepted:
                raise MoveError(f"{where}: {p} has accepted already")
            if kind == "decline":
                finish(post, None, f"{p} declined", cancelled=True)
                continue
            try:
                accepted[p] = rng.check_contribution(entry.get("contribution", ""))
            except ValueError as err:
                raise MoveError(f"{where}: {err}") from None
        elif status == "pending":
            raise MoveError(
                f"{where}: no move before every player has accepted (waiting for {', '.join(q for q in players if q not in accepted)})"
            )
        elif kind == "claim":
            assert p is not None
            opens, why = claim_opens(players, last, p)
            if opens is None:
                raise MoveError(f"{where}: {why}")
            if when is None or when <= opens:
                raise MoveError(
                    f"{where}: a claim is possible only after {show_time(opens)} (more than 7 days after the last answer of {p}'s opponents)"
                )
        elif kind in ("replace", "roll"):
            moves += _engine_moves([entry])
        else:
            raise MoveError(f"{where}: unknown entry '{kind}'")
        if when is not None and p is not None:
            last[p] = max(last[p], when)
        if kind == "accept" and len(accepted) == len(players):
            status = "on"
            seed = rng.derive_seed(host_seed, ghash, [accepted[q] for q in players])
            post.lines.append(("meta", "every player has accepted: the draws begin"))
            post.lines += [("item", t) for t in advance(moves, where)]
        elif kind in ("replace", "roll"):
            if len(moves) > MAX_ROUNDS:
                raise MoveError(f"{where}: more than {MAX_ROUNDS} rounds")
            post.lines += [("item", t) for t in advance(moves, where)]
        if kind == "claim":
            finish(post, p, f"forfeit: no answer from {', '.join(q for q in players if q != p)} for more than 7 days")
        elif status == "on" and out.over:
            finish(post, out.winner, out.events[-1]["reason"])
        elif status == "pending":
            post.lines.append(("result", f"Waiting for: {', '.join(q for q in players if q not in accepted)} to accept"))
        elif status == "on":
            post.lines.append(("result", f"Waiting for: {', '.join(out.waiting)}"))
    for post in posts:
        post.title = f"cardlab game {gid} post {post.number} at {post.at or '?'}: {post.title}"
        post.lines = [(style, _safe(text)) for style, text in post.lines]
        post.lines.append(("end", f"end of post {post.number} of game {gid}"))
    return Played(status, out, result, accepted, posts, last)
