"""Numbers in messages (cardlab.core.words)."""

from __future__ import annotations

from cardlab.core.words import count


def test_count_puts_the_noun_in_the_right_number():
    assert count(0, "card") == "0 cards"
    assert count(1, "card") == "1 card"
    assert count(2, "card") == "2 cards"
    assert count(1, "copy", "copies") == "1 copy"
    assert count(3, "copy", "copies") == "3 copies"
    assert count(-1, "point") == "-1 points"
