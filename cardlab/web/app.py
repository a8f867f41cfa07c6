"""The web page and JSON API of ``cardlab serve``: FastAPI routes and Jinja2 templates over the library.

Every answer comes from the library (:mod:`cardlab.search.engine`, :mod:`cardlab.search.query`,
:mod:`cardlab.decks.check`, :mod:`cardlab.decks.stats`, :mod:`cardlab.decks.rules`,
:mod:`cardlab.proxies.pdf`, :mod:`cardlab.contrib.new_card`); this module only reads requests and
shapes pages and JSON. Pages are server-rendered HTML that needs no JavaScript.

- Pages: ``/search`` (and ``/search/help``), ``/card/<id>``, ``/deck`` (POST: check; ``/deck/export.txt``,
  ``/deck/export.json``, ``/deck/proxies.pdf``), ``/sets``.
- API (Scryfall-like): ``/api/cards/search``, ``/api/cards/<id>``, ``/api/sets``,
  ``POST /api/decks/validate``; ``/api/openapi.json`` describes it. Errors are JSON objects
  ``{"object": "error", "status", "code", "details", ...}``.
- Read-only: there is no write endpoint (collections do not exist yet).

The catalog and formats are loaded once when the app is created; the index is opened read-only, one
connection per worker thread. A catalog edited while serving is seen after a restart.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardlab.core.errors import CardlabError, InputError, UsageError
from cardlab.web.guard import Guard

HERE = Path(__file__).resolve().parent
PER_PAGE = 50
"""Cards per page of results (pages and API)."""
SEARCH_TIMEOUT = 2.0
"""Seconds a search may run before it is cut off (a ``query_timeout`` error)."""
MAX_DECK_TEXT = 128 * 1024
"""Largest deck list the web takes, pasted, uploaded or sent to the API (128 kB, over a hundred times a
60-card list; ``cardlab deck`` reads files up to :data:`~cardlab.decks.model.MAX_DECK_BYTES`, 1 MB). A
hostile 1 MB list of 66,000 unknown names takes about 6 s to check on the development machine; 128 kB
bounds a request to under a second."""
MAX_BODY = MAX_DECK_TEXT + 16 * 1024
"""Largest request body accepted: a deck list at its size limit plus form overhead."""
MAX_PAGE = 10_000
"""Highest page number accepted."""
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A card id as the URL gives it: letters, digits, ``-`` and ``_`` (no dot, no slash, at most 64)."""
FILENAME_PATTERN = re.compile(r"[^A-Za-z0-9_-]+")


class WebError(Exception):
    """An error to answer with: ``status`` (HTTP), ``code`` (stable id), ``details`` (words) and
    ``extra`` fields for the JSON object (``column`` of a query error...)."""

    def __init__(self, status: int, code: str, details: str, **extra: Any) -> None:
        super().__init__(details)
        self.status, self.code, self.details, self.extra = status, code, details, extra

    def to_json(self) -> dict[str, Any]:
        """Return the JSON error object: ``{"object": "error", "status", "code", "details", **extra}``."""
        return {"object": "error", "status": self.status, "code": self.code, "details": self.details, **self.extra}


def web_error(err: CardlabError) -> WebError:
    """Map a library error to the :class:`WebError` to answer with (status, code, details)."""
    from cardlab.search.engine import AmbiguousCardError, CardNotFoundError, QueryTimeoutError
    from cardlab.search.query import QueryError

    if isinstance(err, QueryError):
        return WebError(400, "bad_query", err.reason, column=err.pos + 1, query=err.query, caret=err.caret())
    if isinstance(err, QueryTimeoutError):
        return WebError(400, "query_timeout", str(err), seconds=err.seconds)
    if isinstance(err, CardNotFoundError):
        return WebError(404, "not_found", str(err), suggestions=err.suggestions)
    if isinstance(err, AmbiguousCardError):
        return WebError(400, "ambiguous", str(err), choices=[c[0] for c in err.choices])
    if isinstance(err, InputError):
        return WebError(400, "bad_deck", str(err))
    if isinstance(err, UsageError):
        return WebError(400, "bad_request", str(err))
    return WebError(500, "catalog_error", str(err))


