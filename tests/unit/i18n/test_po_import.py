"""cardlab.i18n.po_import value by value (issue 16): the Language header against --lang (regions,
mismatches, no header), why a context is unknown, the report's summary and JSON, PO parsing errors
with their line and column."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from cardlab.catalog.validate import validate
from cardlab.core.errors import DataError, UsageError
from cardlab.i18n import po_import

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "catalog"
PO = Path("zorb.po")


def _target(header: str | None, lang: str | None) -> str:
    po = SimpleNamespace(metadata={} if header is None else {"Language": header})
    text = f'msgid ""\nmsgstr ""\n"Language: {header}\\n"\n'
    return po_import.target_language(po, text, PO, lang)


@pytest.mark.parametrize(
    ("header", "lang", "target"),
    [
        ("fr_FR", "fr", "fr"),  # the bare language asked: the region is dropped
        ("fr_FR", "fr-FR", "fr-FR"),
        ("fr_FR", None, "fr-FR"),  # no --lang: the header decides
        ("", "pt_br", "pt-BR"),  # no header: --lang decides
        (None, "fr", "fr"),
        ("sr@latin", "sr-Latn", "sr-Latn"),
    ],
)
def test_target_language(header, lang, target):
    """The header and ``--lang`` agree (a regional header matches its bare language)."""
    assert _target(header, lang) == target


@pytest.mark.parametrize(
    ("header", "lang", "message"),
    [
        ("fr", "fr-FR", "this PO file is for 'fr', not 'fr-FR' (its Language header); pass --lang fr or use the file for 'fr-FR'"),
        ("de", "fr", "this PO file is for 'de', not 'fr' (its Language header); pass --lang de or use the file for 'fr'"),
        ("fr_FR", "de", "this PO file is for 'fr_FR', not 'de' (its Language header); pass --lang fr-FR or use the file for 'de'"),
        ("zorb fen", "fr", "Language header 'zorb fen' is not a language code"),
        ("zorb fen", None, "Language header 'zorb fen' is not a language code"),
    ],
)
def test_target_language_mismatch(header, lang, message):
    """Another or a malformed language: a ``po-language`` problem at the header's line of the PO file."""
    with pytest.raises(DataError) as err:
        _target(header, lang)
    assert [(p.pos.path, p.pos.line, p.rule, p.message) for p in err.value.problems] == [(PO, 3, "po-language", message)]


@pytest.mark.parametrize("header", [None, "", "  "])
def test_no_language_anywhere(header):
    """No header and no ``--lang``: a usage error saying what to do."""
    with pytest.raises(UsageError) as err:
        _target(header, None)
    assert str(err.value) == "zorb.po: the PO file has no Language header; say which language it is with --lang"


def test_header_line():
    """The line of a header field, indented or not; 0 when absent."""
    assert po_import._header_line('msgid ""\n  "Language: fr\\n"\n', "Language") == 2
    assert po_import._header_line('msgid ""\n"Language-Team: x\\n"\n"Language: fr\\n"\n', "Language") == 3
    assert po_import._header_line("msgid\n", "Language") == 0


@pytest.fixture(scope="module")
def fixture_catalog():
    return validate([FIXTURES], cache_path=None).catalog


@pytest.mark.parametrize(
    ("context", "lang", "explained"),
    [
        ("test1-2 nope", "fr", ("card test1-2 has no translatable text at 'nope'", "unknown-context")),
        ("test1 nope", "fr", ("set test1 has no translatable text at 'nope'", "unknown-context")),
        ("test1 name", "en", ("'en' is the source language of set test1; edit the source in its YAML file", "source-language")),
        ("test1-2 name", "en", ("'en' is the source language of test1-2's set; edit the source in its YAML file", "source-language")),
        (
            "ippo-test-1 name",
            "ja",
            ("'ja' is the source language of ippo-test-1's set; edit the source in its YAML file", "source-language"),
        ),
        ("zz9-1 name", "fr", ("no card or set 'zz9-1' in the catalog", "unknown-context")),
        ("zorbfen", "fr", ("context 'zorbfen' is not '<card id> <field path>'", "unknown-context")),
    ],
)
def test_explain_unknown(fixture_catalog, context, lang, explained):
    """Why a context matches nothing, and its rule."""
    assert po_import._explain_unknown(fixture_catalog, context, lang) == explained


