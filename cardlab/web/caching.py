"""HTTP caching of catalog reads: an ``ETag`` and a ``Cache-Control`` on every answer read from the
catalog (cards, sets, formats, search, their pages, static files), ``304 Not Modified`` for an
``If-None-Match`` that matches, answered before the app runs; ``Cache-Control: no-store`` on
everything else (collections, saved decks, user data, every write).

The ETag is exact: the index's fingerprint (:func:`cardlab.index.access.index_fingerprint`; on a
PostgreSQL server, which another process may rebuild while this one serves, as it is now:
:meth:`cardlab.web.state.Site.current_fingerprint`), cardlab's version, the server's settings and
the web's templates and static files (:func:`site_tag`) together with the request's path, query and
language inputs (``Accept-Language``, the ``lang`` cookie) decide the answer. It is weak (``W/"..."``): a gzipped body and a plain one are the same answer.

Pure ASGI (no framework import), so it wraps the app as :class:`~cardlab.web.guard.Guard` does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from cardlab.web.guard import ASGIApp, Message, Receive, Scope, Send

CATALOG_PATHS = (
    "/api/cards",
    "/api/sets",
    "/api/formats",
    "/api/openapi.json",
    "/search",
    "/card",
    "/cards",
    "/sets",
    "/formats",
    "/static",
)
"""Paths whose GET answers come from the catalog alone (each path itself and everything under it;
``/cards/<id>.svg`` is a card's face);
any other path (``/api/collections``, ``/deck``, saved decks, user data) is never cached."""
MAX_AGE = 300
"""Seconds a client or shared cache may reuse a catalog answer before asking again (with ``If-None-Match``)."""
STATIC_MAX_AGE = 3600
"""Seconds for ``/static/`` files (the style sheet): they change only with a new cardlab."""
VARY = b"Accept-Encoding, Accept-Language, Cookie"
"""What else a catalog answer depends on (gzip, the language inputs)."""
NO_STORE = b"no-store"


def is_catalog_read(method: str, path: str) -> bool:
    """True for a ``GET`` (or ``HEAD``) of a path under :data:`CATALOG_PATHS`."""
    return method in ("GET", "HEAD") and any(path == p or path.startswith(p + "/") for p in CATALOG_PATHS)


def site_tag(fingerprint: str, parts: Sequence[str], web_dirs: Iterable[Path] = ()) -> str:
    """Return what every ETag of one app starts from: the index's catalog ``fingerprint``, the
    ``parts`` that change answers (cardlab's version, whether writes are on) and every file's path,
    size and time under ``web_dirs`` (templates, static files), hashed (BLAKE2b, 16 bytes, hex)."""
    h = hashlib.blake2b(digest_size=16)
    for part in (fingerprint, *parts):
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    for folder in web_dirs:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            st = path.stat()
            h.update(f"{path.relative_to(folder)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def lang_cookie(cookie: bytes) -> bytes:
    """Return the ``lang`` cookie's value of a ``Cookie`` header (``b""`` when there is none)."""
    for part in cookie.split(b";"):
        name, _, value = part.strip().partition(b"=")
        if name == b"lang":
            return value.strip()
    return b""


def etag(tag: str, scope: Scope) -> bytes:
    """Return the weak ETag of a catalog read: ``W/"<hash of the site tag, path, query, Accept-Language, lang cookie>"``."""
    headers = dict(scope.get("headers") or [])
    h = hashlib.blake2b(tag.encode(), digest_size=16)
    for part in (scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape"), scope.get("query_string", b"")):
        h.update(part + b"\0")
    h.update(headers.get(b"accept-language", b"") + b"\0" + lang_cookie(headers.get(b"cookie", b"")))
    return b'W/"' + h.hexdigest().encode() + b'"'


def matches(if_none_match: bytes, tag: bytes) -> bool:
    """True when an ``If-None-Match`` list names ``tag`` (weak comparison, RFC 9110 13.1.2). ``*``
    does not count: it would answer 304 for a path that has no answer (a 404)."""
    opaque = tag.removeprefix(b"W/")
    return any(t.strip().removeprefix(b"W/") == opaque for t in if_none_match.split(b","))


class Caching:
    """Wrap an ASGI app: answer a catalog read (:func:`is_catalog_read`) whose ``If-None-Match``
    names its ETag with 304 without running the app; give its 200 answers the ETag,
    ``Cache-Control: public, max-age=...`` (unless the route set its own) and ``Vary``; every other
    answer ``Cache-Control: no-store`` (unless the app set its own).

    Args:
        app: the ASGI app to wrap; tag: :func:`site_tag` of the app's catalog and settings, or a
            function giving it for each request (an index that may change while serving).
        max_age, static_max_age: seconds of ``max-age`` for catalog answers and static files.
    """

    def __init__(self, app: ASGIApp, tag: str | Callable[[], str], max_age: int = MAX_AGE, static_max_age: int = STATIC_MAX_AGE) -> None:
        self.app = app
        self.tag_of = tag if callable(tag) else (lambda: tag)
        self.control = f"public, max-age={max_age}".encode()
        self.static_control = f"public, max-age={static_max_age}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI scope (http only; others pass through)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not is_catalog_read(scope["method"], scope["path"]):
            await self.app(scope, receive, self._no_store(send))
            return
        tag = etag(self.tag_of(), scope)
        control = self.static_control if scope["path"].startswith("/static/") else self.control
        cached = [(b"etag", tag), (b"cache-control", control), (b"vary", VARY)]
        asked = dict(scope.get("headers") or []).get(b"if-none-match")
        if asked is not None and matches(asked, tag):
            await send({"type": "http.response.start", "status": 304, "headers": cached})
            await send({"type": "http.response.body", "body": b""})
            return
        # the ETag here is the only validator: the app's own (StaticFiles') conditional answers are not asked for
        conditional = (b"if-none-match", b"if-modified-since")
        scope = {**scope, "headers": [(k, v) for k, v in scope.get("headers") or [] if k.lower() not in conditional]}

        async def send_cached(message: Message) -> None:
            """Give a 200 its ETag, Vary (the app's own replaced) and Cache-Control (unless the route
            set its own: a card's face keeps an hour); any other status ``no-store``."""
            if message["type"] == "http.response.start":
                if message["status"] == 200:
                    own = [(k, v) for k, v in message.get("headers", []) if k.lower() == b"cache-control"]
                    drop = (b"etag", b"cache-control", b"vary", b"last-modified")
                    kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in drop]
                    if not own and any(k.lower() == b"set-cookie" for k, _v in kept):  # a ?lang= page keeps the cookie
                        own = [(b"cache-control", control.replace(b"public", b"private"))]
                    message["headers"] = kept + (cached if not own else [cached[0], *own, cached[2]])
                else:
                    message["headers"] = _with_no_store(message.get("headers", []))
            await send(message)

        await self.app(scope, receive, send_cached)

    @staticmethod
    def _no_store(send: Send) -> Send:
        """``send`` with ``Cache-Control: no-store`` added to the response (unless the app set one)."""

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with_no_store(message.get("headers", []))
            await send(message)

        return send_no_store


def _with_no_store(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with ``Cache-Control: no-store`` when they have no ``Cache-Control``."""
    out = list(headers)
    if not any(k.lower() == b"cache-control" for k, _v in out):
        out.append((b"cache-control", NO_STORE))
    return out
