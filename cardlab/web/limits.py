"""The web's limits: page sizes, time limits and the caps on what a request may ask for.

One home for every number a route or reader checks against (:mod:`cardlab.web.forms`,
:mod:`cardlab.web.decks`, :mod:`cardlab.web.guard` through :data:`MAX_BODY`).
"""

from __future__ import annotations

PER_PAGE = 50
"""Cards per page of results (pages and API)."""
SEARCH_TIMEOUT = 2.0
"""Seconds a search may run before it is cut off (a ``query_timeout`` error)."""
MAX_DECK_TEXT = 128 * 1024
"""Largest deck list the web takes, pasted, uploaded or sent to the API (128 kB, over a hundred times a
60-card list; ``cardlab deck`` reads files up to :data:`~cardlab.decks.model.MAX_DECK_BYTES`, 1 MB). A
hostile 1 MB list of 66,000 unknown names takes about 6 s to check on the development machine; with
:data:`MAX_DECK_LINES` a request is bounded to under a second."""
MAX_DECK_LINES = 1000
"""Most lines of a deck list the web takes (a 60-card list has a few dozen). With :data:`MAX_DECK_TEXT`
it bounds a deck check to under a second: 1,000 lines of unknown 120-letter names take 0.5 s on the
development machine, where 12,000 short ones (128 kB) took 2.4 s."""
MAX_BODY = MAX_DECK_TEXT + 16 * 1024
"""Largest request body accepted: a deck list at its size limit plus form overhead."""
MAX_PAGE = 10_000
"""Highest page number accepted."""
MAX_PROXIES = 600
"""Most proxies one ``/deck/proxies.pdf`` request prints (ten 60-card decks): a forced list of
thousands of ``99 Bill`` lines would otherwise make a PDF of tens of MB, for tens of seconds and
hundreds of MB of memory. ``cardlab proxies`` (a local user) has no such cap."""
MAX_JSON_BODY = 4096
"""Largest JSON body of a collection write (a card reference and a count need a few dozen bytes)."""
WEB_THREADS = 4
"""Threads per worker that run searches, deck checks and PDFs (``cardlab serve --threads``). On 2 cores,
50 clients were served 353 searches/s with 4 threads and 146/s with anyio's default of 40 (the threads
fight over the interpreter lock): BENCHMARKS.md, Web."""
RATE_LIMIT = 10.0
"""API requests a second each client address may send on average (``cardlab serve --rate-limit``;
Scryfall asks for 10): :mod:`cardlab.web.ratelimit`. Loopback clients are not limited."""
RATE_BURST_SECONDS = 2.0
"""A client's burst: this many seconds of its rate at once (20 requests at 10 a second)."""
GZIP_MIN = 1024
"""Bodies of at least this many bytes are gzipped for a client that accepts it (a search page of 50
cards is about 40 kB of JSON, 6 kB gzipped); smaller ones are not worth the work."""
