"""Issue 10 (A, C, G) for PO files: charsets, escapes, language modifiers, lines as editors count
them, \\r\\n kept through an import, and 2,000 generated PO files."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.catalog.validate import validate
from cardlab.core.errors import CardlabError, DataError
from cardlab.core.inputs import LoadError, split_lines
from cardlab.core.yamlio import load_fast
from cardlab.i18n import po_file, po_import
from tests.unit.i18n.test_strings import copy_base1

REPO = Path(__file__).resolve().parents[3]
HEADER = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset={charset}\\n"\n\n'


def _po(tmp_path, body: str, charset="UTF-8", encoding="utf-8", name="fr.po") -> Path:
    path = tmp_path / name
    path.write_bytes((HEADER.format(charset=charset) + body).encode(encoding))
    return path


# --- kind: decoding by the declared charset --------------------------------------------------


@pytest.mark.parametrize(
    ("charset", "encoding"),
    [("ISO-8859-1", "latin-1"), ("windows-1252", "cp1252"), ("UTF-8", "utf-8"), ("utf8", "utf-8"), ("CHARSET", "utf-8")],
)
def test_po_decoded_by_declared_charset(charset, encoding, tmp_path):
    """Kind: PO decoding: the charset the header declares is the one used."""
    path = _po(tmp_path, 'msgctxt "a b"\nmsgid "Fire"\nmsgstr "Feu été"\n', charset, encoding)
    po, _text = po_import.read(path)
    assert [e.msgstr for e in po] == ["Feu été"]


def test_po_not_in_its_charset(tmp_path):
    """Kind: PO decoding: bytes that are not in the declared charset are an error at line and column."""
    path = _po(tmp_path, 'msgctxt "a b"\nmsgid "Fire"\nmsgstr "Feu \xe9t\xe9"\n', "UTF-8", "latin-1")
    with pytest.raises(DataError) as info:
        po_import.read(path)
    assert str(info.value).startswith(f"{path}:8:13: not UTF-8 text (byte 0xe9)")


def test_po_unknown_charset(tmp_path):
    """Kind: PO decoding: an unknown charset is a positioned problem, not a LookupError."""
    path = _po(tmp_path, 'msgctxt "a b"\nmsgid "Fire"\nmsgstr "Feu"\n', "klingon-8")
    with pytest.raises(DataError, match=r"fr\.po:4: PO header: unknown encoding: klingon-8"):
        po_import.read(path)


@pytest.mark.parametrize("charset", ["base64", "rot13", "zip", "idna", "punycode", "utf-16", "hex"])
def test_po_odd_charsets(charset, tmp_path):
    """Kind: PO decoding: a declared codec that is not a text encoding, or fails in its own way,
    is the project's own error, never a traceback."""
    path = _po(tmp_path, 'msgctxt "a b"\nmsgid "Fire"\nmsgstr "Feu"\n', charset)
    try:
        po, _text = po_import.read(path)
    except CardlabError as err:
        assert str(path) in str(err)  # the project's own error, naming the file
    else:
        assert [e.msgctxt for e in po] == ["a b"]


# --- kind: escapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("escape", "col"), [("\\q", 12), ("\\x41", 12), ("\\101", 12), ("\\a", 12), ("\\u00e9", 12), ("\\ ", 12), ("ok\\\\\\q", 16)]
)
def test_po_invalid_escape_is_a_syntax_error(escape, col, tmp_path):
    """Kind: PO escapes polib would misread (it keeps \\q as two characters): a syntax error at line and column."""
    path = _po(tmp_path, f'msgctxt "a b"\nmsgid "Fire"\nmsgstr "Feu{escape}"\n')
    with pytest.raises(DataError) as info:
        po_import.read(path)
    assert str(info.value).startswith(f"{path}:8:{col}: PO syntax: unknown escape")


