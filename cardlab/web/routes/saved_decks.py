"""Saved decks: the permalink page ``GET /d/<id>`` (anyone with the link), its downloads
``/d/<id>/export.<dialect>`` and ``/d/<id>/proxies.pdf``, ``POST /d/<id>/copy`` (into the builder, a
new deck) and ``POST /d/<id>/edit`` (into the builder as an edit of this deck: saving it needs the
write token and the version check); ``GET /decks`` lists the saved decks. The JSON API:
``GET /api/saved-decks/<id>``, ``POST /api/saved-decks`` and ``PUT /api/saved-decks/<id>`` (Bearer token,
``version``: 409 when someone saved since)."""

from __future__ import annotations

from typing import cast

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from cardlab.core.errors import CardlabError
from cardlab.core.l10n import _
from cardlab.web import saved as builder
from cardlab.web.collections import check_write_access, open_collections, write_database
from cardlab.web.errors import WebError, web_error
from cardlab.web.forms import form_body, page_langs
from cardlab.web.state import SiteDep
from cardlab.web.views import page

router = APIRouter()

FormatQuery = Query("", alias="format")
bearer = HTTPBearer(auto_error=False, description="The token of cardlab serve --allow-writes (CARDLAB_SERVE_TOKEN or --token-file).")


@router.get("/d/{deck_id}", response_class=HTMLResponse, include_in_schema=False)
async def saved_page(request: Request, site: SiteDep, deck_id: str, fmt: str = FormatQuery, seed: int = 1, lang: str = "") -> HTMLResponse:
    """``/d/<id>``: a saved deck: verdicts (its format, or ``format``), the list by section, exact odds, a
    sample hand, downloads, and buttons to copy it into the builder or edit it; 404 (a page with the
    search) for an id no deck has."""
    langs = page_langs(lang, site.languages)
    record = await run_in_threadpool(builder.saved_deck, deck_id)
    result = await run_in_threadpool(builder.saved_view, site, record, fmt or None, langs, seed)
    title = f"{record.name or _('Deck {id}').replace('{id}', record.id)} · cardlab"
    return page(request, "saved.html", title=title, record=record, result=result, format_name=fmt, seed=seed, lang=lang)


@router.get("/d/{deck_id}/export.{dialect}", include_in_schema=False)
async def saved_export(site: SiteDep, deck_id: str, dialect: str, fmt: str = FormatQuery) -> Response:
    """``/d/<id>/export.<dialect>``: the saved deck as ptcgl, limitless, tcgone, cardlab (text) or json."""
    record = await run_in_threadpool(builder.saved_deck, deck_id)
    body, suffix = await run_in_threadpool(builder.export, site, record.text, dialect, fmt or None, ())
    return builder.download(body, f"{deck_id}-{dialect}.{suffix}")


@router.get("/d/{deck_id}/proxies.pdf", include_in_schema=False)
async def saved_proxies(site: SiteDep, deck_id: str, paper: str = "a4", force: bool = False) -> Response:
    """``/d/<id>/proxies.pdf``: the saved deck's proxies (:func:`cardlab.web.decks.proxies_pdf`)."""
    from cardlab.web.decks import proxies_pdf

    record = await run_in_threadpool(builder.saved_deck, deck_id)
    data = await run_in_threadpool(proxies_pdf, site, record.text, "deck.txt", None, (), paper, force)
    return Response(data, media_type="application/pdf", headers={"content-disposition": f'attachment; filename="{deck_id}-proxies.pdf"'})


@router.post("/d/{deck_id}/copy", dependencies=[Depends(form_body)], include_in_schema=False)
async def saved_copy(site: SiteDep, deck_id: str) -> Response:
    """``POST /d/<id>/copy``: the saved deck's cards become the deck being built, a new deck (saving it
    makes another permalink); 303 to the builder."""
    record = await run_in_threadpool(builder.saved_deck, deck_id)
    draft = await run_in_threadpool(builder.draft_of, site, record, False)
    return builder.with_draft(RedirectResponse(f"/build?format={record.format or ''}", status_code=303), draft)


