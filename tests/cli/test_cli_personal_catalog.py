"""A collector's own cards layered over the shipped catalog (issue 33, item 5): a personal folder of
card files only, or a set.yaml that says `extends: <set code>`, adds cards to a shipped set with no
`unique-set` and no copy of the shipped files; rules text not yet transcribed from the card."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
SHIPPED_IPPO = REPO / "cards" / "ippo"  # the shipped Ippo set (a game folder is a catalog root)
PERSONAL = REPO / "tests" / "fixtures" / "personal"  # five fictional cards in ippo/ippo1/, no set.yaml
FIVE = ["ippo1-101", "ippo1-102", "ippo1-103", "ippo1-104", "ippo1-105"]
DECK = """Format: ippo-4-rounds
4 コレクターテストジャブ
4 Collector Test Hook
4 ippo1-103
4 コレクターテストパリー
4 コレクターテストゴング
"""


@pytest.fixture
def deck(tmp_path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text(DECK, encoding="utf-8")
    return path


def test_card_files_beside_the_shipped_set_join_it():
    result = validate([SHIPPED_IPPO, PERSONAL], cache_path=None)
    assert result.problems == []
    assert sorted(i for i, code in result.catalog.card_set.items() if code == "ippo1") == FIVE
    assert result.catalog.paths["ippo1-101"] == PERSONAL / "ippo" / "ippo1" / "101-collector-test-jab.yaml"


def test_a_set_yaml_that_extends_the_shipped_set(tmp_path):
    mine = tmp_path / "mine" / "ippo" / "my-ippo-cards"
    shutil.copytree(PERSONAL / "ippo" / "ippo1", mine)
    (mine / "set.yaml").write_text("extends: ippo1\nnotes: my own cards\n", encoding="utf-8")
    result = validate([SHIPPED_IPPO, tmp_path / "mine"], cache_path=None)
    assert result.problems == []
    assert sorted(i for i, code in result.catalog.card_set.items() if code == "ippo1") == FIVE
    assert sorted(result.catalog.sets) == ["ippo1"]


def test_extends_of_an_unknown_set_is_a_positioned_problem(tmp_path):
    mine = tmp_path / "mine" / "ippo" / "my-ippo-cards"
    shutil.copytree(PERSONAL / "ippo" / "ippo1", mine)
    (mine / "set.yaml").write_text("extends: ippo9\n", encoding="utf-8")
    result = validate([SHIPPED_IPPO, tmp_path / "mine"], cache_path=None)
    found = [(p.pos.line, p.pos.col, p.message, p.rule) for p in result.problems if p.pos.path.name == "set.yaml"]
    assert found == [(1, 10, "extends 'ippo9', a set no catalog root has", "extends")]


def test_a_copied_manifest_still_collides(tmp_path):
    """A personal folder holding a copy of the shipped set.yaml (no `extends`) is a second set of the same code."""
    mine = tmp_path / "mine" / "ippo" / "ippo1"
    shutil.copytree(PERSONAL / "ippo" / "ippo1", mine)
    shutil.copy(SHIPPED_IPPO / "ippo1" / "set.yaml", mine / "set.yaml")
    rules = {p.rule for p in validate([SHIPPED_IPPO, tmp_path / "mine"], cache_path=None).problems}
    assert "unique-set" in rules


def test_untranscribed_rules_text_may_lack_japanese_but_the_name_may_not(tmp_path):
    mine = tmp_path / "mine" / "ippo" / "ippo1"
    shutil.copytree(PERSONAL / "ippo" / "ippo1", mine)
    card = mine / "105-collector-test-bell.yaml"
    text = card.read_text(encoding="utf-8")
    card.write_text(text.replace("transcribed: false\n", ""), encoding="utf-8")
    found = [(p.pos.line, p.message) for p in validate([SHIPPED_IPPO, tmp_path / "mine"], cache_path=None).problems]
    assert found == [(13, "missing the source language 'ja'")]
    card.write_text(
        text.replace("name: {ja: コレクターテストゴング, en: Collector Test Bell}", "name: {en: Collector Test Bell}"), encoding="utf-8"
    )
    found = [(p.pos.line, p.message) for p in validate([SHIPPED_IPPO, tmp_path / "mine"], cache_path=None).problems]
    assert found == [(5, "missing the source language 'ja'")]


def test_collector_checks_a_deck_with_five_own_cards(runner, deck, tmp_path):
    """The issue's 'done when': five own cards beside the shipped set, a deck checked with them."""
    roots = ["--catalog", str(SHIPPED_IPPO), "--catalog", str(PERSONAL)]
    result = runner.invoke(app, ["deck", "validate", str(deck), *roots, "-O", "json"])
    assert result.exit_code == 1, result.output  # 20 cards: the 4-round format wants 40

    report = json.loads(result.stdout)
    assert [(p["rule"], p["message"]) for p in report["problems"]] == [("deck-size", "the deck holds 20 cards; exactly 40 needed")]
    assert [line["id"] for line in report["lines"]] == FIVE
    stats = runner.invoke(app, ["deck", "stats", str(deck), *roots])
    assert stats.exit_code == 1, stats.output  # the figures, and the verdict's exit status
    assert "blow       8" in stats.stdout
    shown = runner.invoke(app, ["show", "ippo1-105", *roots])
    assert shown.exit_code == 0, shown.output
    assert "not yet: the rules text is recorded in another language" in shown.stdout
    found = runner.invoke(app, ["search", "set:ippo1", *roots, "-O", "ids"])
    assert found.stdout.split() == FIVE


