"""Checking a game from its forum posts alone (issue 33 §1): ``cardlab play verify THREAD.txt``.

The text is whatever a player pasted: the thread's posts in any order, as BBCode, Markdown or plain
text, with the forum's quotes and signatures around them. Posts are found by their first and last
lines (:mod:`cardlab.play.thread`); every line between is read back through
:func:`cardlab.play.thread.clean`. From the posts the checker reads only what no seed decides (the
start post's rules, players, lists or pool, stakes and commitment; each acceptance's contribution;
each move; each post's time; the revealed seed), replays the game (:func:`cardlab.play.thread.play`)
and writes the thread again: every line must be the line found, so a changed draw, replacement,
score, burn, winner or stake, a changed rule of post 1 (it changes the game hash every post names),
a changed contribution (it changes the seed) or seed (it no longer matches the commitment) is
reported with its post and line.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from cardlab.core.errors import InputError
from cardlab.core.inputs import split_lines
from cardlab.play.engine import MoveError
from cardlab.play.thread import SCHEME, Played, Post, clean, game_hash, play

_HEAD = re.compile(r"^cardlab game ([0-9a-f]{16}) post (\d{1,6}) at (\S+): (.*)$")
_END = re.compile(r"^end of post (\d{1,6}) of game ([0-9a-f]{16})$")


@dataclass
class FoundPost:
    """A post found in the text: ``number``, ``at``, ``kind`` (``start`` or the entry's move),
    ``lines`` (``(line number in the file, cleaned text)``, the first line included), ``complete``
    (its closing line was found)."""

    number: int
    at: str
    kind: str
    lines: list[tuple[int, str]] = field(default_factory=list)
    complete: bool = False


@dataclass
class Verdict:
    """The check of one game: ``game`` (its 16-digit id), ``ok``, ``posts`` (how many were
    checked), ``problem`` (the first line that does not follow, None when ok)."""

    game: str
    ok: bool
    posts: int
    problem: str | None = None


class _Bad(Exception):
    """The first problem found (caught by :func:`verify_text`)."""


def find_posts(text: str) -> dict[str, list[FoundPost]]:
    """Return the posts found in ``text``, by game id, in the order met (copies included)."""
    games: dict[str, list[FoundPost]] = {}
    cur: FoundPost | None = None
    cur_game = ""
    for n, raw in enumerate(split_lines(text), 1):
        line = clean(raw)
        if not line:
            continue
        head = _HEAD.match(line)
        if head:
            cur_game = head.group(1)
            title = head.group(4)
            cur = FoundPost(int(head.group(2)), head.group(3), "start" if head.group(2) == "1" else title.split(" ")[0], [(n, line)])
            games.setdefault(cur_game, []).append(cur)
            continue
        end = _END.match(line)
        if end and cur is not None and int(end.group(1)) == cur.number and end.group(2) == cur_game:
            cur.lines.append((n, line))
            cur.complete = True
            cur = None
            continue
        if cur is not None:
            cur.lines.append((n, line))
    return games


def _card(text: str, where: str) -> dict:
    parts = text.split(", ", 3)
    if len(parts) != 4 or not parts[0].startswith("Value ") or not re.fullmatch(r"-?\d{1,6}", parts[0][6:]):
        raise _Bad(f"{where}: not a card ('Value N, faction, id, name')")
    return {"id": parts[2], "name": parts[3], "value": int(parts[0][6:]), "faction": None if parts[1] == "none" else parts[1]}


def _read_start(post: FoundPost) -> tuple[dict, dict[str, str], str]:
    """The setup, stakes and commitment written in the start post."""
    setup: dict = {"options": {}}
    players: list[str] = []
    stakes: dict[str, str] = {}
    commitment = ""
    lists: dict[int, list[dict]] = {}
    for n, line in post.lines[1:]:
        where = f"post 1, file line {n}"
        key, sep, value = line.partition(": ")
        if not sep:
            continue
        if key == "game":
            setup["kind"] = value
        elif re.fullmatch(r"player \d+", key):
            players.append(value)
        elif key == "set":
            code, _, how = value.rpartition(", draws ")
            setup["set"], setup["replacement"], setup["pool"] = code, how == "with replacement", []
        elif re.fullmatch(r"pool card \d+", key):
            setup.setdefault("pool", []).append(_card(value, where))
        elif m := re.fullmatch(r"list of player (\d+), card \d+", key):
            lists.setdefault(int(m.group(1)), []).append(_card(value, where))
        elif key == "options":
            try:
                setup["options"] = json.loads(value)
            except ValueError:
                raise _Bad(f"{where}: the options are not JSON") from None
        elif m := re.fullmatch(r"stake of player (\d+)", key):
            i = int(m.group(1))
            if not 1 <= i <= len(players):
                raise _Bad(f"{where}: a stake of player {i}, who is not listed")
            stakes[players[i - 1]] = value
        elif key == "commitment":
            commitment = value.rpartition("= ")[2]
        elif key == "seed" and value.startswith("HMAC-SHA256"):
            setup["scheme"] = SCHEME
    if "kind" not in setup or len(players) < 2 or not re.fullmatch(r"[0-9a-f]{64}", commitment):
        raise _Bad("post 1: its game, players or commitment line is missing or changed")
    setup["players"] = players
    if lists:
        setup["lists"] = {players[i - 1]: cards for i, cards in lists.items() if 1 <= i <= len(players)}
    return setup, stakes, commitment


def _read_entry(post: FoundPost) -> dict:
    """The log entry a post states (its first lines after the header)."""
    body = [t for _, t in post.lines[1:]]
    first = body[0] if body else ""
    where = f"post {post.number}, file line {post.lines[1][0] if len(post.lines) > 1 else post.lines[0][0]}"
    entry: dict = {"move": post.kind, "at": post.at}
    if post.kind == "accept":
        m = re.fullmatch(r"(.*) accepts game [0-9a-f]{64}, its rules and stakes", first)
        c = re.fullmatch(r"contribution of (.*): (\S+)", body[1] if len(body) > 1 else "")
        if not m or not c:
            raise _Bad(f"{where}: not an acceptance with its contribution")
        entry.update(player=m.group(1), contribution=c.group(2))
    elif post.kind == "decline":
        m = re.fullmatch(r"(.*) declines game .*", first)
        if not m:
            raise _Bad(f"{where}: not a refusal")
        entry["player"] = m.group(1)
    elif post.kind == "replace":
        m = re.fullmatch(r"(.*) replaces cards ([\d, ]+)", first) or re.fullmatch(r"(.*) keeps the hand()", first)
        if not m:
            raise _Bad(f"{where}: not a replacement")
        entry.update(player=m.group(1), cards=[int(x) for x in m.group(2).split(",") if x.strip()])
    elif post.kind == "roll":
        m = re.fullmatch(r"roll of (\d{1,5}) rounds?(?:, asked by (.*))?", first)
        if not m:
            raise _Bad(f"{where}: not a roll")
        entry.update(player=m.group(2), rounds=int(m.group(1)))
    elif post.kind == "claim":
        m = re.fullmatch(r"(.*) claims the win: .*", first)
        if not m:
            raise _Bad(f"{where}: not a claim")
        entry["player"] = m.group(1)
    else:
        raise _Bad(f"{where}: a post of an unknown kind '{post.kind}'")
    return entry


def _check_game(gid: str, found: list[FoundPost]) -> Verdict:
    posts: dict[int, FoundPost] = {}
    for p in found:
        if not p.complete:
            continue
        seen = posts.get(p.number)
        if seen is None:
            posts[p.number] = p
        elif [t for _, t in seen.lines] != [t for _, t in p.lines]:
            raise _Bad(f"post {p.number} appears twice with different text (file lines {seen.lines[0][0]} and {p.lines[0][0]})")
    top = max([p.number for p in found])
    for k in range(1, top + 1):
        if k not in posts:
            cut = next((p for p in found if p.number == k), None)
            if cut is not None:
                raise _Bad(
                    f"post {k} (file line {cut.lines[0][0]}) is cut short: its closing line 'end of post {k} of game {gid}' is missing"
                )
            raise _Bad(f"post {k} of game {gid} is missing (posts 1 to {top} are needed, in any order)")
    setup, stakes, commitment = _read_start(posts[1])
    try:
        real = game_hash(setup, stakes, commitment)[:16]
    except (KeyError, TypeError, ValueError) as err:
        raise _Bad(f"post 1: unreadable rules ({type(err).__name__}: {err})") from None
    if real != gid:
        raise _Bad(f"post 1 (file line {posts[1].lines[0][0]}): its rules hash to game {real}, not {gid}: a field of post 1 was changed")
    entries = [_read_entry(posts[k]) for k in range(2, top + 1)]
    seed_at = [(k, n, t) for k in range(1, top + 1) for n, t in posts[k].lines if re.fullmatch(r"seed: [0-9a-f]{32,128}", t)]
    if not seed_at:
        raise _Bad(f"the seed is not revealed in posts 1 to {top}: the game is not over, its draws cannot be checked yet")
    k, n, text = seed_at[-1]
    seed = bytes.fromhex(text[6:])
    if hashlib.sha256(seed).hexdigest() != commitment:
        raise _Bad(f"post {k}, file line {n}: the seed's SHA-256 is {hashlib.sha256(seed).hexdigest()}, not the commitment of post 1")
    try:
        played = _replay(setup, stakes, commitment, seed, entries, posts[1].at)
    except MoveError as err:
        # A post the rules refuse: the posts before it may already differ from the seed's (a
        # changed contribution ends the game sooner); report the first difference, else the refusal.
        m = re.match(r"post (\d+)", str(err))
        if m and int(m.group(1)) > 2:
            _compare(_replay(setup, stakes, commitment, seed, entries[: int(m.group(1)) - 2], posts[1].at).posts, posts)
        raise _Bad(str(err)) from None
    _compare(played.posts, posts)
    if played.status != "over":
        raise _Bad(f"post {top} reveals the seed but the game is not over")
    return Verdict(gid, True, top)


def _replay(setup: dict, stakes: dict[str, str], commitment: str, seed: bytes, entries: list[dict], created: str) -> Played:
    try:
        return play(setup, stakes, commitment, seed, entries, created)
    except ValueError as err:
        raise _Bad(str(err)) from None
    except (KeyError, TypeError, IndexError) as err:
        raise _Bad(f"post 1: the rules cannot be played ({type(err).__name__}: {err})") from None


def _compare(expected: list[Post], posts: dict[int, FoundPost]) -> None:
    """Raise the first line of ``posts`` that differs from the posts the seed gives."""
    for exp in expected:
        want = [clean(exp.title)] + [clean(t) for _, t in exp.lines]
        got = posts[exp.number].lines
        for i, w in enumerate(want):
            if i >= len(got):
                raise _Bad(f"post {exp.number}: line {i + 1} is missing; expected '{w}'")
            if got[i][1] != w:
                raise _Bad(f"post {exp.number}, line {i + 1} (file line {got[i][0]}): expected '{w}', found '{got[i][1]}'")
        if len(got) > len(want):
            raise _Bad(
                f"post {exp.number}, line {len(want) + 1} (file line {got[len(want)][0]}): a line the seed does not give: '{got[len(want)][1]}'"
            )


def verify_text(text: str) -> list[Verdict]:
    """Check every game whose posts are in ``text`` (module docstring).

    Returns:
        One :class:`Verdict` per game, in the order their first post is met.

    Raises:
        InputError: no cardlab post in the text (exit 2).
    """
    games = find_posts(text)
    if not games:
        raise InputError("no cardlab game post found: paste the thread's posts (each begins 'cardlab game ... post N')")
    out = []
    for gid, found in games.items():
        try:
            out.append(_check_game(gid, found))
        except _Bad as bad:
            out.append(Verdict(gid, False, len({p.number for p in found}), str(bad)))
    return out
