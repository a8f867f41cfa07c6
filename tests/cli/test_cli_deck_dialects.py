"""cardlab deck list -O ptcgl|limitless|tcgone|cardlab and the dialects read from files and standard
input, through typer's CliRunner and once as a real process: exact outputs, exit codes, and one
clear sentence for a broken Cockatrice file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "decks" / "dialects"
ROOTS = ["--catalog", str(REPO / "cards")]
FORMAT = ["-f", "pokemon-base-fossil"]


def test_ptcgl_output_of_the_limitless_haymaker(runner) -> None:  # noqa: ANN001
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.limitless.txt"), *FORMAT, "-O", "ptcgl", *ROOTS])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (FIXTURES / "haymaker.ptcgl.txt").read_text(encoding="utf-8")


def test_ptcgl_output_in_french_is_lives_french_export(runner) -> None:  # noqa: ANN001
    """--lang fr writes Live's French headers and names: the French Live export fixture itself."""
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.limitless.txt"), *FORMAT, "-O", "ptcgl", "--lang", "fr", *ROOTS])
    assert result.exit_code == 0, result.stderr
    expected = (FIXTURES / "haymaker.ptcgl-fr.txt").read_text(encoding="utf-8")
    # cardlab writes basic Energy in the English form (Basic {F} Energy) in every language; the fixture names them in French
    expected = expected.replace("Énergie Combat BS 97", "Basic {F} Energy BS 97").replace(
        "Énergie Électrique BS 100", "Basic {L} Energy BS 100"
    )
    assert result.stdout == expected


def test_limitless_output_of_the_cockatrice_haymaker(runner) -> None:  # noqa: ANN001
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.cod"), *FORMAT, "-O", "limitless", *ROOTS])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (FIXTURES / "haymaker.limitless.txt").read_text(encoding="utf-8")


def test_tcgone_output_of_the_french_live_haymaker(runner) -> None:  # noqa: ANN001
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.ptcgl-fr.txt"), *FORMAT, "-O", "TCGONE", *ROOTS])
    assert result.stdout == (FIXTURES / "haymaker.tcgone.txt").read_text(encoding="utf-8")
    # Live's line counts (Pokémon : 4) are section-total problems until the check accepts either
    # count (tests/unit/decks/test_dialects.py::test_live_line_counts_are_accepted); nothing else
    assert [line for line in result.stderr.splitlines() if "section-total" not in line and not line.startswith("not legal")] == []


def test_cardlab_output_is_the_text_export(runner) -> None:  # noqa: ANN001
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.tcgone.txt"), *FORMAT, "-O", "cardlab", *ROOTS])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ["Format: pokemon-base-fossil", "Deck: 60", "4 Hitmonchan base1 7"]
    assert "12 Lightning Energy base1 100" in lines


def test_text_and_json_listings_are_unchanged(runner) -> None:  # noqa: ANN001
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.tcgone.txt"), *FORMAT, *ROOTS])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["main: 60", "4 Hitmonchan (base1-7)"]
    result = runner.invoke(app, ["deck", "list", str(FIXTURES / "haymaker.tcgone.txt"), *FORMAT, "-O", "json", *ROOTS])
    assert result.exit_code == 0
    assert '"card": "base1-7"' in result.stdout  # a deck document that reads back (export_json)


def test_a_broken_cod_is_one_sentence_exit_2(runner, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "broken.cod"
    path.write_text(
        '<?xml version="1.0"?>\n<cockatrice_deck version="1">\n<zone name="main">\n<card number="4" name="Pikachu">\n</zone>\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["deck", "validate", str(path), *FORMAT, *ROOTS])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"error: {path}:5:3: not a well-formed Cockatrice deck file (mismatched tag); a .cod file is XML saved by Cockatrice"
    ]
    assert "Traceback" not in result.stderr


def test_cod_on_standard_input_is_sniffed(runner) -> None:  # noqa: ANN001
    text = (FIXTURES / "haymaker.cod").read_text(encoding="utf-8")
    result = runner.invoke(app, ["deck", "list", "-", *FORMAT, "-O", "tcgone", *ROOTS], input=text)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (FIXTURES / "haymaker.tcgone.txt").read_text(encoding="utf-8")


def test_a_tool_dialect_for_another_game_is_refused(runner) -> None:  # noqa: ANN001
    deck = REPO / "tests" / "fixtures" / "decks" / "ippo"
    files = sorted(deck.glob("*.txt"))
    if not files:
        pytest.skip("no ippo deck fixture")
    result = runner.invoke(
        app, ["deck", "list", str(files[0]), "-O", "ptcgl", *ROOTS, "--catalog", str(REPO / "tests" / "fixtures" / "catalog")]
    )
    assert result.exit_code == 2
    assert "-O ptcgl writes Pokémon TCG deck lists" in result.stderr


def test_as_a_process_deck_list_writes_ptcgl(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDLAB_", "FORCE_COLOR", "TTY_"))}
    env["CARDLAB_CACHE_DIR"] = str(tmp_path / "cache")
    command = [sys.executable, "-m", "cardlab", "deck", "list", str(FIXTURES / "haymaker.tcgone.txt"), *FORMAT, "-O", "ptcgl"]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (FIXTURES / "haymaker.ptcgl.txt").read_text(encoding="utf-8")
    assert proc.stderr == ""


def test_format_60_line_is_a_usage_error(runner, tmp_path) -> None:  # noqa: ANN001
    deck = tmp_path / "f.txt"
    deck.write_text("Format: 60\n4 Bill\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(deck), *ROOTS])
    assert result.exit_code == 2
    assert (
        f"{deck}:1: 'Format: 60' names no format: the format must be a name such as pokemon-base; fix it or use --format NAME"
        in " ".join(result.output.split())
    )
