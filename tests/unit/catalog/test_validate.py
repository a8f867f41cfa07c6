"""cardlab validate: schema and cross-file rules, each bad input with its exact position."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from cardlab.catalog.validate import validate
from cardlab.cli.whole import app

# bad fixture -> (file name it takes in the set, expected "line:col: message" fragment, rule)
BAD = {
    "malformed.yaml": ("5-x.yaml", "5-x.yaml:4:10: YAML syntax: did not find expected ',' or '}'", "yaml"),
    "tab-indented.yaml": ("5-x.yaml", "5-x.yaml:4:1: YAML syntax: a tab character; indent YAML with spaces", "yaml"),
    "wrong-type.yaml": ("5-x.yaml", '5-x.yaml:6:5: hp: expected an integer, found "lots" (text)', "schema"),
    "unknown-field.yaml": ("5-x.yaml", "5-x.yaml:6:1: unknown field 'colour'", "schema"),
    "duplicate-id.yaml": ("1-copymon.yaml", "1-testmon.yaml:1:5: duplicate card id 'test1-1'", "unique-id"),
    "evolves-from-nothing.yaml": ("5-x.yaml", "5-x.yaml:8:15: evolves_from 'Nobodymon' names no Pokémon", "evolves-from"),
    "empty.yaml": ("5-x.yaml", "5-x.yaml:1:1: empty file", "yaml"),
    "alias-bomb.yaml": ("5-x.yaml", "5-x.yaml:1:4: YAML syntax: anchors and aliases are not allowed", "yaml"),
    "not-utf8.yaml": ("5-x.yaml", "5-x.yaml:3:15: not UTF-8 text (byte 0xe9)", "encoding"),
    "missing-source-language.yaml": ("5-x.yaml", "5-x.yaml:3:7: missing the source language 'en'", "source-language"),
    "beyond-total.yaml": ("11-farmon.yaml", "11-farmon.yaml:2:9: collector number 11 is beyond the set's printed total 10", "number-range"),
}


def test_fixture_set_is_valid(test_set):
    result = validate([test_set], cache_path=None)
    assert result.problems == []
    assert sorted(result.catalog.cards) == ["test1-1", "test1-2", "test1-3", "test1-4"]


def test_shipped_catalog_is_valid(runner):
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.stdout


@pytest.mark.parametrize("bad", sorted(BAD))
def test_bad_input_is_positioned(bad, runner, fixtures, test_set):
    target, expected, rule = BAD[bad]
    shutil.copy(fixtures / "bad" / "pokemon" / bad, test_set / "pokemon" / "test1" / target)
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1
    assert expected in result.stderr
    assert f"({rule})" in result.stderr
    assert "Traceback" not in result.output


def test_json_output(runner, fixtures, test_set):
    shutil.copy(fixtures / "bad" / "pokemon" / "wrong-type.yaml", test_set / "pokemon" / "test1" / "5-x.yaml")
    result = runner.invoke(app, ["validate", str(test_set), "--output-format", "json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    [problem] = report["problems"]
    assert (problem["line"], problem["column"], problem["rule"]) == (6, 5, "schema")
    assert problem["path"].endswith("5-x.yaml")


def test_single_file_reports_only_that_file(runner, fixtures, test_set):
    card = test_set / "pokemon" / "test1" / "5-x.yaml"
    shutil.copy(fixtures / "bad" / "pokemon" / "unknown-field.yaml", card)
    good = runner.invoke(app, ["validate", str(test_set / "pokemon" / "test1" / "1-testmon.yaml")])
    assert good.exit_code == 0
    bad = runner.invoke(app, ["validate", str(card)])
    assert bad.exit_code == 1 and "unknown field 'colour'" in bad.stderr


def test_missing_path_is_a_usage_error(runner, tmp_path):
    result = runner.invoke(app, ["validate", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "no such file or folder" in result.stderr


def test_cache_rechecks_only_changed_files(test_set, tmp_path):
    cache = tmp_path / "cache.sqlite"
    first = validate([test_set], cache_path=cache)
    assert first.reparsed == 5  # the set manifest and four cards
    again = validate([test_set], cache_path=cache)
    assert again.reparsed == 0 and again.problems == []
    card = test_set / "pokemon" / "test1" / "4-test-gadget.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("Draw 2 cards.", "Draw 3 cards."), encoding="utf-8")
    third = validate([test_set], cache_path=cache)
    assert third.reparsed == 1
    assert third.catalog.cards["test1-4"]["text"]["en"] == "Draw 3 cards."


def test_validate_as_a_real_process(tmp_path, fixtures, test_set):
    shutil.copy(fixtures / "bad" / "pokemon" / "wrong-type.yaml", test_set / "pokemon" / "test1" / "5-x.yaml")
    proc = subprocess.run(
        [sys.executable, "-m", "cardlab", "validate", str(test_set)], capture_output=True, text=True, encoding="utf-8", timeout=120
    )
    assert proc.returncode == 1
    assert '5-x.yaml:6:5: hp: expected an integer, found "lots" (text)' in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            'id: test1-5\nnumber: "5"\nname: {en: Twice}\nsupertype: Trainer\ntext: {en: A.}\nname: {en: Again}\n',
            "5-x.yaml:6:1: YAML syntax: the key 'name' is given twice (first on line 3)",
        ),
        (
            'id: test1-5\nnumber: "5"\nname: Plainname\nsupertype: Trainer\ntext: {en: A.}\n',
            '5-x.yaml:3:7: name: expected a map of fields, found "Plainname" (text)',
        ),
        ('id: test1-5\nnumber: "5"\nname:\nsupertype: Trainer\ntext: {en: A.}\n', "5-x.yaml:"),
        (
            'id: test1-5\nnumber: "5"\nname: {en: 5}\nsupertype: Trainer\ntext: {en: A.}\n',
            "name.en: expected text, found 5 (a YAML integer)",
        ),
        (
            'id: test1-5\nnumber: "5"\nname: {en: Evil\x07name}\nsupertype: Trainer\ntext: {en: A.}\n',
            "5-x.yaml:3:16: control character 0x07 is not allowed",
        ),
        (
            'id: test1-5\nnumber: "5"\nname: {en: "Evil\\x1b]0;x\\x07"}\nsupertype: Trainer\ntext: {en: A.}\n',
            '5-x.yaml:3:12: name.en: "Evil\\u001b]0;x\\u0007" does not have the expected form (one line of text, without control characters',
        ),
        (
            'id: test1-5\nnumber: "5"\nname: {en: X}\nsupertype: Pokemon\n',
            '5-x.yaml:4:12: supertype: "Pokemon" is not one of "Pokémon", "Trainer", "Energy"',
        ),
        (
            'id: test1-5\nnumber: "5"\nname: {en: X}\nsupertype: Trainer\ntext: {en: A.}\n---\nid: x\n',
            "5-x.yaml:6:1: YAML syntax: a second YAML document",
        ),
        ('id: test1-5\nnumber: "5"\nname: {en: X\x00}\n', "5-x.yaml:3:13: a NUL byte"),
    ],
)
def test_more_bad_cards_never_crash(text, expected, runner, test_set):
    (test_set / "pokemon" / "test1" / "5-x.yaml").write_bytes(text.encode("utf-8"))
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1, result.output
    assert expected in result.stderr
    assert isinstance(result.exception, SystemExit)  # a clean exit, not a crash
    # a search answers from the other cards, the bad file as a positioned warning (issue 33)
    result = runner.invoke(app, ["search", "testmon", "--catalog", str(test_set), "-O", "ids"])
    assert (result.exit_code, result.stdout.split()) == (0, ["test1-1", "test1-2"]), result.output
    assert expected in result.stderr


def test_bad_language_key_reports_only_itself(runner, test_set):
    (test_set / "pokemon" / "test1" / "5-x.yaml").write_text(
        'id: test1-5\nnumber: "5"\nname: {en: X, "bad lang": Y}\nsupertype: Trainer\ntext: {en: A.}\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["validate", str(test_set)])
    lines = [ln for ln in result.stderr.splitlines() if "5-x.yaml" in ln]
    assert len(lines) == 1 and "unknown field 'bad lang'" in lines[0]


def test_broken_set_file_is_reported_once(runner, test_set):
    (test_set / "pokemon" / "test1" / "set.yaml").write_text("code: [a]\ngame: pokemon\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1
    assert all("set.yaml" in ln for ln in result.stderr.splitlines()[:-1])
    assert "Traceback" not in result.output


def test_missing_set_file_is_reported_once(runner, test_set):
    (test_set / "pokemon" / "test1" / "set.yaml").unlink()
    result = runner.invoke(app, ["validate", str(test_set / "pokemon")])
    assert result.exit_code == 1
    assert result.stderr.count("missing-set") == 1


def test_names_are_one_line(runner, test_set):
    (test_set / "pokemon" / "test1" / "5-x.yaml").write_text(
        'id: test1-5\nnumber: "5"\nname: {en: "Two\\nLines"}\nsupertype: Trainer\ntext: {en: "Rules may\\nbreak lines."}\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1
    [line] = [ln for ln in result.stderr.splitlines() if "5-x.yaml" in ln]
    assert "5-x.yaml:3:12: name.en:" in line and "one line of text" in line


def test_problems_only_runs_read_card_summaries(test_set, tmp_path):
    cache = tmp_path / "c.sqlite"
    validate([test_set], cache_path=cache)
    slim = validate([test_set], cache_path=cache, full=False)
    assert slim.reparsed == 0 and slim.problems == []
    assert set(slim.catalog.cards["test1-2"]) == {"id", "number", "name", "supertype", "stage", "evolves_from", "hp"}
    full = validate([test_set], cache_path=cache)
    assert full.catalog.cards["test1-2"]["attacks"][0]["damage"] == "20×"
