"""cardlab.i18n.po_file: PO export and import, end to end on copies of the Base Set and the Ippo fixtures."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from cardlab.catalog.validate import validate
from cardlab.core.errors import CardlabError, DataError, InputError, UsageError
from cardlab.i18n import po_file as pofiles
from cardlab.i18n import po_import
from cardlab.i18n import strings as i18n
from cardlab.i18n import writeback as i18n_write
from tests.unit.i18n.test_strings import copy_base1

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "catalog"
OAK_EN = "Put your entire hand in the discard pile. Draw 7 cards."


@pytest.fixture
def base1(tmp_path) -> Path:
    """A catalog root with a private copy of the shipped Base Set, its rules text untranslated."""
    return copy_base1(tmp_path)


@pytest.fixture
def ippo(tmp_path) -> Path:
    """A catalog root with a private copy of the Ippo fixture set (Japanese source)."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def catalog(root: Path):
    return validate([root], cache_path=None).catalog


def export_to(root: Path, lang: str, path: Path, sets=None) -> polib.POFile:
    po = pofiles.export(catalog(root), lang, sets)
    pofiles.save(po, path, overwrite=True)
    return polib.pofile(str(path))


def translate(po_path: Path, translations: dict[str, str], unfuzzy: bool = False) -> None:
    """Play the translator: set msgstrs by context (as Poedit would) and save."""
    po = polib.pofile(str(po_path))
    for entry in po:
        if entry.msgctxt in translations:
            entry.msgstr = translations[entry.msgctxt]
            if unfuzzy and "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
    po.save(str(po_path))


def run_import(root: Path, po_path: Path, lang: str | None = "fr", dry_run: bool = False, replace: bool = False):
    return po_import.import_po([root], po_path, lang, dry_run=dry_run, cache_path=None, replace=replace)


# --- export ----------------------------------------------------------------------------------


def test_export_base1_french(base1, tmp_path):
    po = export_to(base1, "fr", tmp_path / "fr.po")
    assert po.metadata["Language"] == "fr"
    assert po.metadata["Content-Type"] == "text/plain; charset=UTF-8"
    assert len(po) == 339
    entries = {e.msgctxt: e for e in po}
    fire_spin = entries["base1-4 attacks[0].name"]
    assert (fire_spin.msgid, fire_spin.msgstr, fire_spin.fuzzy) == ("Fire Spin", "Danseflamme", False)
    assert fire_spin.comment == "Charizard (Dracaufeu) · Base Set (base1) #4 · attack name (en → fr)"
    assert fire_spin.occurrences == [("pokemon/base1/4-charizard.yaml", "")]
    assert (entries["base1-88 text"].msgid, entries["base1-88 text"].msgstr) == (OAK_EN, "")
    assert entries["base1 set.name"].msgstr == "Set de Base"
    assert len([e for e in po if e.msgstr]) == 223
    assert not [e for e in po if e.fuzzy]
    assert po.percent_translated() == 65  # 223 of 339, as polib and Poedit count


def test_export_is_stable(base1, tmp_path):
    export_to(base1, "fr", tmp_path / "a.po")
    export_to(base1, "fr", tmp_path / "b.po")
    assert (tmp_path / "a.po").read_bytes() == (tmp_path / "b.po").read_bytes()
    assert b"POT-Creation-Date" not in (tmp_path / "a.po").read_bytes()


def test_export_then_import_without_edits_changes_no_byte(base1, tmp_path):
    before = snapshot(base1)
    export_to(base1, "fr", tmp_path / "fr.po")
    report = run_import(base1, tmp_path / "fr.po")
    assert report.ok
    assert (report.entries, len(report.applied), report.unchanged, len(report.empty)) == (339, 0, 223, 116)
    assert report.changes == [] and report.written == []
    assert snapshot(base1) == before
    # a PO saved again by polib (as an editor would) changes nothing either
    po = polib.pofile(str(tmp_path / "fr.po"))
    po.save(str(tmp_path / "fr2.po"))
    assert run_import(base1, tmp_path / "fr2.po").written == []
    assert snapshot(base1) == before


