"""Readers of what a request sends: form and body checks, uploaded deck files, the JSON body of a
collection write, and the parameters several routes share (``lang``, ``page``, a card id, a
collection name). Each returns the value or raises :class:`~cardlab.web.errors.WebError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi import Request, UploadFile

from cardlab.core import l10n
from cardlab.core.errors import UsageError
from cardlab.web.errors import WebError
from cardlab.web.limits import MAX_DECK_TEXT, MAX_JSON_BODY, MAX_PAGE

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A card id as the URL gives it: letters, digits, ``-`` and ``_`` (no dot, no slash, at most 64)."""
FILENAME_PATTERN = re.compile(r"[^A-Za-z0-9_-]+")
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
"""Content types of the deck form's routes (``/deck``, ``/deck/export.*``, ``/deck/proxies.pdf``)."""
DECK_SUFFIXES = frozenset({".txt", ".yaml", ".yml", ".json", ".cod"})
"""The suffixes of an uploaded deck file kept as given: the ones :func:`cardlab.decks.read.parse_deck_text`
reads by (text, YAML, a JSON deck document, a Cockatrice deck); any other is read as ``.txt``."""


def form_body(request: Request) -> None:
    """A dependency of the deck form's routes: refuse a body that is not a form.

    Raises:
        WebError: 415 ``unsupported_media_type`` for a JSON (or any other) body, which would otherwise be
            read as an empty form ("the file is empty").
    """
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype not in FORM_TYPES:
        raise WebError(415, "unsupported_media_type", f"send the deck form as {' or '.join(FORM_TYPES)} (got {ctype or 'no content type'})")


async def deck_body(request: Request) -> str:
    """Return the deck list sent as a ``text/plain`` body (the size is capped by the Guard and by
    :func:`cardlab.web.decks.check_deck_text`).

    Raises:
        WebError: another content type (415 ``unsupported_media_type``), a body that is not UTF-8 (400 ``bad_deck``).
    """
    ctype = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
    if ctype != "text/plain":
        raise WebError(415, "unsupported_media_type", f"send the deck list as text/plain (got {ctype})")
    raw = await request.body()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(400, "bad_deck", "the body is not UTF-8 text") from None


async def read_deck_form(text: str, upload: UploadFile | None) -> tuple[str, str]:
    """Return ``(deck text, file name)`` from the deck form: the uploaded file when one was chosen
    (its name only tells the deck reader which parser to use: its suffix is kept when it is one of
    :data:`DECK_SUFFIXES`, else ``.txt``; nothing is written), else the pasted text.

    Raises:
        WebError: an upload that is too large or not UTF-8 text (400 ``bad_deck``).
    """
    if upload is not None and upload.filename:
        raw = await upload.read(MAX_DECK_TEXT + 1)
        if len(raw) > MAX_DECK_TEXT:
            raise WebError(413, "too_large", f"the deck file is larger than {MAX_DECK_TEXT:,} bytes")
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(400, "bad_deck", "the file is not UTF-8 text; a deck list is plain text") from None
        suffix = Path(upload.filename).suffix.lower()
        return content, safe_filename(upload.filename) + (suffix if suffix in DECK_SUFFIXES else ".txt")
    return text, "deck.txt"


