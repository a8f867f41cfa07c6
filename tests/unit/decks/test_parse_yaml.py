"""cardlab.decks.parse_yaml value by value (issue 16): entries with their line, section and
explicit parts; every problem of a file reported once, in line order, with its column; the exact
wording of the refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.core.errors import InputError
from cardlab.decks.parse_yaml import parse_yaml


def _read(text: str) -> dict:
    deck = parse_yaml(text, Path("zorb.yaml"))
    return {
        "entries": [(e.line, e.count, e.text, e.section, e.name, e.set_code, e.number, e.card_id) for e in deck.entries],
        "format": (deck.format, deck.format_line),
        "name": deck.name,
        "problems": [(p.pos.line, p.pos.col, p.rule, p.message) for p in deck.problems],
    }


def test_every_kind_of_item():
    """Text lines and mappings (name with set and number, card id) with their lines."""
    got = _read(
        "name: Zap Zorb\nformat: zorb-format\nmain:\n  - 4 Zorb\n  - {count: 2, name: Fen, set: zz1, number: '7'}\n  - {count: 1, card: zz1-9}\n"
        "  - '  3x   Quux  '\nside:\n  - 2 Blip\nauthor: Zorb Fan\nnotes: x\nsource: y\n"
    )
    assert got["entries"] == [
        (4, 4, "Zorb", "main", None, None, None, None),
        (5, 2, "Fen zz1 7", "main", "Fen", "zz1", "7", None),
        (6, 1, "zz1-9", "main", None, None, None, "zz1-9"),
        (7, 3, "Quux", "main", None, None, None, None),
        (9, 2, "Blip", "side", None, None, None, None),
    ]
    assert got["format"] == ("zorb-format", 2)
    assert got["name"] == "Zap Zorb"
    assert got["problems"] == []


def test_empty_files():
    """Nothing at all, or no card in any list: one ``empty`` problem at line 1."""
    assert _read("")["problems"] == [(1, 0, "empty", "the file is empty: the deck list holds no cards")]
    assert _read("# only a comment\n")["problems"] == [(1, 0, "empty", "the file is empty: the deck list holds no cards")]
    assert _read("name: Zap\nmain: []\n")["problems"] == [(1, 0, "empty", "the deck list holds no cards")]
    assert _read("name: Zap\n") == {
        "entries": [],
        "format": (None, 0),
        "name": "Zap",
        "problems": [(1, 0, "empty", "the deck list holds no cards")],
    }


@pytest.mark.parametrize(
    ("text", "what"),
    [("- 4 Zorb\n", "a list"), ("just text\n", "a single text"), ("42\n", "a single value")],
)
def test_top_level_not_a_mapping(text, what):
    """The top level must be a mapping; the refusal names what it is."""
    with pytest.raises(InputError) as err:
        parse_yaml(text, Path("zorb.yaml"))
    assert str(err.value) == (
        f"zorb.yaml:1: a YAML deck is a mapping (name:, format:, main: [...]) but this file holds {what} at its top level; "
        "see schema/deck.schema.json"
    )


def test_yaml_syntax_error():
    """YAML that does not parse is an input error with its position."""
    with pytest.raises(InputError) as err:
        parse_yaml("main: [\n", Path("zorb.yaml"))
    assert str(err.value) == "zorb.yaml:2:1: YAML syntax: did not find expected node content (yaml)"


def test_format_not_text():
    """A format that is not text: a schema problem at its value, no format, the cards still read."""
    got = _read("format: 3\nname: 7\nmain:\n  - 4 Zorb\n")
    assert got["format"] == (None, 1)
    assert got["name"] is None
    assert got["entries"] == [(4, 4, "Zorb", "main", None, None, None, None)]
    assert got["problems"] == [
        (1, 9, "schema", "format: expected text, found 3 (a YAML integer)"),
        (2, 7, "schema", "name: expected text, found 7 (a YAML integer)"),
    ]


def test_many_problems_each_once_in_line_order():
    """Each bad item reported once at its line, schema problems with a column; good items kept."""
    got = _read(
        "main:\n  - Zorb\n  - 0 Fen\n  - {count: 0, name: Quux}\n  - {count: 1000, name: Quux}\n"
        "  - {count: 'x', name: Quux}\n  - {name: Quux}\n  - 5\n  - 4 Blip\n"
    )
    assert got["entries"] == [(9, 4, "Blip", "main", None, None, None, None)]
    assert got["problems"] == [
        (2, 0, "no-count", 'no count on this line ("Zorb"); write it as "1 Zorb"'),
        (3, 0, "count", 'count 0 for "Fen": a count is a whole number from 1 to 999'),
        (4, 0, "count", 'count 0 for "Quux": a count is a whole number from 1 to 999'),
        (5, 0, "count", 'count 1000 for "Quux" is too large (at most 999 on one line)'),
        (6, 13, "schema", 'main.4.count: expected an integer, found "x" (text)'),
        (7, 5, "schema", "main.5: missing field 'count'"),
        (8, 5, "schema", "main.6: expected text, found 5 (a YAML integer)"),
    ]


def test_count_limits_in_mappings():
    """1 and 999 are accepted in a mapping."""
    got = _read("main:\n  - {count: 1, name: Zorb}\n  - {count: 999, name: Fen}\n")
    assert got["entries"] == [(2, 1, "Zorb", "main", "Zorb", None, None, None), (3, 999, "Fen", "main", "Fen", None, None, None)]
    assert got["problems"] == []


def test_keys_that_are_not_sections():
    """A key that is neither a deck field nor a lower-case section is reported at its value; the
    deck's lists are still read."""
    got = _read("Main:\n  - 4 Zorb\nmain:\n  - 1 Fen\nweird key: 3\n")
    assert got["entries"] == [(4, 1, "Fen", "main", None, None, None, None)]
    assert got["problems"] == [
        (2, 3, "schema", "'Main' is not a deck field nor a section (sections are lower-case lists such as main:)"),
        (5, 12, "schema", "'weird key' is not a deck field nor a section (sections are lower-case lists such as main:)"),
    ]


def test_a_section_that_is_not_a_list():
    """``main: 4 Zorb`` is a schema problem at its value."""
    assert _read("main: 4 Zorb\n")["problems"] == [(1, 7, "schema", 'main: expected a list, found "4 Zorb" (text)')]


def test_unknown_item_field():
    """An item with a field the schema does not know is left out, reported at the item."""
    got = _read("main:\n  - {count: 2, name: Fen, bogus: 1}\n  - 1 Zorb\n")
    assert got["entries"] == [(3, 1, "Zorb", "main", None, None, None, None)]
    assert got["problems"] == [(2, 5, "schema", "main.0: does not fit the schema (additionalProperties)")]


def test_missing_main_is_said_without_a_path():
    """A problem of the whole file has no ``field:`` prefix."""
    assert _read("side:\n  - 1 Zorb\n")["problems"] == [(1, 1, "schema", "missing field 'main'")]


def test_a_bad_key_and_a_bad_item_are_both_reported():
    """An unknown top-level key does not stop the other schema problems from being reported."""
    assert _read('weird key: 3\nmain:\n  - {count: "x", name: Quux}\n')["problems"] == [
        (1, 12, "schema", "'weird key' is not a deck field nor a section (sections are lower-case lists such as main:)"),
        (3, 13, "schema", 'main.0.count: expected an integer, found "x" (text)'),
    ]
