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
    """Copies of any card a bare name may be fill the line (3 promo + 1 Base Set Electabuzz are a
    legal "4 Electabuzz"); the card owned most is the row's, and the note says so."""
    assert runner.invoke(app, ["collection", "add", "basep-2", "-n", "3"]).exit_code == 0  # the promo Electabuzz
    assert runner.invoke(app, ["collection", "add", "base1-20", "-n", "1"]).exit_code == 0
    row = have(runner, deck)["Electabuzz"]
    assert (row["id"], row["need"], row["own"], row["missing"], row["printings"]) == ("basep-2", 4, 4, 0, {"base1-20": 1, "basep-2": 3})
    out = runner.invoke(app, ["deck", "have", str(deck), "-f", "pokemon-base-fossil"])
    assert f"{deck}:2: note: your collection's basep-2 counted for this line" in out.stderr


def test_two_lines_of_one_card_are_one_row(runner, deck, tmp_path):
    """The holo and the plain Jungle Scyther are one card: two lines of 2 need 4, and 2 owned are 2."""
    path = tmp_path / "scyther.txt"
    path.write_text("2 Scyther JU 10\n2 Scyther JU 26\n", encoding="utf-8")
    assert runner.invoke(app, ["collection", "add", "base2-26", "-n", "2"]).exit_code == 0
    out = runner.invoke(app, ["deck", "have", str(path), "-f", "pokemon-base-jungle", "-O", "json"])
    data = json.loads(out.stdout)
    assert [(r["id"], r["need"], r["own"], r["missing"]) for r in data["cards"]] == [("base2-10", 4, 2, 2)]
    assert (out.exit_code, data["complete"]) == (1, False)


def test_a_line_naming_no_card_is_never_complete(runner, deck, tmp_path):
    path = tmp_path / "typo.txt"
    path.write_text("4 Pikachuu\n", encoding="utf-8")
    out = runner.invoke(app, ["deck", "have", str(path), "-f", "pokemon-base", "-O", "json"])
    data = json.loads(out.stdout)
    assert (out.exit_code, data["complete"], data["need"]) == (1, False, 0)
    assert [(u["line"], u["rule"]) for u in data["unmatched"]] == [(1, "unknown-card")]


def test_the_text_shows_the_printings_owned_and_the_note(runner, deck):
    assert runner.invoke(app, ["collection", "add", "base4-24", "-n", "3"]).exit_code == 0
    out = runner.invoke(app, ["deck", "have", str(deck), "-f", "pokemon-base-fossil"])
    assert "4 Electabuzz (base1-20): own 3 [3 base4-24], missing 1" in out.stdout
    assert f"{deck}:2: note: 4 Electabuzz: Base Set 20 assumed (also Wizards Black Star Promos 2)" in out.stderr
