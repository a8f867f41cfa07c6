"""The prefix range that replaces ``LIKE 'prefix%'`` on indexed name columns (issue 12): the same
rows, found through the index."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.search.query import _after_prefix

TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"], max_codepoint=0x10FFFF), max_size=6)


@settings(max_examples=2000)
@given(prefix=TEXT.filter(bool), text=TEXT)
def test_range_is_startswith_in_code_point_order(prefix, text):
    assert (prefix <= text < _after_prefix(prefix)) == text.startswith(prefix)


@settings(max_examples=300)
@given(prefix=TEXT.filter(bool), texts=st.lists(TEXT, max_size=8))
def test_sqlite_range_finds_what_startswith_finds(prefix, texts):
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE n (t TEXT)")
    con.execute("CREATE INDEX ix ON n (t)")
    con.executemany("INSERT INTO n VALUES (?)", [(t,) for t in texts])
    found = sorted(r[0] for r in con.execute("SELECT t FROM n WHERE t >= ? AND t < ?", (prefix, _after_prefix(prefix))))
    assert found == sorted(t for t in texts if t.startswith(prefix))


def test_edges():
    assert _after_prefix("farfetch") == "farfetci"
    assert _after_prefix("a\ud7ff") == "a\ue000"
    assert _after_prefix("a\U0010ffff") == "b"


def test_query_plan_uses_the_index():
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE card_name (card_id TEXT, compact TEXT)")
    con.execute("CREATE INDEX ix_card_name_compact ON card_name (compact)")
    plan = " ".join(
        r[3] for r in con.execute("EXPLAIN QUERY PLAN SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?", ("ab", "ac"))
    )
    assert plan == "SEARCH card_name USING INDEX ix_card_name_compact (compact>? AND compact<?)"
