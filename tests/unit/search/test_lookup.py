"""cardlab.search.lookup: ``cardlab show`` and get_card by id, set and number, PTCGO code and any-language
name; printings of one card, ambiguous names, suggestions."""

from __future__ import annotations

import shutil

import pytest

from cardlab.cli.whole import app
from cardlab.index.sqlite import build_index, connect
from cardlab.search.engine import search
from cardlab.search.lookup import AmbiguousCardError, CardNotFoundError, get_card


def test_show_by_id_name_and_set_number(runner):
    for ref in ("base1-4", "BASE1-4", "Dracaufeu", "BS 4"):
        result = runner.invoke(app, ["show", ref])
        assert result.exit_code == 0, result.output
        assert "Charizard" in result.stdout and "Fire Spin" in result.stdout and "120" in result.stdout


def test_show_unknown_suggests(runner):
    result = runner.invoke(app, ["show", "Charizzard"])
    assert result.exit_code == 1
    assert "did you mean: Charizard" in result.stderr


def _copy_as_test2(test_set):
    """A copy of the fixture set test1 as test2 (code TS2, ids test2-N): identical cards in two sets."""
    other = test_set / "pokemon" / "test2"
    shutil.copytree(test_set / "pokemon" / "test1", other)
    (other / "set.yaml").write_text(
        (other / "set.yaml").read_text(encoding="utf-8").replace("code: test1", "code: test2").replace("[TST]", "[TS2]"), encoding="utf-8"
    )
    for card in other.glob("[0-9]*.yaml"):
        card.write_text(card.read_text(encoding="utf-8").replace("id: test1-", "id: test2-"), encoding="utf-8")
    return other


def test_show_identical_copies_are_printings_of_one_card(test_set, tmp_path):
    _copy_as_test2(test_set)
    db = tmp_path / "same.sqlite"
    build_index([test_set], db)
    view = get_card(connect(db), "Testmon")
    assert view.id == "test1-1" and [p[0] for p in view.printings] == ["test1-1", "test2-1"]


def test_show_ambiguous_lists_choices(test_set, tmp_path):
    other = _copy_as_test2(test_set)
    # another card of the same name (another HP), not a second printing of the same card
    testmon = other / "1-testmon.yaml"
    testmon.write_text(testmon.read_text(encoding="utf-8").replace("hp: 60", "hp: 70"), encoding="utf-8")
    db = tmp_path / "amb.sqlite"
    build_index([test_set], db)
    with pytest.raises(AmbiguousCardError) as exc:
        get_card(connect(db), "Testmon")
    assert [c[0] for c in exc.value.choices] == ["test1-1", "test2-1"]
    with pytest.raises(CardNotFoundError):
        get_card(connect(db), "Nothingmon")


def test_reprint_is_a_whole_card(full_con):
    view = get_card(full_con, "base4-4")
    assert view.data["hp"] == 120 and view.data["reprint_of"] == "base1-4"
    assert view.data["name"]["fr"] == "Dracaufeu"
    assert view.data["illustrator"] == "Mitsuhiro Arita" and view.data["number"] == "4"
    assert view.printings == [("base1-4", "base1", "4", "Rare Holo"), ("base4-4", "base4", "4", "Rare Holo")]
    assert [h.id for h in search(full_con, "hp>=120 retreat>=3 type:fire")] == ["base1-4", "base4-4"]


def test_show_lists_every_printing(runner):
    result = runner.invoke(app, ["show", "Dracaufeu"])  # one card in two printings: the original
    assert result.exit_code == 0, result.output
    assert "Charizard  base1-4" in result.stdout
    assert "base1-4 (this one) · base1 4 · Rare Holo" in result.stdout and "base4-4 · base4 4 · Rare Holo" in result.stdout
    result = runner.invoke(app, ["show", "base4-102"])
    assert result.exit_code == 0, result.output
    assert "Impostor Professor Oak  base4-102" in result.stdout
    assert "Printed as   Imposter Professor Oak" in result.stdout
    assert "base1-73 · base1 73 · Rare" in result.stdout


def test_show_by_ptcgo_code(runner):
    result = runner.invoke(app, ["show", "JU 10"])
    assert result.exit_code == 0, result.output
    assert "Scyther  base2-10" in result.stdout and "Jungle (base2) · 10/64" in result.stdout
    result = runner.invoke(app, ["show", "PR 3"])
    assert result.exit_code == 0, result.output
    assert "Mewtwo  basep-3" in result.stdout
