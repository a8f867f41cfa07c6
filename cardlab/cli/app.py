"""The ``cardlab`` command line: thin typer commands over the library.

Only stdlib, typer and cardlab's light modules are imported at start-up; sqlmodel, jsonschema,
ruamel.yaml and rich load inside the commands that need them (``../shared/STYLE.md`` section 8).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.cli.common import CatalogOpt, DbOpt, LangOpt, langs_of, roots_and_db, user_errors
from cardlab.core.inputs import text_argument

_APP_SETTINGS = dict(
    name="cardlab",
    help="cardlab: a card database and deck builder for older and niche trading card games.\n\n"
         "Search cards, check deck lists (cardlab deck), print proxies, add cards and translations.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
app = typer.Typer(**_APP_SETTINGS)

FORMATS_SEARCH = ("table", "json", "csv", "ids")


def _version(value: bool) -> None:
    if value:
        from cardlab import __version__

        typer.echo(f"cardlab {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print cardlab's version and exit.")] = False) -> None:
    """cardlab: a card database and deck builder for older and niche trading card games."""


def _choice(value: str, choices: tuple[str, ...], option: str = "--format") -> None:
    if value not in choices:
        raise typer.BadParameter(f"choose one of {', '.join(choices)}", param_hint=option)


def _fields_epilog() -> str:
    from cardlab.search.query import ALIASES, fields_help

    short = ", ".join(f"{k}: {v}" for k, v in ALIASES.items() if k != v)
    return ("\b\nQuery language: bare words and \"quoted phrases\" search names (any language) and rules text;\n"
            "field:value, field=value, field!=value; numbers with < <= > >= =; -term negates; 'or' and\n"
            "( ) combine; terms side by side (or joined by 'and') must all match. A query that starts\n"
            "with '-' needs '--' before it: cardlab search -- '-type:fire hp>=80'.\n\b\nFields:\n"
            + fields_help(indent="  ") + f"\n\b\nShort forms: {short}")


@app.command(epilog=_fields_epilog())
def search(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="The query, e.g. 'type:fire hp>=80' or dracaufeu.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, json, csv or ids.")] = "table",
    sort: Annotated[str, typer.Option(help="number, name, set, rarity, artist or hp.")] = "number",
    reverse: Annotated[bool, typer.Option("--reverse", help="Reverse the sort.")] = False,
    limit: Annotated[Optional[int], typer.Option(min=1, help="Show at most this many cards.")] = None,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
) -> None:
    """Search cards.  Example: cardlab search 'type:fire hp>=80'"""
    import sys

    from cardlab.search import engine as searching

    _choice(fmt, FORMATS_SEARCH)
    roots, db_path = roots_and_db(catalog, db)
    with user_errors():
        text_argument(query, "the query")
        langs = langs_of(lang)
        rows = _query(roots, db_path, lambda con: searching.search(con, query, langs=langs, sort=sort, reverse=reverse, limit=limit))
    if fmt == "table" and sys.stdout.isatty():
        from cardlab.render import cards as render

        render.hits(rows, render.stdout_console())
    else:  # piped: plain text, no colour, no wrapping (and no rich to import)
        sys.stdout.write(searching.plain(rows, fmt))


@app.command()
def show(
    card: Annotated[str, typer.Argument(metavar="CARD", help="A card id (base1-4), set and number ('BS 4') or a name in any language.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
) -> None:
    """Show one card in full.  Example: cardlab show base1-4"""
    import json

    from cardlab.render import cards as render
    from cardlab.search import engine as searching

    _choice(fmt, ("text", "json"))
    roots, db_path = roots_and_db(catalog, db)
    with user_errors():
        langs = langs_of(lang)
        text_argument(card, "the card")
        view = _query(roots, db_path, lambda con: searching.get_card(con, card))
    if fmt == "json":
        render.stdout_console().out(json.dumps(view.data, ensure_ascii=False, indent=2), highlight=False)
    else:
        render.card(view, render.stdout_console(), langs)


@app.command()
def validate(
    paths: Annotated[Optional[list[Path]], typer.Argument(metavar="[PATH]...", help="Files or folders to check (default: the catalog).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    catalog: CatalogOpt = None,
) -> None:
    """Check card, set and format files (schemas and rules across files).

    Prints each problem as path:line:column: message (rule), then a summary; exits 1 when
    anything is wrong.  Example: cardlab validate cards/pokemon/base1
    """
    from cardlab.render import cards as render
    from cardlab.catalog.validate import validate_paths

    _choice(fmt, ("text", "json"))
    roots, _ = roots_and_db(catalog, None)
    with user_errors():
        result = validate_paths(paths or [], roots)
    if fmt == "json":
        render.problems_json(result.problems, render.stdout_console(), files=result.files)
    else:
        n = len(result.problems)
        summary = (f"[green]ok[/]: {result.files} files, no problems" if not n
                   else f"[red]{n} problem{'s' if n != 1 else ''}[/] in {len({p.pos.path for p in result.problems})} file(s) ({result.files} files checked)")
        render.problems(result.problems, render.stderr_console() if n else render.stdout_console(), summary)
    raise typer.Exit(1 if result.problems else 0)


@app.command("index")
def index_cmd(
    catalog: CatalogOpt = None,
    db: DbOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even when the index is fresh.")] = False,
) -> None:
    """Build the search index (searches do it when cards change).  Example: cardlab index"""
    from cardlab.search import index as index
    from cardlab.render import cards as render

    roots, db_path = roots_and_db(catalog, db)
    with user_errors():
        report = index.build_index(roots, db_path) if force else index.ensure_index(roots, db_path)
    console = render.stdout_console()
    if report is None:
        console.print(f"index is up to date: {db_path}")
    else:
        console.print(f"indexed {report.cards} cards in {report.sets} sets in {report.seconds:.2f} s", soft_wrap=True)
        console.print(f"index: {report.db}", soft_wrap=True)


def _query(roots: list[Path], db_path: Path, run):  # noqa: ANN001, ANN202 - run(connection) -> its result
    """Open the index (:func:`_open`) and run ``run`` on it; an index found damaged while reading
    is repaired once (:func:`cardlab.search.index.repair`)."""
    import sqlite3

    from cardlab.search import index as index

    try:
        return run(_open(roots, db_path))
    except sqlite3.DatabaseError as err:
        return run(index.repair(roots, db_path, err))


def _open(roots: list[Path], db_path: Path):  # noqa: ANN202 - sqlite3.Connection
    from cardlab.core.errors import DataError
    from cardlab.render import cards as render
    from cardlab.search import index as index

    con, report, failure = index.open_fresh(roots, db_path)
    if failure is not None:
        console = render.stderr_console()
        if isinstance(failure, DataError):
            render.problems(failure.problems, console)
            console.print(f"[yellow]warning[/]: the catalog has {len(failure.problems)} problem(s); searching the previous index")
        else:
            from rich.markup import escape

            console.print(f"[yellow]warning[/]: {escape(str(failure))}; searching the previous index")
    if report is not None:
        render.stderr_console().print(f"[dim]indexed {report.cards} cards in {report.seconds:.2f} s[/]")
    return con


def _register_groups() -> None:
    from cardlab.cli import contrib as cli_contrib
    from cardlab.cli import deck as cli_deck
    from cardlab.cli import i18n as cli_i18n
    from cardlab.cli import proxies as cli_proxies

    for module in (cli_deck, cli_contrib, cli_i18n, cli_proxies):
        module.register(app)


_register_groups()


def _command_name(info) -> str:  # noqa: ANN001 - typer's CommandInfo
    return info.name or info.callback.__name__.replace("_", "-")


def _slim_app(argv: list[str]) -> typer.Typer:
    """The app with only the command or group named in ``argv``: typer builds every registered
    command before running one (about 70 ms for all of cardlab's), so a search builds one.
    Returns the full app when no command is named (``--help``) or the name is unknown."""
    name = next((a for a in argv if not a.startswith("-")), None)
    commands = [c for c in app.registered_commands if _command_name(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if name is None or not (commands or groups):
        return app
    slim = typer.Typer(**_APP_SETTINGS)
    slim.registered_callback = app.registered_callback
    slim.registered_commands = commands
    slim.registered_groups = groups
    return slim


def main() -> None:
    """Run the ``cardlab`` command."""
    import sys

    _slim_app(sys.argv[1:])(prog_name="cardlab")
