"""Collections (issue 13 §2): counts per card id and player, in the collections database
(:mod:`cardlab.collection.db`). Every change is one transaction; bad input changes nothing.

The library never prints: functions return data or raise :class:`cardlab.core.errors.CardlabError`
(unknown card: exit 1 with suggestions; a bad count: exit 2; removing more than owned: exit 1).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

from cardlab.collection import tables
from cardlab.collection.db import Database, DataDirError, connect, locate, open_database
from cardlab.core.csvfile import CsvRow, CsvTable
from cardlab.core.errors import CardlabError, DataError, ExitStatus, Problem, SourcePos, UsageError
from cardlab.core.l10n import _
from cardlab.core.progress import step

if TYPE_CHECKING:
    from cardlab.collection.cards import CardResolver

MAX_COUNT = 1_000_000
"""The most copies of one card a player may hold (a guard against typos such as 10000000)."""


class NotOwnedError(CardlabError):
    """Removing more copies than the player owns, or a card the player does not own: exit 1."""


class UnknownCardError(CardlabError):
    """A card the catalog does not know (with suggestions): exit 1, nothing written."""


class AmbiguousCardError(UnknownCardError):
    """A name that means several cards or printings (``choices``: their ids, in print order): exit 1,
    nothing written; ``cardlab serve`` answers 400 ``ambiguous`` with the choices."""

    def __init__(self, message: str, choices: list[str]) -> None:
        super().__init__(message)
        self.choices = choices


class BadCountsError(DataError):
    """Rows of a collection CSV whose count is not a whole number from 0 to :data:`MAX_COUNT`
    (every problem of the file, positioned): unusable input, exit 2, nothing written."""

    exit_code = ExitStatus.USAGE


def default_player() -> str:
    """Return the local player's name: ``CARDLAB_PLAYER``, else the login name, else ``me``."""
    name = os.environ.get("CARDLAB_PLAYER")
    if name:
        return name
    try:
        import getpass  # lazy: getpass (23 ms cold), only without --player

        return getpass.getuser() or "me"
    except Exception:  # noqa: BLE001 - no login name (a container): a fixed default
        return "me"


MAX_PLAYER_NAME = 64
"""The longest player name, in characters."""


_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories no player name holds: controls, format characters, surrogates, line and paragraph separators."""

_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
    (0x2800, 0x2800),  # not default-ignorable, but the braille blank shows as a space
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15): characters
shown as nothing (variation selectors, Hangul fillers, the combining grapheme joiner, tags), and
the blank braille pattern: a name holding one would look like another."""


def _invisible(ch: str) -> bool:
    """True for a character a name must not hold because it shows as nothing (see :data:`_IGNORABLE`)."""
    code = ord(ch)
    return ch == "\ufffd" or unicodedata.category(ch) in _HIDDEN_CATEGORIES or any(lo <= code <= hi for lo, hi in _IGNORABLE)


