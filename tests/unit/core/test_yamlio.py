"""core.yamlio: one YAML dialect (1.2) for reading and writing, hostile YAML refused with positions."""

from __future__ import annotations

import datetime
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core.inputs import split_lines
from cardlab.core.yamlio import LoadError, load, load_fast, position


def _load(text, tmp_path):
    return load_fast(tmp_path / "x.yaml", text)


# --- kind: scalars the two YAML dialects (1.1 and 1.2) read differently ------------------------

DIALECT = [  # plain scalar -> what YAML 1.2 (ruamel.yaml, the writer) reads
    ("yes", "yes"),
    ("no", "no"),
    ("on", "on"),
    ("off", "off"),
    ("y", "y"),
    ("n", "n"),
    ("Yes", "Yes"),
    ("NO", "NO"),
    ("Off", "Off"),
    ("true", True),
    ("False", False),
    ("017", 17),
    ("0o17", 15),
    ("0x1F", 31),
    ("-0o17", -15),
    ("1:20", "1:20"),
    ("~", None),
    ("null", None),
    ("Null", None),
    ("", None),
    ("2000-01-01", datetime.date(2000, 1, 1)),
    (".5", 0.5),
    ("1e3", 1000.0),
    ("+1", 1),
]


@pytest.mark.parametrize(("plain", "value"), DIALECT)
def test_yaml_12_scalars(plain, value, tmp_path):
    """Kind: scalars YAML 1.1 and 1.2 read differently are read as YAML 1.2 (and as ruamel reads them)."""
    from ruamel.yaml import YAML

    assert _load(f"v: {plain}\n", tmp_path) == {"v": value}
    assert YAML(typ="safe", pure=True).load(f"v: {plain}\n") == {"v": value}


@pytest.mark.parametrize("plain", [".inf", "-.inf", ".NaN"])
def test_yaml_12_special_floats(plain, tmp_path):
    """Kind: dialect scalars: infinities and NaN."""
    v = _load(f"v: {plain}\n", tmp_path)["v"]
    if plain == ".NaN":
        assert math.isnan(v)
    else:
        assert v == (math.inf if plain == ".inf" else -math.inf)


@pytest.mark.parametrize(
    "text",
    [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "Y",
        "N",
        "1_00",
        "0o17",
        "017",
        "0b11",
        "2000-01-01",
        ".inf",
        "~",
        "null",
        "true",
        "1:20",
        "1e3",
        "=",
        "<<",
        "0x1F",
        "12:30:00",
        "2001-12-14t21:59:43.10-05:00",
        "a\u2028b",
        "a\x85b",
        " lead",
        "trail ",
        "a\r\nb",
        "-",
        "?",
        "#x",
        "x #y",
        "",
        "'",
        '"',
    ],
)
def test_writer_round_trip(text, tmp_path):
    """Kind: what the translation writer (ruamel.yaml) writes reads back as the same text."""
    assert _write_read(text, "name: {en: Testmon}\n") == text
    assert _write_read(text, "name:\n  en: Testmon\n") == text
    assert _write_read(text, "name:\n  en: Testmon\n  no: 'old'\n") == text


def _write_read(text, original):
    from pathlib import Path

    from cardlab.i18n.writeback import Edit, render_edits

    out = render_edits(Path("x.yaml"), original, [Edit(("name",), "no", text, "0" * 8)])
    return load_fast(Path("x.yaml"), out)["name"]["no"]


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=30))
def test_writer_round_trip_any_text(text):
    """Kind: dialect round trip, for any text (hypothesis)."""
    assert _write_read(text, "name:\n  en: Testmon\n") == text


def test_norwegian_key(tmp_path):
    """Kind: dialect: a language key `no:` is text (YAML 1.1 read it as false and crashed)."""
    assert _load("name: {en: Nine, no: Ni}\n", tmp_path) == {"name": {"en": "Nine", "no": "Ni"}}


# --- kind: hostile YAML is refused at its position, never a traceback -------------------------

