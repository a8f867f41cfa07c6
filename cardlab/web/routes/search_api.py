"""The search API (Scryfall-like): ``/api/cards/search``, the busiest route of a club's server.

Its own router, first in :data:`cardlab.web.routes.ROUTERS`: a request is matched against the routes
in order, and matching the search after the ~60 others cost a quarter of a millisecond a request
(BENCHMARKS.md, issue 29). Its path has no parameter, so being first shadows no other route.
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardlab.core.errors import CardlabError
from cardlab.web.cards import search_json, search_params, with_warnings
from cardlab.web.errors import WebError, web_error
from cardlab.web.forms import bool_param, int_param, langs_param
from cardlab.web.limits import MAX_PAGE, PER_PAGE
from cardlab.web.state import SiteDep

router = APIRouter()


def _query_parameter(name: str, kind: str, default: object, words: str) -> dict:
    """One query parameter of the search route as OpenAPI describes it."""
    return {"name": name, "in": "query", "required": False, "schema": {"type": kind, "default": default}, "description": words}


PARAMETERS = [
    _query_parameter("q", "string", "", "the query, in cardlab's query language (as `cardlab search`)"),
    _query_parameter("sort", "string", "number", "number, name, set, rarity, artist or hp (Scryfall's `order` too)"),
    _query_parameter("reverse", "boolean", False, "the reversed order (Scryfall's `dir=desc` too)"),
    _query_parameter("lang", "string", "", "the languages of the cards' names, such as fr or fr,de"),
    _query_parameter("page", "integer", 1, "the page number, from 1 to 10,000"),
    _query_parameter("page_size", "integer", PER_PAGE, "cards a page, from 1 to 1,000"),
    _query_parameter("cursor", "string", "", "the next page's cursor, from `next_page`"),
]
"""The route's parameters, for the OpenAPI description: the route reads them itself
(:func:`cardlab.web.forms.int_param`, :func:`~cardlab.web.forms.bool_param`)."""


@router.get("/api/cards/search", tags=["cards"], response_class=JSONResponse, openapi_extra={"parameters": PARAMETERS})
def api_search(request: Request, site: SiteDep) -> Response:
    """Cards matching a query in cardlab's query language (as ``cardlab search``), a page of
    ``page_size`` (default 50, at most 1,000) at a time: a list object with ``data``,
    ``total_cards``, ``total_cards_is_exact``, ``has_more``, ``next_page`` (a URL relative to
    this server with the next page's ``cursor``; ``page=N`` still reads page N).
    ``total_cards`` is exact up to 1,000 matches; above, it is a lower bound (1,001: "more
    than 1,000") and ``total_cards_is_exact`` is false. An edited cursor is a 400 ``bad_cursor``
    (library :func:`cardlab.search.engine.find_page`). Scryfall's ``order`` (a sort key), ``dir``
    (``asc``, ``desc``, ``auto``) and ``unique`` (``cards``: one hit per card; ``prints``: every
    printing) are read too; ``warnings`` names any parameter not read."""
    from cardlab.search import engine
    from cardlab.search.paging import MAX_PAGE_SIZE, CursorError

    # the parameters are read here, not declared one by one: FastAPI's checking of seven typed
    # parameters was a sixth of a request's work at 50 clients (BENCHMARKS.md, issue 29)
    query = request.query_params
    q, lang, cursor = query.get("q", ""), query.get("lang", ""), query.get("cursor", "")
    page_ = int_param(query, "page", 1, 1, MAX_PAGE)
    page_size = int_param(query, "page_size", PER_PAGE, 1, MAX_PAGE_SIZE)
    opts = search_params(query, query.get("sort", "number"), bool_param(query, "reverse", False))
    langs = langs_param(lang, site.languages)
    try:
        found = engine.find_page(
            site.con(),
            q,
            page_size=page_size,
            cursor=cursor or None,
            page=page_,
            langs=langs,
            sort=opts.sort,
            reverse=opts.reverse,
            timeout=site.search_timeout,
            unique=opts.unique,
        )
    except CursorError as err:
        raise WebError(400, "bad_cursor", str(err)) from None
    except CardlabError as err:
        raise web_error(err) from None
    params = {k: v for k, v in request.query_params.items() if k not in ("page", "cursor")}
    base = "/api/cards/search"  # relative: never built from the client's Host header
    head = with_warnings(
        {
            "object": "list",
            "total_cards": found.total,
            "total_cards_is_exact": found.total_is_exact,
            "has_more": found.has_more,
            "next_page": f"{base}?{urlencode({**params, 'cursor': found.next_cursor})}" if found.next_cursor else None,
        },
        opts.warnings,
    )
    # written as bytes, each card's JSON text kept between requests (web.cards.search_json): not
    # walked by FastAPI's encoder, nor decoded and encoded again when asked for again
    return Response(search_json(found, langs, head), media_type="application/json")