def check_player(player: str) -> str:
    """Return ``player`` stripped: a collection's name, as the CLI (``--player``), CSV imports and
    ``cardlab serve`` (one segment of ``/api/collections/<name>``) take it.

    Raises:
        UsageError: an empty name, one over :data:`MAX_PLAYER_NAME` characters, one with control
            characters, ``/`` or ``\\``, or ``.`` and ``..`` (a name must fit one URL path segment);
            one holding (even at either end, where it would be stripped) a character of Unicode
            category Cc (control: NEL...), Cf (format: zero-width, bidi overrides), Zl or Zp (U+2028,
            U+2029), a lone surrogate, or U+FFFD (what undecodable bytes become: ``%FF`` in a URL);
            one that Unicode's compatibility normalization (NFKC) changes: full-width ``ａｌｉｃｅ``
            would look like ``alice`` (the message gives the plain spelling); one starting with
            ``=``, ``+``, ``-`` or ``@`` (a spreadsheet opening an export would run it as a
            formula). A name is returned composed (NFC): ``e`` + combining accent is ``é``.
    """
    name = (player or "").strip()
    shown = repr(player) if len(player or "") <= 70 else repr(player[:67]) + "..."
    if not name or any(ord(ch) < 32 or ch == "\x7f" for ch in player):
        raise UsageError(f"bad player name {shown}: give a non-empty name on one line")
    if any(_invisible(ch) for ch in player):
        raise UsageError(
            f"bad player name {shown}: a name holds no control, invisible (zero-width, bidi) or line-separator character, "
            "and no U+FFFD (bytes that were not UTF-8)"
        )
    typed = len(name)
    name = unicodedata.normalize("NFC", name)  # é typed as e + accent is the same name as é; counted so
    if len(name) > MAX_PLAYER_NAME:
        composed = " once composed as Unicode NFC" if len(name) != typed else ""
        raise UsageError(f"bad player name {shown}: at most {MAX_PLAYER_NAME} characters (it has {len(name):,}{composed})")
    if "/" in name or "\\" in name or name in (".", ".."):
        raise UsageError(f"bad player name {shown}: a name holds no '/' or '\\' and is not '.' or '..'")
    if name[0] in "=+-@":
        # a spreadsheet runs a cell starting with one of these as a formula (CSV export, backups)
        raise UsageError(f"bad player name {shown}: a name does not start with =, +, - or @ (a spreadsheet would run it)")
    plain = unicodedata.normalize("NFKC", name)
    if plain != name:
        raise UsageError(
            f"bad player name {shown}: full-width and other compatibility characters would make two names look alike; write {plain!r}"
        )
    return name


def parse_count(text: str | int, *, allow_zero: bool = False) -> int:
    """Return a count read from ``text``: a whole number from 1 (0 with ``allow_zero``) to
    :data:`MAX_COUNT`. Raises UsageError otherwise (negative, not a whole number, too large)."""
    if isinstance(text, int) and not isinstance(text, bool):
        n = text
    else:
        s = str(text).strip()
        if re.fullmatch(r"[+-]?[0-9]+", s) is None:
            raise UsageError(f"count '{text}' is not a whole number")
        low = 0 if allow_zero else 1
        digits = len(s.lstrip("+-").lstrip("0"))
        if digits > 18:  # never int() a number of thousands of digits (Python's conversion limit)
            if s.startswith("-"):
                raise UsageError(
                    f"a negative count of {digits:,} digits is not allowed: a count is a whole number from {low} to {MAX_COUNT:,}"
                )
            raise UsageError(f"a count of {digits:,} digits is too large (at most {MAX_COUNT:,} copies of a card)")
        n = int(s)
    low = 0 if allow_zero else 1
    if n < low:
        raise UsageError(f"count {n} is not allowed: a count is a whole number from {low} to {MAX_COUNT:,}")
    if n > MAX_COUNT:
        raise UsageError(f"count {n:,} is too large (at most {MAX_COUNT:,} copies of a card)")
    return n


def counted_reference(resolver: CardResolver, card: str, count: str | None, n: int, op: str, count_name: str = "-n") -> tuple[str, int]:
    """Match a card argument of ``collection add/remove/set``, which may carry its count as a deck
    line does (``2 Bill``, ``Bill x2``); ``n`` is the count already read from ``count`` (None: not
    given). A count in the text is read as :func:`parse_count` reads ``-n``: ``0 Bill``, ``-1 Bill``
    and ``1.5 Bill`` are refused (exit 2), as is a count given twice (in the text and ``-n`` or
    ``set``'s COUNT; ``count_name`` names where the other count came from: ``-n``, or the web API's
    ``count``).

    Returns:
        ``(card id, count)``.

    Raises:
        UsageError: a bad count, or a count given twice (exit 2); UnknownCardError: no card, or
            its :class:`AmbiguousCardError` for an ambiguous name or a name with several printings
            (with the choices) (exit 1). Nothing is written.
    """
    found, message, written = resolver.resolve_counted(card)
    if written is not None:
        shown = card if len(card) <= 60 else card[:57] + "..."
        if op == "set" or count is not None:
            given = "COUNT" if op == "set" else count_name
            raise UsageError(f"'{shown}' holds a count and {given} gives one; give the count once")
        try:
            n = parse_count(written)
        except UsageError as err:
            raise UsageError(f"'{shown}': {err}" + _("; nothing was changed")) from None
    if found is None:
        choices = resolver.choices(card)
        if choices:
            raise AmbiguousCardError(message + _("; nothing was changed"), choices)
        raise UnknownCardError(message + _("; nothing was changed"))
    return found, n


