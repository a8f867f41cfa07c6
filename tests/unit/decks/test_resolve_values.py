"""cardlab.decks.resolve value by value (issue 16): the messages of lines that name another card or
an unknown set, word for word, and ``58/102`` lines over two sets of one printed total (Gym Heroes
and Gym Challenge both print 132 cards)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.decks.parse_text import parse_text
from cardlab.decks.resolve import CardIndex

P = Path("deck.txt")


@pytest.fixture(scope="module")
def index(catalog):
    return CardIndex(catalog, "pokemon")


def _resolve(index, text, allowed_sets=None):
    deck = parse_text(text, P)
    assert len(deck.entries) == 1, (text, deck.problems)
    return index.resolve(deck.entries[0], allowed_sets)


def test_unknown_set_lists_the_codes_a_to_z_whatever_the_case(index):
    """No close set code: every code and alias of the game, A-Z without regard to case."""
    assert _resolve(index, "1 Charizard XYZ 4") == (
        None,
        'unknown set code "XYZ" in "Charizard XYZ 4" (known: B2, base, base1, base2, base3, base4, base5, basep, BS, FO, '
        "fossil, G1, G2, gym1, gym2, JU, jungle, PR, promo, reprint, rocket, RPT, test1, TR, TST)",
        "unknown-card",
    )


@pytest.mark.parametrize(
    ("line", "allowed", "answer"),
    [
        # one card of that number in a set of 102: its name must agree
        ("4 Raichu 58/102", None, (None, '58/102 is "Pikachu", not "Raichu"', "unknown-card")),
        ("4 Pikachu 58/102", None, ("base1-58", None, "")),
        # Blaine's Growlithe is number 62 of both Gym sets (132 cards each)
        (
            "4 Blaine's Growlithe 62/132",
            None,
            (None, '"Blaine\'s Growlithe 62/132" matches 2 cards: gym1-62, gym2-62; add the set code', "ambiguous-card"),
        ),
        ("4 Blaine's Growlithe 62/132", {"gym1"}, ("gym1-62", None, "")),
        ("4 Blaine's Growlithe 62/132", {"gym2"}, ("gym2-62", None, "")),
        (
            "4 Blaine's Growlithe 62/132",
            {"gym1", "gym2"},
            (None, '"Blaine\'s Growlithe 62/132" matches 2 cards: gym1-62, gym2-62; add the set code', "ambiguous-card"),
        ),
        # neither Gym set allowed: both stay candidates
        (
            "4 Blaine's Growlithe 62/132",
            {"base1"},
            (None, '"Blaine\'s Growlithe 62/132" matches 2 cards: gym1-62, gym2-62; add the set code', "ambiguous-card"),
        ),
        # the name agrees with one of the two: that one, allowed or not (before the fix of issue 16,
        # a format of Gym Heroes only answered '1/132 is "Blaine's Moltres", not "Blaine's Arcanine"')
        ("4 Blaine's Arcanine 1/132", None, ("gym2-1", None, "")),
        ("4 Blaine's Arcanine 1/132", {"gym1"}, ("gym2-1", None, "")),
        # agrees with neither: the first set's card is named
        ("4 Pikachu 1/132", None, (None, '1/132 is "Blaine\'s Moltres", not "Pikachu"', "unknown-card")),
        ("4 Pikachu 1/132", {"gym2"}, (None, '1/132 is "Blaine\'s Arcanine", not "Pikachu"', "unknown-card")),
        ("4 Pikachu 999/132", None, (None, 'no card 999/132 in the catalog ("Pikachu 999/132")', "unknown-card")),
    ],
)
def test_number_over_printed_total(index, line, allowed, answer):
    """``name number/total``: the card of that number in the sets of that total, the allowed sets'
    first when several, whose name agrees; else why not, word for word."""
    assert _resolve(index, line, allowed) == answer


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("4 Basic {L} Energy BS 100", ("base1-100", None, "")),
        ("4 {L} Energy BS 100", ("base1-100", None, "")),
        # {Z} is no energy symbol: read as the letter z, which Lightning Energy's name lacks
        ("4 Basic {Z} Energy BS 100", (None, 'BS 100 is "Lightning Energy", not "Basic {Z} Energy"', "unknown-card")),
        ("4 {W} Energy BS 100", (None, 'BS 100 is "Lightning Energy", not "{W} Energy"', "unknown-card")),
    ],
)
def test_energy_symbols_in_a_name_with_set_and_number(index, line, answer):
    """A name beside a set and number agrees once its energy symbols are read as their type; an
    unknown symbol is its letter."""
    assert _resolve(index, line) == answer
