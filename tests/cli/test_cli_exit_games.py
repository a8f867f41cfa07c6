"""Exit statuses of the collection, mini-game, odds and import commands, the same table shape as
test_cli_exit.py: each command once with good input (0), once with valid input that fails a check (1),
once with a usage error or unreadable input (2). Commands that need a game or a collection first get
it from ``setup`` (run before, each asserted to exit 0)."""

from __future__ import annotations

import pytest

from cardlab.cli.whole import app
from cardlab.core.errors import ExitStatus

OK, CHECK, USAGE = ExitStatus.OK, ExitStatus.CHECK_FAILED, ExitStatus.USAGE
SEED = ["--seed", "11" * 32]
NEW_LOBOS = ["play", "new", "los-lobos", "-p", "alice", "-p", "bob", "--set", "ftcg-test", *SEED]
NEW_ZANGETSU = ["play", "new", "zangetsu", "-p", "alice", "-p", "bob", "--set", "ftcg-test", *SEED]
ACCEPT = [["play", "accept", "1", "-p", p, "--contribution", f"{p}-word"] for p in ("alice", "bob")]
OWN = ["collection", "import", "{own}", "--player", "alice"]
OWN_BOB = ["collection", "import", "{own}", "--player", "bob"]
DOLL = ["--list", "alice:{list10}", "--list", "bob:{list10}", *SEED]

# command -> status -> (setup commands, the command's arguments)
TABLE: dict[str, dict[ExitStatus, tuple[list[list[str]], list[str]]]] = {
    "collection add": {OK: ([], ["ftcg-test-1"]), CHECK: ([], ["Lame erante zzz"]), USAGE: ([], ["ftcg-test-1", "-n", "-1"])},
    "collection remove": {OK: ([OWN], ["ftcg-test-1"]), CHECK: ([], ["ftcg-test-1"]), USAGE: ([OWN], ["ftcg-test-1", "-n", "0.5"])},
    "collection set": {OK: ([], ["ftcg-test-1", "3"]), CHECK: ([], ["Nope nope zzz", "3"]), USAGE: ([], ["ftcg-test-1", "-1"])},
    "collection list": {OK: ([OWN], []), USAGE: ([], ["value>>1"])},
    "collection export": {OK: ([OWN], ["-o", "{tmp}/backup.csv"]), USAGE: ([], ["-o", "{tmp}"])},
    "collection import": {OK: ([], ["{own}"]), CHECK: ([], ["{bad_csv}"]), USAGE: ([], ["{tmp}/missing.csv"])},
    "deck have": {OK: ([OWN], ["{list10}"]), CHECK: ([], ["{list10}"]), USAGE: ([], ["{tmp}/missing.txt"])},
    "import csv": {
        OK: ([], ["{new_csv}", "--set", "ftcg-test"]),
        CHECK: ([], ["{bad_new_csv}", "--set", "ftcg-test"]),
        USAGE: ([], ["{new_csv}", "--set", "no-such-set"]),
    },
    "play new": {
        OK: ([], NEW_LOBOS[2:]),
        CHECK: ([], ["doll-house", "-p", "alice", "-p", "bob", *DOLL]),
        USAGE: ([], ["chess", "-p", "alice", "-p", "bob"]),
    },
    "play los-lobos": {OK: ([], NEW_LOBOS[3:]), USAGE: ([], ["-p", "alice"])},
    "play zangetsu": {OK: ([], NEW_ZANGETSU[3:]), USAGE: ([], ["-p", "alice", "-p", "bob", "--set", "nope"])},
    "play doll-house": {
        OK: ([OWN, OWN_BOB], ["-p", "alice", "-p", "bob", *DOLL]),
        CHECK: ([], ["-p", "alice", "-p", "bob", *DOLL]),
        USAGE: ([], ["-p", "alice"]),
    },
    "play ryujin-jakka": {
        OK: ([OWN, OWN_BOB], ["-p", "alice", "-p", "bob", *DOLL]),
        CHECK: ([], ["-p", "alice", "-p", "bob", *DOLL]),
        USAGE: ([], ["-p", "a", "-p", "b", "-p", "c"]),
    },
    "play accept": {
        OK: ([NEW_LOBOS], ["1", "-p", "alice"]),
        CHECK: ([NEW_LOBOS], ["1", "-p", "carol"]),
        USAGE: ([NEW_LOBOS], ["1", "-p", "alice", "--contribution", "a b"]),
    },
    "play decline": {
        OK: ([NEW_LOBOS], ["1", "-p", "bob"]),
        CHECK: ([NEW_LOBOS, *ACCEPT], ["1", "-p", "bob"]),
        USAGE: ([], ["x", "-p", "bob"]),
    },
    "play claim": {CHECK: ([NEW_LOBOS, *ACCEPT], ["1", "-p", "alice"]), USAGE: ([], ["x", "-p", "bob"])},
    "play replace": {
        OK: ([NEW_LOBOS, *ACCEPT], ["1", "-p", "alice", "--keep"]),
        CHECK: ([NEW_LOBOS, *ACCEPT, ["play", "replace", "1", "-p", "alice", "--keep"]], ["1", "-p", "alice", "--keep"]),
        USAGE: ([NEW_LOBOS], ["1", "-p", "alice", "--cards", "9"]),
    },
    "play roll": {
        OK: ([OWN, OWN_BOB, ["play", "new", "doll-house", "-p", "alice", "-p", "bob", *DOLL], *ACCEPT], ["1"]),
        CHECK: (
            [OWN, OWN_BOB, ["play", "new", "doll-house", "-p", "alice", "-p", "bob", *DOLL], *ACCEPT, ["play", "roll", "1", "--to-end"]],
            ["1"],
        ),  # the game is over
        USAGE: ([NEW_ZANGETSU], ["1"]),
    },  # rolls are not Zangetsu moves
    "play show": {OK: ([NEW_ZANGETSU], ["1", "-O", "bbcode"]), CHECK: ([], ["9"]), USAGE: ([NEW_ZANGETSU], ["1", "-O", "html"])},
    "play reveal": {OK: ([NEW_ZANGETSU, *ACCEPT], ["1"]), CHECK: ([NEW_LOBOS], ["1"]), USAGE: ([], ["x"])},
    "play verify": {
        OK: ([NEW_ZANGETSU, *ACCEPT, ["play", "show", "1", "-O", "bbcode", "-o", "{tmp}/g.txt"]], ["{tmp}/g.txt"]),
        CHECK: ([NEW_ZANGETSU, *ACCEPT, ["play", "show", "1", "-O", "json", "-o", "{tmp}/g.json"]], ["{tmp}/g.json", "--seed", "22" * 32]),
        USAGE: ([], ["{tmp}/missing.json", "--seed", "11" * 32]),
    },
    "play list": {OK: ([], []), USAGE: ([], ["--bogus"])},
    "db copy": {
        OK: ([OWN, NEW_ZANGETSU], ["--from", "{data}", "--to", "sqlite:///{tmp}/copy.sqlite"]),
        USAGE: ([OWN], ["--from", "{data}", "--to", "{data}/collection.sqlite"]),
    },
    "odds los-lobos": {OK: ([], ["--set", "ftcg-test"]), USAGE: ([], ["--set", "nope"])},
    "odds zangetsu": {OK: ([], ["--set", "ftcg-test"]), USAGE: ([], ["--set", "nope"])},
    "odds doll-house": {OK: ([], ["--list", "{list10}"]), USAGE: ([], ["--list", "{tmp}/missing.txt"])},
    "deck save": {OK: ([], ["{list10}"]), CHECK: ([], ["{unmatched_list}"]), USAGE: ([], ["{tmp}/missing.txt"])},
    "deck open": {CHECK: ([], ["Zz9zz9zz"]), USAGE: ([["deck", "save", "{list10}"]], ["Zz9zz9zz", "-O", "html"])},
    "deck saved": {OK: ([["deck", "save", "{list10}"]], []), USAGE: ([], ["--bogus"])},
}
NO_OK = {"play claim", "deck open"}
"""A claim succeeds after a week of silence only: its exit 0 is in test_cli_play.py (test_consent_claim_and_decline);
a saved deck's id is made when it is saved: deck open's exit 0 is in test_cli_deck_saved.py."""
NO_CHECK = {
    "collection list": "lists what is owned",
    "collection export": "writes what is owned",
    "play los-lobos": "a game always ends in a result",
    "play zangetsu": "a game always ends in a result",
    "play list": "lists games",
    "db copy": "copies; a target that holds data needs --overwrite (a usage error, exit 2)",
    "odds los-lobos": "computes",
    "odds zangetsu": "computes",
    "odds doll-house": "computes",
    "deck saved": "lists the saved decks",
}


