"""``cardlab deck validate|stats`` and ``cardlab formats``: thin commands over cardlab.decks.check,
cardlab.decks.rules, cardlab.decks.stats and cardlab.catalog.formats.

Options: ``--format NAME`` is the *deck format* (``pokemon-base``..., any case), as the deck
commands are about formats; machine output is ``--output json`` (``-o json``); ``--lang`` picks the
language of card names. Exit codes of ``deck validate``, ``deck stats`` and ``deck list``: 0 legal,
1 illegal, 2 the file cannot be read (or holds no card) or no format. Invalid catalog files (a draft
from ``card new``) are warnings: the deck is checked against the valid cards. With ``-o json``
an error that stops a command prints ``{"ok": false, "error": ..., "exit_code": ...}`` on stdout
too, with the same exit code.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.cli.common import CatalogOpt, LangOpt, langs_of, roots_and_db, user_errors
from cardlab.core.errors import CardlabError, DataError

deck_app = typer.Typer(help="Check deck lists against a format and show their statistics.",
                       no_args_is_help=True, rich_markup_mode=None)

FileArg = Annotated[Path, typer.Argument(help="A deck list: plain text (4 Pikachu) or YAML (schema/deck.schema.json).")]
FormatOpt = Annotated[Optional[str], typer.Option(
    "--format", "-f", help="The deck format, e.g. pokemon-base (see 'cardlab formats'); default: the one the file names.")]
OutputOpt = Annotated[str, typer.Option("--output", "-o", help="text or json.")]
OUTPUTS = ("text", "json")


def _check_output(output: str) -> None:
    if output not in OUTPUTS:
        raise typer.BadParameter(f"choose one of {', '.join(OUTPUTS)}", param_hint="--output")


def _json(data: object) -> None:
    import json

    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


@contextmanager
def _errors(output: str) -> Iterator[None]:
    """Like :func:`user_errors`; with ``-o json`` the error is also printed as JSON on stdout."""
    with user_errors():
        try:
            yield
        except CardlabError as err:
            if output == "json":
                data: dict[str, object] = {"ok": False, "error": str(err), "exit_code": err.exit_code}
                if isinstance(err, DataError):
                    data["problems"] = [p.to_json() for p in err.problems]
                _json(data)
            raise


@deck_app.command("validate")
def deck_validate(file: FileArg, fmt: FormatOpt = None, output: OutputOpt = "text", lang: LangOpt = None,
                  catalog: CatalogOpt = None) -> None:
    """Check a deck list against a format's rules, reporting every problem with its line.

    Exit 0 when the deck is legal, 1 when it is not, 2 when the file cannot be read or holds no card.
    Example: cardlab deck validate examples/decks/zap-theme-deck.txt --format pokemon-base
    """
    from cardlab.decks import check as decks

    _check_output(output)
    roots, _ = roots_and_db(catalog, None)
    with _errors(output):
        report = decks.check_file(file, roots, fmt, langs_of(lang))
    _warn_catalog(report.deck)
    if output == "json":
        _json(report.to_json())
    else:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        render_deck.print_report(report, render.stdout_console(), render.stderr_console())
    raise typer.Exit(0 if report.legal else 1)


def _warn_catalog(deck) -> None:  # noqa: ANN001 - a cardlab.decks.model.Deck
    """Warn on stderr about invalid catalog files the deck was checked without."""
    if deck.catalog_problems:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        render_deck.print_catalog_warnings(deck.catalog_problems, render.stderr_console())


@deck_app.command("stats")
def deck_stats(
    file: FileArg,
    fmt: FormatOpt = None,
    need: Annotated[Optional[list[str]], typer.Option(
        "--need", help="A kind that must be in the opening hand (repeatable, any case): Monpa servant/spell/charm, "
                       "Ippo blow/defense/support/fight, Pokémon Pokémon/Trainer/Energy.")] = None,
    output: OutputOpt = "text",
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Show a deck's counts by type and Energy type, its cost curve and exact opening odds.

    Exit 0 when the deck is legal, 1 when it is not (the statistics are shown either way), 2 when
    the file cannot be read or holds no card.
    Example: cardlab deck stats examples/decks/zap-theme-deck.txt --format pokemon-base
    """
    from cardlab.decks import check as decks
    from cardlab.decks.rules import check_deck
    from cardlab.decks.stats import deck_stats as compute

    _check_output(output)
    roots, _ = roots_and_db(catalog, None)
    with _errors(output):
        deck = decks.open_deck(file, roots, fmt, langs_of(lang))
        stats = compute(deck, need or ())
        problems = check_deck(deck)
    _warn_catalog(deck)
    if output == "json":
        _json(stats.to_json())
    else:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        render_deck.print_stats(stats, render.stdout_console())
        if problems:
            render.stderr_console().print(f"[yellow]note[/]: the deck is not legal ({len(problems)} problem(s)); run 'cardlab deck validate'")
    raise typer.Exit(1 if problems else 0)


