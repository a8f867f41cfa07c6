"""``cardlab deck have`` on a list of bare names (issue 27): every printing of a card counts as owned
(a Base Set 2 reprint, the holo and the plain one), the collection chooses among the different cards a
bare name may be, and the owned printings are shown. On SQLite and PostgreSQL (the ``backend``
fixture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli.whole import app

HAYMAKER = "4 Hitmonchan\n4 Electabuzz\n2 Lickitung\n2 Doduo\n4 Bill\n4 Energy Removal\n4 Super Energy Removal\n3 Professor Oak\n"
HAYMAKER += "2 Scoop Up\n2 Gust of Wind\n3 PlusPower\n1 Item Finder\n1 Lass\n12 Fighting Energy\n12 Lightning Energy\n"


@pytest.fixture
def deck(monkeypatch, tmp_path, backend) -> Path:
    monkeypatch.delenv("CARDLAB_CATALOG", raising=False)
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")
    path = tmp_path / "haymaker.txt"
    path.write_text(HAYMAKER, encoding="utf-8")
    return path


def have(runner, deck: Path) -> dict[str, dict]:
    out = runner.invoke(app, ["deck", "have", str(deck), "-f", "pokemon-base-fossil", "-O", "json"])
    assert out.exit_code == 1, out.output  # nothing like 60 cards owned
    return {row["name"]: row for row in json.loads(out.stdout)["cards"]}


def test_a_reprint_counts_as_the_card(runner, deck):
    assert runner.invoke(app, ["collection", "add", "base4-24", "-n", "3"]).exit_code == 0  # Base Set 2 Electabuzz
    row = have(runner, deck)["Electabuzz"]
    assert (row["id"], row["need"], row["own"], row["missing"], row["printings"]) == ("base1-20", 4, 3, 1, {"base4-24": 3})


def test_the_collection_chooses_among_the_cards_of_a_bare_name(runner, deck):
    assert runner.invoke(app, ["collection", "add", "basep-2", "-n", "4"]).exit_code == 0  # the promo Electabuzz
    assert runner.invoke(app, ["collection", "add", "base1-20", "-n", "1"]).exit_code == 0
    row = have(runner, deck)["Electabuzz"]
    assert (row["id"], row["need"], row["own"], row["missing"], row["printings"]) == ("basep-2", 4, 4, 0, {"basep-2": 4})


def test_the_text_shows_the_printings_owned_and_the_note(runner, deck):
    assert runner.invoke(app, ["collection", "add", "base4-24", "-n", "3"]).exit_code == 0
    out = runner.invoke(app, ["deck", "have", str(deck), "-f", "pokemon-base-fossil"])
    assert "4 Electabuzz (base1-20): own 3 [3 base4-24], missing 1" in out.stdout
    assert f"{deck}:2: note: 4 Electabuzz: Base Set 20 assumed (also Wizards Black Star Promos 2)" in out.stderr
