"""The site's reading pages: ``/`` (to the search), ``/search`` and ``/search/help``, ``/card/<id>``,
``/sets``. Server-rendered HTML that needs no JavaScript."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardlab.core.l10n import _
from cardlab.web.cards import card_json, card_legality, card_view, run_search
from cardlab.web.errors import WebError
from cardlab.web.forms import page_langs
from cardlab.web.limits import PER_PAGE
from cardlab.web.state import SiteDep
from cardlab.web.views import page

router = APIRouter(include_in_schema=False)

VIEWS = ("table", "grid")
"""How ``/search`` shows results: a table, or a grid of card faces."""


@router.get("/")
def home() -> RedirectResponse:
    """``/``: redirect to the search page."""
    return RedirectResponse("/search", status_code=302)


@router.get("/search", response_class=HTMLResponse)
def search_page(
    request: Request,
    site: SiteDep,
    q: str = "",
    sort: str = "number",
    lang: str = "",
    page_: int = Query(1, alias="page"),
    reverse: bool = False,
    view: str = "table",
) -> HTMLResponse:
    """``/search``: the form; with ``q``, one page of results (``page``, ``sort``, ``reverse``, names in
    ``lang``) as a table or, with ``view=grid``, as a grid of card faces (``/cards/<id>.svg``), or the
    query error with its caret (400). Every result page is a permalink; a page past the last one says
    so and links to the last page (the previous-page link too). A page costs the same whatever
    matches (library :func:`cardlab.search.engine.find_page`): the total is exact up to 1,000
    matches and "more than 1,000" above, where the pager shows no last page, only a next one."""
    from cardlab.search.compile import SORTS

    langs = page_langs(lang, site.languages)
    if view not in VIEWS:
        raise WebError(400, "bad_parameter", f"view: one of {', '.join(VIEWS)} (got {view!r})")
    context: dict[str, Any] = {
        "q": q,
        "sort": sort,
        "lang": lang,
        "reverse": reverse,
        "view": view,
        "sorts": list(SORTS),
        "title": f"{q} · cardlab" if q else "cardlab · " + _("Search"),
    }
    if not q.strip():
        return page(request, "search.html", **context, searched=False)
    try:
        found = run_search(site, q, sort, reverse, langs, page_)
    except WebError as err:
        return page(request, "search.html", err.status, **context, searched=False, error=err)
    total, hits = found.total, found.hits
    # a bounded total ("more than 1,000") names no last page: the pager then goes on while there are more
    pages = max(1, -(-total // PER_PAGE)) if found.total_is_exact else None

    def link(n: int, code: str | None = None, shown: str | None = None) -> str:
        """The permalink of result page ``n`` (names in ``code``, default the current language; shown as
        ``shown``, default the current view)."""
        params = {"q": q, "sort": sort, "lang": lang if code is None else code, "page": n}
        if reverse:
            params["reverse"] = "true"
        if (shown or view) != "table":
            params["view"] = shown or view
        return "/search?" + urlencode({k: v for k, v in params.items() if v not in ("", None)})

    past_end = not hits and page_ > 1
    # a bounded total is a lower bound, TOTAL_BOUND + 1: "more than TOTAL_BOUND"
    return page(
        request,
        "search.html",
        **context,
        searched=True,
        total=total,
        total_text=(
            (_("{n} card") if total == 1 else _("{n} cards")).replace("{n}", f"{total:,}")
            if found.total_is_exact
            else _("more than {n} cards").format(n=f"{total - 1:,}")
        ),
        hits=hits,
        page=page_,
        pages=pages,
        prev_link=link(min(page_ - 1, pages or page_ - 1)) if page_ > 1 else None,
        next_link=link(page_ + 1) if found.has_more else None,
        last_link=link(pages) if pages else None,
        past_end=past_end and bool(total),
        first=(page_ - 1) * PER_PAGE + 1,
        lang_link=lambda code: link(page_, code),
        view_link=lambda shown: link(page_, shown=shown),
    )


@router.get("/search/help", response_class=HTMLResponse)
def search_help(request: Request, site: SiteDep, lang: str = "") -> HTMLResponse:
    """``/search/help``: the query syntax, fields (``fields.FIELDS``), short forms and sort keys; a
    ``?lang=`` no card name is known in is refused (400) as on the other pages."""
    from cardlab.search.compile import SORTS
    from cardlab.search.fields import ALIASES, FIELDS

    page_langs(lang, site.languages)

    return page(
        request,
        "help.html",
        title=_("Search syntax") + " · cardlab",
        fields=[(k, v[1]) for k, v in FIELDS.items()],
        aliases=[(k, v) for k, v in ALIASES.items() if k != v],
        sorts=list(SORTS),
    )


@router.get("/card/{card_id}", response_class=HTMLResponse)
def card_page(request: Request, site: SiteDep, card_id: str, lang: str = "") -> Response:
    """``/card/<id>``: the card as one reads it: its face (``/cards/<id>.svg``), name, printings and the
    rows ``cardlab show`` prints (the game's detail rows, then set, rarity, illustrator), names and text
    in ``lang``; names, legality and every field (folded) below. A name or other reference redirects
    (301) to the card's id; 400 for a malformed id, 404 for an unknown one."""
    from cardlab.games import get
    from cardlab.games.base import common_rows

    langs = page_langs(lang, site.languages)
    view = card_view(site, card_id)
    if view.id != card_id:
        return RedirectResponse(f"/card/{view.id}" + (f"?lang={lang}" if lang else ""), status_code=301)
    card = card_json(site, view, langs)
    legal = list(card_legality(site, view))
    src = view.set_data.get("source_language", "en")
    game = get(view.game)
    rows = [*view.details(langs), *common_rows(view.data, view.set_data, langs, src)]
    text_lang = next((code for code in langs if code in card["names"]), src)
    return page(
        request,
        "card.html",
        title=f"{card['name']} · cardlab",
        card=card,
        view=view,
        lang=lang,
        legal=legal,
        details=rows,
        game_title=game.TITLE,
        text_lang=text_lang,
    )


@router.get("/sets", response_class=HTMLResponse)
def sets_page(request: Request, site: SiteDep, lang: str = "") -> HTMLResponse:
    """``/sets``: recorded against printed cards per set, and the numbers still missing."""
    from cardlab.contrib.new_card import missing_text

    langs = page_langs(lang, site.languages)
    rows = [(s, missing_text(s)) for s in site.set_statuses()]
    return page(request, "sets.html", title=_("Sets") + " · cardlab", rows=rows, langs=langs)
