"""One meaning per flag name across the CLI, read off the command tree, and the deprecated spellings
that still work for one release with one warning line on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]

ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"
SHIPPED = ["--catalog", str(REPO / "cards")]


def _commands(group, path: tuple[str, ...] = ()):  # noqa: ANN001 - typer's (vendored) click Group
    for name, command in sorted(group.commands.items()):
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


COMMANDS = dict(_commands(typer.main.get_command(app)))


def test_every_command_is_seen():
    assert sorted(COMMANDS) == [
        "card new",
        "collection add",
        "collection export",
        "collection import",
        "collection list",
        "collection remove",
        "collection set",
        "db copy",
        "deck have",
        "deck list",
        "deck stats",
        "deck validate",
        "formats",
        "i18n export",
        "i18n hash",
        "i18n import",
        "i18n status",
        "import csv",
        "index",
        "odds doll-house",
        "odds los-lobos",
        "odds zangetsu",
        "play accept",
        "play claim",
        "play decline",
        "play doll-house",
        "play list",
        "play los-lobos",
        "play new",
        "play replace",
        "play reveal",
        "play roll",
        "play ryujin-jakka",
        "play show",
        "play verify",
        "play zangetsu",
        "proxies",
        "search",
        "serve",
        "sets",
        "show",
        "validate",
    ]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_one_meaning_per_flag(name):
    for param in COMMANDS[name].params:
        if param.param_type_name != "option":
            continue
        opts = set(param.opts) | set(param.secondary_opts)
        if param.hidden:  # the deprecated spellings, and only those
            assert opts in ({"--format", "-f"}, {"--output", "-o"}), (name, opts)
            continue
        if opts & {"--format", "-f"}:
            assert opts == {"--format", "-f"} and param.name == "fmt" and param.metavar == "<name>", (name, opts)
        if opts & {"--output-format", "-O"}:
            assert opts == {"--output-format", "-O"} and hasattr(param.type, "choices"), (name, opts)
        if opts & {"--output", "-o"}:
            assert opts == {"--output", "-o"} and "file" in (param.help or "").lower(), (name, param.help)


def test_flags_where_they_belong():
    def visible(name: str) -> set[str]:
        return {o for p in COMMANDS[name].params if p.param_type_name == "option" and not p.hidden for o in p.opts}

    for name in ("deck validate", "deck stats", "deck list", "proxies"):
        assert "-f" in visible(name), name
    for name in ("search", "show", "validate", "formats", "deck validate", "deck stats", "deck list", "i18n status", "i18n import"):
        assert "-O" in visible(name), name
    for name in ("proxies", "i18n export"):
        assert "-o" in visible(name), name
    search_choices = next(p for p in COMMANDS["search"].params if p.name == "output_fmt").type.choices
    assert list(search_choices) == ["table", "json", "csv", "ids"]


def test_deprecated_options_are_hidden_from_help(runner):
    result = runner.invoke(app, ["search", "--help"])
    assert "--output-format" in result.stdout and "--format" not in result.stdout.replace("--output-format", "")
    result = runner.invoke(app, ["deck", "validate", "--help"])
    assert "--output-format" in result.stdout and "--output " not in result.stdout


# (old arguments, new arguments, the warning line)
DEPRECATED = [
    (
        ["search", "charizard", "--format", "ids"],
        ["search", "charizard", "-O", "ids"],
        "warning: 'search --format ids' is deprecated; use --output-format ids",
    ),
    (
        ["search", "charizard", "-f", "json"],
        ["search", "charizard", "--output-format", "json"],
        "warning: 'search --format json' is deprecated; use --output-format json",
    ),
    (
        ["show", "base1-4", "--format", "json"],
        ["show", "base1-4", "-O", "json"],
        "warning: 'show --format json' is deprecated; use --output-format json",
    ),
    (
        ["validate", "-f", "json", *SHIPPED],
        ["validate", "-O", "json", *SHIPPED],
        "warning: 'validate --format json' is deprecated; use --output-format json",
    ),
    (["formats", "-o", "json"], ["formats", "-O", "json"], "warning: 'formats --output json' is deprecated; use --output-format json"),
    (
        ["deck", "validate", str(ZAP), "-f", "pokemon-base", "-o", "json"],
        ["deck", "validate", str(ZAP), "-f", "pokemon-base", "-O", "json"],
        "warning: 'deck validate --output json' is deprecated; use --output-format json",
    ),
    (
        ["deck", "stats", str(ZAP), "-f", "pokemon-base", "--output", "json"],
        ["deck", "stats", str(ZAP), "-f", "pokemon-base", "-O", "json"],
        "warning: 'deck stats --output json' is deprecated; use --output-format json",
    ),
    (
        ["deck", "list", str(ZAP), "-f", "pokemon-base", "-o", "JSON"],
        ["deck", "list", str(ZAP), "-f", "pokemon-base", "-O", "json"],
        "warning: 'deck list --output JSON' is deprecated; use --output-format json",
    ),
    (
        ["i18n", "status", "--lang", "fr", "--format", "json", *SHIPPED],
        ["i18n", "status", "--lang", "fr", "-O", "json", *SHIPPED],
        "warning: 'i18n status --format json' is deprecated; use --output-format json",
    ),
]


@pytest.mark.parametrize(("old", "new", "warning"), DEPRECATED, ids=[" ".join(d[0][:2]) + " " + d[0][-1] for d in DEPRECATED])
def test_deprecated_spelling_still_works_with_one_warning(runner, old, new, warning):
    runner.invoke(app, ["index"])  # build the shipped index first: its progress line is not what is tested
    before, after = runner.invoke(app, old), runner.invoke(app, new)
    assert before.exit_code == after.exit_code == 0, before.stderr
    assert before.stdout == after.stdout
    assert before.stderr.splitlines() == [warning] + after.stderr.splitlines()
    if "ids" not in old:
        json.loads(before.stdout)


def test_deprecated_i18n_import_format(runner, tmp_path):
    po = tmp_path / "fr.po"
    assert runner.invoke(app, ["i18n", "export", "--lang", "fr", "--set", "base1", "-o", str(po)]).exit_code == 0
    result = runner.invoke(app, ["i18n", "import", str(po), "--dry-run", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == ["warning: 'i18n import --format json' is deprecated; use --output-format json"]
    data = json.loads(result.stdout)
    assert data["lang"] == "fr" and data["dry_run"] is True and data["problems"] == []


@pytest.mark.parametrize(
    "args",
    [
        ["search", "charizard", "--format", "pokemon-base"],
        ["deck", "validate", str(ZAP), "-o", "out.txt"],
        ["search", "charizard", "-O", "yaml"],
    ],
)
def test_a_bad_output_format_is_a_usage_error(runner, args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "deprecated; use" not in result.stderr
    assert "Invalid value for" in result.stderr


def test_proxies_takes_the_deck_format_as_f(runner, tmp_path):
    result = runner.invoke(app, ["proxies", str(ZAP), "-f", "POKEMON-BASE", "-o", str(tmp_path / "zap.pdf")])
    assert result.exit_code == 0, result.stderr
    assert "60 cards on 7 page(s)" in result.stderr and "note" not in result.stderr