class Site:
    """What the routes share: the catalog and formats (loaded once), the card indexes deck lines are
    matched with (built once per game and languages), the search index (one read-only connection per
    thread), the search time limit.

    Args:
        roots: catalog roots; db: the index file (built or refreshed here when stale).
        search_timeout: seconds a search may run.

    Raises:
        CatalogError: the catalog does not validate.
    """

    def __init__(self, roots: list[Path], db: Path | str, search_timeout: float = SEARCH_TIMEOUT) -> None:
        from cardlab.catalog.index import ensure_index
        from cardlab.catalog.validate import validate
        from cardlab.core.errors import CatalogError
        from cardlab.decks.check import header_words
        from cardlab.search.engine import languages

        result = validate(list(roots))
        if result.problems:
            raise CatalogError(result.problems)
        ensure_index(list(roots), db)
        self.roots, self.db, self.search_timeout = list(roots), db, search_timeout
        self.catalog = result.catalog
        self.formats = dict(sorted(result.formats.items()))
        self.header_words = header_words(self.formats)
        self.indexes: dict = {}  # card indexes per game and languages, built once (decks.check.card_index)
        self._local = threading.local()
        self.languages = languages(self.con())

    def con(self):  # noqa: ANN201 - sqlite3.Connection
        """Return this thread's read-only index connection (opened on first use)."""
        con = getattr(self._local, "con", None)
        if con is None:
            from cardlab.catalog.index import connect

            con = self._local.con = connect(self.db)
        return con

    def source_of(self, card_id: str) -> str:
        """Return the source language of a card's set."""
        return self.catalog.set_of(card_id).source_language


def langs_param(lang: str | None) -> list[str]:
    """Return the languages a ``lang`` parameter asks for (``fr`` or ``fr,de``), at most 8 of 2-8 letters each.

    Raises:
        WebError: a malformed language list (400 ``bad_parameter``).
    """
    langs = [x.strip() for x in (lang or "").split(",") if x.strip()]
    if len(langs) > 8 or any(not re.fullmatch(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})?", x) for x in langs):
        raise WebError(400, "bad_parameter", f"lang: a language code or a comma-separated list, such as fr or fr,de (got {lang!r})")
    return langs


def check_card_id(card_id: str) -> str:
    """Return ``card_id`` when it has the shape of an id (:data:`ID_PATTERN`).

    Raises:
        WebError: 400 ``bad_id`` otherwise (``../``, slashes, dots, control characters, too long).
    """
    if not ID_PATTERN.fullmatch(card_id):
        raise WebError(400, "bad_id", "a card id holds only letters, digits, '-' and '_' (such as base1-4)")
    return card_id


def safe_filename(name: str | None, default: str = "deck") -> str:
    """Return a download file name stem made of letters, digits, ``-`` and ``_`` only (at most 60)."""
    stem = FILENAME_PATTERN.sub("-", Path(name or "").stem).strip("-")[:60]
    return stem or default


# --- searches -------------------------------------------------------------------------------


def run_search(site: Site, q: str, sort: str, reverse: bool, langs: Sequence[str], page: int) -> tuple[int, list]:
    """Return ``(total, hits of the page)`` for a query (library :func:`cardlab.search.engine.search_page`).

    Raises:
        WebError: a bad query (with its column), a query cut off by the time limit, a bad sort or page.
    """
    from cardlab.search import engine

    if page < 1 or page > MAX_PAGE:
        raise WebError(400, "bad_parameter", f"page: a number from 1 to {MAX_PAGE}")
    try:
        total, hits = engine.search_page(
            site.con(),
            q,
            langs=list(langs),
            sort=sort,
            reverse=reverse,
            limit=PER_PAGE,
            offset=(page - 1) * PER_PAGE,
            timeout=site.search_timeout,
        )
    except CardlabError as err:
        raise web_error(err) from None
    return total, hits


