"""Deck statistics as the games compute them: :class:`DeckFigures` (what one game's
``deck_figures`` fills in), :class:`Odds` (one exact figure) and the counting helpers the game
modules share. ``cardlab.decks.stats`` builds the figures of a matched deck by asking its game.

Odds use the main deck as listed: ``size`` counts lines that matched no card (they count as cards
of no kind), and a draw is from the full shuffled deck (:mod:`cardlab.games.odds`). A deck smaller
than the opening hand gets no odds, only a note saying so (:func:`too_small`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any, Protocol

from cardlab.core.l10n import _
from cardlab.games import odds


class Counted(Protocol):
    """A deck line matched to a card: its data and copies (``decks.model.DeckCard`` is one)."""

    @property
    def card(self) -> dict:
        """The card's data (as in its YAML file)."""
        ...

    @property
    def count(self) -> int:
        """Copies on the line."""
        ...


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
class DeckFigures:
    """What a game computes of a deck's main section.

    Attributes:
        size: cards in the main deck (unmatched lines included); hand: the opening hand size.
        by_type, by_energy: label -> cards (a card with two Energy types counts under both).
        energy_label: what ``by_energy`` counts (``Energy provided``, ``attribute``, ``element``).
        curve: cost -> count; curve_label: what ``curve`` counts.
        odds: the key figures; notes: why figures are missing.
    """

    size: int
    hand: int
    by_type: dict[str, int] = field(default_factory=dict)
    by_energy: dict[str, int] = field(default_factory=dict)
    energy_label: str = "Energy"
    curve: dict[str, int] = field(default_factory=dict)
    curve_label: str = "cost"
    odds: list[Odds] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def count_by(cards: Sequence[Counted], keys: Callable[[dict], Sequence[str]]) -> dict[str, int]:
    """Return label -> copies for the labels ``keys(card)`` gives (each once per card), most first,
    then by label."""
    c: Counter[str] = Counter()
    for card in cards:
        for key in dict.fromkeys(keys(card.card)):
            c[key] += card.count
    return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


def curve_of(cards: Sequence[Counted], costs: Callable[[dict], Sequence[Any]]) -> dict[str, int]:
    """Return cost -> copies for the costs ``costs(card)`` gives: whole numbers in order, then the
    other costs (``X``, ``?``) as text in order."""
    c: Counter[Any] = Counter()
    for card in cards:
        for cost in costs(card.card):
            c[cost] += card.count
    numeric = sorted(k for k in c if isinstance(k, int))
    other = sorted(str(k) for k in c if not isinstance(k, int))
    return {str(k): c[k] for k in numeric} | {k: c[k] for k in other}


def has(field_: str, value: Any, card: dict) -> bool:
    """True when ``card[field_]`` is ``value`` (a predicate for :func:`held` with functools.partial)."""
    return card.get(field_) == value


def held(cards: Sequence[Counted], test: Callable[[dict], bool]) -> int:
    """Return the copies of the cards ``test`` accepts."""
    return sum(c.count for c in cards if test(c.card))


def too_small(figures: DeckFigures) -> bool:
    """True (and a note) when the deck holds fewer cards than the opening hand: no odds then."""
    if figures.size >= figures.hand:
        return False
    figures.notes.append(
        _("the deck holds {cards}, fewer than the {hand}-card opening hand: too small for opening odds").format(
            cards=(_("{n} card") if figures.size == 1 else _("{n} cards")).format(n=figures.size), hand=figures.hand
        )
    )
    return True


def each_kind(figures: DeckFigures, cards: Sequence[Counted], field_: str, kinds: Sequence[str]) -> None:
    """Add the ``opening-each`` figure: at least one card of each of ``kinds`` (values of
    ``card[field_]``) in the opening hand (:func:`cardlab.games.odds.p_each_at_least_one`); a note
    instead when ``kinds`` is empty."""
    if not kinds:
        figures.notes.append("no card of a known type in the deck: no opening odds")
        return
    groups = [held(cards, partial(has, field_, k)) for k in kinds]
    n, hand = figures.size, figures.hand
    value = odds.p_each_at_least_one(groups, n, hand)
    parts = ", ".join(f"{g} {k}" for g, k in zip(groups, kinds, strict=True))
    figures.odds.append(
        Odds(
            "opening-each",
            f"at least one {' and one '.join(kinds)} in the {hand}-card opening hand",
            value,
            f"inclusion-exclusion over {parts} in {n} cards, {hand} drawn",
        )
    )
