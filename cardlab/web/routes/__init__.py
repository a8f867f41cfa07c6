"""The site's routes, one module per resource, each with an :class:`fastapi.APIRouter` named ``router``
whose routes are module-level functions (importable and testable by name).

:data:`ROUTERS` lists them in the order :func:`cardlab.web.app.create_app` includes them: a new
resource is a new module here, added to that list.
"""

from __future__ import annotations

from typing import Any

ROUTERS = (
    "cardlab.web.routes.search_api",  # first: the busiest route, matched before the others
    "cardlab.web.routes.pages",
    "cardlab.web.routes.card_faces",
    "cardlab.web.routes.deck_pages",
    "cardlab.web.routes.lookup_api",  # /api/cards/named and /autocomplete before card_api's /api/cards/{card_id}
    "cardlab.web.routes.card_api",
    "cardlab.web.routes.deck_api",
    "cardlab.web.routes.collection_api",
    "cardlab.web.routes.builder",
    "cardlab.web.routes.saved_decks",
    "cardlab.web.routes.collection_pages",
)
"""The route modules, in the order they are matched (a module's routes keep their own order)."""


def route_table(api: Any) -> list[Any]:
    """Return every route of ``api``, the included routers' routes in their place: each with its
    ``path``, ``methods``, ``endpoint`` and ``matches(scope)`` (FastAPI 0.165 keeps an included
    router as one entry of ``api.routes``; :func:`fastapi.routing.iter_route_contexts` walks into it)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # an older FastAPI copies the included routes into api.routes
        return list(api.routes)
    return list(iter_route_contexts(api.routes))
