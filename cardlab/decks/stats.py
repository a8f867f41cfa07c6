"""Deck statistics: counts by card type and Energy type, the cost curve, and each game's key
opening odds (exact, from :mod:`cardlab.decks.odds`).

Per game (the seeds say why each figure matters):

- Pokémon (seed 001): types ``Pokémon: Basic``, ``Trainer``, ``Energy: basic``...; Energy cards by
  the type they provide; attacks by Energy cost; the chance of at least one Basic Pokémon in the
  7-card opening hand and the expected number of mulligans.
- Ippo (seeds 000, 003): cards by kind (blow, defense, support, fight) and by attribute; Blow cards
  by start cost; the chance of a mulligan (5-card hand with no Defense card or only Defense cards)
  and of getting up from a knock-down within 10 cards turned up (a Blow card gets the boxer up).
- Monpa (seed 004): cards by type and element; cards by mana cost; the chance that the 5-card
  opening hand holds at least one card of each chosen type (default: every type in the deck).

Odds use the main deck as listed: its size counts lines that matched no card (they count as cards
of no kind), and a draw is from the full shuffled deck. A deck smaller than the opening hand gets
no odds, only a note saying so; so does a Monpa deck with no card of a known type.

The kinds ``--need`` names (:data:`KINDS`) match whatever their case and accents (``trainer``,
``pokemon``); an unknown kind is a :class:`~cardlab.core.errors.UsageError` listing the game's kinds,
and a kind named twice counts once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from cardlab.core import words
from cardlab.core.errors import UsageError
from cardlab.core.text import fold, listify
from cardlab.decks import odds as odds

if TYPE_CHECKING:
    from cardlab.decks.model import Deck, DeckCard

KNOCKDOWN_FLIPS = 10
"""Cards a knocked-down Ippo boxer may turn up to get up (the ten count; seeds 000 and 003)."""

DEFAULT_HAND = {"pokemon": 7, "ippo": 5, "monpa": 5}
"""Opening hand sizes (seeds 001, 003, 004), used when a format does not give ``opening_hand``."""

KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "pokemon": ("supertype", ("Pokémon", "Trainer", "Energy")),
    "ippo": ("kind", ("blow", "defense", "support", "fight")),
    "monpa": ("type", ("charm", "servant", "spell")),
}
"""Game -> (card field, the kinds ``need`` may name): the values of that field in the game's card
schema (Monpa's commander and favor sit in their own sections, never in the main deck)."""


@dataclass(frozen=True)
class Odds:
    """One figure: ``id`` (stable), ``label`` (words), ``value`` (exact; a probability in [0, 1] or
    an expected count; None when it does not exist, e.g. endless mulligans) and ``formula``
    (how it was computed, with the counts used)."""

    id: str
    label: str
    value: Fraction | None
    formula: str
    kind: str = "probability"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: id, label, kind, value (float or null), exact (``"p/q"`` or null), formula."""
        return {
            "id": self.id,
            "label": self.label,
            "kind": self.kind,
            "value": None if self.value is None else float(self.value),
            "exact": None if self.value is None else str(self.value),
            "formula": self.formula,
        }


@dataclass
class DeckStats:
    """Statistics of a deck's main section (``sections`` gives every section's size).

    Attributes:
        format, game: what the deck was read as.
        size: cards in the main deck; unmatched: of them, on lines that matched no card.
        hand: the opening hand size used.
        sections: section id -> cards.
        by_type, by_energy: label -> cards (a card with two Energy types counts under both).
        energy_label: what ``by_energy`` counts (``Energy provided``, ``attribute``, ``element``).
        curve: cost -> count (attacks for Pokémon, Blow cards for Ippo, cards for Monpa).
        curve_label: what ``curve`` counts.
        odds: the key figures.
        notes: why figures are missing (a deck smaller than the opening hand...).
    """

    format: str
    game: str
    size: int
    unmatched: int
    hand: int
    sections: dict[str, int] = field(default_factory=dict)
    by_type: dict[str, int] = field(default_factory=dict)
    by_energy: dict[str, int] = field(default_factory=dict)
    energy_label: str = "Energy"
    curve: dict[str, int] = field(default_factory=dict)
    curve_label: str = "cost"
    odds: list[Odds] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Return the statistics as JSON-ready data."""
        return {
            "format": self.format,
            "game": self.game,
            "size": self.size,
            "unmatched": self.unmatched,
            "hand": self.hand,
            "sections": self.sections,
            "by_type": self.by_type,
            "by_energy": self.by_energy,
            "energy_label": self.energy_label,
            "curve": self.curve,
            "curve_label": self.curve_label,
            "odds": [o.to_json() for o in self.odds],
            "notes": self.notes,
        }


def _count(cards: Sequence[DeckCard], keys: Callable[[dict], Sequence[str]]) -> dict[str, int]:
    c: Counter[str] = Counter()
    for card in cards:
        for key in dict.fromkeys(keys(card.card)):
            c[key] += card.count
    return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