@pytest.mark.parametrize(
    ("escape", "value"),
    [("\\n", "\n"), ("\\t", "\t"), ("\\r\\n", "\r\n"), ('\\"', '"'), ("\\\\", "\\"), ("\\\\q", "\\q"), ("\\v", "\v"), ("\\f", "\f")],
)
def test_po_known_escapes(escape, value, tmp_path):
    """Kind: PO escapes: the known ones are read as gettext reads them."""
    path = _po(tmp_path, f'msgctxt "a b"\nmsgid "Fire"\nmsgstr "A{escape}B"\n')
    po, _ = po_import.read(path)
    assert po[0].msgstr == f"A{value}B"


# --- kind: Language header modifiers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("sr@latin", "sr-Latn"),
        ("sr_RS@latin", "sr-Latn-RS"),
        ("sr@cyrillic", "sr-Cyrl"),
        ("uz@Latin", "uz-Latn"),
        ("ca@valencia", "ca-valencia"),
        ("pt_BR", "pt-BR"),
        ("zh_Hant", "zh-Hant"),
    ],
)
def test_po_language_modifier(header, lang, tmp_path):
    """Kind: gettext locale names: ``sr@latin`` is ``sr-Latn`` (a script), not an error."""
    path = tmp_path / "x.po"
    path.write_text(
        HEADER.replace("Language: fr", f"Language: {header}").format(charset="UTF-8") + 'msgctxt "a b"\nmsgid "x"\nmsgstr "y"\n',
        encoding="utf-8",
    )
    po, text = po_import.read(path)
    assert po_import.target_language(po, text, path, None) == lang


# --- kind: lines as editors count them -------------------------------------------------------


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\x1e"])
@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_po_lines_as_editors_count_them(sep, eol, tmp_path):
    """Kind: line splitting: a valid PO file whose strings hold U+2028, NEL, form feed... is read,
    and every later line number is the editor's."""
    body = f'msgctxt "a b"\nmsgid "x{sep}y"\nmsgstr "p{sep}q"\n\nmsgctxt "c d"\nmsgid "z"\nmsgstr "w"\n\nstray\n'
    path = tmp_path / "fr.po"
    path.write_bytes((HEADER.format(charset="UTF-8") + body).replace("\n", eol).encode("utf-8"))
    with pytest.raises(DataError) as info:
        po_import.read(path)
    assert str(info.value).startswith(f"{path}:14:1: PO syntax: unexpected 'stray'")
    path.write_bytes((HEADER.format(charset="UTF-8") + body.replace("stray\n", "")).replace("\n", eol).encode("utf-8"))
    po, _ = po_import.read(path)
    assert [(e.msgctxt, e.msgid, e.msgstr, e.linenum) for e in po] == [("a b", f"x{sep}y", f"p{sep}q", 6), ("c d", "z", "w", 10)]


@pytest.fixture
def base1(tmp_path) -> Path:
    return copy_base1(tmp_path)


@pytest.mark.parametrize(
    "translation",
    [
        "Ligne 1\r\nLigne 2",
        "Ligne 1\rLigne 2",
        "A\u2028B",
        "A\x85B",
        "a\x0cb",
        "Deux lignes\nici",
        "non",
        "yes",
        "~",
        "1_00",
        "2000-01-01",
        "0o17",
    ],
)
def test_translation_kept_through_import(translation, base1, tmp_path):
    """Kind: nothing lost on write-back: a line break and dialect words in a translation are in the
    card file as translated (YAML escapes where needed); a control or line-separator character
    (\\r, U+2028, NEL, form feed) is refused with a problem naming it, never dropped silently."""
    cat = validate([base1], cache_path=None).catalog
    po = po_file.export(cat, "fr", ["base1"])
    for entry in po:
        if entry.msgctxt == "base1-88 text":
            entry.msgstr = translation
    po_file.save(po, tmp_path / "fr.po", overwrite=True)
    report = po_import.import_po([base1], tmp_path / "fr.po", "fr", cache_path=None)
    if any(ch in translation for ch in "\r\u2028\x85\x0c"):
        assert [p.rule for p in report.problems] == ["hidden-character"]
        return
    assert report.ok, report.problems
    card = load_fast(base1 / "pokemon" / "base1" / "88-professor-oak.yaml")
    assert card["text"]["fr"] == translation


