"""Collection pages: ``GET /collections`` (every player), ``GET /collection/<name>`` (one player's
cards, counts per printing, searched with the query language scoped to owned cards, and the
have/need of a saved or pasted deck: ``?deck=<id>`` or ``POST /collection/<name>/have``), and the
writes ``POST /collection/<name>/change`` (add or remove) and ``/collection/<name>/import`` (a CSV
file, as ``cardlab collection import``), which need the server's write token (403 without it,
nothing written)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Cookie, Depends, File, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from cardlab.core.errors import CardlabError
from cardlab.core.l10n import _
from cardlab.web import saved as builder
from cardlab.web.collections import collection_change, collection_counts, collection_import, collection_names
from cardlab.web.decks import check_deck_text, deck_have
from cardlab.web.errors import WebError, web_error
from cardlab.web.forms import check_page, form_body
from cardlab.web.limits import PER_PAGE
from cardlab.web.state import Site, SiteDep
from cardlab.web.views import page

router = APIRouter(include_in_schema=False)

TokenCookie = Cookie(None, alias=builder.TOKEN_COOKIE)


@router.get("/collections", response_class=HTMLResponse)
def collections_page(request: Request) -> HTMLResponse:
    """``/collections``: every collection (a player with at least one card), each a link."""
    return page(request, "collections.html", title=_("Collections") + " · cardlab", names=collection_names())


@router.get("/collections/go")
def collection_go(name: str = "") -> RedirectResponse:
    """``/collections/go?name=``: the collections page's "open" form, to ``/collection/<name>``."""
    return RedirectResponse(f"/collection/{quote(name.strip() or '-', safe='')}", status_code=303)


def collection_view(site: Site, name: str, q: str, page_: int, deck_text: str | None) -> dict[str, Any]:
    """One page of a collection (``q`` keeps the owned cards matching a search query) and, with
    ``deck_text``, that deck's have/need against it (:func:`cardlab.web.decks.deck_have`)."""
    from cardlab.collection import listing

    who, owned = collection_counts(name)
    try:
        rows = listing.list_owned(site.con(), owned, q)
    except CardlabError as err:
        raise web_error(err) from None
    start = (page_ - 1) * PER_PAGE
    have = None
    if deck_text:
        deck = check_deck_text(site, deck_text, "deck.txt", None, ())["deck"]
        have = deck_have(site, deck, who)
    return {
        "who": who,
        "rows": rows[start : start + PER_PAGE],
        "total_cards": len(rows),
        "total_copies": sum(r.copies for r in rows),
        "pages": max(1, -(-len(rows) // PER_PAGE)),
        "have": have,
    }


async def render(request: Request, site: Site, name: str, q: str, page_: int, deck: str, text: str | None = None, **extra: Any) -> Response:
    """The collection page (its check in a worker thread); a bad query is shown with its message (400)."""
    from cardlab.collection import saved

    check_page(page_)
    deck_text = text
    if deck and not text:
        deck_text = (await run_in_threadpool(builder.saved_deck, deck)).text
    status = extra.pop("status_override", 200)
    context: dict[str, Any] = {
        "title": f"{name} · {_('collection')} · cardlab",
        "q": q,
        "page": page_,
        "deck": deck,
        "text": text or "",
        **extra,
    }
    try:
        view = await run_in_threadpool(collection_view, site, name, q, page_, deck_text)
    except WebError as err:
        if err.code == "bad_name":
            raise
        view = await run_in_threadpool(collection_view, site, name, "", 1, None)
        context["error"], status = err, err.status
    decks = await run_in_threadpool(lambda: _saved_decks(saved))
    base = f"/collection/{quote(view['who'], safe='')}"
    link = lambda n: f"{base}?{urlencode({k: v for k, v in {'q': q, 'deck': deck, 'page': n}.items() if v})}"  # noqa: E731
    return page(request, "collection.html", status, **context, **view, decks=decks, base=base, link=link)


def _saved_decks(saved: Any) -> list:
    from cardlab.web.collections import open_collections

    database = open_collections()
    try:
        return saved.saved(database, limit=100)
    finally:
        if database is not None:
            database.close()


@router.get("/collection/{name}", response_class=HTMLResponse)
async def collection_page(
    request: Request, site: SiteDep, name: str, q: str = "", page_: int = Query(1, alias="page"), deck: str = ""
) -> Response:
    """``/collection/<name>?q=&page=&deck=``: the player's cards with their counts per printing, 50 a page,
    searched with the query language; with ``deck`` (a saved deck's id) what the deck has and needs."""
    return await render(request, site, name, q, page_, deck)


@router.post("/collection/{name}/have", response_class=HTMLResponse, dependencies=[Depends(form_body)])
async def collection_have(request: Request, site: SiteDep, name: str, text: str = Form(""), deck: str = Form("")) -> Response:
    """``POST /collection/<name>/have``: a pasted deck list (or a saved deck's id) against the collection."""
    return await render(request, site, name, "", 1, deck, text or None)


@router.post("/collection/{name}/change", dependencies=[Depends(form_body)])
async def collection_change_page(
    site: SiteDep,
    name: str,
    card: str = Form(...),
    count: int = Form(1),
    op: str = Form("add"),
    token: str = Form(""),
    token_cookie: str | None = TokenCookie,
) -> Response:
    """``POST /collection/<name>/change``: add or remove ``count`` copies of ``card`` (``op`` add or
    remove), with the write token (403 without it, nothing written); 303 back to the collection."""
    if op not in ("add", "remove"):
        raise WebError(400, "bad_parameter", "op: add or remove")
    builder.page_write_access(site, token or token_cookie)
    done = await run_in_threadpool(collection_change, site, name, op, {"card": card, "count": count})
    response = RedirectResponse(f"/collection/{quote(done['collection'], safe='')}?changed={quote(done['card'])}", status_code=303)
    if token and site.token is not None:
        response.set_cookie(builder.TOKEN_COOKIE, token, httponly=True, samesite="strict", path="/")
    return response


@router.post("/collection/{name}/import", response_class=HTMLResponse, dependencies=[Depends(form_body)])
async def collection_import_page(
    request: Request,
    site: SiteDep,
    name: str,
    upload: UploadFile = File(..., alias="file"),
    replace: bool = Form(False),
    token: str = Form(""),
    token_cookie: str | None = TokenCookie,
) -> Response:
    """``POST /collection/<name>/import``: a CSV file (``card_id,count``, ``set,number,count`` or
    ``name,count``), imported all or nothing as ``cardlab collection import``, with the write token."""
    from cardlab.web.limits import MAX_DECK_TEXT

    builder.page_write_access(site, token or token_cookie)
    raw = await upload.read(MAX_DECK_TEXT + 1)
    try:
        report = await run_in_threadpool(collection_import, site, name, upload.filename or "collection.csv", raw, replace)
    except WebError as err:
        return await render(request, site, name, "", 1, "", None, import_error=err, status_override=err.status)
    return await render(request, site, name, "", 1, "", None, imported=report)
