"""Every command obeys the exit statuses (README, "Exit status"; cardlab.core.errors.ExitStatus):
0 ok, 1 the input is valid but fails a check, 2 usage or unreadable input. Table-driven: each
command once with good input, once with a failing check, once with a usage error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_cli_flags import COMMANDS

from cardlab.cli.whole import app
from cardlab.core.errors import ExitStatus

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"

OK, CHECK, USAGE = ExitStatus.OK, ExitStatus.CHECK_FAILED, ExitStatus.USAGE
ZAP = str(REPO / "examples" / "decks" / "zap-theme-deck.txt")
HAYMAKER = str(REPO / "examples" / "decks" / "haymaker.txt")  # "Scyther" is not a Base Set card
FR = ["--lang", "fr"]

# command -> {status: arguments}; {cat} is a valid test catalog, {broken} the same with a bad card,
# {badfmt} one with a bad format file, {tmp} an empty folder, {po} a PO export of {cat},
# {unknown_po} a PO file naming a card that does not exist.
TABLE: dict[str, dict[ExitStatus, list[str]]] = {
    # search on a broken catalog answers from its other cards, with a warning (issue 33): exit 0
    "search": {OK: ["testmon", "--catalog", "{broken}", "--db", "{tmp}/i.sqlite"], USAGE: ["hp>>80"]},
    "show": {OK: ["base1-4"], CHECK: ["no such card"], USAGE: ["base1-4", "-O", "yaml"]},
    "validate": {OK: ["{cat}"], CHECK: ["{broken}"], USAGE: ["{tmp}/missing"]},
    "index": {
        OK: ["--catalog", "{cat}", "--db", "{tmp}/i.sqlite"],
        CHECK: ["--catalog", "{broken}", "--db", "{tmp}/i.sqlite"],
        USAGE: ["--catalog", "{cat}", "--db", "{tmp}"],
    },
    "formats": {OK: [], CHECK: ["--catalog", "{badfmt}"], USAGE: ["--game", "chess"]},
    "deck validate": {
        OK: [ZAP, "-f", "pokemon-base"],
        CHECK: [HAYMAKER, "-f", "pokemon-base"],
        USAGE: ["{tmp}/missing.txt", "-f", "pokemon-base"],
    },
    "deck stats": {
        OK: [ZAP, "-f", "pokemon-base"],
        CHECK: [HAYMAKER, "-f", "pokemon-base"],
        USAGE: [ZAP, "-f", "pokemon-base", "--need", "dragons"],
    },
    "deck list": {OK: [ZAP, "-f", "pokemon-base"], CHECK: [HAYMAKER, "-f", "pokemon-base"], USAGE: [ZAP, "-f", "no-such-format"]},
    "proxies": {
        OK: [ZAP, "-o", "{tmp}/zap.pdf"],
        CHECK: [HAYMAKER, "-f", "pokemon-base", "-o", "{tmp}/haymaker.pdf"],
        USAGE: ["-o", "{tmp}/nothing.pdf"],
    },
    "i18n status": {OK: FR, CHECK: [*FR, "--fail-under", "100"], USAGE: [*FR, "--fail-under", "200"]},
    "i18n export": {OK: [*FR, "--set", "base1", "-o", "{tmp}/fr.po"], USAGE: [*FR, "-o", "{tmp}"]},
    "i18n import": {
        OK: ["{po}", "--catalog", "{cat}", "--dry-run"],
        CHECK: ["{unknown_po}", "--catalog", "{cat}", "--dry-run"],
        USAGE: ["{tmp}/missing.po", "--catalog", "{cat}"],
    },
    "i18n hash": {OK: ["Fire Spin"], USAGE: []},
    "sets": {OK: [], USAGE: ["no-such-set"]},
    "serve": {CHECK: ["--catalog", "{broken}"], USAGE: ["--port", "0"]},
    "card new": {
        OK: ["--set", "test1", "--number", "9", "--catalog", "{cat}"],
        CHECK: ["--set", "test1", "--number", "1", "--catalog", "{cat}"],
        USAGE: ["--set", "no-such-set", "--number", "9", "--catalog", "{cat}"],
    },
}
NO_CHECK = {  # commands that check nothing, so cannot fail a check
    "i18n export": "exports whatever the catalog holds",
    "i18n hash": "hashes any text",
    "sets": "lists what is recorded",
    "search": "answers from the cards that validate, warning about the others (issue 33)",
}
NO_OK = {  # commands whose good run does not end
    "serve": "serves until stopped; tests/unit/web starts it as a real process and stops it",
}


@pytest.fixture
def world(tmp_path) -> dict[str, str]:
    cat, broken, badfmt, tmp = (tmp_path / name for name in ("cat", "broken", "badfmt", "tmp"))
    for root in (cat, broken, badfmt):
        shutil.copytree(FIXTURES / "catalog" / "pokemon" / "test1", root / "pokemon" / "test1")
    card = broken / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("\nhp: ", "\nhp: lots #"), encoding="utf-8")
    (badfmt / "pokemon" / "formats").mkdir()
    (badfmt / "pokemon" / "formats" / "broken.yaml").write_text("name: broken\ngame: pokemon\nrules: 3\n", encoding="utf-8")
    tmp.mkdir()
    import cardlab

    po = cardlab.export_po(cardlab.load_catalog([cat]), "fr")
    po.save(str(tmp_path / "fr.po"))
    (tmp_path / "unknown.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "test1-99 name"\nmsgid "X"\nmsgstr "Y"\n', encoding="utf-8"
    )
    return {
        "cat": str(cat),
        "broken": str(broken),
        "badfmt": str(badfmt),
        "tmp": str(tmp),
        "po": str(tmp_path / "fr.po"),
        "unknown_po": str(tmp_path / "unknown.po"),
    }


def test_the_table_covers_every_command():
    """This table and the one of the collection and game commands (test_cli_exit_games.py) cover every command."""
    from test_cli_exit_games import TABLE as GAMES

    assert sorted([*TABLE, *GAMES]) == sorted(COMMANDS)
    for command, cases in TABLE.items():
        expected = {OK, CHECK, USAGE} - ({CHECK} if command in NO_CHECK else set()) - ({OK} if command in NO_OK else set())
        assert set(cases) == expected, command


CASES = [(command, status) for command, cases in TABLE.items() for status in cases]


@pytest.mark.parametrize(("command", "status"), CASES, ids=[f"{c}-{s.name}" for c, s in CASES])
def test_exit_status(runner, world, command, status):
    args = [*command.split(), *(a.format(**world) for a in TABLE[command][status])]
    result = runner.invoke(app, args)
    assert result.exit_code == status, f"{args}\n{result.stdout}\n{result.stderr}"
    assert type(result.exception) in (type(None), SystemExit), result.exception  # no traceback
    if status is not OK:
        assert result.stderr.strip(), "a failure says why on stderr"


def test_version_exits_ok(runner):
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (OK, "cardlab 0.1.0\n")
