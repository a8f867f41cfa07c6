"""ASGI middleware guarding every request: a cap on request bodies, security headers, redirects kept
on this site.

Pure ASGI (no framework import), so it wraps the whole app, error pages included.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
"""Content-Security-Policy of every response: no script at all, styles and images from this site only,
forms post here only, never framed."""

SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""Headers added to every response."""


def relative_location(location: bytes) -> bytes:
    """Return a redirect's ``Location`` without its scheme and host (``http://evil.example/api/sets``
    -> ``/api/sets``): Starlette builds the trailing-slash redirect from the client's ``Host`` header,
    which a client may set to any site. The app never redirects to another site."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(location.decode("latin-1"))
    if not (parts.scheme or parts.netloc):
        return location
    return urlunsplit(("", "", "/" + parts.path.lstrip("/"), parts.query, parts.fragment)).encode("latin-1")


class Guard:
    """Wrap an ASGI app: refuse request bodies over ``max_body`` bytes with 413 (a JSON error object
    under ``/api/``, a short page elsewhere) before the app sees them, add :data:`SECURITY_HEADERS`
    to every response, make every redirect relative (:func:`relative_location`), and answer ``HEAD``
    as ``GET`` without the body.

    Args:
        app: the ASGI app to wrap.
        max_body: the largest request body accepted, in bytes (declared or streamed).
    """

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.inner, self.max_body = app, max_body  # .app: the FastAPI instance (create_app sets it)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI connection scope (http requests are guarded; others pass through)."""
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return

        head = scope["method"] == "HEAD"
        if head:  # answered as GET without the body (RFC 9110 9.3.2): the app's routes declare GET only
            scope = {**scope, "method": "GET"}

        async def send_with_headers(message: Message) -> None:
            """Pass ``message`` on, with :data:`SECURITY_HEADERS` replacing any of the same name at the
            start, a ``Location`` made relative (:func:`relative_location`), no body for ``HEAD``."""
            if head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            if message["type"] == "http.response.start":
                headers = [
                    (k, relative_location(v) if k.lower() == b"location" else v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in dict(SECURITY_HEADERS)
                ]
                message["headers"] = headers + SECURITY_HEADERS
            await send(message)

        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > self.max_body
            except ValueError:
                too_big = True
            if too_big:
                await self._refuse(scope, send_with_headers)
                return
        # read the body here, at most max_body bytes (a chunked upload may not declare its size)
        chunks: list[bytes] = []
        size = 0
        more = scope["method"] not in ("GET", "HEAD", "OPTIONS")
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse(scope, send_with_headers)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            """Give the app the body read above, once; then the connection's next messages."""
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.inner(scope, replay, send_with_headers)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        """Answer 413 with a JSON error object (``/api/``) or a short plain page."""
        details = f"the request body is larger than {self.max_body:,} bytes"
        if scope["path"].startswith("/api/"):
            body = json.dumps({"object": "error", "status": 413, "code": "too_large", "details": details}).encode()
            ctype = b"application/json"
        else:
            body = f"413: {details}\n".encode()
            ctype = b"text/plain; charset=utf-8"
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode()), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": body})
