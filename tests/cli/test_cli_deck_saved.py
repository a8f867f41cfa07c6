"""``cardlab deck save|open|saved`` (issue 30): the saved decks of cardlab.collection.saved from the CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from cardlab.cli.whole import app
from cardlab.collection import db, saved


def run(runner, *args):
    return runner.invoke(app, list(args))


def test_save_open_and_list_a_deck(runner, repo, backend):
    out = run(runner, "deck", "save", str(repo / "examples/decks/zap-theme-deck.txt"), "--name", "Zap!", "-f", "pokemon-base")
    assert out.exit_code == 0, out.stderr
    deck_id = re.fullmatch(r"saved (\S{8}) \(60 cards, pokemon-base\): /d/\1\n", out.stdout).group(1)
    record = saved.get(db.connect(), deck_id)
    assert (record.name, record.cards, record.version) == ("Zap!", 60, 1)
    opened = run(runner, "deck", "open", deck_id)
    assert opened.exit_code == 0 and opened.stdout == record.text
    assert opened.stdout.startswith("Format: pokemon-base\n")
    listed = json.loads(run(runner, "deck", "saved", "-O", "json").stdout)
    assert [(d["id"], d["name"], d["cards"]) for d in listed] == [(deck_id, "Zap!", 60)]
    assert f"{deck_id}    60 cards  pokemon-base  v1" in run(runner, "deck", "saved").stdout


def test_open_in_a_tools_dialect_reads_back(runner, repo, tmp_path):
    deck_id = saved.save(db.connect(), (repo / "examples/decks/zap-theme-deck.txt").read_text()).id
    out = run(runner, "deck", "open", deck_id, "-O", "ptcgl")
    assert out.exit_code == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "Total Cards: 60"
    target = tmp_path / "zap.json"
    assert run(runner, "deck", "open", deck_id, "-O", "json", "-o", str(target)).exit_code == 0
    assert sum(c["count"] for c in json.loads(target.read_text())["main"]) == 60


def test_open_an_unknown_id_exits_1_and_a_bad_dialect_2(runner):
    out = run(runner, "deck", "open", "AAAAAAAA")
    assert out.exit_code == 1 and "no saved deck 'AAAAAAAA'" in out.stderr
    assert run(runner, "deck", "open", "AAAAAAAA", "-O", "mtga").exit_code == 2


def test_a_list_with_unknown_cards_is_not_saved(runner, tmp_path):
    deck = tmp_path / "bad.txt"
    deck.write_text("4 Hitmonchan BS 7\n2 Nosuchcard\n")
    out = run(runner, "deck", "save", str(deck))
    assert out.exit_code == 1 and "not saved: 1 line(s) match no card" in out.stderr
    assert run(runner, "deck", "saved", "-O", "json").stdout.strip() == "[]"


def test_a_list_of_ten_thousand_cards_is_refused_with_its_size(runner, tmp_path):
    deck = tmp_path / "huge.txt"
    deck.write_text("Format: pokemon-base\n" + "\n".join(["99 Bill BS 91"] * 100 + ["100 Bill BS 91"]) + "\n")
    out = run(runner, "deck", "save", str(deck))
    assert out.exit_code == 2 and "the deck list has 10,000 cards; a saved deck holds at most 2,000" in out.stderr


def test_deck_saved_as_a_real_process(repo):
    proc = subprocess.run([sys.executable, "-m", "cardlab", "deck", "saved", "-O", "json"], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout.strip()) == (0, "[]")