def plan_change(
    resolver: CardResolver, player: str, op: str, card: str, count: str | int | None = None, count_name: str = "-n"
) -> tuple[str, str, int]:
    """Check one ``collection add``, ``remove`` or ``set`` before anything is written (``cardlab
    collection`` and ``cardlab serve``'s write endpoints both call it, then :func:`change`).

    Args:
        resolver: a :class:`cardlab.collection.cards.CardResolver`; player: the collection;
        op: ``add``, ``remove`` or ``set``; card: a card reference (:func:`counted_reference`: an id,
        set and number, or a name, with or without a leading count); count: the count given apart
        (``-n``, ``set``'s COUNT, the API's ``count``), None when not given (1); count_name: what
        the messages call it (``-n``; ``cardlab serve`` says ``count``).

    Returns:
        ``(player, card id, count)``: the player name checked (:func:`check_player`), the card
        matched, the count read (:func:`parse_count`: 1 to :data:`MAX_COUNT`, 0 too for ``set``).

    Raises:
        UsageError: a bad player name or count, or a count given twice (exit 2);
        UnknownCardError: no such card, with suggestions (exit 1).
    """
    who = check_player(player)
    n = parse_count(count if count is not None else "1", allow_zero=op == "set")
    card_id, n = counted_reference(resolver, card, None if count is None else str(count), n, op, count_name)
    return who, card_id, n


def counts(con: Database, player: str) -> dict[str, int]:
    """Return ``card id -> count`` of everything ``player`` owns."""
    t = tables.owned
    return {r[0]: r[1] for r in con.execute(sa.select(t.c.card_id, t.c["count"]).where(t.c.player == player))}


def owned(con: Database, player: str, card_id: str, *, lock: bool = False) -> int:
    """Return how many copies of ``card_id`` ``player`` owns (0 when none).

    Args:
        lock: lock the row until the end of the caller's transaction (``SELECT ... FOR UPDATE`` on
            PostgreSQL; SQLite's write transaction already holds the whole database).
    """
    t = tables.owned
    stmt = sa.select(t.c["count"]).where(t.c.player == player, t.c.card_id == card_id)
    return con.scalar(stmt.with_for_update() if lock else stmt) or 0


def reserved(con: Database, player: str, card_id: str) -> list[int]:
    """Return the running games (pending or on, by number) in which ``player`` stakes ``card_id``:
    each holds one copy until it ends (seed 002 "Généralités": the staked card is the deal;
    :mod:`cardlab.play.store`). Reads the ``game`` table's stakes (JSON ``player -> card id``)."""
    g = tables.game
    rows = con.execute(sa.select(g.c.id, g.c.stakes).where(g.c.status != "over").order_by(g.c.id))
    return [int(r[0]) for r in rows if json.loads(r[1] or "{}").get(player) == card_id]


def _keep_reserved(con: Database, who: Iterable[str]) -> None:
    """Refuse (inside the caller's transaction) a collection of ``who`` left holding fewer copies
    of a card than its running games have staked (:func:`reserved`). Raises NotOwnedError."""
    g = tables.game
    need: dict[tuple[str, str], list[int]] = {}
    for gid, stakes in con.execute(sa.select(g.c.id, g.c.stakes).where(g.c.status != "over").order_by(g.c.id)):
        for p, card_id in json.loads(stakes or "{}").items():
            need.setdefault((p, card_id), []).append(int(gid))
    names = set(who)
    for (p, card_id), games in sorted(need.items()):
        if p in names and owned(con, p, card_id) < len(games):
            shown = ", ".join(f"#{n}" for n in games)
            raise NotOwnedError(f"{p} stakes {card_id} in running game(s) {shown}: at least {len(games)} must stay; nothing was imported")


