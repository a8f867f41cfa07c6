"""Card faces for the web: the proxy face of a card as SVG (:func:`cardlab.proxies.svg.face_svg`),
kept in a small cache per site (a face depends only on the catalog, the card and the languages)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from threading import Lock
from typing import TYPE_CHECKING

from cardlab.web.errors import WebError
from cardlab.web.forms import check_card_id

if TYPE_CHECKING:
    from cardlab.web.state import Site

CACHE_SIZE = 512
"""Faces kept per site (about 7 kB each: 3.5 MB at most)."""

_faces: dict[int, OrderedDict[tuple[str, tuple[str, ...]], str]] = {}
_lock = Lock()


def face_image(site: Site, card_id: str, langs: Sequence[str]) -> str:
    """Return the SVG document of a card's proxy face, names and labels in ``langs``.

    Raises:
        WebError: a malformed id (400 ``bad_id``), a card not in the catalog (404 ``not_found``).
    """
    from cardlab.proxies.svg import face_svg  # lazy: ReportLab's metrics (120-150 ms cold), only for faces

    check_card_id(card_id)
    if card_id not in site.catalog.cards:
        raise WebError(404, "not_found", f"no card with the id {card_id}")
    key = (card_id, tuple(langs))
    with _lock:
        cache = _faces.setdefault(id(site), OrderedDict())
        svg = cache.get(key)
        if svg is not None:
            cache.move_to_end(key)
            return svg
    svg = face_svg(site.catalog, card_id, tuple(langs))
    with _lock:
        cache[key] = svg
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return svg
