"""A thread that proves itself (issue 33 §1): posts pasted from a forum (BBCode, Markdown or plain,
in any order, quoted, with signatures) verify from the revealed seed alone, and an edit of any field
that decides the result is reported with its post and line."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.errors import InputError
from cardlab.play import rng
from cardlab.play.thread import SCHEME, clean, play
from cardlab.play.verify import verify_text
from cardlab.render.forum import render_post

SEED = bytes(range(32))
COMMIT = rng.commitment(SEED)
CREATED = "2026-11-02T09:00:00Z"


def card(i, faction="neutral", name=None):
    return {"id": f"ftcg-test-{i}", "name": name or f"Lame [{i}] errante", "value": i % 7 + 1, "faction": faction}


def ryujin():
    lists = {"alice": [card(i) for i in range(1, 11)], "bob": [card(i) for i in range(5, 15)]}
    setup = {"kind": "ryujin-jakka", "players": ["alice", "bob"], "lists": lists, "options": {"win": {"mode": "points", "points": 3}}}
    log = [
        {"move": "accept", "player": "alice", "contribution": "alice-word", "at": "2026-11-02T10:00:00Z"},
        {"move": "accept", "player": "bob", "contribution": "0f3a9c21", "at": "2026-11-02T11:00:00Z"},
        {"move": "roll", "player": "alice", "rounds": 1, "at": "2026-11-03T10:00:00Z"},
    ]
    return setup | {"scheme": SCHEME}, {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}, log


def finished(setup, stakes, log):
    """Roll until the game is over (a dice game), as ``play roll --to-end`` does."""
    for n in range(1, 200):
        full = [*log, {"move": "roll", "player": "bob", "rounds": n, "at": "2026-11-04T10:00:00Z"}]
        if play(setup, stakes, COMMIT, SEED, full, CREATED).status == "over":
            return full
    raise AssertionError("never over")


def lobos():
    setup = {"kind": "los-lobos", "players": ["alice", "bob"], "pool": [card(i) for i in range(1, 12)], "replacement": True}
    setup |= {"set": "ftcg-test", "options": {}, "scheme": SCHEME}
    log = [
        {"move": "accept", "player": "bob", "contribution": "bob-word", "at": "2026-11-02T10:00:00Z"},
        {"move": "accept", "player": "alice", "contribution": "alice-word", "at": "2026-11-02T11:00:00Z"},
        {"move": "replace", "player": "alice", "cards": [2, 5], "at": "2026-11-02T12:00:00Z"},
        {"move": "replace", "player": "bob", "cards": [], "at": "2026-11-02T13:00:00Z"},
    ]
    return setup, {"bob": "ftcg-test-32"}, log


def thread(setup, stakes, log, fmt="text"):
    played = play(setup, stakes, COMMIT, SEED, log, CREATED)
    return played, [render_post(p, fmt) for p in played.posts]


RJ = ryujin()
RJ_LOG = finished(*RJ)
LL = lobos()


def test_a_finished_game_verifies_and_every_field_is_on_its_posts():
    played, posts = thread(RJ[0], RJ[1], RJ_LOG)
    assert played.status == "over" and played.result["winner"] in ("alice", "bob")
    (verdict,) = verify_text("\n".join(posts))
    assert verdict.ok and verdict.posts == len(RJ_LOG) + 1 and verdict.problem is None
    text = "\n".join(posts)
    assert "list of player 2, card 1: Value 6, neutral, ftcg-test-5, Lame (5) errante" in text
    assert "stake of player 1: ftcg-test-30" in text and f"seed: {SEED.hex()}" in text
    loser = "bob" if played.result["winner"] == "alice" else "alice"
    assert f"Stake: {RJ[1][loser]} goes from {loser} to {played.result['winner']}" in text


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_pasted_in_any_order_quoted_with_signatures(fmt):
    _, posts = thread(*LL, fmt=fmt)
    shuffled = posts[:]
    random.Random(3).shuffle(shuffled)
    quoted = "[quote=alice]" + posts[2] + "[/quote]\n" if fmt == "bbcode" else "".join(f"> {x}\n" for x in posts[2].splitlines())
    pasted = "\n\n".join(f"bob wrote, Today 12:01\n{p}\n--\nMy signature: [b]Gotei forever[/b] &amp; more" for p in shuffled)
    (verdict,) = verify_text("Re: Los Lobos\n" + quoted + pasted + "\n" + quoted)
    assert verdict.ok, verdict.problem


def test_a_missing_post_a_cut_post_and_an_unrevealed_seed():
    _, posts = thread(*LL)
    (v,) = verify_text("\n".join(posts[:2] + posts[3:]))
    assert not v.ok and v.problem.startswith("post 3 of game ") and "is missing" in v.problem
    cut = posts[3].rsplit("end of post", 1)[0]
    (v,) = verify_text("\n".join(posts[:3] + [cut] + posts[4:]))
    assert not v.ok and "post 4 (file line" in v.problem and "is cut short" in v.problem
    _, open_posts = thread(LL[0], LL[1], LL[2][:3])
    (v,) = verify_text("\n".join(open_posts))
    assert not v.ok and v.problem == "the seed is not revealed in posts 1 to 4: the game is not over, its draws cannot be checked yet"


def test_edited_winner_and_draw_are_named_by_post_and_line():
    played, posts = thread(*LL)
    text = "\n".join(posts)
    winner = played.result["winner"] or "nobody"
    forged = (
        text.replace(f"Result: {winner} wins", "Result: mallory wins")
        if played.result["winner"]
        else text.replace("Result: draw", "Result: alice wins")
    )
    (v,) = verify_text(forged)
    last = len(posts)
    assert not v.ok and v.problem.startswith(f"post {last}, line ") and "found 'Result: " in v.problem


def test_a_claim_dated_too_early_is_caught():
    setup, stakes, log = RJ
    claim = [*log, {"move": "claim", "player": "alice", "at": "2026-11-09T11:00:01Z"}]  # bob's acceptance + 7 days + 1 s
    played, posts = thread(setup, stakes, claim)
    assert played.result["winner"] == "alice"
    (v,) = verify_text("\n".join(posts))
    assert v.ok
    early = "\n".join(posts).replace("at 2026-11-09T11:00:01Z", "at 2026-11-09T10:59:59Z")
    (v,) = verify_text(early)
    assert not v.ok and "a claim is possible only after 2026-11-09T11:00:00Z" in v.problem


def test_nothing_to_verify_is_unreadable_input():
    with pytest.raises(InputError, match="no cardlab game post found"):
        verify_text("just a forum thread\nwith no game\n")


def _editable(text: str) -> list[tuple[int, int]]:
    """Every letter or digit of the posts, but the time in each post's first line (the host's
    word, checked only by the claim rule) and the forum's noise outside posts."""
    spots = []
    for i, line in enumerate(text.splitlines()):
        skip = range(0)
        m = re.match(r"cardlab game \w+ post \d+ at (\S+):", line)
        if m:
            skip = range(m.start(1), m.end(1))
        spots += [(i, j) for j, ch in enumerate(line) if ch.isalnum() and j not in skip]
    return spots


