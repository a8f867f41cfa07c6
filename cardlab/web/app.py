"""The web page and JSON API of ``cardlab serve``: FastAPI routes and Jinja2 templates over the library.

Every answer comes from the library (:mod:`cardlab.search.engine`, :mod:`cardlab.search.lookup`,
:mod:`cardlab.decks.check`, :mod:`cardlab.decks.stats`, :mod:`cardlab.decks.rules`,
:mod:`cardlab.proxies.pdf`, :mod:`cardlab.contrib.new_card`); this module only reads requests and
shapes pages and JSON. Pages are server-rendered HTML that needs no JavaScript.

- Pages: ``/search`` (and ``/search/help``), ``/card/<id>``, ``/deck`` (POST: check; ``/deck/export.txt``,
  ``/deck/export.json``, ``/deck/proxies.pdf``), ``/sets``.
- API (Scryfall-like): ``/api/cards/search``, ``/api/cards/<id>``, ``/api/sets``,
  ``POST /api/decks/validate``, ``POST /api/decks/have``, ``/api/collections``,
  ``/api/collections/<name>``; ``/api/openapi.json`` describes it. Errors are JSON objects
  ``{"object": "error", "status", "code", "details", ...}``.
- Writes: ``POST /api/collections/<name>/cards`` (add) and ``POST /api/collections/<name>/cards/remove``
  change a collection through :func:`cardlab.collection.owned.plan_change` and
  :func:`~cardlab.collection.owned.change`, as ``cardlab collection add/remove`` do. They answer 403
  unless the app was built with ``allow_writes`` (``cardlab serve --allow-writes``), and then 401
  without ``Authorization: Bearer <token>`` matching the server's token (:mod:`cardlab.core.auth`).

The catalog and formats are loaded once when the app is created; the index is opened read-only, one
connection per worker thread. A catalog edited while serving is seen after a restart.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardlab.core.errors import CardlabError, InputError, UsageError
from cardlab.core.text import visible
from cardlab.web.guard import Guard

if TYPE_CHECKING:
    import sqlite3

    from cardlab.collection.cards import CardResolver
    from cardlab.collection.db import Database
    from cardlab.decks.check import DeckReport
    from cardlab.decks.model import Deck
    from cardlab.search.hits import CardView

HERE = Path(__file__).resolve().parent
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
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A card id as the URL gives it: letters, digits, ``-`` and ``_`` (no dot, no slash, at most 64)."""
FILENAME_PATTERN = re.compile(r"[^A-Za-z0-9_-]+")
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
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
"""Content types of the deck form's routes (``/deck``, ``/deck/export.*``, ``/deck/proxies.pdf``)."""


def form_body(request: Request) -> None:
    """A dependency of the deck form's routes: refuse a body that is not a form.

    Raises:
        WebError: 415 ``unsupported_media_type`` for a JSON (or any other) body, which would otherwise be
            read as an empty form ("the file is empty").
    """
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype not in FORM_TYPES:
        raise WebError(415, "unsupported_media_type", f"send the deck form as {' or '.join(FORM_TYPES)} (got {ctype or 'no content type'})")


