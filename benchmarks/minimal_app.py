"""The floor of ``cardlab serve``'s search API for ``bench_web.py --minimal`` (issues 29, 30): a bare
Starlette app with the one route ``GET /api/cards/search?q=WORD`` that runs the same library call and
the same SQL as cardlab's route (:func:`cardlab.search.engine.find_page`, a page of 50 and its bounded
total) and writes the same bytes (:func:`cardlab.web.cards.search_json`), on the same thread pool
size, without cardlab's web tier: no FastAPI parameters and dependencies, no middleware (guard, rate
limit, ETag caching, language, gzip), no route table of 60 routes, no error pages.

The difference between the two servers is what cardlab's web tier costs a request.

    CARDLAB_DB=index.sqlite python -m uvicorn --factory benchmarks.minimal_app:create_app --port 8001
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlencode

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardlab.index.access import connect
from cardlab.search import engine
from cardlab.web.cards import search_json
from cardlab.web.limits import SEARCH_TIMEOUT, WEB_THREADS


def create_app() -> Starlette:
    """The one-route app over the index file ``CARDLAB_DB`` (a read-only connection per thread)."""
    db = os.environ["CARDLAB_DB"]
    local = threading.local()

    def con():  # noqa: ANN202 - this thread's connection
        if getattr(local, "con", None) is None:
            local.con = connect(db)
        return local.con

    def page(q: str) -> bytes:
        found = engine.find_page(con(), q, page_size=50, timeout=SEARCH_TIMEOUT)
        head = {
            "object": "list",
            "total_cards": found.total,
            "total_cards_is_exact": found.total_is_exact,
            "has_more": found.has_more,
            "next_page": f"/api/cards/search?{urlencode({'q': q, 'cursor': found.next_cursor})}" if found.next_cursor else None,
        }
        return search_json(found, (), head)

    async def search(request: Request) -> Response:
        body = await anyio.to_thread.run_sync(page, request.query_params.get("q", ""))
        return Response(body, media_type="application/json")

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = WEB_THREADS
        yield

    return Starlette(routes=[Route("/api/cards/search", search)], lifespan=lifespan)
