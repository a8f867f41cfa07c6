"""Issue 29: a search read a page at a time (cardlab.search.engine.find_page): keyset pages over every
order, totals exact or bounded, cursors refused when edited, bad sizes and pages refused clearly."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.errors import UsageError
from cardlab.index.sqlite import build_index, connect
from cardlab.search import engine
from cardlab.search.compile import SORTS
from cardlab.search.engine import find_page, search
from cardlab.search.paging import CursorError
from tests.walk_pages import walk

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "catalog"

ATOMS = [
    "char",
    "fire",
    "energy",
    "damage",
    "pikachu",
    "zzzz",
    "type:fire",
    "type:water",
    "supertype:pokemon",
    "stage:basic",
    "set:base1",
    "set:base4",
    "hp>=60",
    "retreat<=1",
    "rarity:rare",
    '"fire spin"',
    "testemon",
]
"""Terms the random queries are made of: words (names and rules text, exact names first), facets,
sets, numbers, a phrase, a word matching nothing, a fixture card's name."""

queries = st.lists(st.tuples(st.booleans(), st.sampled_from(ATOMS)), max_size=3).flatmap(
    lambda parts: st.sampled_from([" ", " or "]).map(lambda joiner: joiner.join(("-" if neg else "") + atom for neg, atom in parts))
)


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    """Every shipped card and the fixture catalog (under 1,000 cards: totals are exact)."""
    db = tmp_path_factory.mktemp("idx") / "index.sqlite"
    build_index([REPO / "cards", FIXTURES], db)
    c = connect(db)
    yield c
    c.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    query=queries,
    sort=st.sampled_from(list(SORTS)),
    reverse=st.booleans(),
    unique=st.sampled_from(["prints", "cards"]),
    size=st.integers(min_value=7, max_value=80),
)
def test_walking_every_page_gives_the_whole_result_once(con, query, sort, reverse, unique, size):
    whole = [h.id for h in search(con, query, sort=sort, reverse=reverse, unique=unique)]
    ids, pages = walk(con, query, size, sort=sort, reverse=reverse, unique=unique)
    assert ids == whole
    assert len(set(ids)) == len(ids)
    assert {(p.total, p.total_is_exact) for p in pages} == {(len(whole), True)}  # under TOTAL_BOUND: exact
    assert len(pages) == max(1, -(-len(whole) // size))


@pytest.mark.parametrize("sort", list(SORTS))
def test_page_numbers_are_the_same_pages_as_the_cursor(con, sort):
    _, pages = walk(con, "type:fire or energy", 20, sort=sort, reverse=True)
    for number, page in enumerate(pages, start=1):
        numbered = find_page(con, "type:fire or energy", page_size=20, page=number, sort=sort, reverse=True)
        assert [h.id for h in numbered.hits] == [h.id for h in page.hits]
        assert numbered.has_more == page.has_more


def test_hits_carry_names_and_display_strings(con):
    page = find_page(con, "charizard", page_size=5, langs=["fr"])
    assert [(h.id, h.name) for h in page.hits[:1]] == [("base1-4", "Dracaufeu")]
    assert page.hits[0].stats.startswith("120 HP")
    assert page.hits[0].data["number"] == "4"


def test_totals_are_exact_up_to_the_bound_then_a_lower_bound(con, monkeypatch):
    monkeypatch.setattr(engine, "TOTAL_BOUND", 40)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    base1 = find_page(con, "set:base1", page_size=10)
    assert (base1.total, base1.total_is_exact) == (41, False)  # "more than 40": 102 match
    assert base1.has_more
    last = find_page(con, "set:base1", page_size=10, page=11)  # the end in hand: the total is known
    assert (len(last.hits), last.total, last.total_is_exact, last.next_cursor) == (2, 102, True, None)
    again = find_page(con, "set:base1", page_size=10)
    assert (again.total, again.total_is_exact) == (102, True)  # remembered for the query
    fire = find_page(con, "set:base1 type:water", page_size=10)
    assert (fire.total, fire.total_is_exact, len(fire.hits)) == (13, True, 10)
    whole = find_page(con, "", page_size=10)
    assert (whole.total, whole.total_is_exact) == (len(search(con, "")), True)  # every card: one count of the table
    small = find_page(con, "charizard", page_size=10)
    assert (small.total, small.total_is_exact, small.next_cursor) == (len(small.hits), True, None)


def test_totals_are_counted_once_per_query_and_index(con, monkeypatch):
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    counted = []
    real = engine.bounded_count_statement
    monkeypatch.setattr(engine, "bounded_count_statement", lambda *a: counted.append(a[0]) or real(*a))
    first = find_page(con, "supertype:pokemon", page_size=10)
    find_page(con, "supertype:pokemon", page_size=10, cursor=first.next_cursor)
    find_page(con, "supertype:pokemon", page_size=10, page=3, sort="hp")
    assert len(counted) == 1
    assert len(engine._TOTALS) == 1


def test_a_query_known_to_match_nothing_reads_no_card_again(con, monkeypatch):
    """A query whose total is known to be 0 for this index is answered without its statements (a
    SQLite connection keeps reading the file it opened); one with cards is read each time."""
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    statements: list[str] = []
    con.set_trace_callback(statements.append)
    try:
        assert find_page(con, "qqqqzz").total == 0
        read = len(statements)
        statements.clear()
        for options in ({}, {"page": 4}, {"sort": "hp"}, {"unique": "cards"}):
            page = find_page(con, "qqqqzz", **options)
            assert (page.hits, page.total, page.total_is_exact, page.next_cursor) == ([], 0, True, None)
        assert not any("card_fts" in s or "FROM card c" in s for s in statements)
        assert read > 0 and len(statements) <= 4 * 2  # the index's fingerprint and stem languages
        statements.clear()
        find_page(con, "pikachu")
        find_page(con, "pikachu")
        assert sum("card_fts" in s for s in statements) >= 2
    finally:
        con.set_trace_callback(None)


def test_a_page_past_the_end_is_empty_with_the_total(con):
    page = find_page(con, "", page_size=1000, page=10_000)
    assert (page.hits, page.next_cursor, page.total, page.total_is_exact) == ([], None, len(search(con, "")), True)
    fire = find_page(con, "set:base1 type:water", page_size=50, page=2)
    assert (fire.hits, fire.total, fire.total_is_exact) == ([], 13, True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"page_size": 10**9}, "page_size: a number from 1 to 1,000, not 1000000000"),
        ({"page_size": 0}, "page_size: a number from 1 to 1,000, not 0"),
        ({"page": 10_001}, "page: a number from 1 to 10,000, not 10001"),
        ({"page": 0}, "page: a number from 1 to 10,000, not 0"),
        ({"page": 2, "cursor": "x.y"}, "give a cursor or a page number, not both"),
        ({"sort": "price"}, "unknown sort 'price'; choose one of: number, name, set, rarity, artist, hp"),
    ],
)
def test_bad_options_are_refused_clearly(con, options, message):
    with pytest.raises(UsageError) as err:
        find_page(con, "fire", **options)
    assert str(err.value) == message


