"""``cardlab sets`` and ``cardlab card new``: the contributor's commands (library: cardlab.contrib.new_card).

``cli.py`` calls :func:`register` to mount them. Only typer, the stdlib and cardlab.cli.options/errors
are imported here at start-up; the library loads inside the command bodies.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cardlab.cli.errors import user_errors
from cardlab.cli.options import CatalogOpt, LangOpt, langs_of, roots_and_db

card_app = typer.Typer(help="Add cards to the catalog.", no_args_is_help=True)


def sets(
    code: Annotated[Optional[str], typer.Argument(help="A set code or alias (default: every set).")] = None,
    missing: Annotated[bool, typer.Option("--missing", help="List the collector numbers not yet recorded.")] = False,
    lang: LangOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """List sets with how many cards are recorded of how many printed.

    With --missing, list the numbers still to record as ranges (1-3, 7).
    Example: cardlab sets ippo1 --missing
    """
    from cardlab.contrib import new_card as contrib
    from cardlab.index.stored import open_catalog
    from cardlab.render import cards as render

    roots, db_path = roots_and_db(catalog, None)
    with user_errors():
        statuses = contrib.set_statuses(open_catalog(roots, db_path)[0], code)
    if missing:
        lines = [f"{s.info.code}: {contrib.missing_text(s)}" for s in statuses]
    else:
        lines = contrib.sets_table(statuses, langs_of(lang))
        if code is not None and statuses[0].info.data.get("recorded"):
            lines.append(f"recorded: {statuses[0].info.data['recorded']}")
    render.lines(lines, render.stdout_console())


@card_app.command("new")
def card_new(
    set_code: Annotated[str, typer.Option("--set", help="The set code or alias (cardlab sets lists them).")],
    number: Annotated[str, typer.Option("--number", help="The collector number as printed.")],
    name: Annotated[
        Optional[str],
        typer.Option(
            help=(
                "The card's name, written into the file. It also gives the file name when written in Latin "
                "script; for a Japanese name, also pass --slug."
            )
        ),
    ] = None,
    name_lang: Annotated[
        Optional[str], typer.Option("--name-lang", help="Language of --name (default: the set's source language).")
    ] = None,
    kind: Annotated[
        Optional[str],
        typer.Option(
            help=(
                "Card kind, one of the set's game (default: its first; another kind's error lists them), "
                "e.g. Pokémon: pokemon, trainer, energy; Ippo: blow, defense, support, fight."
            )
        ),
    ] = None,
    slug: Annotated[Optional[str], typer.Option(help="File-name slug in Latin script (default: from --name, else 'card').")] = None,
    catalog: CatalogOpt = None,
) -> None:
    """Write a new card file to fill in, with a comment on each field; never overwrites a card.

    Example: cardlab card new --set ippo1 --number 12 --kind defense --slug test-cover
    """
    from cardlab.contrib import new_card as contrib
    from cardlab.render import cards as render

    roots, _ = roots_and_db(catalog, None)
    with user_errors():
        path = contrib.new_card(contrib.load(roots), set_code, number, name=name, lang=name_lang, kind=kind, slug=slug)
    render.lines([f"wrote {path}", f'fill in every null and "", then run: cardlab validate {path}'], render.stdout_console())


def register(app: typer.Typer) -> None:
    """Mount ``sets`` and the ``card`` group (``card new``) on the main ``cardlab`` app."""
    app.command("sets")(sets)
    app.add_typer(card_app, name="card")
