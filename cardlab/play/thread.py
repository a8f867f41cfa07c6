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

Posts speak the current interface language (:mod:`cardlab.core.l10n`; issue 32): every line is a
marked template (:func:`say`), the engine's English texts are translated when shown (:func:`said`),
and :func:`game_hash` is always that of the English start post, so a game has one id in every
language.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from cardlab.core.l10n import N_, _, pgettext, speaking
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


def say(template: str, **values: object) -> str:
    """Return ``template`` (an English ``{name}`` template marked for the catalogs) in the current
    interface language with ``values`` put in (a value is never read as a template)."""
    return _(template).format(**values)


def reading(text: str, **groups: str) -> re.Pattern[str]:
    """Return the regular expression that reads a line written from ``text`` (a template already in
    the wanted language): its words literally, each ``{name}`` a named group, of the pattern given
    in ``groups`` (default ``.*``). How :mod:`cardlab.play.verify` reads a post in any language."""
    out, pos = [], 0
    for m in re.finditer(r"\{(\w+)\}", text):
        out.append(re.escape(text[pos : m.start()]))
        name = m.group(1)
        out.append(f"(?P<{name}>{groups.get(name, '.*')})" if f"(?P<{name}>" not in "".join(out) else f"(?P={name})")
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return re.compile("".join(out))


STORED = (
    # hands (cardlab.play.hands.describe), one template per class
    N_("no combination, sum {total}"),
    N_("pair of {a}, sum {total}"),
    N_("two pairs {a} and {b}, sum {total}"),
    N_("three of a kind of {a}, sum {total}"),
    N_("run of 4 to {a}, sum {total}"),
    N_("full house {a} over {b}, sum {total}"),
    N_("run of 5 to {a}, sum {total}"),
    N_("four of a kind of {a}, sum {total}"),
    N_("Los Lobos of {a}, sum {total}"),
    # notes and reasons (cardlab.play.engine)
    N_("{player} keeps the hand"),
    N_("tie at {sum}: {players} draw again"),
    N_("equal Values: no point, nothing burned"),
    N_("manche {n}: {player} wins"),
    N_("manche {n}: draw, replayed"),
    N_("best hand"),
    N_("equal best hands"),
    N_("the draw pool ran out"),
    N_("no tie-break after many draws"),
    N_("the draw pool ran out during the tie-break"),
    N_("highest sum"),
    N_("Doll House for several players in the same round"),
    N_("no Doll House after many rounds"),
    N_("best of {n}"),
    N_("too many drawn manches"),
    N_("undecided after many rounds"),
    N_("first to 1 point"),
    N_("first to {n} points"),
    N_("a list is all burned, equal points"),
    N_("a list is all burned, more points"),
    N_("no round can score any more (equal Values left), equal points"),
    N_("no round can score any more (equal Values left), more points"),
    # reasons of this module
    N_("{player} declined"),
    N_("forfeit: no answer from {players} for more than 7 days"),
)
"""The English texts the play engine stores in a game's events and result (they stay English in
the record: the record is the proof), translated when a post shows them (:func:`said`)."""

_STORED_READ = [(t, reading(t, n=r"\d+", a=r"\d+", b=r"\d+", total=r"\d+", sum=r"\d+")) for t in STORED]


def said(text: str) -> str:
    """Return a text the engine stored in English (:data:`STORED`: a hand, a note, a reason) in the
    current interface language; a text of no known form (a proper name: "Los Lobos", "Doll House")
    as it is."""
    for template, rx in _STORED_READ:
        m = rx.fullmatch(text)
        if m:
            return say(template, **m.groupdict())
    return text


def _faction_words() -> dict[str, str]:
    """Faction code (``none``: no faction) -> the word a card line writes in the current language."""
    return {
        "gotei-13": pgettext("faction code", "gotei-13"),
        "acuerdo": pgettext("faction code", "acuerdo"),
        "ultima-necat": pgettext("faction code", "ultima-necat"),
        "neutral": pgettext("faction code", "neutral"),
        "independent": pgettext("faction code", "independent"),
        "none": pgettext("faction code", "none"),
    }