def test_short():
    """Runs of white space become one space; more than 60 characters end with an ellipsis."""
    assert po_import._short("a  b\n c") == "a b c"
    assert po_import._short("x" * 60) == "x" * 60
    assert po_import._short("x" * 61) == "x" * 59 + "…"
    assert po_import._short("x" * 10, 5) == "xxxx…"


def test_report_summary_and_json():
    """The one-line summary (singular and plural, dry run said) and the JSON summary."""
    report = po_import.ImportReport("fr")
    assert report.ok is True
    assert report.summary() == "fr: imported 0 translations into 0 files; 0 unchanged, 0 empty (untranslated), 0 fuzzy, 0 problems"
    assert report.to_json() == {
        "lang": "fr",
        "dry_run": False,
        "entries": 0,
        "applied": 0,
        "unchanged": 0,
        "empty": 0,
        "fuzzy": 0,
        "held_back": 0,
        "files": [],
        "written": [],
        "problems": [],
        "warnings": [],
    }
    dry = po_import.ImportReport("de", dry_run=True, entries=5, applied=["a"], unchanged=2, empty=["b", "c"], held_back=1)
    assert (
        dry.summary()
        == "de: would import 1 translation into 0 files; 2 unchanged, 2 empty (untranslated), 0 fuzzy, 0 problems (dry run: nothing written)"
    )
    assert dry.to_json()["entries"] == 5
    assert dry.to_json()["held_back"] == 1
    assert dry.to_json()["empty"] == 2
    written = po_import.ImportReport("fr", applied=["a", "b"], written=[Path("x.yaml")])
    assert written.summary() == "fr: imported 2 translations into 1 file; 0 unchanged, 0 empty (untranslated), 0 fuzzy, 0 problems"
    assert written.to_json()["written"] == ["x.yaml"]


HEADER = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=%s\\n"\n"Language: fr\\n"\n\n'


def test_parse_entries_in_the_declared_charset():
    """Entries with their line; Latin-1 declared and used; wrap width 78."""
    po, _text = po_import.parse(HEADER % b"ISO-8859-1" + b'msgctxt "zz1-1 name"\nmsgid "Zorb"\nmsgstr "Zorb\xe9"\n', PO)
    assert [(e.msgctxt, e.msgid, e.msgstr, e.linenum) for e in po] == [("zz1-1 name", "Zorb", "Zorbé", 6)]
    assert po.wrapwidth == 78


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (HEADER % b"zorb-8", "zorb.po:3: PO header: unknown encoding: zorb-8 (po-syntax)"),
        (
            HEADER % b"UTF-8" + b'msgctxt "a b"\nmsgid "x"\nmsgstr "\xe9"\n',
            "zorb.po:8:9: not UTF-8 text (byte 0xe9); save the file in the charset its Content-Type header names (encoding)",
        ),
        (
            HEADER % b"UTF-8" + b"zorb\n",
            "zorb.po:6:1: PO syntax: unexpected 'zorb' (expected msgctxt, msgid, msgstr, a quoted string or a # comment) (po-syntax)",
        ),
        # errors polib finds itself: its reason when it gives one, else a general one, at its line
        (HEADER % b"UTF-8" + b'#| zorb "a"\n', "zorb.po:6: PO syntax: unknown keyword zorb (po-syntax)"),
        (HEADER % b"UTF-8" + b'msgid "a"\nmsgstr "b"\nmsgstr "c"\n', "zorb.po:8: PO syntax: invalid PO file (po-syntax)"),
    ],
)
def test_parse_errors(raw, message):
    """A bad charset, bytes not in it, a syntax error (found before polib reads the file, or by
    polib): each with its line (and column)."""
    with pytest.raises(DataError) as err:
        po_import.parse(raw, PO)
    assert str(err.value) == message