@router.post("/d/{deck_id}/edit", dependencies=[Depends(form_body)], include_in_schema=False)
async def saved_edit(site: SiteDep, deck_id: str) -> Response:
    """``POST /d/<id>/edit``: the saved deck into the builder as an edit of it, at its current version
    (saving writes over it, with the write token, unless someone saved it since); 303 to the builder."""
    record = await run_in_threadpool(builder.saved_deck, deck_id)
    draft = await run_in_threadpool(builder.draft_of, site, record, True)
    return builder.with_draft(RedirectResponse(f"/build?format={record.format or ''}", status_code=303), draft)


@router.get("/decks", response_class=HTMLResponse, include_in_schema=False)
def saved_list(request: Request) -> HTMLResponse:
    """``/decks``: the saved decks, the most recently changed first (at most 200)."""
    from cardlab.collection import saved

    database = open_collections()
    try:
        decks = saved.saved(database, limit=200)
    finally:
        if database is not None:
            database.close()
    return page(request, "decks.html", title=_("Saved decks") + " · cardlab", decks=decks)


@router.get("/api/saved-decks/{deck_id}", tags=["saved decks"])
def api_saved_deck(deck_id: str) -> dict:
    """A saved deck: id, name, format, cards, version, created, updated and its list as ``text``; 404 for an unknown id."""
    return {"object": "saved_deck", **builder.saved_deck(deck_id).to_json()}


def api_write(site: SiteDep, request_body: dict, deck_id: str | None) -> dict:
    """Save (``deck_id`` None) or edit a deck from a JSON body ``{"text", "name"?, "version" (edits)}``
    (the caller checked the write token)."""
    from cardlab.collection import saved

    text, name, version = request_body.get("text"), request_body.get("name"), request_body.get("version")
    if not isinstance(text, str) or (name is not None and not isinstance(name, str)):
        raise WebError(400, "bad_body", 'send {"text": "<deck list>", "name": "<name>"} (and "version": N to edit)')
    if deck_id is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise WebError(400, "bad_body", 'an edit sends the "version" it was made from (an integer)')
    database = write_database()
    try:
        if deck_id is None:
            record = saved.save(database, text, name)
        else:
            record = saved.update(database, deck_id, text, cast(int, version), name)  # an int: checked above
    except saved.VersionConflictError as err:
        raise WebError(409, "version_conflict", str(err), current_version=err.current.version) from None
    except saved.SavedDeckNotFoundError as err:
        raise WebError(404, "not_found", str(err)) from None
    except saved.DeckTooLargeError as err:
        raise WebError(413, "too_large", str(err)) from None
    except CardlabError as err:
        raise web_error(err) from None
    return {"object": "saved_deck", **record.to_json()}


async def read_body(request: Request) -> dict:
    """The JSON object of a saved deck write (at most the web's deck size, :data:`~cardlab.web.limits.MAX_BODY`)."""
    import json

    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise WebError(415, "unsupported_media_type", "send a JSON object as application/json")
    try:
        body = json.loads(await request.body())
    except (ValueError, RecursionError):
        raise WebError(400, "bad_json", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise WebError(400, "bad_body", "send a JSON object")
    return body


@router.post("/api/saved-decks", tags=["saved decks"], status_code=201)
async def api_save_deck(request: Request, site: SiteDep, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict:
    """Save a deck list ``{"text", "name"?}`` under a new id (Bearer token as collection writes: 403/401 without)."""
    check_write_access(site, credentials.credentials if credentials else None)
    body = await read_body(request)
    return await run_in_threadpool(api_write, site, body, None)


@router.put("/api/saved-decks/{deck_id}", tags=["saved decks"])
async def api_edit_deck(
    request: Request, site: SiteDep, deck_id: str, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)
) -> dict:
    """Replace a saved deck's list ``{"text", "name"?, "version"}``: written only when the deck is still at
    ``version`` (409 ``version_conflict`` with ``current_version`` otherwise, nothing written)."""
    check_write_access(site, credentials.credentials if credentials else None)
    body = await read_body(request)
    return await run_in_threadpool(api_write, site, body, deck_id)
