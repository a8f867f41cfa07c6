"""cardlab.search.compile: the PostgreSQL dialect of full-text terms (_pg_text_sql through
compile_sql), SQL and parameters exactly: the same phrases as FTS5's MATCH strings, as tsquery
literals; and the prefix range that replaces ``LIKE 'prefix%'`` on indexed name columns (issue 12):
the same rows, found through the index."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.search.compile import _after_prefix, compile_sql
from cardlab.search.query.parse import parse

FTS = "SELECT rowid FROM card_fts WHERE names @@ ?::tsquery OR body @@ ?::tsquery"
STEMS = "SELECT rowid FROM card_stem WHERE stems @@ ?::tsquery"
PREFIX = "SELECT card FROM card_name WHERE compact >= ? AND compact < ?"


def pg(query: str, stem_langs: tuple[str, ...] | None) -> tuple[str, list]:
    return compile_sql(parse(query), stem_langs, "postgresql")


@pytest.mark.parametrize(
    ("query", "langs", "params"),
    [
        ("pika", ("en", "fr"), ["'pika':*", "'pika'", "('en_pika') | ('fr_pik')", "pika", "pikb"]),
        (
            '"fire spin"',
            ("en", "fr"),
            ["'fire' <-> 'spin'", "'fire' <-> 'spin'", "('en_fire' <-> 'en_spin') | ('fr_fir' <-> 'fr_spin')", "firespin", "firespio"],
        ),
        ("ho-oh", ("en",), ["'ho' <-> 'oh':*", "'ho' <-> 'oh'", "('en_ho' <-> 'en_oh')", "hooh", "hooi"]),
        ('"pika"', ("en",), ["'pika'", "'pika'", "('en_pika')", "pika", "pikb"]),
        ("fire", ("en", "en"), ["'fire':*", "'fire'", "('en_fire')", "fire", "firf"]),  # the same stems once
    ],
)
def test_a_bare_word_or_phrase(query, langs, params):
    assert pg(query, langs) == (f"c.rowid IN ({FTS} UNION ALL {STEMS} UNION ALL {PREFIX})", params)


def test_a_card_id_adds_the_card_of_that_id():
    """``base1-4`` is also the card of that id (a word shaped as one: a set code, ``-``, a collector
    number); a hyphenated word such as ``ho-oh`` is not."""
    sql, params = pg("BASE1-4", ())
    assert sql.endswith(" UNION ALL SELECT rowid FROM card WHERE id = ?)") and params[-1] == "base1-4"
    assert "FROM card WHERE id" not in pg("ho-oh", ())[0]


def test_no_stem_language_leaves_the_stems_out():
    assert pg("pika", ()) == (f"c.rowid IN ({FTS} UNION ALL {PREFIX})", ["'pika':*", "'pika'", "pika", "pikb"])


def test_every_stemmer_language_when_the_index_does_not_say():
    sql, params = pg("pika", None)
    assert sql == f"c.rowid IN ({FTS} UNION ALL {STEMS} UNION ALL {PREFIX})"
    assert params[2].split(" | ")[:3] == ["('ar_pika')", "('ca_pik')", "('cs_pik')"]
    assert len(params[2].split(" | ")) == 28


def test_a_field_searches_its_column_only_and_no_name_prefix():
    assert pg('text:"draw a card"', ("en", "fr")) == (
        f"c.rowid IN (SELECT rowid FROM card_fts WHERE body @@ ?::tsquery UNION ALL {STEMS})",
        ["'draw' <-> 'a' <-> 'card'", "('en_draw' <-> 'en_a' <-> 'en_card') | ('fr_draw' <-> 'fr_a' <-> 'fr_card')"],
    )


def test_a_word_with_no_token_stem_or_name_matches_nothing():
    """``_`` is a word character, but FTS5's tokenizer drops it and it has no letters: no phrase."""
    assert pg("_", ()) == ("FALSE", [])


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


def test_a_broad_word_tested_row_by_row_on_postgresql():
    """pg_row_probe: the same tsquery values as the IN form, on the joined full-text rows."""
    from cardlab.search.compile import pg_row_probe

    assert pg_row_probe(parse("pika"), ("en", "fr")) == (
        ["f", "st"],
        "(f.names @@ ?::tsquery OR f.body @@ ?::tsquery OR st.stems @@ ?::tsquery"
        " OR c.rowid IN (SELECT card FROM card_name WHERE compact >= ? AND compact < ?))",
        ["'pika':*", "'pika'", "('en_pika') | ('fr_pik')", "pika", "pikb"],
    )
    assert pg_row_probe(parse('text:"draw a card"'), ()) == (["f"], "(f.body @@ ?::tsquery)", ["'draw' <-> 'a' <-> 'card'"])
    for other in ("type:fire", "-pika", "pika type:fire", "ピカ", ""):
        assert pg_row_probe(parse(other), ("en",)) is None