# --- property: any PO text -------------------------------------------------------------------

PO_LINES = [
    'msgctxt "base1-4 name"',
    'msgid "Fire"',
    'msgstr "Feu"',
    'msgstr ""',
    '"more"',
    '"a\\nb"',
    '"\\q"',
    "# comment",
    "#, fuzzy",
    '#| msgid "old"',
    '#~ msgid "obsolete"',
    'msgid_plural "x"',
    'msgstr[0] "y"',
    'msgstr[9999999999999999999999] "y"',
    "",
    "   ",
    "stray",
    '"unclosed',
    'msgid "a" "b"',
    'msgctxt ""',
    '"\u2028"',
    '"\x85"',
    '"\x0c"',
    'msgid "é"',
    '"Language: sr@latin\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Language: \\n"',
    '"Language: x@@y\\n"',
    "\ufeff",
    "\t",
    '"\\"',
    'msgstr "\\\\"',
]


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(PO_LINES), max_size=20), eol=st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_po_text_reads_or_is_positioned(lines, eol, tmp_path):
    """Kind: hostile PO (property, 2,000 files): reading gives a parsed file or the project's own
    error with a line inside the file; never another exception."""
    text = eol.join(lines) + eol
    path = tmp_path / "x.po"
    n = len(split_lines(text))
    try:
        po, read_text = po_import.parse(text.encode("utf-8"), path)
    except CardlabError as err:
        m = re.search(r"x\.po:(\d+)", str(err))
        if m is not None:
            assert 0 <= int(m.group(1)) <= n + 1, str(err)
        return
    for e in po:
        assert 0 <= e.linenum <= n + 1
    try:
        po_import.target_language(po, read_text, path, None)
    except CardlabError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=12), min_size=1, max_size=6))
def test_po_round_trip_keeps_text_and_lines(texts):
    """Kind: PO lines as editors count them (property): what polib writes reads back as written,
    each entry at the line an editor shows its msgctxt."""
    po = polib.POFile(wrapwidth=78)
    po.metadata = {"Language": "fr", "Content-Type": "text/plain; charset=UTF-8"}
    for i, t in enumerate(texts):
        po.append(polib.POEntry(msgctxt=f"c{i} x", msgid=f"id{i}", msgstr=t))
    back, text = po_import.parse((str(po) + "\n").encode("utf-8"), Path("x.po"))
    lines = split_lines(text)
    assert [e.msgstr for e in back] == texts
    for e in back:
        assert lines[e.linenum - 1] == f'msgctxt "{e.msgctxt}"'


# --- issue 33: every text written reads back equal, or the import refuses it ------------------

FOLDED = "text:\n  en: Draw 2 cards.\n  fr: >-\n    Piochez\n    deux"
STYLES = [
    "text: {en: Draw 2 cards.}",
    "text:\n  en: Draw 2 cards.\n  fr: Piochez deux",
    "text:\n  en: Draw 2 cards.\n  fr: 'Piochez deux'",
    'text:\n  en: Draw 2 cards.\n  fr: "Piochez deux"',
    "text:\n  en: Draw 2 cards.\n  fr: |\n    Piochez\n    deux",
    FOLDED,
    "text: {en: Draw 2 cards., fr: Piochez deux}",
]


def _gadget(tmp_path: Path, style: str) -> tuple[Path, Path]:
    import shutil

    root = tmp_path / "catalog"
    if not root.exists():
        shutil.copytree(REPO / "tests" / "fixtures" / "catalog" / "pokemon" / "test1", root / "pokemon" / "test1")
    card = root / "pokemon" / "test1" / "4-test-gadget.yaml"
    card.write_text(
        (REPO / "tests" / "fixtures" / "catalog" / "pokemon" / "test1" / "4-test-gadget.yaml")
        .read_text(encoding="utf-8")
        .replace("text: {en: Draw 2 cards.}", style),
        encoding="utf-8",
    )
    return root, card


