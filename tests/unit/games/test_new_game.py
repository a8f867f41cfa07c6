"""A FICTIONAL game ("Zeptol", cards "Ember Sprite" and "Quibble Lantern", made up for this test)
added in a temporary folder, the way docs/ARCHITECTURE.md's "Add a game" says: its card schema, the
game enums, one game module registered, a formats file and fixture cards. It is then searchable,
checkable as a deck and showable, with no other file of cardlab changed.

:data:`FILES` lists every file the game needs; the count is the issue 28 measure "files touched to
add a fictional game" (goal: 5 or fewer).
"""

from __future__ import annotations

import json
import shutil

import pytest
from rich.console import Console

import cardlab.catalog.schemas
import cardlab.core.paths
from cardlab import games
from cardlab.catalog.validate import validate
from cardlab.decks.check import check_file
from cardlab.decks.stats import deck_stats
from cardlab.games.base import Game
from cardlab.render.cards import card as show_card
from cardlab.search.engine import open_index, search
from cardlab.search.lookup import get_card

GAME_MODULE = '''\
"""Zeptol, a FICTIONAL game for cardlab's tests: sprites and lanterns with an element and a power."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cardlab.core.text import fold
from cardlab.games.base import CardSource, DetailRow, FieldSpec, Problem, Row, Span, row
from cardlab.games.figures import Counted, DeckFigures, count_by, curve_of, each_kind, too_small

TITLE = "Zeptol"
FIELDS = {
    "element": FieldSpec("facet", "the card's element (element:ember)", closed=True),
    "power": FieldSpec("num", "power (power>=3)"),
    "glow": FieldSpec("num", "a lantern's glow (glow>=2)"),
}
SKELETON_KINDS = ("sprite", "lantern")
OPENING_HAND = 3
DECK_KINDS = ("kind", ("sprite", "lantern"))


def facets(card: dict) -> Iterator[Row]:
    yield "element", fold(card["element"]), None
    yield "power", str(card["power"]), float(card["power"])
    if "glow" in card:
        yield "glow", str(card["glow"]), float(card["glow"])


def type_line(card: dict, langs: Sequence[str] = ()) -> str:
    return f"{card['kind'].title()} · {card['element']}"


def rarity(card: dict) -> tuple[str, int] | None:
    return None


def key_stats(card: dict) -> str:
    return f"power {card['power']}"


def details(card: dict, langs: Sequence[str] = (), source: str = "en") -> list[DetailRow]:
    return [row("Kind", Span(card["kind"], "bold")), row("Power", str(card["power"]))]


def check(catalog: CardSource) -> Iterator[Problem]:
    return iter(())


def skeleton(kind: str, source: str = "en") -> str:
    return f"kind: {kind}\\nelement: null\\npower: null\\n"


def deck_figures(figures: DeckFigures, cards: Sequence[Counted], need: Sequence[str]) -> None:
    figures.by_type = count_by(cards, lambda card: [card["kind"]])
    figures.curve = curve_of(cards, lambda card: [card["power"]])
    if not too_small(figures):
        each_kind(figures, cards, "kind", list(need) or ["sprite", "lantern"])
'''

CARD_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://cardlab.invalid/schema/zeptol.card.schema.json",
    "title": "A card of Zeptol (a fictional test game)",
    "type": "object",
    "allOf": [{"$ref": "common.schema.json#/$defs/card"}],
    "required": ["kind", "element", "power"],
    "properties": {
        "kind": {"enum": ["sprite", "lantern"]},
        "element": {"type": "string", "minLength": 1},
        "power": {"type": "integer"},
        "glow": {"type": "integer"},
    },
    "unevaluatedProperties": False,
}

FORMAT = """\
name: zeptol-open
game: zeptol
title: Zeptol open
description: Eight cards, at most four of a name.
source: a fictional test game
opening_hand: 3
sections:
  - id: main
    title: Deck
rules:
  - rule: deck-size
    size: 8
    source: "test: eight cards"
  - rule: copy-limit
    max: 4
    same: name
    source: "test: four of a name"
"""

SET = """\
code: zp1
game: zeptol
name: {en: Zeptol First Light}
source_language: en
printed_total: 2
recorded: Fictional cards for tests only.
"""

CARDS = {
    "1-ember-sprite.yaml": "id: zp1-1\nnumber: '1'\nname: {en: Ember Sprite}\nkind: sprite\nelement: ember\npower: 3\n",
    "2-quibble-lantern.yaml": "id: zp1-2\nnumber: '2'\nname: {en: Quibble Lantern}\nkind: lantern\nelement: dusk\npower: 1\nglow: 2\n",
}


