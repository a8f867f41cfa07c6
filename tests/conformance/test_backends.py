"""Same answers on SQLite and PostgreSQL: every search query and card reference of the search tests
(tests/unit/search), run on the fixture catalog and on the shipped catalog in both backends, gives
the same ids in the same order (or the same error)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardlab.core.errors import CardlabError
from cardlab.search import connection, engine, lookup

SEARCH_TESTS = Path(__file__).resolve().parents[1] / "unit" / "search"

EXTRA_QUERIES = [
    "",
    "charizard",
    "char",
    "dracaufeu",
    "リザードン",
    "リザ",
    "ピカ",
    "text:paralyzed",
    "text:paralyse",
    "o:energie",
    '"fire spin"',
    '"energy burn"',
    "text:ポケモン",
    "-type:fire supertype:pokemon",
    "hp>=80 or retreat=0",
    "(type:water or type:grass) hp<50",
    "artist:sugimori",
    "mana:x",
    "kind:blow power>=3",
    "element:feu",
    "éclair",
    "pokémon",
    "POKÉMON",
    "ho-oh",
    "mr. mime",
    "mr mime",
    "mrmime",
    "nidoran ♂",
    "a_b",
    "_",
    "100%",
    "évoli",
    "number>=100",
    "number:1a",
    "type!=fire",
    "stage:basic -evolves:charmander",
    "name=pikachu",
    "name:pika",
    "name:ピカチュウ",
    "ＣＨＡＲＩＺＡＲＤ",
]
"""Queries of the language's corners besides the search tests' own: accents, full width, Japanese
fragments shorter than a trigram, symbols, punctuation inside words."""

SORTS = [("number", False), ("name", False), ("rarity", True), ("artist", False), ("hp", True), ("set", False)]
REFS = ["base1-4", "BASE1-4", "BS 4", "base1 4", "Dracaufeu", "Charizard", "farfetchd", "Testmon", "Nothingmon", "charizrd", "Pikachu", ""]


def _test_queries() -> list[str]:
    """The query strings the search tests pass to ids/search/search_page/count, and the string
    cases of their parametrized ``query`` arguments."""
    found: set[str] = set()
    for path in sorted(SEARCH_TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("ids", "search", "search_page", "count") and len(node.args) >= 2:
                arg = node.args[1]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
            if name == "parametrize" and len(node.args) >= 2 and isinstance(node.args[0], ast.Constant):
                names = node.args[0].value if isinstance(node.args[0].value, str) else ""
                if names.split(",")[0].strip() != "query" or not isinstance(node.args[1], (ast.List, ast.Tuple)):
                    continue
                for case in node.args[1].elts:
                    first = case.elts[0] if isinstance(case, ast.Tuple) and case.elts else case
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.add(first.value)
    return sorted(found)


QUERIES = sorted(set(_test_queries()) | set(EXTRA_QUERIES))


def test_the_search_tests_give_many_queries():
    assert len(_test_queries()) >= 60
    assert "type:fire hp>=80" in QUERIES


@pytest.mark.parametrize("catalog", ["fixture", "shipped"])
def test_every_query_same_ids_and_order(indexed, answer, catalog):
    pair = indexed(catalog)
    differ = [q for q in QUERIES if answer(pair.sqlite, q) != answer(pair.pg, q)]
    assert differ == []
    assert answer(pair.pg, "")[1][:2] == answer(pair.sqlite, "")[1][:2]


@pytest.mark.parametrize(("sort", "reverse"), SORTS)
@pytest.mark.parametrize("unique", ["prints", "cards"])
def test_sorts_and_unique_same_order(indexed, answer, sort, reverse, unique):
    pair = indexed("shipped")
    queries = ["", "type:fire", "charizard", "hp>=60 -type:grass", "trainer or energy", "set:base4"]
    differ = [
        q
        for q in queries
        if answer(pair.sqlite, q, sort=sort, reverse=reverse, unique=unique, langs=("fr",))
        != answer(pair.pg, q, sort=sort, reverse=reverse, unique=unique, langs=("fr",))
    ]
    assert differ == []


@pytest.mark.parametrize(("limit", "offset"), [(10, 0), (7, 20), (None, 50), (5, 100_000)])
def test_pages_same(indexed, limit, offset):
    pair = indexed("shipped")
    for q in ["", "type:water", "zzzz"]:
        assert engine.search_page(pair.sqlite, q, limit=limit, offset=offset) == engine.search_page(pair.pg, q, limit=limit, offset=offset)
    assert engine.count(pair.pg, "set:base1") == 102


@pytest.mark.parametrize("catalog", ["fixture", "shipped"])
def test_show_same_card(indexed, catalog):
    pair = indexed(catalog)

    def view(con, ref):
        try:
            v = lookup.get_card(con, ref)
        except CardlabError as err:
            return ("error", type(err).__name__, str(err))
        return (v.id, v.game, v.data, v.set_data, v.path, v.printings)

    differ = [ref for ref in REFS if view(pair.sqlite, ref) != view(pair.pg, ref)]
    assert differ == []
    assert view(pair.pg, "Testmon" if catalog == "fixture" else "BS 4")[0] == ("test1-1" if catalog == "fixture" else "base1-4")
    assert lookup.printings(pair.pg, "base4-4") == lookup.printings(pair.sqlite, "base4-4")
    assert lookup.languages(pair.pg) == lookup.languages(pair.sqlite)


def test_names_and_data_of_hits_same(indexed):
    pair = indexed("shipped")
    a = engine.search(pair.sqlite, "charizard", langs=("de",))
    b = engine.search(pair.pg, "charizard", langs=("de",))
    assert [(h.name, h.names, h.data, h.type_line, h.stats, h.rarity) for h in a] == [
        (h.name, h.names, h.data, h.type_line, h.stats, h.rarity) for h in b
    ]
    assert b[0].name == "Glurak"


def test_timeout_on_postgresql(indexed):
    pair = indexed("shipped")
    with pytest.raises(TimeoutError):
        pair.pg.fetch("SELECT pg_sleep(2)", [], timeout=0.05)
    assert pair.pg.fetch("SELECT ?::int + 1", [1], timeout=5) == [(2,)]  # the limit ended with its transaction

    class Slow:
        dialect = "postgresql"

        def __init__(self, con):
            self.con = con

        def execute(self, sql, params=()):
            return self.con.execute(sql, params)

        def snapshot(self):
            return self.con.snapshot()

        def stem_languages(self):
            return self.con.stem_languages()

        def fetch(self, sql, params, timeout=None, last=False, generic=False):
            return self.con.fetch("SELECT pg_sleep(2)", [], timeout, last=last)

    with pytest.raises(connection.QueryTimeoutError) as err:
        engine.search(Slow(pair.pg), "set:base1", timeout=0.05)
    assert err.value.seconds == 0.05
    assert len(engine.search(pair.pg, "set:base1", timeout=30)) == 102


def test_scryfall_lookups_same(indexed):
    """Scryfall's lookups (issue 31): the same card, error or names on both backends."""
    from cardlab.index.access import index_fingerprint

    pair = indexed("shipped")

    def answer(con, call):
        try:
            found = call(con)
        except CardlabError as err:
            return ("error", type(err).__name__, str(err))
        return found if isinstance(found, list) else found.id

    calls = [
        lambda con: lookup.card_named(con, "Charizard"),
        lambda con: lookup.card_named(con, "dracaufeu"),
        lambda con: lookup.card_named(con, "Pikachu"),
        lambda con: lookup.card_named(con, "Pikachu", set_ref="jungle"),
        lambda con: lookup.card_named(con, "charzard", fuzzy=True),
        lambda con: lookup.card_named(con, "dark char", fuzzy=True),
        lambda con: lookup.card_by_number(con, "BS", "4/102"),
        lambda con: lookup.card_by_number(con, "nope", "4"),
        lambda con: lookup.autocomplete(con, "char"),
        lambda con: lookup.autocomplete(con, "pika"),
    ]
    got = [(answer(pair.sqlite, c), answer(pair.pg, c)) for c in calls]
    assert [(a, b) for a, b in got if a != b] == []
    assert [a for a, _b in got][:2] == ["base1-4", "base1-4"]
    assert index_fingerprint(pair.pg) == index_fingerprint(pair.sqlite) != ""
