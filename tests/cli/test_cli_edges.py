"""The CLI's edge, whatever the command: output files, arguments, standard output, settings.
Found by hostile testing of the layout work; each kind has a table of siblings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
POKEMON = REPO / "cards" / "pokemon"
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"


@pytest.fixture
def deck(tmp_path) -> Path:
    path = tmp_path / "zap.txt"
    shutil.copy(ZAP, path)
    return path


@pytest.fixture
def base1(tmp_path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(POKEMON / "base1", root / "pokemon" / "base1")
    return root


def test_a_device_is_never_replaced_even_with_overwrite(runner, deck, base1):
    """Kind: output paths that are not regular files."""
    for args in (
        ["proxies", str(deck), "--catalog", str(POKEMON), "-o", os.devnull, "--overwrite"],
        ["i18n", "export", "--lang", "fr", "--catalog", str(base1), "-o", os.devnull, "--overwrite"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert f"{os.devnull} is not a regular file" in result.stderr
    assert Path(os.devnull).is_char_device()


def test_an_input_is_never_the_output(runner, deck, base1):
    """Kind: the command's own inputs (the deck, the catalog's YAML files)."""
    before = deck.read_bytes()
    result = runner.invoke(app, ["proxies", str(deck), "--catalog", str(POKEMON), "-o", str(deck), "--overwrite"])
    assert result.exit_code == 2 and "is an input of this command" in result.stderr
    assert deck.read_bytes() == before
    card = base1 / "pokemon" / "base1" / "4-charizard.yaml"
    before = card.read_bytes()
    result = runner.invoke(app, ["i18n", "export", "--lang", "fr", "--catalog", str(base1), "-o", str(card), "--overwrite"])
    assert result.exit_code == 2 and "is inside the catalog" in result.stderr
    assert card.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", ""], "the output path is empty"),
        (["-o", "out.pdf/"], "ends with a slash, so it names a folder"),
    ],
)
def test_bad_output_names(runner, deck, tmp_path, args, message):
    """Kind: output names that are not file names (empty, a folder's)."""
    result = runner.invoke(app, ["proxies", str(deck), "--catalog", str(POKEMON), *args])
    assert result.exit_code == 2 and message in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zap.txt"]


@pytest.mark.parametrize(
    "args",
    [
        ["search", "charizard", "-f", "json", "-O", "csv"],
        ["show", "base1-4", "-f", "text", "-O", "json"],
        ["validate", str(POKEMON), "-f", "json", "-O", "json"],
        ["deck", "validate", str(ZAP), "-o", "text", "-O", "json"],
        ["formats", "-o", "json", "-O", "json"],
    ],
)
def test_old_and_new_output_spellings_together(runner, args):
    """Kind: a deprecated spelling and the new one both given is a usage error (not a silent choice)."""
    result = runner.invoke(app, [*args, "--catalog", str(POKEMON)])
    assert result.exit_code == 2
    assert "give the output format once" in result.stderr


def test_card_new_refuses_what_would_never_validate(runner, tmp_path):
    """Kind: card new arguments that would write an invalid file (bad language, two-line name, long slug)."""
    root = tmp_path / "catalog"
    shutil.copytree(REPO / "tests" / "fixtures" / "catalog" / "ippo", root / "ippo")
    base = ["card", "new", "--catalog", str(root), "--set", "ippo-test", "--number", "30"]
    cases = [
        (["--name", "Jab", "--name-lang", "../x"], "'../x' is not a language code"),
        (["--name", "x\ny"], "--name must be one line"),
        (["--slug", "x" * 300], "File name too long"),
        (["--kind", ""], "--kind is empty"),
    ]
    for extra, message in cases:
        result = runner.invoke(app, [*base, *extra])
        assert result.exit_code == 2, extra
        assert message in result.stderr, extra
    assert not list((root / "ippo" / "ippo-test").glob("30-*"))


def test_a_huge_limit_is_a_usage_error(runner):
    result = runner.invoke(app, ["search", "charizard", "--limit", str(2**63), "--catalog", str(POKEMON)])
    assert result.exit_code == 2 and "is not in the range" in result.output


def test_a_limited_search_says_how_many_match_in_all(runner, monkeypatch):
    """Issue 29: the count line under a cut table names the total, a lower bound past the bound."""
    from collections import OrderedDict

    from cardlab.search import engine

    base = ["search", "--catalog", str(POKEMON / "base1")]
    assert runner.invoke(app, [*base, "set:base1", "--limit", "3"]).stdout.splitlines()[-1] == "3 of 102 cards"
    assert runner.invoke(app, [*base, "type:fire hp>=80", "--limit", "4"]).stdout.splitlines()[-1] == "4 cards"
    assert runner.invoke(app, [*base, "set:base1", "--limit", "3", "--unique", "cards"]).stdout.splitlines()[-1] == "3 cards"
    monkeypatch.setattr(engine, "TOTAL_BOUND", 50)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    assert runner.invoke(app, [*base, "set:base1", "--limit", "3"]).stdout.splitlines()[-1] == "3 of more than 50 cards"


def test_user_text_is_printed_as_written(runner, tmp_path):
    """Kind: rich markup and emoji codes in user text (paths, deck lines) are not interpreted."""
    deck = tmp_path / "[bold]:smile:.txt"
    deck.write_text("Format: pokemon-base\n4 :x: Pika\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(deck), "--catalog", str(POKEMON)])
    assert result.exit_code == 1
    assert "[bold]:smile:.txt:2" in result.stderr and ":x: Pika" in result.stderr
    assert "😄" not in result.stderr and "❌" not in result.stderr


def _cardlab(*args: str | bytes, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """Run ``python -m cardlab`` as a real process."""
    return subprocess.run([sys.executable, "-m", "cardlab", *args], capture_output=True, env=env, timeout=60, **kw)


def test_process_edges(tmp_path):
    """Kind: what only a real process has: undecodable argv bytes, a full or closed stdout,
    a cache folder that cannot be made. Each is one line on stderr and exit 2, no traceback."""
    env = dict(os.environ, CARDLAB_CACHE_DIR=str(tmp_path / "cache"))
    done = _cardlab(b"show", b"\xff", env=env)
    assert done.returncode == 2 and b"is not valid text" in done.stderr and b"Traceback" not in done.stderr
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cardlab", "search", "", "-O", "ids", "--catalog", str(POKEMON)],
            stdout=full,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
        )
    assert done.returncode == 2 and b"cannot write the output: No space left on device" in done.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    done = _cardlab("search", "charizard", "--catalog", str(POKEMON / "base1"), env=dict(env, CARDLAB_CACHE_DIR=str(blocker)))
    assert done.returncode == 2 and b"cache folder cannot be created" in done.stderr
    assert b"Traceback" not in done.stderr


def test_json_errors_from_search_and_show(runner):
    """Kind: -O json on a command that stops: the error as JSON on stdout, as every command gives it."""
    import json

    for args, code in ((["search", "type:electric", "-O", "json"], 2), (["show", "Zzzzz", "-O", "json"], 1)):
        result = runner.invoke(app, [*args, "--catalog", str(POKEMON / "base1")])
        assert result.exit_code == code, args
        body = json.loads(result.stdout)
        assert (body["ok"], body["exit_code"]) == (False, code)


def test_show_counts_cards_not_printings(runner):
    """A name shared by several cards lists each card once (its first printing), as deck lines count them."""
    result = runner.invoke(app, ["show", "Pikachu"])
    assert result.exit_code == 1
    assert "'Pikachu' names 6 cards" in result.stderr and "base4-87" not in result.stderr
    # one card a line, as lines (a message's line feeds are kept; other controls are escaped)
    lines = result.stderr.splitlines()
    at = lines.index("error: 'Pikachu' names 6 cards; give an id:")  # after a first run's "indexed ..." line
    assert lines[at : at + 3] == [
        "error: 'Pikachu' names 6 cards; give an id:",
        "  base1-58  Pikachu (base1)",
        "  base2-60  Pikachu (base2)",
    ]


@pytest.mark.parametrize(
    ("ref", "card_id"),
    [
        ("Charizard 4/102", "base1-4"),  # the collector number over the set's printed total
        ("Charizard 4/130", "base4-4"),  # Base Set 2's
        ("Charizard BS 4", "base1-4"),  # a set code, as deck lines name a printing
        ("Dracaufeu BS 4", "base1-4"),
        ("Charizard base4-4", "base4-4"),
    ],
)
def test_show_a_name_with_its_printing(runner, ref: str, card_id: str):
    """`cardlab show` reads a printing as the deck-line resolver does (decks.resolve.printing_named)."""
    import json

    result = runner.invoke(app, ["show", ref, "-O", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["id"] == card_id


def test_show_a_name_with_a_wrong_printing_is_not_found(runner):
    result = runner.invoke(app, ["show", "Bill BS 4"])
    assert result.exit_code == 1
    assert "no card 'Bill BS 4'" in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "quoted"),
    [
        (["search", "zz " * 40_000], 2, "zz"),  # the caret's line: 200 characters around the caret
        (["show", "x" * 100_000], 1, "no card '" + "x" * 200 + "…'"),
    ],
)
def test_a_huge_argument_is_not_echoed_whole(runner, args, code, quoted):
    """A hostile finding: a 100 kB query or reference was echoed whole in the error."""
    result = runner.invoke(app, [*args, "--catalog", str(POKEMON / "base1")])
    assert result.exit_code == code
    assert quoted in result.stderr
    assert len(result.stderr) < 800
