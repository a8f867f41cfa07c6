"""cardlab deck validate / deck stats / formats through typer's CliRunner: messages, exit codes,
JSON output, the real example decks and the bad inputs."""

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
DECKS = REPO / "tests" / "fixtures" / "decks"
EXAMPLES = REPO / "examples" / "decks"
TEST_ROOTS = ["--catalog", str(REPO / "cards"), "--catalog", str(REPO / "tests" / "fixtures" / "catalog")]


@pytest.fixture
def base_only(tmp_path) -> list[str]:
    """A catalog holding only the Base Set (and the Pokémon formats)."""
    root = tmp_path / "base-only"
    (root / "pokemon").mkdir(parents=True)
    (root / "pokemon" / "base1").symlink_to(REPO / "cards" / "pokemon" / "base1")
    (root / "pokemon" / "formats").symlink_to(REPO / "cards" / "pokemon" / "formats")
    return ["--catalog", str(root)]


@pytest.mark.parametrize("name", ["zap-theme-deck.txt", "brushfire-theme-deck.txt"])
def test_theme_decks_are_legal(runner, base_only, name):
    result = runner.invoke(app, ["deck", "validate", str(EXAMPLES / name), "--format", "pokemon-base", *base_only])
    assert result.exit_code == 0, result.stderr
    assert f"legal: {EXAMPLES / name} under pokemon-base (60 cards)" in result.stdout
    assert result.stderr == ""


def test_haymaker_reports_scyther(runner, base_only):
    path = EXAMPLES / "haymaker.txt"
    result = runner.invoke(app, ["deck", "validate", str(path), "--format", "pokemon-base", *base_only])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f'{path}:3: unknown-card: unknown card "Scyther"',
        f"not legal: 1 problem in {path} under pokemon-base",
    ]


def test_rule_message_names_line_and_rule(runner):
    path = DECKS / "pokemon" / "copy-limit.txt"
    result = runner.invoke(app, ["deck", "validate", str(path)])
    assert result.exit_code == 1
    assert f'{path}:16: copy-limit: 5 copies of "Bill" (limit 4)' in result.stderr.splitlines()


def test_every_violation_at_once(runner, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("Format: pokemon-base\n5 Bill\n5 Double Colorless Energy\n0 Switch\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:2: deck-size: the deck holds 10 cards; exactly 60 needed",
        f'{path}:2: copy-limit: 5 copies of "Bill" (limit 4)',
        f"{path}:2: require: the deck holds no Basic Pokémon; at least 1 needed",
        f'{path}:3: copy-limit: 5 copies of "Double Colorless Energy" (limit 4)',
        f'{path}:4: count: count 0 for "Switch": a count is a whole number from 1 to 999',
        f"not legal: 5 problems in {path} under pokemon-base",
    ]


def test_json_output(runner):
    path = DECKS / "monpa" / "commander-in-main.txt"
    result = runner.invoke(app, ["deck", "validate", str(path), "--output-format", "json", *TEST_ROOTS])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["legal"] is False and data["format"] == "monpa"
    assert data["sections"] == {"main": 40, "commander": 1, "favor": 1}
    assert data["problems"] == [
        {
            "path": str(path),
            "line": 27,
            "column": 0,
            "rule": "section-cards",
            "message": '"Test Commander" (commander) is in the deck; commanders and favors may not be in the deck',
        }
    ]
    ok = runner.invoke(app, ["deck", "validate", str(DECKS / "monpa" / "legal.txt"), "-O", "json", *TEST_ROOTS])
    assert ok.exit_code == 0 and json.loads(ok.stdout)["legal"] is True


def test_bad_output_option(runner):
    result = runner.invoke(app, ["deck", "validate", str(DECKS / "pokemon" / "legal.txt"), "--output-format", "xml"])
    assert result.exit_code == 2


def _no_traceback(result):
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr


def test_empty_file(runner, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path), "--format", "pokemon-base"])
    assert result.exit_code == 2
    assert f"error: {path}:1: the file is empty" in result.stderr
    _no_traceback(result)


