"""The collection API: ``/api/collections`` (every player), ``/api/collections/<name>`` (one player's
cards), and the writes ``POST /api/collections/<name>/cards`` (add) and ``.../cards/remove``, which
answer 403 unless the server takes writes and then 401 without the server's bearer token."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from cardlab.core.errors import CardlabError
from cardlab.web.collections import check_write_access, collection_change, collection_counts, collection_names
from cardlab.web.errors import web_error
from cardlab.web.forms import check_page, read_json_object
from cardlab.web.limits import PER_PAGE
from cardlab.web.state import Site, SiteDep

router = APIRouter()

bearer = HTTPBearer(auto_error=False, description="The token of cardlab serve --allow-writes (CARDLAB_SERVE_TOKEN or --token-file).")
"""The ``Authorization: Bearer <token>`` of a write (checked by :func:`check_write_access`, not here)."""
CHANGE_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["card"],
                    "additionalProperties": False,
                    "properties": {
                        "card": {
                            "type": "string",
                            "description": "A card id (base1-4), set and number ('BS 4') or a name with one printing, as cardlab collection add takes it; a count may lead ('2 Bill BS 91').",
                        },
                        "count": {"type": "integer", "minimum": 1, "maximum": 1_000_000, "default": 1},
                    },
                }
            }
        },
    }
}
"""The OpenAPI request body of a write: ``{"card": ..., "count": N}``."""


@router.get("/api/collections", tags=["collections"])
def api_collections() -> dict:
    """Every collection (a player with at least one card): a list object of ``collection`` names."""
    names = collection_names()
    return {"object": "list", "has_more": False, "total": len(names), "data": [{"object": "collection", "name": n} for n in names]}


@router.get("/api/collections/{name}", tags=["collections"])
def api_collection(request: Request, site: SiteDep, name: str, q: str = "", page_: int = Query(1, alias="page")) -> dict:
    """One collection's cards with their counts, 50 a page, sorted by set and number (as ``cardlab
    collection list``); ``q`` keeps the cards matching a search query. An unknown name owns nothing."""
    from cardlab.collection import listing

    check_page(page_)
    who, owned = collection_counts(name)
    try:
        rows = listing.list_owned(site.con(), owned, q)
    except CardlabError as err:
        raise web_error(err) from None
    start = (page_ - 1) * PER_PAGE
    more = start + PER_PAGE < len(rows)
    params = {k: v for k, v in request.query_params.items() if k != "page"}
    base = f"/api/collections/{quote(who, safe='')}"  # relative (never the client's Host), the name one encoded segment
    return {
        "object": "list",
        "collection": who,
        "total_cards": len(rows),
        "total_copies": sum(r.copies for r in rows),
        "has_more": more,
        "next_page": f"{base}?{urlencode({**params, 'page': page_ + 1})}" if more else None,
        "data": [{"object": "owned_card", **r.to_json()} for r in rows[start : start + PER_PAGE]],
    }


async def write(request: Request, site: Site, name: str, op: str, credentials: HTTPAuthorizationCredentials | None) -> dict:
    """A collection write: the access check (:func:`check_write_access`), then the JSON body, then
    :func:`collection_change` in a worker thread."""
    check_write_access(site, credentials.credentials if credentials else None)
    body = read_json_object(request.headers.get("content-type"), await request.body())
    return await run_in_threadpool(collection_change, site, name, op, body)


@router.post("/api/collections/{name}/cards", tags=["collections"], openapi_extra=CHANGE_BODY)
async def api_collection_add(
    request: Request, site: SiteDep, name: str, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)
) -> dict:
    """Add ``count`` copies (default 1) of ``card`` to a collection, in one transaction, as ``cardlab
    collection add``. Only on a server started with ``--allow-writes`` (else 403), with
    ``Authorization: Bearer <token>`` (else 401); an unknown card is 404 with suggestions."""
    return await write(request, site, name, "add", credentials)


@router.post("/api/collections/{name}/cards/remove", tags=["collections"], openapi_extra=CHANGE_BODY)
async def api_collection_remove(
    request: Request, site: SiteDep, name: str, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)
) -> dict:
    """Remove ``count`` copies (default 1) of ``card``, as ``cardlab collection remove``: never more
    than owned (409 ``not_owned``, nothing changed). Same access rules as adding."""
    return await write(request, site, name, "remove", credentials)
