"""The forum TCG of seed 002 as a game: schema, factions as data, search fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.games.forumtcg import FACTIONS, FOUR_FACTIONS, facets
from cardlab.search.engine import open_index, search


def test_factions_and_symbols():
    assert {c: f["symbol"] for c, f in FACTIONS.items()} == {
        "gotei-13": "lozenge",
        "acuerdo": "circle",
        "ultima-necat": "triangle",
        "neutral": "skull",
        "independent": "cross",
    }
    assert FOUR_FACTIONS == ("gotei-13", "acuerdo", "ultima-necat", "neutral")


def test_fixture_and_shipped_manifest_validate(forum_catalog, repo):
    assert validate([forum_catalog], cache_path=None).problems == []
    shipped = validate([repo / "cards"], cache_path=None)
    info = shipped.catalog.sets["ftcg-base"]
    assert info.data["rarities"] == ["Commune"] and "No public card list" in info.data["recorded"]
    assert not [c for c in shipped.catalog.card_set.values() if c == "ftcg-base"]


def test_facets():
    rows = set(facets({"value": 3, "faction": "ultima-necat"}))
    assert ("value", "3", 3.0) in rows and ("faction", "triangle", None) in rows and ("faction", "ultima necat", None) in rows


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    return open_index([fixtures / "forumtcg"], tmp_path_factory.mktemp("forum-index") / "index.sqlite")


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("value=3", 5),
        ("value>=10", 3),
        ("faction:gotei-13", 8),
        ("faction:lozenge", 8),
        ("faction:losange", 8),
        ("faction:cross", 2),
        ("rarity:commune", 25),
        ("rarity:rare", 3),
        ("faction:skull value<=2", 2),
    ],
)
def test_search_fields(index, query, count):
    assert len(search(index, query)) == count
