"""Issue 29 on both backends: walking every page of a search by cursor (cardlab.search.engine.find_page)
gives the whole ordered result once, the same on SQLite and PostgreSQL, for random queries over the
fixture catalog and the shipped cards."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.search import engine
from cardlab.search.compile import SORTS, WordStats, one_bare_word, word_stats_statement
from cardlab.search.paging import CursorError
from cardlab.search.query.parse import parse
from tests.walk_pages import walk as walk_pages

ATOMS = ["char", "fire", "energy", "testemon", "zzzz", "type:fire", "type:water", "stage:basic", "set:base1", "hp>=60", '"fire spin"']
"""Terms of the random queries (words, facets, a set, numbers, a phrase, nothing)."""

queries = st.lists(st.tuples(st.booleans(), st.sampled_from(ATOMS)), max_size=3).flatmap(
    lambda parts: st.sampled_from([" ", " or "]).map(lambda joiner: joiner.join(("-" if neg else "") + atom for neg, atom in parts))
)


def walk(con, query: str, size: int, **options) -> tuple[list[str], list[tuple[int, bool]]]:
    """Every page of ``query`` by cursor (tests.walk_pages): the ids in order, and each page's (total, exact)."""
    ids, pages = walk_pages(con, query, size, **options)
    return ids, [(p.total, p.total_is_exact) for p in pages]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    query=queries,
    sort=st.sampled_from(list(SORTS)),
    reverse=st.booleans(),
    unique=st.sampled_from(["prints", "cards"]),
    size=st.integers(min_value=9, max_value=80),
)
def test_walking_every_page_is_the_whole_result_on_both(indexed, query, sort, reverse, unique, size):
    pair = indexed("shipped")
    options = {"sort": sort, "reverse": reverse, "unique": unique}
    whole = [h.id for h in engine.search(pair.sqlite, query, **options)]
    on_sqlite = walk(pair.sqlite, query, size, **options)
    on_pg = walk(pair.pg, query, size, **options)
    assert on_pg == on_sqlite
    assert on_pg[0] == whole
    assert set(on_pg[1]) == {(len(whole), True)}


def test_bounded_totals_and_cursors_on_postgresql(indexed, monkeypatch):
    pair = indexed("fixture")
    monkeypatch.setattr(engine, "TOTAL_BOUND", 2)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    first = engine.find_page(pair.pg, "", page_size=2)
    assert (first.total, first.total_is_exact) == (len(engine.search(pair.pg, "")), True)
    fire = engine.find_page(pair.pg, "type:fire", page_size=1)
    assert ([h.id for h in fire.hits], fire.total, fire.total_is_exact) == (["test1-1"], 3, False)
    assert engine.find_page(pair.pg, "type:fire", page_size=5).next_cursor is None
    with pytest.raises(CursorError):
        engine.find_page(pair.pg, "type:fire", page_size=1, cursor=fire.next_cursor[:-2] + "zz")
    with pytest.raises(CursorError):  # a SQLite index's cursor: another index
        engine.find_page(
            pair.pg, "type:fire", page_size=1, cursor=engine.find_page(indexed("shipped").sqlite, "type:fire", page_size=1).next_cursor
        )
    with pytest.raises(CursorError):  # the same catalog's SQLite index: its sides are not PostgreSQL's
        engine.find_page(pair.pg, "type:fire", page_size=1, cursor=engine.find_page(pair.sqlite, "type:fire", page_size=1).next_cursor)
    second = engine.find_page(pair.pg, "type:fire", page_size=1, cursor=fire.next_cursor)
    assert [h.id for h in second.hits] == ["test1-2"]


def test_readers_start_no_parallel_workers(indexed):
    """A page reads a few rows by index: the reader session never plans a Gather (its workers
    cost more than the query) nor compiles a plan (JIT)."""
    pair = indexed("fixture")
    assert pair.pg.execute("SHOW max_parallel_workers_per_gather").fetchone() == ("0",)
    assert pair.pg.execute("SHOW jit").fetchone() == ("off",)
    plan = "\n".join(r[0] for r in pair.pg.execute("EXPLAIN SELECT COUNT(*) FROM card c, card_name n WHERE n.card_id = c.id"))
    assert "Gather" not in plan