class WebError(Exception):
    """An error to answer with: ``status`` (HTTP), ``code`` (stable id), ``details`` (words) and
    ``extra`` fields for the JSON object (``column`` of a query error...)."""

    def __init__(self, status: int, code: str, details: str, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(details)
        self.status, self.code, self.details, self.extra = status, code, details, extra
        self.headers = headers or {}

    def to_json(self) -> dict[str, Any]:
        """Return the JSON error object: ``{"object": "error", "status", "code", "details", **extra}``."""
        return {"object": "error", "status": self.status, "code": self.code, "details": self.details, **self.extra}


def web_error(err: CardlabError) -> WebError:
    """Map a library error to the :class:`WebError` to answer with (status, code, details)."""
    from cardlab.core.database import DatabaseUnavailableError, DataDirError
    from cardlab.search.connection import QueryTimeoutError
    from cardlab.search.lookup import AmbiguousCardError, CardNotFoundError
    from cardlab.search.query.tree import QueryError

    if isinstance(err, QueryError):
        return WebError(400, "bad_query", err.reason, column=err.pos + 1, query=err.query, caret=err.caret())
    if isinstance(err, QueryTimeoutError):
        return WebError(400, "query_timeout", str(err), seconds=err.seconds)
    if isinstance(err, CardNotFoundError):
        return WebError(404, "not_found", str(err), suggestions=err.suggestions)
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


class Site:
    """What the routes share: the catalog and formats (loaded once), the card indexes deck lines are
    matched with (built once per game and languages), the search index (one read-only connection per
    thread), the search time limit.

    Args:
        roots: catalog roots; db: the index file (built or refreshed here when stale).
        search_timeout: seconds a search may run.
        token: the write token (:func:`cardlab.core.auth.check_token`); None: writes are off.

    Raises:
        CatalogError: the catalog does not validate.
    """

    def __init__(self, roots: list[Path], db: Path | str, search_timeout: float = SEARCH_TIMEOUT, token: str | None = None) -> None:
        from cardlab.catalog.validate import validate
        from cardlab.core.errors import CatalogError
        from cardlab.decks.check import header_words
        from cardlab.index.access import ensure_index
        from cardlab.search.lookup import languages

        result = validate(list(roots))
        if result.problems:
            raise CatalogError(result.problems)
        ensure_index(list(roots), db)
        self.roots, self.db, self.search_timeout = list(roots), db, search_timeout
        self.catalog = result.catalog
        self.formats = dict(sorted(result.formats.items()))
        self.header_words = header_words(self.formats)
        self.indexes: dict = {}  # card indexes per game and languages, built once (decks.check.card_index)
        self._local = threading.local()
        self.languages = languages(self.con())
        self.token = token
        self._resolver: Any = None
        self._resolver_lock = threading.Lock()

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


def langs_param(lang: str | None, known: Sequence[str] | None = None) -> list[str]:
    """Return the languages a ``lang`` parameter asks for (``fr`` or ``fr,de``), at most 8 of 2-8 letters each.

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
    return langs


def check_card_id(card_id: str) -> str:
    """Return ``card_id`` when it has the shape of an id (:data:`ID_PATTERN`).

    Raises:
        WebError: 400 ``bad_id`` otherwise (``../``, slashes, dots, control characters, too long).
    """
    if not ID_PATTERN.fullmatch(card_id):
        raise WebError(400, "bad_id", "a card id holds only letters, digits, '-' and '_' (such as base1-4)")
    return card_id


def safe_filename(name: str | None, default: str = "deck") -> str:
    """Return a download file name stem made of letters, digits, ``-`` and ``_`` only (at most 60)."""
    stem = FILENAME_PATTERN.sub("-", Path(name or "").stem).strip("-")[:60]
    return stem or default


# --- searches -------------------------------------------------------------------------------


def run_search(site: Site, q: str, sort: str, reverse: bool, langs: Sequence[str], page: int) -> tuple[int, list]:
    """Return ``(total, hits of the page)`` for a query (library :func:`cardlab.search.engine.search_page`).

    Raises:
        WebError: a bad query (with its column), a query cut off by the time limit, a bad sort or page.
    """
    from cardlab.search import engine

    if page < 1 or page > MAX_PAGE:
        raise WebError(400, "bad_parameter", f"page: a number from 1 to {MAX_PAGE}")
    try:
        total, hits = engine.search_page(
            site.con(),
            q,
            langs=list(langs),
            sort=sort,
            reverse=reverse,
            limit=PER_PAGE,
            offset=(page - 1) * PER_PAGE,
            timeout=site.search_timeout,
        )
    except CardlabError as err:
        raise web_error(err) from None
    return total, hits


def card_json(site: Site, view: CardView, langs: Sequence[str]) -> dict[str, Any]:
    """Return a card as the API gives it: id, game, names, set, the card's data as in its file,
    every printing and its legality in every format of its game."""
    from cardlab.core.text import pick
    from cardlab.decks.rules import card_legality

    src = view.set_data.get("source_language", "en")
    data = view.data
    return {
        "object": "card",
        "id": view.id,
        "game": view.game,
        "name": pick(data.get("name"), list(langs), src),
        "names": {k: v for k, v in data.get("name", {}).items() if k != "_source"},
        "set": {
            "code": view.set_data.get("code"),
            "name": pick(view.set_data.get("name"), list(langs), src),
            "printed_total": view.set_data.get("printed_total"),
        },
        "number": data.get("number"),
        "source_language": src,
        "printings": [{"id": i, "set": s, "number": n, "rarity": r} for i, s, n, r in view.printings],
        "legalities": {
            f.name: ("legal" if ok else "not_legal")
            for f, ok, _why in card_legality(
                site.catalog.card_set.get(view.id, ""), [f for f in site.formats.values() if f.game == view.game]
            )
        },
        "data": data,
    }


# --- decks ----------------------------------------------------------------------------------


def check_deck_text(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str]) -> dict[str, Any]:
    """Check a pasted deck list (:func:`cardlab.decks.check.check_list`, the one deck checker, as
    the CLI): against ``format_name``, else the list's own ``Format:`` line, else against every
    format of its game.

    Args:
        site: the loaded catalog and formats; text: the deck list; name: its file name (``.yaml``
            reads it as YAML); format_name: a format or None; langs: languages of card names.

    Returns:
        ``{"deck": the matched Deck (the named format's, else the best fit's), "reports": [DeckReport, ...],
        "notes": [...], "list": the DeckList, "check": the LegalityReport}``.

    Raises:
        WebError: the text cannot be read as a deck (400 ``bad_deck``), an unknown format (400 ``bad_request``),
            a list over :data:`MAX_DECK_TEXT` bytes or :data:`MAX_DECK_LINES` lines (413 ``too_large``).
    """
    from cardlab.core.inputs import split_lines
    from cardlab.decks import check as decks
    from cardlab.decks.read import parse_deck_text

    if len(text.encode("utf-8", "surrogatepass")) > MAX_DECK_TEXT:
        raise WebError(413, "too_large", f"the deck list is larger than {MAX_DECK_TEXT:,} bytes")
    lines = len(split_lines(text))
    if lines > MAX_DECK_LINES:
        raise WebError(413, "too_large", f"the deck list has {lines:,} lines; the web checks at most {MAX_DECK_LINES:,}")
    try:
        deck_list = parse_deck_text(text, name, site.header_words)
        check = decks.check_list(deck_list, site.catalog, site.formats, format_name or None, langs, site.indexes)
    except CardlabError as err:
        raise web_error(err) from None
    reports = [decks.DeckReport(r.deck, r.problems) for r in check.results]
    return {"deck": check.best.deck, "reports": reports, "notes": check.notes, "list": deck_list, "check": check}


def card_view(site: Site, card_id: str) -> CardView:
    """The card a ``/card/<id>`` or ``/api/cards/<id>`` path names (:func:`cardlab.search.lookup.get_card`).

    Raises:
        WebError: a malformed id (400), an unknown card (404).
    """
    from cardlab.search.lookup import get_card

    check_card_id(card_id)
    try:
        return get_card(site.con(), card_id)
    except CardlabError as err:
        raise web_error(err) from None


def report_json(report: DeckReport) -> dict[str, Any]:
    """Return a deck report as the API gives it (:meth:`DeckReport.to_json` without the server-side file name)."""
    data = report.to_json()
    data.pop("file", None)
    for p in [*data["problems"], *data.get("notes", [])]:
        p.pop("path", None)
    return {"object": "deck_report", **data}


def lines_with_problems(text: str, reports: Sequence) -> tuple[list[dict[str, Any]], list]:
    """Pair each line of the pasted text with the problems reported at it, the lines split as the deck
    parser splits them (:func:`cardlab.core.inputs.split_lines`: at ``\\n``, ``\\r\\n`` and ``\\r`` only).

    A problem several formats report alike (the same rule and message at the same line) is shown
    once, with the formats it concerns (``"all"`` when it is every format checked).

    Returns:
        ``([{"number", "text", "problems": [(formats, Problem), ...], "notes": []}, ...],
        [(formats, Problem) at no line]``; ``formats`` is the names joined by ``, `` or ``"all"``.
    """
    from cardlab.core.inputs import split_lines

    # the deck parser's own splitter (cardlab.decks.parse_text): \f, \v, NEL, U+2028... are spaces, not breaks
    rows = [{"number": i, "text": line, "problems": [], "notes": []} for i, line in enumerate(split_lines(text), start=1)]
    seen: dict[tuple[int, str, str], list[str]] = {}
    found: dict[tuple[int, str, str], Any] = {}
    for report in reports:
        for p in report.problems:
            key = (p.pos.line, p.rule, p.message)
            seen.setdefault(key, []).append(report.deck.format.name)
            found.setdefault(key, p)
    loose = []
    for key, names in seen.items():
        where = "all" if len(names) == len(reports) and len(reports) > 1 else ", ".join(names)
        p = found[key]
        if 1 <= p.pos.line <= len(rows):
            rows[p.pos.line - 1]["problems"].append((where, p))
        else:
            loose.append((where, p))
    return rows, loose


DECK_SUFFIXES = frozenset({".txt", ".yaml", ".yml", ".json", ".cod"})
"""The suffixes of an uploaded deck file kept as given: the ones :func:`cardlab.decks.read.parse_deck_text`
reads by (text, YAML, a JSON deck document, a Cockatrice deck); any other is read as ``.txt``."""


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


# --- collections ----------------------------------------------------------------------------


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


def check_write_access(site: Site, token: str | None) -> None:
    """Let a collection write through, or refuse it.

    Args:
        site: the app's :class:`Site` (``site.token``: the server's token, None when writes are off);
        token: the request's bearer token (``Authorization: Bearer <token>``), None when absent.

    Raises:
        WebError: 403 ``writes_disabled`` when the server was started without ``--allow-writes``;
            401 ``unauthorized`` (with ``WWW-Authenticate: Bearer``) for a missing or wrong token,
            compared in constant time (:func:`hmac.compare_digest`).
    """
    import hmac

    if site.token is None:
        raise WebError(403, "writes_disabled", "this server is read-only; collections change only on a server started with --allow-writes")
    challenge = {"WWW-Authenticate": 'Bearer realm="cardlab"'}
    if not token:
        raise WebError(401, "unauthorized", "a collection write needs the server's token: Authorization: Bearer <token>", challenge)
    if not hmac.compare_digest(token.encode("utf-8", "surrogateescape"), site.token.encode()):
        raise WebError(401, "unauthorized", "wrong token", challenge)


def read_json_object(content_type: str | None, raw: bytes) -> dict[str, Any]:
    """Return the JSON object of a collection write's body: ``card`` (text) and ``count`` (optional).

    Raises:
        WebError: not ``application/json`` (415 ``unsupported_media_type``), over
            :data:`MAX_JSON_BODY` (413 ``too_large``), not JSON or nested too deep or with a text
            that is not Unicode (a lone surrogate, :func:`cardlab.core.inputs.text_argument`) (400
            ``bad_json``), not an object
            with a ``card`` text and nothing but ``card`` and ``count`` (400 ``bad_body``).
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


def collection_change(site: Site, name: str, op: str, body: dict[str, Any]) -> dict[str, Any]:
    """Add (``op`` ``add``) or remove (``remove``) copies of a card in one transaction, as
    ``cardlab collection add/remove`` do: :func:`cardlab.collection.owned.plan_change`, then
    :func:`cardlab.collection.owned.change` on the collections database (``CARDLAB_DATA``).

    Returns:
        ``{"object": "collection_change", "collection", "action", "card", "count", "owned"}``
        (``owned``: the copies owned after the change).

    Raises:
        WebError: as :func:`collection_name` and :func:`collection_error`; nothing is written.
    """
    from cardlab.collection import db, owned

    who = collection_name(name)
    count = body.get("count")
    if "count" in body and (not isinstance(count, int) or isinstance(count, bool)):
        import json

        shown = json.dumps(count, ensure_ascii=False)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise WebError(400, "bad_count", f"count is a JSON integer from 1 to {owned.MAX_COUNT:,} (or absent: 1), not {shown}")
    try:
        who, card_id, n = owned.plan_change(site.resolver(), who, op, body["card"], count, count_name="count")
    except CardlabError as err:
        raise collection_error(err) from None
    database = connect_collections(db.connect)
    try:
        new = owned.change(database, who, [(op, card_id, n)])[card_id]
    except CardlabError as err:
        raise collection_error(err) from None
    finally:
        database.close()
    return {"object": "collection_change", "collection": who, "action": op, "card": card_id, "count": n, "owned": new}


def connect_collections(opener: Any) -> Any:
    """Return ``opener()``: the collections database (``CARDLAB_DATA``) opened by
    :func:`cardlab.collection.db.connect` (to write) or :func:`cardlab.collection.owned.open_readonly`
    (to read; None when there is none yet).

    Raises:
        WebError: 503 ``collection_unavailable`` when it cannot be opened (a bad ``CARDLAB_DATA``,
            a server that cannot be reached, a read-only folder...), in generic words (:func:`unavailable`).
    """
    try:
        return opener()
    except CardlabError as err:
        raise unavailable(err) from None


def open_collections() -> Database | None:
    """Open the collections database for reading (:func:`connect_collections` with
    :func:`cardlab.collection.owned.open_readonly`); None when there is none yet."""
    from cardlab.collection.owned import open_readonly

    return connect_collections(open_readonly)


def collection_names() -> list[str]:
    """Return every collection (player) with at least one card, sorted (:func:`cardlab.collection.owned.players`)."""
    from cardlab.collection.owned import players

    database = open_collections()
    if database is None:
        return []
    try:
        return players(database)
    except CardlabError as err:
        raise collection_error(err) from None
    finally:
        database.close()


def collection_choices() -> dict[str, Any]:
    """The deck form's collections: ``{"collections": names, "collections_error": None}``, or no
    names and the reason when the collections database cannot be read (the deck check still works)."""
    try:
        return {"collections": collection_names(), "collections_error": None}
    except WebError as err:
        return {"collections": [], "collections_error": err.details}


def collection_counts(name: str) -> tuple[str, dict[str, int]]:
    """Return ``(name checked, card id -> copies)`` of one collection; an unknown name owns nothing
    (as ``cardlab collection list --player``).

    Raises:
        WebError: a bad name (400), a database that cannot be read (503).
    """
    from cardlab.collection.owned import counts

    who = collection_name(name)
    database = open_collections()
    if database is None:
        return who, {}
    try:
        return who, counts(database, who)
    except CardlabError as err:
        raise collection_error(err) from None
    finally:
        database.close()


# --- the app --------------------------------------------------------------------------------


def _templates() -> Jinja2Templates:
    """Jinja2 templates from ``templates/``, every one autoescaped."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return Jinja2Templates(env=env)


WEB_THREADS = 4
"""Threads per worker that run searches, deck checks and PDFs (``cardlab serve --threads``). On 2 cores,
50 clients were served 353 searches/s with 4 threads and 146/s with anyio's default of 40 (the threads
fight over the interpreter lock): BENCHMARKS.md, Web."""


def web_threads() -> int:
    """The number of request threads per worker: ``CARDLAB_WEB_THREADS`` (set by ``cardlab serve
    --threads``), else :data:`WEB_THREADS`.

    Raises:
        UsageError: not a whole number from 1 to 64.
    """
    import os

    text = os.environ.get("CARDLAB_WEB_THREADS", "").strip()
    if not text:
        return WEB_THREADS
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise UsageError(f"CARDLAB_WEB_THREADS: a whole number from 1 to 64, not '{text}'")
    return int(text)


def create_app(
    roots: list[Path] | None = None,
    db: Path | str | None = None,
    search_timeout: float = SEARCH_TIMEOUT,
    allow_writes: bool | None = None,
    token: str | None = None,
) -> Any:
    """Build the ASGI app (FastAPI wrapped in :class:`~cardlab.web.guard.Guard`).

    Args:
        roots: catalog roots (default: ``CARDLAB_CATALOG``, else the shipped cards);
        db: the index file (default: ``CARDLAB_DB``, else the one in the user cache);
        search_timeout: seconds a search may run;
        allow_writes: turn on the collection write endpoints (default: ``CARDLAB_SERVE_WRITES`` is
            ``1``, as ``cardlab serve --allow-writes`` sets it);
        token: the token writes must carry (default: ``CARDLAB_SERVE_TOKEN``); used only with writes on.

    Returns:
        The ASGI app; its ``.app`` is the FastAPI instance and ``.site`` the :class:`Site`.

    Raises:
        CatalogError: the catalog does not validate. UsageError: writes on without a usable token
            (:func:`cardlab.core.auth.check_token`): no token is made up.
    """
    import os

    from cardlab.core.auth import TOKEN_ENV, check_token
    from cardlab.core.paths import catalog_roots, default_db

    if allow_writes is None:
        allow_writes = os.environ.get("CARDLAB_SERVE_WRITES") == "1"
    if allow_writes:
        if token is None and os.environ.get(TOKEN_ENV) is None:
            raise UsageError(f"writes are on but no token was given: set {TOKEN_ENV} (cardlab makes none up)")
        token = check_token(token if token is not None else os.environ[TOKEN_ENV], "the token given" if token is not None else TOKEN_ENV)
    roots = catalog_roots(roots)
    site = Site(roots, default_db(roots, db), search_timeout, token if allow_writes else None)
    templates = _templates()
    threads = web_threads()

    @asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        yield

    api = FastAPI(
        lifespan=lifespan,
        title="cardlab",
        version=_version(),
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        description=(
            "Cards, sets, deck checks and collections of the cardlab catalog. Errors are objects with status, code and details. "
            "Collection writes (POST /api/collections/{name}/cards, POST /api/collections/{name}/cards/remove) answer 403 "
            "writes_disabled unless the server runs with --allow-writes, and then need Authorization: Bearer <token> "
            "(401 unauthorized without it)." + (" This server takes writes." if allow_writes else " This server is read-only.")
        ),
    )
    api.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render the template ``name`` with ``context`` (plus ``site`` and a default title) and ``status``."""
        context["title"] = visible(context.get("title", "cardlab"))  # a NUL typed in a query never reaches <title>
        return templates.TemplateResponse(request, name, {"site": site, **context}, status_code=status)

    def is_api(request: Request) -> bool:
        """True for a request under ``/api/`` (answered with JSON errors)."""
        return request.url.path.startswith("/api/")

    @api.exception_handler(WebError)
    async def _web_error(request: Request, err: WebError) -> Response:
        """Answer a :class:`WebError`: its JSON object under ``/api/``, else the error page, with its status."""
        if is_api(request):
            return JSONResponse(err.to_json(), status_code=err.status, headers=err.headers)
        response = page(request, "error.html", err.status, error=err, title=f"{err.status} · cardlab")
        response.headers.update(err.headers)
        return response

    @api.exception_handler(CardlabError)
    async def _library_error(request: Request, err: CardlabError) -> Response:
        """Answer a library error that reached no route's own handling (a hit's data read after its
        search, from a server that went away) as :func:`web_error` maps it, never a bare 500."""
        return await _web_error(request, web_error(err))

    @api.exception_handler(RequestValidationError)
    async def _bad_parameter(request: Request, err: RequestValidationError) -> Response:
        """Answer FastAPI's parameter errors (``page=abc``) as 400 ``bad_parameter`` naming each parameter."""
        parts = [
            f"{'.'.join(str(x) for x in e.get('loc', ())[1:])}: "
            + (NOT_AN_UPLOAD if "Expected UploadFile" in str(e.get("msg")) else str(e.get("msg")))
            for e in err.errors()
        ]
        return await _web_error(request, WebError(400, "bad_parameter", "; ".join(parts) or "bad parameter"))

    @api.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, err: StarletteHTTPException) -> Response:
        """Answer routing errors (unknown path 404, wrong method 405 with its ``Allow``) in the same error shape."""
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        details = "no such page" if err.status_code == 404 else str(err.detail)
        headers = dict(err.headers or {})
        if err.status_code == 405:
            headers["Allow"] = allowed_methods(request)
        return await _web_error(request, WebError(err.status_code, code, details, headers))

    def allowed_methods(request: Request) -> str:
        """The ``Allow`` header of a 405: the methods of every route matching the path (Starlette names
        only the first route's), ``HEAD`` with ``GET`` (the Guard answers it)."""
        from starlette.routing import Match

        methods = {m for r in api.routes if r.matches(request.scope)[0] != Match.NONE for m in getattr(r, "methods", None) or ()}
        if "GET" in methods:
            methods.add("HEAD")
        return ", ".join(sorted(methods))

    # --- pages ---

    @api.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        """``/``: redirect to the search page."""
        return RedirectResponse("/search", status_code=302)

    @api.get("/search", response_class=HTMLResponse, include_in_schema=False)
    def search_page(
        request: Request, q: str = "", sort: str = "number", lang: str = "", page_: int = Query(1, alias="page"), reverse: bool = False
    ) -> HTMLResponse:
        """``/search``: the form; with ``q``, one page of results (``page``, ``sort``, ``reverse``, names in
        ``lang``), or the query error with its caret (400). Every result page is a permalink; a page past the
        last one says so and links to the last page (the previous-page link too)."""
        from cardlab.search.compile import SORTS

        langs = langs_param(lang, site.languages)
        context: dict[str, Any] = {
            "q": q,
            "sort": sort,
            "lang": lang,
            "reverse": reverse,
            "sorts": list(SORTS),
            "title": f"{q} · cardlab" if q else "cardlab search",
        }
        if not q.strip():
            return page(request, "search.html", **context, searched=False)
        try:
            total, hits = run_search(site, q, sort, reverse, langs, page_)
        except WebError as err:
            return page(request, "search.html", err.status, **context, searched=False, error=err)
        pages = max(1, -(-total // PER_PAGE))

        def link(n: int, code: str | None = None) -> str:
            """The permalink of result page ``n`` (names in ``code``, default the current language)."""
            params = {"q": q, "sort": sort, "lang": lang if code is None else code, "page": n}
            if reverse:
                params["reverse"] = "true"
            return "/search?" + urlencode({k: v for k, v in params.items() if v not in ("", None)})

        return page(
            request,
            "search.html",
            **context,
            searched=True,
            total=total,
            hits=hits,
            page=page_,
            pages=pages,
            prev_link=link(min(page_ - 1, pages)) if page_ > 1 else None,
            next_link=link(page_ + 1) if page_ < pages else None,
            last_link=link(pages),
            past_end=bool(total) and page_ > pages,
            first=(page_ - 1) * PER_PAGE + 1,
            lang_link=lambda code: link(page_, code),
        )

    @api.get("/search/help", response_class=HTMLResponse, include_in_schema=False)
    def search_help(request: Request) -> HTMLResponse:
        """``/search/help``: the query syntax, fields (``fields.FIELDS``), short forms and sort keys."""
        from cardlab.search.compile import SORTS
        from cardlab.search.fields import ALIASES, FIELDS

        return page(
            request,
            "help.html",
            title="Search syntax · cardlab",
            fields=[(k, v[1]) for k, v in FIELDS.items()],
            aliases=[(k, v) for k, v in ALIASES.items() if k != v],
            sorts=list(SORTS),
        )

    @api.get("/card/{card_id}", response_class=HTMLResponse, include_in_schema=False)
    def card_page(request: Request, card_id: str, lang: str = "") -> Response:
        """``/card/<id>``: the whole card (the game's detail rows as in ``cardlab show``, fields, names,
        printings, legality); a name or other reference
        redirects (301) to the card's id; 400 for a malformed id, 404 for an unknown one."""

        langs = langs_param(lang, site.languages)
        view = card_view(site, card_id)
        if view.id != card_id:
            return RedirectResponse(f"/card/{view.id}" + (f"?lang={lang}" if lang else ""), status_code=301)
        from cardlab.games import get

        card = card_json(site, view, langs)
        legal = [(f, ok, why) for f, ok, why in _legality(site, view)]
        details = get(view.game).details(view.data, langs, view.set_data.get("source_language", "en"))
        return page(request, "card.html", title=f"{card['name']} · cardlab", card=card, view=view, lang=lang, legal=legal, details=details)

    @api.get("/sets", response_class=HTMLResponse, include_in_schema=False)
    def sets_page(request: Request, lang: str = "") -> HTMLResponse:
        """``/sets``: recorded against printed cards per set, and the numbers still missing."""
        from cardlab.contrib.new_card import missing_text, set_statuses

        langs = langs_param(lang, site.languages)
        rows = [(s, missing_text(s)) for s in set_statuses(site.catalog)]
        return page(request, "sets.html", title="Sets · cardlab", rows=rows, langs=langs)

    @api.get("/deck", response_class=HTMLResponse, include_in_schema=False)
    def deck_form(request: Request) -> HTMLResponse:
        """``GET /deck``: the empty deck form (with a collection to compare with, when collections exist)."""
        return page(
            request,
            "deck.html",
            title="Deck check · cardlab",
            text="",
            format_name="",
            seed=1,
            lang="",
            result=None,
            collection="",
            **collection_choices(),
        )

    @api.post("/deck", response_class=HTMLResponse, include_in_schema=False, dependencies=[Depends(form_body)])
    async def deck_page(
        request: Request,
        text: str = Form(""),
        fmt: str = Form("", alias="format"),
        seed: int = Form(1),
        lang: str = Form(""),
        collection: str = Form(""),
        upload: UploadFile | None = File(None, alias="file"),
    ) -> HTMLResponse:
        """``POST /deck``: check the pasted or uploaded list (:func:`deck_view`) and show the verdicts, each
        problem beside its line, statistics, a sample hand for ``seed``, the export buttons and, with
        ``collection``, what that collection has and needs."""
        langs = langs_param(lang, site.languages)
        content, name = await read_deck_form(text, upload)
        context: dict[str, Any] = {
            "title": "Deck check · cardlab",
            "text": content,
            "format_name": fmt,
            "seed": seed,
            "lang": lang,
            "collection": collection,
        }
        try:
            context.update(await run_in_threadpool(collection_choices))
            result = await run_in_threadpool(deck_view, site, content, name, fmt or None, langs, seed, collection or None)
        except WebError as err:
            return page(request, "deck.html", err.status, **context, result=None, error=err)
        return page(request, "deck.html", **context, result=result)

    @api.post("/deck/export.{kind}", include_in_schema=False, dependencies=[Depends(form_body)])
    async def deck_export(
        kind: str,
        text: str = Form(""),
        fmt: str = Form("", alias="format"),
        lang: str = Form(""),
        upload: UploadFile | None = File(None, alias="file"),
    ) -> Response:
        """``POST /deck/export.txt`` (a plain-text list that reads back) or ``/deck/export.json``: the
        matched deck as a download; 404 for any other kind."""
        from cardlab.decks.check import export_json, export_text

        if kind not in ("txt", "json"):
            raise StarletteHTTPException(404)
        content, name = await read_deck_form(text, upload)
        langs = langs_param(lang, site.languages)

        def export() -> Any:
            """Check the list and export the matched deck (in a worker thread: a check takes time)."""
            deck = check_deck_text(site, content, name, fmt or None, langs)["deck"]
            return (export_json if kind == "json" else export_text)(deck, langs, site.source_of)

        body = await run_in_threadpool(export)
        disposition = {"content-disposition": f'attachment; filename="{safe_filename(name)}.{kind}"'}
        if kind == "json":
            return JSONResponse(body, headers=disposition)
        return Response(body, media_type="text/plain; charset=utf-8", headers=disposition)

    @api.post("/deck/proxies.pdf", include_in_schema=False, dependencies=[Depends(form_body)])
    async def deck_proxies(
        text: str = Form(""),
        fmt: str = Form("", alias="format"),
        lang: str = Form(""),
        paper: str = Form("a4"),
        force: bool = Form(False),
        upload: UploadFile | None = File(None, alias="file"),
    ) -> Response:
        """``POST /deck/proxies.pdf``: the deck's proxies on ``paper`` (:func:`proxies_pdf`), a download;
        400 when the deck has problems unless ``force``."""
        content, name = await read_deck_form(text, upload)
        langs = langs_param(lang, site.languages)
        data = await run_in_threadpool(proxies_pdf, site, content, name, fmt or None, langs, paper, force)
        return Response(
            data, media_type="application/pdf", headers={"content-disposition": f'attachment; filename="{safe_filename(name)}-proxies.pdf"'}
        )

    # --- API ---

    @api.get("/api/cards/search", tags=["cards"], response_class=JSONResponse)
    def api_search(
        request: Request,
        q: str = "",
        sort: str = "number",
        reverse: bool = False,
        lang: str = "",
        page_: int = Query(1, alias="page"),
        page_size: int = PER_PAGE,
        cursor: str = "",
    ) -> Response:
        """Cards matching a query in cardlab's query language (as ``cardlab search``), a page of
        ``page_size`` (default 50, at most 1,000) at a time: a list object with ``data``,
        ``total_cards``, ``total_cards_is_exact``, ``has_more``, ``next_page`` (a URL relative to
        this server with the next page's ``cursor``; ``page=N`` still reads page N).
        ``total_cards`` is exact up to 1,000 matches; above, it is a lower bound (1,001: "more
        than 1,000") and ``total_cards_is_exact`` is false. An edited cursor is a 400."""
        from cardlab.search import engine
        from cardlab.search.paging import MAX_PAGE_SIZE, CursorError

        if page_ < 1 or page_ > MAX_PAGE:
            raise WebError(400, "bad_parameter", f"page: a number from 1 to {MAX_PAGE}")
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise WebError(400, "bad_parameter", f"page_size: a number from 1 to {MAX_PAGE_SIZE}")
        try:
            found = engine.find_page(
                site.con(),
                q,
                page_size=page_size,
                cursor=cursor or None,
                page=page_,
                langs=langs_param(lang, site.languages),
                sort=sort,
                reverse=reverse,
                timeout=site.search_timeout,
            )
        except CursorError as err:
            raise WebError(400, "bad_cursor", str(err)) from None
        except CardlabError as err:
            raise web_error(err) from None
        params = {k: v for k, v in request.query_params.items() if k not in ("page", "cursor")}
        base = "/api/cards/search"  # relative: never built from the client's Host header
        # the cards' data is plain JSON (decoded from the index): sent as it is, not walked again by
        # FastAPI's encoder (a third of the endpoint's time on a page of 50 cards)
        return JSONResponse(
            {
                "object": "list",
                "total_cards": found.total,
                "total_cards_is_exact": found.total_is_exact,
                "has_more": found.has_more,
                "next_page": f"{base}?{urlencode({**params, 'cursor': found.next_cursor})}" if found.next_cursor else None,
                "data": [{"object": "card", **h.to_json(), "name": h.name, "names": h.names} for h in found.hits],
            }
        )

    @api.get("/api/cards/{card_id}", tags=["cards"])
    def api_card(card_id: str, lang: str = "") -> dict:
        """One card by id (``base1-4``): names, set, the card's data, printings and legality per format."""
        langs = langs_param(lang, site.languages)
        view = card_view(site, card_id)
        if view.id.lower() != card_id.lower():
            raise WebError(404, "not_found", f"no card with the id '{card_id}'")
        return card_json(site, view, langs)

    @api.get("/api/sets", tags=["sets"])
    def api_sets(lang: str = "") -> dict:
        """Every set: code, game, name, cards recorded and printed, the numbers still missing."""
        from cardlab.contrib.new_card import missing_text, set_statuses

        langs = langs_param(lang, site.languages)
        return {
            "object": "list",
            "has_more": False,
            "data": [
                {
                    "object": "set",
                    "code": s.info.code,
                    "game": s.info.game,
                    "name": s.info.name(langs),
                    "recorded": s.recorded,
                    "printed_total": s.info.printed_total,
                    "missing": missing_text(s) if s.missing is not None else None,
                }
                for s in set_statuses(site.catalog)
            ],
        }

    @api.post(
        "/api/decks/validate",
        tags=["decks"],
        openapi_extra={"requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}},
    )
    async def api_validate(request: Request, fmt: str | None = Query(None, alias="format"), lang: str = "") -> dict:
        """Check a deck list sent as the ``text/plain`` body. With ``format`` (or a ``Format:`` line in
        the list): that format's verdict (``deck_report``); without: legality in every format of its
        game (``legality``). Each problem and note has its ``line``."""
        text = await deck_body(request)
        langs = langs_param(lang, site.languages)
        checked = await run_in_threadpool(check_deck_text, site, text, "deck.txt", fmt, langs)
        if not checked["check"].surveyed:  # the format asked for, or the list's own Format: line
            return report_json(checked["reports"][0])
        reports = checked["reports"]
        return {
            "object": "legality",
            "game": reports[0].deck.format.game if reports else None,
            "legal": checked["check"].legal,
            "chosen": checked["check"].chosen,
            "legal_in": [r.deck.format.name for r in reports if r.legal],
            "formats": [report_json(r) for r in reports],
        }

    @api.post(
        "/api/decks/have",
        tags=["decks", "collections"],
        openapi_extra={"requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}},
    )
    async def api_deck_have(
        request: Request,
        collection: str = Query(..., description="The collection (player) to compare with."),
        fmt: str | None = Query(None, alias="format"),
        lang: str = "",
    ) -> dict:
        """Which cards of a deck list (the ``text/plain`` body) a collection has and which it still
        needs, as ``cardlab deck have``: ``cards`` (id, name, need, own, missing), ``need``,
        ``missing``, ``complete``. Read-only; an unknown collection owns nothing."""
        text = await deck_body(request)
        langs = langs_param(lang, site.languages)

        def have() -> dict:
            """Check the list, then compare the matched deck with the collection."""
            return deck_have(site, check_deck_text(site, text, "deck.txt", fmt, langs)["deck"], collection)

        return {"object": "deck_have", **await run_in_threadpool(have)}

    @api.get("/api/collections", tags=["collections"])
    def api_collections() -> dict:
        """Every collection (a player with at least one card): a list object of ``collection`` names."""
        names = collection_names()
        return {"object": "list", "has_more": False, "total": len(names), "data": [{"object": "collection", "name": n} for n in names]}

    @api.get("/api/collections/{name}", tags=["collections"])
    def api_collection(request: Request, name: str, q: str = "", page_: int = Query(1, alias="page")) -> dict:
        """One collection's cards with their counts, 50 a page, sorted by set and number (as ``cardlab
        collection list``); ``q`` keeps the cards matching a search query. An unknown name owns nothing."""
        from cardlab.collection import listing

        if page_ < 1 or page_ > MAX_PAGE:
            raise WebError(400, "bad_parameter", f"page: a number from 1 to {MAX_PAGE}")
        who, owned = collection_counts(name)
        try:
            rows = listing.list_owned(site.con(), owned, q)
        except CardlabError as err:
            raise web_error(err) from None
        start = (page_ - 1) * PER_PAGE
        more = start + PER_PAGE < len(rows)
        params = {k: v for k, v in request.query_params.items() if k != "page"}
        base = f"/api/collections/{quote(who, safe='')}"  # relative (never the client's Host), the name one encoded segment
        return {
            "object": "list",
            "collection": who,
            "total_cards": len(rows),
            "total_copies": sum(r.copies for r in rows),
            "has_more": more,
            "next_page": f"{base}?{urlencode({**params, 'page': page_ + 1})}" if more else None,
            "data": [{"object": "owned_card", **r.to_json()} for r in rows[start : start + PER_PAGE]],
        }

    bearer = HTTPBearer(auto_error=False, description="The token of cardlab serve --allow-writes (CARDLAB_SERVE_TOKEN or --token-file).")
    change_body = {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "required": ["card"],
                        "additionalProperties": False,
                        "properties": {
                            "card": {
                                "type": "string",
                                "description": "A card id (base1-4), set and number ('BS 4') or a name with one printing, as cardlab collection add takes it; a count may lead ('2 Bill BS 91').",
                            },
                            "count": {"type": "integer", "minimum": 1, "maximum": 1_000_000, "default": 1},
                        },
                    }
                }
            },
        }
    }

    async def write(request: Request, name: str, op: str, credentials: HTTPAuthorizationCredentials | None) -> dict:
        """A collection write: the access check (:func:`check_write_access`), then the JSON body, then
        :func:`collection_change` in a worker thread."""
        check_write_access(site, credentials.credentials if credentials else None)
        body = read_json_object(request.headers.get("content-type"), await request.body())
        return await run_in_threadpool(collection_change, site, name, op, body)

    @api.post("/api/collections/{name}/cards", tags=["collections"], openapi_extra=change_body)
    async def api_collection_add(request: Request, name: str, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict:
        """Add ``count`` copies (default 1) of ``card`` to a collection, in one transaction, as ``cardlab
        collection add``. Only on a server started with ``--allow-writes`` (else 403), with
        ``Authorization: Bearer <token>`` (else 401); an unknown card is 404 with suggestions."""
        return await write(request, name, "add", credentials)

    @api.post("/api/collections/{name}/cards/remove", tags=["collections"], openapi_extra=change_body)
    async def api_collection_remove(
        request: Request, name: str, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)
    ) -> dict:
        """Remove ``count`` copies (default 1) of ``card``, as ``cardlab collection remove``: never more
        than owned (409 ``not_owned``, nothing changed). Same access rules as adding."""
        return await write(request, name, "remove", credentials)

    app = Guard(api, MAX_BODY)
    app.app, app.site = api, site  # type: ignore[attr-defined]
    return app