def test_binary_file(runner, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_bytes(bytes(range(256)) * 4)
    result = runner.invoke(app, ["deck", "validate", str(path), "--format", "pokemon-base"])
    assert result.exit_code == 2
    assert "binary file" in result.stderr and str(path) in result.stderr
    _no_traceback(result)


def test_fifty_megabyte_file(runner, tmp_path):
    path = tmp_path / "big.txt"
    with path.open("wb") as fh:
        fh.write(b"4 Pikachu\n" * 5_242_880)  # 50 MB
    result = runner.invoke(app, ["deck", "validate", str(path), "--format", "pokemon-base"])
    assert result.exit_code == 2
    assert "file is 52,428,800 bytes; the limit is 1,000,000" in result.stderr
    _no_traceback(result)


def test_missing_file(runner, tmp_path):
    result = runner.invoke(app, ["deck", "validate", str(tmp_path / "nope.txt"), "--format", "pokemon-base"])
    assert result.exit_code == 2 and "cannot read file" in result.stderr


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("no-count.txt", ':4: no-count: no count on this line ("Bill"); write it as "1 Bill"'),
        ("count-zero.txt", ':4: count: count 0 for "Bill": a count is a whole number from 1 to 999'),
        ("count-negative.txt", ':4: count: count -1 for "Bill"'),
        ("count-huge.txt", ':4: count: count 10000 for "Bill" is too large (at most 999 on one line)'),
        ("section-total.txt", ':2: section-total: "Pokémon: 12" declares 12 cards but its lines hold 11'),
        ("unknown-card.txt", ':3: unknown-card: unknown card "Pikachoo"; did you mean "Pikachu"?'),
    ],
)
def test_bad_lines(runner, name, expected):
    path = DECKS / "bad" / name
    result = runner.invoke(app, ["deck", "validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}{expected}" in result.stderr
    _no_traceback(result)


def test_ambiguous_name(runner, base_only):
    path = DECKS / "bad" / "ambiguous.txt"
    result = runner.invoke(
        app,
        [
            "deck",
            "validate",
            str(path),
            *base_only,
            "--catalog",
            str(REPO / "tests" / "fixtures" / "catalog"),
            "--catalog",
            str(DECKS / "catalog"),
        ],
    )
    assert result.exit_code == 1
    assert (
        f'{path}:4: ambiguous-card: "Mockmon" matches 2 cards that pokemon-unlimited tells apart (Basic Pokémon: reprint-3 yes, reprint-4 no)'
        in result.stderr
    )


def test_commander_in_main_deck(runner):
    path = DECKS / "monpa" / "commander-in-main.txt"
    result = runner.invoke(app, ["deck", "validate", str(path), *TEST_ROOTS])
    assert result.exit_code == 1
    assert (
        f'{path}:27: section-cards: "Test Commander" (commander) is in the deck; commanders and favors may not be in the deck'
        in result.stderr
    )


def test_no_format_lists_the_formats(runner):
    # deck validate checks a deck without a format in every format of its game (tests/test_deck_legality.py);
    # deck stats counts the deck under the best fit of that survey and says which (one deck checker)
    result = runner.invoke(app, ["deck", "stats", str(DECKS / "bad" / "no-format.txt")])
    assert result.exit_code == 0
    assert "note: checked against pokemon-base (the deck names no format; use --format)" in result.stderr
    assert "pokemon-base: 60 cards in the deck" in result.stdout
    result = runner.invoke(app, ["deck", "validate", str(DECKS / "pokemon" / "legal.txt"), "--format", "standard"])
    assert result.exit_code == 2 and "unknown format 'standard'" in result.stderr


def test_stats(runner, base_only):
    result = runner.invoke(app, ["deck", "stats", str(EXAMPLES / "zap-theme-deck.txt"), "-f", "pokemon-base", *base_only])
    assert result.exit_code == 0, result.stderr
    assert "at least one Basic Pokémon in the 7-card opening hand: 93.01%" in result.stdout
    assert "expected mulligans before a hand with a Basic Pokémon: 0.075" in result.stdout


def test_stats_json(runner):
    path = DECKS / "ippo" / "legal-10-rounds.txt"
    result = runner.invoke(app, ["deck", "stats", str(path), "--output-format", "json", *TEST_ROOTS])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    found = {o["id"]: Fraction(o["exact"]) for o in data["odds"]}
    assert found["mulligan"] == Fraction(comb(40, 5) + comb(20, 5), comb(60, 5))
    assert found["get-up"] == 1 - Fraction(comb(36, 10), comb(60, 10))


def test_stats_need(runner):
    path = DECKS / "monpa" / "legal.txt"
    result = runner.invoke(app, ["deck", "stats", str(path), "--need", "servant", "--need", "spell", "-O", "json", *TEST_ROOTS])
    assert result.exit_code == 0, result.stderr
    (odd,) = json.loads(result.stdout)["odds"]
    assert Fraction(odd["exact"]) == 1 - Fraction(comb(19, 5) + comb(30, 5) - comb(9, 5), comb(40, 5))


def test_formats_command(runner):
    result = runner.invoke(app, ["formats"])
    assert result.exit_code == 0
    for name in ("pokemon-base", "pokemon-unlimited", "ippo-10-rounds", "ippo-4-rounds", "monpa"):
        assert name in result.stdout
    assert "copy-limit: at most 4 copies of a card by name; no limit for energy_type basic" in result.stdout
    data = json.loads(runner.invoke(app, ["formats", "--game", "monpa", "--output-format", "json"]).stdout)
    assert [f["name"] for f in data] == ["monpa"]
    assert data[0]["sections"] == ["main", "commander", "favor"]


def test_help_texts(runner):
    for args in (["deck", "--help"], ["deck", "validate", "--help"], ["deck", "stats", "--help"], ["formats", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        if args != ["deck", "--help"]:  # the group's help lists commands, each command shows an example
            assert "Example" in result.stdout


@pytest.mark.parametrize(
    ("lines", "prop_line"),
    [
        (
            "4 Bill BS 91\n",
            'pokemon-prop-15-3    not legal (3 problems)  line 1: copy-limit: 4 copies of "Bill" (limit 3) | '
            "line 1: deck-size: the deck holds 4 cards; exactly 60 needed | "
            "line 1: require: the deck holds no Basic Pokémon; at least 1 needed",
        ),
        (
            "1 Pikachu JU 60\n1 Flying Pikachu PR 25\n1 Scyther JU 10\n1 Mockmon TST 1\n",
            None,
        ),
        ("3 Pikachu BS 58\n57 Lightning Energy BS 100\n", "pokemon-prop-15-3    legal (60 cards)"),
    ],
)
@pytest.mark.parametrize("columns", ["40", "80", "200"])
def test_piped_legality_table_is_one_line_per_format(runner, tmp_path, lines, prop_line, columns):
    """Kind: piped output is plain, never wrapped at the terminal's width: the legality table
    (deck validate without --format) is one line per format, whatever COLUMNS says."""
    path = tmp_path / "deck.txt"
    path.write_text(lines, encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path), *TEST_ROOTS], env={"COLUMNS": columns})
    out = result.stdout.splitlines()
    names = ["pokemon-base", "pokemon-base-fossil", "pokemon-base-gym", "pokemon-base-jungle", "pokemon-base-rocket"]
    names += ["pokemon-prop-15-3", "pokemon-unlimited"]
    assert out[1].split() == ["Format", "Verdict", "First", "problems"]
    assert [ln.split()[0] for ln in out[2:-1]] == names
    assert len(out) == len(names) + 3
    if prop_line is not None:
        assert out[2 + names.index("pokemon-prop-15-3")] == prop_line


def test_a_plain_text_deck_checked_against_the_index_loads_no_yaml_parser(tmp_path):
    """A real process: with the index and the validation cache warm, a plain-text deck needs
    neither the YAML parser nor the schema checker (about 20 ms of imports at every run)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDLAB_")}
    env.update(CARDLAB_CACHE_DIR=str(tmp_path / "cache"), CARDLAB_DB=str(tmp_path / "index.sqlite"))
    deck = EXAMPLES / "zap-theme-deck.txt"
    code = (
        "import sys\nfrom cardlab.cli.entry import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print(code, sorted(m for m in ('yaml', 'ruamel.yaml', 'jsonschema') if m in sys.modules), file=sys.stderr)\n"
    )
    argv = ["deck", "validate", str(deck), "--format", "pokemon-base"]
    subprocess.run([sys.executable, "-m", "cardlab", "index"], env=env, capture_output=True, timeout=120, check=True)
    proc = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True, timeout=120)
    assert proc.stderr.splitlines()[-1] == "0 []", proc.stderr
    assert "legal" in proc.stdout
