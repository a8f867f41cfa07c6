"""The ``cardlab`` command line: thin typer commands over the library.

Only stdlib, typer and cardlab's light modules are imported at start-up; sqlmodel, jsonschema,
ruamel.yaml and rich load inside the commands that need them (``../shared/STYLE.md`` section 8).
Flags mean one thing everywhere (:mod:`cardlab.cli.options`); errors become text and an
:class:`~cardlab.core.errors.ExitStatus` in one place (:mod:`cardlab.cli.errors`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer

from cardlab.cli.errors import finish, long_work, user_errors
from cardlab.cli.options import (
    CatalogOpt,
    DbOpt,
    LangOpt,
    OldFormatOpt,
    QuietOpt,
    ReportOutput,
    ReportOutputOpt,
    SearchOutput,
    SearchOutputOpt,
    Unique,
    UniqueOpt,
    langs_of,
    output_format,
    roots_and_db,
)
from cardlab.cli.root import RootGroup
from cardlab.core.inputs import text_argument
from cardlab.core.l10n import _

if TYPE_CHECKING:
    import sqlite3

    from typer.models import CommandInfo

_T = TypeVar("_T")


_typer_metavar = typer.core.TyperArgument.make_metavar


def _usage_metavar(self: typer.core.TyperArgument, ctx: Any, *, usage: bool = False) -> str:
    """An argument in the usage line as click writes it, ``FILE`` (``[FILE]`` when optional,
    ``FILES...`` for several), not typer 0.28's ``{file}``, whose braces read as a placeholder left
    unfilled; the argument list of ``--help`` keeps typer's own form."""
    if not usage:
        return _typer_metavar(self, ctx, usage=usage)
    if self.metavar is not None:  # written as it is to be shown ("QUERY...")
        return self.metavar if self.required or self.metavar.startswith("[") else f"[{self.metavar}]"
    var = (self.name or "").upper() + ("..." if self.nargs != 1 else "")
    return var if self.required else f"[{var}]"


typer.core.TyperArgument.make_metavar = _usage_metavar  # type: ignore[method-assign]


_APP_SETTINGS: dict[str, Any] = dict(
    name="cardlab",
    help="cardlab: a card database and deck builder for older and niche trading card games.\n\n"
    "Search cards, check deck lists (cardlab deck), print proxies, add cards and translations.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    cls=RootGroup,  # the run's language, help said in it (cli.root, cli.helptext)
)
_own = typer.Typer(**_APP_SETTINGS)
"""The commands defined here (search, show, validate, index); the groups of the other ``cli``
modules join them in :func:`whole_app` or, one module at a time, in :func:`_slim_app`."""


def _version(value: bool) -> None:
    if value:
        from cardlab import __version__

        typer.echo(f"cardlab {__version__}")
        finish(True)


@_own.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print cardlab's version and exit.")] = False,
    lang: LangOpt = None,
) -> None:
    """cardlab: a card database and deck builder for older and niche trading card games."""
    # the language of the run (--lang, CARDLAB_LANG, the locale) is set before parsing: RootGroup,
    # which also takes this --lang out (given to a command with its own); click sees it only without a value


def _fields_epilog() -> str:
    from cardlab.search.fields import ALIASES, fields_help

    short = ", ".join(f"{k}: {v}" for k, v in ALIASES.items() if k != v)
    return (
        '\b\nQuery language: bare words and "quoted phrases" search names (any language) and rules text;\n'
        "field:value, field=value, field!=value (has the field, not that value); numbers with < <= > >= =;\n"
        '!"exact name" or !name finds that whole name; not:reprint is -is:reprint; the display keywords\n'
        "order:, direction:, unique:, lang: are options here (--sort, --reverse, --unique, --lang). Exact names\n"
        "come first only in the default order: an explicit --sort (or --reverse) orders by that key alone;\n"
        "-term or 'not term' negates; 'or' and ( ) combine; terms side by side (or joined by 'and') must\n"
        "all match; several arguments are one query. Fields with a closed vocabulary (type, stage, rarity,\n"
        "set, game...) take only values the catalog holds (r:c, r:u, r:r are rarity letters). A query that starts\n"
        "with '-' needs '--' before it: cardlab search -- '-type:fire hp>=80'.\n\b\nFields:\n"
        + fields_help(indent="  ")
        + f"\n\b\nShort forms: {short}"
    )


