"""``cardlab proxies``: print a deck list (or searched cards) as cut-ready proxy cards in a PDF.

Imports only typer, stdlib and :mod:`cardlab.cli.options`/:mod:`cardlab.cli.errors` at start-up;
ReportLab and the catalog load inside the command. ``-o``/``--output`` is the PDF file and
``-f``/``--format`` the deck format, as everywhere in the CLI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.cli.errors import user_errors
from cardlab.cli.options import CatalogOpt, DbOpt, LangOpt, langs_of, roots_and_db


def proxies(
    deck: Annotated[Optional[Path], typer.Argument(help="A deck list (text or YAML).", show_default=False)] = None,
    output: Annotated[
        str, typer.Option("--output", "-o", metavar="<path>", help="The PDF file to write (a file path; '-' is refused).")
    ] = "proxies.pdf",
    query: Annotated[
        Optional[list[str]], typer.Option("--query", "-q", help="Also print every card matching this search (repeatable), one copy each.")
    ] = None,
    card: Annotated[
        Optional[list[str]], typer.Option("--card", "-c", help="Also print this card: id, 'SET NUMBER' or name (repeatable).")
    ] = None,
    paper: Annotated[
        Optional[str], typer.Option(help="a4 or letter [default: from the locale (LC_PAPER, LANG), else a4]", show_default=False)
    ] = None,
    lang: LangOpt = None,
    cut_marks: Annotated[bool, typer.Option("--cut-marks/--no-cut-marks", help="Draw crop marks in the margins.")] = True,
    bleed: Annotated[float, typer.Option(min=0, max=3, help="Bleed in mm (0-3): the face colour runs past the cut line.")] = 0.0,
    card_size: Annotated[
        Optional[str], typer.Option("--card-size", help="Card size WxH in mm, e.g. 63x88 [default: the set's size]", show_default=False)
    ] = None,
    skip_basic_energy: Annotated[
        bool, typer.Option("--skip-basic-energy", help="Leave out basic Energy cards (from the card data).")
    ] = False,
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format",
            "-f",
            metavar="<name>",
            help="Deck format to check the list against, any case [default: the file's, else the best fit].",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Print what can be printed from a deck with problems.")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace OUTPUT if it exists.")] = False,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
) -> None:
    """Print proxies of a deck as a PDF, nine 63 x 88 mm cards a page (smaller cards: as many as fit).  Example: cardlab proxies zap.txt -o zap.pdf"""
    from cardlab.core.fs import check_output
    from cardlab.core.inputs import text_argument
    from cardlab.proxies import pdf as px
    from cardlab.render import proxies as render

    roots, db_path = roots_and_db(catalog, db)
    with user_errors():
        if paper:
            px.paper_size(paper)
        langs = tuple(langs_of(lang))
        options = px.ProxyOptions(
            paper=paper,
            langs=langs,
            cut_marks=cut_marks,
            bleed_mm=bleed,
            skip_basic_energy=skip_basic_energy,
            card_mm=px.parse_card_size(card_size) if card_size else None,
        )
        if deck is None and not query and not card:
            from cardlab.core.errors import UsageError

            raise UsageError("give a DECK file, --query or --card")
        inputs = [*roots, *([deck] if deck is not None else [])]
        check_output(output, overwrite, protected=inputs)
        for text in [*(query or []), *(card or [])]:
            text_argument(text, "--query/--card")
        try:
            selection = px.select(roots, db_path, deck, query or [], card or [], fmt, force, langs)
        except px.DeckProblemsError as refused:
            render.refused(refused)
            raise typer.Exit(refused.exit_code) from None
        render.selection(selection)
        assert selection.catalog is not None  # select() always sets it
        report = px.make_proxies(selection.catalog, selection.card_ids, output, options, overwrite, selection.title, protected=inputs)
    render.written(report)


def register(app: typer.Typer) -> None:
    """Add the top-level ``proxies`` command to the ``cardlab`` app."""
    app.command("proxies")(proxies)