def read_json_object(content_type: str | None, raw: bytes) -> dict[str, Any]:
    """Return the JSON object of a collection write's body: ``card`` (text) and ``count`` (optional).

    Raises:
        WebError: not ``application/json`` (415 ``unsupported_media_type``), over
            :data:`~cardlab.web.limits.MAX_JSON_BODY` (413 ``too_large``), not JSON or nested too deep
            or with a text that is not Unicode (a lone surrogate, :func:`cardlab.core.inputs.text_argument`)
            (400 ``bad_json``), not an object with a ``card`` text and nothing but ``card`` and ``count``
            (400 ``bad_body``).
    """
    ctype = (content_type or "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise WebError(415, "unsupported_media_type", f"send a JSON object as application/json (got {ctype or 'no content type'})")
    if len(raw) > MAX_JSON_BODY:
        raise WebError(413, "too_large", f"the request body is larger than {MAX_JSON_BODY:,} bytes")
    import json

    from cardlab.core.inputs import text_argument

    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise WebError(400, "bad_json", f"the body is not JSON: {err}") from None
    except RecursionError:
        raise WebError(400, "bad_json", "the body is not JSON cardlab reads: arrays or objects nested too deep") from None
    if not isinstance(body, dict) or not isinstance(body.get("card"), str) or set(body) - {"card", "count"}:
        raise WebError(400, "bad_body", 'send {"card": "<id, set and number, or name>", "count": N} (count optional, default 1)')
    for key, value in body.items():
        if isinstance(value, str):
            try:
                text_argument(value, key, "a \\ud800 to \\udfff escape alone is not a character")
            except UsageError as err:
                raise WebError(400, "bad_json", str(err)) from None
    return body


def langs_param(lang: str | None, known: Sequence[str] | None = None) -> list[str]:
    """Return the languages a ``lang`` parameter asks for (``fr`` or ``fr,de``), at most 8 of 2-8 letters each.

    Without a ``lang``, the page's own language (:func:`cardlab.core.l10n.current`: the lang cookie or
    ``Accept-Language``, :mod:`cardlab.web.language`) when it is not English and names are known in
    it: a French browser reads the cards in French too.

    Args:
        lang: the parameter; known: the languages card names are known in (``Site.languages``); when
            given, every code asked for must be one of them (case aside), as an unknown sort is refused.

    Raises:
        WebError: a malformed language list, or a language no card name is known in (400 ``bad_parameter``).
    """
    langs = [x.strip() for x in (lang or "").split(",") if x.strip()]
    if len(langs) > 8 or any(not re.fullmatch(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})?", x) for x in langs):
        raise WebError(400, "bad_parameter", f"lang: a language code or a comma-separated list, such as fr or fr,de (got {lang!r})")
    if known is not None:
        have = {k.lower() for k in known}
        unknown = [x for x in langs if x.lower() not in have]
        if unknown:
            raise WebError(400, "bad_parameter", f"lang: no card name is known in {', '.join(unknown)} (languages: {', '.join(known)})")
    if not langs and known is not None and l10n.current() != "en" and l10n.current() in known:
        return [l10n.current()]
    return langs


TRUE_WORDS = frozenset({"1", "true", "t", "yes", "y", "on"})
FALSE_WORDS = frozenset({"0", "false", "f", "no", "n", "off"})
"""The words a boolean query parameter may be (any case), as FastAPI's typed parameters read them."""


def int_param(query: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """Return the whole number from ``low`` to ``high`` a query parameter holds (``default`` when absent).

    Raises:
        WebError: 400 ``bad_parameter`` naming the parameter and its range when it is not such a number.
    """
    value = query.get(name)
    if value is None:
        return default
    text = value.strip()
    if text.isascii() and text.lstrip("+-").isdigit() and len(text) <= 20 and low <= int(text) <= high:
        return int(text)
    raise WebError(400, "bad_parameter", f"{name}: a number from {low} to {high}")


def bool_param(query: Mapping[str, str], name: str, default: bool) -> bool:
    """Return the truth a query parameter holds (:data:`TRUE_WORDS`, :data:`FALSE_WORDS`;
    ``default`` when absent).

    Raises:
        WebError: 400 ``bad_parameter`` naming the parameter otherwise.
    """
    value = query.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise WebError(400, "bad_parameter", f"{name}: true or false, not {value[:40]!r}")


def page_langs(lang: str | None, known: Sequence[str]) -> list[str]:
    """Return the card-name languages of a page's ``lang`` parameter (``/search``, ``/card/<id>``, a
    deck page, a card face): there ``?lang=`` names the interface language too
    (:func:`cardlab.i18n.negotiate.page_language`), so every language cardlab speaks is accepted, a
    region form as its language (``fr-FR`` -> ``fr``, as ``cardlab --lang fr-FR`` does), and card names
    fall back to the card's own where none are known in it (``es``: Spanish words, English names).
    The API's ``lang`` names card names only (:func:`langs_param`).

    Args:
        lang: the parameter (``fr``, ``fr-FR,de``); known: the languages card names are known in.

    Returns:
        The asked languages card names are known in (as :func:`langs_param` returns them), or the
        page's own language when no ``lang`` was given (see :func:`langs_param`).

    Raises:
        WebError: a malformed list, or a language cardlab neither speaks nor knows card names in
            (400 ``bad_parameter``, said in the request's language: the unknown ``?lang=`` is passed
            over, the cookie or ``Accept-Language`` speak).
    """
    have = {k.lower(): k for k in known}
    out: list[str] = []
    for code in langs_param(lang):
        base = l10n.base_of(code)
        if code.lower() in have or base in have:
            out.append(have.get(code.lower()) or have[base])
        elif base not in l10n.LANGUAGES:
            names = [*(f"{c} ({n})" for c, n in l10n.LANGUAGES.items()), *(k for k in known if k.lower() not in l10n.LANGUAGES)]
            details = l10n._("lang: unknown language '{code}'; cardlab knows {languages}").format(code=code, languages=", ".join(names))
            raise WebError(400, "bad_parameter", details)
    if lang and lang.strip():
        return list(dict.fromkeys(out))
    return langs_param(lang, known)


def check_page(page: int) -> int:
    """Return a ``page`` parameter from 1 to :data:`~cardlab.web.limits.MAX_PAGE`.

    Raises:
        WebError: 400 ``bad_parameter`` otherwise.
    """
    if page < 1 or page > MAX_PAGE:
        raise WebError(400, "bad_parameter", f"page: a number from 1 to {MAX_PAGE}")
    return page


def check_card_id(card_id: str) -> str:
    """Return ``card_id`` when it has the shape of an id (:data:`ID_PATTERN`).

    Raises:
        WebError: 400 ``bad_id`` otherwise (``../``, slashes, dots, control characters, too long).
    """
    if not ID_PATTERN.fullmatch(card_id):
        raise WebError(400, "bad_id", "a card id holds only letters, digits, '-' and '_' (such as base1-4)")
    return card_id


def collection_name(name: str) -> str:
    """Return a collection's name (a player) from the URL, checked as the CLI checks ``--player``
    (:func:`cardlab.collection.owned.check_player`).

    Raises:
        WebError: 400 ``bad_name`` (empty, over 64 characters, control characters, ``/``, ``..``).
    """
    from cardlab.collection.owned import check_player

    try:
        return check_player(name)
    except UsageError as err:
        raise WebError(400, "bad_name", str(err)) from None


def safe_filename(name: str | None, default: str = "deck") -> str:
    """Return a download file name stem made of letters, digits, ``-`` and ``_`` only (at most 60)."""
    stem = FILENAME_PATTERN.sub("-", Path(name or "").stem).strip("-")[:60]
    return stem or default
