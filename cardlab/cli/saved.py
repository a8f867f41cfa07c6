"""``cardlab deck save|open|saved``: the saved decks of :mod:`cardlab.collection.saved` (the same ones
the web's builder saves and its permalinks show), in the collections database (``CARDLAB_DATA``)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.cli.errors import finish, user_errors
from cardlab.cli.options import CatalogOpt, DeckFormatOpt, LangOpt, ReportOutput, ReportOutputOpt, langs_of, roots_and_db


class OpenOutput(str, Enum):
    """``deck open --output-format``: the list as saved (cardlab) or a tool's (:mod:`cardlab.decks.dialects`)."""

    cardlab = "cardlab"
    ptcgl = "ptcgl"
    limitless = "limitless"
    tcgone = "tcgone"
    json = "json"


IdArg = Annotated[str, typer.Argument(metavar="ID", help="A saved deck's id (the end of its permalink, /d/ID).")]


def deck_save(
    file: Annotated[Path, typer.Argument(help="A deck list (text, YAML or Cockatrice .cod) of any game.")],
    name: Annotated[Optional[str], typer.Option("--name", "-n", help="The deck's name (default: the one the list gives).")] = None,
    fmt: DeckFormatOpt = None,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Save a deck list under a short id (its permalink), as the web's builder does.

    The list is checked first; what is saved is the list as matched (cardlab's text list: the format,
    section headers, each card with its set code and number). A list with lines that match no card
    is refused (exit 1): nothing would be saved for them. Exit 2 when the file cannot be read or is
    over 500 lines or 2,000 cards.

    Example: cardlab deck save examples/decks/zap-theme-deck.txt --name Zap
    """
    from cardlab.collection import db, saved
    from cardlab.collection.listing import unmatched_lines
    from cardlab.core.text import visible
    from cardlab.decks.check import check_deck_file, export_text

    roots, _ = roots_and_db(catalog, None)
    with user_errors():
        langs = langs_of(lang)
        report = check_deck_file(file, roots, fmt, langs)
        deck = report.best.deck
        saved.check_size(len(deck.entries), deck.size(None))
        missing = unmatched_lines(deck)
        for p in missing:
            typer.echo(visible(f"error: {p}"), err=True)
        if missing:
            typer.echo(f"not saved: {len(missing)} line(s) match no card", err=True)
            finish(False)
        record = saved.save(db.connect(), export_text(deck, langs), name if name is not None else deck.name)
    typer.echo(f"saved {record.id} ({record.cards} cards, {record.format}): /d/{record.id}")


def deck_open(
    deck_id: IdArg,
    output_fmt: Annotated[
        OpenOutput,
        typer.Option(
            "--output-format",
            "-O",
            case_sensitive=False,
            help="cardlab (the list as saved), or a tool's list: ptcgl, limitless, tcgone, or json.",
        ),
    ] = OpenOutput.cardlab,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Print a saved deck's list (or write it with -o), as saved or in a tool's dialect.

    Exit 1 when no deck has that id.

    Example: cardlab deck open Ab3dE_9x -O ptcgl
    """
    from cardlab.cli.collection import open_for_reading
    from cardlab.collection import saved
    from cardlab.core.fs import atomic_write

    with user_errors():
        record = saved.get(open_for_reading(), deck_id)
        text = record.text
        if output_fmt is not OpenOutput.cardlab:
            from cardlab.decks.check import check_deck_text
            from cardlab.decks.dialects import write_deck

            roots, _ = roots_and_db(catalog, None)
            langs = langs_of(lang)
            report = check_deck_text(record.text, "deck.txt", roots, None, langs)
            text = write_deck(report.best.deck, output_fmt.value, langs, report.catalog.sets)
        if output is not None:
            atomic_write(output, text)
    if output is None:
        typer.echo(text, nl=False)


def deck_saved(output_fmt: ReportOutputOpt = ReportOutput.text) -> None:
    """List the saved decks, the most recently changed first: id, cards, format, name.

    Example: cardlab deck saved -O json
    """
    import json

    from cardlab.cli.collection import open_for_reading
    from cardlab.collection import saved
    from cardlab.core.text import visible

    with user_errors():
        decks = saved.saved(open_for_reading())
    if output_fmt is ReportOutput.json:
        typer.echo(json.dumps([{k: v for k, v in d.to_json().items() if k != "text"} for d in decks], ensure_ascii=False, indent=2))
        return
    for d in decks:
        typer.echo(visible(f"{d.id}  {d.cards:>4} cards  {d.format or '-'}  v{d.version}  {d.updated}  {d.name}"))


def register(app: typer.Typer) -> None:
    """Add ``save``, ``open`` and ``saved`` to the deck group (mounted by :mod:`cardlab.cli.deck`)."""
    from cardlab.cli.deck import deck_app

    for name, command in (("save", deck_save), ("open", deck_open), ("saved", deck_saved)):
        if not any(c.callback is command for c in deck_app.registered_commands):  # once, however many apps are built
            deck_app.command(name)(command)
