"""The web page's language: ``?lang=``, then the ``lang`` cookie, then ``Accept-Language``.

:func:`page_language` is the one choice a page makes (its words, its ``<html lang>``, and the card
names it prefers); :func:`template_globals` is what the templates call (``t``, ``words``,
``page_lang``). The terminal's choice (``--lang``, ``CARDLAB_LANG``, the locale) is
:func:`cardlab.cli.options.langs_of`'s; both end in :func:`cardlab.core.l10n.use`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from cardlab.core import l10n

COOKIE = "lang"
"""The cookie a page's language choice is kept in."""

MAX_ACCEPT_LANGUAGE = 1000
"""An ``Accept-Language`` header longer than this is read up to here only (a hostile header costs nothing)."""


_QVALUE = re.compile(r"0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?")
"""A weight as RFC 9110 section 12.4.2 writes it: 0 to 1, at most three decimals."""


def _accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header (RFC 9110 section 12.5.4), best first:
    ``fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5`` -> ``["fr", "fr", "en"]``; ``q=0`` and ``*`` left out,
    equal weights in the header's order. A language whose weight is not a qvalue (``q=abc``,
    ``q=nan``, ``q=inf``, ``q=-1``, ``q=2``) is left out too: an invalid weight never ranks first."""
    weighted: list[tuple[float, int, str]] = []
    for order, item in enumerate(header[:MAX_ACCEPT_LANGUAGE].split(",")):
        code, _sep, params = item.strip().partition(";")
        code = code.strip()
        if not code or code == "*":
            continue
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                q = float(value) if _QVALUE.fullmatch(value.strip()) else 0.0
        if q > 0:
            weighted.append((-q, order, l10n.base_of(code)))
    return [code for _q, _o, code in sorted(weighted)]


def page_language(query: str | None = None, cookie: str | None = None, accept_language: str | None = None) -> str:
    """Return the interface language of a page: the first of ``?lang=``, the ``lang`` cookie and the
    ``Accept-Language`` header's languages (by weight) that cardlab speaks; else English.

    A ``?lang=`` or cookie naming a language cardlab does not know is passed over here: the page
    then refuses that ``?lang=`` (400, :func:`cardlab.web.forms.page_langs`) in the language chosen
    without it, as the terminal's ``--lang`` is refused (exit 2).

    Args:
        query: the ``lang`` query parameter, or None; cookie: the ``lang`` cookie, or None;
        accept_language: the request's ``Accept-Language`` header, or None.

    Returns:
        A code of :data:`cardlab.core.l10n.LANGUAGES` (``fr``).
    """
    for wanted in (query, cookie):
        if wanted and l10n.base_of(wanted) in l10n.LANGUAGES:
            return l10n.base_of(wanted)
    for code in _accepted(accept_language or ""):
        if code in l10n.LANGUAGES:
            return code
    return "en"


def from_headers(params: Mapping[str, str], cookies: Mapping[str, str], headers: Mapping[str, str]) -> str:
    """:func:`page_language` of a request's query parameters, cookies and headers (any mappings:
    Starlette's ``request.query_params``, ``request.cookies``, ``request.headers``)."""
    return page_language(params.get("lang"), cookies.get(COOKIE), headers.get("accept-language"))


def template_globals() -> dict[str, object]:
    """The names the templates call, for ``env.globals.update(...)``: ``t`` (a message in the
    page's language), ``words`` (a stored type line or stats line, piece by piece) and
    ``page_lang`` (the code for ``<html lang>``). The page's language is the one
    :func:`cardlab.core.l10n.use` set for the request (``l10n.use(from_headers(...))``)."""
    return {"t": l10n._, "words": l10n.words, "page_lang": l10n.current}