def _curve(cards: Sequence[DeckCard], costs: Callable[[dict], Sequence[Any]]) -> dict[str, int]:
    c: Counter[Any] = Counter()
    for card in cards:
        for cost in costs(card.card):
            c[cost] += card.count
    numeric = sorted(k for k in c if isinstance(k, int))
    other = sorted(str(k) for k in c if not isinstance(k, int))
    return {str(k): c[k] for k in numeric} | {k: c[k] for k in other}


def _has(field_: str, value: Any, card: dict) -> bool:
    """True when ``card[field_]`` is ``value`` (a predicate for :func:`_held` with functools.partial)."""
    return card.get(field_) == value


def _held(cards: Sequence[DeckCard], test: Callable[[dict], bool]) -> int:
    return sum(c.count for c in cards if test(c.card))


def need_kinds(game: str, need: Sequence[str]) -> list[str]:
    """Return the kinds ``need`` names as the game spells them (:data:`KINDS`), each once, in order.

    ``need_kinds("pokemon", ["trainer", "TRAINER", "pokemon"]) == ["Trainer", "Pokémon"]``.

    Raises:
        UsageError: a kind the game does not have (the message lists the game's kinds).
    """
    _field, kinds = KINDS.get(game, ("", ()))
    by_fold = {fold(k): k for k in kinds}
    found: list[str] = []
    for word in need:
        kind = by_fold.get(fold(word))
        if kind is None:
            raise UsageError(f"--need {word}: no such kind of {game} card (kinds: {', '.join(kinds) or 'none'})")
        found.append(kind)
    return list(dict.fromkeys(found))


def _each_kind(stats: DeckStats, cards: Sequence[DeckCard], field_: str, kinds: Sequence[str]) -> None:
    if not kinds:
        stats.notes.append("no card of a known type in the deck: no opening odds")
        return
    groups = [_held(cards, partial(_has, field_, k)) for k in kinds]
    n, hand = stats.size, stats.hand
    value = odds.p_each_at_least_one(groups, n, hand)
    parts = ", ".join(f"{g} {k}" for g, k in zip(groups, kinds, strict=True))
    stats.odds.append(
        Odds(
            "opening-each",
            f"at least one {' and one '.join(kinds)} in the {hand}-card opening hand",
            value,
            f"inclusion-exclusion over {parts} in {n} cards, {hand} drawn",
        )
    )


def _pokemon(stats: DeckStats, cards: Sequence[DeckCard], need: Sequence[str]) -> None:
    def type_of(card: dict) -> list[str]:
        extra = card.get("stage") or card.get("energy_type")
        return [f"{card['supertype']}: {extra}" if extra else card["supertype"]]

    stats.by_type = _count(cards, type_of)
    stats.energy_label = "Energy cards by type provided"
    stats.by_energy = _count([c for c in cards if c.card.get("supertype") == "Energy"], lambda card: card.get("provides", []))
    stats.curve_label = "attacks by Energy cost"
    stats.curve = _curve(cards, lambda card: [len(a.get("cost", [])) for a in card.get("attacks", [])])
    if _too_small(stats):
        return
    basics = _held(cards, lambda card: card.get("supertype") == "Pokémon" and card.get("stage") == "Basic")
    n, hand = stats.size, stats.hand
    p = odds.p_at_least(1, basics, n, hand)
    stats.odds.append(
        Odds(
            "opening-basic",
            f"at least one Basic Pokémon in the {stats.hand}-card opening hand",
            p,
            f"1 - C({n - basics},{hand})/C({n},{hand}) with {basics} Basic Pokémon in {n} cards",
        )
    )
    stats.odds.append(
        Odds(
            "mulligans",
            "expected mulligans before a hand with a Basic Pokémon",
            odds.expected_mulligans(p),
            "(1 - p)/p, p as above (each mulligan is a new shuffle)",
            "expected",
        )
    )
    if need:
        _each_kind(stats, cards, "supertype", need)