def test_collector_deck_and_search_through_a_postgresql_index(runner, deck, pg_index_url, monkeypatch):
    """The same layered catalog indexed on a PostgreSQL server: the five own cards found and counted."""
    monkeypatch.setenv("CARDLAB_DB", pg_index_url)
    roots = ["--catalog", "shipped", "--catalog", str(PERSONAL)]
    built = runner.invoke(app, ["index", *roots])
    assert built.exit_code == 0, built.output
    found = runner.invoke(app, ["search", "set:ippo1", *roots, "-O", "ids"])
    assert found.exit_code == 0, found.output
    assert found.stdout.split() == FIVE
    result = runner.invoke(app, ["deck", "validate", str(deck), *roots, "-O", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [(p["rule"], p["message"]) for p in report["problems"]] == [("deck-size", "the deck holds 20 cards; exactly 40 needed")]
    assert [line["id"] for line in report["lines"]] == FIVE


def test_collector_catalog_from_the_environment_in_a_real_process(deck, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDLAB_")}
    env.update(
        CARDLAB_CACHE_DIR=str(tmp_path / "cache"),
        CARDLAB_DB=str(tmp_path / "index.sqlite"),
        CARDLAB_CATALOG=os.pathsep.join([str(SHIPPED_IPPO), str(PERSONAL)]),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "cardlab", "deck", "validate", str(deck)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1, proc.stderr
    assert f"{deck}:2: deck-size: the deck holds 20 cards; exactly 40 needed" in proc.stdout + proc.stderr
    assert "unique-set" not in proc.stdout + proc.stderr


def test_the_word_shipped_names_the_shipped_catalog(runner, deck):
    """`--catalog shipped --catalog mine`, the form the issue quotes: the shipped cards and five of one's own."""
    result = runner.invoke(app, ["deck", "validate", str(deck), "--catalog", "shipped", "--catalog", str(PERSONAL), "-O", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [(p["rule"], p["message"]) for p in report["problems"]] == [("deck-size", "the deck holds 20 cards; exactly 40 needed")]
    assert [line["id"] for line in report["lines"]] == FIVE


@pytest.fixture
def shipped_copy(tmp_path, monkeypatch) -> Path:
    """A copy of the shipped Ippo set standing in for the shipped catalog (nothing written into the repository)."""
    root = tmp_path / "shipped"
    shutil.copytree(SHIPPED_IPPO, root / "ippo")
    monkeypatch.setattr("cardlab.core.paths.shipped_catalog_folder", lambda: str(root))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "home" / "mine").mkdir(parents=True)
    return root


CSV = (
    "number,name,name.en,kind,stars,blow_type,start_cost.generic,blow_power,abilities.1.text.en,transcribed\n"
    "106,コレクターテストアッパー,Collector Test Uppercut,blow,1,upper,1,4,Strike twice.,false\n"
)


def test_csv_import_into_a_layered_catalog_writes_the_personal_folder(runner, shipped_copy, tmp_path):
    """`import csv --set ippo1 --catalog shipped --catalog ~/mine`: the cards go to ~/mine, never beside the shipped set.yaml."""
    sheet = tmp_path / "cards.csv"
    sheet.write_text(CSV, encoding="utf-8")
    mine = tmp_path / "home" / "mine"
    result = runner.invoke(app, ["import", "csv", str(sheet), "--set", "ippo1", "--catalog", "shipped", "--catalog", "~/mine"])
    assert result.exit_code == 0, result.output
    written = mine / "ippo" / "ippo1" / "106-collector-test-uppercut.yaml"
    assert result.stdout.splitlines() == ["wrote 1 new card file(s), replaced 0", f"  {written}"]
    assert sorted(p.name for p in (shipped_copy / "ippo" / "ippo1").iterdir()) == ["set.yaml"]
    checked = validate([shipped_copy, mine], cache_path=None)
    assert checked.problems == []
    assert checked.catalog.card_set["ippo1-106"] == "ippo1"
    again = runner.invoke(app, ["import", "csv", str(sheet), "--set", "ippo1", "--catalog", "shipped", "--catalog", "~/mine"])
    assert again.exit_code == 1, again.output
    assert f"card ippo1-106 already exists ({written})" in again.stderr
    other = sheet.with_name("more.csv")
    other.write_text(CSV.replace("106,", "107,").replace("Uppercut", "Upper"), encoding="utf-8")
    result = runner.invoke(app, ["import", "csv", str(other), "--set", "ippo1", "--catalog", "~/mine", "--catalog", "shipped"])
    assert result.exit_code == 0, result.output  # the shipped catalog named last is still not written to
    assert sorted(p.name for p in written.parent.iterdir()) == ["106-collector-test-uppercut.yaml", "107-collector-test-upper.yaml"]


def test_card_new_in_a_layered_catalog_joins_the_personal_set_folder(runner, shipped_copy, tmp_path):
    """A personal folder that extends the set by `set.yaml` gets the new card, beside the collector's others."""
    mine = tmp_path / "home" / "mine" / "ippo" / "my-ippo-cards"
    shutil.copytree(PERSONAL / "ippo" / "ippo1", mine)
    (mine / "set.yaml").write_text("extends: ippo1\n", encoding="utf-8")
    roots = ["--catalog", f"shipped{os.pathsep}{tmp_path / 'home' / 'mine'}"]
    result = runner.invoke(app, ["card", "new", "--set", "ippo1", "--number", "107", "--name", "Collector Test Feint", *roots])
    assert result.exit_code == 0, result.output
    assert (mine / "107-collector-test-feint.yaml").is_file()
    assert sorted(p.name for p in (shipped_copy / "ippo" / "ippo1").iterdir()) == ["set.yaml"]


def _extending(root: Path, game: str, folder: str, wanted: str) -> None:
    (root / game / folder).mkdir(parents=True)
    (root / game / folder / "set.yaml").write_text(f"extends: {wanted}\n", encoding="utf-8")


def _extends_problems(roots: list[Path]) -> dict[str, str]:
    result = validate(roots, cache_path=None)
    return {p.pos.path.parent.name: p.message for p in result.problems if p.rule == "extends"}


def test_a_cycle_of_extends_is_named_as_a_cycle(tmp_path):
    """A finding: folders extending each other were each told their target is a missing set."""
    mine = tmp_path / "mine"
    _extending(mine, "ippo", "mine1", "mine2")
    _extending(mine, "ippo", "mine2", "mine1")
    _extending(mine, "ippo", "mine3", "mine3")
    _extending(mine, "ippo", "mine4", "mine5")
    _extending(mine, "ippo", "mine5", "ippo1")
    cycle = "each folder extends another and none is a set; extends names a set with its own set.yaml (code, game, name)"
    assert _extends_problems([SHIPPED_IPPO, mine]) == {
        "mine1": f"extends 'mine2', a cycle of extends (mine1 → mine2 → mine1): {cycle}",
        "mine2": f"extends 'mine1', a cycle of extends (mine2 → mine1 → mine2): {cycle}",
        "mine3": "extends 'mine3', its own folder: extends names a set with its own set.yaml (code, game, name)",
        "mine4": "extends 'mine5', a folder that itself extends 'ippo1': extends names a set; write extends: ippo1",
    }


def test_extends_across_games_is_refused_by_name(tmp_path):
    mine = tmp_path / "mine"
    shutil.copytree(PERSONAL / "ippo" / "ippo1", mine / "monpa" / "my-cards")
    (mine / "monpa" / "my-cards" / "set.yaml").write_text("extends: ippo1\n", encoding="utf-8")
    result = validate([SHIPPED_IPPO, mine], cache_path=None)
    found = [(p.pos.line, p.message) for p in result.problems if p.rule == "extends"]
    assert found == [
        (1, "extends 'ippo1', a set of the game ippo; this folder is under monpa/: a folder adds cards to a set of its own game")
    ]
    assert sorted(i for i, code in result.catalog.card_set.items() if code == "ippo1" and i in FIVE) == []
