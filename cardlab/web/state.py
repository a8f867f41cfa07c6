"""The site's state as a FastAPI dependency: :class:`Site` (catalog, formats, index connections, the
write token), kept on ``app.state.site`` by the factory and handed to a route by :func:`get_site`.

A route takes it as a parameter (``site: SiteDep``), so it is a plain module-level function a test can
import and call with any :class:`Site`.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Request

from cardlab.web.limits import SEARCH_TIMEOUT

if TYPE_CHECKING:
    import sqlite3

    from cardlab.collection.cards import CardResolver
    from cardlab.contrib.new_card import SetStatus


class Site:
    """What the routes share: the catalog and formats (opened once), the card indexes deck lines are
    matched with (built once per game and languages), the search index (one read-only connection per
    thread), the search time limit.

    The catalog is the one every command reads (:func:`cardlab.index.stored.open_catalog`): with a
    fresh SQLite index (built or refreshed here when stale), a
    :class:`~cardlab.index.stored.StoredCatalog` whose cards load from the index when a route asks
    for them, safe to share between the worker threads (its docstring); so the server starts at the
    cost of the sets and the format files, not of the cards (100,000 cards are not validated in
    memory). With the index on a PostgreSQL server, or an index that cannot be written, the catalog
    validated in memory, as before.

    Args:
        roots: catalog roots; db: the index file (built or refreshed here when stale) or URL.
        search_timeout: seconds a search may run.
        token: the write token (:func:`cardlab.core.auth.check_token`); None: writes are off.

    Raises:
        CatalogError: the catalog does not validate.
        IndexWriteError: the index file cannot be written and there is none yet.
        IndexOutOfDateError: (PostgreSQL) the index on the server is missing or stale.
    """

    def __init__(self, roots: list[Path], db: Path | str, search_timeout: float = SEARCH_TIMEOUT, token: str | None = None) -> None:
        from cardlab.core.errors import CatalogError
        from cardlab.decks.check import header_words
        from cardlab.index.access import ensure_index
        from cardlab.index.stored import StoredCatalog, open_catalog
        from cardlab.search.lookup import languages

        catalog, formats, problems = open_catalog(list(roots), db)
        if problems:
            raise CatalogError(problems)
        if not isinstance(catalog, StoredCatalog):  # validated in memory: the index must still be there (as before)
            ensure_index(list(roots), db)
        self.roots, self.db, self.search_timeout = list(roots), db, search_timeout
        self.catalog = catalog
        self.formats = formats
        self.header_words = header_words(self.formats)
        self.indexes: dict = {}  # card indexes per game and languages, built once (decks.check.card_index)
        self._local = threading.local()
        self.languages = languages(self.con())
        self.token = token
        self._resolver: Any = None
        self._resolver_lock = threading.Lock()
        self._statuses: list[SetStatus] | None = None
        self._statuses_lock = threading.Lock()
        self._fingerprint: str | None = None
        self._watch: Any = None  # PostgreSQL: the session current_fingerprint reads the index's fingerprint with
        self._watch_lock = threading.Lock()

    @property
    def allow_writes(self) -> bool:
        """True when the collection write endpoints are on (a token was given)."""
        return self.token is not None

    def resolver(self) -> CardResolver:
        """Return the card resolver of collection writes (every game; built once, on first use)."""
        with self._resolver_lock:
            if self._resolver is None:
                from cardlab.collection.cards import CardResolver

                self._resolver = CardResolver(self.catalog)
            return self._resolver

    def set_statuses(self) -> list[SetStatus]:
        """Return every set's recording status (:func:`cardlab.contrib.new_card.set_statuses`:
        counts from the index, by game then code), the numbers still missing worked out once, on
        first use, and kept: the catalog does not change while the site runs, and reading every
        set's numbers costs about 0.2 s at 100,000 cards (334 sets), the numbers about 6 MB kept."""
        with self._statuses_lock:
            if self._statuses is None:
                from cardlab.contrib.new_card import set_statuses

                statuses = set_statuses(self.catalog)
                for status in statuses:
                    _ = status.missing  # read now, once, not by each request
                self._statuses = statuses
            return self._statuses

    def current_fingerprint(self) -> str:
        """Return the fingerprint of the index as it is now (what the ETags start from,
        :mod:`cardlab.web.caching`): on SQLite the one read at start (the file this site reads is
        never changed under it); on a PostgreSQL server, which another process may rebuild while
        this one serves, read by a session of its own, without a round trip while it sees no swap
        (:meth:`cardlab.index.postgres.PgIndex.unchanged`), else with one."""
        from cardlab.core.errors import CardlabError
        from cardlab.index.access import index_fingerprint
        from cardlab.index.postgres import is_url

        with self._watch_lock:
            if self._fingerprint is None or is_url(self.db):
                if not is_url(self.db):
                    self._fingerprint = index_fingerprint(self.con())
                else:
                    from cardlab.index import postgres
                    from cardlab.search.connection import fetch, snapshot

                    try:
                        if self._watch is None:
                            self._watch = postgres.connect(str(self.db))
                        if not self._watch.unchanged():
                            with snapshot(self._watch):
                                fetch(self._watch, "SELECT 1", [], None, last=True)
                        self._fingerprint = self._watch.fingerprint() or ""
                    except CardlabError:
                        # the server cannot be reached now (the search itself says so, 503): no
                        # answer may be taken for an old one; a new session next time
                        self._watch, self._fingerprint = None, f"unreachable {time.monotonic()}"
            return self._fingerprint

    def con(self) -> sqlite3.Connection:
        """Return this thread's read-only index connection (opened on first use)."""
        con = getattr(self._local, "con", None)
        if con is None:
            from cardlab.index.access import connect

            con = self._local.con = connect(self.db)
        return con

    def source_of(self, card_id: str) -> str:
        """Return the source language of a card's set."""
        return self.catalog.set_of(card_id).source_language


async def get_site(request: Request) -> Site:
    """The dependency every route takes its :class:`Site` from: ``app.state.site``, set by
    :func:`cardlab.web.app.create_app`. Async, so FastAPI runs it on the event loop (no thread hop)."""
    site: Site = request.app.state.site
    return site


SiteDep = Annotated[Site, Depends(get_site)]
"""A route parameter's type for the site (``site: SiteDep``)."""