@deck_app.command("list")
def deck_list_cmd(file: FileArg, fmt: FormatOpt = None, lang: LangOpt = None, output: OutputOpt = "text",
                  catalog: CatalogOpt = None) -> None:
    """Print a deck list as matched to the catalog, with card names in your language.

    Lines that match no card are reported on stderr. Exit 0 when the deck is legal, 1 when it is
    not (the list is printed either way), 2 when the file cannot be read or holds no card.

    Example: cardlab deck list examples/decks/zap-theme-deck.txt --format pokemon-base --lang fr
    """
    from cardlab.decks import check as decks
    from cardlab.decks.rules import check_deck
    from cardlab.catalog.validate import validate

    _check_output(output)
    roots, _ = roots_and_db(catalog, None)
    with _errors(output):
        langs = langs_of(lang)
        deck = decks.open_deck(file, roots, fmt, langs)
        cat = validate(roots).catalog
        problems = check_deck(deck)
    listing = decks.deck_list(deck, langs, lambda cid: cat.set_of(cid).source_language)
    _warn_catalog(deck)
    if deck.problems:
        from cardlab.render import cards as render
        from cardlab.render import decks as render_deck

        render_deck.print_problems(deck.problems, render.stderr_console())
    if output == "json":
        _json([{"section": s, "cards": [{"count": n, "name": name, "id": cid} for n, name, cid in rows]} for s, rows in listing])
    else:
        for section, rows in listing:
            typer.echo(f"{section}: {sum(n for n, _, _ in rows)}")
            for n, name, cid in rows:
                typer.echo(f"{n} {name} ({cid})")
    raise typer.Exit(1 if problems else 0)


def formats_cmd(
    game: Annotated[Optional[str], typer.Option("--game", help="Only this game's formats (pokemon, ippo, monpa).")] = None,
    output: OutputOpt = "text",
    catalog: CatalogOpt = None,
) -> None:
    """List the deck formats and their rules.  Example: cardlab formats --game pokemon"""
    from cardlab.catalog.validate import load_formats
    from cardlab.decks.rules import describe

    _check_output(output)
    roots, _ = roots_and_db(catalog, None)
    with user_errors():
        found = [f for f in load_formats(roots).values() if game is None or f.game == game]
    if output == "json":
        _json([{"name": f.name, "game": f.game, "title": f.title, "description": f.description, "source": f.source,
                "path": str(f.path), "sections": [s.id for s in f.sections],
                "rules": [{"rule": r.rule, **r.params, "text": describe(r), "source": r.source} for r in f.rules]}
               for f in found])
        return
    from cardlab.render import cards as render
    from cardlab.render import decks as render_deck

    render_deck.print_formats(found, render.stdout_console())


def register(app: typer.Typer) -> None:
    """Mount ``deck`` (validate, stats) and the top-level ``formats`` command on ``app``."""
    app.add_typer(deck_app, name="deck")
    app.command("formats")(formats_cmd)
