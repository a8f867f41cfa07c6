"""Hostile meta and header lines of a text list: a name line that reads as a card line, a
``Format:`` line that names no format, a header total of more than 18 digits; each reported at its
line, never swallowed nor capped silently."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cardlab.decks.parse_text import parse_text


def _problems(text: str) -> list[tuple[int, str, str]]:
    return [(p.pos.line, p.rule, p.message) for p in parse_text(text, Path("d.txt")).problems]


@pytest.mark.parametrize("key", ["Name", "Title", "Deck name", "Deck"])
def test_name_line_with_a_card_line_value_is_reported(key):
    deck = parse_text(f"{key}: 4 Gust of Wind\n4 Bill\n", Path("d.txt"))
    assert deck.name is None
    assert deck.meta_lines == []
    assert [(e.line, e.count, e.text) for e in deck.entries] == [(2, 4, "Bill")]
    message = f'cannot read a count and a card from this line ("{key}: 4 Gust of Wind"); a card line looks like "4 Pikachu"'
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [(1, "no-count", message)]


def test_name_line_with_a_plain_name_still_names_the_deck():
    deck = parse_text("Title: Zap 2000\nName: Haymaker\n4 Bill\n", Path("d.txt"))
    assert (deck.name, deck.meta_lines, deck.problems) == ("Haymaker", [1, 2], [])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Format:", "the 'Format:' line names no format"),
        ("Format: 60", "'Format: 60' names no format"),
        ("Format: -- 60 --", "'Format: -- 60 --' names no format"),
    ],
)
def test_format_line_naming_no_format_is_a_schema_problem(line, message):
    deck = parse_text(f"4 Bill\n{line}\n4 Pikachu\n", Path("d.txt"))
    assert (deck.format, deck.format_line) == (None, 2)
    assert deck.headers == []
    assert [(e.line, e.count) for e in deck.entries] == [(1, 4), (3, 4)]
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [(2, "schema", message)]


def test_bad_format_line_after_a_good_one_keeps_the_good_one():
    deck = parse_text("Format: pokemon-base\nFormat: 60\n4 Bill\n", Path("d.txt"))
    assert (deck.format, deck.format_line) == ("pokemon-base", 1)
    assert _problems("Format: pokemon-base\nFormat: 60\n4 Bill\n") == [(2, "schema", "'Format: 60' names no format")]


def test_format_names_with_spaces_and_accents_are_names():
    assert parse_text("Format: Pokémon Base\n4 Bill\n", Path("d.txt")).format == "Pokémon Base"


def test_header_total_of_more_than_18_digits_is_reported():
    deck = parse_text("Pokémon: 99999999999999999999999\n4 Hitmonchan\n", Path("d.txt"))
    assert [(h.line, h.word, h.total) for h in deck.headers] == [(1, "pokemon", None)]
    message = '"Pokémon" declares a total of more than 18 digits; a header\'s total is its number of cards'
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [(1, "section-total", message)]


def test_header_total_of_18_digits_is_read():
    deck = parse_text("Pokémon: 999999999999999999\n4 Hitmonchan\n", Path("d.txt"))
    assert [h.total for h in deck.headers] == [999_999_999_999_999_999]
    assert deck.problems == []


def test_long_header_total_is_linear():
    start = time.perf_counter()
    deck = parse_text("Pokémon: " + "9" * 1_000_000 + "\n4 Bill\n", Path("d.txt"))
    assert time.perf_counter() - start < 1
    assert [(p.rule, len(p.message)) for p in deck.problems] == [("section-total", 90)]
