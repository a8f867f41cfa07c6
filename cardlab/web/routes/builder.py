"""The deck builder: ``GET /build`` (the deck being built: verdicts, the list by section with counts to
edit, exact odds, a sample hand, the exports), ``POST /build/add`` (from search results and card pages),
``/build/set``, ``/build/import``, ``/build/clear``, ``/build/save``, and the downloads
``GET /build/export.<dialect>`` and ``/build/proxies.pdf``.

Plain forms that work without JavaScript: each write answers 303 to the page to show next and keeps
the deck in a cookie (:class:`cardlab.web.saved.Draft`). ``static/builder.js`` only lets "add" stay on
the page (``Accept: application/json``: the answer is the deck's size instead of a redirect).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Cookie, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from cardlab.core.l10n import _
from cardlab.web import saved as builder
from cardlab.web.errors import WebError
from cardlab.web.forms import check_card_id, form_body, page_langs
from cardlab.web.state import Site, SiteDep
from cardlab.web.views import page

router = APIRouter(include_in_schema=False)

DraftCookie = Cookie(None, alias=builder.COOKIE)
TokenCookie = Cookie(None, alias=builder.TOKEN_COOKIE)
FormatQuery = Query("", alias="format")


def local_path(back: str, default: str = "/build") -> str:
    """``back`` when it is a path on this site (``/search?q=...``), else ``default`` (never another host)."""
    if back.startswith("/") and not back.startswith("//") and "\\" not in back and all(31 < ord(c) < 127 for c in back):
        return back
    return default


def build_link(fmt: str = "", seed: int = 1, **extra: Any) -> str:
    """The builder page's URL for a format and a sample hand seed."""
    params = {"format": fmt, "seed": seed if seed != 1 else "", **extra}
    query = urlencode({k: v for k, v in params.items() if v not in ("", None)})
    return "/build" + (f"?{query}" if query else "")


def builder_page(
    request: Request, site: Site, draft: builder.Draft, fmt: str, seed: int, status: int = 200, **context: Any
) -> HTMLResponse:
    """Render ``build.html`` for ``draft`` (the check runs here: call it from a worker thread)."""
    langs = page_langs(context.pop("lang", ""), site.languages)
    try:
        result = builder.builder_view(site, draft, fmt or None, langs, seed)
    except WebError as err:
        result, context["error"] = None, err
        status = err.status if status == 200 else status
    return page(
        request,
        "build.html",
        status,
        title=_("Deck builder") + " · cardlab",
        draft=draft,
        result=result,
        format_name=fmt,
        seed=seed,
        **context,
    )


@router.get("/build", response_class=HTMLResponse)
async def build_page(
    request: Request, site: SiteDep, fmt: str = FormatQuery, seed: int = 1, draft_cookie: str | None = DraftCookie
) -> HTMLResponse:
    """``GET /build?format=&seed=``: the deck being built, checked against ``format`` (every format of its game when empty)."""
    draft = builder.Draft.from_cookie(draft_cookie)
    return await run_in_threadpool(builder_page, request, site, draft, fmt, seed)


def wants_json(request: Request) -> bool:
    """The builder's script asks for JSON (``Accept: application/json``) to stay on the page."""
    return "application/json" in request.headers.get("accept", "")


@router.post("/build/add", dependencies=[Depends(form_body)])
async def build_add(
    request: Request,
    site: SiteDep,
    card: str = Form(...),
    count: int = Form(1),
    back: str = Form("/build"),
    draft_cookie: str | None = DraftCookie,
) -> Response:
    """``POST /build/add``: ``count`` more copies of ``card`` (an id, or a reference as ``cardlab
    collection add`` takes it: ``Bill BS 91``); 303 back to ``back`` (a path on this site); 404 for an
    unknown card, with suggestions."""
    draft = builder.Draft.from_cookie(draft_cookie)
    card_id, message = site.resolver().resolve(card)
    if card_id is None:
        raise WebError(404, "not_found", message)
    draft.set(check_card_id(card_id), draft.cards.get(card_id, 0) + max(0, count))
    if wants_json(request):
        name = site.catalog.name_of(card_id, ())
        return builder.with_draft(JSONResponse({"card": card_id, "name": name, "count": draft.cards[card_id], "total": draft.total}), draft)
    return builder.with_draft(RedirectResponse(local_path(back), status_code=303), draft)


