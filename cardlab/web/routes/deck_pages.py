"""The deck page: ``GET /deck`` (the form), ``POST /deck`` (the check), and the form's downloads
``POST /deck/export.txt``, ``/deck/export.json`` and ``/deck/proxies.pdf``. Every check runs in a
worker thread (:func:`starlette.concurrency.run_in_threadpool`): a check takes time."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardlab.core.l10n import _
from cardlab.web import decks
from cardlab.web.collections import collection_choices
from cardlab.web.errors import WebError
from cardlab.web.forms import form_body, page_langs, read_deck_form, safe_filename
from cardlab.web.state import SiteDep
from cardlab.web.views import page

router = APIRouter(include_in_schema=False)


@router.get("/deck", response_class=HTMLResponse)
def deck_form(request: Request) -> HTMLResponse:
    """``GET /deck``: the empty deck form (with a collection to compare with, when collections exist)."""
    return page(
        request,
        "deck.html",
        title=_("Deck check") + " · cardlab",
        text="",
        format_name="",
        seed=1,
        lang="",
        result=None,
        collection="",
        **collection_choices(),
    )


@router.post("/deck", response_class=HTMLResponse, dependencies=[Depends(form_body)])
async def deck_page(
    request: Request,
    site: SiteDep,
    text: str = Form(""),
    fmt: str = Form("", alias="format"),
    seed: int = Form(1),
    lang: str = Form(""),
    collection: str = Form(""),
    upload: UploadFile | None = File(None, alias="file"),
) -> HTMLResponse:
    """``POST /deck``: check the pasted or uploaded list (:func:`cardlab.web.decks.deck_view`) and show the
    verdicts, each problem beside its line, statistics, a sample hand for ``seed``, the export buttons
    and, with ``collection``, what that collection has and needs."""
    langs = page_langs(lang, site.languages)
    content, name = await read_deck_form(text, upload)
    context: dict[str, Any] = {
        "title": _("Deck check") + " · cardlab",
        "text": content,
        "format_name": fmt,
        "seed": seed,
        "lang": lang,
        "collection": collection,
    }
    try:
        context.update(await run_in_threadpool(collection_choices))
        result = await run_in_threadpool(decks.deck_view, site, content, name, fmt or None, langs, seed, collection or None)
    except WebError as err:
        return page(request, "deck.html", err.status, **context, result=None, error=err)
    return page(request, "deck.html", **context, result=result)


@router.post("/deck/export.{kind}", dependencies=[Depends(form_body)])
async def deck_export(
    kind: str,
    site: SiteDep,
    text: str = Form(""),
    fmt: str = Form("", alias="format"),
    lang: str = Form(""),
    upload: UploadFile | None = File(None, alias="file"),
) -> Response:
    """``POST /deck/export.txt`` (a plain-text list that reads back) or ``/deck/export.json``: the
    matched deck as a download; 404 for any other kind."""
    from cardlab.decks.check import export_json, export_text

    if kind not in ("txt", "json"):
        raise StarletteHTTPException(404)
    content, name = await read_deck_form(text, upload)
    langs = page_langs(lang, site.languages)

    def export() -> Any:
        """Check the list and export the matched deck (in a worker thread: a check takes time)."""
        deck = decks.check_deck_text(site, content, name, fmt or None, langs)["deck"]
        return (export_json if kind == "json" else export_text)(deck, langs, site.source_of)

    body = await run_in_threadpool(export)
    disposition = {"content-disposition": f'attachment; filename="{safe_filename(name)}.{kind}"'}
    if kind == "json":
        return JSONResponse(body, headers=disposition)
    return Response(body, media_type="text/plain; charset=utf-8", headers=disposition)


@router.post("/deck/proxies.pdf", dependencies=[Depends(form_body)])
async def deck_proxies(
    site: SiteDep,
    text: str = Form(""),
    fmt: str = Form("", alias="format"),
    lang: str = Form(""),
    paper: str = Form("a4"),
    force: bool = Form(False),
    upload: UploadFile | None = File(None, alias="file"),
) -> Response:
    """``POST /deck/proxies.pdf``: the deck's proxies on ``paper`` (:func:`cardlab.web.decks.proxies_pdf`),
    a download; 400 when the deck has problems unless ``force``."""
    content, name = await read_deck_form(text, upload)
    langs = page_langs(lang, site.languages)
    data = await run_in_threadpool(decks.proxies_pdf, site, content, name, fmt or None, langs, paper, force)
    return Response(
        data, media_type="application/pdf", headers={"content-disposition": f'attachment; filename="{safe_filename(name)}-proxies.pdf"'}
    )