@pytest.mark.parametrize("word", ["energy", "damage", "pikachu", "char", "text:energy", '"energy card"', "zzzz"])
def test_broad_words_read_in_row_order_give_the_pages_of_sqlite(indexed, monkeypatch, word):
    """A word past the bound on PostgreSQL, its cards read in row order and tested one by one
    (compile.pg_row_probe: the joins to card_fts and card_stem, and their start at the cursor),
    gives the pages of SQLite by cursor and by page number; a word with no match too."""
    from cardlab.search import compile as compiler

    pair = indexed("shipped")
    monkeypatch.setattr(engine, "TOTAL_BOUND", 3)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    monkeypatch.setattr(engine, "_WORD_STATS", OrderedDict())  # no word_rows for 3 in this index: not read
    monkeypatch.setattr(engine, "_row_order", lambda key, rows: True)
    probed = []
    real = compiler.pg_row_probe
    monkeypatch.setattr(compiler, "pg_row_probe", lambda *a: probed.append(real(*a)) or probed[-1])
    on_pg = walk(pair.pg, word, 7)
    assert on_pg == walk(pair.sqlite, word, 7)
    whole = [h.id for h in engine.search(pair.sqlite, word)]
    assert on_pg[0] == whole
    assert (len(whole) > 3, bool(probed) and None not in probed) == ((True, True) if word != "zzzz" else (False, False))
    for number in (2, 3):
        pages = [engine.find_page(con, word, page_size=7, page=number) for con in (pair.pg, pair.sqlite)]
        assert [h.id for h in pages[0].hits] == [h.id for h in pages[1].hits] == whole[7 * (number - 1) : 7 * number]


@pytest.mark.parametrize("word", ["energy", "pikachu", "fire", "water", "c", "e", "heads", "attacking", "base1-4", "zzzz"])
def test_common_words_read_from_word_rows_give_the_pages_of_sqlite(indexed, monkeypatch, word):
    """A bare word past the bound (the shipped cards with word_stat and word_rows kept at 3, in runs
    of 4 row ids; the engine at 3) reads its side of no exact name from word_rows
    (compile.posted_side: its common arms by runs from the cursor on, the others gathered): every
    page by cursor, pages by number and its first view give SQLite's pages and totals, with and
    without a side of exact names (pikachu), for a word common by its stem alone (attacking)."""
    from cardlab.search import compile as compiler

    pair = indexed("shipped-bound3")
    monkeypatch.setattr(engine, "TOTAL_BOUND", 3)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    monkeypatch.setattr(engine, "_WORD_STATS", OrderedDict())
    engine._built_once.cache_clear()
    used = []
    real = compiler.posted_side
    monkeypatch.setattr(compiler, "posted_side", lambda *a: used.append(real(*a)) or used[-1])
    whole = [h.id for h in engine.search(pair.sqlite, word)]
    for size in (1, 4, 9):
        on_pg = walk(pair.pg, word, size)
        assert on_pg == walk(pair.sqlite, word, size)
        assert on_pg[0] == whole
    for number in (1, 2, 5):
        engine._TOTALS.clear()
        pages = [engine.find_page(con, word, page_size=4, page=number) for con in (pair.pg, pair.sqlite)]
        assert [h.id for h in pages[0].hits] == [h.id for h in pages[1].hits] == whole[4 * (number - 1) : 4 * number]
        assert (pages[0].total, pages[0].total_is_exact) == (pages[1].total, pages[1].total_is_exact)
    assert any(u is not None for u in used) == (len(whole) > 3 and word != "base1-4")


@pytest.mark.parametrize("word", ["pikachu", "fire", "energy", "char", "zzzz"])
def test_gathered_pages_choose_their_rows_first_and_give_the_pages_of_sqlite(indexed, monkeypatch, word):
    """A word gathered from its indexes on PostgreSQL (a page after a cursor chooses its row ids
    before its cards are read: compile._gathered_first; a page by number gathers the matches once
    for its rows and its total: compile.counted_page_statement), with and without a side of exact
    names (pikachu), gives the pages of SQLite by cursor and by page number."""
    from cardlab.search import compile as compiler

    pair = indexed("shipped")
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    monkeypatch.setattr(engine, "_row_order", lambda key, rows: False)
    engine._built_once.cache_clear()  # the statements built by earlier tests are built again
    chosen = []
    real = compiler._gathered_first
    monkeypatch.setattr(compiler, "_gathered_first", lambda *a: chosen.append(real(*a)) or chosen[-1])
    counted = []
    real_counted = engine._counted_page_once
    monkeypatch.setattr(engine, "_counted_page_once", lambda *a: counted.append(real_counted(*a)) or counted[-1])
    on_pg = walk(pair.pg, word, 7)
    whole = [h.id for h in engine.search(pair.sqlite, word)]
    assert on_pg == walk(pair.sqlite, word, 7)
    assert on_pg[0] == whole
    assert any(c is not None for c in chosen) == (len(whole) > 7)  # the pages after a cursor
    for number in (2, 3):
        pages = [engine.find_page(con, word, page_size=7, page=number) for con in (pair.pg, pair.sqlite)]
        assert [h.id for h in pages[0].hits] == [h.id for h in pages[1].hits] == whole[7 * (number - 1) : 7 * number]
    assert any(c is not None for c in counted)  # pages by number: their rows and total from one gathering