HOSTILE = [  # text, (line, column), message fragment
    ("a: 1\nnull: x\n", (2, 1), "a key must be text, but 'null' is a YAML null"),
    ("a: 1\n~: x\n", (2, 1), "a key must be text"),
    ("a: 1\n? []\n: 1\n", (2, 3), "a key must be text, not a list"),
    ("a: 1\n? {b: 1}\n: 1\n", (2, 3), "a key must be text, not a map"),
    ("name: {e,1}\n", (1, 10), "a key must be text, but '1' is a YAML integer"),
    ("a: {1: x}\n", (1, 5), "a key must be text"),
    ("true: x\n", (1, 1), "a YAML boolean"),
    ("2000-01-01: x\n", (1, 1), "a YAML date"),
    ("hp: !!int x\n", (1, 5), "!!int 'x' is not a YAML integer"),
    ("hp: !!bool\n", (1, 5), "!!bool '' is not a YAML boolean"),
    ("hp: !!float abc\n", (1, 5), "is not a YAML number"),
    ("hp: !!null x\n", (1, 5), "is not a YAML null"),
    ("hp: !!timestamp x\n", (1, 5), "is not a YAML date"),
    ("hp: !!binary aGk=\n", (1, 5), "the tag !!binary is not used"),
    ("hp: !!set {a}\n", (1, 5), "the tag !!set is not used"),
    ("hp: !!python/object:os.system x\n", (1, 5), "is not used in cardlab files"),
    ("hp: !custom x\n", (1, 5), "the tag !custom is not used"),
    ("hp: !!map x\n", (1, 5), "the tag !!map is not used"),
    ("hp: !!str [1]\n", (1, 5), "the tag !!str is not used"),
    ("a: " + "[" * 250 + "]" * 250 + "\n", (1, 67), "nested too deep"),
    ("a: " + "[" * 2000 + "]" * 2000 + "\n", None, "nested too deep"),
    ("hp: " + "9" * 4000 + "\n", (1, 5), "a number of 4,000 digits"),
    ("hp: -" + "9" * 5000 + "\n", (1, 5), "a number of 5,000 digits"),
    ("hp: 0x" + "f" * 5000 + "\n", (1, 5), "a number of 5,002 digits"),  # past Python's int-string limit
    ("hp: 1_00\n", (1, 5), "'1_00': YAML 1.2 reads 1_00 as text (YAML 1.1 as a number); write 100, or quote it if it is text"),
    ("a: 1\nd: 2000-13-45\n", (2, 4), "'2000-13-45' reads as a date but is not one"),
    ("d: 2001-02-29 25:61:61\n", (1, 4), "reads as a date but is not one"),
    ("hp: 1_000.5\n", (1, 5), "YAML 1.2 reads 1_000.5 as text (YAML 1.1 as a number); write 1000.5"),
    ("a: &x 1\nb: *x\n", (1, 4), "anchors and aliases are not allowed"),
    ("a: 1\na: 2\n", (2, 1), "the key 'a' is given twice (first on line 1)"),
    ("<<: {a: 1}\n", (1, 1), "a YAML merge key"),
    ("a: 1\n---\nb: 2\n", (2, 1), "a second YAML document"),
    ("a:\n\tb: 1\n", (2, 1), "a tab character"),
    ("a: 1\t\nb: [1, @]\n", (2, 8), "YAML syntax"),
    ('a: "x\u2028y\u2028z"\nb: [1, @]\n', (2, 8), "YAML syntax"),
    ("a: x\u0085y\u2029w\nb: [1, @]\n", (2, 8), "YAML syntax"),
    ("a: x\u0085y\fz\n", (1, 7), "control character 0x0c"),
    ("a: x\rb: [1, @]\r", (2, 8), "YAML syntax"),
    ("a: x\r\nb: [1, @]\r\n", (2, 8), "YAML syntax"),
    ("a: 1\x07\n", (1, 5), "control character 0x07"),
    ("# only a comment\n", (1, 1), "empty file"),
    ("", (1, 1), "empty file"),
]


@pytest.mark.parametrize(("text", "where", "fragment"), HOSTILE)
def test_hostile_yaml_is_positioned(text, where, fragment, tmp_path):
    """Kind: hostile YAML (non-text keys, failing tags, nesting, huge numbers, aliases, odd line
    breaks) is a LoadError at the editor's line and column, never a traceback."""
    with pytest.raises(LoadError) as info:
        _load(text, tmp_path)
    problem = info.value.problem
    assert fragment in problem.message
    if where is not None:
        assert (problem.pos.line, problem.pos.col) == where


UNDERSCORE_NUMBERS = [  # plain scalar, the number to write: YAML 1.1 reads a number, YAML 1.2 text
    ("1_00", "100"),
    ("1_000_000", "1000000"),
    ("-1_0", "-10"),
    ("+2_5", "+25"),
    ("1_000.5", "1000.5"),
    ("0.000_1", "0.0001"),
]


@pytest.mark.parametrize(("value", "number"), UNDERSCORE_NUMBERS)
def test_underscore_numbers_say_what_to_write(value, number, tmp_path):
    """Kind: a number written with '_' (YAML 1.1 a number, YAML 1.2 text) is refused at its line and
    column with the number to write; quoted, it is text."""
    with pytest.raises(LoadError) as info:
        _load(f"name: x\nhp: {value}\n", tmp_path)
    problem = info.value.problem
    assert problem.message == f"'{value}': YAML 1.2 reads {value} as text (YAML 1.1 as a number); write {number}, or quote it if it is text"
    assert (problem.pos.line, problem.pos.col) == (2, 5)
    assert _load(f"hp: '{value}'\n", tmp_path) == {"hp": value}


