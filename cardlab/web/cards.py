"""Cards for the web: a page of search results, one card by the id its URL gives, and a card as the
API shows it, each through the library (:func:`cardlab.search.engine.find_page`,
:func:`cardlab.search.lookup.get_card`, :func:`cardlab.decks.rules.card_legality`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardlabError
from cardlab.web.errors import web_error
from cardlab.web.forms import check_card_id, check_page
from cardlab.web.limits import PER_PAGE

if TYPE_CHECKING:
    from cardlab.search.hits import CardView
    from cardlab.search.paging import Page
    from cardlab.web.state import Site


def run_search(site: Site, q: str, sort: str, reverse: bool, langs: Sequence[str], page: int) -> Page:
    """Return result page ``page`` (:data:`~cardlab.web.limits.PER_PAGE` hits) of a query
    (library :func:`cardlab.search.engine.find_page`: rows read by keyset, the total exact up to
    :data:`cardlab.search.paging.TOTAL_BOUND` and a lower bound above it).

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
