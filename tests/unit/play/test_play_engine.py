"""The mini-games' rules on hand-built situations (a scripted generator), seed 002."""

from __future__ import annotations

import pytest

from cardlab.play import engine
from cardlab.play.engine import MoveError


class Scripted:
    """A generator that returns given numbers: ``below(n)`` pops the next one (checked < n)."""

    def __init__(self, values):
        self.values = list(values)
        self.counter = 0

    def below(self, n):
        v = self.values.pop(0)
        assert 0 <= v < n
        self.counter += 1
        return v

    def die(self, sides):
        return 1 + self.below(sides)


def card(i, value, faction="neutral"):
    return {"id": f"c{i}", "name": f"C{i}", "value": value, "faction": faction}


POOL = [card(i, v) for i, v in enumerate([1, 2, 3, 4, 5, 6])]  # index = Value - 1


def lobos(*draws, moves=()):
    setup = {"kind": "los-lobos", "players": ["a", "b"], "pool": POOL}
    return engine.los_lobos(setup, list(moves), Scripted([v - 1 for v in draws]))


def test_los_lobos_ends_the_game_at_once():
    out = lobos(3, 3, 3, 3, 3, 6, 6, 6, 6, 5)
    assert out.over and out.winner == "a" and out.events[-1]["reason"] == "Los Lobos"
    with pytest.raises(MoveError):
        lobos(3, 3, 3, 3, 3, 6, 6, 6, 6, 5, moves=[{"move": "replace", "player": "b", "cards": [5]}])


