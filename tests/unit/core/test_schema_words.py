"""cardlab.core.schema_words value by value (issue 16): values shown as YAML wrote them (and cut at
exactly 60 characters), each schema error in YAML's words."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest

from cardlab.core.schema_words import _show, _yaml_text, found_words, schema_message


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (False, "false"),
        (1.5, "1.5"),
        (float("nan"), ".nan"),
        (float("inf"), ".inf"),
        (float("-inf"), "-.inf"),
        (3, "3"),
        (-3, "-3"),
        (0, "0"),
        (datetime.date(2000, 1, 2), "2000-01-02"),
        ({"a": 1, "b": [1, None]}, '{"a": 1, "b": [1, null]}'),
        (dict(zip("abcdefgh", range(8), strict=True)), '{"a": 0, "b": 1, "c": 2, "d": 3, "e": 4, "f": 5}'),  # six items at most
        (list(range(8)), "[0, 1, 2, 3, 4, 5]"),
        ("tëxt", '"tëxt"'),
    ],
)
def test_yaml_text(value, text):
    """A value as written in YAML."""
    assert _yaml_text(value) == text


def test_yaml_text_of_huge_integers():
    """Below 3,000 bits the digits; from 3,000 bits on, sixty nines (with the sign)."""
    assert _yaml_text(2**2998) == str(2**2998)
    assert _yaml_text(2**2999) == "9" * 60
    assert _yaml_text(-(2**2999)) == "-" + "9" * 60


def test_show_cuts_at_sixty_characters():
    """Sixty characters are shown whole; sixty-one are cut to 57 and "..."."""
    assert _show("x" * 58) == '"' + "x" * 58 + '"'  # 60 with the quotes
    assert _show("x" * 59) == '"' + "x" * 56 + "..."


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (True, "true (a YAML boolean)"),
        ("x", '"x" (text)'),
        (None, "null (a YAML null)"),
        (3, "3 (a YAML integer)"),
        (1.5, "1.5 (a YAML number)"),
        ([1], "[1] (a list)"),
        ({}, "{} (a map)"),
        (datetime.date(2000, 1, 2), '2000-01-02 (a YAML date): YAML reads this as a date; quote it: "2000-01-02"'),
    ],
)
def testfound_words(value, text):
    """What was found, with its YAML kind; a date gets the hint to quote it."""
    assert found_words(value) == text


def _err(validator, value=None, instance=None, schema=None):
    return SimpleNamespace(validator=validator, validator_value=value, instance=instance, schema=schema or {})


@pytest.mark.parametrize(
    ("err", "message"),
    [
        (_err("enum", ["common", "rare"], "Rare"), '"Rare" is not one of "common", "rare"'),
        (_err("enum", [1, 2], 3), "3 (a YAML integer) is not one of 1, 2"),
        (_err("const", "pokemon", "ippo"), 'expected "pokemon", found "ippo" (text)'),
        (_err("type", "integer", True), "expected an integer, found true (a YAML boolean)"),
        (_err("type", ["string", "null"], 3), "expected text or null, found 3 (a YAML integer)"),
        (
            _err("type", ["number", "boolean", "array", "object"], "x"),
            'expected a number or true or false or a list or a map of fields, found "x" (text)',
        ),
        (_err("type", "weird", 3), "expected weird, found 3 (a YAML integer)"),
        (_err("required", ["id", "name"], {"id": 1}), "missing field 'name'"),
        (_err("required", ["id", "name"], {}), "missing fields 'id', 'name'"),
        (_err("required", ["id"], []), "missing field ?"),
        (_err("minimum", 1, 0), "0 is out of range: must be at least 1"),
        (_err("maximum", 9, 10), "10 is out of range: must be at most 9"),
        (_err("exclusiveMinimum", 0, 0), "0 is out of range: must be more than 0"),
        (_err("exclusiveMaximum", 5, 5), "5 is out of range: must be less than 5"),
        (_err("minItems", 2, [1]), "a list of 1 item(s); it must have at least 2"),
        (_err("maxItems", 1, [1, 2]), "a list of 2 item(s); it must have at most 1"),
        (_err("multipleOf", 10, 15), "15 is not a multiple of 10"),
        (_err("uniqueItems", True, [1, 1]), "the list holds the same item twice"),
        (_err("maxLength", 3, "abcd"), "too long (at most 3)"),
        (_err("maxProperties", 2, {}), "too long (at most 2)"),
        (
            _err("not", {"anyOf": [{"required": ["hp"]}, {"required": ["stage"]}]}, {"hp": 1, "stage": "x"}),
            "not allowed on this kind of card: hp, stage",
        ),
        (_err("not", {"anyOf": [{"required": ["hp"]}]}, {"name": 1}), "this combination of fields is not allowed"),
        (_err("not", {"anyOf": []}, "x"), "does not fit the schema (not)"),
        (_err("minLength", 1, ""), "must not be empty"),
        (_err("minProperties", 1, {}), "must not be empty"),
        (_err("minLength", 3, "ab"), "too short (at least 3)"),
        (_err("minProperties", 2, {"a": 1}), "too short (at least 2)"),
        (
            _err("pattern", "^[a-z]+$", "A1", {"description": "lower-case letters (see seed 004)"}),
            '"A1" does not have the expected form (lower-case letters)',
        ),
        (
            _err("pattern", "^[a-z]+$", "A1", {"description": "a code (seeds 1, 2) here"}),
            '"A1" does not have the expected form (a code here)',
        ),
        (_err("pattern", "^[a-z]+$", "A1"), '"A1" does not have the expected form (^[a-z]+$)'),
        (_err("false", False, 1), "this field is not allowed here"),
        (_err(None, None, 1), "this field is not allowed here"),
        (_err("dependentRequired", {}, {}), "does not fit the schema (dependentRequired)"),
    ],
)
def test_schema_message(err, message):
    """Each validator's error in YAML's words."""
    assert schema_message(err) == message


# -- per-file checks ----------------------------------------------------------------------------


def test_not_message_without_any_of_or_required():
    """A ``not`` with no ``anyOf``, or whose branches require nothing: the general wording."""
    assert schema_message(_err("not", {"required": ["hp"]}, {"hp": 1})) == "this combination of fields is not allowed"
    assert schema_message(_err("not", {"anyOf": [{"properties": {}}]}, {"hp": 1})) == "this combination of fields is not allowed"
