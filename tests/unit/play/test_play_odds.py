"""Exact odds against hand-computed values and seeded simulations of the engine (small here; the
100,000-game checks are in benchmarks/bench_play.py)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from cardlab.play import odds
from cardlab.play.hands import rank
from cardlab.play.rng import Stream


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
def test_los_lobos_k_values_uniform(k):
    table = odds.los_lobos(list(range(1, k + 1)))
    assert table.get("Los Lobos") == k * Fraction(1, k) ** 5
    assert sum(p for _, p in table.rows) == 1


def test_los_lobos_two_values_by_hand():
    t = odds.los_lobos([1, 2])
    # 5 cards over 2 Values: 5-0 Los Lobos (2/32), 4-1 four of a kind (10/32), 3-2 full house (20/32)
    assert (t.get("Los Lobos"), t.get("four of a kind"), t.get("full house")) == (Fraction(2, 32), Fraction(10, 32), Fraction(20, 32))


def test_los_lobos_run_of_5_with_five_values():
    assert odds.los_lobos([1, 2, 3, 4, 5]).get("run of 5") == Fraction(120, 5**5)


def test_los_lobos_without_replacement_is_hypergeometric():
    values = [1] * 5 + [2] * 5
    t = odds.los_lobos(values, replacement=False)
    assert t.get("Los Lobos") == Fraction(2, comb(10, 5))
    assert sum(p for _, p in t.rows) == 1


def test_zangetsu_two_values_by_hand():
    t = odds.zangetsu([1, 2])
    assert [p for _, p in t.rows] == [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]
    tie = dict(t.extras)["P(2 players tie after 3 cards)"]
    assert tie == Fraction(1 + 9 + 9 + 1, 64)
    assert dict(t.extras)["expected tie-break draws (2 players)"] == tie / (1 - Fraction(1, 2))


def test_doll_house_by_hand():
    factions = ["gotei-13", "acuerdo", "ultima-necat", "neutral"] * 2 + ["independent", "neutral"]
    t = odds.doll_house(factions)
    assert t.get("Doll House on the first 4 rolls") == 24 * Fraction(2, 10) ** 3 * Fraction(3, 10)
    missing = odds.doll_house(["gotei-13"] * 10)
    assert missing.get("Doll House on the first 4 rolls") == 0 and dict(missing.extras)["expected rounds to a Doll House"] is None


def test_doll_house_expected_rounds_coupon_collector():
    # four factions, each 1/4 of the list... with 10 cards: use a list of 8 (2 each) for exact 1/4
    t = odds.doll_house(["gotei-13", "acuerdo", "ultima-necat", "neutral"] * 2)
    e = dict(t.extras)["expected rounds to a Doll House"]
    # E[rolls to collect 4 coupons] = 4(1 + 1/2 + 1/3 + 1/4) = 25/3; rounds = rolls - 3 when >= 4 rolls
    # E[max(T, 4)] - 3 where P(T = 4) = 4!/4^4
    p4 = Fraction(24, 256)
    assert e == Fraction(25, 3) - 3 + p4 * 0  # T >= 4 always, so E[rounds] = E[T] - 3
    assert t.get("Doll House on the first 4 rolls") == p4


def _within(freq, p, n, sds=3):
    return abs(freq - float(p)) <= sds * (float(p) * (1 - float(p)) / n) ** 0.5 + 1 / n


def test_los_lobos_odds_match_a_seeded_simulation():
    values = [v for v in range(1, 6) for _ in range(5)]
    table = odds.los_lobos(values)
    s = Stream(b"los-lobos-odds" * 3)
    n = 10_000
    seen: dict[str, int] = {}
    from cardlab.play.hands import CLASS_NAMES

    for _ in range(n):
        cls = rank([values[s.below(25)] for _ in range(5)]).hand_class
        seen[CLASS_NAMES[cls][0]] = seen.get(CLASS_NAMES[cls][0], 0) + 1
    for label, p in table.rows:
        assert _within(seen.get(label, 0) / n, p, n), label


def _rounds_to_doll_house(factions, s):
    """One player's Doll House with the engine's dice (4 rolls, then 1 a round): the rounds taken."""
    held, rounds = set(), 0
    while len(held) < 4:
        rounds += 1
        for _ in range(4 if rounds == 1 else 1):
            f = factions[s.die(10) - 1]
            if f != "independent":
                held.add(f)
    return rounds


def test_doll_house_odds_match_a_seeded_simulation():
    factions = ["gotei-13", "acuerdo", "ultima-necat", "neutral"] * 2 + ["independent", "neutral"]
    table = odds.doll_house(factions)
    s = Stream(b"doll-house-odds" * 3)
    n = 5_000
    runs = [_rounds_to_doll_house(factions, s) for _ in range(n)]
    assert _within(runs.count(1) / n, table.get("Doll House on the first 4 rolls"), n)
    mean = sum(runs) / n
    sd = (sum((r - mean) ** 2 for r in runs) / (n - 1)) ** 0.5
    assert abs(mean - float(dict(table.extras)["expected rounds to a Doll House"])) < 3 * sd / n**0.5


def test_zangetsu_odds_match_a_seeded_simulation():
    values = [v for v in range(1, 6) for _ in range(5)]
    table = odds.zangetsu(values)
    s = Stream(b"zangetsu-odds" * 3)
    n = 5_000
    ties = sum(sum(values[s.below(25)] for _ in range(3)) == sum(values[s.below(25)] for _ in range(3)) for _ in range(n))
    assert _within(ties / n, dict(table.extras)["P(2 players tie after 3 cards)"], n)
