"""Walking every page of a search by cursor (cardlab.search.engine.find_page), for the tests of
pages on one backend (tests/unit/search) and on both (tests/conformance)."""

from __future__ import annotations

from typing import Any

from cardlab.search.engine import find_page
from cardlab.search.paging import Page


def walk(con: Any, query: str, size: int, **options: Any) -> tuple[list[str], list[Page]]:
    """Every page of ``query`` read by cursor, ``size`` hits a page: the ids in order and the
    pages. Every page before the last is full."""
    ids: list[str] = []
    pages: list[Page] = []
    cursor = None
    while True:
        page = find_page(con, query, page_size=size, cursor=cursor, **options)
        pages.append(page)
        ids += [h.id for h in page.hits]
        if page.next_cursor is None:
            return ids, pages
        assert len(page.hits) == size
        cursor = page.next_cursor