def card_json(site: Site, view, langs: Sequence[str]) -> dict[str, Any]:  # noqa: ANN001 - engine.CardView
    """Return a card as the API gives it: id, game, names, set, the card's data as in its file,
    every printing and its legality in every format of its game."""
    from cardlab.core.text import pick
    from cardlab.decks.rules import card_legality

    src = view.set_data.get("source_language", "en")
    data = view.data
    return {
        "object": "card",
        "id": view.id,
        "game": view.game,
        "name": pick(data.get("name"), list(langs), src),
        "names": {k: v for k, v in data.get("name", {}).items() if k != "_source"},
        "set": {
            "code": view.set_data.get("code"),
            "name": pick(view.set_data.get("name"), list(langs), src),
            "printed_total": view.set_data.get("printed_total"),
        },
        "number": data.get("number"),
        "source_language": src,
        "printings": [{"id": i, "set": s, "number": n, "rarity": r} for i, s, n, r in view.printings],
        "legalities": {
            f.name: ("legal" if ok else "not_legal")
            for f, ok, _why in card_legality(
                site.catalog.card_set.get(view.id, ""), [f for f in site.formats.values() if f.game == view.game]
            )
        },
        "data": data,
    }


# --- decks ----------------------------------------------------------------------------------


def check_deck_text(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str]) -> dict[str, Any]:
    """Check a pasted deck list: against ``format_name``, else against every format of its game.

    Args:
        site: the loaded catalog and formats; text: the deck list; name: its file name (``.yaml``
            reads it as YAML); format_name: a format or None; langs: languages of card names.

    Returns:
        ``{"deck": the matched Deck (the named format's, else the best fit's), "reports": [DeckReport, ...],
        "notes": [...], "list": the DeckList}``.

    Raises:
        WebError: the text cannot be read as a deck (400 ``bad_deck``), an unknown format (400 ``bad_request``),
            a list over :data:`MAX_DECK_TEXT` (413 ``too_large``).
    """
    from cardlab.decks import check as decks
    from cardlab.decks.read import parse_deck_text

    if len(text.encode("utf-8", "surrogatepass")) > MAX_DECK_TEXT:
        raise WebError(413, "too_large", f"the deck list is larger than {MAX_DECK_TEXT:,} bytes")
    try:
        deck_list = parse_deck_text(text, name, site.header_words)
        if format_name:
            deck, problems, notes = decks.choose_format(deck_list, site.catalog, site.formats, format_name, langs, site.indexes)
            reports = [decks.DeckReport(deck, sorted(problems))]
        else:
            every = decks.legality(deck_list, site.catalog, site.formats, langs, site.indexes)
            reports = [decks.DeckReport(r.deck, r.problems) for r in every.results]
            deck, notes = every.best.deck, []
    except CardlabError as err:
        raise web_error(err) from None
    return {"deck": deck, "reports": reports, "notes": notes, "list": deck_list}


def card_view(site, card_id: str):  # noqa: ANN001, ANN201 - Site, search.engine.CardView
    """The card a ``/card/<id>`` or ``/api/cards/<id>`` path names (:func:`cardlab.search.engine.get_card`).

    Raises:
        WebError: a malformed id (400), an unknown card (404).
    """
    from cardlab.search.engine import get_card

    check_card_id(card_id)
    try:
        return get_card(site.con(), card_id)
    except CardlabError as err:
        raise web_error(err) from None


def report_json(report) -> dict[str, Any]:  # noqa: ANN001 - decks.check.DeckReport
    """Return a deck report as the API gives it (:meth:`DeckReport.to_json` without the server-side file name)."""
    data = report.to_json()
    data.pop("file", None)
    for p in data["problems"]:
        p.pop("path", None)
    return {"object": "deck_report", **data}


def lines_with_problems(text: str, reports: Sequence) -> tuple[list[dict[str, Any]], list]:
    """Pair each line of the pasted text with the problems reported at it.

    Returns:
        ``([{"number", "text", "problems": [(format name, Problem), ...]}, ...], problems at no line)``.
    """
    rows = [{"number": i, "text": line, "problems": []} for i, line in enumerate(text.splitlines(), start=1)]
    loose = []
    for report in reports:
        for p in report.problems:
            if 1 <= p.pos.line <= len(rows):
                rows[p.pos.line - 1]["problems"].append((report.deck.format.name, p))
            else:
                loose.append((report.deck.format.name, p))
    return rows, loose


