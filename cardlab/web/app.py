"""The app factory of ``cardlab serve``: :func:`create_app` builds the FastAPI app from its parts and
wraps it in :class:`~cardlab.web.guard.Guard`.

Every answer comes from the library; the web package only reads requests and shapes pages and JSON,
one module per concern (docs/ARCHITECTURE.md, Web): the site state (:mod:`cardlab.web.state`, handed
to routes as a dependency), errors (:mod:`~cardlab.web.errors`), request readers
(:mod:`~cardlab.web.forms`), templates and shapes (:mod:`~cardlab.web.views`), the work per resource
(:mod:`~cardlab.web.cards`, :mod:`~cardlab.web.decks`, :mod:`~cardlab.web.collections`) and the
routers (:mod:`cardlab.web.routes`, listed in :data:`cardlab.web.routes.ROUTERS`).

- Pages: ``/search`` (and ``/search/help``), ``/card/<id>``, ``/deck`` (POST: check; ``/deck/export.txt``,
  ``/deck/export.json``, ``/deck/proxies.pdf``), ``/sets``.
- API (Scryfall-like): ``/api/cards/search``, ``/api/cards/<id>``, ``/api/sets``,
  ``POST /api/decks/validate``, ``POST /api/decks/have``, ``/api/collections``,
  ``/api/collections/<name>``; ``/api/openapi.json`` describes it. Errors are JSON objects
  ``{"object": "error", "status", "code", "details", ...}``.
- Writes: ``POST /api/collections/<name>/cards`` (add) and ``POST /api/collections/<name>/cards/remove``
  answer 403 unless the app was built with ``allow_writes`` (``cardlab serve --allow-writes``), and then
  401 without ``Authorization: Bearer <token>`` matching the server's token (:mod:`cardlab.core.auth`).

- Lookups (Scryfall's shapes): ``/api/cards/named?exact=|fuzzy=``, ``/api/cards/autocomplete?q=``,
  ``/api/cards/<set>/<number>``, ``/api/sets/<code>``; search reads ``order``, ``dir``, ``unique``,
  and lists unknown parameters in ``warnings``.
- HTTP: ETag, Cache-Control and 304 on catalog reads (:mod:`cardlab.web.caching`), gzip for large
  bodies, a per-client rate limit on ``/api/`` (:mod:`cardlab.web.ratelimit`).

The catalog and formats are loaded once when the app is created; the index is opened read-only, one
connection per worker thread. A catalog edited while serving is seen after a restart.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from cardlab.core.errors import UsageError
from cardlab.web.caching import Caching, site_tag
from cardlab.web.errors import add_handlers
from cardlab.web.guard import Guard
from cardlab.web.language import Language
from cardlab.web.limits import GZIP_MIN, MAX_BODY, RATE_BURST_SECONDS, RATE_LIMIT, SEARCH_TIMEOUT, WEB_THREADS
from cardlab.web.ratelimit import RateLimit
from cardlab.web.routes import ROUTERS, route_table
from cardlab.web.state import Site
from cardlab.web.views import HERE, templates


def web_threads() -> int:
    """The number of request threads per worker: ``CARDLAB_WEB_THREADS`` (set by ``cardlab serve
    --threads``), else :data:`~cardlab.web.limits.WEB_THREADS`.

    Raises:
        UsageError: not a whole number from 1 to 64.
    """
    import os

    text = os.environ.get("CARDLAB_WEB_THREADS", "").strip()
    if not text:
        return WEB_THREADS
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise UsageError(f"CARDLAB_WEB_THREADS: a whole number from 1 to 64, not '{text}'")
    return int(text)


def _version() -> str:
    """Return cardlab's version (for the OpenAPI description)."""
    from cardlab import __version__

    return __version__


def write_token(allow_writes: bool | None, token: str | None) -> str | None:
    """Return the token writes must carry, or None when writes are off.

    Args:
        allow_writes: writes on or off (None: ``CARDLAB_SERVE_WRITES`` is ``1``);
        token: the token (None: ``CARDLAB_SERVE_TOKEN``).

    Raises:
        UsageError: writes on without a usable token (:func:`cardlab.core.auth.check_token`): no token is made up.
    """
    import os

    from cardlab.core.auth import TOKEN_ENV, check_token

    if allow_writes is None:
        allow_writes = os.environ.get("CARDLAB_SERVE_WRITES") == "1"
    if not allow_writes:
        return None
    if token is None and os.environ.get(TOKEN_ENV) is None:
        raise UsageError(f"writes are on but no token was given: set {TOKEN_ENV} (cardlab makes none up)")
    return check_token(token if token is not None else os.environ[TOKEN_ENV], "the token given" if token is not None else TOKEN_ENV)


