"""``cardlab collection add|remove|set|list|export|import`` and ``cardlab deck have``: thin commands
over :mod:`cardlab.collection` (issue 13 §2). ``--player`` defaults to the local user
(``CARDLAB_PLAYER``, else the login name). Output format: ``--output-format/-O``; ``-o`` a file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardlab.cli.errors import finish, long_work, user_errors
from cardlab.cli.options import (
    CatalogOpt,
    DbOpt,
    DeckFormatOpt,
    LangOpt,
    ListOutput,
    ListOutputOpt,
    QuietOpt,
    ReportOutput,
    ReportOutputOpt,
    langs_of,
    roots_and_db,
)
from cardlab.core.l10n import _

if TYPE_CHECKING:
    from cardlab.collection.db import Database

collection_app = typer.Typer(
    help="Your cards: how many copies of each card each player owns (every game).", no_args_is_help=True, rich_markup_mode=None
)

PlayerOpt = Annotated[
    Optional[str], typer.Option("--player", "-p", help="Whose collection (default: you, CARDLAB_PLAYER or your login name).")
]
CardArg = Annotated[
    str,
    typer.Argument(
        metavar="CARD",
        help="A card id (base1-4), set and number ('BS 4') or a name in any language (one with several printings"
        " needs its set and number); a count may lead, as in a deck list: '2 Bill BS 91'.",
    ),
]


def _player(player: str | None) -> str:
    from cardlab.collection.owned import check_player, default_player

    return check_player(player if player is not None else default_player())


def open_for_reading() -> Database | None:
    """The collections database for a read command (:func:`cardlab.collection.owned.open_readonly`), or
    None when its SQLite file does not exist yet (nothing owned, no saved game: exit 0 as usual). When
    ``CARDLAB_DATA`` names that file or folder, one line on stderr says so: a mistyped path is seen."""
    import os

    from cardlab.collection.db import locate
    from cardlab.collection.owned import open_readonly
    from cardlab.core.text import visible  # lazy: only this command prints user paths

    con = open_readonly()
    if con is None and os.environ.get("CARDLAB_DATA", "").strip():
        path = locate().path  # a SQLite file (only a file can be missing), shown absolute: sqlite:///x is relative
        where = path.absolute() if path else ""
        typer.echo(visible(_("note") + ": " + _("no collections database at {path} yet: nothing owned").format(path=where)), err=True)
    return con


def _change(op: str, card: str, count: str | None, player: str | None, catalog: list[Path] | None) -> None:
    from cardlab.catalog.validate import load_catalog
    from cardlab.collection import db, owned
    from cardlab.collection.cards import CardResolver

    roots, _db = roots_and_db(catalog, None)
    with user_errors():
        who, card_id, n = owned.plan_change(CardResolver(load_catalog(roots)), _player(player), op, card, count)
        con = db.connect()
        new = owned.change(con, who, [(op, card_id, n)])[card_id]
    typer.echo(f"{who}: {new} × {card_id}")


CountOpt = Annotated[
    Optional[str],
    typer.Option("--count", "-n", help="How many copies (default 1; or write it in CARD: '2 Bill BS 91').", show_default=False),
]
"""``--count/-n`` of ``collection add`` and ``remove``."""


@collection_app.command("add")
def add(
    card: CardArg,
    count: CountOpt = None,
    player: PlayerOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Add copies of a card to a collection.  Example: cardlab collection add base1-4 -n 2"""
    _change("add", card, count, player, catalog)