def test_two_los_lobos_higher_value_wins_equal_ones_draw():
    assert lobos(2, 2, 2, 2, 2, 4, 4, 4, 4, 4).winner == "b"
    out = lobos(2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
    assert out.over and out.draw


def test_replacement_once_then_best_hand_wins():
    moves = [{"move": "replace", "player": "a", "cards": [5]}, {"move": "replace", "player": "b", "cards": []}]
    out = lobos(1, 1, 2, 2, 6, 3, 3, 5, 6, 1, 2, moves=moves)  # a: 1 1 2 2 6 -> replaces the 6 with a 2: full house
    assert out.hands["a"][4]["value"] == 2
    assert out.winner == "a" and out.events[-1]["reason"] == "best hand"
    with pytest.raises(MoveError, match="once only"):
        lobos(1, 1, 2, 2, 6, 3, 3, 5, 6, 1, 2, 2, moves=[*moves[:1], *moves[:1]])


def test_equal_hands_are_a_draw():
    moves = [{"move": "replace", "player": p, "cards": []} for p in "ab"]
    out = lobos(4, 4, 1, 2, 6, 4, 4, 2, 1, 6, moves=moves)
    assert out.over and out.draw and out.winner is None


def test_bad_positions_refused():
    with pytest.raises(MoveError, match="positions 1 to 5"):
        lobos(1, 1, 2, 2, 6, 3, 3, 5, 6, 1, moves=[{"move": "replace", "player": "a", "cards": [6]}])
    with pytest.raises(MoveError, match="does not play"):
        lobos(1, 1, 2, 2, 6, 3, 3, 5, 6, 1, moves=[{"move": "replace", "player": "z", "cards": []}])
    # a finding: --cards 1,1 replaced one card while the post named position 1 twice
    with pytest.raises(MoveError, match=r"^position 1 given twice: each card is replaced once \(--cards 2,5\)$"):
        lobos(1, 1, 2, 2, 6, 3, 3, 5, 6, 1, 2, moves=[{"move": "replace", "player": "a", "cards": [1, 1]}])


def test_zangetsu_tied_players_draw_until_separated():
    setup = {"kind": "zangetsu", "players": ["a", "b", "c"], "pool": POOL}
    # a: 6+1+1 = 8, b: 2+3+3 = 8, c: 1+1+1 = 3; tie a/b: both draw 4 (tie again), then a 2, b 5
    out = engine.zangetsu(setup, [], Scripted([v - 1 for v in (6, 1, 1, 2, 3, 3, 1, 1, 1, 4, 4, 2, 5)]))
    assert out.winner == "b" and out.scores == {"a": 14, "b": 17, "c": 3}
    assert sum(e["type"] == "round" for e in out.events) == 2


def test_zangetsu_without_replacement_running_out_is_a_draw():
    setup = {"kind": "zangetsu", "players": ["a", "b"], "pool": [card(i, 1) for i in range(6)], "replacement": False}
    out = engine.zangetsu(setup, [], Scripted([0] * 6))
    assert out.over and out.draw


def _lists(a, b):
    return {"a": [card(i, 1, f) for i, f in enumerate(a)], "b": [card(i, 1, f) for i, f in enumerate(b)]}


FULL = ["gotei-13", "acuerdo", "ultima-necat", "neutral", "independent"] + ["neutral"] * 5


def test_doll_house_two_at_once_is_a_draw():
    setup = {"kind": "doll-house", "players": ["a", "b"], "lists": _lists(FULL, FULL)}
    out = engine.doll_house(setup, [{"move": "roll"}], Scripted([0, 1, 2, 3, 0, 1, 2, 3]))
    assert out.over and out.draw


def test_doll_house_first_to_four_factions_and_independents_count_nothing():
    setup = {"kind": "doll-house", "players": ["a", "b"], "lists": _lists(FULL, FULL)}
    rolls = [0, 1, 2, 4, 0, 0, 0, 0, 3, 1]  # round 1: a misses (an Independent); round 2: a rolls 4
    out = engine.doll_house(setup, [{"move": "roll"}] * 2, Scripted(rolls))
    assert out.winner == "a" and out.scores == {"a": 4, "b": 2}


def test_doll_house_independent_variant_grants_an_extra_roll():
    setup = {"kind": "doll-house", "players": ["a", "b"], "lists": _lists(FULL, FULL), "options": {"independent_reroll": True}}
    out = engine.doll_house(setup, [{"move": "roll"}], Scripted([0, 1, 2, 4, 3, 0, 0, 0, 0]))
    assert out.winner == "a"
    assert any(e.get("extra_roll") for e in out.events)


def _ryujin(a_values, b_values, rolls, moves=1, win=None):
    lists = {"a": [card(i, v) for i, v in enumerate(a_values)], "b": [card(i, v) for i, v in enumerate(b_values)]}
    setup = {"kind": "ryujin-jakka", "players": ["a", "b"], "lists": lists, "options": {"win": win} if win else {}}
    return engine.ryujin_jakka(setup, [{"move": "roll"}] * moves, Scripted(rolls))


TEN = list(range(1, 11))


def test_ryujin_odd_rounds_higher_even_rounds_lower_and_burning():
    out = _ryujin(TEN, TEN, [9, 0, 9, 1], moves=2)  # round 1: 10 vs 1, a scores; round 2: 10 vs 2, b scores
    scores = [e for e in out.events if e["type"] == "score"]
    assert [s["winner"] for s in scores] == ["a", "b"]
    burns = [(e["player"], e["die"]) for e in out.events if e["type"] == "burn"]
    assert burns == [("b", 1), ("a", 10)]


def test_ryujin_burned_numbers_are_rolled_again():
    out = _ryujin(TEN, TEN, [9, 0, 5, 0, 9], moves=2)  # round 2: b rolls its burned 1, then 10
    rerolls = [e for e in out.events if e.get("burned")]
    assert [(e["player"], e["die"]) for e in rerolls] == [("b", 1)]


def test_ryujin_equal_values_score_nothing_and_burn_nothing():
    out = _ryujin(TEN, TEN, [4, 4], moves=1)
    assert [e["winner"] for e in out.events if e["type"] == "score"] == [None]
    assert not any(e["type"] == "burn" for e in out.events)


def test_ryujin_first_to_three_points():
    # a 10-1 (a), 10-2 lower (b), 9-3 (a), 9-4 lower (b), 8-5 (a): 3 to 2 after round 5; a 6th move is refused
    rolls = [9, 0, 9, 1, 8, 2, 8, 3, 7, 4]
    out = _ryujin(TEN, TEN, rolls, moves=5)
    with pytest.raises(MoveError, match="over"):
        _ryujin(TEN, TEN, rolls + [0, 0], moves=6)
    assert out.over and out.winner == "a" and out.scores == {"a": 3, "b": 2}


def test_ryujin_one_point_variant():
    out = _ryujin(TEN, TEN, [9, 0], moves=1, win={"mode": "points", "points": 1})
    assert out.over and out.winner == "a"


def test_ryujin_stalemate_of_equal_values_ends_on_points():
    out = _ryujin([5] * 10, [5] * 10, [0, 0], moves=1)
    assert out.over and out.draw


def test_ryujin_burn_out_variant_more_points_wins():
    a = [10] * 10
    b = [1] * 10
    rolls = []
    for r in range(1, 20):  # odd rounds a (higher) scores and burns b's card; even rounds b (lower) burns a's
        rolls += [(r - 1) // 2, r // 2]
    out = _ryujin(a, b, rolls, moves=19, win={"mode": "burn-out"})
    assert out.over and out.winner == "a" and out.scores == {"a": 10, "b": 9}
    assert "all burned" in out.events[-1]["reason"]


def test_ryujin_best_of_three():
    rolls = [9, 0] + [9, 0]  # manche 1: a wins round 1 (1 point manche); manche 2 likewise
    out = _ryujin(TEN, TEN, rolls, moves=2, win={"mode": "best-of", "games": 3, "points": 1})
    assert out.over and out.winner == "a" and out.scores == {"a": 2, "b": 0}


def test_replay_is_deterministic_from_the_seed():
    setup = {"kind": "los-lobos", "players": ["a", "b"], "pool": POOL}
    moves = [{"move": "replace", "player": "a", "cards": [1, 2]}, {"move": "replace", "player": "b", "cards": []}]
    seed = bytes(range(32))
    one, two = engine.replay(setup, seed, moves), engine.replay(setup, seed, moves)
    assert one.events == two.events and one.counter == two.counter > 0
    assert engine.replay(setup, bytes(32), moves).events != one.events


def test_draws_without_replacement_never_repeat_a_card():
    pool = [card(i, 1 + i % 6) for i in range(12)]
    setup = {"kind": "los-lobos", "players": ["a", "b"], "pool": pool, "replacement": False}
    out = engine.replay(setup, bytes(range(32)), [{"move": "replace", "player": "a", "cards": [1, 2]}])
    ids = [e["card"]["id"] for e in out.events if e["type"] == "draw"]
    assert len(ids) == 12 and len(set(ids)) == 12
    with pytest.raises(MoveError, match="empty"):
        engine.replay(
            setup, bytes(range(32)), [{"move": "replace", "player": "a", "cards": [1, 2]}, {"move": "replace", "player": "b", "cards": [1]}]
        )
