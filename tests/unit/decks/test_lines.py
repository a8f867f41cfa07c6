"""cardlab.decks.lines at the 18-digit edge (issue 16): the values the sixth mutation run's survivors
changed: a count of exactly 18 digits read as it is, one of 19 digits capped, and how a capped count
is named in a problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.decks.lines import HUGE, count_problem, split_count, to_int


@pytest.mark.parametrize(
    ("digits", "value"),
    [
        ("9" * 18, 999_999_999_999_999_999),
        ("-" + "9" * 18, -999_999_999_999_999_999),
        ("1234567890123456789", HUGE),
        ("-1234567890123456789", -HUGE),
        ("000" + "9" * 18, 999_999_999_999_999_999),
    ],
)
def test_to_int_reads_18_digits_and_caps_19(digits, value):
    """Up to 18 digits (leading zeros left out) a count is itself; from 19 on it stands as ``HUGE``."""
    assert to_int(digits) == value


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "1234567890123456789 Pikachu",
            'a count of more than 18 digits for "Pikachu" is too large (at most 999 on one line)',
        ),
        (
            "-1234567890123456789 Pikachu",
            'a count of more than 18 digits for "Pikachu": a count is a whole number from 1 to 999',
        ),
        (
            "999999999999999999 Pikachu",
            'count 999999999999999999 for "Pikachu" is too large (at most 999 on one line)',
        ),
    ],
)
def test_a_capped_count_is_named_by_its_length(line, message):
    """A count that stands as ``HUGE`` is "a count of more than 18 digits", not the cap's digits."""
    n, text = split_count(line)
    problem = count_problem(Path("d.txt"), 3, n, text)
    assert (problem.pos.line, problem.rule, problem.message) == (3, "count", message)
