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
    result = runner.invoke(app, ["deck", "list", str(deck), "-f", "pokemon-base", "--lang", "ja", "-O", "json"])
    data = json.loads(result.stdout)
    assert data["format"] == "pokemon-base"
    assert {"count": 3, "card": "base1-53", "name": "Magnemite"} in data["main"]
    assert sum(c["count"] for c in data["main"]) == 60


def test_deck_list_json_reads_back(runner, repo, tmp_path):
    """``deck list -O json`` is a deck document (schema/deck.schema.json): checked again, from a
    .json file or from standard input, it is the same deck."""
    deck = repo / "examples" / "decks" / "haymaker.txt"
    listed = runner.invoke(app, ["deck", "list", str(deck), "-f", "pokemon-base-fossil", "-O", "json"])
    path = tmp_path / "haymaker.json"
    path.write_text(listed.stdout, encoding="utf-8")
    again = runner.invoke(app, ["deck", "validate", str(path), "-O", "json"])
    assert again.exit_code == 0, again.output
    lines = [(c["count"], c["id"]) for c in json.loads(again.stdout)["lines"]]
    assert lines == [(c["count"], c["card"]) for c in json.loads(listed.stdout)["main"]]
    assert sum(n for n, _ in lines) == 60
    piped = runner.invoke(app, ["deck", "validate", "-", "-O", "json"], input=listed.stdout)
    assert (piped.exit_code, json.loads(piped.stdout)["format"]) == (0, "pokemon-base-fossil")


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
