"""cardlab.games: every registered game keeps the Game protocol (games/base.py) and agrees with the
game enums of the JSON schemas; the field table assembled from the games is the query language's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab import games
from cardlab.catalog.schemas import load_all
from cardlab.catalog.validate import validate
from cardlab.core.paths import schema_dir, shipped_catalog
from cardlab.games.base import STYLES, DetailRow, FieldSpec, Game, Span
from cardlab.search.fields import CLOSED_FIELDS, FIELDS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
KINDS = {"facet", "like", "num", "name", "text", "number", "set"}


def _schema(name: str) -> dict:
    return json.loads((schema_dir() / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def catalog():
    """The shipped cards and every game's fixtures: cards of all four games."""
    result = validate([shipped_catalog(), FIXTURES / "catalog", FIXTURES / "forumtcg"], cache_path=None)
    assert result.problems == []
    return result.catalog


def test_games_are_the_card_schemas_and_the_schema_enums():
    """The card schemas register the games; the set and format schemas list none themselves, and
    are closed to the same games when cardlab loads them."""
    assert games.GAMES == ("forumtcg", "ippo", "monpa", "pokemon")
    assert sorted(p.name for p in schema_dir().glob("*.card.schema.json")) == [f"{g}.card.schema.json" for g in games.GAMES]
    loaded = load_all(schema_dir())
    for name in ("set.schema.json", "format.schema.json"):
        assert _schema(name)["properties"]["game"]["type"] == "string"
        assert "enum" not in _schema(name)["properties"]["game"]
        assert loaded[name]["properties"]["game"] == {
            "description": _schema(name)["properties"]["game"]["description"],
            "enum": list(games.GAMES),
        }


def test_discover_reads_a_folder(tmp_path):
    for name in ("zeptol.card.schema.json", "abacus.card.schema.json", "set.schema.json", "notes.txt"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert games.discover(tmp_path) == ("abacus", "zeptol")


@pytest.mark.parametrize("code", games.GAMES)
def test_each_game_keeps_the_protocol(code):
    game = games.get(code)
    assert isinstance(game, Game)
    assert isinstance(game.TITLE, str) and game.TITLE
    assert isinstance(game.OPENING_HAND, int) and game.OPENING_HAND > 0
    for name, spec in game.FIELDS.items():
        assert isinstance(spec, FieldSpec) and spec.kind in KINDS and spec.help, name
        if spec.closed:  # a closed vocabulary is of words
            assert spec.kind == "facet", name
    for kind in game.SKELETON_KINDS:
        assert game.skeleton(kind, "en").strip()


@pytest.mark.parametrize("code", [g for g in games.GAMES if games.get(g).DECK_KINDS is not None])
def test_deck_kinds_are_the_card_schema_values(code):
    field, kinds = games.get(code).DECK_KINDS or ("", ())
    schema = _schema(f"{code}.card.schema.json")
    node = schema["properties"][field]
    values = node.get("enum") or schema["$defs"][node["$ref"].rsplit("/", 1)[1]]["enum"]
    assert set(kinds) <= set(values)
    assert set(values) - set(kinds) <= {"commander", "favor"}  # Monpa's own sections, never the main deck


def test_skeleton_kinds_are_the_card_schema_values():
    assert games.get("pokemon").SKELETON_KINDS == ("pokemon", "trainer", "energy")
    assert games.get("ippo").SKELETON_KINDS == ("blow", "defense", "support", "fight")
    assert games.get("monpa").SKELETON_KINDS == ("servant", "spell", "charm", "commander", "favor")
    assert set(games.get("monpa").SKELETON_KINDS) == set(_schema("monpa.card.schema.json")["properties"]["type"]["enum"])


def test_the_field_table_is_the_query_languages():
    # the games' fields lead the table; the query language's own rows (is:, !name, display
    # keywords) follow them and belong to no game
    own = list(FIELDS)[len(games.search_fields()) :]
    assert own == ["is", "!", "order", "direction", "unique", "lang"]
    assert {k: FIELDS[k] for k in games.search_fields()} == games.search_fields()
    assert list(FIELDS)[: len(games.search_fields())] == list(games.search_fields())
    assert set(games.closed_fields()) == set(CLOSED_FIELDS)
    assert games.search_fields()["def"] == ("num", "Ippo: defense power; Monpa: a servant's defense")
    assert games.search_fields()["game"] == ("facet", "forumtcg, ippo, monpa or pokemon")


def test_every_facet_row_is_a_field_of_its_game(catalog):
    common = set(games.common_fields())
    seen: dict[str, set[str]] = {g: set() for g in games.GAMES}
    for card_id, card in catalog.cards.items():
        code = catalog.set_of(card_id).game
        for field, text, num in games.get(code).facets(card):
            assert field in set(games.get(code).FIELDS) | common, (card_id, field)
            assert (text, num) != (None, None), (card_id, field)
            seen[code].add(field)
    assert seen["pokemon"] >= {"supertype", "type", "hp", "attack", "evolves"}
    assert seen["ippo"] >= {"kind", "blow", "attr", "kw", "cost"}
    assert seen["monpa"] >= {"type", "element", "mana", "kw"}
    assert seen["forumtcg"] == {"value", "faction"}


def test_detail_rows_are_neutral_spans(catalog):
    for card_id, card in catalog.cards.items():
        info = catalog.set_of(card_id)
        rows = games.get(info.game).details(card, ["en"], info.source_language)
        assert rows and all(isinstance(r, DetailRow) and r.label for r in rows), card_id
        for r in rows:
            for span in r.spans:
                assert isinstance(span, Span) and isinstance(span.text, str), (card_id, r)
                assert span.style in {None, *STYLES}, (card_id, r)


def test_pokemon_rows_hold_energy_symbols(catalog):
    rows = {r.label: r for r in games.get("pokemon").details(catalog.cards["base1-4"], ["en"], "en")}
    fire = Span("R", "red", "Fire")
    assert rows["Attack"].spans[:5] == (fire, Span(" "), fire, Span(" "), fire)
    assert rows["Attack"].text.startswith("R R R R  Fire Spin 100\n")
    assert rows["Weakness"].spans == (Span("W", "blue", "Water"), Span(" ×2"))
    assert rows["Retreat"].text == "C C C"


def test_unknown_game():
    with pytest.raises(KeyError):
        games.get("chess")
