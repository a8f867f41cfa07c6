"""``cardlab collection ...`` and ``cardlab deck have`` from the command line (issue 13 §2)."""

from __future__ import annotations

import json

import pytest

from cardlab.cli.whole import app


@pytest.fixture
def env(monkeypatch, forum_catalog, tmp_path, backend):
    monkeypatch.setenv("CARDLAB_CATALOG", str(forum_catalog))
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")


def run(runner, *args):
    return runner.invoke(app, list(args))


def test_add_list_remove_export(runner, env):
    assert run(runner, "collection", "add", "ftcg-test-12", "-n", "2").exit_code == 0
    assert run(runner, "collection", "add", "Lame errante").exit_code == 0
    out = run(runner, "collection", "list", "faction:gotei-13")
    assert out.exit_code == 0 and "ftcg-test-12" in out.stdout and "ftcg-test-1 " not in out.stdout
    data = json.loads(run(runner, "collection", "list", "-O", "json").stdout)
    assert {(d["id"], d["count"]) for d in data} == {("ftcg-test-1", 1), ("ftcg-test-12", 2)}
    assert run(runner, "collection", "remove", "ftcg-test-12", "-n", "3").exit_code == 1
    assert run(runner, "collection", "export").stdout == "card_id,count\nftcg-test-1,1\nftcg-test-12,2\n"


def test_unknown_card_suggests_and_writes_nothing(runner, env):
    out = run(runner, "collection", "add", "Lame erante")
    assert out.exit_code == 1 and "did you mean" in out.stderr and "Traceback" not in out.stderr
    assert run(runner, "collection", "export").stdout == "card_id,count\n"


@pytest.mark.parametrize("count", ["-2", "2.5", "two"])
def test_bad_counts_exit_2(runner, env, count):
    out = run(runner, "collection", "add", "ftcg-test-1", "-n", count)
    assert out.exit_code == 2 and "count" in out.stderr


@pytest.mark.parametrize(
    ("player", "why"),
    [
        ("../x", "a name holds no '/' or '\\' and is not '.' or '..'"),
        ("..", "a name holds no '/' or '\\' and is not '.' or '..'"),
        ("a\\b", "a name holds no '/' or '\\' and is not '.' or '..'"),
        ("p" * 65, "at most 64 characters (it has 65)"),
        (" ", "give a non-empty name on one line"),
        ("\talice", "give a non-empty name on one line"),
        (
            "\x85x",
            "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)",
        ),
        (
            "a\u2028b",
            "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)",
        ),
        (
            "ali\u200bce",
            "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)",
        ),
        (
            "\u202eecila",
            "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)",
        ),
        (
            "a\ufffd",
            "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)",
        ),
        ("ＡＬＩＣＥ", "full-width and other compatibility characters would make two names look alike; write 'ALICE'"),
        ("ｱﾘｽ", "full-width and other compatibility characters would make two names look alike; write 'アリス'"),
        ("Ⅻ", "full-width and other compatibility characters would make two names look alike; write 'XII'"),
    ],
)
def test_bad_player_names_exit_2(runner, env, player, why):
    # the rule of cardlab serve's /api/collections/<name>: one URL path segment
    out = run(runner, "collection", "add", "ftcg-test-1", "--player", player)
    assert out.exit_code == 2
    assert out.stderr == f"error: bad player name {player!r}: {why}\n"
    assert run(runner, "collection", "export", "--all-players").stdout == "player,card_id,count\n"
    assert run(runner, "collection", "add", "ftcg-test-1", "--player", "p" * 64).exit_code == 0


