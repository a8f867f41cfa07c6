"""Exact draw probabilities (hypergeometric: cards drawn without replacement).

Pure functions over counts; every probability is an exact :class:`fractions.Fraction` in [0, 1]
(``float(p)`` for display). Inputs are whole numbers of cards: ``deck`` cards in the shuffled deck,
``copies`` (or ``successes``) of them are the cards of interest, ``hand`` are drawn.

Where the figures come from (each game's ``deck_figures`` uses them, for ``cardlab.decks.stats``):

- Pokémon, seed 001: a 7-card opening hand must hold a Basic Pokémon, else the player shuffles and
  draws 7 again (a mulligan) -> :func:`p_at_least` and :func:`expected_mulligans`.
- Ippo, seed 003 ("マリガン"): redraw the 5-card hand when it holds no Defense card or only Defense
  cards -> :func:`p_none_or_all`; a knocked-down boxer turns up deck cards one at a time and gets up
  on the first Blow card, failing after 10 cards (seed 000 "Knock-down", seed 003 "ノックダウンについて")
  -> :func:`p_hit_within`.
- Monpa, seed 004: a 5-card opening hand -> :func:`p_each_at_least_one`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import comb


def _check(copies: int, deck: int, hand: int) -> None:
    if copies < 0 or deck < 0 or hand < 0:
        raise ValueError(f"counts must not be negative (copies={copies}, deck={deck}, hand={hand})")
    if copies > deck or hand > deck:
        raise ValueError(f"copies ({copies}) and hand ({hand}) cannot exceed the deck ({deck})")


def p_exactly(k: int, copies: int, deck: int, hand: int) -> Fraction:
    """Probability that a hand of ``hand`` cards holds exactly ``k`` of ``copies`` cards of interest.

    Args:
        k: how many of the cards of interest, 0 or more.
        copies: cards of interest in the deck.
        deck: cards in the deck.
        hand: cards drawn.

    Returns:
        ``C(copies, k) * C(deck - copies, hand - k) / C(deck, hand)``, exact, in [0, 1].

    Raises:
        ValueError: a count is negative, or ``copies`` or ``hand`` exceeds ``deck``.
    """
    _check(copies, deck, hand)
    if k < 0 or k > hand:
        return Fraction(0)
    return Fraction(comb(copies, k) * comb(deck - copies, hand - k), comb(deck, hand))


def p_at_least(k: int, copies: int, deck: int, hand: int) -> Fraction:
    """Probability of at least ``k`` of ``copies`` cards of interest in a hand of ``hand`` cards.

    ``p_at_least(1, 12, 60, 7) == 1 - C(48, 7) / C(60, 7)`` (a Basic Pokémon in the opening hand of a
    60-card deck with 12 Basics).

    Returns:
        An exact probability in [0, 1] (1 when ``k <= 0``).

    Raises:
        ValueError: as :func:`p_exactly`.
    """
    _check(copies, deck, hand)
    if k <= 0:
        return Fraction(1)
    return 1 - sum((p_exactly(i, copies, deck, hand) for i in range(k)), Fraction(0))


def p_none_or_all(copies: int, deck: int, hand: int) -> Fraction:
    """Probability that a hand holds none of the cards of interest, or nothing but them.

    Ippo's mulligan (seed 003): a 5-card hand with no Defense card or only Defense cards, i.e.
    ``(C(deck - copies, hand) + C(copies, hand)) / C(deck, hand)``. With ``hand == 0`` the empty
    hand counts once.

    Raises:
        ValueError: as :func:`p_exactly`.
    """
    _check(copies, deck, hand)
    if hand == 0:
        return Fraction(1)
    return Fraction(comb(deck - copies, hand) + comb(copies, hand), comb(deck, hand))


def p_each_at_least_one(groups: Sequence[int], deck: int, hand: int) -> Fraction:
    """Probability that a hand holds at least one card of every group (groups do not overlap).

    Multivariate hypergeometric by inclusion-exclusion:
    ``sum over subsets S of groups of (-1)^|S| * C(deck - sum(S), hand) / C(deck, hand)``.

    Args:
        groups: how many cards of each group the deck holds (e.g. servants, spells).
        deck: cards in the deck; hand: cards drawn.

    Returns:
        An exact probability in [0, 1]; 1 for no groups.

    Raises:
        ValueError: a count is negative, or the groups together or the hand exceed the deck.
    """
    _check(sum(groups), deck, hand)
    if any(g < 0 for g in groups):
        raise ValueError(f"group sizes must not be negative: {list(groups)}")
    total = Fraction(0)
    for size in range(len(groups) + 1):
        for subset in combinations(groups, size):
            total += (-1) ** size * Fraction(comb(deck - sum(subset), hand), comb(deck, hand))
    return total


def p_hit_within(successes: int, deck: int, flips: int) -> Fraction:
    """Probability that turning up cards one at a time finds a success within ``flips`` cards.

    Ippo's getting up from a knock-down (seeds 000, 003): turn up the top card; a Blow card gets the
    boxer up, any other card is a failed count; after 10 failures, or when the deck runs out, the
    boxer is knocked out. With fewer than ``flips`` cards left every card is turned up.

    Returns:
        ``1 - C(deck - successes, m) / C(deck, m)`` with ``m = min(flips, deck)``; exact, in [0, 1].

    Raises:
        ValueError: a count is negative or ``successes`` exceeds ``deck``.
    """
    if flips < 0:
        raise ValueError(f"flips must not be negative ({flips})")
    m = min(flips, deck)
    _check(successes, deck, m)
    return 1 - Fraction(comb(deck - successes, m), comb(deck, m))


def expected_mulligans(p_ok: Fraction) -> Fraction | None:
    """Expected number of mulligans before a good hand, when each redraw is good with ``p_ok``.

    Each mulligan is a fresh shuffle, so the number of bad hands before the first good one is
    geometric: ``(1 - p_ok) / p_ok``.

    Returns:
        The expected count of mulligans (0 or more), or None when ``p_ok == 0`` (never ends).

    Raises:
        ValueError: ``p_ok`` outside [0, 1].
    """
    p_ok = Fraction(p_ok)
    if not 0 <= p_ok <= 1:
        raise ValueError(f"probability out of range: {p_ok}")
    if p_ok == 0:
        return None
    return (1 - p_ok) / p_ok