def _entry(line, ctx, msgid, msgstr, fuzzy=False, plural="", obsolete=False):
    return SimpleNamespace(linenum=line, msgctxt=ctx, msgid=msgid, msgstr=msgstr, fuzzy=fuzzy, msgid_plural=plural, obsolete=obsolete)


EVERY_KIND = [
    _entry(5, None, "Zorb  text", "x"),
    _entry(8, "ippo-test-6 name", "テストボディ", "a"),
    _entry(11, "ippo-test-6 name", "テストボディ", "b"),
    _entry(14, "ippo-test-7 name", "テストカバー", "", plural="テストカバーズ"),
    _entry(17, "ippo-test-8 name", "Zorb", "z"),
    _entry(20, "ippo-test-9 name", "テストウィービング", "zz", fuzzy=True),
    _entry(23, "ippo-test-3 name", "テストフック", ""),
    _entry(26, "ippo-test-1 name", "テストジャブ", " Jab de test\n"),  # the current translation, spaced
    _entry(29, "ippo-test-2 name", "テストストレート", "Zorb direct"),  # replaces "Direct de test"
    _entry(32, "ippo-test set.products[0].name", "スターター", "Zorb starter"),  # a new translation
    _entry(35, "zz9-1 name", "x", "y"),
    _entry(38, "ippo-test-4 name", "x", "y", obsolete=True),
]

EVERY_KIND_PROBLEMS = [
    (5, "no-context", "entry 'Zorb text' has no msgctxt; cardlab needs '<card id> <field path>'"),
    (8, "duplicate-context", "context 'ippo-test-6 name' appears 2 times (also line 11); none applied"),
    (11, "duplicate-context", "context 'ippo-test-6 name' appears 2 times (also line 8); none applied"),
    (14, "unknown-context", "'ippo-test-7 name': plural entries are not used by cardlab"),
    (
        17,
        "changed-source",
        "'ippo-test-8 name': the source text changed since the export (was 'Zorb', now 'テストパリー'); export again and translate the new text",
    ),
    (35, "unknown-context", "'zz9-1 name': no card or set 'zz9-1' in the catalog"),
]


def _report_values(report):
    return (
        [(p.pos.line, p.rule, p.message) for p in report.problems],
        [(p.pos.line, p.rule, p.message) for p in report.warnings],
        (report.entries, report.applied, report.unchanged, report.empty, report.held_back),
        [(c.path.name, c.kind) for c in report.changes],
        {path.name: lines for path, lines in report.entry_lines.items()},
    )


def test_plan_every_kind_of_entry(fixture_catalog):
    """One entry of each kind: each problem once, in order, at its line; one entry would replace a
    current translation, so nothing is planned and the new translation is held back."""
    report = po_import.plan(fixture_catalog, EVERY_KIND, PO, "fr")
    assert _report_values(report) == (
        [
            *EVERY_KIND_PROBLEMS,
            (29, "would-replace", "'ippo-test-2 name': would replace 'Direct de test' with 'Zorb direct'"),
            (
                0,
                "would-replace",
                "nothing imported: 1 entry would replace an existing 'fr' translation with a different text (listed with "
                "their lines); check that this file really is in 'fr', then run again with --replace to replace them",
            ),
        ],
        [(20, "fuzzy", "'ippo-test-9 name': fuzzy, not imported; review it and clear the fuzzy flag")],
        (11, [], 1, ["ippo-test-3 name"], 1),
        [],
        {},
    )


