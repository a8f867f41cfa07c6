"""Collections for the web: reading a player's cards and changing them, through the same library calls
as ``cardlab collection`` (:mod:`cardlab.collection.owned`, :mod:`cardlab.collection.listing`), and the
write access check (the server's token).

Each request opens the collections database and closes it; one that cannot be opened is 503
``collection_unavailable`` in generic words (:func:`cardlab.web.errors.unavailable`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardlabError, DataError
from cardlab.web.errors import WebError, collection_error, unavailable
from cardlab.web.forms import collection_name

if TYPE_CHECKING:
    from cardlab.collection.db import Database
    from cardlab.web.state import Site


def check_write_access(site: Site, token: str | None) -> None:
    """Let a collection write through, or refuse it.

    Args:
        site: the app's :class:`~cardlab.web.state.Site` (``site.token``: the server's token, None when
            writes are off); token: the request's bearer token (``Authorization: Bearer <token>``), None when absent.

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


def collection_change(site: Site, name: str, op: str, body: dict[str, Any]) -> dict[str, Any]:
    """Add (``op`` ``add``) or remove (``remove``) copies of a card in one transaction, as
    ``cardlab collection add/remove`` do: :func:`cardlab.collection.owned.plan_change`, then
    :func:`cardlab.collection.owned.change` on the collections database (``CARDLAB_DATA``).

    Returns:
        ``{"object": "collection_change", "collection", "action", "card", "count", "owned"}``
        (``owned``: the copies owned after the change).

    Raises:
        WebError: as :func:`~cardlab.web.forms.collection_name` and
            :func:`~cardlab.web.errors.collection_error`; nothing is written.
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


def collection_import(site: Site, name: str, filename: str, raw: bytes, replace: bool) -> dict[str, Any]:
    """Import a collection CSV sent through the collection page, as ``cardlab collection import``
    (:func:`cardlab.core.csvfile.parse_csv`, :func:`cardlab.collection.owned.import_csv`): all or nothing.

    Returns:
        ``{"rows", "cards", "copies", "players"}`` of the import.

    Raises:
        WebError: 413 over :data:`~cardlab.web.limits.MAX_DECK_TEXT` bytes, 400 ``bad_file`` for a file that is
            not UTF-8 text or a row the import refuses (an unknown card, with its row and column), or as
            :func:`~cardlab.web.errors.collection_error`; nothing is written.
    """
    from pathlib import Path

    from cardlab.collection import db
    from cardlab.collection.owned import import_csv
    from cardlab.core.csvfile import parse_csv
    from cardlab.web.limits import MAX_DECK_TEXT

    who = collection_name(name)
    if len(raw) > MAX_DECK_TEXT:
        raise WebError(413, "too_large", f"the file is larger than {MAX_DECK_TEXT:,} bytes; cardlab collection import takes larger ones")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WebError(400, "bad_file", "the file is not UTF-8 text; a collection file is CSV") from None
    try:
        table = parse_csv(text, Path(Path(filename or "collection.csv").name))
        database = connect_collections(db.connect)
        try:
            report = import_csv(database, table, site.resolver(), who, replace=replace)
        finally:
            database.close()
    except DataError as err:  # the file's own problems (an unknown card at row:column...)
        raise WebError(400, "bad_file", str(err)) from None
    except CardlabError as err:
        raise collection_error(err) from None
    return {"rows": report.rows, "cards": report.cards, "copies": report.copies, "players": report.players}


_WRITERS: dict[str, Any] = {}
_WRITERS_LOCK = threading.Lock()


def write_database() -> Database:
    """The collections database (``CARDLAB_DATA``) to write saved decks to, opened and brought up to
    date once per location and then shared by the request threads (:class:`cardlab.collection.db.Database`
    keeps each thread's transaction apart; a SQLite file's writers in this process take turns):
    opening it costs more than a save (BENCHMARKS.md, saved decks). A SQLite file removed since is
    opened anew.

    Raises:
        WebError: 503 ``collection_unavailable``, as :func:`connect_collections`.
    """
    from cardlab.collection import db

    where = connect_collections(db.locate)
    key = str(where.path) if where.path is not None else where.shown
    with _WRITERS_LOCK:
        database = _WRITERS.get(key)
        if database is None or (where.path is not None and not where.path.exists()):
            for old in _WRITERS.values():  # one location at a time (CARDLAB_DATA changed): no idle connections left behind
                old.close()
            _WRITERS.clear()
            database = _WRITERS[key] = connect_collections(lambda: db.connect(where, keep_open=True))
    return database