@pytest.fixture(scope="module")
def zeptol(tmp_path_factory):
    """The game's files in a temporary folder, registered for the module's tests: yields
    (catalog root, the list of files the game needed, relative to the temporary folder)."""
    root = tmp_path_factory.mktemp("zeptol")
    needed: list[str] = []

    def write(rel: str, text: str) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        needed.append(rel)

    # 1. the card schema, and the game in the two game enums (the shipped schemas, copied)
    schemas = root / "schema"
    shutil.copytree(cardlab.core.paths.schema_dir(), schemas)
    write("schema/zeptol.card.schema.json", json.dumps(CARD_SCHEMA, indent=2))
    for name in ("set.schema.json", "format.schema.json"):
        data = json.loads((schemas / name).read_text(encoding="utf-8"))
        data["properties"]["game"]["enum"].append("zeptol")
        write(f"schema/{name}", json.dumps(data, indent=2))
    # 2. the game module, and its code in the registry (games.GAMES; here patched, not edited)
    write("games/zeptol.py", GAME_MODULE)
    needed.append("cardlab/games/__init__.py (GAMES)")
    # 3. the formats, 4. the fixture cards
    write("cards/zeptol/formats/zeptol-open.yaml", FORMAT)
    write("cards/zeptol/zp1/set.yaml", SET)
    for name, text in CARDS.items():
        write(f"cards/zeptol/zp1/{name}", text)

    patch = pytest.MonkeyPatch()
    # validators are cached by schema name: drop the shipped ones before and after the game's
    cardlab.catalog.schemas.validator.cache_clear()
    cardlab.catalog.schemas.fast_validator.cache_clear()
    patch.setattr(cardlab.core.paths, "schema_dir", lambda: schemas)
    patch.setattr(cardlab.core.paths, "schema_folder", lambda: str(schemas))
    patch.setattr(cardlab.catalog.schemas, "schema_dir", lambda: schemas)
    patch.setattr(games, "GAMES", (*games.GAMES, "zeptol"))
    patch.setattr(games, "__path__", [*games.__path__, str(root / "games")])
    yield root / "cards", needed
    patch.undo()
    cardlab.catalog.schemas.validator.cache_clear()
    cardlab.catalog.schemas.fast_validator.cache_clear()


@pytest.fixture(scope="module")
def index(zeptol, tmp_path_factory):
    cards, _needed = zeptol
    return open_index([cards], tmp_path_factory.mktemp("zeptol-index") / "index.sqlite")


def test_the_game_needs_these_files(zeptol):
    _cards, needed = zeptol
    assert needed == [
        "schema/zeptol.card.schema.json",
        "schema/set.schema.json",
        "schema/format.schema.json",
        "games/zeptol.py",
        "cardlab/games/__init__.py (GAMES)",
        "cards/zeptol/formats/zeptol-open.yaml",
        "cards/zeptol/zp1/set.yaml",
        "cards/zeptol/zp1/1-ember-sprite.yaml",
        "cards/zeptol/zp1/2-quibble-lantern.yaml",
    ]


def test_it_keeps_the_contract_and_validates(zeptol):
    cards, _needed = zeptol
    assert isinstance(games.get("zeptol"), Game)
    assert games.get("zeptol").TITLE == "Zeptol"
    assert validate([cards], cache_path=None).problems == []
    fields = games.search_fields()
    assert fields["glow"] == ("num", "Zeptol: a lantern's glow (glow>=2)")
    assert fields["element"] == ("facet", "Monpa: element; Zeptol: the card's element (element:ember)")
    assert fields["game"] == ("facet", "pokemon, ippo, monpa, forumtcg or zeptol")
    assert "element" in games.closed_fields()


def test_it_is_searchable(index):
    assert [h.id for h in search(index, "game:zeptol")] == ["zp1-1", "zp1-2"]
    assert [h.id for h in search(index, "ember")] == ["zp1-1"]
    assert [h.id for h in search(index, "element:dusk")] == ["zp1-2"]
    assert [h.id for h in search(index, "power>=2")] == ["zp1-1"]
    hit = search(index, "quibble")[0]
    assert (hit.type_line, hit.stats) == ("Lantern · dusk", "power 1")


def test_a_deck_checks_and_counts(zeptol, tmp_path):
    cards, _needed = zeptol
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Ember Sprite\n4 Quibble Lantern\n", encoding="utf-8")
    report = check_file(deck, [cards], "zeptol-open")
    assert report.legal, report.problems
    stats = deck_stats(report.deck)
    assert (stats.size, stats.hand, stats.by_type, stats.curve) == (8, 3, {"lantern": 4, "sprite": 4}, {"1": 4, "3": 4})
    assert [o.id for o in stats.odds] == ["opening-each"]
    deck.write_text("5 Ember Sprite\n4 Quibble Lantern\n", encoding="utf-8")
    assert {p.rule for p in check_file(deck, [cards], "zeptol-open").problems} == {"deck-size", "copy-limit"}


def test_it_is_showable(index):
    console = Console(record=True, width=100, color_system=None)
    show_card(get_card(index, "zp1-1"), console)
    text = console.export_text()
    assert "Ember Sprite" in text and "Kind" in text and "sprite" in text and "Power" in text and "Zeptol First Light (zp1) · 1/2" in text