def test_import_bad_row_row_column_exit_1(runner, env, tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("card_id,count\nftcg-test-1,1\nftcg-test-99,1\n")
    out = run(runner, "collection", "import", str(f))
    assert out.exit_code == 1 and "c.csv:3:1" in out.stderr
    assert run(runner, "collection", "export").stdout == "card_id,count\n"


def test_export_to_file_is_a_backup_that_import_restores(runner, env, tmp_path):
    run(runner, "collection", "add", "ftcg-test-3", "-n", "4", "--player", "bob")
    run(runner, "collection", "add", "ftcg-test-5")
    backup = tmp_path / "backup.csv"
    assert run(runner, "collection", "export", "--all-players", "-o", str(backup)).exit_code == 0
    assert run(runner, "collection", "export", "--all-players", "-o", str(backup)).exit_code == 2  # no --overwrite
    run(runner, "collection", "set", "ftcg-test-5", "0")
    assert run(runner, "collection", "import", str(backup), "--replace").exit_code == 0
    assert run(runner, "collection", "export", "--all-players").stdout == backup.read_text()


def test_deck_have(runner, env, tmp_path, monkeypatch, forum_roots):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)  # the shipped forumtcg-list format
    deck = tmp_path / "list.txt"
    deck.write_text("2 Lame errante\n1 FT 3\n7 ftcg-test-4\n")
    run(runner, "collection", "add", "ftcg-test-1", "-n", "2")
    out = run(runner, "deck", "have", str(deck), "-O", "json")
    data = json.loads(out.stdout)
    assert out.exit_code == 1
    assert [(c["id"], c["need"], c["own"], c["missing"]) for c in data["cards"]] == [
        ("ftcg-test-1", 2, 2, 0),
        ("ftcg-test-3", 1, 0, 1),
        ("ftcg-test-4", 7, 0, 7),
    ]
    run(runner, "collection", "add", "ftcg-test-3")
    run(runner, "collection", "add", "ftcg-test-4", "-n", "7")
    assert run(runner, "deck", "have", str(deck)).exit_code == 0


def test_deck_have_other_games(runner, monkeypatch, repo, tmp_path):
    deck = repo / "examples" / "decks" / "zap-theme-deck.txt"
    out = run(runner, "deck", "have", str(deck), "--player", "nobody", "-O", "json")
    data = json.loads(out.stdout)
    assert out.exit_code == 1 and data["need"] == 60 and data["missing"] == 60


def test_reading_a_named_database_that_does_not_exist_says_so(runner, monkeypatch, forum_catalog, tmp_path):
    monkeypatch.setenv("CARDLAB_CATALOG", str(forum_catalog))
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")
    missing = tmp_path / "typo" / "collection.sqlite"
    note = f"note: no collections database at {missing} yet: nothing owned\n"
    for where in (f"sqlite:///{missing}", str(missing.parent)):
        monkeypatch.setenv("CARDLAB_DATA", where)
        for args, stdout in (
            (("collection", "list"), "Count  Id  Name  Type  Stats\n0 cards, 0 copies\n"),
            (("collection", "export"), "card_id,count\n"),
            (("play", "list"), ""),
        ):
            out = run(runner, *args)
            assert (out.exit_code, out.stdout, out.stderr) == (0, stdout, note), args
    assert not missing.parent.exists()  # reading creates nothing
    assert run(runner, "collection", "add", "ftcg-test-1").exit_code == 0
    out = run(runner, "collection", "export")
    assert (out.exit_code, out.stdout, out.stderr) == (0, "card_id,count\nftcg-test-1,1\n", "")
    monkeypatch.delenv("CARDLAB_DATA")  # the default place, not yet made: a fresh user, no note
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    out = run(runner, "collection", "export")
    assert (out.exit_code, out.stdout, out.stderr) == (0, "card_id,count\n", "")


def test_read_only_data_dir_is_a_clear_error(runner, env, monkeypatch, tmp_path):
    import os
    from pathlib import Path

    target = tmp_path / "ro"
    target.mkdir()
    monkeypatch.setenv("CARDLAB_DATA", str(target))
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == target else real(p, mode, **kw))
    out = run(runner, "collection", "add", "ftcg-test-1")
    assert out.exit_code == 1 and "read-only" in out.stderr and "CARDLAB_DATA" in out.stderr
    assert "Traceback" not in out.stderr
    listed = run(runner, "collection", "list")  # reading needs no write access
    assert listed.exit_code == 0 and "0 cards" in listed.stdout


@pytest.fixture
def pokemon_env(monkeypatch):
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")


