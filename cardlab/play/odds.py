"""Exact odds of the mini-games (issue 13 §3, "Exact odds"), as fractions (:class:`fractions.Fraction`)
by exact enumeration; the tests cross-check them with seeded simulations of the engine.

- Los Lobos (seed 002 "Los Lobos"): the class of the first five draws. With replacement each draw
  is Value v with probability n_v/N (n_v Commons of Value v among N), and a hand with c_v cards of
  Value v has probability 5!/∏c_v! · ∏(n_v/N)^c_v; without replacement ∏C(n_v, c_v)/C(N, 5). Every
  composition of 5 over the Values is enumerated and ranked (:func:`cardlab.play.hands.rank`).
- Doll House (seed 002 "Doll House"): one player's list of 10 factions, a d10 per roll. The set of
  factions held is a Markov chain over the 16 subsets of the four factions; P(Doll House on the first
  4 rolls) is the chance that 4 rolls cover all four, and the expected number of rounds (round 1 = 4
  rolls, then 1 roll a round) solves the chain exactly. An Independent counts for nothing; with the
  extra-roll variant it is rolled again at once, so each roll is uniform over the other entries.
- Zangetsu (seed 002 "Zangetsu"): the distribution of a 3-card sum, with replacement; two players
  tie with probability Σ P(s)²; each tie-break draw ties again with q = Σ P(v)², so the expected
  number of tie-break draws is P(tie)/(1 − q).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, factorial

from cardlab.games.forumtcg import FOUR_FACTIONS
from cardlab.play.hands import CLASS_NAMES, CLASSES, rank


@dataclass
class OddsTable:
    """Exact odds: ``title``, ``rows`` (label -> probability), ``extras`` (label -> exact value or
    None for infinite), ``notes``."""

    title: str
    rows: list[tuple[str, Fraction]] = field(default_factory=list)
    extras: list[tuple[str, Fraction | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def get(self, label: str) -> Fraction:
        """Return the probability of row ``label``. Raises KeyError."""
        return dict(self.rows)[label]

    def to_json(self) -> dict:
        """Return a JSON-ready dict: each probability as ``"p/q"`` and as a float."""

        def fr(x: Fraction | None) -> dict | None:
            return None if x is None else {"fraction": f"{x.numerator}/{x.denominator}", "value": float(x)}

        return {
            "title": self.title,
            "rows": [{"label": k, **(fr(v) or {})} for k, v in self.rows],
            "extras": [{"label": k, "exact": fr(v)} for k, v in self.extras],
            "notes": self.notes,
        }


def as_text(table: OddsTable) -> str:
    """Return an odds table as aligned text: label, fraction, percent (4 decimals)."""
    lines = [table.title]
    width = max([len(k) for k, _ in table.rows + table.extras] or [0])
    for k, v in table.rows:
        lines.append(f"  {k:<{width}}  {str(v):>24}  {float(v) * 100:9.4f} %")
    for k, x in table.extras:
        lines.append(f"  {k:<{width}}  " + ("infinite (never)" if x is None else f"{str(x):>24}  ≈ {float(x):.4f}"))
    lines += [f"  note: {n}" for n in table.notes]
    return "\n".join(lines)


def _compositions(k: int, n: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``n`` cards over ``k`` Values (counts per Value)."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(k - 1, n - first):
            yield (first, *rest)


def los_lobos(values: Sequence[int], replacement: bool = True) -> OddsTable:
    """Return the exact probability of each Los Lobos hand class on the first five draws from a
    pool whose cards have ``values`` (one entry per Common).

    Raises:
        ValueError: an empty pool, or fewer than 5 cards without replacement.
    """
    counts = Counter(values)
    total = len(values)
    if not total or (not replacement and total < 5):
        raise ValueError("the pool is too small for a 5-card hand")
    vals = sorted(counts)
    probs = dict.fromkeys(CLASSES, Fraction(0))
    denom = comb(total, 5)
    for comp in _compositions(len(vals), 5):
        hand = [v for v, c in zip(vals, comp, strict=True) for _ in range(c)]
        if replacement:
            p = Fraction(factorial(5))
            for v, c in zip(vals, comp, strict=True):
                p *= Fraction(counts[v], total) ** c / factorial(c)
        else:
            ways = 1
            for v, c in zip(vals, comp, strict=True):
                ways *= comb(counts[v], c)
            if not ways:
                continue
            p = Fraction(ways, denom)
        probs[rank(hand).hand_class] += p
    how = "with replacement" if replacement else "without replacement"
    table = OddsTable(f"Los Lobos: hand class of the first five draws ({total} Commons, {how})")
    table.rows = [(CLASS_NAMES[c][0], probs[c]) for c in reversed(CLASSES)]
    table.notes.append("before any replacement; classes are exclusive, each hand counted once at its best class")
    return table


def zangetsu(values: Sequence[int]) -> OddsTable:
    """Return the exact distribution of a Zangetsu 3-card sum (draws with replacement from a pool
    with ``values``), P(two players tie after 3 cards) and the expected number of tie-break draws.

    Raises:
        ValueError: an empty pool.
    """
    if not values:
        raise ValueError("the pool is empty")
    single = {v: Fraction(c, len(values)) for v, c in Counter(values).items()}
    dist = {0: Fraction(1)}
    for _ in range(3):
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for v, q in single.items():
                nxt[s + v] = nxt.get(s + v, Fraction(0)) + p * q
        dist = nxt
    tie = sum((p * p for p in dist.values()), Fraction(0))
    again = sum((p * p for p in single.values()), Fraction(0))
    table = OddsTable(f"Zangetsu: sum of three Commons ({len(values)} Commons, with replacement)")
    table.rows = [(f"sum {s}", dist[s]) for s in sorted(dist)]
    table.extras = [
        ("P(2 players tie after 3 cards)", tie),
        ("P(a tie-break draw ties again)", again),
        ("expected tie-break draws (2 players)", None if again == 1 else tie / (1 - again)),
    ]
    return table


def _roll_dist(factions: Sequence[str], independent_reroll: bool) -> dict[str, Fraction]:

    entries = [f for f in factions if not (independent_reroll and f == "independent")]
    if not entries:
        raise ValueError("a list of Independents only")
    out: dict[str, Fraction] = {}
    for f in entries:
        key = f if f in FOUR_FACTIONS else "-"
        out[key] = out.get(key, Fraction(0)) + Fraction(1, len(entries))
    return out


def doll_house(factions: Sequence[str], independent_reroll: bool = False) -> OddsTable:
    """Return, for one player's list (``factions``: the 10 cards' faction codes, list order), the
    exact P(Doll House on the first 4 rolls) and the expected number of rounds to a Doll House
    (round 1 = 4 rolls, then 1 roll a round; None when a faction is missing: never).

    Raises:
        ValueError: a list of Independents only with the extra-roll variant.
    """

    roll = _roll_dist(factions, independent_reroll)
    bit = {f: 1 << i for i, f in enumerate(FOUR_FACTIONS)}
    full = (1 << len(FOUR_FACTIONS)) - 1

    def step(dist: dict[int, Fraction]) -> dict[int, Fraction]:
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for f, q in roll.items():
                t = s | bit.get(f, 0)
                nxt[t] = nxt.get(t, Fraction(0)) + p * q
        return nxt

    dist = {0: Fraction(1)}
    for _ in range(4):
        dist = step(dist)
    first = dist.get(full, Fraction(0))
    possible = all(f in roll for f in FOUR_FACTIONS)
    expected: Fraction | None = None
    if possible:
        e: dict[int, Fraction] = {full: Fraction(0)}
        for s in sorted(range(full), key=lambda x: -bin(x).count("1")):
            stay = sum((q for f, q in roll.items() if s | bit.get(f, 0) == s), Fraction(0))
            rest = sum((q * e[s | bit[f]] for f, q in roll.items() if f in bit and s | bit[f] != s), Fraction(0))
            e[s] = (1 + rest) / (1 - stay)
        expected = 1 + sum((p * e[s] for s, p in dist.items()), Fraction(0))
    variant = ", Independent extra-roll variant" if independent_reroll else ""
    table = OddsTable(f"Doll House: one player's list of {len(factions)} cards{variant}")
    table.rows = [("Doll House on the first 4 rolls", first)]
    table.extras = [("expected rounds to a Doll House", expected)]
    if not possible:
        table.notes.append("the list lacks a faction: it can never make a Doll House")
    return table
