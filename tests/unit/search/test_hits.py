"""A hit's display strings (type line, stats, rarity): read with a page's rows, read for a whole
result only when first shown (issue 12: a listing of 21,000 ids does not create them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.index.sqlite import build_index, connect
from cardlab.search import engine
from cardlab.search.hits import _DisplayBatch

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def base_con(tmp_path_factory):
    db = tmp_path_factory.mktemp("idx") / "base1.sqlite"
    build_index([REPO / "cards" / "pokemon" / "base1"], db)
    con = connect(db)
    yield con
    con.close()


def test_a_whole_result_reads_its_display_strings_when_first_shown(base_con):
    hits = engine.search(base_con, "type:fire")
    assert [h.id for h in hits][:2] == ["base1-4", "base1-12"]
    assert all(isinstance(h.display, _DisplayBatch) for h in hits)  # not read yet
    assert (hits[0].type_line, hits[0].stats, hits[0].rarity) == (
        "Pokémon · Stage 2 · Fire",
        "120 HP · Power · 1 attack · retreat 3",
        "Rare Holo",
    )
    assert hits[-1].id == "base1-98"
    assert (hits[-1].type_line, hits[-1].stats, hits[-1].rarity) == ("Energy · basic · Fire", "", None)


def test_a_page_reads_them_with_its_rows_and_both_agree(base_con):
    page = engine.search(base_con, "type:fire", limit=3, offset=1)
    assert [h.display for h in page] == [
        ("Pokémon · Stage 1 · Fire", "80 HP · 2 attacks · retreat 1", "Rare Holo"),
        ("Pokémon · Stage 1 · Fire", "100 HP · 2 attacks · retreat 3", "Uncommon"),
        ("Pokémon · Stage 1 · Fire", "80 HP · 2 attacks · retreat 1", "Uncommon"),
    ]
    whole = engine.search(base_con, "type:fire")
    assert page == whole[1:4]
    assert [h.id for h in page] == ["base1-12", "base1-23", "base1-24"]


def test_sorted_by_name_in_python_the_page_reads_only_its_own(base_con):
    page = engine.search(base_con, "type:fire", sort="name", limit=2)
    assert [h.id for h in page] == ["base1-23", "base1-4"]  # Arcanine, Charizard
    assert page[0].display.ids == ["base1-23", "base1-4"]
    assert page[1].stats == "120 HP · Power · 1 attack · retreat 3"