async def read_deck_form(text: str, upload: UploadFile | None) -> tuple[str, str]:
    """Return ``(deck text, file name)`` from the deck form: the uploaded file when one was chosen
    (its name only tells YAML from text; nothing is written), else the pasted text.

    Raises:
        WebError: an upload that is too large or not UTF-8 text (400 ``bad_deck``).
    """
    if upload is not None and upload.filename:
        raw = await upload.read(MAX_DECK_TEXT + 1)
        if len(raw) > MAX_DECK_TEXT:
            raise WebError(413, "too_large", f"the deck file is larger than {MAX_DECK_TEXT:,} bytes")
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(400, "bad_deck", "the file is not UTF-8 text; a deck list is plain text") from None
        suffix = ".yaml" if upload.filename.lower().endswith((".yaml", ".yml")) else ".txt"
        return content, safe_filename(upload.filename) + suffix
    return text, "deck.txt"


# --- the app --------------------------------------------------------------------------------


def _templates() -> Jinja2Templates:
    """Jinja2 templates from ``templates/``, every one autoescaped."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return Jinja2Templates(env=env)


def create_app(roots: list[Path] | None = None, db: Path | str | None = None, search_timeout: float = SEARCH_TIMEOUT) -> Any:
    """Build the ASGI app (FastAPI wrapped in :class:`~cardlab.web.guard.Guard`).

    Args:
        roots: catalog roots (default: ``CARDLAB_CATALOG``, else the shipped cards);
        db: the index file (default: ``CARDLAB_DB``, else the one in the user cache);
        search_timeout: seconds a search may run.

    Returns:
        The ASGI app; its ``.app`` is the FastAPI instance and ``.site`` the :class:`Site`.

    Raises:
        CatalogError: the catalog does not validate.
    """
    from cardlab.core.paths import catalog_roots, default_db

    roots = catalog_roots(roots)
    site = Site(roots, default_db(roots, db), search_timeout)
    templates = _templates()
    api = FastAPI(
        title="cardlab",
        version=_version(),
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        description="Cards, sets and deck checks of the cardlab catalog (read-only). Errors are objects with status, code and details.",
    )
    api.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render the template ``name`` with ``context`` (plus ``site`` and a default title) and ``status``."""
        context.setdefault("title", "cardlab")
        return templates.TemplateResponse(request, name, {"site": site, **context}, status_code=status)

    def is_api(request: Request) -> bool:
        """True for a request under ``/api/`` (answered with JSON errors)."""
        return request.url.path.startswith("/api/")

    @api.exception_handler(WebError)
    async def _web_error(request: Request, err: WebError) -> Response:
        """Answer a :class:`WebError`: its JSON object under ``/api/``, else the error page, with its status."""
        if is_api(request):
            return JSONResponse(err.to_json(), status_code=err.status)
        return page(request, "error.html", err.status, error=err, title=f"{err.status} · cardlab")

    @api.exception_handler(RequestValidationError)
    async def _bad_parameter(request: Request, err: RequestValidationError) -> Response:
        """Answer FastAPI's parameter errors (``page=abc``) as 400 ``bad_parameter`` naming each parameter."""
        parts = [f"{'.'.join(str(x) for x in e.get('loc', ())[1:])}: {e.get('msg')}" for e in err.errors()]
        return await _web_error(request, WebError(400, "bad_parameter", "; ".join(parts) or "bad parameter"))

    @api.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, err: StarletteHTTPException) -> Response:
        """Answer routing errors (unknown path 404, wrong method 405) in the same error shape."""
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        details = "no such page" if err.status_code == 404 else str(err.detail)
        return await _web_error(request, WebError(err.status_code, code, details))

    # --- pages ---

    @api.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        """``/``: redirect to the search page."""
        return RedirectResponse("/search", status_code=302)

    @api.get("/search", response_class=HTMLResponse, include_in_schema=False)
    def search_page(
        request: Request, q: str = "", sort: str = "number", lang: str = "", page_: int = Query(1, alias="page"), reverse: bool = False
    ) -> HTMLResponse:
        """``/search``: the form; with ``q``, one page of results (``page``, ``sort``, ``reverse``, names in
        ``lang``), or the query error with its caret (400). Every result page is a permalink."""
        from cardlab.search.engine import SORTS

        langs = langs_param(lang)
        context: dict[str, Any] = {
            "q": q,
            "sort": sort,
            "lang": lang,
            "reverse": reverse,
            "sorts": list(SORTS),
            "title": f"{q} · cardlab" if q else "cardlab search",
        }
        if not q.strip():
            return page(request, "search.html", **context, searched=False)
        try:
            total, hits = run_search(site, q, sort, reverse, langs, page_)
        except WebError as err:
            return page(request, "search.html", err.status, **context, searched=False, error=err)
        pages = max(1, -(-total // PER_PAGE))

        def link(n: int, code: str | None = None) -> str:
            """The permalink of result page ``n`` (names in ``code``, default the current language)."""
            params = {"q": q, "sort": sort, "lang": lang if code is None else code, "page": n}
            if reverse:
                params["reverse"] = "true"
            return "/search?" + urlencode({k: v for k, v in params.items() if v not in ("", None)})

        return page(
            request,
            "search.html",
            **context,
            searched=True,
            total=total,
            hits=hits,
            page=page_,
            pages=pages,
            prev_link=link(page_ - 1) if page_ > 1 else None,
            next_link=link(page_ + 1) if page_ < pages else None,
            first=(page_ - 1) * PER_PAGE + 1,
            lang_link=lambda code: link(page_, code),
        )

    @api.get("/search/help", response_class=HTMLResponse, include_in_schema=False)
    def search_help(request: Request) -> HTMLResponse:
        """``/search/help``: the query syntax, fields (``query.FIELDS``), short forms and sort keys."""
        from cardlab.search.engine import SORTS
        from cardlab.search.query import ALIASES, FIELDS

        return page(
            request,
            "help.html",
            title="Search syntax · cardlab",
            fields=[(k, v[1]) for k, v in FIELDS.items()],
            aliases=[(k, v) for k, v in ALIASES.items() if k != v],
            sorts=list(SORTS),
        )

    @api.get("/card/{card_id}", response_class=HTMLResponse, include_in_schema=False)
    def card_page(request: Request, card_id: str, lang: str = "") -> Response:
        """``/card/<id>``: the whole card (fields, names, printings, legality); a name or other reference
        redirects (301) to the card's id; 400 for a malformed id, 404 for an unknown one."""

        langs = langs_param(lang)
        view = card_view(site, card_id)
        if view.id != card_id:
            return RedirectResponse(f"/card/{view.id}" + (f"?lang={lang}" if lang else ""), status_code=301)
        card = card_json(site, view, langs)
        legal = [(f, ok, why) for f, ok, why in _legality(site, view)]
        return page(request, "card.html", title=f"{card['name']} · cardlab", card=card, view=view, lang=lang, legal=legal)

    @api.get("/sets", response_class=HTMLResponse, include_in_schema=False)
    def sets_page(request: Request, lang: str = "") -> HTMLResponse:
        """``/sets``: recorded against printed cards per set, and the numbers still missing."""
        from cardlab.contrib.new_card import missing_text, set_statuses

        langs = langs_param(lang)
        rows = [(s, missing_text(s)) for s in set_statuses(site.catalog)]
        return page(request, "sets.html", title="Sets · cardlab", rows=rows, langs=langs)

    @api.get("/deck", response_class=HTMLResponse, include_in_schema=False)
    def deck_form(request: Request) -> HTMLResponse:
        """``GET /deck``: the empty deck form."""
        return page(request, "deck.html", title="Deck check · cardlab", text="", format_name="", seed=1, lang="", result=None)

    @api.post("/deck", response_class=HTMLResponse, include_in_schema=False)
    async def deck_page(
        request: Request,
        text: str = Form(""),
        fmt: str = Form("", alias="format"),
        seed: int = Form(1),
        lang: str = Form(""),
        upload: UploadFile | None = File(None, alias="file"),
    ) -> HTMLResponse:
        """``POST /deck``: check the pasted or uploaded list (:func:`deck_view`) and show the verdicts, each
        problem beside its line, statistics, a sample hand for ``seed`` and the export buttons."""
        langs = langs_param(lang)
        content, name = await read_deck_form(text, upload)
        context: dict[str, Any] = {"title": "Deck check · cardlab", "text": content, "format_name": fmt, "seed": seed, "lang": lang}
        try:
            result = await run_in_threadpool(deck_view, site, content, name, fmt or None, langs, seed)
        except WebError as err:
            return page(request, "deck.html", err.status, **context, result=None, error=err)
        return page(request, "deck.html", **context, result=result)

    @api.post("/deck/export.{kind}", include_in_schema=False)
    async def deck_export(
        kind: str,
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
        langs = langs_param(lang)
        checked = check_deck_text(site, content, name, fmt or None, langs)
        disposition = {"content-disposition": f'attachment; filename="{safe_filename(name)}.{kind}"'}
        if kind == "json":
            return JSONResponse(export_json(checked["deck"], langs, site.source_of), headers=disposition)
        body = export_text(checked["deck"], langs, site.source_of)
        return Response(body, media_type="text/plain; charset=utf-8", headers=disposition)

    @api.post("/deck/proxies.pdf", include_in_schema=False)
    async def deck_proxies(
        text: str = Form(""),
        fmt: str = Form("", alias="format"),
        lang: str = Form(""),
        paper: str = Form("a4"),
        force: bool = Form(False),
        upload: UploadFile | None = File(None, alias="file"),
    ) -> Response:
        """``POST /deck/proxies.pdf``: the deck's proxies on ``paper`` (:func:`proxies_pdf`), a download;
        400 when the deck has problems unless ``force``."""
        content, name = await read_deck_form(text, upload)
        langs = langs_param(lang)
        data = await run_in_threadpool(proxies_pdf, site, content, name, fmt or None, langs, paper, force)
        return Response(
            data, media_type="application/pdf", headers={"content-disposition": f'attachment; filename="{safe_filename(name)}-proxies.pdf"'}
        )

    # --- API ---

    @api.get("/api/cards/search", tags=["cards"])
    def api_search(
        request: Request, q: str = "", sort: str = "number", reverse: bool = False, lang: str = "", page_: int = Query(1, alias="page")
    ) -> dict:
        """Cards matching a query in cardlab's query language (as ``cardlab search``), a page of
        50 at a time: a list object with ``data``, ``total_cards``, ``has_more``, ``next_page``."""
        total, hits = run_search(site, q, sort, reverse, langs_param(lang), page_)
        more = page_ * PER_PAGE < total
        params = {k: v for k, v in request.query_params.items() if k != "page"}
        base = str(request.url_for("api_search"))
        return {
            "object": "list",
            "total_cards": total,
            "has_more": more,
            "next_page": f"{base}?{urlencode({**params, 'page': page_ + 1})}" if more else None,
            "data": [{"object": "card", **h.to_json(), "name": h.name, "names": h.names} for h in hits],
        }

    @api.get("/api/cards/{card_id}", tags=["cards"])
    def api_card(card_id: str, lang: str = "") -> dict:
        """One card by id (``base1-4``): names, set, the card's data, printings and legality per format."""
        langs = langs_param(lang)
        view = card_view(site, card_id)
        if view.id.lower() != card_id.lower():
            raise WebError(404, "not_found", f"no card with the id '{card_id}'")
        return card_json(site, view, langs)

    @api.get("/api/sets", tags=["sets"])
    def api_sets(lang: str = "") -> dict:
        """Every set: code, game, name, cards recorded and printed, the numbers still missing."""
        from cardlab.contrib.new_card import missing_text, set_statuses

        langs = langs_param(lang)
        return {
            "object": "list",
            "has_more": False,
            "data": [
                {
                    "object": "set",
                    "code": s.info.code,
                    "game": s.info.game,
                    "name": s.info.name(langs),
                    "recorded": s.recorded,
                    "printed_total": s.info.printed_total,
                    "missing": missing_text(s) if s.missing is not None else None,
                }
                for s in set_statuses(site.catalog)
            ],
        }

    @api.post(
        "/api/decks/validate",
        tags=["decks"],
        openapi_extra={"requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}},
    )
    async def api_validate(request: Request, fmt: str | None = Query(None, alias="format"), lang: str = "") -> dict:
        """Check a deck list sent as the ``text/plain`` body. With ``format``: that format's verdict
        (``deck_report``); without: legality in every format of its game (``legality``). Each problem
        has its ``line``."""
        ctype = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
        if ctype != "text/plain":
            raise WebError(415, "unsupported_media_type", f"send the deck list as text/plain (got {ctype})")
        raw = await request.body()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(400, "bad_deck", "the body is not UTF-8 text") from None
        langs = langs_param(lang)
        checked = await run_in_threadpool(check_deck_text, site, text, "deck.txt", fmt, langs)
        if fmt:
            return report_json(checked["reports"][0])
        reports = checked["reports"]
        return {
            "object": "legality",
            "game": reports[0].deck.format.game if reports else None,
            "legal_in": [r.deck.format.name for r in reports if r.legal],
            "formats": [report_json(r) for r in reports],
        }

    app = Guard(api, MAX_BODY)
    app.app, app.site = api, site  # type: ignore[attr-defined]
    return app


def _version() -> str:
    """Return cardlab's version (for the OpenAPI description)."""
    from cardlab import __version__

    return __version__


def _legality(site: Site, view) -> list:  # noqa: ANN001 - engine.CardView
    """A card's legality in every format of its game (:func:`cardlab.decks.rules.card_legality`)."""
    from cardlab.decks.rules import card_legality

    return card_legality(site.catalog.card_set.get(view.id, ""), [f for f in site.formats.values() if f.game == view.game])


def deck_view(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str], seed: int) -> dict[str, Any]:
    """Everything the deck page shows: the check (:func:`check_deck_text`), lines with their problems,
    statistics with exact odds, a sample hand for ``seed``, and the deck list as matched.

    Raises:
        WebError: as :func:`check_deck_text`.
    """
    from cardlab.decks.check import deck_list
    from cardlab.decks.stats import deck_stats, sample_hand

    checked = check_deck_text(site, text, name, format_name, langs)
    deck = checked["deck"]
    rows, loose = lines_with_problems(text, checked["reports"])
    try:
        stats = deck_stats(deck)
    except (CardlabError, ValueError):
        stats = None
    hand = [(c, site.catalog.name_of(c.card_id, langs)) for c in sample_hand(deck, seed)]
    return {
        **checked,
        "rows": rows,
        "loose": loose,
        "stats": stats,
        "hand": hand,
        "seed": seed,
        "listing": deck_list(deck, langs, site.source_of),
    }


def proxies_pdf(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str], paper: str, force: bool) -> bytes:
    """Return the proxies PDF of a pasted deck (:func:`cardlab.proxies.pdf.render_pdf`), one card per copy.

    Raises:
        WebError: the deck cannot be read, has problems and ``force`` is False (400 ``deck_problems``),
            or a bad paper name.
    """
    from cardlab.proxies import pdf as px

    checked = check_deck_text(site, text, name, format_name, langs)
    deck = checked["deck"]
    report = next(r for r in checked["reports"] if r.deck is deck) if checked["reports"] else None
    if report is not None and report.problems and not force:
        raise WebError(
            400,
            "deck_problems",
            f"the deck has {len(report.problems)} problem(s) under {deck.format.name}; fix them or tick 'print anyway'",
        )
    if paper not in px.PAPERS:
        raise WebError(400, "bad_parameter", f"paper: one of {', '.join(px.PAPERS)}")
    try:
        data, _report = px.render_pdf(
            site.catalog,
            px.expand((c.card_id, c.count) for c in deck.cards),
            px.ProxyOptions(paper=paper, langs=tuple(langs)),
            title=deck.name or "cardlab proxies",
        )
    except CardlabError as err:
        raise web_error(err) from None
    return data
