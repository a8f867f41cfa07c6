"""Saved decks (issue 30): a deck list kept in the collections database (table ``saved_deck``, beside
the collections, so it survives any index rebuild) under a short permalink id, read by anyone who has
the id, changed only with an edit version check.

A saved deck's list is cardlab's text dialect (:func:`cardlab.decks.check.export_text`: ``Format:``,
section headers, ``4 Hitmonchan BS 7`` lines), which every door reads back: ``cardlab deck open``,
the web's saved deck page and its builder. The id is 8 characters of :func:`secrets.token_urlsafe`
(48 random bits: a link cannot be guessed from another).

Edits never lose an update: :func:`update` writes only when the caller's ``version`` is still the
stored one (``UPDATE ... WHERE version = :v``, one statement, atomic on SQLite and PostgreSQL) and
raises :class:`VersionConflictError` otherwise, naming the current version; who may write at all is
the caller's check (the web's write token; the CLI is the database's own user).
"""

from __future__ import annotations

import re
import secrets
import threading
import weakref
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from cardlab.collection import tables
from cardlab.collection.db import Database
from cardlab.core.errors import CardlabError, InputError
from cardlab.core.inputs import split_lines

MAX_LINES = 500
"""Most lines of a saved deck (a 60-card list has a few dozen; a cube a few hundred)."""
MAX_CARDS = 2000
"""Most cards (copies) of a saved deck."""
MAX_TEXT = 128 * 1024
"""Largest saved deck list in bytes (UTF-8)."""
MAX_NAME = 100
"""Longest deck name, in characters."""
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{8}")
"""A saved deck's id: 8 characters of the URL-safe base64 alphabet."""


class SavedDeckNotFoundError(CardlabError):
    """No saved deck has that id (exit 1)."""

    def __init__(self, deck_id: str) -> None:
        super().__init__(f"no saved deck {deck_id!r}; 'cardlab deck saved' lists them")
        self.deck_id = deck_id


class VersionConflictError(CardlabError):
    """An edit made from an older version of the deck than the stored one (exit 1): nothing was
    written; ``current`` is the deck as stored now."""

    def __init__(self, current: SavedDeck, expected: int) -> None:
        super().__init__(
            f"deck {current.id} was changed by someone else since version {expected} (it is at version {current.version} now); "
            "nothing was written: open it again and redo the change"
        )
        self.current = current
        self.expected = expected


class DeckTooLargeError(InputError):
    """A deck over :data:`MAX_TEXT` bytes, :data:`MAX_LINES` lines or :data:`MAX_CARDS` cards (exit 2)."""


@dataclass(frozen=True)
class SavedDeck:
    """A saved deck: ``id`` (its permalink), ``name`` (may be empty), ``format`` (the one its list names,
    or None), ``text`` (the list, cardlab's text dialect), ``cards`` (copies in the list), ``version``
    (1 when saved, +1 per edit), ``created`` and ``updated`` (UTC, ISO 8601 to the second)."""

    id: str
    name: str
    format: str | None
    text: str
    cards: int
    version: int
    created: str
    updated: str

    def to_json(self) -> dict:
        """The deck as the API and ``cardlab deck saved -O json`` give it."""
        return {
            "id": self.id,
            "name": self.name,
            "format": self.format,
            "cards": self.cards,
            "version": self.version,
            "created": self.created,
            "updated": self.updated,
            "text": self.text,
        }


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_size(lines: int, cards: int) -> None:
    """Refuse a deck over :data:`MAX_LINES` lines or :data:`MAX_CARDS` cards.

    Raises:
        DeckTooLargeError: naming the size found and the cap.
    """
    if lines > MAX_LINES:
        raise DeckTooLargeError(f"the deck list has {lines:,} lines; a saved deck holds at most {MAX_LINES:,}")
    if cards > MAX_CARDS:
        raise DeckTooLargeError(f"the deck list has {cards:,} cards; a saved deck holds at most {MAX_CARDS:,}")


def measure(text: str) -> tuple[int, int, str | None]:
    """Return ``(lines, cards, format)`` of a deck list without matching it: its lines as the deck
    parser splits them, the copies its card lines count, and the format its ``Format:`` line names.

    Raises:
        DeckTooLargeError: over :data:`MAX_TEXT` bytes, or as :func:`check_size`, with the size found.
        InputError: a line whose count the deck parser refuses (0, or over 999 on one line).
    """
    from cardlab.decks.read import parse_deck_text

    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT:
        raise DeckTooLargeError(f"the deck list has {size:,} bytes; a saved deck holds at most {MAX_TEXT:,}")
    check_size(len(split_lines(text)), 0)
    parsed = parse_deck_text(text, "deck.txt")
    check_size(0, sum(e.count for e in parsed.entries))
    bad = [p for p in parsed.problems if p.rule == "count"]
    if bad:
        raise InputError(f"line {bad[0].pos.line}: {bad[0].message}")
    return len(split_lines(text)), sum(e.count for e in parsed.entries), parsed.format


def check_name(name: str | None) -> str:
    """Return a deck name stripped (empty for none).

    Raises:
        InputError: over :data:`MAX_NAME` characters, or with a control character.
    """
    name = (name or "").strip()
    if len(name) > MAX_NAME:
        raise InputError(f"a deck name has at most {MAX_NAME} characters (this one has {len(name)})")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in name):
        raise InputError("a deck name holds no control characters")
    return name


def _row(r: sa.Row) -> SavedDeck:
    m = r._mapping
    return SavedDeck(m["id"], m["name"], m["format"], m["text"], m["cards"], m["version"], m["created"], m["updated"])