def faction_word(code: str | None) -> str:
    """Return a faction code as a card line writes it in the current language (``neutral``,
    ``neutre``; ``none`` for a card without one). English: the code itself."""
    return _faction_words().get(code or "none", code or "none")


def faction_code(word: str) -> str | None:
    """Return the faction code :func:`faction_word` wrote as ``word`` in the current language (the
    word itself when it names none)."""
    code = next((c for c, w in _faction_words().items() if w == word), word)
    return None if code == "none" else code


def _option_words() -> dict[str, str]:
    """Word of a game's options (a key or a value of ``setup["options"]``) -> its word in the
    current language (English: itself)."""
    return {
        "win": pgettext("game option", "win"),
        "mode": pgettext("game option", "mode"),
        "points": pgettext("game option", "points"),
        "games": pgettext("game option", "games"),
        "best-of": pgettext("game option", "best-of"),
        "burn-out": pgettext("game option", "burn-out"),
        "independent_reroll": pgettext("game option", "independent_reroll"),
    }


def _recode(value: object, table: dict[str, str]) -> object:
    if isinstance(value, dict):
        return {table.get(k, k): _recode(v, table) for k, v in value.items()}
    return table.get(value, value) if isinstance(value, str) else value


def options_text(options: dict) -> str:
    """Return a game's options as the start post writes them: JSON, keys sorted, its words in the
    current language (:func:`read_options` reads it back)."""
    return json.dumps(_recode(options, _option_words()), sort_keys=True, ensure_ascii=False)


def read_options(text: str) -> dict:
    """Return the options :func:`options_text` wrote in the current language. Raises ValueError
    (not JSON, or not an object)."""
    found = json.loads(text)
    if not isinstance(found, dict):
        raise ValueError("not a JSON object")
    back = {w: k for k, w in _option_words().items()}
    return {back.get(k, k): _recode(v, back) for k, v in found.items()}


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
    return say(
        "Value {value}, {faction}, {id}, {name}",
        value=c["value"],
        faction=faction_word(c.get("faction")),
        id=_safe(c["id"]),
        name=_safe(c["name"]),
    )


SEED_RULES = {
    True: N_("seed: HMAC-SHA256 of the host's seed over the game hash and each player's contribution; draws hmac-sha256-ctr-v1"),
    False: N_("seed: the host's seed; draws hmac-sha256-ctr-v1"),
}
"""The start post's seed rule, by whether the game mixes the players' contributions (:data:`SCHEME`)."""


def setup_lines(setup: dict, stakes: dict[str, str], commitment: str, hashed: bool = True) -> list[str]:
    """Return the lines of the start post that fix the game: the game, players, draw pool or lists,
    options, stakes, commitment and seed rule, in the current interface language (English: the
    lines :func:`game_hash` hashes).

    ``hashed`` False: the lines the post shows, without an ``options: {}`` line when the game has
    no options (the hash keeps it, so that every game keeps its hash and so its draws; the verifier
    reads a missing options line as none)."""
    players = setup["players"]
    lines = [say("game: {kind}", kind=setup["kind"])]
    lines += [say("player {n}: {name}", n=i, name=_safe(p)) for i, p in enumerate(players, 1)]
    if "pool" in setup:
        how = N_("set: {set}, draws with replacement") if setup.get("replacement", True) else N_("set: {set}, draws without replacement")
        lines.append(say(how, set=_safe(setup.get("set", "?"))))
        lines += [say("pool card {n}: {card}", n=i, card=card_line(c)) for i, c in enumerate(setup["pool"], 1)]
    for i, p in enumerate(players, 1):
        lines += [
            say("list of player {i}, card {n}: {card}", i=i, n=n, card=card_line(c))
            for n, c in enumerate((setup.get("lists") or {}).get(p, []), 1)
        ]
    if hashed or setup.get("options"):
        lines.append(say("options: {json}", json=options_text(setup.get("options") or {})))
    for i, p in enumerate(players, 1):
        if p in stakes:
            lines.append(say("stake of player {i}: {card}", i=i, card=_safe(stakes[p])))
    lines.append(say("commitment: SHA-256 of the host's seed = {commitment}", commitment=commitment))
    lines.append(_(SEED_RULES[setup.get("scheme") == SCHEME]))
    return [clean(x) for x in lines]


