"""cardlab.games.odds: every figure equals the value computed by hand from binomial coefficients."""

from fractions import Fraction
from math import comb

import pytest

from cardlab.games import odds as odds


def test_at_least_one_basic_in_seven():
    # 12 Basic Pokémon in 60 cards, 7 drawn: 1 - C(48,7)/C(60,7)
    assert odds.p_at_least(1, 12, 60, 7) == 1 - Fraction(comb(48, 7), comb(60, 7))
    assert float(odds.p_at_least(1, 12, 60, 7)) == pytest.approx(1 - 73_629_072 / 386_206_920)


def test_exactly_and_at_least_two():
    assert odds.p_exactly(2, 4, 60, 7) == Fraction(comb(4, 2) * comb(56, 5), comb(60, 7))
    expected = 1 - Fraction(comb(56, 7) + 4 * comb(56, 6), comb(60, 7))
    assert odds.p_at_least(2, 4, 60, 7) == expected


def test_sums_to_one():
    assert sum(odds.p_exactly(k, 12, 60, 7) for k in range(8)) == 1


def test_edges():
    assert odds.p_at_least(0, 12, 60, 7) == 1
    assert odds.p_at_least(1, 0, 60, 7) == 0
    assert odds.p_at_least(1, 60, 60, 7) == 1
    assert odds.p_exactly(8, 12, 60, 7) == 0


@pytest.mark.parametrize("args", [(1, -1, 60, 7), (1, 61, 60, 7), (1, 4, 60, 61), (1, 4, -60, 7)])
def test_bad_counts_raise(args):
    with pytest.raises(ValueError):
        odds.p_at_least(*args)


def test_expected_mulligans():
    p = odds.p_at_least(1, 12, 60, 7)
    assert odds.expected_mulligans(p) == (1 - p) / p
    assert odds.expected_mulligans(Fraction(1, 2)) == 1
    assert odds.expected_mulligans(Fraction(1)) == 0
    assert odds.expected_mulligans(Fraction(0)) is None
    with pytest.raises(ValueError):
        odds.expected_mulligans(Fraction(3, 2))


def test_ippo_mulligan_none_or_all_defense():
    # 20 Defense cards in 60, 5-card hand: no Defense or only Defense
    assert odds.p_none_or_all(20, 60, 5) == Fraction(comb(40, 5) + comb(20, 5), comb(60, 5))
    assert odds.p_none_or_all(0, 60, 5) == 1
    assert odds.p_none_or_all(3, 60, 5) == Fraction(comb(57, 5), comb(60, 5))


def test_knockdown_within_ten_flips():
    # 24 Blow cards in 60: fail ten times in a row = C(36,10)/C(60,10)
    assert odds.p_hit_within(24, 60, 10) == 1 - Fraction(comb(36, 10), comb(60, 10))
    assert odds.p_hit_within(0, 60, 10) == 0
    assert odds.p_hit_within(1, 5, 10) == 1  # fewer cards than flips: every card is turned up
    assert odds.p_hit_within(0, 5, 10) == 0


def test_each_at_least_one_by_inclusion_exclusion():
    # Monpa: 21 servants and 10 spells in 40, 5 drawn
    n, a, b = 40, 21, 10
    expected = 1 - Fraction(comb(n - a, 5) + comb(n - b, 5) - comb(n - a - b, 5), comb(n, 5))
    assert odds.p_each_at_least_one([a, b], n, 5) == expected
    assert odds.p_each_at_least_one([12], 60, 7) == odds.p_at_least(1, 12, 60, 7)
    assert odds.p_each_at_least_one([], 40, 5) == 1
    with pytest.raises(ValueError):
        odds.p_each_at_least_one([30, 20], 40, 5)


# At the edges (issue 16): the values the sixth mutation run's survivors changed: counts of exactly 0
# accepted, exactly -1 refused (each count alone), and every refusal word for word.


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
