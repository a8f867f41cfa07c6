"""Ippo cards checked as the seeds define them (issue 33, item 3): no schema problem hidden by another
field's, templates that do not validate until filled, and the commands meeting an unfilled card."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardlab.catalog.filecheck import check_text
from cardlab.catalog.validate import validate
from cardlab.cli.whole import app
from cardlab.contrib import new_card as contrib
from cardlab.games import ippo

REPO = Path(__file__).resolve().parents[3]
GOOD = REPO / "tests" / "fixtures" / "catalog" / "ippo" / "ippo-test"
BAD = REPO / "tests" / "fixtures" / "bad" / "ippo"


def _problems(text: str) -> list[tuple[int, int, str]]:
    _data, problems = check_text(Path("card.yaml"), text, "card", "ippo", "ja")
    return [(p.pos.line, p.pos.col, p.message) for p in problems]


def test_misspelt_blow_type_hides_no_other_problem():
    """Before issue 33 a misspelt blow_type dropped every error of the Blow branch: the card was "ok"."""
    result = validate([BAD / "blow-type-misspelt"], cache_path=None)
    found = [(p.pos.line, p.pos.col, p.message) for p in result.problems]
    assert found == [
        (6, 12, 'blow_type: "stright" is not one of "straight", "hook", "upper", "special"'),
        (8, 25, 'start_cost.attributes.1: "fire" is not one of "courage", "kan", "technique", "calm"'),
        (9, 13, "blow_power: -2 is out of range: must be at least 0"),
    ]


def test_unknown_kind_still_reports_only_the_kind():
    """The field that chooses the branch (kind) misspelt: its error, not the branches' consequences."""
    text = (GOOD / "1-test-jab.yaml").read_text(encoding="utf-8").replace("kind: blow", "kind: blw")
    assert _problems(text) == [(4, 7, 'kind: "blw" is not one of "blow", "defense", "support", "fight"')]


def test_several_problems_of_a_blow_card_each_with_its_position():
    """Missing blow_type AND blow_power, a bad start_cost, an ability wanting text or keywords: all reported."""
    text = (
        "id: ippo-test-1\nnumber: '1'\nname: {ja: テストジャブ, en: Test Jab}\nkind: blow\nstars: 1\n"
        "start_cost:\n  generic: -2\nabilities:\n  - timing: sometimes\n"
    )
    assert sorted(_problems(text)) == [
        (1, 1, "missing fields 'blow_type', 'blow_power'"),
        (7, 12, "start_cost.generic: -2 is out of range: must be at least 0"),
        (9, 5, "abilities.0: missing field 'text' or 'keywords'"),
        (9, 13, 'abilities.0.timing: "sometimes" is not one of "placement", "fast", "boxing", "interval", "constant"'),
    ]


def test_missing_kind_is_reported_alone_not_as_another_kinds_demands():
    """No kind chooses no branch: before, the fallback (Fight) branch asked for abilities and called
    the Defense fields unknown."""
    text = "id: ippo-test-10\nnumber: '10'\nname: {ja: テストガード, en: Test Guard}\nstars: 1\nblocks: [straight]\ndefense_power: 2\n"
    assert _problems(text) == [(1, 1, "missing field 'kind'")]


def test_monpa_several_problems_and_a_missing_type():
    """Monpa (seed 004 'Les cartes'): a servant's missing attack, bad mana and bad defense all reported;
    a card without type reported as such, not as a charm missing its fields."""

    def problems(text: str) -> list[tuple[int, int, str]]:
        _data, found = check_text(Path("card.yaml"), text, "card", "monpa", "fr")
        return [(p.pos.line, p.pos.col, p.message) for p in found]

    servant = "id: monpa-test-4\nnumber: '4'\nname: {fr: Serviteur Test}\ntype: servant\nelement: feu\nmana: -3\ndefense: two\n"
    assert sorted(problems(servant)) == [
        (1, 1, "missing field 'attack'"),
        (6, 7, "mana: -3 is out of range: must be at least 0"),
        (
            7,
            10,
            'defense: "two" does not have the expected form (a whole number 0 or more, or "?" (set by the card\'s effect; 0 while the effect is inactive))',
        ),
    ]
    untyped = "id: monpa-test-4\nnumber: '4'\nname: {fr: Serviteur Test}\nelement: feu\nmana: 3\nattack: 2\ndefense: 2\n"
    assert problems(untyped) == [(1, 1, "missing field 'type'")]


