"""Paging, counting, time limits and printings in cardlab.search.engine (what the web page uses)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.index.sqlite import build_index, connect
from cardlab.search.connection import QueryTimeoutError
from cardlab.search.engine import count, search, search_page
from cardlab.search.lookup import printings

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("idx") / "index.sqlite"
    build_index([REPO / "cards" / "pokemon" / "base1"], path)  # the Base Set: the figures below are its own
    return path


def test_offset_and_count(db):
    con = connect(db)
    every = [h.id for h in search(con, "set:base1")]
    assert count(con, "set:base1") == len(every) == 102
    assert [h.id for h in search(con, "set:base1", limit=10, offset=20)] == every[20:30]
    assert [h.id for h in search(con, "set:base1", offset=100)] == every[100:]
    assert count(con, "type:fire hp>=80") == 4


def test_timeout_cuts_a_query_off(db):
    con = connect(db)
    with pytest.raises(QueryTimeoutError, match="longer than 0 s"):
        search(con, "a or e or i or o or u or -hp>0", timeout=0)
    with pytest.raises(QueryTimeoutError):
        count(con, "a or e or i or o or u or -hp>0", timeout=0)  # rules text is whole words now: "a or e" is quick
    assert len(search(con, "charizard", timeout=5)) == 1  # the handler is removed afterwards
    assert con.execute("SELECT COUNT(*) FROM card").fetchone()[0] == 102


def test_printings(db, tmp_path):
    """Every printing of a card, the original first, whichever printing is asked for."""
    con = connect(db)
    assert printings(con, "base1-4") == [("base1-4", "base1", "4", "Rare Holo")]
    assert printings(con, "nope-1") == []
    both = tmp_path / "both.sqlite"
    build_index([REPO / "cards" / "pokemon" / code for code in ("base1", "base2", "base4")], both)
    con2 = connect(both)
    expected = [("base1-4", "base1", "4", "Rare Holo"), ("base4-4", "base4", "4", "Rare Holo")]
    assert printings(con2, "base4-4") == printings(con2, "base1-4") == expected


def test_languages(db):
    from cardlab.search.lookup import languages

    assert {"en", "fr", "de"} <= set(languages(connect(db)))


@pytest.mark.parametrize("query", ["set:base1", "type:fire hp>=80", "zzzz", "", "supertype:pokemon -type:fire retreat<=1"])
def test_search_page_is_count_and_search(db, query):
    con = connect(db)
    every = [h.id for h in search(con, query, sort="name")]
    for offset in (0, 50, 100, 200):
        total, hits = search_page(con, query, sort="name", limit=50, offset=offset)
        assert total == count(con, query) == len(every)
        assert [h.id for h in hits] == every[offset : offset + 50]
    with pytest.raises(QueryTimeoutError):
        search_page(con, "a or e or i or o or u", timeout=0)
