"""The deck API: ``POST /api/decks/validate`` (a list's verdict) and ``POST /api/decks/have`` (a list
against a collection), each with the list as the ``text/plain`` body, checked in a worker thread."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from cardlab.web import decks
from cardlab.web.forms import deck_body, langs_param
from cardlab.web.state import SiteDep
from cardlab.web.views import report_json

router = APIRouter()

TEXT_BODY = {"requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}}
"""The OpenAPI request body of a deck route: the list as plain text."""


@router.post("/api/decks/validate", tags=["decks"], openapi_extra=TEXT_BODY)
async def api_validate(request: Request, site: SiteDep, fmt: str | None = Query(None, alias="format"), lang: str = "") -> dict:
    """Check a deck list sent as the ``text/plain`` body. With ``format`` (or a ``Format:`` line in
    the list): that format's verdict (``deck_report``); without: legality in every format of its
    game (``legality``). Each problem and note has its ``line``."""
    text = await deck_body(request)
    langs = langs_param(lang, site.languages)
    checked = await run_in_threadpool(decks.check_deck_text, site, text, "deck.txt", fmt, langs)
    if not checked["check"].surveyed:  # the format asked for, or the list's own Format: line
        return report_json(checked["reports"][0])
    reports = checked["reports"]
    return {
        "object": "legality",
        "game": reports[0].deck.format.game if reports else None,
        "legal": checked["check"].legal,
        "chosen": checked["check"].chosen,
        "legal_in": [r.deck.format.name for r in reports if r.legal],
        "formats": [report_json(r) for r in reports],
    }


@router.post("/api/decks/have", tags=["decks", "collections"], openapi_extra=TEXT_BODY)
async def api_deck_have(
    request: Request,
    site: SiteDep,
    collection: str = Query(..., description="The collection (player) to compare with."),
    fmt: str | None = Query(None, alias="format"),
    lang: str = "",
) -> dict:
    """Which cards of a deck list (the ``text/plain`` body) a collection has and which it still
    needs, as ``cardlab deck have``: ``cards`` (id, name, need, own, missing), ``need``,
    ``missing``, ``complete``. Read-only; an unknown collection owns nothing."""
    text = await deck_body(request)
    langs = langs_param(lang, site.languages)

    def have() -> dict:
        """Check the list, then compare the matched deck with the collection."""
        return decks.deck_have(site, decks.check_deck_text(site, text, "deck.txt", fmt, langs)["deck"], collection)

    return {"object": "deck_have", **await run_in_threadpool(have)}
