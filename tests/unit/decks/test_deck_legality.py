"""A deck that names no format: its game found from its cards, its legality in every format of that
game (cardlab.decks.check.legality; ``cardlab deck validate`` without ``--format``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.catalog.validate import load_formats, validate
from cardlab.cli.whole import app
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import LegalityReport, header_words, legality
from cardlab.decks.read import read_deck

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
VINTAGE = DECKS / "vintage"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog"]
CATALOG = ["--catalog", str(REPO / "cards"), "--catalog", str(REPO / "tests" / "fixtures" / "catalog")]


@pytest.fixture(scope="module")
def catalog():
    return validate(ROOTS, cache_path=None).catalog


@pytest.fixture(scope="module")
def formats():
    return load_formats(ROOTS)


def _legality(path, catalog, formats) -> LegalityReport:
    return legality(read_deck(path, header_words(formats)), catalog, formats)


def test_legal_everywhere(catalog, formats, pokemon_formats):
    report = _legality(VINTAGE / "legal.txt", catalog, formats)
    assert report.game == "pokemon" and report.legal
    assert [r.format.name for r in report.results] == pokemon_formats
    assert report.legal_in == pokemon_formats
    assert all(r.deck.size("main") == 60 for r in report.results)


def test_each_format_its_own_problems(catalog, formats, pokemon_formats):
    report = _legality(VINTAGE / "max-cards.txt", catalog, formats)
    assert report.legal_in == [f for f in pokemon_formats if f != "pokemon-prop-15-3"]
    [prop] = [r for r in report.results if r.format.name == "pokemon-prop-15-3"]
    assert [(p.pos.line, p.rule, p.message) for p in prop.problems] == [
        (12, "max-cards", "the deck holds 16 Trainer cards; at most 15 (lines 7, 8, 9, 10, 11, 12)")
    ]
    report = _legality(VINTAGE / "copy-limit.txt", catalog, formats)
    assert not report.legal and report.legal_in == []
    assert {r.format.name: [p.rule for p in r.problems] for r in report.results} == {
        "pokemon-base": ["allowed-sets", "copy-limit"],
        **{f: ["copy-limit"] for f in pokemon_formats[1:]},
    }  # in line order


def test_the_game_comes_from_the_cards(catalog, formats, tmp_path):
    path = tmp_path / "ippo.txt"
    path.write_text("4 Test Jab\n", encoding="utf-8")
    report = _legality(path, catalog, formats)
    assert report.game == "ippo" and [r.format.name for r in report.results] == ["ippo-10-rounds", "ippo-4-rounds"]
    assert [[p.message for p in r.problems] for r in report.results] == [
        ["the deck holds 4 cards; exactly 60 needed"],
        ["the deck holds 4 cards; exactly 40 needed"],
    ]


def test_cli_table_and_exit_0_when_legal_somewhere(runner):
    path = VINTAGE / "max-cards.txt"
    result = runner.invoke(app, ["deck", "validate", str(path), *CATALOG])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: no format named; legality in every pokemon format"
    assert lines[1].split() == ["Format", "Verdict", "First", "problems"]
    assert lines[2].split() == ["pokemon-base", "legal", "(60", "cards)"]
    [prop] = [ln for ln in lines if ln.startswith("pokemon-prop-15-3")]
    assert prop.split(None, 1)[1].rstrip() == (
        "not legal (1 problem)  line 12: max-cards: the deck holds 16 Trainer cards; at most 15 (lines 7, 8, 9, 10, 11, 12)"
    )
    assert lines[-1] == (
        "legal in 6 of 7 pokemon formats: pokemon-base, pokemon-base-fossil, pokemon-base-gym, "
        "pokemon-base-jungle, pokemon-base-rocket, pokemon-unlimited"
    )


def test_cli_exit_1_when_legal_nowhere(runner):
    result = runner.invoke(app, ["deck", "validate", str(VINTAGE / "deck-size.txt"), *CATALOG])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "not legal in any of the 7 pokemon formats"
    assert result.stdout.count("line 2: deck-size: the deck holds 59 cards; exactly 60 needed") == 7


def test_cli_shows_the_first_three_problems(runner, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("1 Pikachu JU 60\n1 Flying Pikachu PR 25\n1 Scyther JU 10\n1 Testmon TST 1\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path), *CATALOG])
    assert result.exit_code == 1
    base = result.stdout.split("pokemon-base ", 1)[1].split("pokemon-base-fossil", 1)[0]
    assert "not legal (5 problems)" in base and "line 1: deck-size: the deck holds 4 cards; exactly 60 needed" in base
    assert "and 2 more" in base


def test_cli_json(runner):
    result = runner.invoke(app, ["deck", "validate", str(VINTAGE / "banned.txt"), "-o", "json", *CATALOG])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "pokemon" and data["legal"] is True
    assert data["legal_in"] == ["pokemon-base-rocket", "pokemon-prop-15-3", "pokemon-unlimited"]
    gym = next(f for f in data["formats"] if f["format"] == "pokemon-base-gym")
    assert gym["legal"] is False and gym["cards"] == 60 and gym["title"] == "Pokémon — Base–Gym"
    assert [(p["line"], p["rule"]) for p in gym["problems"]] == [(13, "banned")]


def test_a_named_format_still_checks_one_format(runner):
    result = runner.invoke(app, ["deck", "validate", str(VINTAGE / "legal.txt"), "--format", "pokemon-prop-15-3", *CATALOG])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"legal: {VINTAGE / 'legal.txt'} under pokemon-prop-15-3 (60 cards)"


def test_help_says_so(runner):
    result = runner.invoke(app, ["deck", "validate", "--help"])
    text = " ".join(result.stdout.split())
    assert "checked in every format of that game" in text
    assert "exit 0 when it is legal in at least one format, 1 when in none" in text
