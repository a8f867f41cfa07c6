"""``cardlab import csv FILE --set CODE``: a thin command over :mod:`cardlab.contrib.import_csv`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardlab.cli.errors import user_errors
from cardlab.cli.options import CatalogOpt, roots_and_db

import_app = typer.Typer(help="Add cards to the catalog from other files.", no_args_is_help=True, rich_markup_mode=None)


@import_app.command("csv")
def import_csv_cmd(
    file: Annotated[
        Path,
        typer.Argument(
            help="A CSV file whose columns are card fields: number, name, name.en, start_cost.generic, blocks (commas between items), abilities.1.timing... (CONTRIBUTING.md)"
        ),
    ],
    set_code: Annotated[str, typer.Option("--set", help="The set the cards go to (its folder must exist with a set.yaml).")],
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace cards that already exist.")] = False,
    catalog: CatalogOpt = None,
) -> None:
    """Write one YAML card file per CSV row, all checked first (file:row:column errors).

    Example: cardlab import csv cards.csv --set ftcg-base
    """
    from cardlab.catalog.validate import load_catalog
    from cardlab.contrib.import_csv import import_cards
    from cardlab.core.csvfile import read_csv
    from cardlab.core.text import visible  # lazy: only this command prints user paths

    roots, _ = roots_and_db(catalog, None)
    with user_errors():
        table = read_csv(file)
        result = import_cards(load_catalog(roots), table, set_code, overwrite)
    typer.echo(f"wrote {len(result.written)} new card file(s), replaced {len(result.replaced)}")
    for p in result.written + result.replaced:
        typer.echo(f"  {visible(str(p))}")


def register(app: typer.Typer) -> None:
    """Mount ``import`` on ``app``."""
    app.add_typer(import_app, name="import")