CARD_ARGS = [  # arguments after "collection", exit code, last line of stderr (None: ok) or stdout
    (["add", "0 Bill"], 2, "error: '0 Bill': count 0 is not allowed: a count is a whole number from 1 to 1,000,000; nothing was changed"),
    (
        ["add", "--", "-1 Bill"],
        2,
        "error: '-1 Bill': count -1 is not allowed: a count is a whole number from 1 to 1,000,000; nothing was changed",
    ),
    (["add", "1.5 Bill"], 2, "error: '1.5 Bill': count '1.5' is not a whole number; nothing was changed"),
    (["add", "Bill x0"], 2, "error: 'Bill x0': count 0 is not allowed: a count is a whole number from 1 to 1,000,000; nothing was changed"),
    (
        ["remove", "0x base1-91"],
        2,
        "error: '0x base1-91': count 0 is not allowed: a count is a whole number from 1 to 1,000,000; nothing was changed",
    ),
    (
        ["add", "9" * 5000 + " Bill"],
        2,
        "error: '" + "9" * 57 + "...': a count of 5,000 digits is too large (at most 1,000,000 copies of a card); nothing was changed",
    ),
    (["add", "base1-91", "-n", "9" * 5000], 2, "error: a count of 5,000 digits is too large (at most 1,000,000 copies of a card)"),
    (["add", "2 base1-91", "-n", "2"], 2, "error: '2 base1-91' holds a count and -n gives one; give the count once"),
    (["set", "2 base1-91", "3"], 2, "error: '2 base1-91' holds a count and COUNT gives one; give the count once"),
    (
        ["add", "Dark Charizard"],
        1,
        'error: "Dark Charizard" has 2 printings: base5 4 (base5-4), base5 21 (base5-21); a collection records one printing: give its id or set and number, e.g. "base5-4" or "base5 4"; nothing was changed',
    ),
    (
        ["add", "2 Bill"],
        1,
        'error: "Bill" has 2 printings: base1 91 (base1-91), base4 118 (base4-118); a collection records one printing: give its id or set and number, e.g. "base1-91" or "base1 91"; nothing was changed',
    ),
    (["add", "2 Bill BS 91"], 0, "alice: 2 × base1-91"),
    (
        ["add", "Dark Charizard x3", "-p", "bob"],
        1,
        'error: "Dark Charizard" has 2 printings: base5 4 (base5-4), base5 21 (base5-21); a collection records one printing: give its id or set and number, e.g. "base5-4" or "base5 4"; nothing was changed',
    ),
    (["add", "3 TR 21"], 0, "alice: 3 × base5-21"),
    (["add", "Dark Charmeleon"], 0, "alice: 1 × base5-32"),
]


@pytest.mark.parametrize(("args", "code", "line"), CARD_ARGS)
def test_card_arguments_with_counts_and_printings(runner, pokemon_env, args, code, line):
    """Kinds: a count written in the card argument is read as -n is (0, negative, fractional, huge:
    exit 2) and a name with several printings is refused with each printing (a collection records
    one printing); nothing is written unless the command succeeds."""
    out = run(runner, "collection", *args)
    assert out.exit_code == code
    assert (out.stdout if code == 0 else out.stderr).splitlines()[-1] == line
    assert "Traceback" not in out.stderr
    exported = run(runner, "collection", "export", "--all-players").stdout
    assert exported == (
        "player,card_id,count\n" + ("alice," + line.split(" × ")[1] + "," + line.split(": ")[1].split(" ")[0] + "\n" if code == 0 else "")
    )


@pytest.mark.parametrize(
    ("row", "code"), [("base1-91,-1", 2), ("base1-91,1.5", 2), ("base1-91,two", 2), ("base1-91," + "9" * 5000, 2), ("base1-999,1", 1)]
)
def test_csv_bad_counts_exit_2_unknown_cards_exit_1(runner, pokemon_env, tmp_path, row, code):
    """Kind: a CSV row's count is read as the text form's (exit 2, positioned, nothing written)."""
    f = tmp_path / "c.csv"
    f.write_text(f"card_id,count\n{row}\n", encoding="utf-8")
    out = run(runner, "collection", "import", str(f))
    assert out.exit_code == code
    assert out.stderr.splitlines()[0].startswith(f"{f}:2:{2 if code == 2 else 1}: ")
    assert run(runner, "collection", "export").stdout == "card_id,count\n"


def test_import_another_apps_export_and_export_it_back(runner, pokemon_env, repo, tmp_path):
    """Issue 31 §1: an app's export in one command, the notes on stderr, and back out in its shape."""
    fixture = repo / "tests" / "fixtures" / "collections" / "collectr.csv"
    out = run(runner, "collection", "import", str(fixture))
    assert out.exit_code == 0
    assert out.stdout == "imported 2 rows from Collectr: 2 cards, 2 copies for alice\n"
    assert out.stderr.splitlines() == [
        "skipped 1 row of Lorcana (a game cardlab does not hold)",
        "skipped 1 row of Magic: The Gathering (a game cardlab does not hold)",
        "note: printing, condition read but not kept: a collection holds counts per card",
    ]
    exported = run(runner, "collection", "export", "--to", "tcgplayer").stdout.splitlines()
    assert exported == [
        "Quantity,Name,Simple Name,Set,Card Number,Set Code,Printing,Condition,Language,Rarity,Product ID,SKU",
        "1,Charizard,Charizard,Base Set,4/102,BS,Holofoil,Near Mint,English,Rare Holo,,",
        "1,Blaine's Moltres,Blaine's Moltres,Gym Heroes,1/132,G1,Holofoil,Near Mint,English,Rare Holo,,",
    ]


