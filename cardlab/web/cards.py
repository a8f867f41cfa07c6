"""Cards for the web: a page of search results, one card by the id its URL gives, by name or by set
and number (Scryfall's lookups), a card and a set as the API shows them, each through the library
(:func:`cardlab.search.engine.find_page`, :mod:`cardlab.search.lookup`,
:func:`cardlab.decks.rules.card_legality`); the search API's Scryfall parameters (:func:`search_params`)
and its answer as bytes, each card's JSON text kept between answers (:func:`search_json`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardlabError
from cardlab.web.errors import WebError, web_error
from cardlab.web.forms import check_card_id, check_page
from cardlab.web.limits import PER_PAGE

if TYPE_CHECKING:
    from cardlab.contrib.new_card import SetStatus
    from cardlab.search.hits import CardView
    from cardlab.search.paging import Page
    from cardlab.web.state import Site

SEARCH_PARAMS = ("q", "sort", "order", "dir", "reverse", "unique", "lang", "page", "page_size", "cursor")
"""The parameters ``/api/cards/search`` reads; any other is answered with a warning (:func:`search_params`)."""
DIRECTIONS = ("auto", "asc", "desc")
"""Scryfall's ``dir`` values: ``auto`` is each key's own direction (ascending for every cardlab key)."""


@dataclass(frozen=True)
class SearchParams:
    """The order and grouping a search API request asks for, its Scryfall names read
    (:func:`search_params`): ``sort`` (a :data:`cardlab.search.compile.SORTS` key), ``reverse``,
    ``unique`` (:data:`cardlab.search.request.UNIQUE`), ``warnings`` (the parameters not read)."""

    sort: str = "number"
    reverse: bool = False
    unique: str = "prints"
    warnings: list[str] = field(default_factory=list)


def search_params(query: Mapping[str, str], sort: str = "number", reverse: bool = False) -> SearchParams:
    """Read the search API's Scryfall parameters beside cardlab's own: ``order`` (``sort``'s
    Scryfall name), ``dir`` (``asc``, ``desc`` or ``auto``: ``reverse``'s), ``unique`` (``cards`` or
    ``prints``, as ``cardlab search --unique``), and warn of every parameter outside :data:`SEARCH_PARAMS`.

    Args:
        query: the request's query parameters; sort, reverse: ``sort`` and ``reverse`` as read.

    Raises:
        WebError: 400 ``bad_parameter``: an unknown direction or unique value, or ``order`` and
            ``sort`` (``dir`` and ``reverse``) saying different things (an unknown sort key is the
            engine's 400 ``bad_request``, as for ``sort``).
    """
    from cardlab.search.request import UNIQUE

    order = query.get("order")
    if order is not None:
        if "sort" in query and query["sort"] != order:
            raise WebError(400, "bad_parameter", f"order={order} and sort={sort} disagree: give one of them")
        sort = order
    direction = query.get("dir", "auto")
    if direction not in DIRECTIONS:
        raise WebError(400, "bad_parameter", f"dir: one of {', '.join(DIRECTIONS)} (got {direction!r})")
    if direction != "auto":
        if "reverse" in query and reverse != (direction == "desc"):
            raise WebError(400, "bad_parameter", f"dir={direction} and reverse={str(reverse).lower()} disagree: give one of them")
        reverse = direction == "desc"
    unique = query.get("unique", "prints")
    if unique not in UNIQUE:
        art = "; every printing has its own art here: unique=prints" if unique == "art" else ""
        raise WebError(400, "bad_parameter", f"unique: cards or prints (got {unique!r}){art}")
    return SearchParams(sort, reverse, unique, unknown_params(query, SEARCH_PARAMS))


def unknown_params(query: Mapping[str, str], known: Sequence[str]) -> list[str]:
    """Return a warning for each parameter of ``query`` not in ``known`` (at most 20), as Scryfall
    answers in a list's ``warnings``: a parameter is never ignored silently."""
    unknown = [k for k in dict.fromkeys(query.keys()) if k not in known][:20]
    return [f"unknown parameter '{k}' was ignored; this endpoint reads: {', '.join(known)}" for k in unknown]


def with_warnings(obj: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """Return ``obj`` with its ``warnings`` list when there are any (Scryfall's list object)."""
    return {**obj, "warnings": warnings} if warnings else obj


def run_search(site: Site, q: str, sort: str, reverse: bool, langs: Sequence[str], page: int, unique: str = "prints") -> Page:
    """Return result page ``page`` (:data:`~cardlab.web.limits.PER_PAGE` hits) of a query
    (library :func:`cardlab.search.engine.find_page`: rows read by keyset, the total exact up to
    :data:`cardlab.search.paging.TOTAL_BOUND` and a lower bound above it); ``unique`` as
    ``cardlab search --unique``.

    Raises:
        WebError: a bad query (with its column), a query cut off by the time limit, a bad sort or page.
    """
    from cardlab.search import engine

    check_page(page)
    try:
        return engine.find_page(
            site.con(),
            q,
            page_size=PER_PAGE,
            page=page,
            langs=list(langs),
            sort=sort,
            reverse=reverse,
            timeout=site.search_timeout,
            unique=unique,
        )
    except CardlabError as err:
        raise web_error(err) from None


_SHAPES: OrderedDict[tuple[str, str, tuple[str, ...]], bytes] = OrderedDict()
"""The JSON text of the last :data:`_SHAPES_KEPT` cards a search answer held, by (index fingerprint,
card id, languages): a card asked for again (the next page, a repeated search, a word shared by
searches) is neither decompressed, parsed nor encoded again; a rebuilt index has another fingerprint."""
_SHAPES_KEPT = 4096
_SHAPES_LOCK = threading.Lock()


def search_json(found: Page, langs: Sequence[str], head: dict[str, Any]) -> bytes:
    """Return the JSON text of a search API answer: ``head`` (the list object's fields) and ``data``,
    each hit of ``found`` as ``{"object": "card", id, game, set, its data as in its file, "name" (in
    ``langs``), "names"}``. Each card's text is kept by the index it came from (:data:`_SHAPES`):
    about 4,096 cards of 1 to 3 kB, a few MB. orjson writes it (a quarter of the request's time with
    the standard library's encoder)."""
    import orjson  # lazy: the search API's answer only

    key_langs = tuple(langs)
    parts: list[bytes] = []
    for h in found.hits:
        key = (found.index, h.id, key_langs)
        text = _SHAPES.get(key) if found.index else None
        if text is None:
            text = orjson.dumps({"object": "card", **h.to_json(), "name": h.name, "names": h.names})
            if found.index:
                with _SHAPES_LOCK:
                    _SHAPES[key] = text
                    while len(_SHAPES) > _SHAPES_KEPT:
                        _SHAPES.popitem(last=False)
        parts.append(text)
    return orjson.dumps(head)[:-1] + b',"data":[' + b",".join(parts) + b"]}"


def card_view(site: Site, card_id: str) -> CardView:
    """The card a ``/card/<id>`` or ``/api/cards/<id>`` path names (:func:`cardlab.search.lookup.get_card`).

    Raises:
        WebError: a malformed id (400), an unknown card (404).
    """
    from cardlab.search.lookup import get_card

    check_card_id(card_id)
    try:
        return get_card(site.con(), card_id)
    except CardlabError as err:
        raise web_error(err) from None


def card_legality(site: Site, view: CardView) -> list:
    """A card's legality in every format of its game (:func:`cardlab.decks.rules.card_legality`):
    ``[(Format, legal, why), ...]``."""
    from cardlab.decks.rules import card_legality as legality

    return legality(site.catalog.card_set.get(view.id, ""), [f for f in site.formats.values() if f.game == view.game])


def card_json(site: Site, view: CardView, langs: Sequence[str]) -> dict[str, Any]:
    """Return a card as the API gives it: id, game, names, set, the card's data as in its file,
    every printing and its legality in every format of its game."""
    from cardlab.core.text import pick

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
        "legalities": {f.name: ("legal" if ok else "not_legal") for f, ok, _why in card_legality(site, view)},
        "data": data,
    }


def named_card(site: Site, name: str, fuzzy: bool, set_ref: str | None) -> CardView:
    """The card ``/api/cards/named`` names (:func:`cardlab.search.lookup.card_named`).

    Raises:
        WebError: 404 ``ambiguous`` (as Scryfall's): several cards have the name (``choices``: each
            card's first printing), unless ``set`` narrows it; 404 ``not_found`` with ``suggestions``;
            400 for a blank name.
    """
    from cardlab.search.lookup import AmbiguousCardError, card_named

    try:
        return card_named(site.con(), name, fuzzy=fuzzy, set_ref=set_ref)
    except AmbiguousCardError as err:
        ids = [c[0] for c in err.choices]
        details = f"'{name}' names {len(ids)} cards: narrow it with set=CODE, or ask for one by id (/api/cards/<id>)"
        raise WebError(404, "ambiguous", details, choices=ids) from None
    except CardlabError as err:
        raise web_error(err) from None


def numbered_card(site: Site, set_ref: str, number: str) -> CardView:
    """The card ``/api/cards/<set>/<number>`` names (:func:`cardlab.search.lookup.card_by_number`).

    Raises:
        WebError: 404 ``not_found`` (no such set, with suggestions; no such number), 400 ``ambiguous``.
    """
    from cardlab.search.lookup import card_by_number

    try:
        return card_by_number(site.con(), set_ref, number)
    except CardlabError as err:
        raise web_error(err) from None


def set_json(status: SetStatus, langs: Sequence[str]) -> dict[str, Any]:
    """Return a set as the API gives it: code, game, name, every name, aliases and tools' codes,
    release date, cards recorded and printed, the numbers still missing."""
    from cardlab.contrib.new_card import missing_text

    info = status.info
    names = info.data.get("name")
    return {
        "object": "set",
        "code": info.code,
        "game": info.game,
        "name": info.name(langs),
        "names": {k: v for k, v in names.items() if k != "_source"} if isinstance(names, dict) else {},
        "aliases": list(info.aliases),
        "codes": dict(info.codes),
        "release_date": info.data.get("release_date"),
        "recorded": status.recorded,
        "printed_total": info.printed_total,
        "missing": missing_text(status) if status.missing is not None else None,
    }