def test_a_page_of_a_broad_word_reads_the_cards_in_row_order_from_its_cursor():
    """page_statement with probe_rows on PostgreSQL: the side of exact names as before, the rest
    joined to card_fts and card_stem by row id, each starting at the cursor's row id."""
    from cardlab.search.compile import page_statement
    from cardlab.search.request import SearchRequest

    request = SearchRequest("pika")
    sql, params, sides = page_statement(request, parse("pika"), ("en",), "postgresql", (1, [4242]), 51, 0, True, True, True)
    assert sides == 2
    assert sql.count("SELECT * FROM") == 1  # the cursor is on the second side: the first is not read
    assert " FROM card c JOIN card_fts f ON f.rowid = c.rowid JOIN card_stem st ON st.rowid = c.rowid WHERE ((f.names @@ " in sql
    assert sql.endswith("AND ((c.rowid > ?)) AND f.rowid > ? AND st.rowid > ? ORDER BY c.rowid LIMIT ?) AS side1 LIMIT ? OFFSET ?")
    assert params[-6:] == [4242, 4242, 4242, 51, 51, 0]
    first, _, _ = page_statement(request, parse("pika"), ("en",), "postgresql", None, 51, 0, True, True, True)
    side0, side1 = first.split(" UNION ALL SELECT * FROM ")
    assert "card_fts f" not in side0 and "c.rowid IN (SELECT rowid FROM card_fts" in side0
    assert "JOIN card_fts f" in side1
    # another order, the other direction, or a facet: every match gathered (no join)
    for req, q in ((SearchRequest("pika", sort="set"), "pika"), (SearchRequest("pika", reverse=True), "pika"), (request, "type:fire")):
        assert "JOIN card_fts" not in page_statement(req, parse(q), ("en",), "postgresql", None, 51, 0, True, True, True)[0]
    assert "JOIN card_fts" not in page_statement(request, parse("pika"), ("en",), "sqlite", None, 51, 0, True, True, True)[0]


def test_a_gathered_page_on_postgresql_chooses_its_row_ids_before_reading_cards():
    """Issue 29: page_statement on PostgreSQL, a word gathered from its indexes (not read in row
    order) in the default order: outside the side of exact names, the page's row ids are chosen
    inside the IN (the side's flag and the cursor on them, grouped, sorted, LIMIT), so only the
    page's cards are read from card; the side of exact names, another sort, going down and a
    facet keep the plain condition."""
    from cardlab.search.compile import page_statement
    from cardlab.search.request import SearchRequest

    request = SearchRequest("pika")
    sql, params, sides = page_statement(request, parse("pika"), ("en",), "postgresql", (1, [4242]), 51, 0, True, True, False)
    assert sides == 2
    chosen = (
        " UNION ALL SELECT card FROM card_name WHERE compact >= ? AND compact < ?) AS a(r)"
        " WHERE NOT EXISTS (SELECT 1 FROM card_name e WHERE e.compact = ? AND e.card = a.r) AND a.r > ?"
        " GROUP BY a.r ORDER BY a.r LIMIT ?) AND NOT EXISTS"
    )
    assert chosen in sql
    assert params[-10:] == ["pika", "pikb", "pika", 4242, 51, "pika", 4242, 51, 51, 0]
    side0, side1 = page_statement(request, parse("pika"), ("en",), "postgresql", None, 51, 0, True, True, False)[0].split(
        " UNION ALL SELECT * FROM "
    )
    assert "AS a(r)" not in side0 and "c.rowid IN (SELECT card FROM card_name WHERE compact = ?)" in side0
    assert "AS a(r) WHERE NOT EXISTS" in side1 and "a.r > ?" not in side1
    for req, q in ((SearchRequest("pika", sort="set"), "pika"), (SearchRequest("pika", reverse=True), "pika"), (request, "type:fire")):
        assert "AS a(r)" not in page_statement(req, parse(q), ("en",), "postgresql", None, 51, 0, True, True, False)[0]
    # read in row order (a broad word's probe), it is not gathered at all
    assert "AS a(r)" not in page_statement(request, parse("pika"), ("en",), "postgresql", None, 51, 0, True, True, True)[0]


