"""A FICTIONAL game ("Zeptol", its one card "Quibble Lantern", made up for this test) added to a
temporary copy of cardlab the way docs/ARCHITECTURE.md's "A new game" says: a card schema, one game
module, a formats file and fixture cards, and no other file of cardlab touched. A fresh Python
process on the copy then validates it, indexes it, searches it (by its own fields too), checks a
deck of it, counts its statistics and shows a card.

:data:`NEW_FILES` is every file the game needs; its length is the issue 28 measure "files touched
to add a fictional game" (goal: 5 or fewer), and :func:`test_a_new_game_touches_five_files` holds
the copy's other files equal to the repository's.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

GAME_MODULE = '''\
"""Zeptol, a FICTIONAL game for cardlab's tests: sprites and lanterns with an element and a power."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

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


if TYPE_CHECKING:  # mypy holds this module to the Game protocol (nothing runs)
    from cardlab.games import zeptol as _this
    from cardlab.games.base import Game

    _CONTRACT: Game = _this
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
description: Four cards, at most four of a name.
source: a fictional test game
opening_hand: 3
sections:
  - id: main
    title: Deck
rules:
  - rule: deck-size
    size: 4
    source: "test: four cards"
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
printed_total: 1
recorded: Fictional cards for tests only.
"""

CARD = "id: zp1-1\nnumber: '1'\nname: {en: Quibble Lantern}\nkind: lantern\nelement: dusk\npower: 1\nglow: 2\n"

NEW_FILES = {
    "schema/zeptol.card.schema.json": json.dumps(CARD_SCHEMA, indent=2) + "\n",
    "cardlab/games/zeptol.py": GAME_MODULE,
    "cards/zeptol/formats/zeptol-open.yaml": FORMAT,
    "tests/fixtures/catalog/zeptol/zp1/set.yaml": SET,
    "tests/fixtures/catalog/zeptol/zp1/1-quibble-lantern.yaml": CARD,
}
"""Path in the repository -> text: everything a new game is (ARCHITECTURE.md, "A new game")."""

SCRIPT = """\
import io, json, sys
from pathlib import Path

from rich.console import Console

from cardlab import games
from cardlab.catalog.validate import validate
from cardlab.decks.check import check_file
from cardlab.decks.stats import deck_stats
from cardlab.render.cards import card as show_card
from cardlab.search.engine import open_index, search
from cardlab.search.fields import CLOSED_FIELDS, FIELDS
from cardlab.search.lookup import get_card

root, work = Path(sys.argv[1]), Path(sys.argv[2])
roots = [root / "cards", root / "tests" / "fixtures" / "catalog"]
out = {"games": list(games.GAMES), "title": games.get("zeptol").TITLE}
out["problems"] = [str(p) for p in validate(roots, cache_path=None).problems]
out["fields"] = {f: list(FIELDS[f]) for f in ("glow", "element", "game")}
out["closed"] = "element" in CLOSED_FIELDS
con = open_index(roots, work / "index.sqlite")
out["search"] = {q: [h.id for h in search(con, q)] for q in ("game:zeptol", "quibble", "element:dusk", "glow>=2", "glow>=3", "power=1")}
hit = search(con, "quibble")[0]
out["row"] = [hit.type_line, hit.stats]
deck = work / "deck.txt"
deck.write_text("4 Quibble Lantern\\n", encoding="utf-8")
report = check_file(deck, roots, "zeptol-open")
out["legal"] = [report.legal, [p.rule for p in report.problems]]
stats = deck_stats(report.deck)
out["stats"] = [stats.size, stats.hand, stats.by_type, stats.curve, [o.id for o in stats.odds]]
deck.write_text("5 Quibble Lantern\\n", encoding="utf-8")
out["illegal"] = sorted({p.rule for p in check_file(deck, roots, "zeptol-open").problems})
console = Console(file=io.StringIO(), record=True, width=100, color_system=None)
show_card(get_card(con, "zp1-1"), console)
out["show"] = console.export_text()
print(json.dumps(out))
"""
"""What the new game's tests ask of the copy, run in a fresh process (every table built from the
registry at import, as a user's process would)."""


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """A copy of ``cardlab/`` and ``schema/`` (not the shipped cards, nor the proxy fonts) with
    :data:`NEW_FILES` written into it: the temporary root."""
    root = tmp_path_factory.mktemp("zeptol")
    shutil.copytree(REPO / "cardlab", root / "cardlab", ignore=shutil.ignore_patterns("fonts"))
    shutil.copytree(REPO / "schema", root / "schema")
    for rel, text in NEW_FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def run(copy, tmp_path_factory):
    """The :data:`SCRIPT`'s answers (JSON) from a fresh process whose ``cardlab`` is the copy."""
    work = tmp_path_factory.mktemp("zeptol-run")
    env = {**os.environ, "PYTHONPATH": str(copy), "CARDLAB_CACHE_DIR": str(work / "cache")}
    env.pop("CARDLAB_CATALOG", None)
    env.pop("CARDLAB_DB", None)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(copy), str(work)], cwd=work, env=env, capture_output=True, text=True, timeout=100
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_new_game_touches_five_files(copy):
    """The new game is five new files; every other file of the copy is the repository's own."""
    assert list(NEW_FILES) == [
        "schema/zeptol.card.schema.json",
        "cardlab/games/zeptol.py",
        "cards/zeptol/formats/zeptol-open.yaml",
        "tests/fixtures/catalog/zeptol/zp1/set.yaml",
        "tests/fixtures/catalog/zeptol/zp1/1-quibble-lantern.yaml",
    ]
    for folder in ("cardlab", "schema"):
        for path in (copy / folder).rglob("*"):
            rel = path.relative_to(copy).as_posix()
            if path.is_file() and "__pycache__" not in path.parts and rel not in NEW_FILES:
                assert filecmp.cmp(path, REPO / rel, shallow=False), rel
    assert not (REPO / "cardlab/games/zeptol.py").exists()


def test_it_is_registered_and_validates(run):
    assert run["games"] == ["forumtcg", "ippo", "monpa", "pokemon", "zeptol"]
    assert run["title"] == "Zeptol"
    assert run["problems"] == []
    assert run["fields"] == {
        "glow": ["num", "Zeptol: a lantern's glow (glow>=2)"],
        "element": ["facet", "Monpa: element; Zeptol: the card's element (element:ember)"],
        "game": ["facet", "forumtcg, ippo, monpa, pokemon or zeptol"],
    }
    assert run["closed"] is True


def test_it_is_indexed_and_searchable(run):
    assert run["search"] == {
        "game:zeptol": ["zp1-1"],
        "quibble": ["zp1-1"],
        "element:dusk": ["zp1-1"],
        "glow>=2": ["zp1-1"],
        "glow>=3": [],
        "power=1": ["zp1-1"],
    }
    assert run["row"] == ["Lantern · dusk", "power 1"]


def test_a_deck_checks_and_counts(run):
    assert run["legal"] == [True, []]
    assert run["stats"] == [4, 3, {"lantern": 4}, {"1": 4}, ["opening-each"]]
    assert run["illegal"] == ["copy-limit", "deck-size"]


def test_it_is_showable(run):
    text = run["show"]
    assert "Quibble Lantern" in text
    assert "Kind" in text
    assert "lantern" in text
    assert "Zeptol First Light (zp1) · 1/1" in text