def rate_limit_of(rate_limit: float | None) -> float:
    """Return the API's requests a second per client: ``rate_limit``, else ``CARDLAB_RATE_LIMIT``
    (set by ``cardlab serve --rate-limit``), else :data:`~cardlab.web.limits.RATE_LIMIT`; 0 is off.

    Raises:
        UsageError: a negative or non-number value.
    """
    import math
    import os

    if rate_limit is None:
        text = os.environ.get("CARDLAB_RATE_LIMIT", "").strip()
        try:
            rate_limit = float(text) if text else RATE_LIMIT
        except ValueError:
            raise UsageError(f"CARDLAB_RATE_LIMIT: requests a second, a number (0: no limit), not '{text}'") from None
    if not math.isfinite(rate_limit) or rate_limit < 0:
        raise UsageError(f"the rate limit is requests a second, 0 or more (0: no limit), not {rate_limit}")
    return rate_limit


def create_app(
    roots: list[Path] | None = None,
    db: Path | str | None = None,
    search_timeout: float = SEARCH_TIMEOUT,
    allow_writes: bool | None = None,
    token: str | None = None,
    rate_limit: float | None = None,
    limit_loopback: bool = False,
) -> Any:
    """Build the ASGI app: FastAPI, gzip (bodies of :data:`~cardlab.web.limits.GZIP_MIN` bytes and
    more), :class:`~cardlab.web.caching.Caching`, :class:`~cardlab.web.ratelimit.RateLimit`, all in
    :class:`~cardlab.web.guard.Guard`.

    Args:
        roots: catalog roots (default: ``CARDLAB_CATALOG``, else the shipped cards);
        db: the index file (default: ``CARDLAB_DB``, else the one in the user cache);
        search_timeout: seconds a search may run;
        allow_writes: turn on the collection write endpoints (default: ``CARDLAB_SERVE_WRITES`` is
            ``1``, as ``cardlab serve --allow-writes`` sets it);
        token: the token writes must carry (default: ``CARDLAB_SERVE_TOKEN``); used only with writes on.
        rate_limit: API requests a second per client address, bursts of twice that (:func:`rate_limit_of`:
            default ``CARDLAB_RATE_LIMIT``, else 10; 0: no limit).
        limit_loopback: limit loopback clients too (by default this machine is not limited).

    Returns:
        The ASGI app; its ``.app`` is the FastAPI instance and ``.site`` the :class:`~cardlab.web.state.Site`
        (also ``.app.state.site``, where the routes' :func:`~cardlab.web.state.get_site` finds it).

    Raises:
        CatalogError: the catalog does not validate. UsageError: writes on without a usable token
            (:func:`cardlab.core.auth.check_token`): no token is made up; a bad rate limit.
    """
    from cardlab.core.paths import catalog_roots, default_db

    token = write_token(allow_writes, token)
    rate = rate_limit_of(rate_limit)
    roots = catalog_roots(roots)
    site = Site(roots, default_db(roots, db), search_timeout, token)
    threads = web_threads()

    @asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        yield

    api = FastAPI(
        lifespan=lifespan,
        title="cardlab",
        version=_version(),
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        description=(
            "Cards, sets, deck checks and collections of the cardlab catalog. Errors are objects with status, code and details. "
            "Collection writes (POST /api/collections/{name}/cards, POST /api/collections/{name}/cards/remove) answer 403 "
            "writes_disabled unless the server runs with --allow-writes, and then need Authorization: Bearer <token> "
            "(401 unauthorized without it). Catalog reads carry an ETag: send it back as If-None-Match for a 304. "
            + (
                f"Each client address may send {rate:g} API requests a second on average (429 rate_limited with Retry-After past it)."
                if rate > 0
                else ""
            )
            + (" This server takes writes." if site.allow_writes else " This server is read-only.")
        ),
    )
    api.state.site, api.state.templates = site, templates()
    api.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    add_handlers(api)
    for name in ROUTERS:
        api.include_router(importlib.import_module(name).router)
    api.state.route_table = route_table(api)  # the 405 answer's Allow header reads it (errors.allowed_methods)
    from starlette.middleware.gzip import GZipMiddleware

    web = site_tag("", [], [HERE / "templates", HERE / "static", HERE.parent / "locale"])  # read once
    tags: dict[str, str] = {}

    def tag() -> str:
        """The site tag of the index as it is now (kept by fingerprint: a rebuild elsewhere changes it)."""
        fingerprint = site.current_fingerprint()
        if fingerprint not in tags:
            if len(tags) >= 64:  # an index rebuilt that often, or a server down for a while
                tags.clear()
            tags[fingerprint] = site_tag(fingerprint, [_version(), str(site.allow_writes), web])
        return tags[fingerprint]

    # each request in its language (?lang=, cookie, Accept-Language), which the ETag hashes too
    inner: Any = Caching(Language(GZipMiddleware(api, minimum_size=GZIP_MIN)), tag)
    if rate > 0:
        inner = RateLimit(inner, rate, rate * RATE_BURST_SECONDS, limit_loopback)
    app = Guard(inner, MAX_BODY)
    app.app, app.site = api, site  # type: ignore[attr-defined]
    return app
