"""cardlab.games.odds at its edges (issue 16): the values the sixth mutation run's survivors changed:
counts of exactly 0 accepted, exactly -1 refused (each count alone), and every refusal word for word."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cardlab.games import odds


def test_zero_counts_are_accepted():
    """An empty deck, an empty hand, no flips and a group of no cards are counts, not errors."""
    assert odds.p_exactly(0, 0, 0, 0) == 1
    assert odds.p_at_least(1, 4, 60, 0) == 0
    assert odds.p_none_or_all(2, 5, 0) == 1  # the empty hand counts once, not as "none" and "all"
    assert odds.p_hit_within(3, 10, 0) == 0
    assert odds.p_each_at_least_one([0, 3], 10, 2) == 0  # no card of the first group to draw
    assert odds.p_none_or_all(2, 5, 1) == 1


@pytest.mark.parametrize(
    ("copies", "deck", "hand"),
    [(-1, 5, 2), (1, -1, 0), (1, 5, -1)],
)
def test_each_negative_count_alone_is_refused(copies, deck, hand):
    """One count of exactly -1, the others fine: refused, the three counts named."""
    with pytest.raises(ValueError) as err:
        odds.p_exactly(0, copies, deck, hand)
    assert str(err.value) == f"counts must not be negative (copies={copies}, deck={deck}, hand={hand})"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: odds.p_exactly(0, 6, 5, 2), "copies (6) and hand (2) cannot exceed the deck (5)"),
        (lambda: odds.p_each_at_least_one([-1, 3], 10, 2), "group sizes must not be negative: [-1, 3]"),
        (lambda: odds.p_hit_within(3, 10, -1), "flips must not be negative (-1)"),
        (lambda: odds.expected_mulligans(Fraction(3, 2)), "probability out of range: 3/2"),
    ],
)
def test_refusals_word_for_word(call, message):
    """What each refusal says."""
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == message
