"""One schema truth: jsonschema-rs (fast) and jsonschema (explaining) agree, messages speak YAML."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.catalog.filecheck import check_file, check_text, schema_errors
from cardlab.catalog.schemas import fast_validator, validator
from cardlab.core.inputs import split_lines
from cardlab.core.paths import schema_dir

jsonschema_rs = pytest.importorskip("jsonschema_rs")


def _patterns() -> list[tuple[str, str]]:
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "pattern" and isinstance(v, str):
                    found.append((where, v))
                if k == "patternProperties" and isinstance(v, dict):
                    found.extend((where, p) for p in v)
                walk(v, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for p in sorted(schema_dir().glob("*.schema.json")):
        walk(json.loads(p.read_text(encoding="utf-8")), p.name)
    return found


PATTERNS = _patterns()
SAMPLES = [
    "base1",
    "fr",
    "pt-BR",
    "1",
    "58",
    "1a",
    "162",
    "pokemon-base",
    "main",
    "X",
    "?",
    "×2",
    "30+",
    "-10",
    "2000-01-01",
    "1999",
    "0123abcd",
    "base1-4",
    "Pikachu",
    "Name with spaces",
    "",
    "a\tb",
    "x\x1b]0;y",
]


@pytest.mark.parametrize(("where", "pattern"), PATTERNS)
def test_patterns_read_alike(where, pattern):
    """Kind: schema patterns that Python's re and jsonschema-rs read differently (a final line break
    accepted by Python's `$`); every pattern, on the same cases, in both validators."""
    assert not (pattern.endswith("$") and not pattern.endswith("\\$")), f"{where}: end the pattern with $(?!\\n)"
    fast = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": pattern})
    from jsonschema import Draft202012Validator

    py = Draft202012Validator({"type": "string", "pattern": pattern})
    matched = 0
    for base in SAMPLES:
        for s in (base, base + "\n", base + "\r\n", "\n" + base, base + "\n\n", base + "\u2028"):
            assert fast.is_valid(s) == py.is_valid(s), (where, pattern, s)
            matched += py.is_valid(s)
    if "_source" not in pattern:
        assert matched, (where, pattern)  # the samples exercise the pattern


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_patterns_read_alike_generated(data):
    """Kind: pattern agreement (property): strings a pattern fully matches, with line breaks added."""
    from jsonschema import Draft202012Validator

    where, pattern = data.draw(st.sampled_from(PATTERNS))
    core = pattern.removesuffix("$(?!\\n)").removeprefix("^")
    s = data.draw(st.from_regex(re.compile(core), fullmatch=True)) + data.draw(st.sampled_from(["", "\n", "\r", "x"]))
    fast = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": pattern})
    assert fast.is_valid(s) == Draft202012Validator({"type": "string", "pattern": pattern}).is_valid(s), (where, s)


CARD = Path(__file__).resolve().parents[2] / "fixtures" / "catalog" / "pokemon" / "test1" / "1-testmon.yaml"


