"""Los Lobos hands and every tie rule, on hand-built hands (seed 002 "Los Lobos")."""

from __future__ import annotations

import pytest

from cardlab.play.hands import CLASSES, rank, winners


@pytest.mark.parametrize(
    ("hand", "cls"),
    [
        ((1, 3, 5, 7, 9), "none"),
        ((4, 4, 1, 2, 6), "pair"),
        ((1, 1, 2, 2, 5), "two-pairs"),
        ((2, 2, 2, 1, 5), "three"),
        ((1, 2, 3, 4, 6), "run-4"),
        ((1, 2, 3, 4, 4), "run-4"),  # a run of 4 with a pair: the run ranks higher
        ((3, 3, 3, 1, 1), "full-house"),
        ((5, 1, 3, 2, 4), "run-5"),
        ((2, 2, 2, 2, 3), "four"),
        ((4, 4, 4, 4, 4), "los-lobos"),
    ],
)
def test_classes(hand, cls):
    assert rank(hand).hand_class == cls


def test_seed_order_run_of_4_below_full_house():
    order = [
        rank(h)
        for h in [
            (1, 3, 5, 7, 9),
            (4, 4, 1, 2, 6),
            (1, 1, 2, 2, 5),
            (2, 2, 2, 1, 5),
            (1, 2, 3, 4, 6),
            (3, 3, 3, 1, 1),
            (1, 2, 3, 4, 5),
            (2, 2, 2, 2, 3),
            (1, 1, 1, 1, 1),
        ]
    ]
    assert [r.hand_class for r in order] == list(CLASSES)
    assert order == sorted(order)
    assert rank((1, 2, 3, 4, 9)) < rank((1, 1, 1, 2, 2))


def _win(a, b):
    found = winners([rank(a), rank(b)])
    return "draw" if len(found) == 2 else "ab"[found[0]]


def test_pair_height_beats_sum():
    assert _win((4, 4, 1, 2, 6), (1, 1, 5, 6, 9)) == "a"  # pair of 4 beats pair of 1 (seed example)


def test_two_pairs_higher_pair_then_lower_pair():
    assert _win((5, 5, 1, 1, 2), (4, 4, 3, 3, 9)) == "a"
    assert _win((5, 5, 2, 2, 1), (5, 5, 1, 1, 9)) == "a"


def test_full_house_three_then_pair():
    assert _win((3, 3, 3, 1, 1), (2, 2, 2, 5, 5)) == "a"
    assert _win((3, 3, 3, 2, 2), (3, 3, 3, 1, 1)) == "a"


def test_runs_by_highest_card():
    assert _win((2, 3, 4, 5, 5), (1, 2, 3, 4, 9)) == "a"
    assert _win((2, 3, 4, 5, 6), (1, 2, 3, 4, 5)) == "a"


def test_same_height_then_sum():
    assert _win((4, 4, 1, 2, 9), (4, 4, 1, 2, 6)) == "a"


def test_same_height_same_sum_is_a_draw():
    assert _win((4, 4, 1, 2, 9), (4, 4, 2, 1, 9)) == "draw"
    assert _win((4, 4, 3, 2, 7), (4, 4, 1, 5, 6)) == "draw"


def test_no_combination_decided_by_sum():
    assert _win((1, 3, 5, 7, 10), (1, 3, 5, 7, 9)) == "a"
    assert _win((1, 3, 5, 7, 9), (9, 7, 5, 3, 1)) == "draw"


def test_los_lobos_by_value():
    assert _win((5, 5, 5, 5, 5), (4, 4, 4, 4, 4)) == "a"


def test_bad_hand_size():
    with pytest.raises(ValueError):
        rank((1, 2, 3))