def _edited(cursor: str) -> list[str]:
    """The ways a person edits a cursor by hand: a character changed in the data or the
    signature, cut short, the signature dropped, a field added."""
    data, _, mac = cursor.partition(".")
    flip = {"A": "B"}.get(data[3], "A")
    return [
        data[:3] + flip + data[4:] + "." + mac,
        data + "." + mac[:-1] + ("A" if mac[-1] != "A" else "B"),
        cursor[:-4],
        data,
        cursor + ".x",
        "",
        "🂡" * 3000,
        "!!!.???",
    ]


@pytest.mark.parametrize("sort", ["number", "artist", "name"])
def test_an_edited_cursor_is_refused(con, sort):
    cursor = find_page(con, "supertype:pokemon", page_size=10, sort=sort).next_cursor
    assert cursor is not None
    for bad in _edited(cursor):
        if not bad:
            continue  # an empty cursor is no cursor: the first page
        with pytest.raises(CursorError, match="not one this server gave for this search"):
            find_page(con, "supertype:pokemon", page_size=10, sort=sort, cursor=bad)


def test_a_cursor_of_another_search_or_index_is_refused(con, tmp_path):
    cursor = find_page(con, "supertype:pokemon", page_size=10).next_cursor
    with pytest.raises(CursorError):
        find_page(con, "supertype:trainer", page_size=10, cursor=cursor)
    with pytest.raises(CursorError):
        find_page(con, "supertype:pokemon", page_size=10, cursor=cursor, reverse=True)
    other = tmp_path / "base1.sqlite"
    build_index([REPO / "cards" / "pokemon" / "base1"], other)  # another catalog: another fingerprint
    with pytest.raises(CursorError, match="from before the index was rebuilt"):
        find_page(connect(other), "supertype:pokemon", page_size=10, cursor=cursor)
    second = find_page(con, "supertype:pokemon", page_size=10, cursor=cursor)  # the right one still reads
    assert len(second.hits) == 10


