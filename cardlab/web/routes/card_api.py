"""The card API (Scryfall-like): ``/api/cards/<id>``, ``/api/sets`` (the search is :mod:`cardlab.web.routes.search_api`)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from cardlab.web.cards import card_json, card_view, set_json, unknown_params, with_warnings
from cardlab.web.errors import WebError
from cardlab.web.forms import langs_param
from cardlab.web.state import SiteDep

router = APIRouter()


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
    langs = langs_param(lang, site.languages)
    data = [set_json(s, langs) for s in site.set_statuses()]
    return with_warnings({"object": "list", "has_more": False, "data": data}, unknown_params(request.query_params, ("lang",)))