def _ippo(stats: DeckStats, cards: Sequence[DeckCard], need: Sequence[str]) -> None:
    stats.by_type = _count(cards, lambda card: [card["kind"]])
    stats.energy_label = "cards by attribute (start cost or power generated)"
    stats.by_energy = _count(
        cards, lambda card: [*(card.get("start_cost") or {}).get("attributes", []), *(card.get("generates") or {}).get("attributes", [])]
    )
    stats.curve_label = "Blow cards by start cost (attribute + generic)"

    def start_cost(card: dict) -> list[int]:
        if card.get("kind") != "blow":
            return []
        cost = card.get("start_cost") or {}
        return [len(cost.get("attributes", [])) + int(cost.get("generic", 0))]

    stats.curve = _curve(cards, start_cost)
    if _too_small(stats):
        return
    n, hand = stats.size, stats.hand
    defense = _held(cards, lambda card: card.get("kind") == "defense")
    blows = _held(cards, lambda card: card.get("kind") == "blow")
    stats.odds.append(
        Odds(
            "mulligan",
            f"mulligan: the {stats.hand}-card hand holds no Defense card or only Defense cards",
            odds.p_none_or_all(defense, n, hand),
            f"(C({n - defense},{hand}) + C({defense},{hand}))/C({n},{hand}) with {defense} Defense cards in {n}",
        )
    )
    flips = min(KNOCKDOWN_FLIPS, n)
    stats.odds.append(
        Odds(
            "get-up",
            f"getting up from a knock-down within {KNOCKDOWN_FLIPS} cards turned up (a Blow card)",
            odds.p_hit_within(blows, n, KNOCKDOWN_FLIPS),
            f"1 - C({n - blows},{flips})/C({n},{flips}) with {blows} Blow cards in {n}",
        )
    )
    if need:
        _each_kind(stats, cards, "kind", need)


def _monpa(stats: DeckStats, cards: Sequence[DeckCard], need: Sequence[str]) -> None:
    stats.by_type = _count(cards, lambda card: [card["type"]])
    stats.energy_label = "cards by element"
    stats.by_energy = _count(cards, lambda card: [card["element"]] if card.get("element") else [])
    stats.curve_label = "cards by mana cost"
    stats.curve = _curve(cards, lambda card: [card["mana"]] if "mana" in card else [])
    if _too_small(stats):
        return
    kinds = list(need) or list(dict.fromkeys(c.card["type"] for c in cards))
    _each_kind(stats, cards, "type", kinds)


GAMES: dict[str, Callable[[DeckStats, Sequence[DeckCard], Sequence[str]], None]] = {"pokemon": _pokemon, "ippo": _ippo, "monpa": _monpa}
"""Game -> the function that fills in its counts and odds."""


def deck_stats(deck: Deck, need: Sequence[str] = ()) -> DeckStats:
    """Compute the statistics of a matched deck's main section.

    Args:
        deck: from :func:`cardlab.decks.check.build_deck` (problems do not stop statistics).
        need: kinds that must all be in the opening hand (Monpa types: ``servant``, ``spell``...;
            Ippo kinds; Pokémon supertypes; see :data:`KINDS`; any case, repeats count once).
            Monpa defaults to every type in the deck; for the other games nothing extra is
            computed when empty.

    Returns:
        A :class:`DeckStats`.

    Raises:
        UsageError: ``need`` names a kind the game does not have (exit 2).
        UsageError: the deck's game has no statistics (the forum TCG's lists; exit 2).
    """
    need = listify(need)
    fmt = deck.format
    cards = deck.in_section("main")
    size = deck.size("main")
    stats = DeckStats(
        format=fmt.name,
        game=fmt.game,
        size=size,
        unmatched=size - sum(c.count for c in cards),
        hand=fmt.opening_hand or DEFAULT_HAND.get(fmt.game, 7),
        sections={s.id: deck.size(s.id) for s in fmt.sections},
    )
    if fmt.game not in GAMES:
        raise UsageError(f"{fmt.name} is a {fmt.game} format: cardlab has no deck statistics for {fmt.game} lists")
    kinds = need_kinds(fmt.game, need)
    GAMES[fmt.game](stats, cards, kinds)
    return stats


def _too_small(stats: DeckStats) -> bool:
    """True (and a note) when the deck holds fewer cards than the opening hand: no odds then."""
    if stats.size >= stats.hand:
        return False
    stats.notes.append(
        f"the deck holds {words.count(stats.size, 'card')}, fewer than the {stats.hand}-card opening hand: too small for opening odds"
    )
    return True


def sample_hand(deck: Deck, seed: int, size: int | None = None) -> list[DeckCard]:
    """Draw a sample opening hand from the shuffled main deck, the same hand for the same seed.

    Args:
        deck: a matched deck; only its main section's matched cards are shuffled (one item per copy).
        seed: any integer; ``random.Random(seed)`` shuffles, so a seed is a permalink to a hand.
        size: cards to draw; default the format's opening hand (:data:`DEFAULT_HAND` when it gives none).

    Returns:
        The drawn cards in draw order, one :class:`DeckCard` per card drawn (a card drawn twice appears
        twice); fewer than ``size`` when the deck holds fewer matched cards.
    """
    import random
    from bisect import bisect_right
    from itertools import accumulate

    fmt = deck.format
    hand = size if size is not None else (fmt.opening_hand or DEFAULT_HAND.get(fmt.game, 7))
    cards = deck.in_section("main")
    ends = list(accumulate(card.count for card in cards))  # copy i is cards[bisect_right(ends, i)]
    total = ends[-1] if ends else 0
    # positions in the shuffled deck, drawn without listing every copy (a line may say 999)
    drawn = random.Random(seed).sample(range(total), min(max(hand, 0), total))
    return [cards[bisect_right(ends, i)] for i in drawn]