@_own.command()
def search(
    query: Annotated[
        Optional[list[str]],
        typer.Argument(
            metavar="QUERY...",
            help="The query, e.g. 'type:fire hp>=80' or dracaufeu; several arguments are one query (cardlab search fire spin).",
        ),
    ] = None,
    output_fmt: SearchOutputOpt = SearchOutput.table,
    sort: Annotated[str, typer.Option(help="number, name, set, rarity, artist or hp.")] = "number",
    reverse: Annotated[bool, typer.Option("--reverse", help="Reverse the sort.")] = False,
    limit: Annotated[Optional[int], typer.Option(min=1, max=1_000_000, help="Show at most this many cards.")] = None,
    unique: UniqueOpt = Unique.prints,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
    old_fmt: OldFormatOpt = None,
) -> None:
    """Search cards.  Example: cardlab search 'type:fire hp>=80' --unique cards --output-format json"""
    import sys

    fmt = output_format(output_fmt, old_fmt, "search", "--format")
    roots, db_path = roots_and_db(catalog, db)
    with user_errors(json_output=fmt is SearchOutput.json):
        text = " ".join(query or [])
        text_argument(text, "the query")
        langs = langs_of(lang)
        rows, total = _query(roots, db_path, lambda con: _search_rows(con, text, langs, sort, reverse, limit, unique.value))
    if fmt is SearchOutput.table and sys.stdout.isatty():
        from cardlab.render import cards as render

        render.hits(rows, render.stdout_console(), total)
    else:  # piped: plain text, no colour, no wrapping (and no rich to import)
        from cardlab.render import plain

        sys.stdout.write(plain.hits(rows, fmt.value, total))


def _search_rows(
    con: sqlite3.Connection, text: str, langs: list[str], sort: str, reverse: bool, limit: int | None, unique: str
) -> tuple[list, tuple[int, bool] | None]:
    """``search``'s hits, and when ``--limit`` cut them, how many match in all (``(total, exact)``:
    bounded, :func:`cardlab.search.engine.total`; None for ``--unique cards``, which counts cards
    rather than printings)."""
    from cardlab.search import engine as searching

    more = None if limit is None else limit + 1
    rows = searching.search(con, text, langs=langs, sort=sort, reverse=reverse, limit=more, unique=unique)
    if limit is None or len(rows) <= limit:
        return rows, None
    return rows[:limit], searching.total(con, text) if unique == "prints" else None


@_own.command()
def show(
    card: Annotated[str, typer.Argument(metavar="CARD", help="A card id (base1-4), set and number ('BS 4') or a name in any language.")],
    output_fmt: ReportOutputOpt = ReportOutput.text,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
    old_fmt: OldFormatOpt = None,
) -> None:
    """Show one card in full (exit 1 when no card matches).  Example: cardlab show base1-4"""
    import json

    from cardlab.decks.resolve import printing_named
    from cardlab.index.stored import StoredCatalog
    from cardlab.render import cards as render
    from cardlab.search.lookup import get_card

    fmt = output_format(output_fmt, old_fmt, "show", "--format")
    roots, db_path = roots_and_db(catalog, db)
    with user_errors(json_output=fmt is ReportOutput.json):
        langs = langs_of(lang)
        text_argument(card, "the card")
        view = _query(roots, db_path, lambda con: get_card(con, card, lambda ref: printing_named(StoredCatalog(con, roots), ref)))
    if fmt is ReportOutput.json:
        render.stdout_console().out(json.dumps(view.data, ensure_ascii=False, indent=2), highlight=False)
    else:
        render.card(view, render.stdout_console(), langs)