def test_positions_count_lines_as_editors(tmp_path):
    """Kind: lines as editors count them: U+2028, NEL and form feed inside values do not start lines."""
    text = 'a: "x\u2028y"\nb: q\u0085r\u2029s\nc:\n  - 1\n  - {d: 2}\n'
    data, tree = load(tmp_path / "x.yaml", text)
    assert data == {"a": "x\u2028y", "b": "q\u0085r\u2029s", "c": [1, {"d": 2}]}
    pos = position(tree, ["c", 1, "d"], tmp_path / "x.yaml")
    assert (pos.line, pos.col) == (5, 9)
    assert len(split_lines(text)) == 5


YAML_TOKENS = [
    "a",
    "b",
    "no",
    "yes",
    "~",
    "null",
    "1",
    "1_0",
    "4.0",
    "0o7",
    "017",
    "2000-01-01",
    "!!int",
    "!!str",
    "!!bool",
    "!x",
    "&a",
    "*a",
    ":",
    ": ",
    "- ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "#",
    "'",
    '"',
    "|",
    ">",
    "\n",
    "\n  ",
    "\r\n",
    "\r",
    "\t",
    " ",
    "\u2028",
    "\x85",
    "\x0c",
    "---",
    "...",
    "%YAML 1.2",
    "\\",
    "é",
    "テ",
    "\x00",
    "\x1b",
    "99999999999999999999999",
    ".inf",
    "<<",
    "=",
    "@",
    "`",
    "%",
]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(YAML_TOKENS), max_size=40))
def test_any_yaml_loads_or_is_positioned(tokens):
    """Kind: hostile YAML (property): any text either loads or gives a LoadError whose line and
    column lie inside the text as an editor counts lines; never another exception."""
    from pathlib import Path

    text = "".join(tokens)
    try:
        load(Path("x.yaml"), text)
    except LoadError as err:
        lines = split_lines(text) or [""]
        p = err.problem.pos
        assert 1 <= p.line <= len(lines) + 1
        assert p.col >= 1


@settings(max_examples=1000, deadline=None)
@given(
    st.one_of(
        st.text(st.sampled_from("0123456789._+-eExobXOB:antrufslyTFNL~ "), min_size=1, max_size=9),
        st.from_regex(
            r"\A[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?( ?(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)?\Z"
        ),
    )
)
def test_plain_scalars_read_as_ruamel_reads_them(plain):
    """Kind: dialect scalars (property): every plain scalar cardlab accepts is read as ruamel.yaml's
    YAML 1.2 loader (the writer's dialect) reads it: same type, same value."""
    from pathlib import Path

    from ruamel.yaml import YAML

    text = f"v: {plain}\n"
    try:
        ours = load_fast(Path("x.yaml"), text)
    except LoadError:
        return  # refused with a position (1_00, a syntax error): never read differently
    try:
        theirs = YAML(typ="safe", pure=True).load(text)
    except Exception:  # noqa: BLE001 - ruamel refuses it; ours read it as text
        assert isinstance(ours["v"], str)
        return
    a, b = ours["v"], theirs["v"]
    assert type(a) is type(b), (plain, a, b)
    if isinstance(b, float) and math.isnan(b):
        assert math.isnan(a), (plain, a)
    else:
        assert a == b, (plain, a, b)


def test_a_fraction_beyond_microseconds_rounds_as_ruamel_does():
    """Kind B (one YAML): 0.0000005 s rounds to 1 µs in both readers (found by the property test)."""
    import datetime

    from ruamel.yaml import YAML

    text = "a: 0001-1-1T0:00:00.0000005\n"
    assert YAML(typ="safe").load(text)["a"] == datetime.datetime(1, 1, 1, 0, 0, 0, 1)
    assert load_fast(Path("x.yaml"), text)["a"] == datetime.datetime(1, 1, 1, 0, 0, 0, 1)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("a: [1, 017, x, null, true, '2.5']\nb: {c: -4}\n", True),
        ("a: [1, 2.5]\n", False),  # a float: JSON Schema would count 4.0 as an integer
        ("a:\n  b: 2001-01-01\n", False),  # a date: JSON has none
        ("a: -1.5e3\n", False),
        ("a: .inf\n", False),
    ],
)
def test_the_reader_says_whether_the_data_is_plain_json(text, plain, tmp_path):
    """What lets the file checks trust jsonschema-rs without walking the data again."""
    _data, tree = load(tmp_path / "f.yaml", text)
    assert tree.plain_json is plain


def test_positions_of_a_valid_file_are_read_from_its_nodes(tmp_path):
    text = "id: x\nattacks:\n  - name: {en: Zap}\n    cost: [Lightning]\n  - name: {en: Bolt}\n"
    path = tmp_path / "c.yaml"
    _data, tree = load(path, text)
    assert (position(tree, ["attacks", 1, "name", "en"], path).line, position(tree, ["attacks", 1, "name", "en"], path).col) == (5, 16)
    assert position(tree, ["attacks", 0, "cost", 0], path).col == 12
    assert position(tree, ["nowhere"], path).line == 1