def _card(tmp_path, text, name="1-x.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return check_file(path, "card", "pokemon", "en")


@pytest.mark.parametrize("name", ['"Testmon\\n"', '"Testmon\\r\\n"', '"Testmon\\n\\n"', '"\\nTestmon"', '"Test\\u2028mon"'])
def test_name_with_line_break_fails_in_both(name, tmp_path):
    """Kind: fast and explaining validators disagreeing silently: a name ending in a line break
    breaks the one-line rule in both."""
    text = CARD.read_text(encoding="utf-8").replace("{en: Testmon,", f"{{en: {name},")
    data, problems = _card(tmp_path, text)
    fast = fast_validator("pokemon.card.schema.json")
    slow = validator("pokemon.card.schema.json")
    if "\\u2028" in name:  # a line separator is not a control character: one line for both
        assert fast.is_valid(data) and slow.is_valid(data) and problems == []
        return
    assert not fast.is_valid(data)
    assert not slow.is_valid(data)
    assert [(p.pos.line, p.rule) for p in problems] == [(3, "schema")]
    assert "does not have the expected form" in problems[0].message


def test_float_count_is_not_an_integer():
    """Kind: validators disagreeing silently: JSON Schema counts 4.0 as an integer, YAML 1.2 does not."""
    deck = {"main": [{"count": 4.0, "name": "Pikachu"}]}
    assert fast_validator("deck.schema.json").is_valid(deck)  # jsonschema-rs follows JSON Schema...
    errors = schema_errors(deck, "deck.schema.json")  # ...the float sends the check to the strict one
    assert errors


MESSAGES = [  # replacement in the fixture card, line:col, message
    (("hp: 60", "hp: true"), "6:5", "hp: expected an integer, found true (a YAML boolean)"),
    (("hp: 60", "hp: null"), "6:5", "hp: expected an integer, found null (a YAML null)"),
    (("hp: 60", "hp: 60.0"), "6:5", "hp: expected an integer, found 60.0 (a YAML number)"),
    (("hp: 60", "hp: [60]"), "6:5", "hp: expected an integer, found [60] (a list)"),
    (("hp: 60", "hp: 2000-01-01"), "6:5", "hp: expected an integer, found 2000-01-01 (a YAML date)"),  # no hint: quoting would not help
    (("hp: 60", "hp: -10"), "6:5", "hp: -10 is out of range: must be at least"),
    (("hp: 60", "hp: 65"), "6:5", "hp: 65 is not a multiple of 10"),
    (('number: "1"', "number: 1"), "2:9", "number: expected text, found 1 (a YAML integer)"),
    (('number: "1"', "number: no"), "2:9", 'number: "no" does not have the expected form'),
    (("stage: Basic", "stage: yes"), "5:8", 'stage: "yes" is not one of'),
    (("stage: Basic", "stage: true"), "5:8", "stage: true (a YAML boolean) is not one of"),
    (("rarity: Common", "rarity: true"), "15:9", "rarity: expected text, found true (a YAML boolean)"),
    (
        ("illustrator: Nobody Real", "illustrator: 1999-01-09"),
        "16:14",
        'found 1999-01-09 (a YAML date): YAML reads this as a date; quote it: "1999-01-09"',
    ),
    (("types: [Fire]", "types: []"), "7:8", "a list of 0 item(s); it must have at least 1"),
    (("id: test1-1\n", ""), "1:1", "missing field 'id'"),
]


@pytest.mark.parametrize(("change", "where", "message"), MESSAGES)
def test_messages_speak_yaml(change, where, message, tmp_path):
    """Kind: schema messages in Python's words (True, None, 'is not of type'): they speak YAML."""
    text = CARD.read_text(encoding="utf-8").replace(*change)
    _data, problems = _card(tmp_path, text)
    shown = [f"{p.pos.line}:{p.pos.col}: {p.message}" for p in problems]
    assert any(s.startswith(where) and message in s for s in shown), shown


PYTHON_WORDS = re.compile(
    r"\bTrue\b|\bFalse\b|\bNone\b|is not of type|required property|is less than|is greater than|"
    r"should be non-empty|is too short|is too long|datetime|\bdict\b|(?<!!!)\bint\b|\bstr\b|\bfloat\b|\bNoneType\b"
)
SCALARS = [
    "true",
    "false",
    "yes",
    "no",
    "~",
    "null",
    "1",
    "-1",
    "0",
    "4.0",
    ".inf",
    "1e3",
    "2000-01-01",
    "'x'",
    '""',
    "[]",
    "{}",
    "[1, a]",
    "{a: 1}",
    "Fire",
    "Pokémon",
    "0o17",
    "017",
    "0x10",
    '"\\n"',
]


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_card_yaml_never_crashes_and_speaks_yaml(data, tmp_path):
    """Kind: hostile card YAML (property, 2,000 cards): a card with any field's value replaced, a
    line inserted or line breaks editors do not count added gives only positioned problems, in
    YAML's words, at lines an editor shows; never an exception."""
    lines = CARD.read_text(encoding="utf-8").splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["value", "insert", "key"]))
    scalar = data.draw(st.sampled_from(SCALARS))
    if how == "value" and ":" in lines[i]:
        lines[i] = lines[i].split(":", 1)[0] + ": " + scalar
    elif how == "key":
        lines.insert(i, f"{scalar}: x")
    else:
        lines.insert(
            i,
            data.draw(
                st.sampled_from(
                    [
                        "colour: red",
                        "  - 1",
                        "hp: " + "9" * 2000,
                        "a: " + "[" * 100 + "]" * 100,
                        "name: {e,1}",
                        "? []\n: 1",
                        "x: !!int y",
                        "notes: 'a\u2028b'",
                        "\t",
                    ]
                )
            ),
        )
    sep = data.draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = sep.join(lines) + sep
    _d, problems = check_text(tmp_path / "1-x.yaml", text, "card", "pokemon", "en")
    n = len(split_lines(text))
    for p in problems:
        assert 1 <= p.pos.line <= n + 1, (p, n)
        assert not PYTHON_WORDS.search(p.message), p.message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_card_problem_lines_match_the_editor(data, tmp_path):
    """Kind: lines as editors count them (property): separators that are not line breaks in YAML
    1.2 (U+2028, U+2029, NEL) inside earlier values, and any of \\n, \\r\\n, \\r as line ends,
    leave the problem at the line an editor shows."""
    lines = CARD.read_text(encoding="utf-8").splitlines()
    sep = data.draw(st.sampled_from(["\u2028", "\u2029", "\x85"]))
    k = lines.index("hp: 60")
    for i in data.draw(st.lists(st.sampled_from(range(k)), max_size=4)):
        if lines[i].endswith("}") and "{en: " in lines[i]:
            lines[i] = lines[i].replace("{en: ", f"{{en: Te{sep}st", 1)
    lines[k] = "hp: lots"
    eol = data.draw(st.sampled_from(["\n", "\r\n", "\r"]))
    _d, problems = check_text(tmp_path / "1-x.yaml", eol.join(lines) + eol, "card", "pokemon", "en")
    assert [(p.pos.line, p.pos.col) for p in problems] == [(k + 1, 5)], problems


def test_a_date_in_a_number_field_gets_no_quoting_hint(tmp_path):
    """Quoting a date helps a text field only: an integer field is told what it holds, no more."""
    _data, problems = _card(tmp_path, CARD.read_text(encoding="utf-8").replace("hp: 60", "hp: 2000-01-01"))
    assert [f"{p.pos.line}:{p.pos.col}: {p.message}" for p in problems] == ["6:5: hp: expected an integer, found 2000-01-01 (a YAML date)"]
