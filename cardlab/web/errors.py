"""Errors of the web: :class:`WebError` (the JSON error object), the mapping of library errors to it,
and the app's exception handlers (JSON under ``/api/``, the error page elsewhere).

Every error answers ``{"object": "error", "status", "code", "details", ...}`` under ``/api/``; a
database's URL or a server path goes to :data:`LOG` only, never to an anonymous client.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardlab.core.errors import CardlabError, InputError, UsageError

LOG = logging.getLogger("cardlab.web")
"""The server log: what a client is not told (why the collections database cannot be used)."""
UNAVAILABLE = "the collections database cannot be used; see the server log"
"""The words of every 503 ``collection_unavailable``: the reason (a database URL, a server path)
goes to :data:`LOG` only, never to an anonymous client."""
INDEX_UNAVAILABLE = "the search index cannot be used now; see the server log"
"""The words of every 503 ``index_unavailable`` (a PostgreSQL index's server unreachable or gone):
the reason goes to :data:`LOG` only, as for the collections."""
NOT_AN_UPLOAD = 'not a file upload: send the file as multipart/form-data with filename="..." (a filename*= alone is not read)'
"""What a ``file`` form field that is not an upload answers (Starlette reads a part with only
``filename*=`` as a text field), instead of the framework's type-check words."""


class WebError(Exception):
    """An error to answer with: ``status`` (HTTP), ``code`` (stable id), ``details`` (words) and
    ``extra`` fields for the JSON object (``column`` of a query error...); ``shown`` is what the
    error page says (``details`` less what the page shows otherwise: the suggestions as links)."""

    def __init__(self, status: int, code: str, details: str, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(details)
        self.status, self.code, self.details, self.extra = status, code, details, extra
        self.headers = headers or {}
        self.shown = details

    def to_json(self) -> dict[str, Any]:
        """Return the JSON error object: ``{"object": "error", "status", "code", "details", **extra}``."""
        return {"object": "error", "status": self.status, "code": self.code, "details": self.details, **self.extra}


def web_error(err: CardlabError) -> WebError:
    """Map a library error to the :class:`WebError` to answer with (status, code, details)."""
    from cardlab.core.database import DatabaseUnavailableError, DataDirError
    from cardlab.search.connection import QueryTimeoutError
    from cardlab.search.lookup import AmbiguousCardError, CardNotFoundError, SetNotFoundError
    from cardlab.search.query.tree import QueryError

    if isinstance(err, QueryError):
        return WebError(400, "bad_query", err.reason, column=err.pos + 1, query=err.shown_query, caret=err.caret())
    if isinstance(err, QueryTimeoutError):
        return WebError(400, "query_timeout", str(err), seconds=err.seconds)
    if isinstance(err, (CardNotFoundError, SetNotFoundError)):
        found = WebError(404, "not_found", str(err), suggestions=err.suggestions)
        found.shown = err.reason  # the page lists the suggestions as links
        return found
    if isinstance(err, AmbiguousCardError):
        return WebError(400, "ambiguous", str(err), choices=[c[0] for c in err.choices])
    if isinstance(err, InputError):
        return WebError(400, "bad_deck", str(err))
    if isinstance(err, UsageError):
        return WebError(400, "bad_request", str(err))
    if isinstance(err, (DatabaseUnavailableError, DataDirError)):
        # the search index's server went away or refused: its URL and socket are not a client's to see
        LOG.warning("search index unavailable: %s", err)
        return WebError(503, "index_unavailable", INDEX_UNAVAILABLE)
    return WebError(500, "catalog_error", str(err))


def collection_error(err: CardlabError) -> WebError:
    """Map an error of :mod:`cardlab.collection` to the :class:`WebError` to answer with: a name meaning
    several cards or printings 400 ``ambiguous`` with ``choices`` (ids), as a search's; an unknown
    card 404 ``not_found`` (its message has the "did you mean" suggestions the CLI gives), removing
    more than owned 409 ``not_owned``, a bad count 400 ``bad_count``, a database that cannot be used
    503 ``collection_unavailable``; anything else as :func:`web_error`."""
    from cardlab.collection.db import DatabaseUnavailableError, DataDirError
    from cardlab.collection.owned import AmbiguousCardError, NotOwnedError, UnknownCardError

    if isinstance(err, AmbiguousCardError):
        return WebError(400, "ambiguous", str(err), choices=err.choices)
    if isinstance(err, UnknownCardError):
        return WebError(404, "not_found", str(err))
    if isinstance(err, NotOwnedError):
        return WebError(409, "not_owned", str(err))
    if isinstance(err, (DataDirError, DatabaseUnavailableError)):
        return unavailable(err)
    if isinstance(err, UsageError):
        return WebError(400, "bad_count", str(err))
    return web_error(err)


def unavailable(err: CardlabError) -> WebError:
    """Log why the collections database cannot be used (:data:`LOG`, a warning) and return the 503
    ``collection_unavailable`` to answer with, in generic words (:data:`UNAVAILABLE`): the reason
    names server paths, the database host, user and name, which are not an anonymous client's to see."""
    LOG.warning("collections database unavailable: %s", err)
    return WebError(503, "collection_unavailable", UNAVAILABLE)


def is_api(request: Request) -> bool:
    """True for a request under ``/api/`` (answered with JSON errors)."""
    return request.url.path.startswith("/api/")


async def answer_web_error(request: Request, err: WebError) -> Response:
    """Answer a :class:`WebError`: its JSON object under ``/api/``, else the error page, with its status."""
    from cardlab.web.views import page

    if is_api(request):
        return JSONResponse(err.to_json(), status_code=err.status, headers=err.headers)
    response = page(request, "error.html", err.status, error=err, title=f"{err.status} · cardlab")
    response.headers.update(err.headers)
    return response


async def answer_library_error(request: Request, err: CardlabError) -> Response:
    """Answer a library error that reached no route's own handling (a hit's data read after its
    search, from a server that went away) as :func:`web_error` maps it, never a bare 500."""
    return await answer_web_error(request, web_error(err))


def number_words() -> dict[str, str]:
    """What each whole-number parameter takes, in the words its range check says it
    (:func:`cardlab.web.forms.check_page`, the search API's ``page_size``): ``{"page": "a number from
    1 to 10000", ...}``; a parameter not named here is ``a whole number``."""
    from cardlab.search.paging import MAX_PAGE_SIZE
    from cardlab.web.limits import MAX_PAGE

    return {"page": f"a number from 1 to {MAX_PAGE}", "page_size": f"a number from 1 to {MAX_PAGE_SIZE}"}


def _parameter_words(error: dict[str, Any]) -> str:
    """One of FastAPI's parameter errors in the project's words: ``page_size: a number from 1 to
    1000`` for a number that is not one (``page_size=abc``), the framework's words otherwise."""
    name = ".".join(str(x) for x in error.get("loc", ())[1:])
    if "Expected UploadFile" in str(error.get("msg")):
        return f"{name}: {NOT_AN_UPLOAD}"
    if str(error.get("type", "")).startswith("int_"):  # int_parsing, int_from_float, int_type
        return f"{name}: {number_words().get(name, 'a whole number')}"
    return f"{name}: {error.get('msg')}"


async def answer_bad_parameter(request: Request, err: RequestValidationError) -> Response:
    """Answer FastAPI's parameter errors (``page=abc``) as 400 ``bad_parameter`` naming each
    parameter, a number in the words its range check uses (:func:`number_words`)."""
    parts = [_parameter_words(e) for e in err.errors()]
    return await answer_web_error(request, WebError(400, "bad_parameter", "; ".join(parts) or "bad parameter"))


async def answer_http_error(request: Request, err: StarletteHTTPException) -> Response:
    """Answer routing errors (unknown path 404, wrong method 405 with its ``Allow``) in the same error shape."""
    code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
    details = "no such page" if err.status_code == 404 else str(err.detail)
    headers = dict(err.headers or {})
    if err.status_code == 405:
        headers["Allow"] = allowed_methods(request)
    return await answer_web_error(request, WebError(err.status_code, code, details, headers))


def allowed_methods(request: Request) -> str:
    """The ``Allow`` header of a 405: the methods of every route matching the path (Starlette names
    only the first route's), ``HEAD`` with ``GET`` (the Guard answers it)."""
    from starlette.routing import Match

    routes = request.app.state.route_table  # every route, the routers' included (routes.route_table)
    methods = {m for r in routes if r.matches(request.scope)[0] != Match.NONE for m in getattr(r, "methods", None) or ()}
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def add_handlers(api: FastAPI) -> None:
    """Install the error handlers on ``api``: :class:`WebError`, any library error, parameter errors
    and routing errors, all in the one error shape."""
    api.add_exception_handler(WebError, answer_web_error)  # type: ignore[arg-type]
    api.add_exception_handler(CardlabError, answer_library_error)  # type: ignore[arg-type]
    api.add_exception_handler(RequestValidationError, answer_bad_parameter)  # type: ignore[arg-type]
    api.add_exception_handler(StarletteHTTPException, answer_http_error)  # type: ignore[arg-type]
