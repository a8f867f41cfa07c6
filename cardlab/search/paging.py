"""A search read a page at a time: :class:`Page` (the hits, the total, exact or bounded, the next
page's cursor) and the cursors themselves, opaque text that says where the next page starts.

A cursor holds the last row's place in the order (its side and order key values: keyset paging,
:func:`cardlab.search.compile.page_statement`) or, for the orders sorted in Python (names,
``unique="cards"``), the offset of the next hit. It is signed with the index's fingerprint and
backend and the search it belongs to (query, languages, sort, direction, grouping): a cursor edited by hand, cut
short, given with another query, or made before the index was rebuilt (the rows are numbered
anew) is refused with a :class:`CursorError`, never read as another page.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from cardlab.core.errors import UsageError
from cardlab.search.hits import Hit
from cardlab.search.request import SearchRequest

TOTAL_BOUND = 1000
"""Matches counted at most: above it a page's total is "more than 1,000" (:attr:`Page.total_is_exact`
False, :attr:`Page.total` then ``TOTAL_BOUND + 1``, a lower bound), as Scryfall's ``total_cards``."""

MAX_PAGE_SIZE = 1000
"""The most hits one page may hold."""

MAX_PAGE = 10_000
"""The highest page number (pages past it are reached by cursor)."""

MAX_CURSOR_CHARS = 2000
"""The longest cursor read (one this module makes is a few hundred characters at most)."""

_VERSION = 2
"""The layout of a cursor's place. 2: a PostgreSQL page of bare words always has the side of exact
names (side 0), where before it had none when no card had that whole name (its side 0 was the rest):
a cursor of version 1 is refused rather than read as another side."""


class CursorError(UsageError):
    """A page cursor this index did not give for this search (edited, cut, another query's, or from
    before a rebuild): exit 2 / HTTP 400, with what to do."""


@dataclass(frozen=True)
class Page:
    """One page of a search (:func:`cardlab.search.engine.find_page`).

    Attributes:
        hits: the page's hits, in the search's order.
        total: how many cards match: exact when ``total_is_exact``, else a lower bound
            (``TOTAL_BOUND + 1``: "more than 1,000").
        total_is_exact: whether ``total`` is the exact number of matches.
        next_cursor: the cursor of the next page, or None on the last page.
        index: the fingerprint of the index the page was read from (``""`` when it does not say):
            what a cache of the hits' shapes is keyed by.
    """

    hits: list[Hit]
    total: int
    total_is_exact: bool
    next_cursor: str | None
    index: str = ""

    @property
    def has_more(self) -> bool:
        """True when another page follows."""
        return self.next_cursor is not None


def _digest(request: SearchRequest, index: str) -> bytes:
    """The key a cursor is signed with: the index (``backend:fingerprint``) and what orders the search."""
    what = json.dumps([index, request.query, list(request.langs), request.sort, request.reverse, request.unique])
    return hashlib.sha256(what.encode()).digest()


def encode_cursor(request: SearchRequest, index: str, place: list[Any]) -> str:
    """The cursor of the next page after ``place`` (``[side, key values]`` for keyset pages,
    ``["offset", n]`` for the orders sorted in Python) of ``request`` on ``index`` (its backend
    and fingerprint, ``sqlite:<fingerprint>``): base64url JSON and its signature."""
    payload = base64.urlsafe_b64encode(json.dumps([_VERSION, place], separators=(",", ":")).encode()).rstrip(b"=")
    mac = hmac.new(_digest(request, index), payload, hashlib.sha256).digest()[:12]
    return payload.decode() + "." + base64.urlsafe_b64encode(mac).decode().rstrip("=")


def decode_cursor(cursor: str, request: SearchRequest, index: str) -> list[Any]:
    """The place ``[side, key values]`` or ``["offset", n]`` a cursor of :func:`encode_cursor` holds.

    Raises:
        CursorError: not a cursor this index gave for this search.
    """
    bad = CursorError(
        "cursor: not one this server gave for this search (edited, cut short, another query's, or"
        " from before the index was rebuilt); start again from the first page"
    )
    if not isinstance(cursor, str) or len(cursor) > MAX_CURSOR_CHARS or cursor.count(".") != 1:
        raise bad
    payload, _, mac = cursor.partition(".")
    try:
        given = base64.urlsafe_b64decode(mac + "=" * (-len(mac) % 4))
        expected = hmac.new(_digest(request, index), payload.encode("ascii"), hashlib.sha256).digest()[:12]
        if not hmac.compare_digest(given, expected):
            raise bad
        version, place = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (binascii.Error, ValueError, TypeError, UnicodeError):
        raise bad from None
    if version != _VERSION or not isinstance(place, list) or len(place) != 2:
        raise bad
    return place
