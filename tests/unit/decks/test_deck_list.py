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