@pytest.mark.parametrize("kind", ippo.SKELETON_KINDS)
def test_templates_do_not_validate_until_filled(kind):
    """Every `card new` template, even with its common fields filled, names each blank of its kind."""
    text = contrib.skeleton("ippo", kind, card_id="ippo-test-20", number="20", source="ja")
    text = text.replace('  ja: ""', "  ja: テスト空欄").replace("notes: null", "notes: test").replace("stars: null", "stars: 1")
    messages = [m for _line, _col, m in _problems(text)]
    expected = {
        "blow": [
            'blow_type: null (a YAML null) is not one of "straight", "hook", "upper", "special"',
            "start_cost.attributes: expected a list, found null (a YAML null)",
            "blow_power: expected an integer, found null (a YAML null)",
        ],
        "defense": [
            "blocks: expected a list, found null (a YAML null)",
            "defense_power: expected an integer, found null (a YAML null)",
            "generates.attributes: expected a list, found null (a YAML null)",
        ],
        "support": [
            'abilities.0.timing: null (a YAML null) is not one of "placement", "fast", "boxing", "interval", "constant"',
            "abilities.0.text.ja: must not be empty",
        ],
    }
    expected["fight"] = expected["support"]
    assert messages == expected[kind]


def test_huge_hexadecimal_number_is_a_positioned_problem():
    """0x and 5,000 f's: past Python's int-string limit; before, jsonschema's message raised ValueError."""
    text = (GOOD / "1-test-jab.yaml").read_text(encoding="utf-8").replace("number: '1'", "number: 0x" + "f" * 5000)
    assert _problems(text) == [(2, 9, "a number of 5,002 digits (at most 1,000); quote it if it is text")]


@pytest.fixture
def unfilled(tmp_path) -> tuple[Path, Path]:
    """A copy of the Ippo test set with one unfilled Blow card (blow type, cost icons and power
    blank), and a deck naming it."""
    root = tmp_path / "catalog"
    shutil.copytree(GOOD, root / "ippo" / "ippo-test")
    text = contrib.skeleton("ippo", "blow", card_id="ippo-test-20", number="20", source="ja")
    text = text.replace('  ja: ""', "  ja: テスト空欄").replace("notes: null", "notes: test").replace("stars: null", "stars: 1")
    (root / "ippo" / "ippo-test" / "20-card.yaml").write_text(text, encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text("4 テスト空欄\n4 Test Jab\n", encoding="utf-8")
    return root, deck


@pytest.mark.parametrize(
    "command",
    [
        ["deck", "stats", "DECK"],
        ["deck", "validate", "DECK"],
        ["proxies", "DECK", "-o", "OUT"],
        ["show", "ippo-test-20"],
        ["search", "kind:blow"],  # answers from the other cards, with the warning: exit 0
        ["index"],
    ],
)
def test_commands_meet_an_unfilled_card_with_its_position(runner, unfilled, tmp_path, command):
    """Before issue 33 deck stats and proxies ended in TypeError / KeyError: None on such a card."""
    root, deck = unfilled
    args = [str(deck) if a == "DECK" else str(tmp_path / "out.pdf") if a == "OUT" else a for a in command]
    result = runner.invoke(app, [*args, "--catalog", str(root)])
    if command[0] == "search":  # the cards that validate answer, the unfilled one is a warning
        assert (result.exception, result.exit_code) == (None, 0)
        assert "searching the other cards" in result.stderr
    else:
        assert isinstance(result.exception, SystemExit)  # no traceback
        assert result.exit_code == 1  # the catalog fails its check
    card = root / "ippo" / "ippo-test" / "20-card.yaml"
    assert f'{card}:14:12: blow_type: null (a YAML null) is not one of "straight"' in result.stderr
    assert f"{card}:18:13: blow_power: expected an integer" in result.stderr


# --- star rarity (seed 000, 'Numéro de série et rareté': the more stars, the rarer) ----------


def test_stars_are_the_rarity(tmp_path):
    from cardlab.search.engine import open_index, search

    con = open_index([GOOD.parent], tmp_path / "index.sqlite")
    try:
        assert sorted(h.id for h in search(con, "rarity:3")) == ["ippo-test-10", "ippo-test-15", "ippo-test-4"]
        assert sorted(h.id for h in search(con, "rarity:4-star")) == ["ippo-test-5"]
        assert sorted(h.id for h in search(con, "rarity:★★★★")) == ["ippo-test-5"]  # as `show` prints it
        hits = search(con, "game:ippo", sort="rarity")
        stars = [int(h.rarity.split("-")[0]) for h in hits]
        assert stars == [1] * 8 + [2] * 4 + [3] * 3 + [4]
        assert [h.rarity for h in search(con, "game:ippo", sort="rarity", reverse=True)][0] == "4-star"
    finally:
        con.close()


def test_rarity_of_a_card_without_whole_stars_is_none():
    assert ippo.rarity({"stars": 2}) == ("2-star", 2)
    assert ippo.rarity({"stars": None}) is None
    assert ippo.rarity({"stars": True}) is None