FINISHED = {"ryujin": "\n".join(thread(RJ[0], RJ[1], RJ_LOG)[1]), "lobos": "\n".join(thread(*LL)[1])}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(FINISHED)), pick=st.integers(min_value=0), shift=st.integers(min_value=1, max_value=8))
def test_any_edit_of_a_finished_game_is_caught(game, pick, shift):
    text = FINISHED[game]
    spots = _editable(text)
    i, j = spots[pick % len(spots)]
    lines = text.splitlines()
    ch = lines[i][j]
    alphabet = "0123456789" if ch.isdigit() else "abcdefghijklmnopqrstuvwxyz" if ch.islower() else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    new = alphabet[(alphabet.index(ch) + shift) % len(alphabet)] if ch in alphabet else "x"
    lines[i] = lines[i][:j] + new + lines[i][j + 1 :]
    if clean(lines[i]) == clean(text.splitlines()[i]):
        return  # not a change once read back (cannot happen for a letter or digit; kept honest)
    verdicts = verify_text("\n".join(lines))
    assert not all(v.ok for v in verdicts), (lines[i], verdicts)


FIELDS = [
    ("player", "player 2: bob", "player 2: bobby"),
    ("list", "list of player 1, card 3: Value 4", "list of player 1, card 3: Value 5"),
    ("stake", "stake of player 1: ftcg-test-30", "stake of player 1: ftcg-test-31"),
    ("contribution", "contribution of bob: 0f3a9c21", "contribution of bob: 0f3a9c22"),
    ("commitment", f"= {COMMIT}", f"= {rng.commitment(b'x' * 32)}"),
    ("seed", f"seed: {SEED.hex()}", f"seed: {bytes(32).hex()}"),
    ("rounds", "roll of 1 round, asked by alice", "roll of 2 rounds, asked by alice"),
]


