"""The default search order (``--sort number``): sets by release date, undated sets last, then set
code, then collector number as a number. The index stores its rows in that order
(:func:`cardlab.index.sqlite.search_order`) and the engine reads them in rowid order; the catalog
read from the index still lists cards in catalog order (files by path)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.index.sqlite import build_index, connect
from cardlab.index.stored import StoredCatalog
from cardlab.search.engine import search

TEST1 = Path(__file__).resolve().parents[2] / "fixtures" / "catalog" / "pokemon" / "test1"


def _copy_set(root: Path, folder: str, code: str, date: str | None, numbers: dict[str, str]) -> None:
    """The fictional test set again under ``folder`` with set code ``code``, release ``date`` (None:
    no date), and each card file's collector number changed as ``numbers`` says (old -> new)."""
    dest = root / "pokemon" / folder
    shutil.copytree(TEST1, dest)
    text = (dest / "set.yaml").read_text(encoding="utf-8").replace("code: test1", f"code: {code}").replace("aliases: [TST]", "aliases: []")
    text = text.replace('release_date: "2000-01-01"', f'release_date: "{date}"' if date else "").replace(
        "printed_total: 10", "printed_total: 200"
    )
    (dest / "set.yaml").write_text(text, encoding="utf-8")
    for path in dest.glob("[0-9]*.yaml"):
        old = path.name.split("-", 1)[0]
        new = numbers.get(old, old)
        card = (
            path.read_text(encoding="utf-8")
            .replace(f"id: test1-{old}", f"id: {code}-{new}")
            .replace(f'number: "{old}"', f'number: "{new}"')
        )
        path.unlink()
        (dest / f"{new}-{path.name.split('-', 1)[1]}").write_text(card, encoding="utf-8")


@pytest.fixture(scope="module")
def three_sets(tmp_path_factory):
    """Three copies of the test set: folder ``a-late`` (code ``zlate``, 2001), ``b-undated`` (code
    ``aund``, no date) and ``c-early`` (code ``mearly``, 1999, numbers 10, 9, 1a, 100): the folder,
    code and release orders all differ."""
    root = tmp_path_factory.mktemp("order")
    _copy_set(root, "a-late", "zlate", "2001-05-01", {})
    _copy_set(root, "b-undated", "aund", None, {})
    _copy_set(root, "c-early", "mearly", "1999-02-01", {"1": "10", "2": "9", "3": "1a", "4": "100"})
    db = root / "index.sqlite"
    build_index([root], db)
    con = connect(db)
    yield root, con
    con.close()


EXPECTED = [
    # 1999 first, its numbers as numbers: 1a (1) < 9 < 10 < 100
    "mearly-1a",
    "mearly-9",
    "mearly-10",
    "mearly-100",
    "zlate-1",
    "zlate-2",
    "zlate-3",
    "zlate-4",
    # no release date: last, whatever its code
    "aund-1",
    "aund-2",
    "aund-3",
    "aund-4",
]


def test_default_order_is_release_date_then_number(three_sets):
    _root, con = three_sets
    assert [h.id for h in search(con, "")] == EXPECTED


def test_reversed_order_keeps_undated_sets_last(three_sets):
    _root, con = three_sets
    assert [h.id for h in search(con, "", reverse=True)] == [*EXPECTED[7::-1], *EXPECTED[:7:-1]]


def test_a_page_of_the_default_order(three_sets):
    _root, con = three_sets
    assert [h.id for h in search(con, "", limit=3, offset=2)] == ["mearly-10", "mearly-100", "zlate-1"]


def test_the_index_lists_cards_in_catalog_order_like_the_catalog_in_memory(three_sets):
    root, con = three_sets
    memory = validate([root]).catalog
    stored = StoredCatalog(con, [root])
    assert list(stored.cards) == list(memory.cards)
    assert list(memory.cards)[:4] == ["zlate-1", "zlate-2", "zlate-3", "zlate-4"]  # folder a-late first


def test_hits_read_their_data_and_names_when_asked(three_sets):
    _root, con = three_sets
    hits = search(con, "", limit=2, offset=1)  # mearly-9 (Testmon Ex's file) and mearly-10 (Testmon's)
    assert [h.id for h in hits] == ["mearly-9", "mearly-10"]
    assert hits[1].data["name"] == {"en": "Testmon", "fr": "Testemon", "ja": "テストモンスター"}
    assert hits[0].to_json()["number"] == "9"
    assert hits[1].names == {"en": "Testmon", "fr": "Testemon", "ja": "テストモンスター"}
    # French where there is a French name, else the source language's
    assert [h.name for h in search(con, "", langs=("fr",), limit=3)] == ["Test Fire Energy", "Testmon Ex", "Testemon"]