def test_a_word_past_the_bound_is_counted_from_its_index_alone(con, monkeypatch):
    monkeypatch.setattr(engine, "TOTAL_BOUND", 5)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    whole = []
    real = engine.bounded_count_statement
    monkeypatch.setattr(engine, "bounded_count_statement", lambda *a: whole.append(a[0]) or real(*a))
    energy = find_page(con, "energy", page_size=3)
    assert (energy.total, energy.total_is_exact, whole) == (6, False, [])  # its full-text rows alone pass 5
    charizard = find_page(con, "charizard", page_size=1)
    assert (charizard.total, charizard.total_is_exact) == (len(search(con, "charizard")), True)
    assert len(whole) == 1  # under the bound: counted whole (stems and names too)


@pytest.mark.parametrize("unique", ["prints", "cards"])
def test_a_reversed_name_search_pages_by_its_key_alone(con, unique):
    """Finding: reversed, the pages of ``pikachu`` still put the cards named Pikachu first while the
    whole result orders by number alone (exact names first only in the default order)."""
    whole = [h.id for h in search(con, "pikachu", sort="number", reverse=True, unique=unique)]
    ids, _pages = walk(con, "pikachu", 7, sort="number", reverse=True, unique=unique)
    assert ids == whole
    assert whole[0] == "gym2-84"  # Lt. Surge's Pikachu, the last set's: not a card named Pikachu first


def test_a_broad_word_is_read_in_row_order_when_its_page_comes_sooner_than_its_matches(monkeypatch):
    """engine._row_order: n matches counted among the first `last` of `cards` rows; row order
    when rows * last**2 < 2 * n**2 * cards (each match gathered from two tables: the counts of
    EXPLAIN ANALYZE at 100,000 cards)."""
    monkeypatch.setattr(engine, "_REACH", OrderedDict())
    reach = {
        "energy": (1001, 11373, 100000),
        "switch": (1001, 41062, 100000),
        "pied": (1001, 45956, 100000),
        "water": (1001, 92373, 100000),
    }
    for word, row in reach.items():
        engine._remember(("fp", "postgresql", word), (1001, False), row)
    # 51 rows: energy reads ~580 cards against ~8,800 matches twice; switch ~2,090 against ~2,440;
    # pied ~2,340 against ~2,180 (twice: 8.9 against 14.5 ms); water ~4,700 against ~1,080
    assert [engine._row_order(("fp", "postgresql", w), 51) for w in reach] == [True, True, True, False]
    # page 100 by number (5,001 rows): energy's ~56,800 cards against ~8,800 matches: gathered
    assert engine._row_order(("fp", "postgresql", "energy"), 5001) is False
    assert engine._row_order(("fp", "postgresql", "never counted"), 51) is False
    engine._remember(("fp", "sqlite", "energy"), (1001, False), (1001,))  # SQLite's word count: the number alone
    assert engine._row_order(("fp", "sqlite", "energy"), 51) is False