def _one_entry_po(msgstr: str) -> bytes:
    po = polib.POFile(wrapwidth=78)
    po.metadata = {"Language": "fr", "Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgctxt="test1-4 text", msgid="Draw 2 cards.", msgstr=msgstr))
    return (str(po) + "\n").encode("utf-8")


def test_a_text_a_folded_block_would_change_is_refused(tmp_path):
    """Found by generated PO files: replacing a folded (>-) translation by a text with a line that
    starts with a tab wrote it back folded, read as one more line break. Now refused, file untouched."""
    root, card = _gadget(tmp_path, FOLDED)
    before = card.read_text(encoding="utf-8")
    path = tmp_path / "fr.po"
    path.write_bytes(_one_entry_po("Piochez\n\tdeux"))
    report = po_import.import_po([root], path, "fr", cache_path=None, replace=True)
    assert report.applied == []
    assert [(p.rule, p.message) for p in report.problems] == [
        (
            "round-trip",
            "'test1-4 text': not imported: written to 4-test-gadget.yaml it would read back differently"
            " ('Piochez\\n\\n\\tdeux' instead of 'Piochez\\n\\tdeux'); write it without that character",
        )
    ]
    assert card.read_text(encoding="utf-8") == before


_ATOMS = st.sampled_from(
    [
        "\n",
        "\n\n",
        "\r\n",
        "\r",
        "\t",
        " ",
        "#",
        ": ",
        "- ",
        "'",
        '"',
        "\\",
        "é",
        "|",
        ">",
        "\x85",
        "\u2028",
        "\ufeff",
        "\x1b",
        "\u00a0",
        "---",
        "\U0001d11e",
    ]
)
_TEXTS = st.lists(
    st.one_of(_ATOMS, st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=4)), min_size=1, max_size=10
)


_PLANNED: dict[str, tuple[Path, Path, object]] = {}


def _planned_catalog(style: str, tmp_path_factory) -> tuple[Path, Path, object]:
    """One catalog per layout, validated once (the plan only reads it)."""
    from cardlab.catalog.validate import validate as run_validate

    if style not in _PLANNED:
        root, card = _gadget(tmp_path_factory.mktemp("layout"), style)
        _PLANNED[style] = (root, card, run_validate([root], cache_path=None).catalog)
    return _PLANNED[style]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(style=st.sampled_from(STYLES), parts=_TEXTS)
def test_every_text_planned_reads_back_equal_or_is_refused(style, parts, tmp_path_factory):
    """Kind: PO import write-back (property, 500 generated files, each replacing the translation of
    one card in one of the layouts people write): the planned file reads back the msgstr as the
    import takes it (stripped when the msgid is), or is refused: by name (``round-trip``), or by the
    validation before anything is written."""
    from cardlab.i18n import writeback

    msgstr = "".join(parts)
    _root, card, catalog = _planned_catalog(style, tmp_path_factory)
    po, _text = po_import.parse(_one_entry_po(msgstr), card.parent / "fr.po")
    report = po_import.plan(catalog, po, card.parent / "fr.po", "fr", replace=True)
    for change in report.changes:
        try:
            read = load_fast(card, change.new)
        except (CardlabError, LoadError):  # LoadError: a YAML syntax error, as load_fast raises it
            assert writeback.check_change(change) != []  # not YAML: the validation refuses the file
            continue
        assert read["text"]["fr"] == msgstr.strip()
    refused = [p for p in report.problems if p.rule == "round-trip"]
    if refused:  # the one entry, refused: its file is not among the changes
        assert (len(refused), report.changes) == (1, [])