async def deck_body(request: Request) -> str:
    """Return the deck list sent as a ``text/plain`` body (the size is capped by the Guard and by
    :func:`check_deck_text`).

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


def _version() -> str:
    """Return cardlab's version (for the OpenAPI description)."""
    from cardlab import __version__

    return __version__


def _legality(site: Site, view: CardView) -> list:
    """A card's legality in every format of its game (:func:`cardlab.decks.rules.card_legality`)."""
    from cardlab.decks.rules import card_legality

    return card_legality(site.catalog.card_set.get(view.id, ""), [f for f in site.formats.values() if f.game == view.game])


def deck_have(site: Site, deck: Deck, name: str) -> dict[str, Any]:
    """Return a matched deck against a collection, as ``cardlab deck have -O json`` gives it
    (:func:`cardlab.collection.listing.have`, :func:`~cardlab.collection.listing.have_json`): player,
    cards (id, name, need, own, missing), totals, ``complete``.

    Raises:
        WebError: a bad collection name (400), a database that cannot be read (503).
    """
    from cardlab.collection import listing

    who, owned = collection_counts(name)
    return listing.have_json(listing.have(deck, owned, site.catalog), who, listing.unmatched_lines(deck))


def deck_view(
    site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str], seed: int, collection: str | None = None
) -> dict[str, Any]:
    """Everything the deck page shows: the check (:func:`check_deck_text`), lines with their problems,
    statistics with exact odds, a sample hand for ``seed``, the deck list as matched, and with
    ``collection`` the cards that collection has and needs (:func:`deck_have`).

    Raises:
        WebError: as :func:`check_deck_text` and :func:`deck_have`.
    """
    from cardlab.decks.check import deck_list
    from cardlab.decks.stats import deck_stats, sample_hand

    checked = check_deck_text(site, text, name, format_name, langs)
    deck = checked["deck"]
    rows, loose = lines_with_problems(text, checked["reports"])
    for note in deck.notes:  # the printings the shown deck (the format's, else the best fit) assumed
        if 1 <= note.pos.line <= len(rows):
            rows[note.pos.line - 1]["notes"].append(note)
    try:
        stats = deck_stats(deck)
    except CardlabError:
        stats = None
    hand = [(c, site.catalog.name_of(c.card_id, langs)) for c in sample_hand(deck, seed)]
    return {
        **checked,
        "rows": rows,
        "loose": loose,
        "stats": stats,
        "hand": hand,
        "seed": seed,
        "listing": deck_list(deck, langs, site.source_of),
        "have": deck_have(site, deck, collection) if collection else None,
    }