@router.post("/build/set", dependencies=[Depends(form_body)])
def build_set(
    card: str = Form(...), count: int = Form(...), fmt: str = Form("", alias="format"), draft_cookie: str | None = DraftCookie
) -> Response:
    """``POST /build/set``: set a card's copies (0 removes it); 303 to the builder."""
    draft = builder.Draft.from_cookie(draft_cookie)
    draft.set(check_card_id(card), count)
    return builder.with_draft(RedirectResponse(build_link(fmt) + "#list", status_code=303), draft)


@router.post("/build/clear")
def build_clear() -> Response:
    """``POST /build/clear``: start a new deck (the one being built is dropped; a saved deck stays saved)."""
    return builder.with_draft(RedirectResponse("/build", status_code=303), builder.Draft())


@router.post("/build/import", response_class=HTMLResponse, dependencies=[Depends(form_body)])
async def build_import(request: Request, site: SiteDep, text: str = Form(""), fmt: str = Form("", alias="format")) -> Response:
    """``POST /build/import``: a pasted list becomes the deck being built (each line matched as the deck
    check matches it); the builder is shown with the lines that matched no card."""
    langs = page_langs("", site.languages)
    try:
        draft, notes = await run_in_threadpool(builder.import_list, site, text, fmt or None, langs)
    except WebError as err:
        return await run_in_threadpool(builder_page, request, site, builder.Draft(), fmt, 1, err.status, import_text=text, import_error=err)
    response = await run_in_threadpool(builder_page, request, site, draft, fmt, 1, 200, notes=notes)
    return builder.with_draft(response, draft)


@router.post("/build/save", dependencies=[Depends(form_body)])
async def build_save(
    request: Request,
    site: SiteDep,
    name: str = Form(""),
    fmt: str = Form("", alias="format"),
    token: str = Form(""),
    draft_cookie: str | None = DraftCookie,
    token_cookie: str | None = TokenCookie,
) -> Response:
    """``POST /build/save``: save the deck (a new permalink) or, for an edit of a saved deck, write it
    over that deck when no one else saved it since (409 ``version_conflict`` otherwise, nothing
    written); needs the server's write token (403 without it, nothing written). 303 to ``/d/<id>``."""
    given = token or token_cookie
    builder.page_write_access(site, given)
    draft = builder.Draft.from_cookie(draft_cookie)
    langs = page_langs("", site.languages)
    try:
        record = await run_in_threadpool(builder.save_draft, site, draft, name or None, fmt or None, langs)
    except WebError as err:
        if err.status != 409:
            raise
        return await run_in_threadpool(builder_page, request, site, draft, fmt, 1, 409, conflict=err)
    draft.deck_id, draft.version = record.id, record.version  # further saves edit the deck just saved
    response = builder.with_draft(RedirectResponse(f"/d/{record.id}", status_code=303), draft)
    if token and site.token is not None:
        response.set_cookie(builder.TOKEN_COOKIE, token, httponly=True, samesite="strict", path="/")
    return response


@router.get("/build/export.{dialect}")
async def build_export(site: SiteDep, dialect: str, fmt: str = FormatQuery, draft_cookie: str | None = DraftCookie) -> Response:
    """``GET /build/export.<dialect>``: the deck being built as ptcgl, limitless, tcgone, cardlab (text) or json."""
    draft = builder.Draft.from_cookie(draft_cookie)
    if not draft.cards:
        raise WebError(400, "empty_deck", "the deck is empty: add cards before exporting")
    body, suffix = await run_in_threadpool(builder.export, site, draft.text(), dialect, fmt or None, ())
    return builder.download(body, f"deck-{dialect}.{suffix}")


@router.get("/build/proxies.pdf")
async def build_proxies(
    site: SiteDep, fmt: str = FormatQuery, paper: str = "a4", force: bool = False, draft_cookie: str | None = DraftCookie
) -> Response:
    """``GET /build/proxies.pdf``: the deck being built as proxies (:func:`cardlab.web.decks.proxies_pdf`)."""
    from cardlab.web.decks import proxies_pdf

    draft = builder.Draft.from_cookie(draft_cookie)
    data = await run_in_threadpool(proxies_pdf, site, draft.text(), "deck.txt", fmt or None, (), paper, force)
    return Response(data, media_type="application/pdf", headers={"content-disposition": 'attachment; filename="deck-proxies.pdf"'})