STAT_WORDS = ["energy", "damage", "coin", "flip", "pokémon", "fire", "water", "char", "c", "e", "heads", "ener", "zz", "trainer"]
"""Words of the shipped cards in more than 3 cards (a whole word, a lexeme's prefix, one letter) and not."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    word=st.sampled_from(STAT_WORDS) | st.text(alphabet="acdeforstwzé", min_size=1, max_size=4),
    form=st.sampled_from(["{}", '"{}"', "text:{}"]),
    size=st.integers(min_value=3, max_value=40),
    number=st.integers(min_value=1, max_value=3),
    held=st.booleans(),
    order=st.sampled_from([("number", False), ("number", True), ("set", False), ("hp", True)]),
)
def test_first_views_that_read_word_stat_give_the_pages_of_sqlite(indexed, word, form, size, number, held, order):
    """PostgreSQL's word count read from word_stat (built at the engine's bound, here 3: the
    shipped cards have no word in 1,000 cards), for a bare word, a quoted one and text:, gives the
    first view (its page, its total, whether exact) and the next page by cursor of SQLite, in the
    default order and others: read in the first view's message, or held by the process (``held``:
    the page chosen before it is sent, one message)."""
    from unittest import mock

    pair = indexed("shipped-bound3")
    query = form.format(word)
    stats = OrderedDict()
    if held:
        stats[(pair.pg.fingerprint(), 3)] = WordStats.of(pair.pg.fetch(word_stats_statement(3), []), 3)
    with (
        mock.patch.object(engine, "TOTAL_BOUND", 3),
        mock.patch.object(engine, "_TOTALS", OrderedDict()),
        mock.patch.object(engine, "_WORD_STATS", stats),
    ):
        sort, reverse = order
        pages = [engine.find_page(con, query, page_size=size, page=number, sort=sort, reverse=reverse) for con in (pair.pg, pair.sqlite)]
        assert [[h.id for h in p.hits] for p in pages] == [[h.id for h in pages[1].hits]] * 2
        assert (pages[0].total, pages[0].total_is_exact) == (pages[1].total, pages[1].total_is_exact)
        assert len(stats) == (1 if held or one_bare_word(parse(query)) else 0)  # read with a word's first view
        if number == 1 and pages[0].next_cursor:
            after = [
                engine.find_page(con, query, page_size=size, cursor=p.next_cursor, sort=sort, reverse=reverse)
                for con, p in zip((pair.pg, pair.sqlite), pages, strict=True)
            ]
            assert [h.id for h in after[0].hits] == [h.id for h in after[1].hits]


@pytest.mark.parametrize("form", ["{}", '"{}"', "text:{}"])
def test_word_stat_held_by_the_process_tells_what_the_server_s_word_count_reads(indexed, form):
    """compile.WordStats (word_stat's rows, read once) gives, for every word its rows can tell,
    the row the word count statement reads on the server (past the bound: the bound + 1, the
    least reach, the highest row id; a bare word within it: 0, None, the highest row id), and
    tells every bare word and every word past the bound."""
    import json

    from cardlab.search.compile import word_count_statement

    pair = indexed("shipped-bound3")
    stats = WordStats.of(pair.pg.fetch(word_stats_statement(3), []), 3)
    assert stats.complete and stats.cards == pair.pg.fetch("SELECT MAX(rowid) FROM card_fts", [])[0][0] > 700
    stems = tuple(json.loads(pair.pg.stem_languages()))
    told = {True: 0, False: 0}
    for word in [*STAT_WORDS, "pikachu", "zzzz", "w", "wat", "é", "energie", "x"]:
        tree = parse(form.format(word))
        sql, params = word_count_statement(tree, stems, "postgresql", 3)
        n, last, cards, _setting = pair.pg.fetch(sql, params)[0]
        known = stats.words(tree, stems)
        if known is None:  # only a quoted or text: word within the bound is left to its count
            assert (form != "{}", n <= 3) == (True, True), word
        else:
            assert known == (n, last, cards), word
            told[n > 3] += 1
    assert told[True] >= 8 and (told[False] >= 3 if form == "{}" else told[False] == 0)


@pytest.mark.parametrize("word", ["base1-4", "BASE1-4"])
def test_a_card_id_read_in_row_order_finds_its_card(indexed, monkeypatch, word):
    """A card id typed as the query (base1-4: that card, compile.card_id_of) finds its card on
    PostgreSQL as on SQLite, and its row-order form (compile.pg_row_probe) tests the id too."""
    from cardlab.search import compile as compiler

    pair = indexed("shipped")
    monkeypatch.setattr(engine, "TOTAL_BOUND", 0)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    monkeypatch.setattr(engine, "_row_order", lambda key, rows: True)
    pages = [engine.find_page(con, word, page_size=7) for con in (pair.pg, pair.sqlite)]
    assert [h.id for h in pages[0].hits] == [h.id for h in pages[1].hits] == ["base1-4"]
    _aliases, condition, params = compiler.pg_row_probe(parse(word), None)
    assert ("c.id = ?" in condition, params[-1]) == (True, "base1-4")