def test_plan_every_kind_of_entry_with_replace(fixture_catalog):
    """With ``replace`` the replacing entry and the new one are planned, one file each (a card, a set)."""
    report = po_import.plan(fixture_catalog, EVERY_KIND, PO, "fr", replace=True)
    assert _report_values(report) == (
        EVERY_KIND_PROBLEMS,
        [(20, "fuzzy", "'ippo-test-9 name': fuzzy, not imported; review it and clear the fuzzy flag")],
        (11, ["ippo-test-2 name", "ippo-test set.products[0].name"], 1, ["ippo-test-3 name"], 0),
        [("2-test-straight.yaml", "card"), ("set.yaml", "set")],
        {"2-test-straight.yaml": [("ippo-test-2 name", 29)], "set.yaml": [("ippo-test set.products[0].name", 32)]},
    )


def test_plan_of_obsolete_entries_only(fixture_catalog):
    """Two obsolete entries and nothing else: one ``empty-po`` problem counting them (plural)."""
    po = [_entry(5, "ippo-test-1 name", "x", "y", obsolete=True), _entry(9, "ippo-test-2 name", "x", "y", obsolete=True)]
    report = po_import.plan(fixture_catalog, po, PO, "fr")
    assert [(p.pos.line, p.rule, p.message) for p in report.problems] == [
        (0, "empty-po", "the PO file has no entries (2 obsolete entries, ignored); nothing to import")
    ]


def test_plan_two_entries_would_replace(fixture_catalog):
    """Two entries replacing current translations: each at its line, then one problem counting them (plural)."""
    po = [
        _entry(5, "ippo-test-2 name", "テストストレート", "Zorb direct"),
        _entry(9, "ippo-test-3 name", "テストフック", "Zorb crochet"),
    ]
    report = po_import.plan(fixture_catalog, po, PO, "fr")
    assert [(p.pos.line, p.rule, p.message) for p in report.problems] == [
        (5, "would-replace", "'ippo-test-2 name': would replace 'Direct de test' with 'Zorb direct'"),
        (9, "would-replace", "'ippo-test-3 name': would replace 'Crochet de test' with 'Zorb crochet'"),
        (
            0,
            "would-replace",
            "nothing imported: 2 entries would replace an existing 'fr' translation with a different text (listed with "
            "their lines); check that this file really is in 'fr', then run again with --replace to replace them",
        ),
    ]


def test_report_diff_and_files():
    """The diff is every change's diff, one after the other; the JSON names each change's file."""
    changes = [
        SimpleNamespace(path=Path("a.yaml"), diff=lambda roots: f"-a {len(roots)}\n"),
        SimpleNamespace(path=Path("b.yaml"), diff=lambda roots: "+b\n"),
    ]
    report = po_import.ImportReport("fr", changes=changes)
    assert report.diff([Path("x")]) == "-a 1\n+b\n"
    assert report.to_json()["files"] == ["a.yaml", "b.yaml"]


def test_refuse_installed_wording(monkeypatch):
    """A planned change in the installed catalog (asked file by file): the usage error, word for word;
    changes elsewhere pass."""

    shipped = {Path("zorb.yaml"): Path("/site/cardlab/cards")}
    monkeypatch.setattr(po_import, "installed_catalog_holding", lambda path: shipped.get(path))
    po_import._refuse_installed(po_import.ImportReport("fr", changes=[SimpleNamespace(path=Path("own.yaml"))]))  # not refused
    report = po_import.ImportReport("fr", changes=[SimpleNamespace(path=Path("own.yaml")), SimpleNamespace(path=Path("zorb.yaml"))])
    with pytest.raises(UsageError) as err:
        po_import._refuse_installed(report)
    assert str(err.value) == (
        "zorb.yaml is in the catalog installed with the cardlab package (/site/cardlab/cards); translations are not "
        "written there (an upgrade would lose them). Pass --catalog with the cards/ folder of your cardlab checkout "
        "(git clone the repository first), e.g. --catalog ~/cardlab/cards; --dry-run shows the diff"
    )