def test_a_cursor_of_the_older_layout_is_refused(monkeypatch):
    """Cursors of version 1 (a PostgreSQL page of a word no card is named had no side of exact
    names then) are refused, never read as another side's place."""
    from cardlab.search import paging
    from cardlab.search.request import SearchRequest

    request = SearchRequest("zzzz")
    monkeypatch.setattr(paging, "_VERSION", 1)
    old = paging.encode_cursor(request, "postgresql:fp", [0, [42]])
    monkeypatch.setattr(paging, "_VERSION", 2)
    assert paging.decode_cursor(paging.encode_cursor(request, "postgresql:fp", [0, [42]]), request, "postgresql:fp") == [0, [42]]
    with pytest.raises(CursorError, match="start again from the first page"):
        paging.decode_cursor(old, request, "postgresql:fp")


BROAD_WORDS = ("energy", "damage", "fire", "char", "text:energy", "test")
"""Words of more than two pages of 7; `damage` and `test` also match the fictional set with no
release date (monpa-test), the last side of the reversed order."""


@pytest.mark.parametrize(
    "word", ["energy", "damage", "test", "fire", "pikachu", "char", "text:energy", '"fire spin"', "base1-4", "♀", "zzzz"]
)
@pytest.mark.parametrize("reverse", [False, True])
def test_a_word_read_arm_by_arm_gives_the_pages_of_the_whole_match(con, monkeypatch, word, reverse):
    """Issue 29: on SQLite a word's page in the default order reads each full-text arm in row order
    from the cursor, a page's rows at most (compile.sqlite_row_arms); its pages, by cursor and by
    number, forward and reversed, are those of the plain IN that gathers every match first."""
    from cardlab.search import compile as compiler

    monkeypatch.setattr(engine, "TOTAL_BOUND", 3)  # past 3 matches a word is broad: every page read by arms
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    armed = []
    real = compiler.sqlite_row_arms
    monkeypatch.setattr(compiler, "sqlite_row_arms", lambda *a: armed.append(real(*a)) or armed[-1])
    ids, pages = walk(con, word, 7, reverse=reverse)
    numbered = [[h.id for h in find_page(con, word, page_size=7, page=n, reverse=reverse).hits] for n in (1, 2, 5)]
    assert (len(armed) >= len(pages), None in armed) == (True, False)  # every page by cursor read by arms
    monkeypatch.setattr(compiler, "sqlite_row_arms", lambda *a: None)  # the plain IN: every match gathered
    assert ids == walk(con, word, 7, reverse=reverse)[0] == [h.id for h in search(con, word, reverse=reverse)]
    assert numbered == [[h.id for h in find_page(con, word, page_size=7, page=n, reverse=reverse).hits] for n in (1, 2, 5)]
    assert (len(ids) > 14, len(ids) == len(set(ids))) == (word in BROAD_WORDS, True)  # several pages, each card once


def test_a_whole_name_first_stays_first_read_arm_by_arm(con, monkeypatch):
    """A word that is a card's whole name (pikachu) lists those cards first, then the rest in row
    order (the arms read bounded on the second side)."""
    monkeypatch.setattr(engine, "TOTAL_BOUND", 3)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    ids, _pages = walk(con, "pikachu", 5)
    named = [r[0] for r in con.execute("SELECT card_id FROM card_name WHERE compact = 'pikachu'")]
    assert set(ids[: len(set(named))]) == set(named)
    assert ids[len(set(named)) :] == [h.id for h in search(con, "pikachu") if h.id not in named]