def test_import_header_matching_no_app_exit_2(runner, pokemon_env, tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("Foo;Bar\n1;2\n")
    out = run(runner, "collection", "import", str(f))
    assert out.exit_code == 2
    from cardlab.collection.apps import header_lines

    assert out.stderr == (
        f"error: {f}:1: this header matches no collection export cardlab knows; give --from APP, or write one of these header lines: "
        + header_lines()
        + "\n"
    )
    assert "; collectr: Portfolio Name,Category,Set,Product Name,Card Number," in out.stderr


def test_import_skip_bad_lists_the_rows_left_out(runner, pokemon_env, tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("Quantity,Name,Set,Number\n2,Bill,Base Set,91/102\n0,Bill,Base Set,91\n")
    assert run(runner, "collection", "import", str(f)).exit_code == 2
    out = run(runner, "collection", "import", str(f), "--skip-bad")
    assert out.exit_code == 0
    assert out.stderr.splitlines() == [
        f"skipped: {f}:3:1: count 0 is not allowed: a count is a whole number from 1 to 1,000,000 (count)",
        "skipped 1 row not understood: line 3",
    ]
    assert run(runner, "collection", "export").stdout == "card_id,count\nbase1-91,2\n"


def test_import_from_an_app_as_a_real_process(repo, tmp_path):
    """Once as a real process: a semicolon-separated Dragon Shield web export with a BOM, then
    `search charizard --sort name --reverse` orders by name alone (issue 31)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, CARDLAB_DATA=str(tmp_path / "data"), CARDLAB_PLAYER="alice", PYTHONPATH=str(repo))
    fixture = repo / "tests" / "fixtures" / "collections" / "dragonshield-web.csv"
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", "collection", "import", str(fixture)], capture_output=True, text=True, env=env, timeout=120
    )
    assert (done.returncode, done.stdout) == (0, "imported 2 rows from Dragon Shield (web): 2 cards, 3 copies for alice\n")
    out = subprocess.run(
        [sys.executable, "-m", "cardlab", "search", "charizard", "--sort", "name", "--reverse", "-O", "ids"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert out.stdout.split() == ["base5-21", "base5-4", "base4-4", "base1-4", "gym2-2"]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("ftcg-test-1,600000\nftcg-test-1,600000\n", "ftcg-test-1: 1,200,000 copies in all; at most 1,000,000"),
        ("ftcg-test-1,1000001\n", "count 1,000,001 is too large (at most 1,000,000 copies of a card)"),
    ],
)
def test_an_import_over_the_size_cap_exits_2_as_a_deck_over_its_cap(runner, env, tmp_path, rows, message):
    """Finding: a collection over the cap of copies a card may have exited 2, asked to be decided.
    A cap is a limit of what cardlab takes, not a check of the cards (README, exit status): exit 2,
    as a saved deck over 500 lines or 2,000 cards, as a file over its size; nothing is written."""
    from cardlab.collection.owned import BadCountsError
    from cardlab.collection.saved import DeckTooLargeError
    from cardlab.core.errors import ExitStatus

    path = tmp_path / "own.csv"
    path.write_text("card_id,count\n" + rows)
    out = run(runner, "collection", "import", str(path))
    assert out.exit_code == 2 and message in out.stderr
    assert run(runner, "collection", "export").stdout == "card_id,count\n"
    assert BadCountsError.exit_code == DeckTooLargeError.exit_code == ExitStatus.USAGE
    path.write_text("card_id,count\nftcg-test-1,600000\n")
    assert run(runner, "collection", "import", str(path)).exit_code == 0
    again = run(runner, "collection", "import", str(path))  # 1,200,000 once added to what alice owns
    assert again.exit_code == 2 and "alice would own 1,200,000 of ftcg-test-1; at most 1,000,000" in again.stderr