@dataclass
class _Ticket:
    """One save waiting for its batch: its row (the id filled in by the writer that commits it)."""

    row: dict[str, Any]
    done: bool = False
    error: BaseException | None = None


@dataclass
class _Batch:
    """The saves waiting on one :class:`~cardlab.collection.db.Database`, and the lock the writer
    that commits them holds (see :func:`save`)."""

    turn: threading.Lock = field(default_factory=threading.Lock)
    guard: threading.Lock = field(default_factory=threading.Lock)
    waiting: list[_Ticket] = field(default_factory=list)


_BATCHES: weakref.WeakKeyDictionary[Database, _Batch] = weakref.WeakKeyDictionary()
_BATCHES_GUARD = threading.Lock()


def _new_ids(database: Database, n: int) -> list[str]:
    """``n`` ids no saved deck has (48 random bits each: a second draw is needed about once in 10^14),
    none starting with ``-`` (``cardlab deck open -eX3...`` would read it as an option: drawn again,
    one id in 64)."""
    ids: list[str] = []
    while len(ids) < n:
        deck_id = secrets.token_urlsafe(6)
        if deck_id.startswith("-"):
            continue
        if deck_id not in ids and database.scalar(sa.select(tables.saved_deck.c.id).where(tables.saved_deck.c.id == deck_id)) is None:
            ids.append(deck_id)
    return ids


def save(database: Database, text: str, name: str | None = None) -> SavedDeck:
    """Save a deck list under a new id, in one transaction.

    Threads saving on one shared :class:`~cardlab.collection.db.Database` (the web's request threads)
    are committed together: the first to get its turn writes every save waiting at that moment in one
    transaction (one durable commit, the cost of a save on SQLite, instead of one each; a group
    commit), and each of them returns its own deck. Should that transaction fail, every save in it
    raises the error and none is written.

    Args:
        database: the collections database (:func:`cardlab.collection.db.connect`).
        text: the list (cardlab's text dialect is what the other doors write); name: shown with it.

    Returns:
        The :class:`SavedDeck` at version 1.

    Raises:
        DeckTooLargeError, InputError: as :func:`measure` and :func:`check_name`; nothing is written.
        DataDirError, DatabaseUnavailableError: the database cannot be written.
    """
    _, cards, fmt = measure(text)
    name = check_name(name)
    now = _now()
    ticket = _Ticket({"id": "", "name": name, "format": fmt, "text": text, "cards": cards, "version": 1, "created": now, "updated": now})
    if database._tx is not None:  # inside the caller's own transaction: saved in it
        _write(database, [ticket])
        return SavedDeck(**ticket.row)
    with _BATCHES_GUARD:
        batch = _BATCHES.setdefault(database, _Batch())
    with batch.guard:
        batch.waiting.append(ticket)
    with batch.turn:
        if not ticket.done:
            with batch.guard:
                mine, batch.waiting = batch.waiting, []
            try:
                _write(database, mine)
            except BaseException as err:
                for t in mine:
                    t.error = err
                raise
            finally:
                for t in mine:
                    t.done = True
    if ticket.error is not None:
        raise ticket.error
    return SavedDeck(**ticket.row)


def _write(database: Database, tickets: list[_Ticket]) -> None:
    """Insert the tickets' rows in one transaction, each with a new id."""
    with database.transaction():
        for t, deck_id in zip(tickets, _new_ids(database, len(tickets)), strict=True):
            t.row["id"] = deck_id
        database.execute(sa.insert(tables.saved_deck), [t.row for t in tickets])


def get(database: Database | None, deck_id: str) -> SavedDeck:
    """Return the saved deck ``deck_id``.

    Args:
        database: the collections database, or None when there is none yet (nothing saved).

    Raises:
        SavedDeckNotFoundError: no deck has that id (any malformed id included).
    """
    if database is None or not ID_PATTERN.fullmatch(deck_id):
        raise SavedDeckNotFoundError(deck_id)
    rows = database.execute(sa.select(tables.saved_deck).where(tables.saved_deck.c.id == deck_id))
    if not rows:
        raise SavedDeckNotFoundError(deck_id)
    return _row(rows[0])


def update(database: Database, deck_id: str, text: str, version: int, name: str | None = None) -> SavedDeck:
    """Replace a saved deck's list (and its name, unless ``name`` is None) when it is still at
    ``version``: one ``UPDATE ... WHERE id = :id AND version = :version`` that also adds 1 to the
    version, so of two writers who read the same version exactly one succeeds.

    Returns:
        The deck as saved (its new version).

    Raises:
        SavedDeckNotFoundError: no such deck. VersionConflictError: the deck is at another version
            (nothing written). DeckTooLargeError, InputError: as :func:`save`.
    """
    _, cards, fmt = measure(text)
    values: dict = {"text": text, "cards": cards, "format": fmt, "updated": _now(), "version": tables.saved_deck.c.version + 1}
    if name is not None:
        values["name"] = check_name(name)
    t = tables.saved_deck
    with database.transaction() as con:
        done = con.execute(sa.update(t).where(t.c.id == deck_id, t.c.version == version).values(**values)).rowcount
        current = get(database, deck_id)
    if not done:
        raise VersionConflictError(current, version)
    return current


def saved(database: Database | None, limit: int | None = None) -> list[SavedDeck]:
    """Return the saved decks, the most recently changed first (``limit``: at most that many; None: all)."""
    if database is None:
        return []
    t = tables.saved_deck
    stmt = sa.select(t).order_by(t.c.updated.desc(), t.c.id)
    if limit is not None:
        stmt = stmt.limit(limit)
    return [_row(r) for r in database.execute(stmt)]