PLANNED = [  # set.yaml first: the file that fails below comes before the one that does not
    _entry(32, "ippo-test set.products[0].name", "スターター", "Zorb starter"),
    _entry(35, "ippo-test set.name", "テストセット", "Zorb set"),
    _entry(29, "ippo-test-2 name", "テストストレート", "Zorb direct"),
]


def _fail_for(name, error):
    """A stand-in that raises ``error`` for the file called ``name`` and does the real work for the others."""

    def fake(real):
        def wrapper(path, *args, **kwargs):
            if Path(path).name == name:
                raise error
            return real(path, *args, **kwargs)

        return wrapper

    return fake


def test_plan_with_a_file_that_cannot_be_rewritten(fixture_catalog, monkeypatch):
    """``render_edits`` refuses the first file: its problems, then ``not-applied`` at each of its
    entries, in order; the file after it is still planned."""
    from cardlab.core.errors import Problem, SourcePos
    from cardlab.i18n import writeback

    refusal = Problem(SourcePos(Path("set.yaml"), 7, 3), "zorb cannot be rewritten", "yaml")
    monkeypatch.setattr(writeback, "render_edits", _fail_for("set.yaml", DataError(refusal))(writeback.render_edits))
    report = po_import.plan(fixture_catalog, PLANNED, PO, "fr", replace=True)
    assert [(p.pos.path.name, p.pos.line, p.rule, p.message) for p in report.problems] == [
        ("set.yaml", 7, "yaml", "zorb cannot be rewritten"),
        ("zorb.po", 32, "not-applied", "'ippo-test set.products[0].name': not imported, set.yaml cannot be rewritten"),
        ("zorb.po", 35, "not-applied", "'ippo-test set.name': not imported, set.yaml cannot be rewritten"),
    ]
    assert [(c.path.name, c.kind) for c in report.changes] == [("2-test-straight.yaml", "card")]
    assert report.applied == ["ippo-test-2 name"]
    assert report.unchanged == 0


@pytest.mark.parametrize(
    ("error", "problem"),
    [
        (OSError("zorb: disk gone"), ("set.yaml", 0, "file", "zorb: disk gone")),
        ("load", ("zorb.yaml", 4, "encoding", "zorb is not UTF-8")),
    ],
)
def test_plan_with_a_file_that_cannot_be_read(fixture_catalog, monkeypatch, error, problem):
    """A file that cannot be read during the plan: one problem (the read error, or ``file`` at the
    file for an OS error), its entries not planned; the other file is still planned."""
    from cardlab.core import inputs
    from cardlab.core.errors import Problem, SourcePos

    if error == "load":
        error = inputs.LoadError(Problem(SourcePos(Path("zorb.yaml"), 4), "zorb is not UTF-8", "encoding"))
    monkeypatch.setattr(po_import, "read_text", _fail_for("set.yaml", error)(inputs.read_text))
    report = po_import.plan(fixture_catalog, PLANNED, PO, "fr", replace=True)
    assert [(p.pos.path.name, p.pos.line, p.rule, p.message) for p in report.problems] == [problem]
    assert [(c.path.name, c.kind) for c in report.changes] == [("2-test-straight.yaml", "card")]
    assert report.applied == ["ippo-test-2 name"]


def test_import_po_defaults(tmp_path, monkeypatch):
    """Called with a catalog and a PO file only: the language comes from the header, validation uses
    the default cache, and an entry that would replace a current translation is refused (nothing written)."""
    import shutil

    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    before = (root / "ippo" / "ippo-test" / "2-test-straight.yaml").read_bytes()
    po_path = tmp_path / "fr.po"
    po_path.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "ippo-test-2 name"\nmsgid "テストストレート"\nmsgstr "Zorb direct"\n',
        encoding="utf-8",
    )
    caches = []

    def recording(roots, cache_path):
        caches.append(cache_path)
        return validate(roots, cache_path=None)

    monkeypatch.setattr(po_import, "validate", recording)
    report = po_import.import_po([root], po_path)
    assert caches == ["default"]
    assert (report.lang, report.dry_run) == ("fr", False)
    assert [(p.pos.line, p.rule) for p in report.problems] == [(0, "would-replace"), (6, "would-replace")]
    assert report.written == []
    assert (root / "ippo" / "ippo-test" / "2-test-straight.yaml").read_bytes() == before


