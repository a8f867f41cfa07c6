"""Options and error handling shared by every CLI command group. Imports only typer and stdlib."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.core.errors import CardlabError, DataError

CatalogOpt = Annotated[Optional[list[Path]], typer.Option(
    "--catalog",
    help="Catalog root(s) to read instead of the shipped cards (repeatable; env CARDLAB_CATALOG, ':'-separated).")]
DbOpt = Annotated[Optional[Path], typer.Option(
    "--db", envvar="CARDLAB_DB", help="Index file to use (default: one per catalog in the user cache).")]
LangOpt = Annotated[Optional[str], typer.Option(
    "--lang", help="Preferred language(s), e.g. fr or fr,de; falls back to the card's source language.")]


def roots_and_db(catalog: list[Path] | None, db: Path | None) -> tuple[list[Path], Path]:
    """Return the catalog roots and index path the options (or environment) ask for."""
    from cardlab.core.paths import catalog_roots, default_db

    with user_errors():
        if catalog and len(catalog) == 1 and ":" in str(catalog[0]):
            roots = catalog_roots(str(catalog[0]))
        else:
            roots = catalog_roots(catalog or None)
        return roots, default_db(roots, db)


def langs_of(option: str | None) -> list[str]:
    """Return the preferred languages: ``--lang``, else the user's configuration (cardlab.core.config)."""
    try:
        from cardlab.core.config import preferred_languages
    except ImportError:  # pragma: no cover - config arrives with the translations work
        return [x.strip() for x in (option or "").split(",") if x.strip()]
    return preferred_languages(option)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a :class:`CardlabError` into a message on stderr and its exit code, with no traceback."""
    try:
        yield
    except CardlabError as err:
        from cardlab.render import cards as render

        console = render.stderr_console()
        if isinstance(err, DataError):
            render.problems(err.problems, console)
            console.print(f"[red]error[/]: {len(err.problems)} problem(s) found; nothing was changed")
        else:
            caret = getattr(err, "caret", None)
            if caret:
                from rich.markup import escape

                console.print(f"[red]error[/]: {escape(err.reason)}")  # type: ignore[attr-defined]
                console.out(caret(), highlight=False)
            else:
                from rich.markup import escape

                console.print(f"[red]error[/]: {escape(str(err))}")
        raise typer.Exit(err.exit_code) from None