def game_hash(setup: dict, stakes: dict[str, str], commitment: str) -> str:
    """Return the SHA-256 (hex) of the start post's English :func:`setup_lines`, joined by newlines: what
    each player accepts, and what names the game in every post (its first 16 digits)."""
    with speaking("en"):  # the game is the same game in every language
        lines = setup_lines(setup, stakes, commitment)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


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
        return say(
            "{name} ({id}, Value {value}, {faction})", name=c["name"], id=c["id"], value=c["value"], faction=faction_label(c.get("faction"))
        )

    if t == "draw":
        if e.get("phase") == "replace":
            return say(
                "{player} replaces card {slot} ({old}) with {card}",
                player=p,
                slot=e["slot"],
                old=e["replaced"]["name"],
                card=card(e["card"]),
            )
        if e.get("phase") == "tie-break":
            return say("{player} draws tie-break draw: {card}", player=p, card=card(e["card"]))
        return say("{player} draws card {slot}: {card}", player=p, slot=e["slot"], card=card(e["card"]))
    if t == "hand":
        return say("{player}: {hand} — Values {values}", player=p, hand=said(e["text"]), values=" ".join(str(v) for v in e["values"]))
    if t == "roll":
        if e.get("burned"):
            return say("{player} rolls {die}: burned card, rolls again", player=p, die=e["die"])
        extra = ""
        if "factions" in e:
            n = len(e["factions"])
            extra = say(" — new faction ({n}/4)", n=n) if e.get("new_faction") else say(" ({n}/4 factions)", n=n)
            if e.get("extra_roll"):
                extra += _(" — Independent: extra roll")
        return say("{player} rolls {die}: {card}", player=p, die=e["die"], card=card(e["card"])) + extra
    if t == "round":
        if "rule" in e:
            rule = N_("Round {n} (higher Value scores)") if e["rule"] == "higher" else N_("Round {n} (lower Value scores)")
            return say(rule, n=e["round"])
        return said(e["text"]) if e.get("text") else say("Round {n}", n=e["round"])
    if t == "score":
        if "sum" in e:
            return say("{player}: sum {sum}", player=p, sum=e["sum"])
        if e.get("winner"):
            return say("{player} scores: {points}", player=e["winner"], points=", ".join(f"{k} {v}" for k, v in e["points"].items()))
        return said(e.get("text", ""))
    if t == "burn":
        return say("{player}'s card {die} ({name}) is burned", player=p, die=e["die"], name=e["card"]["name"])
    if t == "note":
        if e.get("text") == f"{p} keeps the hand":  # the replace post's own line says it (_entry_lines)
            return None
        return said(e.get("text", ""))
    return None


TITLE_OF = {
    "accept": N_("accept by {player}"),
    "decline": N_("decline by {player}"),
    "replace": N_("replace by {player}"),
    "roll": N_("roll by {player}"),
    "claim": N_("claim by {player}"),
}
"""The title of a log entry's post, by its move (a roll asked by nobody: ``roll``)."""

ROLL_ASKED = (N_("roll of {n} round, asked by {player}"), N_("roll of {n} rounds, asked by {player}"))
ROLL = (N_("roll of {n} round"), N_("roll of {n} rounds"))
HEAD = N_("cardlab game {game} post {n} at {at}: {title}")
END = N_("end of post {n} of game {game}")


