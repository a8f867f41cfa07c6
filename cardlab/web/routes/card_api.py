"""The card API (Scryfall-like): ``/api/cards/search``, ``/api/cards/<id>``, ``/api/sets``."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from cardlab.web.cards import card_json, card_view, run_search, search_params, set_json, unknown_params, with_warnings
from cardlab.web.errors import WebError
from cardlab.web.forms import langs_param
from cardlab.web.limits import PER_PAGE
from cardlab.web.state import SiteDep

router = APIRouter()


@router.get("/api/cards/search", tags=["cards"], response_class=JSONResponse)
def api_search(
    request: Request,
    site: SiteDep,
    q: str = "",
    sort: str = "number",
    reverse: bool = False,
    lang: str = "",
    page_: int = Query(1, alias="page"),
) -> Response:
    """Cards matching a query in cardlab's query language (as ``cardlab search``), a page of
    50 at a time: a list object with ``data``, ``total_cards``, ``has_more``, ``next_page`` (a
    URL relative to this server: ``/api/cards/search?q=...&page=2``), and ``warnings`` naming any
    parameter not read. Scryfall's ``order`` (a sort key), ``dir`` (``asc``, ``desc``, ``auto``) and
    ``unique`` (``cards``: one hit per card; ``prints``: every printing) are read too."""
    opts = search_params(request.query_params, sort, reverse)
    total, hits = run_search(site, q, opts.sort, opts.reverse, langs_param(lang, site.languages), page_, opts.unique)
    more = page_ * PER_PAGE < total
    params = {k: v for k, v in request.query_params.items() if k != "page"}
    base = "/api/cards/search"  # relative: never built from the client's Host header
    # the cards' data is plain JSON (decoded from the index): sent as it is, not walked again by
    # FastAPI's encoder (a third of the endpoint's time on a page of 50 cards)
    return JSONResponse(
        with_warnings(
            {
                "object": "list",
                "total_cards": total,
                "has_more": more,
                "next_page": f"{base}?{urlencode({**params, 'page': page_ + 1})}" if more else None,
                "data": [{"object": "card", **h.to_json(), "name": h.name, "names": h.names} for h in hits],
            },
            opts.warnings,
        )
    )


@router.get("/api/cards/{card_id}", tags=["cards"])
def api_card(request: Request, site: SiteDep, card_id: str, lang: str = "") -> dict:
    """One card by id (``base1-4``): names, set, the card's data, printings and legality per format."""
    langs = langs_param(lang, site.languages)
    view = card_view(site, card_id)
    if view.id.lower() != card_id.lower():
        raise WebError(404, "not_found", f"no card with the id '{card_id}'")
    return with_warnings(card_json(site, view, langs), unknown_params(request.query_params, ("lang",)))


@router.get("/api/sets", tags=["sets"])
def api_sets(request: Request, site: SiteDep, lang: str = "") -> dict:
    """Every set: code, game, name, cards recorded and printed, the numbers still missing."""
    from cardlab.contrib.new_card import set_statuses

    langs = langs_param(lang, site.languages)
    data = [set_json(s, langs) for s in set_statuses(site.catalog)]
    return with_warnings({"object": "list", "has_more": False, "data": data}, unknown_params(request.query_params, ("lang",)))
