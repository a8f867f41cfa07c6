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

A thread is read in any interface language (:data:`cardlab.core.l10n.LANGUAGES`): each post's first
line says which (its words are those of one catalog, tried in turn), and the post is read and
written again in that language; the game hash is the same in every language (the English start
post's), so a thread whose posts were pasted in several languages verifies too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from cardlab.core.errors import InputError
from cardlab.core.inputs import split_lines
from cardlab.core.l10n import LANGUAGES, _, speaking
from cardlab.play.engine import MoveError
from cardlab.play.thread import (
    END,
    HEAD,
    ROLL,
    ROLL_ASKED,
    SCHEME,
    SEED_RULES,
    TITLE_OF,
    Played,
    Post,
    clean,
    faction_code,
    game_hash,
    play,
    read_options,
    reading,
    say,
)

_GID, _N = "[0-9a-f]{16}", r"\d{1,6}"


def _heads() -> list[tuple[str, re.Pattern[str], re.Pattern[str]]]:
    """``(language, first-line pattern, last-line pattern)`` of each interface language whose
    catalog words a post differently (English first)."""
    out: list[tuple[str, re.Pattern[str], re.Pattern[str]]] = []
    for lang in LANGUAGES:
        with speaking(lang):
            head = reading(clean(_(HEAD)), game=_GID, n=_N, at=r"\S+", title=".*")
            end = reading(clean(_(END)), n=_N, game=_GID)
        if all(head.pattern != h.pattern for _, h, _ in out):
            out.append((lang, head, end))
    return out


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
    lang: str = "en"


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
    heads = _heads()
    ends = dict((lang, end) for lang, _, end in heads)
    for n, raw in enumerate(split_lines(text), 1):
        line = clean(raw)
        if not line:
            continue
        found = next(((lang, m) for lang, h, _ in heads if (m := h.fullmatch(line))), None)
        if found:
            lang, head = found
            cur_game = head.group("game")
            number = int(head.group("n"))
            kind = "start" if number == 1 else _kind_of(head.group("title"), lang)
            cur = FoundPost(number, head.group("at"), kind, [(n, line)], lang=lang)
            games.setdefault(cur_game, []).append(cur)
            continue
        end = ends[cur.lang].fullmatch(line) if cur is not None else None
        if end and cur is not None and int(end.group("n")) == cur.number and end.group("game") == cur_game:
            cur.lines.append((n, line))
            cur.complete = True
            cur = None
            continue
        if cur is not None:
            cur.lines.append((n, line))
    return games


def _kind_of(title: str, lang: str) -> str:
    """The move a post's title names (``accept by alice``: ``accept``) in ``lang``; else its first word."""
    with speaking(lang):
        if title == clean(_("roll")):
            return "roll"
        for kind, template in TITLE_OF.items():
            if reading(clean(_(template))).fullmatch(title):
                return kind
    return title.split(" ")[0]


def _card(text: str, where: str) -> dict:
    m = reading(clean(_("Value {value}, {faction}, {id}, {name}")), value=r"-?\d{1,6}", faction="[^,]*", id="[^,]*").fullmatch(text)
    if not m:
        raise _Bad(f"{where}: not a card ('Value N, faction, id, name')")
    return {"id": m.group("id"), "name": m.group("name"), "value": int(m.group("value")), "faction": faction_code(m.group("faction"))}


def _line(template: str, **groups: str) -> re.Pattern[str]:
    """The pattern of a post line written from ``template`` in the current language."""
    return reading(clean(_(template)), **groups)


def _read_start(post: FoundPost) -> tuple[dict, dict[str, str], str]:
    """The setup, stakes and commitment written in the start post."""
    setup: dict = {"options": {}}
    players: list[str] = []
    stakes: dict[str, str] = {}
    commitment = ""
    lists: dict[int, list[dict]] = {}
    with speaking(post.lang):
        rx = {
            "game": _line("game: {kind}"),
            "player": _line("player {n}: {name}", n=_N),
            "with": _line("set: {set}, draws with replacement"),
            "without": _line("set: {set}, draws without replacement"),
            "pool": _line("pool card {n}: {card}", n=_N),
            "list": _line("list of player {i}, card {n}: {card}", i=_N, n=_N),
            "options": _line("options: {json}"),
            "stake": _line("stake of player {i}: {card}", i=_N),
            "commitment": _line("commitment: SHA-256 of the host's seed = {commitment}", commitment=r"\S*"),
        }
        mixed = clean(_(SEED_RULES[True]))
        for n, line in post.lines[1:]:
            where = f"post 1, file line {n}"
            key, m = next(((k, m) for k, r in rx.items() if (m := r.fullmatch(line))), ("", None))
            if m is None:
                if line == mixed:
                    setup["scheme"] = SCHEME
                continue
            if key == "game":
                setup["kind"] = m.group("kind")
            elif key == "player":
                players.append(m.group("name"))
            elif key in ("with", "without"):
                setup["set"], setup["replacement"], setup["pool"] = m.group("set"), key == "with", []
            elif key == "pool":
                setup.setdefault("pool", []).append(_card(m.group("card"), where))
            elif key == "list":
                lists.setdefault(int(m.group("i")), []).append(_card(m.group("card"), where))
            elif key == "options":
                try:
                    setup["options"] = read_options(m.group("json"))
                except ValueError:
                    raise _Bad(f"{where}: the options are not JSON") from None
            elif key == "stake":
                i = int(m.group("i"))
                if not 1 <= i <= len(players):
                    raise _Bad(f"{where}: a stake of player {i}, who is not listed")
                stakes[players[i - 1]] = m.group("card")
            elif key == "commitment":
                commitment = m.group("commitment")
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
    with speaking(post.lang):
        if post.kind == "accept":
            m = _line("{player} accepts game {game}, its rules and stakes", game="[0-9a-f]{64}").fullmatch(first)
            c = _line("contribution of {player}: {word}", word=r"\S+").fullmatch(body[1] if len(body) > 1 else "")
            if not m or not c:
                raise _Bad(f"{where}: not an acceptance with its contribution")
            entry.update(player=m.group("player"), contribution=c.group("word"))
        elif post.kind == "decline":
            m = _line("{player} declines game {game}: it is cancelled, nothing is drawn, no stake moves").fullmatch(first)
            if not m:
                raise _Bad(f"{where}: not a refusal")
            entry["player"] = m.group("player")
        elif post.kind == "replace":
            m = _line("{player} replaces cards {cards}", cards=r"[\d, ]+").fullmatch(first)
            m = m or _line("{player} keeps the hand").fullmatch(first)
            if not m:
                raise _Bad(f"{where}: not a replacement")
            cards = m.groupdict().get("cards") or ""
            entry.update(player=m.group("player"), cards=[int(x) for x in cards.split(",") if x.strip()])
        elif post.kind == "roll":
            found = None
            for form in (*ROLL_ASKED, *ROLL):
                found = found or _line(form, n=r"\d{1,5}").fullmatch(first)
            if not found:
                raise _Bad(f"{where}: not a roll")
            entry.update(player=found.groupdict().get("player"), rounds=int(found.group("n")))
        elif post.kind == "claim":
            m = _line("{player} claims the win: every opponent silent for more than 7 days (seed 002)").fullmatch(first)
            if not m:
                raise _Bad(f"{where}: not a claim")
            entry["player"] = m.group("player")
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
    seed_at = [
        (k, n, m.group("seed")) for k in range(1, top + 1) for n, t in posts[k].lines if (m := _seed_line(posts[k].lang).fullmatch(t))
    ]
    if not seed_at:
        raise _Bad(f"the seed is not revealed in posts 1 to {top}: the game is not over, its draws cannot be checked yet")
    k, n, text = seed_at[-1]
    seed = bytes.fromhex(text)
    if hashlib.sha256(seed).hexdigest() != commitment:
        raise _Bad(f"post {k}, file line {n}: the seed's SHA-256 is {hashlib.sha256(seed).hexdigest()}, not the commitment of post 1")
    try:
        played = _replay(setup, stakes, commitment, seed, entries, posts[1].at)
    except MoveError as err:
        # A post the rules refuse: the posts before it may already differ from the seed's (a
        # changed contribution ends the game sooner); report the first difference, else the refusal.
        m = re.match(r"post (\d+)", str(err))
        if m and int(m.group(1)) > 2:
            _compare_each(setup, stakes, commitment, seed, entries[: int(m.group(1)) - 2], posts)
        raise _Bad(str(err)) from None
    _compare_each(setup, stakes, commitment, seed, entries, posts)
    if played.status != "over":
        raise _Bad(f"post {top} reveals the seed but the game is not over")
    return Verdict(gid, True, top)


def _seed_line(lang: str) -> re.Pattern[str]:
    with speaking(lang):
        return _line("seed: {seed}", seed="[0-9a-f]{32,128}")


def _compare_each(
    setup: dict, stakes: dict[str, str], commitment: str, seed: bytes, entries: list[dict], posts: dict[int, FoundPost]
) -> None:
    """Write the thread again in each language its posts are in, and compare every post with its own."""
    for lang in dict.fromkeys(p.lang for p in posts.values()):
        with speaking(lang):
            again = _replay(setup, stakes, commitment, seed, entries, posts[1].at).posts
        _compare([p for p in again if p.number in posts and posts[p.number].lang == lang], posts)


def _replay(setup: dict, stakes: dict[str, str], commitment: str, seed: bytes, entries: list[dict], created: str) -> Played:
    try:
        return play(setup, stakes, commitment, seed, entries, created)
    except ValueError as err:
        raise _Bad(str(err)) from None
    except (KeyError, TypeError, IndexError) as err:
        raise _Bad(f"post 1: the rules cannot be played ({type(err).__name__}: {err})") from None


def _earlier(post: FoundPost) -> list[tuple[int, str]]:
    """A pasted post's lines without those earlier versions of cardlab wrote and this one does not
    (a thread posted before stays verifiable; neither line says anything the post does not):
    ``options: {}`` in the start post of a game without options, and a replace post's
    "keeps the hand" line written a second time."""
    with speaking(post.lang):
        no_options = clean(say("options: {json}", json="{}"))
        keeps = _line("{player} keeps the hand")
    lines = post.lines
    if post.number == 1:
        return [x for x in lines if x[1] != no_options]
    return [x for i, x in enumerate(lines) if not (i > 1 and x[1] == lines[i - 1][1] and keeps.fullmatch(x[1]))]


def _compare(expected: list[Post], posts: dict[int, FoundPost]) -> None:
    """Raise the first line of ``posts`` that differs from the posts the seed gives."""
    for exp in expected:
        want = [clean(exp.title)] + [clean(t) for _, t in exp.lines]
        got = _earlier(posts[exp.number])
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