@_own.command()
def validate(
    paths: Annotated[
        Optional[list[Path]], typer.Argument(metavar="[PATH]...", help="Files or folders to check (default: the catalog).")
    ] = None,
    output_fmt: ReportOutputOpt = ReportOutput.text,
    catalog: CatalogOpt = None,
    old_fmt: OldFormatOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Check card, set and format files (schemas and rules across files).

    Prints each problem as path:line:column: message (rule), then a summary; exits 1 when
    anything is wrong.  Example: cardlab validate cards/pokemon/base1
    """
    from cardlab.core.words import count
    from cardlab.index.access import validate_and_record
    from cardlab.render.plain import clean_summary, plain_stdout

    fmt = output_format(output_fmt, old_fmt, "validate", "--format")
    roots, db_path = roots_and_db(catalog, None)
    with user_errors(), long_work(quiet, "nothing was changed (files already checked stay in the cache)"):
        result = validate_and_record(paths or [], roots, db_path)
    if fmt is ReportOutput.text and not result.problems and plain_stdout():
        typer.echo(clean_summary(result.files))  # what rich would print, without loading it
        finish(True)
    from cardlab.render import cards as render

    if fmt is ReportOutput.json:
        render.problems_json(result.problems, render.stdout_console(), files=result.files)
    else:
        n = len(result.problems)
        summary = (
            clean_summary(result.files, ok="[green]ok[/]")
            if not n
            else f"[red]{count(n, 'problem')}[/] in {len({p.pos.path for p in result.problems})} file(s) ({count(result.files, 'file')} checked)"
        )
        render.problems(result.problems, render.stderr_console() if n else render.stdout_console(), summary)
    finish(not result.problems)


@_own.command("index")
def index_cmd(
    catalog: CatalogOpt = None,
    db: DbOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even when the index is fresh.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Build the search index (searches do it when cards change).  Example: cardlab index"""
    from cardlab.index import sqlite
    from cardlab.render import cards as render

    roots, db_path = roots_and_db(catalog, db)
    with user_errors(), long_work(quiet, f"the previous index is unchanged: {db_path if not isinstance(db_path, str) else 'the server'}"):
        if isinstance(db_path, str):  # a PostgreSQL server: built in a schema of its own, then swapped in
            from cardlab.index import postgres

            report = postgres.build(roots, db_path, force)
            shown = postgres.locate(db_path).shown
        else:
            from cardlab.core.errors import CatalogError

            try:
                report = sqlite.build_index(roots, db_path) if force else sqlite.ensure_index(roots, db_path, full=True)
            except CatalogError:
                meta = sqlite.stored_meta(db_path)
                if meta is None or not sqlite.built_from(meta, roots):  # no index of this catalog yet:
                    sqlite.build_index(roots, db_path, partial=True)  # its other cards become searchable
                raise
            shown = str(db_path)
    console = render.stdout_console()
    if report is None:
        console.print(f"index is up to date: {shown}")
    else:
        console.print(f"indexed {report.cards} cards in {report.sets} sets in {report.seconds:.2f} s", soft_wrap=True)
        console.print(f"index: {report.db}", soft_wrap=True)


def _query(roots: list[Path], db_path: Path | str, run: Callable[[sqlite3.Connection], _T]) -> _T:
    """Open the index (:func:`_open`) and run ``run`` on it; an index found damaged while reading
    is repaired once (:func:`cardlab.index.sqlite.repair`)."""
    import sqlite3

    from cardlab.index import sqlite

    try:
        return run(_open(roots, db_path))
    except sqlite3.DatabaseError as err:
        if isinstance(db_path, str):
            raise
        return run(sqlite.repair(roots, db_path, err))


def _open(roots: list[Path], db_path: Path | str) -> sqlite3.Connection:
    """Open a fresh index (:func:`cardlab.index.access.open_fresh`); when it cannot be rebuilt (a
    catalog with problems, a read-only or full disk), the previous index with a warning."""
    from cardlab.index import access

    con, report, failure = access.open_fresh(roots, db_path)
    if failure is None and report is None:
        return con  # the everyday case: nothing to say, so no rich to import
    from cardlab.core.errors import DataError
    from cardlab.render import cards as render
    from cardlab.render import messages

    if failure is not None:
        console = render.stderr_console()
        where = "searching the other cards" if report is not None else "searching the previous index"
        if isinstance(failure, DataError):
            render.problems(failure.problems, console)
            messages.warning(f"the catalog has {len(failure.problems)} problem(s); {where}", console)
        else:
            messages.warning(f"{failure}; {where}", console)
    if report is not None:
        messages.dim(_("indexed {cards} cards in {seconds} s").format(cards=report.cards, seconds=f"{report.seconds:.2f}"))
    return con


_MODULES = ("deck", "contrib", "i18n", "proxies", "serve", "collection", "saved", "play", "importing", "db")
"""The ``cardlab.cli`` modules whose ``register(app)`` mount the other commands, in help order."""

_GROUPS: dict[str, tuple[str, ...]] = {
    "formats": ("deck",),
    "deck": ("deck", "collection", "saved"),  # collection mounts ``deck have``, saved ``deck save|open|saved``
    "sets": ("contrib",),
    "card": ("contrib",),
    "i18n": ("i18n",),
    "proxies": ("proxies",),
    "serve": ("serve",),
    "collection": ("collection",),
    "play": ("play",),
    "odds": ("play",),
    "import": ("importing",),
    "db": ("db",),
}
"""Top-level command or group name -> the ``cardlab.cli`` modules that mount it or add commands to
it; tests keep it equal to what the modules register (every subcommand of the whole app is in the
app built for its name). A command imports only these modules (each imports its library code when
it runs)."""


def _command_name(info: CommandInfo) -> str:
    return info.name or getattr(info.callback, "__name__", "").replace("_", "-")


def _new_app(modules: list[str], name: str | None = None) -> typer.Typer:
    """An app of the commands defined here and the groups of ``modules``; with ``name``, only the
    command or group of that name. The search command's help epilog (the fields of the query
    language, from :mod:`cardlab.search.fields`) is written when an app holds it."""
    import importlib

    built = typer.Typer(**_APP_SETTINGS)
    built.registered_callback = _own.registered_callback
    built.registered_commands = list(_own.registered_commands)
    for module in modules:
        importlib.import_module(f"cardlab.cli.{module}").register(built)
    if name is not None:
        built.registered_commands = [c for c in built.registered_commands if _command_name(c) == name]
        built.registered_groups = [g for g in built.registered_groups if g.name == name]
    for info in built.registered_commands:
        if info.callback is search and info.epilog is None:
            info.epilog = _fields_epilog()
    return built


_WHOLE: list[typer.Typer] = []


def whole_app() -> typer.Typer:
    """The whole command line, every group mounted, built once (:mod:`cardlab.cli.whole` holds it
    as ``app`` for typer's ``CliRunner``; ``cardlab --help`` shows it)."""
    if not _WHOLE:
        _WHOLE.append(_new_app(list(_MODULES)))
    return _WHOLE[0]


def _slim_app(argv: list[str]) -> typer.Typer:
    """The app with only the command or group named in ``argv``: typer builds every registered
    command before running one (about 70 ms for all of cardlab's), and a group's module is imported
    only for that group (:data:`_GROUPS`), so a search builds and imports one command.
    Returns the full app when no command is named (``--help``) or the name is unknown."""
    name = next((a for a in argv if not a.startswith("-")), None)
    if name is not None and any(_command_name(c) == name for c in _own.registered_commands):
        return _new_app([], name)
    if name in _GROUPS:
        return _new_app(list(_GROUPS[name]), name)
    return whole_app()


def run(argv: list[str]) -> None:
    """Run the command ``argv`` names (typer; exits through ``SystemExit``). The edge around it
    (undecodable arguments, closed output, Ctrl-C) is :func:`cardlab.cli.entry.main`'s."""
    _slim_app(argv)(args=argv, prog_name="cardlab")
