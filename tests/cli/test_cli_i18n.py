"""``cardlab i18n`` status / export / import / hash through typer's CliRunner."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import polib
import pytest

from cardlab.cli.whole import app
from tests.unit.i18n.test_strings import copy_base1

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def base1(tmp_path) -> Path:
    """A catalog root with a private copy of the shipped Base Set, its rules text untranslated."""
    return copy_base1(tmp_path)


def test_status_json(runner, base1):
    result = runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--output-format", "json"])
    assert result.exit_code == 0, result.stderr
    fr = json.loads(result.stdout)["languages"][0]
    assert (fr["lang"], fr["total"], fr["translated"], fr["outdated"], fr["missing"], fr["percent"]) == ("fr", 339, 223, 0, 116, 65.8)
    kinds = {k["kind"]: (k["total"], k["translated"]) for k in fr["sets"][0]["kinds"]}
    assert kinds == {"name": (102, 102), "attack": (120, 120), "text": (116, 0), "set": (1, 1)}


def test_status_table(runner, base1):
    result = runner.invoke(app, ["i18n", "status", "--lang", "fr,de", "--catalog", str(base1)])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Translation coverage: fr" in out and "Translation coverage: de" in out
    rows = [line.split() for line in out.splitlines()]
    assert ["base1", "card", "name", "102", "102", "0", "0", "100.0"] in rows
    assert ["rules", "text", "116", "0", "0", "116", "0.0"] in rows
    assert ["all", "339", "223", "0", "116", "65.8"] in rows


def test_status_fail_under(runner, base1):
    result = runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--fail-under", "70"])
    assert result.exit_code == 1
    assert "fr: coverage 65.8% is under 70%" in result.stderr
    result = runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--fail-under", "65"])
    assert result.exit_code == 0


def test_status_unknown_set(runner, base1):
    result = runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--set", "jungle"])
    assert result.exit_code == 2
    assert "no set 'jungle' in the catalog (known: base1)" in result.stderr


def test_export_translate_import(runner, base1, tmp_path):
    po_path = tmp_path / "fr.po"
    result = runner.invoke(app, ["i18n", "export", "--lang", "fr", "--set", "base1", "--catalog", str(base1), "-o", str(po_path)])
    assert result.exit_code == 0, result.stderr
    assert f"wrote {po_path}: 339 strings for 'fr', 223 translated, 0 fuzzy" in result.stderr
    po = polib.pofile(str(po_path))
    for entry in po:
        if entry.msgctxt == "base1-94 text":
            entry.msgstr = "Un de vos Pokémon perd jusqu'à 2 marqueurs de dégâts."
    po.save(str(po_path))

    result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1), "--dry-run"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("--- a/pokemon/base1/94-potion.yaml\n+++ b/pokemon/base1/94-potion.yaml\n")
    assert "+  fr: Un de vos Pokémon perd jusqu'à 2 marqueurs de dégâts.\n" in result.stdout
    assert (
        "fr: would import 1 translation into 1 file; 223 unchanged, 115 empty (untranslated), 0 fuzzy, 0 problems (dry run" in result.stderr
    )
    assert "fr: Un de vos" not in (base1 / "pokemon" / "base1" / "94-potion.yaml").read_text(encoding="utf-8")

    result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1)])
    assert result.exit_code == 0, result.stderr
    assert "fr: imported 1 translation into 1 file;" in result.stderr
    assert "fr: Un de vos" in (base1 / "pokemon" / "base1" / "94-potion.yaml").read_text(encoding="utf-8")
    status = json.loads(runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--output-format", "json"]).stdout)
    assert status["languages"][0]["translated"] == 224


def test_export_to_stdout_and_language_from_the_environment(runner, base1, monkeypatch):
    monkeypatch.setenv("CARDLAB_LANG", "de")
    result = runner.invoke(app, ["i18n", "export", "--catalog", str(base1)])
    assert result.exit_code == 0, result.stderr
    po = polib.pofile(result.stdout)
    assert po.metadata["Language"] == "de" and len(po) == 339
    assert next(e for e in po if e.msgctxt == "base1-4 name").msgstr == "Glurak"


def test_export_needs_one_language(runner, base1, monkeypatch, tmp_path):
    result = runner.invoke(app, ["i18n", "export", "--catalog", str(base1)])
    assert result.exit_code == 2 and "say which language to translate into: --lang fr" in result.stderr
    result = runner.invoke(app, ["i18n", "export", "--lang", "fr,de", "--catalog", str(base1)])
    assert result.exit_code == 2 and "one language at a time (got fr, de)" in result.stderr


def test_import_errors(runner, base1, tmp_path):
    po_path = tmp_path / "de.po"
    runner.invoke(app, ["i18n", "export", "--lang", "de", "--catalog", str(base1), "-o", str(po_path)])
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--lang", "fr", "--catalog", str(base1)])
    assert result.exit_code == 1
    assert f"{po_path}:7: this PO file is for 'de', not 'fr'" in result.stderr and "(po-language)" in result.stderr
    # a language cardlab does not know is a usage error, whatever the file says (exit 2, the known ones named)
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--lang", "zz", "--catalog", str(base1)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --lang: unknown language 'zz'; cardlab knows en (English), fr (Français), de (Deutsch)")

    bad = tmp_path / "bad.po"
    bad.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "base1-4 name"\nmsgid "Charizard\nmsgstr ""\n', encoding="utf-8")
    result = runner.invoke(app, ["i18n", "import", str(bad), "--catalog", str(base1)])
    assert result.exit_code == 2  # an unreadable PO file is a usage error, with its place
    assert f"{bad}:6:7: PO syntax: a string must be one line in double quotes" in result.stderr

    unknown = tmp_path / "unknown.po"
    unknown.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "base1-200 name"\nmsgid "X"\nmsgstr "Y"\n', encoding="utf-8")
    result = runner.invoke(app, ["i18n", "import", str(unknown), "--catalog", str(base1)])
    assert result.exit_code == 1
    assert f"{unknown}:5: 'base1-200 name': no card or set 'base1-200' in the catalog (unknown-context)" in result.stderr
    result = runner.invoke(app, ["i18n", "import", str(unknown), "--catalog", str(base1), "--output-format", "json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["problems"][0]["rule"] == "unknown-context" and report["applied"] == 0


def test_hash_command(runner):
    result = runner.invoke(app, ["i18n", "hash", "Charizard"])
    assert (result.exit_code, result.stdout) == (0, "f474e615\n")


@pytest.mark.parametrize("command", ["status", "export", "import", "hash"])
def test_every_command_has_help(runner, command):
    result = runner.invoke(app, ["i18n", command, "--help"])
    assert result.exit_code == 0 and "Example: cardlab i18n" in " ".join(result.stdout.split())


# --- hostile input (issue 5 follow-up) -------------------------------------------------------


def export_args(base1: Path, *more: str) -> list[str]:
    return ["i18n", "export", "--lang", "fr", "--catalog", str(base1), *more]


def test_export_into_a_folder_or_a_missing_folder_is_a_usage_error(runner, base1, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    result = runner.invoke(app, export_args(base1, "-o", str(folder)))
    assert result.exit_code == 2, result.output
    assert f"error: {folder} is a folder; give a file name such as {folder / 'fr.po'}" in result.stderr
    missing = tmp_path / "nodir" / "x.po"
    result = runner.invoke(app, export_args(base1, "-o", str(missing)))
    assert result.exit_code == 2, result.output
    assert f"error: cannot write {missing}: folder {missing.parent} does not exist" in result.stderr
    assert sorted(p.name for p in tmp_path.rglob("*") if p.parent in (tmp_path, folder)) == ["catalog", "out"]


def test_export_refuses_to_overwrite_without_the_option(runner, base1, tmp_path):
    po_path = tmp_path / "fr.po"
    po_path.write_text("my own work\n", encoding="utf-8")
    result = runner.invoke(app, export_args(base1, "-o", str(po_path)))
    assert result.exit_code == 2
    assert f"error: {po_path} already exists; use --overwrite to replace it" in result.stderr
    assert po_path.read_text(encoding="utf-8") == "my own work\n"
    result = runner.invoke(app, export_args(base1, "-o", str(po_path), "--overwrite"))
    assert result.exit_code == 0, result.stderr
    assert len(polib.pofile(str(po_path))) == 339
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog", "fr.po"]


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o027])
def test_exported_file_mode_follows_the_umask(runner, base1, tmp_path, umask):
    po_path = tmp_path / "fr.po"
    old = os.umask(umask)
    try:
        result = runner.invoke(app, export_args(base1, "-o", str(po_path)))
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(po_path.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize("percent", ["150", "-5", "100.5"])
def test_fail_under_is_a_percentage(runner, base1, percent):
    result = runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--fail-under", percent])
    assert result.exit_code == 2
    assert "--fail-under" in result.stderr and "0<=x<=100" in result.stderr


def test_fail_under_accepts_the_bounds(runner, base1):
    assert runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--fail-under", "0"]).exit_code == 0
    assert runner.invoke(app, ["i18n", "status", "--lang", "fr", "--catalog", str(base1), "--fail-under", "100"]).exit_code == 1


def test_import_of_an_empty_po_file_fails(runner, base1, tmp_path):
    empty = tmp_path / "empty.po"
    empty.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n', encoding="utf-8")
    result = runner.invoke(app, ["i18n", "import", str(empty), "--catalog", str(base1)])
    assert result.exit_code == 1
    assert f"{empty}: the PO file has no entries; nothing to import (empty-po)" in result.stderr
    assert "fr: imported 0 translations into 0 files; 0 unchanged, 0 empty (untranslated), 0 fuzzy, 1 problem\n" in result.stderr


def test_mislabelled_po_file_does_not_replace_official_names(runner, base1, tmp_path):
    po_path = tmp_path / "fr.po"
    assert runner.invoke(app, export_args(base1, "-o", str(po_path))).exit_code == 0
    po_path.write_text(po_path.read_text(encoding="utf-8").replace('"Language: fr\\n"', '"Language: de\\n"'), encoding="utf-8")
    line = next(e.linenum for e in polib.pofile(str(po_path)) if e.msgctxt == "base1-4 name")
    before = {p: p.read_bytes() for p in base1.rglob("*.yaml")}
    for extra, summary in (([], "de: imported 0 translations into 0 files"), (["--dry-run"], "de: would import 0 translations")):
        result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1), *extra])
        assert result.exit_code == 1
        assert f"{po_path}:{line}: 'base1-4 name': would replace 'Glurak' with 'Dracaufeu' (would-replace)" in result.stderr
        assert f"{po_path}: nothing imported: " in result.stderr and "run again with --replace" in result.stderr
        assert summary in result.stderr
        assert result.stdout == ""
        assert {p: p.read_bytes() for p in base1.rglob("*.yaml")} == before
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1), "--replace"])
    assert result.exit_code == 0, result.stderr
    assert "de: Dracaufeu" in (base1 / "pokemon" / "base1" / "4-charizard.yaml").read_text(encoding="utf-8")


def test_a_name_with_a_line_break_is_reported_not_imported(runner, base1, tmp_path):
    po_path = tmp_path / "es.po"
    po_path.write_text(
        'msgid ""\nmsgstr ""\n"Language: es\\n"\n\nmsgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Energía\\nCombate"\n',
        encoding="utf-8",
    )
    charizard = base1 / "pokemon" / "base1" / "4-charizard.yaml"
    old = charizard.read_bytes()
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1)])
    assert result.exit_code == 1, result.output
    assert (
        f"{po_path}:5: 'base1-4 name': the translation of 'Charizard' holds U+000A (LINE FEED) at character 8; "
        "a name is one line: remove it (hidden-character)"
    ) in result.stderr
    assert "Traceback" not in result.output and charizard.read_bytes() == old


@pytest.mark.parametrize(
    ("msgstr", "code", "name", "at"),
    [
        ("Dracau\u202efeu", "202E", "RIGHT-TO-LEFT OVERRIDE", 7),
        ("\u2066Dracaufeu\u2069", "2066", "LEFT-TO-RIGHT ISOLATE", 1),
        ("Dracau\u2028feu", "2028", "LINE SEPARATOR", 7),
        ("Drac\u0085aufeu", "0085", "NEXT LINE", 5),
        ("Dracau\u001bfeu", "001B", "ESCAPE", 7),
        ("Dracau\tfeu", "0009", "CHARACTER TABULATION", 7),
    ],
)
def test_hidden_characters_in_a_translation_are_refused(runner, base1, tmp_path, msgstr, code, name, at):
    po_path = tmp_path / "fr.po"
    po_path.write_text(
        f'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "{msgstr}"\n',
        encoding="utf-8",
    )
    charizard = base1 / "pokemon" / "base1" / "4-charizard.yaml"
    old = charizard.read_bytes()
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1), "--replace"])
    assert result.exit_code == 1, result.output
    assert f"{po_path}:5: 'base1-4 name': the translation of 'Charizard' holds U+{code} ({name}) at character {at}" in result.stderr
    assert "(hidden-character)" in result.stderr and charizard.read_bytes() == old


@pytest.mark.parametrize("extra", [["--replace"], [], ["--dry-run"]])
def test_one_refused_entry_imports_nothing(runner, base1, tmp_path, extra):
    """Issue 32, nothing lost: a hidden character in one entry holds back the valid other one too."""
    po_path = tmp_path / "mixed.po"
    po_path.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Dracau\u202efeu"\n\n'
        'msgctxt "base1-94 text"\nmsgid "One of your Pokémon loses up to 2 damage counters."\n'
        'msgstr "Un de vos Pokémon perd jusqu\'à 2 marqueurs de dégâts."\n',
        encoding="utf-8",
    )
    before = {p: p.read_bytes() for p in base1.rglob("*.yaml")}
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--catalog", str(base1), *extra])
    assert result.exit_code == 1, result.output
    assert f"{po_path}:5: 'base1-4 name': the translation of 'Charizard' holds U+202E (RIGHT-TO-LEFT OVERRIDE)" in result.stderr
    assert (
        f"{po_path}: nothing imported: 1 entry could not be imported (listed with their lines), so neither were the other"
        " 1 translation; fix or remove those entries and run again (refused-entry)"
    ) in result.stderr
    verb = "would import" if extra == ["--dry-run"] else "imported"
    assert f"fr: {verb} 0 translations into 0 files; 0 unchanged, 0 empty (untranslated), 0 fuzzy, 2 problems" in result.stderr
    assert result.stdout == ""
    assert {p: p.read_bytes() for p in base1.rglob("*.yaml")} == before  # byte for byte


def test_a_rules_text_keeps_its_line_breaks_but_not_a_bidi_override():
    from cardlab.i18n.po_import import hidden_character

    assert hidden_character("Piochez 2 cartes.\nPuis défaussez.", "text") is None
    assert hidden_character("Piochez\t2 cartes.", "text") is None
    assert hidden_character("Piochez \u202e2 cartes.", "text") == (
        "holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 9; card text holds no control, line-separator or bidi character: remove it"
    )
    assert hidden_character("A\nB", "name", source="X\nY") is None  # the source holds one too


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\x00\x01PO\xff", "bin.po:1:1: a NUL byte: this is a binary file, not a PO file (encoding)"),
        (b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "x"\nmsgstr "\xe9"\n', "bin.po:6:9: not UTF-8 text (byte 0xe9)"),
        (b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nzorb\n', "bin.po:5:1: PO syntax: unexpected 'zorb'"),
    ],
)
def test_an_unreadable_po_file_is_a_usage_error_at_its_place(runner, tmp_path, monkeypatch, raw, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bin.po").write_bytes(raw)
    result = runner.invoke(app, ["i18n", "import", "bin.po", "--dry-run"])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
