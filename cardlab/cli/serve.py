"""``cardlab serve``: the web page and JSON API (:mod:`cardlab.web`), run by uvicorn.

The CLI never imports :mod:`cardlab.web`: uvicorn loads the app factory by name
(``cardlab.web.app:create_app``), which reads the catalog and index from ``CARDLAB_CATALOG`` and
``CARDLAB_DB``, and the write switch and token from ``CARDLAB_SERVE_WRITES`` and
``CARDLAB_SERVE_TOKEN``, set here from the options. uvicorn loads only inside the command.

``--allow-writes`` turns on the collection write endpoints; it needs a token
(:func:`cardlab.core.auth.serve_token`: ``--token-file`` or ``CARDLAB_SERVE_TOKEN``), else the
command stops with exit 2 before anything listens: no token is made up. The address is checked
(:func:`cardlab.core.listen.check_listen`: an empty host, one that does not resolve, a port in use
are usage errors, exit 2) before "serving on" is printed; an IPv6 address is shown in brackets.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.cli.errors import user_errors
from cardlab.cli.options import CatalogOpt, DbOpt, roots_and_db

APP_FACTORY = "cardlab.web.app:create_app"
"""The app factory uvicorn imports by name."""
APP_PROTOCOL = "cardlab.web.protocol:JSONErrorProtocol"
"""The HTTP protocol uvicorn imports by name: its own (httptools), an unreadable request's 400 in JSON."""


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on; 127.0.0.1 answers this machine only.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, max=32, help="Server processes (one per core is plenty).")] = 1,
    threads: Annotated[
        int, typer.Option(min=1, max=64, help="Request threads per process (searches, deck checks, PDFs); a few beat many on few cores.")
    ] = 4,
    allow_writes: Annotated[
        bool,
        typer.Option(
            "--allow-writes",
            help="Turn on the collection write endpoints (POST /api/collections/NAME/cards and .../cards/remove);"
            " they need the token as 'Authorization: Bearer TOKEN'.",
        ),
    ] = False,
    token_file: Annotated[
        Optional[Path],
        typer.Option(
            "--token-file",
            metavar="PATH",
            help="Read the write token from this file (default: the CARDLAB_SERVE_TOKEN variable); 16 to 4096 visible ASCII characters.",
        ),
    ] = None,
    rate_limit: Annotated[
        float,
        typer.Option(
            "--rate-limit",
            min=0,
            metavar="N",
            help="API requests a second each client address may send on average, bursts of twice that; 429 with Retry-After"
            " past it. 0: no limit. Loopback clients (this machine) are not limited.",
        ),
    ] = 10.0,
    catalog: CatalogOpt = None,
    db: DbOpt = None,
) -> None:
    """Serve the search, card, deck and sets pages and the JSON API (read-only unless --allow-writes).

    Example: cardlab serve --port 8000; CARDLAB_SERVE_TOKEN=... cardlab serve --allow-writes
    """
    from cardlab.core.errors import CatalogError, UsageError

    roots, db_path = roots_and_db(catalog, db)
    with user_errors():
        token = None
        if allow_writes:
            from cardlab.core.auth import serve_token

            token = serve_token(token_file)
            from cardlab.collection import db as collection_db

            collection_db.connect().close()  # a collections database that cannot be written is told now, not at the first write
        elif token_file is not None:
            raise UsageError("--token-file is for --allow-writes; without it the server takes no write and needs no token")
        from importlib.util import find_spec

        if not all(find_spec(name) for name in ("fastapi", "uvicorn", "jinja2", "multipart")):
            raise UsageError("cardlab serve needs the web extra: pip install 'cardlab[web]'")
        from cardlab.catalog.validate import validate

        result = validate(roots)  # say what is wrong before uvicorn starts (the app checks again, cached)
        if result.problems:
            raise CatalogError(result.problems)
        if isinstance(db_path, str):  # an index on a PostgreSQL server: it must be there and fresh
            from cardlab.index import postgres

            postgres.open_fresh(roots, db_path).close()
        from cardlab.core.listen import check_listen

        url = check_listen(host, port)  # an empty host, a host that does not resolve, a port in use: told before "serving on"
    os.environ["CARDLAB_CATALOG"] = os.pathsep.join(str(r) for r in roots)
    os.environ["CARDLAB_DB"] = str(db_path)
    os.environ["CARDLAB_SERVE_WRITES"] = "1" if allow_writes else "0"
    os.environ["CARDLAB_WEB_THREADS"] = str(threads)  # read by the app in each uvicorn worker
    os.environ["CARDLAB_RATE_LIMIT"] = repr(rate_limit)  # read by the app (cardlab.web.app.rate_limit_of)
    if token is not None:
        from cardlab.core.auth import TOKEN_ENV

        os.environ[TOKEN_ENV] = token  # the app (in each uvicorn worker) reads it from here
    import uvicorn

    writes = "collection writes on (Bearer token)" if allow_writes else "read-only"
    typer.echo(f"cardlab: serving on {url}, {writes} (Ctrl-C stops)", err=True)
    with user_errors():
        try:
            uvicorn.run(
                APP_FACTORY,
                factory=True,
                host=host,
                port=port,
                workers=workers,
                log_level="warning",
                server_header=False,
                http=APP_PROTOCOL,  # an unreadable request's 400 as JSON too
            )
        except SystemExit as err:  # uvicorn exits when it cannot start (the port taken since the check above...)
            if err.code not in (0, None):
                raise UsageError(f"the server could not start on {url} (uvicorn's message above)") from None


def register(app: typer.Typer) -> None:
    """Add the top-level ``serve`` command to the ``cardlab`` app."""
    app.command("serve")(serve)
