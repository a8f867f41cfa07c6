"""``cardlab serve``: the web page and JSON API (:mod:`cardlab.web`), run by uvicorn.

The CLI never imports :mod:`cardlab.web`: uvicorn loads the app factory by name
(``cardlab.web.app:create_app``), which reads the catalog and index from ``CARDLAB_CATALOG`` and
``CARDLAB_DB``, set here from the options. uvicorn loads only inside the command.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from cardlab.cli.errors import user_errors
from cardlab.cli.options import CatalogOpt, DbOpt, roots_and_db

APP_FACTORY = "cardlab.web.app:create_app"
"""The app factory uvicorn imports by name."""


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on; 127.0.0.1 answers this machine only.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, max=32, help="Server processes (one per core is plenty).")] = 1,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
) -> None:
    """Serve the search, card, deck and sets pages and the JSON API (read-only).  Example: cardlab serve --port 8000"""
    from cardlab.core.errors import CatalogError, UsageError

    roots, db_path = roots_and_db(catalog, db)
    with user_errors():
        from importlib.util import find_spec

        if not all(find_spec(name) for name in ("fastapi", "uvicorn", "jinja2", "multipart")):
            raise UsageError("cardlab serve needs the web extra: pip install 'cardlab[web]'")
        from cardlab.catalog.validate import validate

        result = validate(roots)  # say what is wrong before uvicorn starts (the app checks again, cached)
        if result.problems:
            raise CatalogError(result.problems)
        if isinstance(db_path, str):  # an index on a PostgreSQL server: it must be there and fresh
            from cardlab.catalog import pgindex

            pgindex.open_fresh(roots, db_path).close()
    os.environ["CARDLAB_CATALOG"] = os.pathsep.join(str(r) for r in roots)
    os.environ["CARDLAB_DB"] = str(db_path)
    import uvicorn

    typer.echo(f"cardlab: serving on http://{host}:{port}/ (Ctrl-C stops)", err=True)
    uvicorn.run(APP_FACTORY, factory=True, host=host, port=port, workers=workers, log_level="warning", server_header=False)


def register(app: typer.Typer) -> None:
    """Add the top-level ``serve`` command to the ``cardlab`` app."""
    app.command("serve")(serve)
