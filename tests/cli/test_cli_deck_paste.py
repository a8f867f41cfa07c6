"""Issue 10, kind F through the CLI: standard input, a catalog with a draft card, the documented exit
codes of deck stats / deck list, validate on a special file, and a file's own problems first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"


def test_standard_input(runner, catalog_copy):
    """Kind F: '-' reads the deck list from standard input."""
    text = "Format: pokemon-base\n" + ZAP.read_text(encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", "-", "--catalog", str(catalog_copy)], input=text)
    assert result.exit_code == 0, result.stderr
    assert "legal: <stdin> under pokemon-base (60 cards)" in result.stdout


@pytest.mark.parametrize("command", [["deck", "validate"], ["deck", "stats"], ["deck", "list"]])
def test_a_draft_card_in_the_catalog_is_a_warning(runner, catalog_copy, command):
    """Kind F: an invalid catalog file (a draft from card new) is a warning; the deck is checked
    against the valid cards and its own verdict sets the exit code."""
    (catalog_copy / "pokemon" / "base1" / "103-draft.yaml").write_text(
        'id: base1-103\nnumber: "103"\nname: {en: Draft}\n', encoding="utf-8"
    )
    result = runner.invoke(app, [*command, str(ZAP), "--format", "pokemon-base", "--catalog", str(catalog_copy)])
    assert result.exit_code == 0, result.stderr
    assert "103-draft.yaml" in result.stderr and "warning" in result.stderr


@pytest.mark.parametrize("command", [["deck", "stats"], ["deck", "list"], ["deck", "list", "-o", "json"], ["deck", "stats", "-o", "json"]])
def test_stats_and_list_exit_1_for_an_illegal_deck(runner, catalog_copy, tmp_path, command):
    """Kind F: deck stats and deck list follow the documented exit codes (1: not legal)."""
    deck = tmp_path / "short.txt"
    deck.write_text("4 Pikachu\n", encoding="utf-8")
    result = runner.invoke(app, [*command, str(deck), "--format", "pokemon-base", "--catalog", str(catalog_copy)])
    assert result.exit_code == 1, result.stderr
    assert result.stdout  # the statistics or the list are still printed


@pytest.mark.parametrize("path", ["/dev/null"])
def test_validate_a_special_file_is_a_usage_error(runner, path):
    """Kind F: validate /dev/null is a usage error (exit 2), not "ok: 0 files"."""
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 2 and "ok" not in result.stdout


def test_validate_an_empty_folder_is_a_usage_error(runner, tmp_path):
    """Kind F (sibling): a folder with no catalog file is not "ok: 0 files" either."""
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and "no catalog file" in result.stderr


def test_own_schema_errors_come_before_the_problems_they_cause(runner, catalog_copy):
    """Kind F: a broken Pikachu is reported as Pikachu's problem before Raichu's."""
    pikachu = catalog_copy / "pokemon" / "base1" / "58-pikachu.yaml"
    pikachu.write_text(pikachu.read_text(encoding="utf-8").replace("hp: 40", "hp: forty"), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--format", "json", "--catalog", str(catalog_copy)])
    problems = json.loads(result.stdout)["problems"]
    assert problems[0]["path"].endswith("58-pikachu.yaml"), problems
    raichu = [i for i, p in enumerate(problems) if p["path"].endswith("14-raichu.yaml")]
    assert all(i > 0 for i in raichu)
