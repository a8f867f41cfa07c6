"""ASGI middleware giving every request its interface language (issue 32): ``?lang=``, then the
``lang`` cookie, then ``Accept-Language`` (:func:`cardlab.i18n.negotiate.from_headers`), set with
:func:`cardlab.core.l10n.speaking` around the app, so labels, verdict words and problem sentences
(``_()`` anywhere below), the templates' ``tr()`` and ``<html lang>`` all follow it.

A page (not the API) asked for with a ``?lang=`` cardlab speaks keeps the choice in the ``lang`` cookie; every
answer says ``Vary: Accept-Language, Cookie`` (the same URL answers in several languages).
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from cardlab.core import l10n
from cardlab.i18n.negotiate import COOKIE, page_language
from cardlab.web.guard import ASGIApp, Message, Receive, Scope, Send

COOKIE_AGE = 365 * 24 * 3600
"""Seconds the ``lang`` cookie is kept (a year)."""

VARY = b"Accept-Language, Cookie"


def request_language(scope: Scope) -> tuple[str, bool]:
    """Return ``(language, chosen)`` of an HTTP request's scope: the interface language
    (:func:`cardlab.i18n.negotiate.page_language`) and whether its ``?lang=`` names a language
    cardlab speaks on a page (then the page keeps it in the cookie; the API keeps nothing)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[-1]
    headers = {k.lower(): v for k, v in scope.get("headers") or []}
    cookie = None
    raw = headers.get(b"cookie")
    if raw:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(raw.decode("latin-1"))
        except Exception:  # noqa: BLE001 - a malformed Cookie header is no cookie, never an error
            jar = SimpleCookie()
        cookie = jar[COOKIE].value if COOKIE in jar else None
    accept = headers.get(b"accept-language")
    lang = page_language(query, cookie, accept.decode("latin-1") if accept else None)
    chosen = bool(query) and l10n.base_of(query or "") == lang and not scope.get("path", "").startswith("/api/")
    return lang, chosen


class Language:
    """Wrap an ASGI app: run each HTTP request in its interface language (:func:`request_language`),
    keep a ``?lang=`` choice in the ``lang`` cookie, add ``Vary: Accept-Language, Cookie``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI scope (http requests get their language; others pass through)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang, chosen = request_language(scope)

        async def send_with_language(message: Message) -> None:
            """Pass ``message`` on, with ``Vary`` and, for a chosen language, the cookie."""
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"vary"]
                vary = [v for k, v in message.get("headers", []) if k.lower() == b"vary"]
                headers.append((b"vary", b", ".join([*vary, VARY])))
                if chosen:
                    cookie = f"{COOKIE}={lang}; Path=/; Max-Age={COOKIE_AGE}; SameSite=Lax"
                    headers.append((b"set-cookie", cookie.encode("latin-1")))
                message["headers"] = headers
            await send(message)

        with l10n.speaking(lang):
            await self.app(scope, receive, send_with_language)
