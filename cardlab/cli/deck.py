"""``cardlab deck validate|stats|list`` and ``cardlab formats``: thin commands over cardlab.decks.check,
cardlab.decks.rules, cardlab.decks.stats and cardlab.catalog.formats.

Options: ``--format``/``-f NAME`` is the *deck format* (``pokemon-base``..., any case); machine
output is ``--output-format json`` (``-O json``; ``-o json`` is a deprecated alias for one
release); ``--lang`` picks the language of card names. Exit status of ``deck validate``, ``deck
stats`` and ``deck list``: 0 legal, 1 illegal (or a broken format file), 2 the file cannot be read
(or holds no card) or no format. Invalid catalog files (a draft from ``card new``) are warnings: the
deck is checked against the valid cards. With ``-O json`` an error that stops a command prints
``{"ok": false, "error": ..., "exit_code": ...}`` on stdout too, with the same exit status.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardlab.cli.errors import finish, user_errors
from cardlab.cli.options import (
    CatalogOpt,
    DeckFormatOpt,
    GameOpt,
    LangOpt,
    OldOutputOpt,
    ReportOutput,
    ReportOutputOpt,
    langs_of,
    output_format,
    roots_and_db,
)
from cardlab.core import words

if TYPE_CHECKING:
    from cardlab.decks.model import Deck

deck_app = typer.Typer(help="Check deck lists against a format and show their statistics.", no_args_is_help=True, rich_markup_mode=None)

FileArg = Annotated[Path, typer.Argument(help="A deck list: plain text (4 Pikachu) or YAML (schema/deck.schema.json).")]


def _json(data: object) -> None:
    import json

    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


@deck_app.command("validate")
def deck_validate(
    file: FileArg,
    fmt: DeckFormatOpt = None,
    output_fmt: ReportOutputOpt = ReportOutput.text,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    old_output: OldOutputOpt = None,
) -> None:
    """Check a deck list against a format's rules, reporting every problem with its line.

    Exit 0 when the deck is legal, 1 when it is not, 2 when the file cannot be read or holds no card.
    When neither --format nor the file names a format, the game is found from the cards and the
    deck is checked in every format of that game (a table: format, legal or its first problems);
    exit 0 when it is legal in at least one format, 1 when in none.
    Example: cardlab deck validate examples/decks/zap-theme-deck.txt -f pokemon-base
    """
    from cardlab.decks import check as decks

    output = output_format(output_fmt, old_output, "deck validate", "--output")
    roots, _ = roots_and_db(catalog, None)
    with user_errors(json_output=output is ReportOutput.json):
        report = decks.check_deck_file(file, roots, fmt, langs_of(lang))
    _warn_catalog(report.best.deck)
    if output is ReportOutput.json:
        _json(report.to_json())
    else:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        if report.surveyed:
            render_deck.print_legality(report, render.stdout_console(), render.stderr_console())
        else:
            render_deck.print_report(report.report, render.stdout_console(), render.stderr_console())
    finish(report.legal)


def _warn_catalog(deck: Deck) -> None:
    """Warn on stderr about invalid catalog files the deck was checked without."""
    if deck.catalog_problems:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        render_deck.print_catalog_warnings(deck.catalog_problems, render.stderr_console())


@deck_app.command("stats")
def deck_stats(
    file: FileArg,
    fmt: DeckFormatOpt = None,
    need: Annotated[
        Optional[list[str]],
        typer.Option(
            "--need",
            help="A kind of the deck's game that must be in the opening hand (repeatable, any case; another "
            "kind's error lists them), e.g. Pokémon/Trainer/Energy, Ippo blow/defense/support/fight.",
        ),
    ] = None,
    output_fmt: ReportOutputOpt = ReportOutput.text,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    old_output: OldOutputOpt = None,
) -> None:
    """Show a deck's counts by type and Energy type, its cost curve and exact opening odds.

    Exit 0 when the deck is legal, 1 when it is not (the statistics are shown either way; lines that
    match no card are left out of the figures), 2 when the file cannot be read or holds no card.

    Example: cardlab deck stats examples/decks/zap-theme-deck.txt -f pokemon-base
    """
    from cardlab.decks import check as decks
    from cardlab.decks.stats import deck_stats as compute

    output = output_format(output_fmt, old_output, "deck stats", "--output")
    roots, _ = roots_and_db(catalog, None)
    with user_errors(json_output=output is ReportOutput.json):
        report = decks.check_deck_file(file, roots, fmt, langs_of(lang))
        deck, problems = report.best.deck, report.best.problems
        stats = compute(deck, need or ())
    _warn_catalog(deck)
    if output is ReportOutput.json:
        _json({**stats.to_json(), "format": deck.format.name, "notes": [p.to_json() for p in deck.notes]})
    else:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        render_deck.print_notes(deck, render.stderr_console(), report.notes)
        render_deck.print_stats(stats, render.stdout_console())
        if problems:
            from cardlab.render import messages

            messages.note(f"the deck is not legal ({words.count(len(problems), 'problem')}); run 'cardlab deck validate'")
    finish(not problems)


class DeckListOutput(str, Enum):
    """``deck list --output-format``: the listing (text, json) or a tool's deck list
    (:mod:`cardlab.decks.dialects`: ptcgl, limitless, tcgone; cardlab for cardlab's own text list)."""

    text = "text"
    json = "json"
    ptcgl = "ptcgl"
    limitless = "limitless"
    tcgone = "tcgone"
    cardlab = "cardlab"


DeckListOutputOpt = Annotated[
    DeckListOutput,
    typer.Option(
        "--output-format",
        "-O",
        case_sensitive=False,
        help="text or json (the listing), or the deck list of a tool: ptcgl (Pokémon TCG Live), limitless, tcgone (PTCGO layout), cardlab.",
    ),
]


@deck_app.command("list")
def deck_list_cmd(
    file: FileArg,
    fmt: DeckFormatOpt = None,
    lang: LangOpt = None,
    output_fmt: DeckListOutputOpt = DeckListOutput.text,
    catalog: CatalogOpt = None,
    old_output: OldOutputOpt = None,
) -> None:
    """Print a deck list as matched to the catalog, with card names in your language.

    The deck's problems (lines that match no card, broken format rules) are reported on stderr, as
    deck validate reports them. Exit 0 when the deck is legal, 1 when it is not (the list is printed
    either way), 2 when the file cannot be read or holds no card.

    With -O ptcgl, limitless or tcgone the deck is printed as that tool exports it (its set codes,
    collector numbers, section headers), ready to paste into it; -O cardlab prints cardlab's own
    text list. Each reads back to the same cards.

    Example: cardlab deck list examples/decks/zap-theme-deck.txt -f pokemon-base --lang fr
    Example: cardlab deck list examples/decks/haymaker.txt -f pokemon-base -O ptcgl
    """
    from cardlab.decks import check as decks

    output = output_format(output_fmt, old_output, "deck list", "--output")
    roots, _ = roots_and_db(catalog, None)
    with user_errors(json_output=output is DeckListOutput.json):
        langs = langs_of(lang)
        report = decks.check_deck_file(file, roots, fmt, langs)  # the catalog opened once for the command
        deck, problems = report.best.deck, report.best.problems
        written = None
        if output not in (DeckListOutput.text, DeckListOutput.json):
            from cardlab.decks.dialects import write_deck

            written = write_deck(deck, "text" if output is DeckListOutput.cardlab else output.value, langs, report.catalog.sets)
    listing = decks.deck_list(deck, langs)
    _warn_catalog(deck)
    from cardlab.render import cards as render
    from cardlab.render import decks as render_deck

    # the list's own problems (unknown cards...) and the format's rules, as deck validate shows them
    render_deck.print_problems(problems, render.stderr_console())
    render_deck.print_notes(deck, render.stderr_console(), report.notes)
    if written is not None:
        typer.echo(written, nl=False)
    elif output is DeckListOutput.json:  # a deck document that reads back (decks.check.export_json)
        _json(decks.export_json(deck, langs))
    else:
        for section, rows in listing:
            typer.echo(f"{section}: {sum(n for n, _, _ in rows)}")
            typer.echo("".join(f"{n} {name} ({cid})\n" for n, name, cid in rows), nl=False)
    finish(not problems)


def formats_cmd(
    game: GameOpt = None,
    output_fmt: ReportOutputOpt = ReportOutput.text,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    old_output: OldOutputOpt = None,
) -> None:
    """List the deck formats and their rules.  Example: cardlab formats --game pokemon --lang fr"""
    from cardlab.decks.rules import describe
    from cardlab.index.stored import open_formats

    output = output_format(output_fmt, old_output, "formats", "--output")
    roots, db_path = roots_and_db(catalog, None)
    with user_errors(json_output=output is ReportOutput.json):
        langs_of(lang)  # the language of the titles, descriptions and rules (not of the JSON's data)
        found = [f for f in open_formats(roots, db_path).values() if game is None or f.game == game.value]
    if output is ReportOutput.json:
        _json(
            [
                {
                    "name": f.name,
                    "game": f.game,
                    "title": f.title,
                    "description": f.description,
                    "source": f.source,
                    "path": str(f.path),
                    "sections": [s.id for s in f.sections],
                    "rules": [{"rule": r.rule, **r.params, "text": describe(r), "source": r.source} for r in f.rules],
                }
                for f in found
            ]
        )
        return
    from cardlab.render import cards as render
    from cardlab.render import decks as render_deck

    render_deck.print_formats(found, render.stdout_console())


def register(app: typer.Typer) -> None:
    """Mount ``deck`` (validate, stats) and the top-level ``formats`` command on ``app``."""
    app.add_typer(deck_app, name="deck")
    app.command("formats")(formats_cmd)