def test_export_then_import_without_edits_japanese_source(ippo, tmp_path):
    before = snapshot(ippo)
    for lang in ("fr", "en"):
        export_to(ippo, lang, tmp_path / f"{lang}.po")
        report = run_import(ippo, tmp_path / f"{lang}.po", lang)
        assert report.ok and report.written == []
    assert snapshot(ippo) == before


# --- the translator's workflow ---------------------------------------------------------------


def test_french_translator_workflow(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    export_to(base1, "fr", po_path, ["base1"])
    translate(
        po_path,
        {
            "base1-88 text": "Mettez toute votre main dans la pile de défausse. Piochez ensuite 7 cartes.",
            "base1-94 text": "Retirez jusqu'à 2 marqueurs de dégâts de l'un de vos Pokémon.",
            "base1-4 attacks[0].text": "Pour lancer cette attaque, défaussez 2 cartes Énergie attachées à ce Pokémon.",
        },
    )
    report = run_import(base1, po_path)
    assert report.ok
    assert sorted(report.applied) == ["base1-4 attacks[0].text", "base1-88 text", "base1-94 text"]
    assert sorted(p.name for p in report.written) == ["4-charizard.yaml", "88-professor-oak.yaml", "94-potion.yaml"]
    oak = (base1 / "pokemon" / "base1" / "88-professor-oak.yaml").read_text(encoding="utf-8")
    assert (
        f"text:\n  en: {OAK_EN}\n"
        "  fr: Mettez toute votre main dans la pile de défausse. Piochez ensuite 7 cartes.\n"
        f"  _source: {{fr: {i18n.source_hash(OAK_EN)}}}\nrarity: Uncommon\n"
    ) in oak
    result = validate([base1], cache_path=None)
    assert result.problems == []
    cov = i18n.coverage(result.catalog, ["fr"])
    text_row = next(r for r in cov.rows if r.kind == "text")
    assert (text_row.total, text_row.translated, text_row.outdated) == (116, 3, 0)
    assert (cov.total("fr").translated, round(cov.total("fr").percent, 1)) == (226, 66.7)

    # the English source of Professor Oak changes: the translation is flagged outdated
    path = base1 / "pokemon" / "base1" / "88-professor-oak.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Draw 7 cards.", "Then draw 7 cards."), encoding="utf-8")
    cov = i18n.coverage(catalog(base1), ["fr"])
    assert next(r for r in cov.rows if r.kind == "text").outdated == 1
    po = export_to(base1, "fr", po_path)
    entry = next(e for e in po if e.msgctxt == "base1-88 text")
    assert entry.fuzzy and entry.msgid.endswith("Then draw 7 cards.")
    assert "source text changed" in entry.comment
    assert [e.msgctxt for e in po if e.fuzzy] == ["base1-88 text"]

    # importing the fuzzy entry as it is applies nothing and says so
    before = snapshot(base1)
    report = run_import(base1, po_path)
    assert report.ok and report.written == []
    assert [(w.rule, w.pos.line) for w in report.warnings] == [("fuzzy", entry.linenum)]
    assert snapshot(base1) == before

    # the translator updates it and clears the flag: the new hash is recorded
    translate(po_path, {"base1-88 text": "Mettez toute votre main dans la pile de défausse, puis piochez 7 cartes."}, unfuzzy=True)
    report = run_import(base1, po_path)
    assert report.applied == ["base1-88 text"]
    cov = i18n.coverage(catalog(base1), ["fr"])
    assert next(r for r in cov.rows if r.kind == "text").outdated == 0
    assert f"_source: {{fr: {i18n.source_hash(OAK_EN.replace('Draw', 'Then draw'))}}}" in path.read_text(encoding="utf-8")