def test_a_page_of_a_word_on_sqlite_reads_each_arm_bounded_from_its_cursor():
    """Issue 29: page_statement on SQLite, a word in the default order: each arm of its IN (card_fts,
    card_stem) read in row order after the cursor's row id, LIMIT the page; reversed, down from it;
    with the side's flag (not an exact name) inside each arm. Another order or query, or a word
    known to match few cards, keeps the plain IN."""
    from cardlab.search.compile import page_statement
    from cardlab.search.request import SearchRequest

    sql, params, sides = page_statement(SearchRequest("energy"), parse("energy"), ("en",), "sqlite", (1, [4242]), 51, 0, True, False, True)
    assert sides == 2
    assert (
        "SELECT * FROM (SELECT card_fts.rowid FROM card_fts WHERE card_fts MATCH ? AND card_fts.rowid > ? AND card_fts.rowid NOT IN ("
        in sql
    )
    assert "card_stem.rowid > ? AND card_stem.rowid NOT IN (" in sql and "ORDER BY card_stem.rowid LIMIT ?" in sql
    # the names typed without spaces: kept whole (the flags and cursor tested on card)
    assert " UNION ALL SELECT n.rowid FROM card n WHERE n.id IN (SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?))" in sql
    # the side of exact names (read first) as before: one plain IN
    side0, side1 = page_statement(SearchRequest("energy"), parse("energy"), ("en",), "sqlite", None, 51, 0, True, False, True)[0].split(
        " AS side0 "
    )
    assert ("card_fts.rowid" in side0, "ORDER BY card_fts.rowid LIMIT ?" in side1) == (False, True)
    assert params[:4] == ['{names} : "energy"* OR {body} : "energy"', 4242, "energy", 51]
    down, params, _ = page_statement(
        SearchRequest("energy", reverse=True), parse("energy"), ("en",), "sqlite", (0, [4242]), 51, 0, True, False, True
    )
    assert "card_fts.rowid < ? AND (SELECT s.release_date FROM card u" in down and "ORDER BY card_fts.rowid DESC LIMIT ?" in down
    first, _, _ = page_statement(SearchRequest("energy"), parse("text:energy"), ("en",), "sqlite", None, 51, 0, False, False, True)
    assert "ORDER BY card_fts.rowid LIMIT ?" in first and "card_fts.rowid >" not in first
    for req, q in (
        (SearchRequest("energy", sort="set"), "energy"),
        (SearchRequest("x"), "energy or fire"),
        (SearchRequest("x"), "-energy"),
    ):
        assert "ORDER BY card_fts.rowid" not in page_statement(req, parse(q), ("en",), "sqlite", None, 51, 0, True, False, True)[0]
    # a word known to match few cards (probe_rows False): the plain IN
    assert (
        "ORDER BY card_fts.rowid" not in page_statement(SearchRequest("energy"), parse("energy"), ("en",), "sqlite", None, 51, 0, True)[0]
    )


def test_word_stats_held_by_the_process_answer_as_the_rows_of_word_stat_do():
    """WordStats from word_stat's rows (col, lexeme, docs, reach, highest row id): a bare word
    past the bound by its row of the whole arm, a quoted word by the lexeme in names or body,
    text: by body alone, any of them by its stem in a language searched; a bare word with no row is within the bound only when the row of no
    lexeme says the table was kept for this bound; a quoted word with no row cannot be told."""
    from cardlab.index.postgres import WORD_UNION
    from cardlab.search.compile import WORD_UNION_COL, WordStats

    assert WORD_UNION_COL == WORD_UNION
    rows = [
        (WORD_UNION, "energy", 2600, 3713, 9000),
        ("names", "energyx", 1200, 700, 9000),
        ("body", "energy", 2400, 3992, 9000),
        ("stems", "en_attack", 5000, 40, 9000),
        ("", "", 0, 0, 9000),
    ]
    stats = WordStats.of(rows, 1000)
    assert (stats.complete, stats.cards) == (True, 9000)
    assert stats.words(parse("energy"), ("en",)) == (1001, 3713, 9000)
    assert stats.words(parse("zzzz"), ("en",)) == (0, None, 9000)
    # a rare word whose stem is common passes the bound by its stem, in any form
    assert stats.words(parse("attacking"), ("en",)) == (1001, 40, 9000)
    assert stats.words(parse("text:attacks"), ("en",)) == (1001, 40, 9000)
    assert stats.words(parse("attacking"), ("fr",)) == (0, None, 9000)
    assert stats.words(parse("text:energy"), ("en",)) == (1001, 3992, 9000)
    assert stats.words(parse('"energy"'), ("en",)) == (1001, 3992, 9000)
    assert stats.words(parse('"zzzz"'), ("en",)) is None
    assert stats.words(parse("type:energy"), ("en",)) is None
    assert stats.words(parse("-energy"), ("en",)) is None
    unkept = WordStats.of(rows[:4], 1000)
    assert (unkept.complete, unkept.words(parse("zzzz"), ("en",))) == (False, None)
    assert WordStats.of([], 1000).words(parse("energy"), ("en",)) is None
