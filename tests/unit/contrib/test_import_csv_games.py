"""CSV import of Ippo and Monpa cards (issue 33, item 5): lists and maps through the column form
(``start_cost.attributes``, ``blocks``, ``abilities.1.timing``, ``effects.1.cost.mana``), one
message per problem."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cardlab.catalog.validate import load_catalog, validate
from cardlab.contrib.import_csv import import_cards, plan_cards
from cardlab.core.csvfile import parse_csv
from cardlab.core.errors import DataError, UsageError

REPO = Path(__file__).resolve().parents[3]
GOOD = REPO / "tests" / "fixtures" / "catalog"

IPPO = (
    "number,name,name.en,kind,stars,blow_type,start_cost.attributes,start_cost.generic,blow_power,"
    "blocks,defense_power,generates.attributes,abilities.1.timing,abilities.1.cost.generic,abilities.1.keywords,"
    "abilities.1.damage_effect,abilities.1.text.en,transcribed\n"
    '30,テスト表計算アッパー,Spreadsheet Test Uppercut,blow,2,upper,"courage, courage",1,5,,,,,2,knock-down,true,'
    "The opponent goes down.,false\n"
    '31,テスト表計算ガード,Spreadsheet Test Guard,defense,1,,,,,"straight, hook",3,calm,boxing,,shut-off,,,\n'
)


@pytest.fixture
def ippo_copy(tmp_path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(GOOD / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    return root


@pytest.fixture
def monpa_copy(tmp_path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(GOOD / "monpa" / "monpa-test", root / "monpa" / "monpa-test")
    return root


def _table(text: str, tmp_path: Path):  # noqa: ANN202
    path = tmp_path / "cards.csv"
    path.write_text(text, encoding="utf-8")
    return parse_csv(text, path)


def _problems(err: DataError) -> list[tuple[int, int, str]]:
    return [(p.pos.line, p.pos.col, p.message) for p in err.problems]


def test_ippo_cards_with_costs_blocks_and_abilities(ippo_copy, tmp_path):
    result = import_cards(load_catalog([ippo_copy]), _table(IPPO, tmp_path), "ippo-test")
    assert [p.name for p in result.written] == ["30-spreadsheet-test-uppercut.yaml", "31-spreadsheet-test-guard.yaml"]
    blow = yaml.safe_load(result.written[0].read_text(encoding="utf-8"))
    assert blow == {
        "id": "ippo-test-30",
        "number": "30",
        "name": {"ja": "テスト表計算アッパー", "en": "Spreadsheet Test Uppercut"},
        "kind": "blow",
        "stars": 2,
        "blow_type": "upper",
        "start_cost": {"attributes": ["courage", "courage"], "generic": 1},
        "blow_power": 5,
        "abilities": [
            {"cost": {"generic": 2}, "keywords": ["knock-down"], "damage_effect": True, "text": {"en": "The opponent goes down."}}
        ],
        "transcribed": False,
    }
    guard = yaml.safe_load(result.written[1].read_text(encoding="utf-8"))
    assert guard["blocks"] == ["straight", "hook"]
    assert guard["generates"] == {"attributes": ["calm"]}
    assert guard["abilities"] == [{"timing": "boxing", "keywords": ["shut-off"]}]
    assert validate([ippo_copy], cache_path=None).problems == []


def test_ippo_problems_one_message_each(ippo_copy, tmp_path):
    text = (
        "number,name,kind,stars,blocks,defense_power,generates.generic,abilities.1.keywords,abilities.2.timing\n"
        '32,テスト不良ガード,defense,1,"straight, jab",2,1,knock-down,\n'
        "33,テスト不良ガード二,defense,one,straight,2,1,,boxing\n"
    )
    with pytest.raises(DataError) as err:
        plan_cards(_table(text, tmp_path), load_catalog([ippo_copy]).require_set("ippo-test"))
    assert _problems(err.value) == [
        (2, 5, 'blocks.2: "jab" is not one of "straight", "hook", "upper", "special"'),
        (
            2,
            8,
            'abilities.1.keywords: ["knock-down"]: guard-break and knock-down belong to Blow cards (seed 000,'
            " 'Particularité de capacité' of the Blow card: the blow taps the defending cards, or knocks the opponent"
            " down when it deals damage)",
        ),
        (
            2,
            0,
            "abilities.1.damage_effect is required: add a column for it (knock-down is a damage effect: write"
            " damage_effect: true (seed 000, 'Effet de dégâts' and 'Knock-down'))",
        ),
        (3, 4, "stars: 'one' is not a whole number"),
        (3, 9, "abilities.1 is empty: number the items from 1, without gaps"),
    ]


def test_monpa_cards_with_effects(monpa_copy, tmp_path):
    text = (
        "number,name,name.en,type,element,mana,attack,defense,effects.1.keyword,effects.2.keyword,effects.2.n,"
        "effects.3.cost.tap,effects.3.cost.mana,effects.3.text,effects.3.text.en\n"
        "40,Serviteur Tableur,Spreadsheet Servant,servant,feu,?,?,1,rapide,prediction,2,true,X,"
        "Piochez X cartes.,Draw X cards.\n"
    )
    result = import_cards(load_catalog([monpa_copy]), _table(text, tmp_path), "monpa-test")
    card = yaml.safe_load(result.written[0].read_text(encoding="utf-8"))
    assert card["mana"] == "?"
    assert card["effects"] == [
        {"keyword": "rapide"},
        {"keyword": "prediction", "n": 2},
        {"cost": {"tap": True, "mana": "X"}, "text": {"fr": "Piochez X cartes.", "en": "Draw X cards."}},
    ]
    assert validate([monpa_copy], cache_path=None).problems == []


@pytest.mark.parametrize(
    ("header", "needle"),
    [
        ("number,start_cost", "'start_cost' holds a map: one column per field (start_cost.<field>)"),
        ("number,abilities.timing", "holds a list of maps: one column per field of each item, numbered from 1 (abilities.1.<field>)"),
        ("number,abilities.0.timing", "numbered from 1"),
        ("number,start_cost.colour", "start_cost has no field 'colour' (fields: attributes, generic, other, tap)"),
        ("number,blocks.1", "blocks is a list in one cell, items separated by commas"),
        ("number,abilities.1.text.en.x", "a localized field takes one language after it (abilities.1.text.en)"),
        ("number,blow_power,blow_power", "column 'blow_power' appears twice (also column 2)"),
    ],
)
def test_ippo_bad_headers(ippo_copy, tmp_path, header, needle):
    with pytest.raises(UsageError) as err:
        plan_cards(_table(header + "\n", tmp_path), load_catalog([ippo_copy]).require_set("ippo-test"))
    assert needle in str(err.value)


def test_huge_number_cell_is_a_problem_not_a_traceback(ippo_copy, tmp_path):
    text = "number,name,kind,stars,blow_type,start_cost.generic,blow_power\n34,テスト巨大,blow,1,hook,1," + "9" * 5000 + "\n"
    with pytest.raises(DataError) as err:
        plan_cards(_table(text, tmp_path), load_catalog([ippo_copy]).require_set("ippo-test"))
    assert _problems(err.value) == [(2, 7, "blow_power: a number of 5,000 digits (at most 1,000)")]


def test_a_translated_text_needs_transcribed_false(ippo_copy, tmp_path):
    text = "number,name,kind,stars,abilities.1.timing,abilities.1.text.en\n35,テスト翻訳,support,1,placement,Draw a card.\n"
    with pytest.raises(DataError) as err:
        plan_cards(_table(text, tmp_path), load_catalog([ippo_copy]).require_set("ippo-test"))
    assert _problems(err.value) == [
        (
            2,
            6,
            "abilities.1.text: missing the source language 'ja' (a column abilities.1.text.ja; or transcribed: false"
            " while the text is a translation)",
        )
    ]
