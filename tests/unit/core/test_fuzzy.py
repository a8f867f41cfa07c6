"""cardlab.core.fuzzy.suggest at its limits (issue 16): the cut-off score exactly, the default
number of names, folding before comparing, duplicates."""

from __future__ import annotations

from cardlab.core.fuzzy import SCORE_CUTOFF, suggest


def test_cutoff_is_seventy_and_inclusive():
    """A name scoring exactly 70 is suggested; one scoring 69.2 is not."""
    assert SCORE_CUTOFF == 70
    assert suggest("zorblaxfen", ["Zorblaxqqq"]) == ["Zorblaxqqq"]  # WRatio 70.0
    assert suggest("zorblaxfenabc", ["Zorblaxfeqqqq"]) == []  # WRatio 69.2


def test_cutoff_argument():
    """A higher cut-off drops the 70 match; a lower one keeps the 69.2 one."""
    assert suggest("zorblaxfen", ["Zorblaxqqq"], cutoff=71) == []
    assert suggest("zorblaxfenabc", ["Zorblaxfeqqqq"], cutoff=69) == ["Zorblaxfeqqqq"]


def test_at_most_three_by_default_best_first():
    """Three names by default, the best first, ties in the order given; duplicates once."""
    choices = ["Zorblaxa", "Zorblax", "Zorblax", "Zorblaxb", "Zorblaxc", "Zorblaxd"]
    assert suggest("zorblax", choices) == ["Zorblax", "Zorblaxa", "Zorblaxb"]
    assert suggest("zorblax", choices, limit=1) == ["Zorblax"]
    assert suggest("zorblax", choices, limit=None) == ["Zorblax", "Zorblaxa", "Zorblaxb", "Zorblaxc", "Zorblaxd"]


def test_compared_folded():
    """Case and accents do not matter: the folded texts are equal (score 100)."""
    assert suggest("ZÖRBLAX", ["Quuxfen", "zorblax"]) == ["zorblax"]
    assert suggest("zorblax", ["ZÖRBLÄX"]) == ["ZÖRBLÄX"]


def test_no_limit_gives_every_close_name():
    """``limit=None``: every close name, more than rapidfuzz's default of five."""
    choices = [f"Zorblax{c}" for c in "abcdefg"]
    assert suggest("zorblax", choices, limit=None) == choices
