"""Scryfall's lookups in the card API: ``/api/cards/named?exact=|fuzzy=``, ``/api/cards/autocomplete?q=``,
``/api/cards/<set>/<number>`` and ``/api/sets/<code>``. Matched before :mod:`cardlab.web.routes.card_api`
(:data:`cardlab.web.routes.ROUTERS`): ``named`` and ``autocomplete`` are not card ids."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from cardlab.core.errors import CardlabError
from cardlab.core.l10n import _
from cardlab.core.text import clip
from cardlab.web.cards import card_json, named_card, numbered_card, set_json, unknown_params, with_warnings
from cardlab.web.errors import WebError, web_error
from cardlab.web.forms import langs_param
from cardlab.web.state import SiteDep

router = APIRouter()

NAMED_PARAMS = ("exact", "fuzzy", "set", "lang")
"""The parameters ``/api/cards/named`` reads."""
MAX_NAME = 200
"""Longest name, set code or autocomplete text a lookup takes (the longest card name has under 60 letters)."""


def _text(name: str, value: str) -> str:
    """Return a lookup's text parameter, at most :data:`MAX_NAME` characters.

    Raises:
        WebError: 400 ``bad_parameter`` when longer.
    """
    if len(value) > MAX_NAME:
        raise WebError(400, "bad_parameter", f"{name}: at most {MAX_NAME} characters")
    return value


@router.get("/api/cards/named", tags=["cards"])
def api_named(
    request: Request,
    site: SiteDep,
    exact: str | None = None,
    fuzzy: str | None = None,
    set_: str | None = Query(None, alias="set"),
    lang: str = "",
) -> dict:
    """One card by name, as Scryfall's ``/cards/named``: ``exact`` (the whole name in any language,
    case and accents aside) or ``fuzzy`` (also a name typed without spaces, the beginnings of its
    words, or the one closest name; else 404 ``not_found`` with ``suggestions``). Several printings
    of one card give the first; several cards of one name answer 404 ``ambiguous`` (``choices``)
    unless ``set`` (a code or alias) narrows it."""
    langs = langs_param(lang, site.languages)
    if (exact is None) == (fuzzy is None):
        raise WebError(400, "bad_parameter", "give exact=NAME or fuzzy=NAME (one of them)")
    name = _text("exact" if exact is not None else "fuzzy", exact if exact is not None else fuzzy or "")
    view = named_card(site, name, fuzzy is not None, _text("set", set_) if set_ is not None else None)
    return with_warnings(card_json(site, view, langs), unknown_params(request.query_params, NAMED_PARAMS))


@router.get("/api/cards/autocomplete", tags=["cards"])
def api_autocomplete(request: Request, site: SiteDep, q: str = "") -> dict:
    """Up to 20 card names for what is typed so far, as Scryfall's ``/cards/autocomplete``: a
    ``catalog`` object (``total_values``, ``data``); the names that start with ``q`` first, then
    those with a word that does; none for under 2 letters."""
    from cardlab.search.lookup import autocomplete

    try:
        names = autocomplete(site.con(), _text("q", q))
    except CardlabError as err:
        raise web_error(err) from None
    return with_warnings({"object": "catalog", "total_values": len(names), "data": names}, unknown_params(request.query_params, ("q",)))


@router.get("/api/cards/{set_code}/{number}", tags=["cards"])
def api_card_by_number(request: Request, site: SiteDep, set_code: str, number: str, lang: str = "") -> dict:
    """One card by set (its code, an alias or a tool's code: ``base1``, ``BS``) and collector number,
    as Scryfall's ``/cards/:code/:number``."""
    langs = langs_param(lang, site.languages)
    view = numbered_card(site, _text("set", set_code), _text("number", number))
    return with_warnings(card_json(site, view, langs), unknown_params(request.query_params, ("lang",)))


@router.get("/api/sets/{code}", tags=["sets"])
def api_set(request: Request, site: SiteDep, code: str, lang: str = "") -> dict:
    """One set by its code, an alias or a tool's code (``base1``, ``BS``, ``base``), as Scryfall's
    ``/sets/:code``: the set object of ``/api/sets``; 404 ``not_found`` with close codes."""
    from cardlab.contrib.new_card import set_statuses
    from cardlab.core.fuzzy import did_you_mean, suggest

    langs = langs_param(lang, site.languages)
    info = site.catalog.find_set(_text("code", code))
    if info is None:
        close = suggest(code, [n for s in site.catalog.sets.values() for n in s.lookup_names])
        # in the request's language, as the card lookup's message
        raise WebError(404, "not_found", _("no set '{ref}'").format(ref=clip(code)) + did_you_mean(close), suggestions=close)
    return with_warnings(set_json(set_statuses(site.catalog, info.code)[0], langs), unknown_params(request.query_params, ("lang",)))