@collection_app.command("remove")
def remove(
    card: CardArg,
    count: CountOpt = None,
    player: PlayerOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Remove copies of a card (never more than owned).  Example: cardlab collection remove base1-4"""
    _change("remove", card, count, player, catalog)


@collection_app.command("set")
def set_cmd(
    card: CardArg,
    count: Annotated[str, typer.Argument(metavar="COUNT", help="The new count (0 removes the card).")],
    player: PlayerOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Set how many copies of a card a player owns.  Example: cardlab collection set 'Lame errante' 3"""
    _change("set", card, count, player, catalog)


@collection_app.command("list")
def list_cmd(
    query: Annotated[
        Optional[str], typer.Argument(metavar="[QUERY]", help="Only cards matching a search query, e.g. 'faction:gotei-13'.")
    ] = None,
    player: PlayerOpt = None,
    output_format: ListOutputOpt = ListOutput.text,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
    db_opt: DbOpt = None,
) -> None:
    """List the cards a player owns, with counts.  Example: cardlab collection list 'faction:gotei-13' --lang fr"""
    import sys

    from cardlab.collection import listing
    from cardlab.collection.owned import counts

    roots, db_path = roots_and_db(catalog, db_opt)
    with user_errors():
        who = _player(player)
        langs = langs_of(lang)
        con = open_for_reading()
        have = counts(con, who) if con is not None else {}
        from cardlab.search.engine import open_index

        rows = listing.list_owned(open_index(roots, db_path), have, query, langs)
    sys.stdout.write(listing.plain(rows, output_format.value))


AppFromOpt = Annotated[
    Optional[str],
    typer.Option(
        "--from",
        metavar="APP",
        help="The app that wrote the file: moxfield, tcgplayer, dragonshield, dragonshield-web, collectr or generic"
        " (default: recognised by its header).",
    ),
]
AppToOpt = Annotated[
    Optional[str],
    typer.Option(
        "--to",
        metavar="APP",
        help="Write the export of an app: moxfield, tcgplayer, dragonshield, dragonshield-web, collectr or generic"
        " (default: cardlab's card_id,count).",
    ),
]


@collection_app.command("export")
def export(
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file (default: standard output).")] = None,
    player: PlayerOpt = None,
    all_players: Annotated[
        bool, typer.Option("--all-players", help="Every player's cards (player,card_id,count): a complete backup.")
    ] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing output file.")] = False,
    to: AppToOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Export a collection as CSV (card_id,count, or another app's export).

    Example: cardlab collection export --to moxfield -o moxfield.csv
    """
    import sys

    from cardlab.collection.owned import export_csv
    from cardlab.core.text import visible  # lazy: only this command prints user paths

    with user_errors():
        who = None if all_players else _player(player)
        if to is not None and who is None:
            from cardlab.core.errors import UsageError

            raise UsageError("--to writes one player's collection; give --player instead of --all-players")
        if output is not None:
            from cardlab.core.fs import check_output

            check_output(output, overwrite, example="collection.csv")
        con = open_for_reading()
        if to is not None and who is not None:
            from cardlab.catalog.validate import load_catalog
            from cardlab.collection.apps import export_app

            roots, _db = roots_and_db(catalog, None)
            text = export_app(con, who, load_catalog(roots), to)
        else:
            text = export_csv(con, who) if con is not None else ("player,card_id,count\n" if who is None else "card_id,count\n")
        if output is None:
            sys.stdout.write(text)
            return
        from cardlab.core.fs import atomic_write

        path = atomic_write(output, text, overwrite, example="collection.csv")
    typer.echo(visible(f"wrote {path}"), err=True)


@collection_app.command("import")
def import_cmd(
    file: Annotated[
        Path,
        typer.Argument(
            help="A CSV file: an export of Moxfield, TCGplayer, Dragon Shield or Collectr, or card_id,count"
            " (or set,number,count or name,count; optional player column); , ; or tab separated."
        ),
    ],
    player: PlayerOpt = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Each player in the file gets exactly the file's counts (restore a backup).")
    ] = False,
    app: AppFromOpt = None,
    skip_bad: Annotated[
        bool, typer.Option("--skip-bad", help="Import the rows understood and list the others (default: nothing unless every row is).")
    ] = False,
    catalog: CatalogOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Import counts from a CSV file or another app's export, all or nothing.

    Example: cardlab collection import moxfield.csv --from moxfield
    """
    from cardlab.catalog.validate import load_catalog
    from cardlab.collection import db
    from cardlab.collection.apps import APPS, import_export
    from cardlab.collection.cards import CardResolver
    from cardlab.core import words

    roots, _db = roots_and_db(catalog, None)
    with user_errors(), long_work(quiet, "the collection is unchanged"):
        who = _player(player)
        resolver = CardResolver(load_catalog(roots))
        report = import_export(db.connect(), file, resolver, who, app=app, replace=replace, skip_bad=skip_bad)
    for problem in report.problems if skip_bad else []:
        typer.echo(f"skipped: {problem}", err=True)
    if report.skipped:
        typer.echo(f"skipped {words.count(report.skipped, 'row')} not understood: {report.skipped_text()}", err=True)
    for category, n in sorted(report.other_games.items()):
        typer.echo(f"skipped {words.count(n, 'row')} of {category} (a game cardlab does not hold)", err=True)
    if report.not_kept:
        typer.echo(f"note: {', '.join(report.not_kept)} read but not kept: a collection holds counts per card", err=True)
    source = "" if report.app == "generic" else f" from {APPS[report.app].title}"
    typer.echo(
        f"imported {report.rows - report.skipped - sum(report.other_games.values())} rows{source}: {report.cards} cards,"
        f" {report.copies} copies for {', '.join(report.players) or who}"
    )


def deck_have(
    file: Annotated[Path, typer.Argument(help="A deck list (text or YAML) of any game.")],
    fmt: DeckFormatOpt = None,
    player: PlayerOpt = None,
    output_format: ReportOutputOpt = ReportOutput.text,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Which cards of a deck list a player owns and which are missing.  Exit 1 when some are missing.

    Example: cardlab deck have examples/decks/zap-theme-deck.txt --player alice
    """
    import json

    from cardlab.collection import listing
    from cardlab.collection.owned import counts
    from cardlab.core.text import visible

    roots, _db = roots_and_db(catalog, None)
    with user_errors():
        who = _player(player)
        from cardlab.decks.check import check_deck_file

        report = check_deck_file(file, roots, fmt, langs_of(lang))
        deck = report.best.deck
        if deck.catalog_problems:  # invalid catalog files (a draft): left out, as for every deck command
            from cardlab.render import cards as render
            from cardlab.render import decks as render_deck

            render_deck.print_catalog_warnings(deck.catalog_problems, render.stderr_console())
        con = open_for_reading()
        rows = listing.have(deck, counts(con, who) if con is not None else {}, report.catalog)
    data = listing.have_json(rows, who, listing.unmatched_lines(deck))
    if output_format is ReportOutput.json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for r in rows:
            mark = _("ok") if not r.missing else _("missing {n}").format(n=r.missing)
            held = f" [{', '.join(f'{n} {i}' for i, n in r.printings)}]" if r.printings else ""
            line = _("{need} {name} ({id}): own {own}{held}, {mark}")
            typer.echo(visible(line.format(need=r.need, name=r.name, id=r.card_id, own=r.own, held=held, mark=mark)))
        summary = _("{who}: {have} of {need} cards owned, {missing} missing")
        typer.echo(summary.format(who=who, have=data["need"] - data["missing"], need=data["need"], missing=data["missing"]))
    for p in listing.unmatched_lines(deck):  # never counted: the list is not complete
        typer.echo(_("warning") + f": {visible(str(p))}", err=True)
    for text in report.notes:  # the format chosen for a list that names none
        typer.echo(visible(_("note") + f": {text}"), err=True)
    chosen = {line: r for r in rows for line in r.chosen_lines}
    for note in deck.notes:  # the printing assumed for a name alone, unless the collection chose another
        row = chosen.get(note.pos.line)
        text = note.message if row is None else _("your collection's {id} counted for this line").format(id=row.card_id)
        typer.echo(visible(f"{note.pos}: " + _("note") + f": {text}"), err=True)
    if not data["complete"]:
        what = _("{missing} of the deck's {need} cards").format(missing=data["missing"], need=data["need"])
        if data["unmatched"]:
            lines = _("{n} line(s) naming no one card").format(n=len(data["unmatched"]))
            what = _("{cards} and {lines}").format(cards=what, lines=lines)
        typer.echo(_("{who} is missing {what}").format(who=who, what=what), err=True)
    finish(data["complete"])


def register(app: typer.Typer) -> None:
    """Mount ``collection`` on ``app``; ``deck have`` joins the deck group."""
    from cardlab.cli.deck import deck_app

    app.add_typer(collection_app, name="collection")
    if not any(c.callback is deck_have for c in deck_app.registered_commands):  # once, however many apps are built
        deck_app.command("have")(deck_have)