def test_plan_keeps_the_spaces_of_a_msgstr_whose_msgid_has_some(fixture_catalog, monkeypatch):
    """A source text with surrounding white space (here a final newline): its ``msgstr`` is taken as
    written; without, the ``msgstr`` is stripped."""
    import dataclasses

    from cardlab.i18n import strings, writeback

    real = strings.strings(fixture_catalog, "fr")
    spaced = {
        "ippo-test-1 name": dataclasses.replace(
            next(s for s in real if s.context == "ippo-test-1 name"), source="テストジャブ\n", translation=None
        ),
        "ippo-test-2 name": dataclasses.replace(next(s for s in real if s.context == "ippo-test-2 name"), translation=None),
    }
    monkeypatch.setattr(strings, "strings", lambda catalog, lang: list(spaced.values()))
    edits = []
    monkeypatch.setattr(writeback, "render_edits", lambda path, old, planned: (edits.extend(planned), old)[1])
    po = [
        _entry(5, "ippo-test-1 name", "テストジャブ\n", " Zorb jab\n"),
        _entry(9, "ippo-test-2 name", "テストストレート", " Zorb direct\n"),
    ]
    report = po_import.plan(fixture_catalog, po, PO, "fr")
    assert [(e.keys, e.text) for e in edits] == [(("name",), " Zorb jab\n"), (("name",), "Zorb direct")]
    assert (report.problems, report.unchanged) == ([], 2)


def test_import_po_refuses_the_installed_catalog_unless_dry_run(tmp_path, monkeypatch):
    """Files of the installed catalog: a real import is refused before writing; a dry run shows the change."""
    import shutil

    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    po_path = tmp_path / "fr.po"
    po_path.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "ippo-test set.products[0].name"\nmsgid "スターター"\nmsgstr "Zorb starter"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(po_import, "installed_catalog_holding", lambda path: root)
    report = po_import.import_po([root], po_path, dry_run=True, cache_path=None)
    assert ([c.path.name for c in report.changes], report.applied, report.problems) == (
        ["set.yaml"],
        ["ippo-test set.products[0].name"],
        [],
    )
    before = (root / "ippo" / "ippo-test" / "set.yaml").read_bytes()
    with pytest.raises(UsageError) as err:
        po_import.import_po([root], po_path, cache_path=None)
    assert str(err.value).startswith(
        f"{root / 'ippo' / 'ippo-test' / 'set.yaml'} is in the catalog installed with the cardlab package ({root})"
    )
    assert (root / "ippo" / "ippo-test" / "set.yaml").read_bytes() == before


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            OSError(28, "No space left on device", "set.yaml"),
            "writing the card files failed: No space left on device (set.yaml); every file is either as it was or fully "
            "updated: fix the cause and run the import again",
        ),
        (
            OSError("zorb"),
            "writing the card files failed: zorb; every file is either as it was or fully updated: fix the cause and run the import again",
        ),
    ],
)
def test_import_po_when_writing_fails(tmp_path, monkeypatch, error, message):
    """Writing fails: one error saying why (and which file, when known), word for word."""
    import shutil

    from cardlab.core.errors import CardlabError
    from cardlab.i18n import writeback

    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    po_path = tmp_path / "fr.po"
    po_path.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "ippo-test set.products[0].name"\nmsgid "スターター"\nmsgstr "Zorb starter"\n',
        encoding="utf-8",
    )

    def failing(changes, whole=False):
        raise error

    monkeypatch.setattr(writeback, "commit", failing)
    with pytest.raises(CardlabError) as err:
        po_import.import_po([root], po_path, cache_path=None)
    assert str(err.value) == message
