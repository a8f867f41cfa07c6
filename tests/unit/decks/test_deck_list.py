"""cardlab deck list: the matched deck list, with names in the chosen language."""

from __future__ import annotations

import json

from cardlab.cli.whole import app


def test_deck_list_in_french(runner, repo):
    deck = repo / "examples" / "decks" / "zap-theme-deck.txt"
    result = runner.invoke(app, ["deck", "list", str(deck), "-f", "pokemon-base", "--lang", "fr"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "main: 60"
    assert "3 Magnéti (base1-53)" in lines and "2 Léo (base1-91)" in lines


def test_deck_list_json_falls_back_to_source_language(runner, repo):
    deck = repo / "examples" / "decks" / "zap-theme-deck.txt"
    result = runner.invoke(app, ["deck", "list", str(deck), "-f", "pokemon-base", "--lang", "xx", "-O", "json"])
    [main] = json.loads(result.stdout)
    assert main["section"] == "main"
    assert {"count": 3, "name": "Magnemite", "id": "base1-53"} in main["cards"]
    assert sum(c["count"] for c in main["cards"]) == 60


def test_deck_list_says_why_it_exits_1(runner, tmp_path):
    """A deck whose lines all match but which breaks the format's rules: deck list prints the list,
    exits 1 and says why on stderr, with the rule and the line, as deck validate does."""
    deck = tmp_path / "deck.txt"
    deck.write_text("Format: pokemon-base\n5 Bill\n4 Pikachu\n", encoding="utf-8")
    listed = runner.invoke(app, ["deck", "list", str(deck)])
    validated = runner.invoke(app, ["deck", "validate", str(deck)])
    assert listed.exit_code == 1
    assert listed.stdout.splitlines() == ["main: 9", "5 Bill (base1-91)", "4 Pikachu (base1-58)"]
    assert listed.stderr.splitlines() == [
        f"{deck}:2: deck-size: the deck holds 9 cards; exactly 60 needed",
        f'{deck}:2: copy-limit: 5 copies of "Bill" (limit 4)',
    ]
    assert all(line in validated.stderr.splitlines() + validated.stdout.splitlines() for line in listed.stderr.splitlines())