def players(con: Database) -> list[str]:
    """Return every player with a collection, sorted."""
    t = tables.owned
    return [r[0] for r in con.execute(sa.select(t.c.player).distinct().order_by(t.c.player))]


def _set(con: Database, player: str, card_id: str, n: int) -> None:
    t = tables.owned
    if n <= 0:
        con.execute(sa.delete(t).where(t.c.player == player, t.c.card_id == card_id))
    else:
        ins = con.insert(t).values(player=player, card_id=card_id, count=n)
        con.execute(ins.on_conflict_do_update(index_elements=[t.c.player, t.c.card_id], set_={"count": ins.excluded["count"]}))


def _add(con: Database, player: str, card_id: str, n: int) -> int:
    """Add ``n`` (>= 1) copies in one statement (an upsert: concurrent additions never lose one);
    return the new count."""
    t = tables.owned
    ins = con.insert(t).values(player=player, card_id=card_id, count=n)
    stmt = ins.on_conflict_do_update(index_elements=[t.c.player, t.c.card_id], set_={"count": t.c["count"] + ins.excluded["count"]})
    return int(con.scalar(stmt.returning(t.c["count"])))


def change(con: Database, player: str, changes: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """Apply ``(op, card id, n)`` changes in one transaction: op ``add``, ``remove`` or ``set``.

    Returns:
        The new count of each card changed.

    Raises:
        NotOwnedError: a ``remove`` of more copies than owned (nothing is changed);
        UsageError: a count above :data:`MAX_COUNT` after adding.
    """
    player = check_player(player)
    result: dict[str, int] = {}
    with con.transaction():
        for op, card_id, n in changes:
            if op == "add":
                new = _add(con, player, card_id, n) if n > 0 else owned(con, player, card_id)
            elif op in ("remove", "set"):
                have = owned(con, player, card_id, lock=True)
                if op == "remove" and n > have:
                    raise NotOwnedError(f"{player} owns {have} of {card_id}; cannot remove {n}")
                new = have - n if op == "remove" else n
                staked = reserved(con, player, card_id) if new < have else []
                if new < len(staked):
                    games = ", ".join(f"#{g}" for g in staked)
                    raise NotOwnedError(f"{player} stakes {card_id} in running game(s) {games}: at least {len(staked)} must stay")
                _set(con, player, card_id, new)
            else:
                raise ValueError(op)
            if new > MAX_COUNT:
                raise UsageError(f"{player} would own {new:,} of {card_id}; at most {MAX_COUNT:,}")
            result[card_id] = new
    return result


def move_card(con: Database, card_id: str, giver: str, taker: str) -> None:
    """Move one copy of ``card_id`` from ``giver`` to ``taker`` inside the caller's transaction,
    both rows locked first (``SELECT ... FOR UPDATE`` on PostgreSQL, in player order, so two
    transfers never deadlock). Raises NotOwnedError when ``giver`` owns none."""
    t = tables.owned
    locked = sa.select(t.c.player, t.c["count"]).where(t.c.card_id == card_id, t.c.player.in_(sorted({giver, taker})))
    have = dict((r[0], r[1]) for r in con.execute(locked.order_by(t.c.player).with_for_update())).get(giver, 0)
    if have < 1:
        raise NotOwnedError(f"{giver} no longer owns {card_id}")
    _set(con, giver, card_id, have - 1)
    _add(con, taker, card_id, 1)


# --- CSV ---------------------------------------------------------------------------------------

CSV_COLUMNS = ("player", "card_id", "set", "number", "name", "count")
"""Columns a collection CSV may have: ``count`` and a card (``card_id``, or ``set`` + ``number``, or
``name``); ``player`` optional (default: the player given)."""


def export_csv(con: Database, player: str | None) -> str:
    """Return a player's collection as CSV ``card_id,count`` (sorted by id); with ``player`` None,
    every player's as ``player,card_id,count``: a complete backup that :func:`import_csv` reads."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    t = tables.owned
    if player is None:
        w.writerow(["player", "card_id", "count"])
        w.writerows(con.execute(sa.select(t.c.player, t.c.card_id, t.c["count"]).order_by(t.c.player, t.c.card_id)))
    else:
        w.writerow(["card_id", "count"])
        w.writerows(con.execute(sa.select(t.c.card_id, t.c["count"]).where(t.c.player == player).order_by(t.c.card_id)))
    return buf.getvalue()


@dataclass
class ImportReport:
    """What an import did: ``rows`` read, ``cards`` distinct (player, card) pairs changed, ``copies``
    the sum of the counts read, ``players`` touched."""

    rows: int
    cards: int
    copies: int
    players: list[str]


def plan_import(table: CsvTable, resolver: CardResolver, player: str) -> dict[tuple[str, str], int]:
    """Check every row of a collection CSV and return ``(player, card id) -> count`` (rows naming the
    same card add up).

    Raises:
        UsageError: the header lacks ``count`` or a card column, or has an unknown column (exit 2).
        DataError: every bad cell at once, as ``file:row:column`` (unknown card with suggestions,
            a name with several printings, a player name with control characters) (exit 1);
            :class:`BadCountsError` (exit 2) when a count is not a whole number from 0.
    """
    cols = {name: table.column(name) for name in CSV_COLUMNS}
    unknown = [h for h in table.header if h.casefold() not in CSV_COLUMNS]
    if unknown:
        raise UsageError(
            f"{table.path}:1: unknown column(s) {', '.join(unknown)}; a collection CSV has the columns "
            f"{', '.join(CSV_COLUMNS)} (count and one way to name the card)"
        )
    if cols["count"] is None or (cols["card_id"] is None and cols["name"] is None and cols["number"] is None):
        raise UsageError(
            f"{table.path}:1: a collection CSV needs a count column and a card_id, set + number or name column, e.g. card_id,count"
        )
    if (cols["set"] is None) != (cols["number"] is None):
        raise UsageError(f"{table.path}:1: the set and number columns go together")
    problems: list[Problem] = []
    plan: dict[tuple[str, str], int] = {}
    suggested = 0

    def cell(row: CsvRow, name: str) -> tuple[str, int]:
        i = cols[name]
        return (row.cells[i].strip(), i + 1) if i is not None else ("", 0)

    for line, row in enumerate(table.rows):
        if line % 100 == 0:
            step("reading rows", line, len(table.rows))
        who, who_col = cell(row, "player")
        try:
            who = check_player(who) if who else player  # an empty player cell: the default player
        except UsageError as err:
            problems.append(Problem(SourcePos(table.path, row.line, who_col), str(err), "player"))
            continue
        text, count_col = cell(row, "count")
        try:
            n = parse_count(text, allow_zero=True)
        except UsageError as err:
            problems.append(Problem(SourcePos(table.path, row.line, count_col), str(err), "count"))
            n = None
        cid, cid_col = cell(row, "card_id")
        set_code, set_col = cell(row, "set")
        number, _ = cell(row, "number")
        name, name_col = cell(row, "name")
        where = cid_col if cid else (set_col if set_code or number else name_col)
        if not (cid or (set_code and number) or name):
            problems.append(Problem(SourcePos(table.path, row.line, where or 1), "no card on this row", "unknown-card"))
            continue
        if suggested >= 50 and not cid:  # a hostile file of unknown names stays fast
            found, message = resolver.resolve(card_id=None, set_code=set_code, number=number, name=name)
        else:
            found, message = resolver.resolve(card_id=cid or None, set_code=set_code or None, number=number or None, name=name or None)
        if found is None:
            suggested += 1
            problems.append(Problem(SourcePos(table.path, row.line, where), message, "unknown-card"))
            continue
        if n is not None:
            key = (who.strip(), found)
            plan[key] = plan.get(key, 0) + n
            if plan[key] > MAX_COUNT:
                problems.append(
                    Problem(
                        SourcePos(table.path, row.line, count_col), f"{found}: {plan[key]:,} copies in all; at most {MAX_COUNT:,}", "count"
                    )
                )
    if problems:
        bad_count = any(p.rule == "count" for p in problems)
        raise (BadCountsError if bad_count else DataError)(problems)
    return plan


def import_csv(
    con: Database,
    table: CsvTable,
    resolver: CardResolver,
    player: str,
    *,
    replace: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Import a collection CSV (:func:`plan_import`) in one transaction: counts are added to what
    each player owns, or with ``replace`` each player named in the file gets exactly the file's
    counts (everything else they owned is dropped: restoring a backup).

    Args:
        con: the collections database; table: a :class:`cardlab.core.csvfile.CsvTable`;
        resolver: a :class:`cardlab.collection.cards.CardResolver`; player: the default player;
        progress: called with the number of cards written so far, now and then (inside the
            transaction; a crash at any point leaves the old collection whole).

    Raises:
        as :func:`plan_import`; nothing is written unless every row is good.
    """
    player = check_player(player)
    plan = plan_import(table, resolver, player)
    players = write_plan(con, plan, player, replace=replace, progress=progress)
    return ImportReport(rows=len(table.rows), cards=len(plan), copies=sum(plan.values()), players=players)


def write_plan(
    con: Database, plan: dict[tuple[str, str], int], player: str, *, replace: bool = False, progress: Callable[[int], None] | None = None
) -> list[str]:
    """Write an import's checked counts (``(player, card id) -> count``) in one transaction: added to
    what each player owns, or with ``replace`` each player of the plan (``player`` when the plan is
    empty) gets exactly these counts. ``progress`` as :func:`import_csv`'s.

    Returns:
        The players touched, sorted.

    Raises:
        UsageError: a count above :data:`MAX_COUNT` once added (nothing is written).
    """
    touched = sorted({p for p, _ in plan} | ({player} if replace and not plan else set()))
    with con.transaction():
        if replace:
            for p in touched:
                con.execute(sa.delete(tables.owned).where(tables.owned.c.player == p))
        for i, ((p, card_id), n) in enumerate(plan.items(), 1):
            if replace:
                new = n
                _set(con, p, card_id, new)
            else:
                new = _add(con, p, card_id, n) if n > 0 else owned(con, p, card_id)
            if new > MAX_COUNT:
                raise UsageError(f"{p} would own {new:,} of {card_id}; at most {MAX_COUNT:,}")
            if i % 100 == 0:
                step("importing cards", i, len(plan))
                if progress is not None:
                    progress(i)
        if replace:
            _keep_reserved(con, touched)
        step("importing cards", len(plan), len(plan))  # still inside the transaction
    return touched


def open_readonly(where: str | Path | None = None) -> Database | None:
    """Open the collections database for reading only (a read-only data folder is fine).

    Args:
        where: see :func:`cardlab.collection.db.locate` (default: ``CARDLAB_DATA`` or the data folder).

    Returns:
        The database; None when a SQLite file does not exist yet (an empty collection). A
        PostgreSQL database is opened as :func:`cardlab.collection.db.connect` does (schema brought
        up to date).

    Raises:
        as :func:`cardlab.collection.db.connect`.
    """

    loc = locate(where)
    if loc.path is None:
        return connect(where)
    if not loc.path.exists():
        probe = loc.path.parent
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if probe.exists() and not probe.is_dir():  # as connect() says it: reading is refused the same way
            raise DataDirError(f"cannot use {loc.path}: {probe} is a file, not a folder (set CARDLAB_DATA to a folder)")
        return None
    database = open_database(loc, readonly=True)
    try:
        database.execute(sa.select(tables.owned.c.player).limit(1))
    except DataDirError:
        return connect(loc.path)  # a WAL database may need its -shm file made first, or an older schema
    return database