@pytest.fixture
def world(monkeypatch, forum_roots, tmp_path) -> dict[str, str]:
    import shutil

    catalog = tmp_path / "catalog"  # a private copy: import csv writes into it
    shutil.copytree(forum_roots, catalog)
    monkeypatch.setenv("CARDLAB_CATALOG", str(catalog))
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    own = tmp_path / "own.csv"
    own.write_text("card_id,count\n" + "".join(f"ftcg-test-{i},2\n" for i in range(1, 33)), encoding="utf-8")
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("card_id,count\nftcg-test-999,1\n", encoding="utf-8")
    list10 = tmp_path / "list10.txt"
    list10.write_text("".join(f"1 FT {i}\n" for i in range(1, 11)), encoding="utf-8")
    new_csv = tmp_path / "new.csv"
    new_csv.write_text("number,name,value,faction,rarity\n40,Carte de test,3,acuerdo,Commune\n", encoding="utf-8")
    unmatched_list = tmp_path / "unmatched.txt"
    unmatched_list.write_text("1 FT 1\n2 Zorblax Nowhere\n", encoding="utf-8")
    bad_new_csv = tmp_path / "bad-new.csv"
    bad_new_csv.write_text("number,name,value,faction,rarity\n41,Autre carte,trois,acuerdo,Commune\n", encoding="utf-8")
    return {
        "tmp": str(tmp),
        "data": str(tmp_path / "cardlab-data"),
        "own": str(own),
        "bad_csv": str(bad_csv),
        "list10": str(list10),
        "new_csv": str(new_csv),
        "bad_new_csv": str(bad_new_csv),
        "unmatched_list": str(unmatched_list),
    }


def test_the_table_covers_every_game_command():
    for command, cases in TABLE.items():
        want = {OK, USAGE} if command in NO_CHECK else {CHECK, USAGE} if command in NO_OK else {OK, CHECK, USAGE}
        assert set(cases) == want, command


CASES = [(command, status) for command, cases in TABLE.items() for status in cases]


@pytest.mark.parametrize(("command", "status"), CASES, ids=[f"{c}-{s.name}" for c, s in CASES])
def test_exit_status(runner, world, command, status):
    setup, args = TABLE[command][status]
    for step in setup:
        done = runner.invoke(app, [a.format(**world) for a in step])
        assert done.exit_code == OK, (step, done.stdout, done.stderr)
    full = [*command.split(), *(a.format(**world) for a in args)]
    result = runner.invoke(app, full)
    assert result.exit_code == status, f"{full}\n{result.stdout}\n{result.stderr}"
    assert type(result.exception) in (type(None), SystemExit), result.exception  # no traceback
    if status is not OK:
        assert result.stderr.strip(), "a failure says why on stderr"
