"""Deck statistics: counts by card type and Energy type, the cost curve, and each game's key
opening odds. Each game computes its own figures (``deck_figures`` of
:class:`cardlab.games.base.Game`, exact odds from :mod:`cardlab.games.odds`); this module builds the
deck's sizes, asks the deck's game, and checks ``--need``.

A deck smaller than the opening hand gets no odds, only a note saying so; so does a Monpa deck with
no card of a known type. The kinds ``--need`` names (the game's ``DECK_KINDS``: :func:`deck_kinds`) match
whatever their case and accents (``trainer``, ``pokemon``); an unknown kind is a
:class:`~cardlab.core.errors.UsageError` listing the game's kinds, and a kind named twice counts once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardlab import games
from cardlab.core.errors import UsageError
from cardlab.core.text import fold, listify
from cardlab.games.figures import DeckFigures, Odds

if TYPE_CHECKING:
    from cardlab.decks.model import Deck, DeckCard


def deck_kinds() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Return game -> (card field, the kinds ``need`` may name): each registered game's
    ``DECK_KINDS`` (:data:`cardlab.games.GAMES`), for the games that have deck statistics."""
    return {code: kinds for code in games.GAMES if (kinds := games.get(code).DECK_KINDS) is not None}


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


def need_kinds(game: str, need: Sequence[str]) -> list[str]:
    """Return the kinds ``need`` names as the game spells them (its ``DECK_KINDS``), each once, in order.

    ``need_kinds("pokemon", ["trainer", "TRAINER", "pokemon"]) == ["Trainer", "Pokémon"]``.

    Raises:
        UsageError: a kind the game does not have (the message lists the game's kinds).
    """
    _field, kinds = games.get(game).DECK_KINDS or ("", ())
    by_fold = {fold(k): k for k in kinds}
    found: list[str] = []
    for word in need:
        kind = by_fold.get(fold(word))
        if kind is None:
            raise UsageError(f"--need {word}: no such kind of {game} card (kinds: {', '.join(kinds) or 'none'})")
        found.append(kind)
    return list(dict.fromkeys(found))


def deck_stats(deck: Deck, need: Sequence[str] = ()) -> DeckStats:
    """Compute the statistics of a matched deck's main section.

    Args:
        deck: from :func:`cardlab.decks.check.build_deck` (problems do not stop statistics).
        need: kinds that must all be in the opening hand (Monpa types: ``servant``, ``spell``...;
            Ippo kinds; Pokémon supertypes; see :func:`deck_kinds`; any case, repeats count once).
            The game's ``deck_figures`` computes the figures (:mod:`cardlab.games.pokemon`...).
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
        hand=fmt.opening_hand or games.get(fmt.game).OPENING_HAND,
        sections={s.id: deck.size(s.id) for s in fmt.sections},
    )
    game = games.get(fmt.game)
    if game.DECK_KINDS is None:
        raise UsageError(f"{fmt.name} is a {fmt.game} format: cardlab has no deck statistics for {fmt.game} lists")
    figures = DeckFigures(size=stats.size, hand=stats.hand)
    game.deck_figures(figures, cards, need_kinds(fmt.game, need))
    stats.by_type, stats.by_energy, stats.energy_label = figures.by_type, figures.by_energy, figures.energy_label
    stats.curve, stats.curve_label = figures.curve, figures.curve_label
    stats.odds, stats.notes = figures.odds, figures.notes
    return stats


def sample_hand(deck: Deck, seed: int, size: int | None = None) -> list[DeckCard]:
    """Draw a sample opening hand from the shuffled main deck, the same hand for the same seed.

    Args:
        deck: a matched deck; only its main section's matched cards are shuffled (one item per copy).
        seed: any integer; ``random.Random(seed)`` shuffles, so a seed is a permalink to a hand.
        size: cards to draw; default the format's opening hand (the game's ``OPENING_HAND`` when it gives none).

    Returns:
        The drawn cards in draw order, one :class:`DeckCard` per card drawn (a card drawn twice appears
        twice); fewer than ``size`` when the deck holds fewer matched cards.
    """
    import random
    from bisect import bisect_right
    from itertools import accumulate

    fmt = deck.format
    hand = size if size is not None else (fmt.opening_hand or games.get(fmt.game).OPENING_HAND)
    cards = deck.in_section("main")
    ends = list(accumulate(card.count for card in cards))  # copy i is cards[bisect_right(ends, i)]
    total = ends[-1] if ends else 0
    # positions in the shuffled deck, drawn without listing every copy (a line may say 999)
    drawn = random.Random(seed).sample(range(total), min(max(hand, 0), total))
    return [cards[bisect_right(ends, i)] for i in drawn]