def proxies_pdf(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str], paper: str, force: bool) -> bytes:
    """Return the proxies PDF of a pasted deck (:func:`cardlab.proxies.pdf.render_pdf`), one card per copy.

    Raises:
        WebError: the deck cannot be read, asks for more than :data:`MAX_PROXIES` copies (413
            ``too_large``, even with ``force``), has problems and ``force`` is False (400
            ``deck_problems``), or a bad paper name.
    """
    from cardlab.proxies import pdf as px

    checked = check_deck_text(site, text, name, format_name, langs)
    deck = checked["deck"]
    copies = sum(c.count for c in deck.cards)
    if copies > MAX_PROXIES:
        raise WebError(
            413,
            "too_large",
            f"the deck asks for {copies:,} proxies; the web prints at most {MAX_PROXIES:,} per request (cardlab proxies has no limit)",
        )
    report = next(r for r in checked["reports"] if r.deck is deck) if checked["reports"] else None
    if report is not None and report.problems and not force:
        raise WebError(
            400,
            "deck_problems",
            f"the deck has {len(report.problems)} problem(s) under {deck.format.name}; fix them or tick 'print anyway'",
        )
    if paper not in px.PAPERS:
        raise WebError(400, "bad_parameter", f"paper: one of {', '.join(px.PAPERS)}")
    try:
        data, _report = px.render_pdf(
            site.catalog,
            px.expand((c.card_id, c.count) for c in deck.cards),
            px.ProxyOptions(paper=paper, langs=tuple(langs)),
            title=deck.name or "cardlab proxies",
        )
    except CardlabError as err:
        raise web_error(err) from None
    return data
