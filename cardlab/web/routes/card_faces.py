"""Images of cards: ``/cards/<id>.svg``, the face the proxies draw (never printed art), shown on the
card page and in the search grid."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from cardlab.web.faces import face_image
from cardlab.web.forms import page_langs
from cardlab.web.state import SiteDep

router = APIRouter(include_in_schema=False)

MAX_AGE = 3600
"""Seconds a browser may keep a face (the catalog changes only with a restart of the server)."""


@router.get("/cards/{card_id}.svg")
def card_face(site: SiteDep, card_id: str, lang: str = "") -> Response:
    """``/cards/<id>.svg``: the card's proxy face as SVG (:func:`cardlab.web.faces.face_image`), names,
    text and labels in ``lang``; 400 for a malformed id or language, 404 for an unknown card."""
    svg = face_image(site, card_id, page_langs(lang, site.languages))
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": f"public, max-age={MAX_AGE}"})