@pytest.mark.parametrize(("field", "old", "new"), FIELDS, ids=[f[0] for f in FIELDS])
def test_each_deciding_field_edited_is_reported(field, old, new):
    text = FINISHED["ryujin"]
    assert text.count(old) >= 1
    (v,) = verify_text(text.replace(old, new, 1))
    assert not v.ok and v.problem.startswith("post "), v.problem


def test_a_partial_quote_is_ignored_and_renumbered_posts_are_caught():
    _, posts = thread(*LL)
    partial = "\n".join(f"> {x}" for x in posts[2].splitlines()[:3])  # a reply quoting the first lines only
    (v,) = verify_text(partial + "\nI agree!\n" + "\n".join(posts))
    assert v.ok, v.problem
    swapped = [p.replace(" post 3 ", " post X ").replace(" post 4 ", " post 3 ").replace(" post X ", " post 4 ") for p in posts]
    swapped = [
        p.replace("end of post 3 ", "end of post X ")
        .replace("end of post 4 ", "end of post 3 ")
        .replace("end of post X ", "end of post 4 ")
        for p in swapped
    ]
    (v,) = verify_text("\n".join(swapped))
    assert not v.ok and v.problem.startswith("post 3")


def test_a_game_without_options_shows_no_options_line_and_keeping_is_said_once():
    """The start post of a game without options has no "options: {}" line (its hash still covers
    it: the game keeps its id and its draws), and a kept hand is said once in its post."""
    played, posts = thread(*LL)
    start = [t for _, t in played.posts[0].lines]
    assert [t for t in start if t.startswith("options")] == []
    assert ("meta", "game hash: fe910e019c638c91f42eea974b6a5d83e2ca0c92711767092a4e471cf9d24042") in played.posts[0].lines  # as before
    keep = played.posts[-1]
    assert [t for _, t in keep.lines].count("bob keeps the hand") == 1
    (verdict,) = verify_text("\n".join(posts))
    assert verdict.ok


def test_a_thread_written_before_still_verifies():
    """A thread posted by an earlier cardlab, with "options: {}" and the kept hand said twice,
    verifies: neither line says anything the posts do not."""
    played, posts = thread(*LL)
    start, keep = posts[0], posts[-1]
    assert "bob keeps the hand" in keep
    old_start = start.replace("stake of player 2:", "options: {}\nstake of player 2:", 1)
    old_keep = keep.replace("bob keeps the hand\n", "bob keeps the hand\n  - bob keeps the hand\n", 1)
    assert old_start != start and old_keep != keep
    (verdict,) = verify_text("\n".join([old_start, *posts[1:-1], old_keep]))
    assert verdict.ok, verdict.problem