def _entry_lines(entry: dict, game: str) -> list[str]:
    """The lines of a log entry's post that state the entry itself (what the verifier reads back)."""
    p, kind = entry.get("player"), entry["move"]
    if kind == "accept":
        return [
            say("{player} accepts game {game}, its rules and stakes", player=p, game=game),
            say("contribution of {player}: {word}", player=p, word=entry["contribution"]),
        ]
    if kind == "decline":
        return [say("{player} declines game {game}: it is cancelled, nothing is drawn, no stake moves", player=p, game=game)]
    if kind == "replace":
        cards = entry.get("cards") or []
        if cards:
            return [say("{player} replaces cards {cards}", player=p, cards=", ".join(str(c) for c in cards))]
        return [say("{player} keeps the hand", player=p)]
    if kind == "roll":
        n = int(entry.get("rounds", 1))
        forms = ROLL_ASKED if p else ROLL
        return [say(forms[0] if n == 1 else forms[1], n=n, player=p)]
    if kind == "claim":
        return [say("{player} claims the win: every opponent silent for more than 7 days (seed 002)", player=p)]
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
        return None, say(
            "{player} does not play this game (players: {players}); only a player may claim it", player=player, players=", ".join(players)
        )
    others = [last[q] for q in players if q != player]
    newest = max(others)
    if last[player] < newest:
        who = max((q for q in players if q != player), key=lambda q: last[q])
        return None, say(
            "{other} answered last ({time}): {player} answers first, then may claim once the others are silent",
            other=who,
            time=show_time(newest),
            player=player,
        )
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
    versus = " " + _("vs") + " "
    title = say("{game}: {players}", game=TITLES.get(setup["kind"], setup["kind"]), players=versus.join(_safe(p) for p in players))
    start = Post(1, created, title, [("meta", x) for x in setup_lines(setup, stakes, commitment, hashed=False)])
    start.lines.append(("meta", say("game hash: {hash}", hash=ghash)))
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
        if winner:
            post.lines.append(("result", say("Result: {player} wins ({reason})", player=winner, reason=said(reason))))
        else:
            post.lines.append(
                ("result", say(N_("Result: cancelled ({reason})") if cancelled else N_("Result: draw ({reason})"), reason=said(reason)))
            )
        for s in result["stakes_moved"]:
            post.lines.append(("result", say("Stake: {card} goes from {giver} to {taker}", card=s["card"], giver=s["from"], taker=s["to"])))
        post.lines.append(("result", say("seed: {seed}", seed=host_seed.hex())))
        post.lines.append(("result", _("check: the seed's SHA-256 is the commitment of post 1; replay with 'cardlab play verify'")))

    if not fair:
        start.lines += [("item", t) for t in advance([])]
        if out.over:
            finish(start, out.winner, out.events[-1]["reason"])
        else:
            start.lines.append(("result", say("Waiting for: {players}", players=", ".join(out.waiting))))
    else:
        start.lines.append(("result", say("Waiting for: {players} to accept", players=", ".join(players))))
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
        post = Post(n, at, say(TITLE_OF[kind], player=_safe(p)) if p and kind in TITLE_OF else _("roll") if kind == "roll" else str(kind))
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
                    where
                    + ": "
                    + say(
                        "a claim is possible only after {time} (more than 7 days after the last answer of {player}'s opponents)",
                        time=show_time(opens),
                        player=p,
                    )
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
            post.lines.append(("meta", _("every player has accepted: the draws begin")))
            post.lines += [("item", t) for t in advance(moves, where)]
        elif kind in ("replace", "roll"):
            if len(moves) > MAX_ROUNDS:
                raise MoveError(f"{where}: more than {MAX_ROUNDS} rounds")
            post.lines += [("item", t) for t in advance(moves, where)]
        if kind == "claim":
            finish(
                post, p, f"forfeit: no answer from {', '.join(q for q in players if q != p)} for more than 7 days"
            )  # stored English: said()
        elif status == "on" and out.over:
            finish(post, out.winner, out.events[-1]["reason"])
        elif status == "pending":
            post.lines.append(
                ("result", say("Waiting for: {players} to accept", players=", ".join(q for q in players if q not in accepted)))
            )
        elif status == "on":
            post.lines.append(("result", say("Waiting for: {players}", players=", ".join(out.waiting))))
    for post in posts:
        post.title = say(HEAD, game=gid, n=post.number, at=post.at or "?", title=post.title)
        post.lines = [(style, _safe(text)) for style, text in post.lines]
        post.lines.append(("end", say(END, n=post.number, game=gid)))
    return Played(status, out, result, accepted, posts, last)