def test_clearing_fuzzy_confirms_an_outdated_translation(base1, tmp_path):
    path = base1 / "pokemon" / "base1" / "88-professor-oak.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            f"  en: {OAK_EN}\n", f"  en: {OAK_EN}\n  fr: Défaussez votre main et piochez 7 cartes.\n  _source: {{fr: 0badc0de}}\n"
        ),
        encoding="utf-8",
    )
    po_path = tmp_path / "fr.po"
    export_to(base1, "fr", po_path)
    translate(po_path, {}, unfuzzy=True)
    po = polib.pofile(str(po_path))
    for e in po:
        e.flags = [f for f in e.flags if f != "fuzzy"]
    po.save(str(po_path))
    report = run_import(base1, po_path)
    assert report.applied == ["base1-88 text"]
    text = path.read_text(encoding="utf-8")
    assert f"  fr: Défaussez votre main et piochez 7 cartes.\n  _source: {{fr: {i18n.source_hash(OAK_EN)}}}\n" in text


def test_dry_run_shows_a_diff_and_writes_nothing(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    export_to(base1, "fr", po_path)
    translate(po_path, {"base1-94 text": "Retirez jusqu'à 2 marqueurs de dégâts de l'un de vos Pokémon."})
    before = snapshot(base1)
    report = run_import(base1, po_path, dry_run=True)
    assert snapshot(base1) == before
    assert report.written == [] and report.applied == ["base1-94 text"]
    h = i18n.source_hash("One of your Pokémon loses up to 2 damage counters.")
    assert report.diff([base1]) == (
        "--- a/pokemon/base1/94-potion.yaml\n+++ b/pokemon/base1/94-potion.yaml\n"
        "@@ -4,5 +4,7 @@\n supertype: Trainer\n text:\n   en: One of your Pokémon loses up to 2 damage counters.\n"
        "+  fr: Retirez jusqu'à 2 marqueurs de dégâts de l'un de vos Pokémon.\n"
        f"+  _source: {{fr: {h}}}\n rarity: Common\n illustrator: Keiji Kinebuchi\n"
    )


def test_japanese_source_with_french_and_english_targets(ippo, tmp_path):
    fr_path, en_path = tmp_path / "fr.po", tmp_path / "en.po"
    fr = export_to(ippo, "fr", fr_path)
    assert fr.metadata["Language"] == "fr"
    missing = [(e.msgctxt, e.msgid) for e in fr if not e.msgstr]
    assert missing == [
        ("ippo-test set.products[0].name", "スターター"),
        ("ippo-test-10 abilities[0].text", "このターン、このカードの防御力に1を加える。"),
        ("ippo-test-13 abilities[0].text", "自分のブローカードの打撃力に1を加える。"),
    ]
    translate(
        fr_path,
        {
            "ippo-test set.products[0].name": "Deck de démarrage",
            "ippo-test-10 abilities[0].text": "Ce tour-ci, cette carte gagne 1 de puissance de défense.",
            "ippo-test-13 abilities[0].text": "Vos cartes Coup gagnent 1 de force de frappe.",
        },
    )
    report = run_import(ippo, fr_path, None)  # the language comes from the PO header
    assert report.ok and report.lang == "fr" and len(report.applied) == 3
    cheering = (ippo / "ippo" / "ippo-test" / "13-test-cheering.yaml").read_text(encoding="utf-8")
    assert cheering.endswith(
        "abilities:\n- timing: constant\n  text:\n    ja: 自分のブローカードの打撃力に1を加える。\n"
        "    en: Your Blow cards get 1 more blow power.\n    fr: Vos cartes Coup gagnent 1 de force de frappe.\n"
        f"    _source: {{fr: {i18n.source_hash('自分のブローカードの打撃力に1を加える。')}}}\n"
    )
    result = validate([ippo], cache_path=None)
    cov = i18n.coverage(result.catalog, ["fr", "en"])
    assert (cov.total("fr").translated, cov.total("fr").total, cov.total("fr").percent) == (25, 25, 100.0)
    # English target: everything is already there; an edit to one name goes in with --replace
    export_to(ippo, "en", en_path)
    translate(en_path, {"ippo-test-1 name": "Test Jab!"})
    before = snapshot(ippo)
    report = run_import(ippo, en_path, "en")
    assert [p.rule for p in report.problems] == ["would-replace", "would-replace"] and report.applied == []
    assert snapshot(ippo) == before
    report = run_import(ippo, en_path, "en", replace=True)
    assert report.applied == ["ippo-test-1 name"]
    assert "en: Test Jab!" in (ippo / "ippo" / "ippo-test" / "1-test-jab.yaml").read_text(encoding="utf-8")


# --- bad input -------------------------------------------------------------------------------


def _po_text(entries: str, language: str = "fr") -> str:
    return f'msgid ""\nmsgstr ""\n"Language: {language}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + entries


@pytest.mark.parametrize(
    ("body", "line", "col", "words"),
    [
        ('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Dracaufeu\n', 8, 8, "double quotes"),
        ('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Dra"cau"feu"\n', 8, 8, "double quotes"),
        ('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr Dracaufeu\n', 8, 8, "double quotes"),
        ('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgtsr "Dracaufeu"\n', 8, 1, "unexpected 'msgtsr'"),
    ],
)
def test_po_syntax_error_is_reported_with_its_line(base1, tmp_path, body, line, col, words):
    po_path = tmp_path / "fr.po"
    po_path.write_text(_po_text(body), encoding="utf-8")
    before = snapshot(base1)
    with pytest.raises(DataError) as err:
        run_import(base1, po_path)
    problem = err.value.problems[0]
    assert (problem.pos.path, problem.pos.line, problem.pos.col, problem.rule) == (po_path, line, col, "po-syntax")
    assert words in problem.message
    assert snapshot(base1) == before


def test_po_syntax_error_found_by_polib_keeps_its_line(tmp_path, monkeypatch):
    po_path = tmp_path / "fr.po"
    monkeypatch.setattr(pofiles, "precheck", lambda text, path: None)  # let polib find it
    po_path.write_text(_po_text('msgid "a"\nmsgstr "b"\n"c"d"\n'), encoding="utf-8")
    with pytest.raises(DataError) as err:
        po_import.read(po_path)
    assert (err.value.problems[0].pos.line, err.value.problems[0].rule) == (8, "po-syntax")
    assert "unescaped double quote" in err.value.problems[0].message


def test_missing_po_file(tmp_path, base1):
    with pytest.raises(InputError, match="cannot read PO file"):
        run_import(base1, tmp_path / "nope.po")


def test_po_for_another_language(base1, tmp_path):
    po_path = tmp_path / "de.po"
    export_to(base1, "de", po_path)
    with pytest.raises(DataError) as err:
        run_import(base1, po_path, "fr")
    problem = err.value.problems[0]
    assert (problem.pos.line, problem.rule) == (7, "po-language")
    assert "this PO file is for 'de', not 'fr'" in problem.message
    assert po_path.read_text(encoding="utf-8").splitlines()[6] == '"Language: de\\n"'


def test_po_language_header_forms(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    po_path.write_text(_po_text('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Dracaufeu"\n', "fr_FR"), encoding="utf-8")
    assert run_import(base1, po_path, "fr").lang == "fr"  # a region in the header is fine for --lang fr
    assert run_import(base1, po_path, None, dry_run=True).lang == "fr-FR"
    po_path.write_text('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Dracaufeu"\n', encoding="utf-8")
    with pytest.raises(UsageError, match="no Language header"):
        run_import(base1, po_path, None)
    assert run_import(base1, po_path, "fr").unchanged == 1


def test_unknown_contexts_are_reported_and_nothing_applied(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    po_path.write_text(
        _po_text(
            'msgctxt "base1-999 name"\nmsgid "Missingno"\nmsgstr "Missingno"\n\n'
            'msgctxt "base1-4 attacks[5].name"\nmsgid "Fire Spin"\nmsgstr "Danse"\n\n'
            'msgid "Charizard"\nmsgstr "Dracaufeu"\n\n'
            'msgctxt "base1-94 text"\nmsgid "One of your Pokémon loses up to 2 damage counters."\n'
            'msgstr "Un de vos Pokémon perd jusqu\'à 2 marqueurs de dégâts."\n'
        ),
        encoding="utf-8",
    )
    before = snapshot(base1)
    report = run_import(base1, po_path)
    assert [(p.pos.line, p.rule) for p in report.problems] == [
        (0, "refused-entry"),
        (6, "unknown-context"),
        (10, "unknown-context"),
        (14, "no-context"),
    ]
    assert report.problems[0].message == (
        "nothing imported: 3 entries could not be imported (listed with their lines), so neither were the other"
        " 1 translation; fix or remove those entries and run again"
    )
    assert "no card or set 'base1-999'" in report.problems[1].message
    assert "card base1-4 has no translatable text at 'attacks[5].name'" in report.problems[2].message
    assert report.applied == [] and report.held_back == 1 and not report.ok
    assert snapshot(base1) == before  # all or nothing: the valid base1-94 entry is held back too


def test_duplicate_context_applies_neither(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    oak = 'msgctxt "base1-88 text"\nmsgid "' + OAK_EN + '"\n'
    po_path.write_text(_po_text(oak + 'msgstr "Une traduction."\n\n' + oak + 'msgstr "Une autre."\n'), encoding="utf-8")
    before = snapshot(base1)
    report = run_import(base1, po_path)
    assert [(p.pos.line, p.rule) for p in report.problems] == [(6, "duplicate-context"), (10, "duplicate-context")]
    assert "appears 2 times (also line 10)" in report.problems[0].message
    assert report.applied == [] and snapshot(base1) == before


def test_changed_source_is_not_applied(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    export_to(base1, "fr", po_path)
    translate(po_path, {"base1-88 text": "Défaussez votre main, piochez 7 cartes."})
    path = base1 / "pokemon" / "base1" / "88-professor-oak.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Draw 7 cards.", "Draw 6 cards."), encoding="utf-8")
    before = snapshot(base1)
    report = run_import(base1, po_path)
    assert [p.rule for p in report.problems] == ["changed-source"]
    assert "now 'Put your entire hand in the discard pile. Draw 6 cards.'" in report.problems[0].message
    assert snapshot(base1) == before


def test_translation_that_would_not_validate_leaves_every_file(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    export_to(base1, "fr", po_path)
    # a blank translation: white space is trimmed (the source has none), leaving an empty string
    translate(po_path, {"base1-4 name": "   ", "base1-94 text": "Un de vos Pokémon perd jusqu'à 2 marqueurs de dégâts."})
    charizard = base1 / "pokemon" / "base1" / "4-charizard.yaml"
    before = snapshot(base1)
    report = run_import(base1, po_path, replace=True)
    assert not report.ok
    schema = [(p.pos.line, p.pos.col, p.message) for p in report.problems if p.pos.path == charizard]
    assert (3, 27, "name.fr: must not be empty") in schema
    entry = next(e for e in polib.pofile(str(po_path)) if e.msgctxt == "base1-4 name")
    assert [(p.pos.line, p.rule) for p in report.problems if p.pos.path == po_path] == [
        (0, "refused-entry"),
        (entry.linenum, "not-applied"),
    ]
    # all or nothing: the valid Potion text is not written either (issue 32)
    assert snapshot(base1) == before
    assert report.applied == [] and report.written == [] and report.held_back == 1
    # a dry run reports the same and shows no diff
    dry = run_import(base1, po_path, dry_run=True, replace=True)
    assert (charizard, 3, 27) in [(p.pos.path, p.pos.line, p.pos.col) for p in dry.problems]
    assert [p.pos.line for p in dry.problems if p.rule == "not-applied"] == [entry.linenum]
    assert dry.diff([base1]) == "" and dry.applied == []


def test_source_language_is_not_a_target(base1, tmp_path):
    po_path = tmp_path / "en.po"
    po_path.write_text(_po_text('msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Charizard X"\n', "en"), encoding="utf-8")
    report = run_import(base1, po_path, "en")
    assert [p.rule for p in report.problems] == ["source-language"]
    assert "'en' is the source language" in report.problems[0].message


def _translated_po(base1: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    po_path = tmp_path / "fr.po"
    export_to(base1, "fr", po_path)
    texts = {
        "base1-88 text": "Mettez toute votre main dans la défausse. Piochez 7 cartes.",
        "base1-94 text": "Un de vos Pokémon perd jusqu'à 2 marqueurs de dégâts.",
        "base1-95 text": "Échangez votre Pokémon Actif avec l'un de vos Pokémon de Banc.",
    }
    translate(po_path, texts)
    return po_path, texts


def _old_or_new(base1: Path, before: dict[str, bytes], files: list[str]) -> dict[str, str]:
    states = {}
    for name in files:
        data = (base1 / "pokemon" / "base1" / name).read_bytes()
        old = before[f"pokemon/base1/{name}"]
        assert data == old or data.startswith(old[: old.index(b"rarity:")].rstrip(b"\n")), name
        states[name] = "old" if data == old else "new"
    return states


def test_interrupted_import_leaves_each_file_old_or_new(base1, tmp_path, monkeypatch):
    po_path, _ = _translated_po(base1, tmp_path)
    before = snapshot(base1)
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst):
        if calls:
            raise OSError(28, "No space left on device")
        calls.append(dst)
        real_replace(src, dst)

    monkeypatch.setattr(i18n_write.os, "replace", failing_replace)
    with pytest.raises(CardlabError, match="writing the card files failed: No space left on device; every file is either"):
        run_import(base1, po_path)
    monkeypatch.setattr(i18n_write.os, "replace", real_replace)
    files = ["88-professor-oak.yaml", "94-potion.yaml", "95-switch.yaml"]
    assert _old_or_new(base1, before, files) == {"88-professor-oak.yaml": "new", "94-potion.yaml": "old", "95-switch.yaml": "old"}
    assert [p.name for p in (base1 / "pokemon" / "base1").iterdir() if ".i18n-tmp" in p.name] == []  # cleaned up
    assert validate([base1], cache_path=None).problems == []
    report = run_import(base1, po_path)  # running it again finishes the job
    assert sorted(report.applied) == ["base1-94 text", "base1-95 text"] and report.unchanged == 224


KILLER = """
import os, signal, sys
from pathlib import Path
from cardlab.i18n import writeback as i18n_write
from cardlab.i18n import po_import as po
real = os.replace
def replace(src, dst):
    real(src, dst)
    os.kill(os.getpid(), signal.SIGKILL)   # killed right after the first file is replaced
i18n_write.os.replace = replace
po.import_po([Path(sys.argv[1])], Path(sys.argv[2]), "fr", cache_path=None)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_import_leaves_each_file_old_or_new(base1, tmp_path):
    po_path, _ = _translated_po(base1, tmp_path)
    before = snapshot(base1)
    proc = subprocess.run([sys.executable, "-c", KILLER, str(base1), str(po_path)], capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    files = ["88-professor-oak.yaml", "94-potion.yaml", "95-switch.yaml"]
    states = _old_or_new(base1, before, files)
    assert sorted(states.values()) == ["new", "old", "old"]
    # the killed process could not remove its other temporary files; they are not card files
    leftovers = [p.name for p in (base1 / "pokemon" / "base1").iterdir() if ".i18n-tmp" in p.name]
    assert len(leftovers) == 2 and all(n.startswith(".") and not n.endswith(".yaml") for n in leftovers)
    assert all(re.fullmatch(r"\.\d+-[a-z-]+\.yaml\.\d+-[^.]+\.i18n-tmp", n) for n in leftovers), leftovers  # the killed run's id
    assert validate([base1], cache_path=None).problems == []
    # issue 33: the next run removes what the killed one left (its process is gone)
    report = po_import.import_po([base1], po_path, "fr", cache_path=None)
    assert sorted(report.applied) == ["base1-94 text", "base1-95 text"]
    assert [p.name for p in (base1 / "pokemon" / "base1").iterdir() if ".i18n-tmp" in p.name] == []


def test_sweep_keeps_a_running_import_s_files_and_old_unnamed_ones_go(tmp_path):
    mine = tmp_path / f".1-a.yaml.{os.getpid()}-abc.i18n-tmp"  # this process runs
    old = tmp_path / ".1-a.yaml.k2j4.i18n-tmp"  # an older cardlab's name, no process id
    fresh = tmp_path / ".2-b.yaml.x9.i18n-tmp"
    card = tmp_path / "1-a.yaml"
    for p in (mine, old, fresh, card):
        p.write_text("x", encoding="utf-8")
    os.utime(old, (1_000, 1_000))
    assert i18n_write.sweep_stale(tmp_path) == [old]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, fresh.name, card.name])


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
def test_exported_po_passes_msgfmt_check(base1, tmp_path):
    path = base1 / "pokemon" / "base1" / "94-potion.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "counters.\n", "counters.\n  fr: Un Pokémon perd 2 marqueurs.\n  _source: {fr: 0badc0de}\n"
        ),
        encoding="utf-8",
    )
    po = export_to(base1, "fr", tmp_path / "fr.po")
    assert [e.msgctxt for e in po if e.fuzzy] == ["base1-94 text"]
    proc = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, str(tmp_path / "fr.po")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "223 translated messages, 1 fuzzy translation, 115 untranslated messages." in proc.stderr


# --- replacing translations, empty files, writing PO files (issue 5 follow-up) ----------------

POTION_EN = "One of your Pokémon loses up to 2 damage counters."


def test_an_import_never_replaces_a_translation_without_replace(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    po_path.write_text(_po_text(f'msgctxt "base1-94 text"\nmsgid "{POTION_EN}"\nmsgstr "Retirez 2 marqueurs."\n'), encoding="utf-8")
    assert run_import(base1, po_path).applied == ["base1-94 text"]
    # a translation imported before (it has a _source hash) is not replaced either ...
    po_path.write_text(
        _po_text(
            f'msgctxt "base1-94 text"\nmsgid "{POTION_EN}"\nmsgstr "Retirez jusqu\'à 2 marqueurs."\n\n'
            'msgctxt "base1-95 text"\nmsgid "Your Active Pokémon trades places with one of your Benched Pokémon."\n'
            'msgstr "Échangez votre Pokémon Actif."\n'
        ),
        encoding="utf-8",
    )
    before = snapshot(base1)
    report = run_import(base1, po_path)
    assert [(p.pos.line, p.rule) for p in report.problems] == [(0, "would-replace"), (6, "would-replace")]
    assert report.problems[1].message == "'base1-94 text': would replace 'Retirez 2 marqueurs.' with 'Retirez jusqu'à 2 marqueurs.'"
    assert "nothing imported: 1 entry would replace an existing 'fr' translation" in report.problems[0].message
    # ... and the other entry, which only adds a translation, is held back too
    assert report.applied == [] and report.held_back == 1 and report.to_json()["held_back"] == 1
    assert snapshot(base1) == before
    report = run_import(base1, po_path, replace=True)
    assert report.ok and sorted(report.applied) == ["base1-94 text", "base1-95 text"]
    assert "fr: Retirez jusqu'à 2 marqueurs." in (base1 / "pokemon" / "base1" / "94-potion.yaml").read_text(encoding="utf-8")


def test_an_outdated_translation_may_be_replaced_without_replace(base1, tmp_path):
    path = base1 / "pokemon" / "base1" / "94-potion.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "counters.\n", "counters.\n  fr: Un Pokémon perd 2 marqueurs.\n  _source: {fr: 0badc0de}\n"
        ),
        encoding="utf-8",
    )
    po_path = tmp_path / "fr.po"
    po_path.write_text(_po_text(f'msgctxt "base1-94 text"\nmsgid "{POTION_EN}"\nmsgstr "Retirez 2 marqueurs."\n'), encoding="utf-8")
    report = run_import(base1, po_path)
    assert report.ok and report.applied == ["base1-94 text"]
    assert f"  fr: Retirez 2 marqueurs.\n  _source: {{fr: {i18n.source_hash(POTION_EN)}}}\n" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("", "the PO file has no entries; nothing to import"),
        (
            '#~ msgctxt "base1-4 name"\n#~ msgid "Charizard"\n#~ msgstr "Dracaufeu"\n',
            "the PO file has no entries (1 obsolete entry, ignored); nothing to import",
        ),
    ],
)
def test_a_po_file_without_entries_is_a_problem(base1, tmp_path, body, words):
    po_path = tmp_path / "fr.po"
    po_path.write_text(_po_text(body), encoding="utf-8")
    report = run_import(base1, po_path)
    assert not report.ok and [(p.pos, p.message, p.rule) for p in report.problems] == [(pofiles.SourcePos(po_path), words, "empty-po")]


def test_a_context_three_times_names_the_other_lines(base1, tmp_path):
    po_path = tmp_path / "fr.po"
    oak = 'msgctxt "base1-88 text"\nmsgid "' + OAK_EN + '"\n'
    po_path.write_text(_po_text(oak + 'msgstr "A."\n\n' + oak + 'msgstr "B."\n\n' + oak + 'msgstr "C."\n'), encoding="utf-8")
    report = run_import(base1, po_path)
    assert "appears 3 times (also lines 10, 14)" in report.problems[0].message


@pytest.mark.parametrize(("n", "words"), [(0, "0 files"), (1, "1 file"), (2, "2 files")])
def test_count(n, words):
    assert pofiles.count(n, "file") == words
    assert pofiles.count(1, "entry", "entries") == "1 entry" and pofiles.count(3, "entry", "entries") == "3 entries"


def test_summary_uses_the_singular_for_one(base1, tmp_path):
    report = po_import.ImportReport(
        lang="fr",
        applied=["base1-4 name"],
        written=[tmp_path / "a.yaml"],
        problems=[pofiles.Problem(pofiles.SourcePos(tmp_path), "x", "y")],
    )
    assert report.summary() == "fr: imported 1 translation into 1 file; 0 unchanged, 0 empty (untranslated), 0 fuzzy, 1 problem"


def test_save_refuses_a_file_that_appears_while_writing(base1, tmp_path, monkeypatch):
    po = pofiles.export(catalog(base1), "fr", ["base1"])
    path = tmp_path / "fr.po"
    path.write_text("someone else's\n", encoding="utf-8")
    from cardlab.core import fs

    monkeypatch.setattr(
        fs, "check_output", lambda p, overwrite=False, example="", protected=(): Path(p).absolute()
    )  # as if it appeared after the check
    with pytest.raises(fs.OutputPathError, match="already exists; use --overwrite"):
        pofiles.save(po, path)
    assert path.read_text(encoding="utf-8") == "someone else's\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog", "fr.po"]
    pofiles.save(po, path, overwrite=True)
    assert len(polib.pofile(str(path))) == 339
