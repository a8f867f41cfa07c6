"""``cardlab db copy``: the user data (collections, saved mini-games) from one database to another,
SQLite or PostgreSQL; a thin command over :func:`cardlab.collection.copy.copy_database`."""

from __future__ import annotations

from typing import Annotated

import typer

from cardlab.cli.errors import long_work, user_errors
from cardlab.cli.options import QuietOpt

db_app = typer.Typer(
    help="The collections database: copy collections and saved games between SQLite and PostgreSQL.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

_WHERE = "sqlite:///FILE, a SQLite file or data folder, or postgresql+psycopg://USER@HOST/DATABASE"


@db_app.command("copy")
def copy(
    source: Annotated[str, typer.Option("--from", metavar="URL", help=f"The database to read: {_WHERE}.")],
    target: Annotated[str, typer.Option("--to", metavar="URL", help=f"The database to write (created if needed): {_WHERE}.")],
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the collections and games the target already holds.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Copy every collection and saved game, in one transaction (the search index is rebuilt, not copied).

    Example: cardlab db copy --from ~/.local/share/cardlab --to postgresql+psycopg://cardlab@db.example/cardlab
    """
    from cardlab.collection.copy import copy_database
    from cardlab.core.words import count

    with user_errors(), long_work(quiet, "the target database is unchanged"):
        report = copy_database(source, target, overwrite=overwrite)

    replaced = f" (replacing {count(report.replaced[0], 'row')} and {count(report.replaced[1], 'game')})" if any(report.replaced) else ""
    typer.echo(
        f"copied {count(report.rows, 'owned card row')} of {count(report.players, 'player')} and {count(report.games, 'game')} "
        f"from {report.source} to {report.target}{replaced}"
    )


def register(app: typer.Typer) -> None:
    """Mount ``db`` on ``app``."""
    app.add_typer(db_app, name="db")
