"""Los Lobos hands (seed 002, "Los Lobos", "Principe" and "Condition de victoire").

Classes, weakest to strongest, as the seed lists them (a run of 4 ranks *below* a full house):
no combination, pair, two pairs, three of a kind, run of 4, full house, run of 5, four of a kind,
Los Lobos (5 cards of one Value). A run is 4 (or 5) cards whose Values follow each other
(3-4-5-6).

Ties between hands of the same class (seed: "la hauteur de leur combinaison", then "la Valeur de
toutes les cartes"):

1. the height of the combination: a pair, three or four of a kind, or Los Lobos by its Value; two
   pairs by the higher pair, then the lower pair; a full house by its three of a kind, then its
   pair; a run by its highest card;
2. then the sum of the five Values;
3. else the hands are equal: a draw.

A hand with no combination has no height: it is decided by the sum rule alone (our reading: the
seed's last tie-break applies to every hand). :func:`rank` returns a key that orders hands this way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

CLASSES = ("none", "pair", "two-pairs", "three", "run-4", "full-house", "run-5", "four", "los-lobos")
"""Hand class ids, weakest first (seed 002 "Los Lobos"); the index is the strength."""

CLASS_NAMES = {
    "none": ("no combination", "aucune combinaison"),
    "pair": ("pair", "paire"),
    "two-pairs": ("two pairs", "deux paires"),
    "three": ("three of a kind", "brelan"),
    "run-4": ("run of 4", "suite"),
    "full-house": ("full house", "full"),
    "run-5": ("run of 5", "quinte"),
    "four": ("four of a kind", "carré"),
    "los-lobos": ("Los Lobos", "Los Lobos"),
}
"""Class id -> (English name, the seed's French name)."""


class Rank(NamedTuple):
    """A hand's rank: compare ranks with ``<``/``==`` (a greater rank wins; equal ranks draw).

    Attributes:
        strength: index in :data:`CLASSES`; height: the combination's height (tie-break 1);
        total: the sum of the Values (tie-break 2).
    """

    strength: int
    height: tuple[int, ...]
    total: int

    @property
    def hand_class(self) -> str:
        """The class id (``full-house``...)."""
        return CLASSES[self.strength]


def _run_top(distinct: list[int], length: int) -> int | None:
    """The highest card of the highest run of ``length`` among sorted distinct Values, or None."""
    best = None
    for i in range(len(distinct) - length + 1):
        if distinct[i + length - 1] - distinct[i] == length - 1:
            best = distinct[i + length - 1]
    return best


def _classify(hand: tuple[int, ...]) -> Rank:
    counts = Counter(hand)
    by_count = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [c for _, c in by_count]
    total = sum(hand)
    distinct = sorted(counts)
    if shape[0] == 5:
        return Rank(8, (by_count[0][0],), total)
    if shape[0] == 4:
        return Rank(7, (by_count[0][0],), total)
    top5 = _run_top(distinct, 5)
    if top5 is not None:
        return Rank(6, (top5,), total)
    if shape[:2] == [3, 2]:
        return Rank(5, (by_count[0][0], by_count[1][0]), total)
    top4 = _run_top(distinct, 4)
    if top4 is not None:
        return Rank(4, (top4,), total)
    if shape[0] == 3:
        return Rank(3, (by_count[0][0],), total)
    if shape[:2] == [2, 2]:
        high, low = sorted((by_count[0][0], by_count[1][0]), reverse=True)
        return Rank(2, (high, low), total)
    if shape[0] == 2:
        return Rank(1, (by_count[0][0],), total)
    return Rank(0, (), total)


_CACHE: dict[tuple[int, ...], Rank] = {}


def rank(values: Sequence[int]) -> Rank:
    """Return the :class:`Rank` of a hand of 5 Values (seed 002 "Los Lobos"; rules in the module
    docstring). Raises ValueError for a hand that is not 5 cards."""
    key = tuple(sorted(values))
    found = _CACHE.get(key)
    if found is None:
        if len(key) != 5:
            raise ValueError(f"a Los Lobos hand has 5 cards, not {len(key)}")
        found = _classify(key)
        if len(_CACHE) < 1_000_000:
            _CACHE[key] = found
    return found


def winners(ranks: Sequence[Rank]) -> list[int]:
    """Return the indexes of the best rank(s): one index is a win, several are a draw between them."""
    best = max(ranks)
    return [i for i, r in enumerate(ranks) if r == best]


def describe(r: Rank, lang: str = "en") -> str:
    """Return a rank in words: ``full house (3 over 1), sum 11`` (``lang`` ``fr`` for the seed's names)."""
    name = CLASS_NAMES[r.hand_class][1 if lang == "fr" else 0]
    if not r.height:
        return f"{name}, sum {r.total}"
    if r.hand_class in ("two-pairs", "full-house"):
        height = f"{r.height[0]} and {r.height[1]}" if r.hand_class == "two-pairs" else f"{r.height[0]} over {r.height[1]}"
    elif r.hand_class.startswith("run"):
        height = f"to {r.height[0]}"
    else:
        height = f"of {r.height[0]}"
    return f"{name} {height}, sum {r.total}"
