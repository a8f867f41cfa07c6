"""Hostile meta and header lines of a text list: a name line that reads as a card line, a
``Format:`` line that names no format, a header total of more than 18 digits; each reported at its
line, never swallowed nor capped silently."""

from __future__ import annotations

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
