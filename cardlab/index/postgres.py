"""The search index on a PostgreSQL server (``CARDLAB_DB`` or ``--db`` = ``postgresql+psycopg://...``).

One builder: :func:`build` validates the catalog and writes the SQLite index
(:func:`cardlab.index.sqlite.build_index`) to a temporary file, then copies its rows into tables of
the same names and columns on the server (text columns ``COLLATE "C"``: code-point order, as
SQLite's, for ORDER BY and the prefix ranges), plus full text: ``tsvector`` columns for names,
rules text and stemmed words with GIN indexes, lexemes cut by FTS5's own tokenizers
(:mod:`cardlab.index.tokens`; text is folded in Python before either database sees it, so no
dictionary or ``unaccent`` is needed), and ``pg_trgm`` GIN indexes for the Japanese and Chinese
substring ``LIKE``.

Rebuilds without downtime: the new index is written into a schema of its own
(``cardlab_build_<pid>``); one transaction then renames the live schema (:data:`LIVE_SCHEMA`) away
and the new one in; the old one is dropped after. Readers resolve tables through ``search_path`` =
the live schema, and each search runs in one transaction holding :data:`SWAP_LOCK` shared (the swap
takes it exclusively), so a search sees the whole old or the whole new index. The swap notifies
:data:`SWAP_CHANNEL` as it commits; reader sessions listen on it, so a search whose answer is known
for the index last read (no card matches) needs no round trip until a swap is announced. A build that fails (or
is killed) leaves the old index serving; its schema is dropped then, or by the next build. Builds
are serialized by an advisory lock (:data:`BUILD_LOCK`).

Freshness: the catalog's fingerprint is stored in the ``meta`` table as in SQLite. Searching never
rebuilds a shared server's index: a missing or stale one is an error that says to run ``cardlab
index`` (:class:`IndexOutOfDateError`, exit 2).

psycopg is imported only inside the functions here, and SQLAlchemy never: the URL is read by
:func:`cardlab.core.database.parse_url`, so a search costs the import of psycopg alone.
"""

from __future__ import annotations

import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.core.database import DatabaseUnavailableError, server_error
from cardlab.core.database import locate as locate_db
from cardlab.core.errors import CardlabError, ExitStatus, UsageError
from cardlab.core.paths import is_database_url
from cardlab.core.progress import step
from cardlab.index.sqlite import (
    FULL_CHECK_FILES,
    BuildReport,
    _texts,
    build_index,
    built_from,
    data_decoder,
    fingerprint,
    quick_fingerprint,
    recorded_roots,
)
from cardlab.index.tokens import tokenize, tsvector

if TYPE_CHECKING:
    from cardlab.core.database import Location
    from cardlab.index.sqlite import BuildReport

LIVE_SCHEMA = "cardlab_index"
"""The schema searches read (their ``search_path``)."""

BUILD_PREFIX = "cardlab_build_"
OLD_PREFIX = "cardlab_old_"

BUILD_LOCK = (0x63617264, 0x696E6478)
"""``pg_advisory_lock`` keys ("card", "indx"): one ``cardlab index`` at a time per database."""

SWAP_LOCK = (0x63617264, 0x73776170)
"""Advisory lock keys ("card", "swap"): a search holds it shared for its transaction
(:meth:`PgIndex.snapshot`), the swap exclusively for its own: a swap waits for the searches in
progress, and a search never sees the index change between its statements."""

SWAP_CHANNEL = "cardlab_index_swapped"
"""The channel a swap notifies (``NOTIFY``, sent when its transaction commits) and every reader
session listens on: how a reader knows, without a round trip, that the index it last read is still
the live one (:meth:`PgIndex.unchanged`)."""

TRUSTED_SECONDS = 2.0
"""How long a session's last read of the index's fingerprint answers for it without a round trip
(:meth:`PgIndex.unchanged`), whatever no notification said."""

_SWAPS = [0]
"""Swaps made by this process (its readers see them at once, before the notification arrives)."""

REQUIRED_EXTENSIONS = ("pg_trgm",)
"""Extensions the index needs on the server (created when missing, if the user may)."""

PREPARED = 32
"""Prepared statements kept per connection: the least recently used is dropped first, never one
that the message dropping it runs (a first view runs up to four)."""

COPY_BATCH = 2000
"""Cards tokenized and copied together."""

C = 'COLLATE "C"'
TABLES: dict[str, str] = {
    "card": f"rowid bigint PRIMARY KEY, id text {C} NOT NULL UNIQUE, game text {C} NOT NULL, set_code text {C} NOT NULL,"
    f" number text {C} NOT NULL, number_int bigint, name text {C} NOT NULL, type_line text {C} NOT NULL, stats text {C} NOT NULL,"
    f" rarity text {C}, rarity_rank bigint, illustrator text {C}, data bytea NOT NULL, path text {C} NOT NULL,"
    f" oracle_id text {C} NOT NULL, reprint_of text {C}",
    "card_name": f"rowid bigint PRIMARY KEY, card_id text {C} NOT NULL, lang text {C} NOT NULL, name text {C} NOT NULL,"
    f" folded text {C} NOT NULL, compact text {C} NOT NULL, card bigint NOT NULL",
    "printed_name": f"rowid bigint PRIMARY KEY, card_id text {C} NOT NULL, folded text {C} NOT NULL, compact text {C} NOT NULL",
    "facet_text": f"field text {C} NOT NULL, text text {C} NOT NULL, card bigint NOT NULL, PRIMARY KEY (field, text, card)",
    "facet_num": f"field text {C} NOT NULL, num double precision NOT NULL, card bigint NOT NULL, PRIMARY KEY (field, num, card)",
    "set_key": f"key text {C} NOT NULL, code text {C} NOT NULL, PRIMARY KEY (key, code)",
    "card_set": f"code text {C} PRIMARY KEY, game text {C} NOT NULL, name text {C} NOT NULL, source_language text {C} NOT NULL,"
    f" printed_total bigint, release_date text {C}, aliases text {C} NOT NULL, data text {C} NOT NULL, path text {C} NOT NULL,"
    " cards bigint NOT NULL",
    "meta": f"key text {C} PRIMARY KEY, value text {C} NOT NULL",
    "card_fts": "rowid bigint PRIMARY KEY, names tsvector NOT NULL, body tsvector NOT NULL",
    "card_stem": "rowid bigint PRIMARY KEY, stems tsvector NOT NULL",
    "card_tri": f"rowid bigint PRIMARY KEY, names text {C} NOT NULL, body text {C} NOT NULL",
    "word_stat": f"bound bigint NOT NULL, col text {C} NOT NULL, lexeme text {C} NOT NULL, docs bigint NOT NULL,"
    " reach bigint NOT NULL, PRIMARY KEY (bound, col, lexeme)",
    "word_rows": f"bound bigint NOT NULL, col text {C} NOT NULL, lexeme text {C} NOT NULL, last bigint NOT NULL,"
    " rowids bigint[] NOT NULL, PRIMARY KEY (bound, col, lexeme, last)",
}
"""The index's tables on PostgreSQL: those of :mod:`cardlab.index.tables` (same names and columns,
``rowid`` explicit), the full-text ones, and ``word_stat``: each lexeme of ``card_fts.names``,
``card_fts.body`` or ``card_stem.stems`` (``col``), and each word as a bare word matches it (:data:`WORD_UNION`), in more
than :data:`WORD_STAT_BOUND` cards (``bound``), with how many (``docs``) and the row id of the
``bound + 1``-th of them in row order (``reach``), and one row of no lexeme saying which bound
it was built for (its ``docs``: :data:`ROWS_RUN`), what a first
page reads instead of counting a common word's matches from its GIN index (which gathers them
all: :func:`cardlab.search.compile.word_count_statement`); and ``word_rows``: the cards of each
bare word and each stem of ``word_stat`` by row id, in runs of :data:`ROWS_RUN` ascending (``last``:
the run's last row id), what a page of a common word reads from its cursor on, as SQLite reads
FTS5's row-ordered lists (:func:`cardlab.search.compile.posted_side`)."""

WORD_UNION = "names*|body"
"""``word_stat.col`` of a word as a bare word matches it (:func:`cardlab.search.compile.word_count_statement`):
the cards with a name lexeme it begins, or with it in their rules text."""

WORD_UNION_SQL = (
    "CREATE TEMP TABLE common_words AS"
    " SELECT word, array_agg(rowid ORDER BY rowid) AS rowids FROM ("
    " SELECT substr(u.lexeme, 1, k) AS word, f.rowid FROM card_fts f CROSS JOIN LATERAL unnest(f.names) AS u"
    " CROSS JOIN LATERAL generate_series(1, length(u.lexeme)) AS k"
    " UNION SELECT u.lexeme, f.rowid FROM card_fts f CROSS JOIN LATERAL unnest(f.body) AS u"
    ") AS found GROUP BY word HAVING count(*) > {bound};"
    " INSERT INTO word_stat (bound, col, lexeme, docs, reach)"
    f" SELECT {{bound}}, '{WORD_UNION}', word, cardinality(rowids), rowids[{{bound}} + 1] FROM common_words;"
    " INSERT INTO word_rows (bound, col, lexeme, last, rowids)"
    f" SELECT {{bound}}, '{WORD_UNION}', word, max(r), array_agg(r ORDER BY r) FROM ("
    " SELECT w.word, u.r, (u.o - 1) / {run} AS part FROM common_words w CROSS JOIN LATERAL unnest(w.rowids) WITH ORDINALITY AS u(r, o)"
    ") AS runs GROUP BY word, part;"
    " DROP TABLE common_words;"
    " INSERT INTO word_rows (bound, col, lexeme, last, rowids)"
    " SELECT {bound}, 'stems', lexeme, max(r), array_agg(r ORDER BY r) FROM ("
    " SELECT u.lexeme, s.rowid AS r, (row_number() OVER (PARTITION BY u.lexeme ORDER BY s.rowid) - 1) / {run} AS part"
    " FROM card_stem s CROSS JOIN LATERAL unnest(s.stems) AS u"
    " WHERE u.lexeme IN (SELECT lexeme FROM word_stat WHERE bound = {bound} AND col = 'stems')"
    ") AS runs GROUP BY lexeme, part"
)
"""The ``word_stat`` rows of :data:`WORD_UNION` and the ``word_rows`` of those words and of the
common stems, written on the server from the stored ``tsvector`` columns (each prefix of each
name lexeme, and each rules-text lexeme, with its cards): 7.4 s at 100,000 cards without the
runs, in the server's memory, not the builder's."""

ROWS_RUN = 200
"""Row ids a ``word_rows`` row holds: a page of ``n`` cards reads the ``ceil(n / ROWS_RUN)`` runs
after its cursor's (counting the cards of the word's exact name too) and the cursor's own; an
array stored in its row, not compressed apart. Kept in ``word_stat``'s row of no lexeme, which the
reader takes it from."""

WORD_STAT_BOUND = 1000
"""The count past which a lexeme is kept in ``word_stat``: the search engine's bound on totals
(``cardlab.search.paging.TOTAL_BOUND``; a search names the bound it reads, so another one finds
no row and counts)."""

COPIED = ("card", "card_name", "printed_name", "facet_text", "facet_num", "set_key", "card_set", "meta", "card_tri")
"""Tables copied row for row from the SQLite index (their columns in :data:`TABLES`' order)."""

SOURCES = {
    "card_name": "SELECT n.rowid, n.card_id, n.lang, n.name, n.folded, n.compact, c.rowid FROM card_name n JOIN card c ON c.id = n.card_id",
}
"""The SQLite query of a copied table whose PostgreSQL table has more: ``card_name.card``, the
card's rowid beside each name (a name prefix finds its cards without a join)."""

INDEXES = [
    "CREATE INDEX ON card (set_code)",
    "CREATE INDEX ON card (oracle_id)",
    "CREATE INDEX ON card (lower(id))",
    "CREATE INDEX ON card_name (card_id)",
    "CREATE INDEX ON card_name (folded)",
    "CREATE INDEX ON card_name (compact)",
    "CREATE INDEX ON printed_name (folded)",
    "CREATE INDEX ON printed_name (compact)",
    "CREATE INDEX ON card_fts USING gin (names)",
    "CREATE INDEX ON card_fts USING gin (body)",
    "CREATE INDEX ON card_stem USING gin (stems)",
    "CREATE INDEX ON card_tri USING gin (names {trgm}.gin_trgm_ops)",
    "CREATE INDEX ON card_tri USING gin (body {trgm}.gin_trgm_ops)",
]


class IndexOutOfDateError(CardlabError):
    """The PostgreSQL index is missing or was built from another state of the catalog: exit 2,
    saying to run ``cardlab index`` (searches never rebuild a shared server's index)."""

    exit_code = ExitStatus.USAGE


class MissingExtensionError(CardlabError):
    """An extension the index needs (:data:`REQUIRED_EXTENSIONS`) is not installed and cannot be
    created by this user, or is not available on the server: exit 2, with what to do."""

    exit_code = ExitStatus.USAGE


def is_url(db: object) -> bool:
    """True when ``db`` (an index location) is a database URL (a ``str``) rather than a file."""

    return isinstance(db, str) and is_database_url(db)


def locate(url: str) -> Location:
    """Return the :class:`~cardlab.core.database.Location` of an index URL.

    Raises:
        UsageError: not a PostgreSQL URL (a ``sqlite:///`` URL is turned into a path earlier,
            :func:`cardlab.core.paths.default_db`).
    """

    scheme = url.partition("://")[0].strip().lower()
    if scheme not in ("postgresql", "postgres", "postgresql+psycopg"):
        raise UsageError(
            f"the search index lives in a file or on a PostgreSQL server, not '{scheme}'; give --db FILE or"
            " --db postgresql+psycopg://USER@HOST/DATABASE (or CARDLAB_DB)"
        )
    return locate_db(url)


def _conninfo(where: Location) -> str:
    """The libpq URI of ``where`` (password included): read from its address, no SQLAlchemy."""
    return replace(where.address, drivername="postgresql").render(hide_password=False)


def server_connection(
    where: Location, *, autocommit: bool = True, search_path: str | None = None, generic_plans: bool = False, serial: bool = False
) -> Any:
    """Open a psycopg connection to the index's database (``search_path``: its schemas;
    ``generic_plans``: prepared statements get one plan for every value; ``serial``: no parallel
    workers and no JIT compilation, for a reader whose statements last milliseconds: starting
    workers or compiling a plan costs more than running it).

    Raises:
        DatabaseUnavailableError: no driver, unreachable server, refused login, no such database
            (:func:`cardlab.core.database.server_error`, exit 2).
    """

    try:
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL
    except ImportError:
        raise DatabaseUnavailableError(
            "PostgreSQL needs the psycopg 3 driver: pip install 'cardlab[postgres]' (or 'psycopg[binary]')"
        ) from None
    # cardlab's SQL writes a backslash as it is ('\', as in ESCAPE '\'): the default since PostgreSQL 9.1,
    # set here for a server or database that turned it off
    options = "-c standard_conforming_strings=on"
    if search_path:
        options += f" -c search_path={search_path}"
    if generic_plans:
        # what cardlab prepares is planned once (PgIndex.fetch's generic statements); every other
        # statement is planned with its values, as statements not prepared always are
        options += " -c plan_cache_mode=force_generic_plan"
    if serial:
        # a search page reads a few rows by index: a Gather's workers (forked per statement) cost
        # more than the whole query (issue 29: one-word searches 17-22x SQLite's with them); JIT
        # compiles a plan whose estimate passes jit_above_cost in hundreds of milliseconds
        options += " -c max_parallel_workers_per_gather=0 -c jit=off"
    try:
        # prepare_threshold=None: psycopg prepares nothing by itself, so every query is planned with
        # its values (a generic plan of a facet query is 50x slower than its custom plan), except
        # the one-word searches PgIndex prepares on purpose
        return psycopg.connect(_conninfo(where), autocommit=autocommit, connect_timeout=10, options=options, prepare_threshold=None)
    except psycopg.Error as err:
        raise server_error(err, where, "the search index", connecting=True) from None


@contextmanager
def _errors(where: Location) -> Iterator[None]:
    """Turn psycopg's errors into cardlab's (:func:`cardlab.core.database.server_error`)."""
    import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

    try:
        yield
    except psycopg.Error as err:
        raise server_error(err, where, "the search index") from None


@lru_cache(maxsize=512)
def _pg_sql(sql: str) -> str:
    """SQLite's ``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


def _literal(value: object) -> str | None:
    """``value`` as an SQL literal for an ``EXECUTE``'s argument list, written here rather than
    by psycopg's adapters (a word's three statements carry some twenty values: 0.03 ms a search):
    an int as its digits, a text quoted with its quotes doubled (a session with
    ``standard_conforming_strings``). None for any other value, or a text holding NUL (which no
    text may hold): psycopg then writes it, or refuses it."""
    if type(value) is int:
        return str(value)
    if type(value) is str and "\x00" not in value:
        return "'" + value.replace("'", "''") + "'"
    return None


def _numbered(sql: str) -> str:
    """SQLite's ``?`` placeholders as a prepared statement's ``$1``, ``$2``, ..."""
    numbers = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _m: f"${next(numbers)}", sql)


SNAPSHOT_SQL = (
    f"SELECT pg_advisory_xact_lock_shared({SWAP_LOCK[0]}, {SWAP_LOCK[1]}),"
    " (SELECT value FROM meta WHERE key = 'stem_languages'),"
    " (SELECT value FROM meta WHERE key = 'fingerprint')"
)
"""A search's first statement (:meth:`PgIndex.snapshot`): :data:`SWAP_LOCK` shared, then the
index's stem languages and fingerprint as its transaction sees them. Prepared once per session;
a rebuild's swap renames the schema its tables are read from, and PostgreSQL plans it again."""


class PgIndex:
    """A read connection to the PostgreSQL index that the search engine uses as it uses a
    ``sqlite3.Connection``: :meth:`execute` (``?`` placeholders) returns a cursor (``fetchone``,
    ``fetchall``, iteration), :meth:`fetch` runs one query under a time limit; ``dialect`` is
    ``postgresql`` (:func:`cardlab.search.compile.dialect_of`).

    Round trips: a search's statements run in one read-only transaction (:meth:`snapshot`) whose
    ``BEGIN`` and shared :data:`SWAP_LOCK` travel with its first statement, and whose ``COMMIT``
    travels with its last one when the engine says which that is (``last``): a search of one
    statement costs one round trip, not four. Those statements are sent with their values bound
    by psycopg on the client (several statements in one message), the others with server-side
    parameters."""

    dialect = "postgresql"

    def __init__(self, where: Location) -> None:
        self.where = where
        self.con = self._session()
        self._depth = 0
        self._begun = False
        self._stems: str | None = None
        self._stems_read = False
        self._fingerprint: str | None = None
        self._prepared: dict[str, str] = {}
        self._serial = 0
        self._snapshot_plan: str | None = None
        self._snapshots = 0
        self._notified = 0  # swap notifications received on this session
        self._verified: tuple[int, int, float] | None = None  # (notifications, swaps here, when) the fingerprint was last read

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Run the statements of one search in one read-only transaction holding :data:`SWAP_LOCK`
        shared: they all read the same index, old or new, never some of each (nested: the outer one
        counts). Nothing is sent on entry: ``BEGIN`` goes with the first statement; the transaction
        ends with the block (rolled back after an error) or with a statement run with ``last``."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        self._depth = 1
        ok = False
        try:
            yield
            ok = True
        finally:
            self._depth = 0
            if self._begun:
                self._begun = False
                try:
                    self.con.execute("COMMIT" if ok else "ROLLBACK")
                except psycopg.Error as err:
                    if ok:
                        raise server_error(err, self.where, "the search index") from None

    def stem_languages(self) -> str | None:
        """The ``stem_languages`` value of the index's ``meta`` table (JSON text), or None: read
        once, then checked by every snapshot's first round trip (a rebuild may change it)."""
        if not self._stems_read:
            row = self.execute("SELECT value FROM meta WHERE key = 'stem_languages'").fetchone()
            self._stems, self._stems_read = (row[0] if row else None), True
        return self._stems

    def fingerprint(self) -> str | None:
        """The ``fingerprint`` of the index's ``meta`` table (the catalog it was built from), or
        None: read once, then again by every snapshot's first round trip, as :meth:`stem_languages`."""
        if self._fingerprint is None:
            row = self.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
            self._fingerprint = row[0] if row else None
        return self._fingerprint

    def _run(self, statements: list[tuple[str, Any, bool]], timeout: float | None, last: bool, rows: bool = False) -> Any:
        """Send ``statements`` (``(sql with SQLite placeholders, params, generic)`` each) with what
        the transaction needs around them, in one message; return the cursor on the first one's
        rows (``nextset`` for the next), or with ``rows`` every statement's rows (a list each).
        ``generic``: run it as a prepared statement with one plan for every value
        (:data:`PREPARED` at most per connection)."""
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        if (self.con.closed or self.con.broken) and not (self._depth and self._begun):
            self._reconnect()  # the server restarted or the network dropped since the last call
        begun = self._begun
        try:
            return self._send(statements, timeout, last, rows)
        except psycopg.OperationalError:
            # a connection found dead by this statement: when nothing of the call was read on it
            # (its first statement, or no call), once more on a new connection
            if not self.con.broken or (self._depth and begun):
                raise
            self._begun = False
            self._reconnect()
            return self._send(statements, timeout, last, rows)

    def _session(self) -> Any:
        """A new reader session: the live schema, generic plans for what it prepares
        (:func:`server_connection`), listening on :data:`SWAP_CHANNEL` where the server allows it
        (not on a standby in recovery: :meth:`unchanged` is then always False)."""
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        con = server_connection(self.where, search_path=LIVE_SCHEMA, generic_plans=True, serial=True)
        self._verified = None
        self._listening = False
        try:
            con.execute(f"LISTEN {SWAP_CHANNEL}")
            con.add_notify_handler(self._on_notify)
            con.add_notice_handler(self._on_notice)
            self._listening = True
        except psycopg.Error:
            pass
        return con

    def _on_notice(self, diagnostic: Any) -> None:
        """A notice from the server; one of severity FATAL or PANIC, read while the session was
        idle, is its end (a restart, a terminated backend): what the session knew of the index
        no longer holds."""
        if diagnostic.severity_nonlocalized in ("FATAL", "PANIC"):
            self._notified += 1

    def _on_notify(self, _notify: Any) -> None:
        """A notification on :data:`SWAP_CHANNEL` (the only channel listened to): the index was swapped."""
        self._notified += 1

    def unchanged(self) -> bool:
        """True when no swap has replaced the index since this session last read its fingerprint
        (a snapshot's first round trip, at most :data:`TRUSTED_SECONDS` ago), as far as can be told
        without a round trip: the swap's notification has not arrived (read from the socket without
        waiting), the session has not ended (a FATAL notice, a closed socket), and this process
        made no swap. What lets the engine answer a search whose result it already knows for that
        fingerprint (none of the cards match) without a statement. False outside a snapshot's
        reach: inside a transaction, before any snapshot, or on a session not listening. The time
        bound covers what no notification says (a pooler that drops ``LISTEN``, a network that
        fails silently): such an answer is never older than that."""
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL
        from psycopg import pq

        verified = self._verified
        if not self._listening or verified is None or self._begun or self._fingerprint is None:
            return False
        if time.monotonic() - verified[2] > TRUSTED_SECONDS:
            return False
        try:
            pgconn = self.con.pgconn
            pgconn.consume_input()
            while pgconn.notifies() is not None:
                self._notified += 1
            if pgconn.status != pq.ConnStatus.OK:
                return False
        except psycopg.Error:
            return False
        return verified[:2] == (self._notified, _SWAPS[0])

    def _reconnect(self) -> None:
        """A new session in place of a closed or broken one (what it had prepared went with it).

        Raises:
            DatabaseUnavailableError: the server cannot be reached (:func:`server_connection`).
        """
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        try:
            self.con.close()
        except psycopg.Error:
            pass
        self.con = self._session()
        self._prepared.clear()
        self._snapshot_plan = None
        self._stems_read = False
        self._fingerprint = None

    def _send(self, statements: list[tuple[str, Any, bool]], timeout: float | None, last: bool, rows: bool = False) -> Any:
        """:meth:`_run` on the current session."""
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        before: list[str] = []
        after: list[str] = []
        opened = False
        lock_row = -1
        snapshot_plan = self._snapshot_plan
        if self._depth and not self._begun:
            before.append("BEGIN READ ONLY")
            if snapshot_plan is None:
                # prepared once per session: planned anew, its two looks at meta cost more than
                # the lock (0.10 against 0.04 ms with BEGIN and COMMIT)
                self._snapshots += 1
                snapshot_plan = f"cardlab_snapshot{self._snapshots}"
                before.append(f"PREPARE {snapshot_plan} AS {SNAPSHOT_SQL}")
            lock_row = len(before)
            before.append(f"EXECUTE {snapshot_plan}")
            self._begun = opened = True
        alone = not self._depth and timeout is not None
        if alone:
            before.append("BEGIN READ ONLY")
        if timeout is not None:  # in a snapshot's transaction: the limit lasts until it ends
            before.append(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
        if alone or (last and self._depth == 1 and self._begun):
            after.append("COMMIT")
        names: list[str | None] = []
        prepared: dict[str, str] = {}  # what this message prepares
        for sql, _params, generic in statements:
            name = None
            if generic and (self._depth or alone):
                name = prepared.get(sql)
                if name is None and sql in self._prepared:
                    name = self._prepared[sql] = self._prepared.pop(sql)  # the most recently used last
                if name is None:
                    # the least recently used goes, never one this message runs
                    if len(self._prepared) + len(prepared) >= PREPARED:
                        oldest = next((s for s, n in self._prepared.items() if n not in names), None)
                        if oldest is not None:
                            before.append(f"DEALLOCATE {self._prepared.pop(oldest)}")
                    self._serial += 1
                    name = prepared[sql] = f"cardlab_q{self._serial}"
                    before.append(f"PREPARE {name} AS " + _numbered(sql))
            names.append(name)
        if len(statements) == 1 and names[0] is None and not before and not after:
            cursor = self.con.execute(_pg_sql(statements[0][0]), list(statements[0][1]))
            return [cursor.fetchall()] if rows else cursor
        seen = (self._notified, _SWAPS[0], time.monotonic())  # what a fingerprint read by this message is as new as
        # a cursor only where psycopg writes the values or reads the answer (not a word's page)
        cur: Any = None
        texts = []
        for (sql, params, _generic), name in zip(statements, names, strict=True):
            if name is not None:
                values = [_literal(p) for p in params]  # the session's standard_conforming_strings is on
                if None not in values:
                    texts.append(f"EXECUTE {name}({', '.join(values)})" if values else f"EXECUTE {name}")  # type: ignore[arg-type]
                    continue
                marks = ", ".join(["%s"] * len(params))
                cur = cur or psycopg.ClientCursor(self.con)
                texts.append(cur.mogrify(f"EXECUTE {name}({marks})" if params else f"EXECUTE {name}", list(params)))
            else:
                cur = cur or psycopg.ClientCursor(self.con)
                texts.append(cur.mogrify(_pg_sql(sql), list(params)))
        try:
            if rows:
                results = self._results("; ".join([*before, *texts, *after]))
            else:
                reader = cur or psycopg.ClientCursor(self.con)
                reader.execute("; ".join([*before, *texts, *after]))
            self._prepared.update(prepared)
            self._snapshot_plan = snapshot_plan
            for i in range(len(before)):
                if opened and i == lock_row:  # the lock's row: the index's stem languages, as this transaction sees them
                    if rows:
                        row = results[i][0] if results[i] else None
                    else:
                        row = reader.fetchone()
                    self._stems, self._stems_read = (row[1] if row else None), True
                    self._fingerprint = row[2] if row else None
                    self._verified = seen
                if not rows:
                    reader.nextset()
        except BaseException:
            if alone:
                self._rollback()
            raise
        if after and self._depth:
            self._begun = False
        return results[len(before) : len(before) + len(statements)] if rows else reader

    def _results(self, text: str) -> list[list]:
        """Send ``text`` (statements with their values written in) and return each statement's
        rows (``[]`` for a command), read from libpq's results without a cursor: a word's first
        page sends six statements, and a cursor's bookkeeping of each result cost 0.06 of its
        0.42 ms (BENCHMARKS.md).

        Raises:
            psycopg.Error: the first statement the server refused, as a cursor raises it.
        """
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL
        from psycopg import generators, pq
        from psycopg.adapt import Transformer

        con = self.con
        with con.lock:
            con.pgconn.send_query(text.encode(con.info.encoding))
            results = con.wait(generators.execute(con.pgconn))
        out: list[list] = []
        for res in results:
            if res.status == pq.ExecStatus.TUPLES_OK:
                loader = Transformer(con)
                loader.set_pgresult(res)
                out.append(loader.load_rows(0, res.ntuples, tuple))
            elif res.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.EMPTY_QUERY):
                out.append([])
            else:
                raise psycopg.errors.error_from_result(res, encoding=con.info.encoding)
        return out

    def _rollback(self) -> None:
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        try:
            self.con.execute("ROLLBACK")
        except psycopg.Error:
            pass

    def execute(self, sql: str, params: Any = (), *, last: bool = False) -> Any:
        """Run ``sql`` (SQLite placeholders) and return the cursor. ``last``: no other statement
        of the snapshot follows (its ``COMMIT`` goes with this one).

        Raises:
            DatabaseUnavailableError: the server went away; DataDirError: another database error.
        """
        with _errors(self.where):
            return self._run([(sql, params, False)], None, last)

    def fetch(self, sql: str, params: Any, timeout: float | None = None, *, last: bool = False, generic: bool = False) -> list:
        """Return every row of ``sql``, cut off after ``timeout`` seconds (``statement_timeout``);
        ``last`` as for :meth:`execute`. ``generic``: the statement's plan suits every value of
        its parameters (a search of one bare word: :func:`cardlab.search.compile.one_bare_word`):
        it is prepared once per connection and planned once (about 0.3 ms saved a search), not
        planned with each search's values as every other statement is.

        Raises:
            TimeoutError: the time limit was reached. ValueError: the server refused the query's
                values (its first line).
        """
        return self.fetch_many([(sql, params, generic)], timeout, last=last)[0]

    def fetch_many(self, statements: list[tuple[str, Any, bool]], timeout: float | None = None, *, last: bool = False) -> list[list]:
        """Every row of each of ``statements`` (``(sql, params, generic)``, as :meth:`fetch`),
        sent in one message: one round trip for a page and its total. ``timeout`` and ``last``
        as :meth:`fetch` (``last``: the transaction ends after the last of them).

        Raises:
            TimeoutError, ValueError: as :meth:`fetch`.
        """
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        try:
            return self._run(statements, timeout, last, rows=True)
        except psycopg.errors.QueryCanceled:
            raise TimeoutError(timeout) from None
        except (psycopg.DataError, psycopg.ProgrammingError) as err:
            raise ValueError(str(err).strip().splitlines()[0]) from None
        except psycopg.Error as err:
            raise server_error(err, self.where, "the search index") from None

    def meta(self) -> dict[str, str] | None:
        """The index's ``meta`` table, or None when there is no index (no live schema yet)."""
        import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

        try:
            meta = dict(self.con.execute("SELECT key, value FROM meta").fetchall())
        except psycopg.errors.UndefinedTable:
            return None
        except psycopg.Error as err:
            raise server_error(err, self.where, "the search index") from None
        self._stems, self._stems_read = meta.get("stem_languages"), True
        self._fingerprint = meta.get("fingerprint")
        return meta

    def close(self) -> None:
        """Close the connection."""
        self.con.close()


def connect(url: str) -> PgIndex:
    """Open the index at ``url`` for reading, whatever its freshness (see :func:`open_fresh`).

    Raises:
        UsageError, DatabaseUnavailableError: as :func:`locate` and :func:`server_connection`.
    """
    return PgIndex(locate(url))


def _is_fresh(roots: list[Path], meta: dict[str, str]) -> bool:
    """True when ``meta`` was recorded from the catalog under ``roots`` as it is now: the folder
    fingerprint for a big catalog (as :func:`cardlab.index.sqlite.ensure_index`), else every file's."""

    if int(meta.get("files", "0")) > FULL_CHECK_FILES and meta.get("quick") == quick_fingerprint(roots):
        return True
    return meta.get("fingerprint", "").split(":racy-")[0] == fingerprint(roots).split(":racy-")[0]


def check_fresh(roots: list[Path], index: PgIndex) -> None:
    """Raise :class:`IndexOutOfDateError` unless the index on ``index`` holds the catalog under ``roots``."""
    meta = index.meta()
    how = f"run 'cardlab index' with CARDLAB_DB={index.where.shown} (or --db) to build it"
    if meta is None or "fingerprint" not in meta:
        raise IndexOutOfDateError(f"there is no search index on {index.where.shown} yet; {how}")
    if not _is_fresh(roots, meta):
        if built_from(meta, roots):
            why = "the catalog changed since it was built"
        else:
            why = f"it was built from another catalog: {', '.join(map(str, recorded_roots(meta) or [])) or 'unknown'}"
        raise IndexOutOfDateError(f"the search index on {index.where.shown} is out of date ({why}); {how}")


def open_fresh(roots: list[Path], url: str) -> PgIndex:
    """Open the index at ``url`` and check that it holds the catalog under ``roots``.

    Raises:
        IndexOutOfDateError: no index, or one of another state of the catalog (exit 2).
        UsageError, DatabaseUnavailableError: a bad URL, an unreachable server, a refused login.
    """
    index = connect(url)
    try:
        check_fresh(roots, index)
    except BaseException:
        index.close()
        raise
    return index


def _ensure_extensions(con: Any, where: Location) -> dict[str, str]:
    """Create the :data:`REQUIRED_EXTENSIONS` that are missing; return each one's schema.

    Raises:
        MissingExtensionError: one is not installed and cannot be created (no right, not on the server).
    """
    import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

    schemas: dict[str, str] = {}
    for ext in REQUIRED_EXTENSIONS:
        row = con.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = %s", (ext,)
        ).fetchone()
        if row is None:
            try:
                with con.transaction():
                    con.execute(f"CREATE EXTENSION IF NOT EXISTS {ext}")
            except psycopg.Error as err:
                raise _extension_error(ext, err, where) from None
            row = con.execute(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = %s", (ext,)
            ).fetchone()
        schemas[ext] = row[0]
    return schemas


def _extension_error(ext: str, err: BaseException, where: Location) -> MissingExtensionError:
    database = where.address.database
    text = str(err).lower()
    if "control file" in text or "is not available" in text:
        return MissingExtensionError(
            f"the PostgreSQL server of {where.shown} does not have the extension {ext}, which the search index needs;"
            " install PostgreSQL's contrib modules on the server (Debian: apt-get install postgresql-contrib), then run"
            " 'cardlab index' again"
        )
    return MissingExtensionError(
        f"the search index needs the PostgreSQL extension {ext}, and this user may not create it in the database"
        f" '{database}'; ask the server's administrator to run: psql -d {database} -c 'CREATE EXTENSION {ext}'"
        " (once), then run 'cardlab index' again"
    )


def build(roots: list[Path], url: str, force: bool = False) -> BuildReport | None:
    """Build the index of the catalog under ``roots`` on the server at ``url``, unless it is
    already fresh (and not ``force``). See the module's docstring for the steps and guarantees.

    Returns:
        The :class:`~cardlab.index.sqlite.BuildReport` (``db``: the URL without its password), or
        None when the index was already fresh.

    Raises:
        CatalogError: the catalog has problems (the index in use is untouched).
        MissingExtensionError: ``pg_trgm`` is missing and cannot be created.
        DatabaseUnavailableError, DataDirError: the server cannot be reached or used.
    """

    start = time.perf_counter()
    where = locate(url)
    con = server_connection(where)
    try:
        with _errors(where):
            con.execute("SELECT pg_advisory_lock(%s, %s)", BUILD_LOCK)
            trgm = _ensure_extensions(con, where)["pg_trgm"]
            _drop_leftovers(con)
            if not force:
                row = (
                    con.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (LIVE_SCHEMA,)).fetchone()
                    and con.execute(f"SELECT key, value FROM {LIVE_SCHEMA}.meta").fetchall()
                )
                if row and _is_fresh(roots, dict(row)):
                    return None
        with tempfile.TemporaryDirectory(prefix="cardlab-pgindex.") as tmp:
            report = build_index(roots, Path(tmp) / "index.sqlite")
            schema = f"{BUILD_PREFIX}{os.getpid()}"
            try:
                with _errors(where):
                    _copy(report.db, con, schema, trgm)
                    _swap(con, schema)
            except BaseException:
                _drop_quietly(con, schema)
                raise
        return BuildReport(db=where.shown, cards=report.cards, sets=report.sets, seconds=time.perf_counter() - start)
    finally:
        con.close()  # ends the session: the advisory lock goes with it


def _drop_leftovers(con: Any) -> None:
    """Drop the schemas of builds that did not finish (their process was killed): under the build
    lock no other build is running, so every build or old schema left is one."""
    for (name,) in con.execute(
        "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, %s) OR starts_with(nspname, %s)", (BUILD_PREFIX, OLD_PREFIX)
    ).fetchall():
        con.execute(f'DROP SCHEMA "{name}" CASCADE')


def _drop_quietly(con: Any, schema: str, wait: float | None = None) -> None:
    """Drop ``schema`` if the server lets it: waiting at most ``wait`` seconds for its tables'
    locks (None: as long as the server's ``lock_timeout`` says); what cannot be dropped now (the
    server or connection gone, a reader's lock, a deadlock with one) the next build drops
    (:func:`_drop_leftovers`)."""
    import psycopg  # lazy: psycopg (1.2 s cold), only for a PostgreSQL URL

    try:
        if wait is not None:
            con.execute(f"SET lock_timeout = {max(1, int(wait * 1000))}")
        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    except psycopg.Error:
        pass
    finally:
        if wait is not None:
            try:
                con.execute("RESET lock_timeout")
            except psycopg.Error:
                pass


DROP_WAIT = 2.0
"""Seconds the old schema's drop after a swap waits for its tables' locks: a reader that began on
the old tables and plans again locks them (and can deadlock with the drop), and every search that
asks for a lock behind the waiting drop waits with it. The swap has committed by then: the old
schema is left to the next build, and the build succeeds."""


def _copy(sqlite_path: Path | str, con: Any, schema: str, trgm: str) -> None:
    """Create ``schema`` with the index's tables (:data:`TABLES`) and fill them from the SQLite
    index at ``sqlite_path``; then the indexes, the planner's statistics and the visibility map
    (``VACUUM (ANALYZE)``: the session is in autocommit)."""

    # each commit flushed before the next statement, whatever the server's default: VACUUM marks a page
    # all-visible only once the rows' commit is on disk (synchronous_commit = off defers it)
    con.execute("SET synchronous_commit = on")
    con.execute(f'CREATE SCHEMA "{schema}"')
    for name, columns in TABLES.items():
        con.execute(f'CREATE TABLE "{schema}".{name} ({columns})')
    src = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    try:
        cur = con.cursor()
        for name in COPIED:
            listed = ", ".join(_columns(name))
            with cur.copy(f'COPY "{schema}".{name} ({listed}) FROM STDIN') as copy:
                for row in src.execute(SOURCES.get(name, f"SELECT {listed} FROM {name}")):
                    copy.write_row(row)
        decode = data_decoder(src)
        rows = src.execute("SELECT rowid, data FROM card ORDER BY rowid")
        stem_rows: list[tuple[int, str]] = []
        stats = {"names": _WordStats(), "body": _WordStats(), "stems": _WordStats()}
        with cur.copy(f'COPY "{schema}".card_fts (rowid, names, body) FROM STDIN') as fts:
            total, done = src.execute("SELECT count(*) FROM card").fetchone()[0], 0
            while batch := rows.fetchmany(COPY_BATCH):
                step("copying to the server", done, total)
                done += len(batch)
                texts = [_texts(decode(data)) for _rowid, data in batch]
                names = tokenize([t[0] for t in texts])
                bodies = tokenize([t[1] for t in texts])
                stems = tokenize([t[2] for t in texts], "stems")
                for i, (rowid, _data) in enumerate(batch):
                    fts.write_row((rowid, tsvector(names[i]), tsvector(bodies[i])))
                    stem_rows.append((rowid, tsvector(stems[i])))
                    stats["names"].add(rowid, names[i])
                    stats["body"].add(rowid, bodies[i])
                    stats["stems"].add(rowid, stems[i])
        with cur.copy(f'COPY "{schema}".card_stem (rowid, stems) FROM STDIN') as copy:
            for row in stem_rows:
                copy.write_row(row)
        with cur.copy(f'COPY "{schema}".word_stat (bound, col, lexeme, docs, reach) FROM STDIN') as copy:
            # built for this bound (a word with no row is within it), and word_rows' runs of this many row ids
            copy.write_row((WORD_STAT_BOUND, "", "", ROWS_RUN, 0))
            for col, counted in stats.items():
                for lexeme, docs, reach in counted.common():
                    copy.write_row((WORD_STAT_BOUND, col, lexeme, docs, reach))
    finally:
        src.close()
    con.execute(f'SET search_path = "{schema}"')
    con.execute(WORD_UNION_SQL.format(bound=WORD_STAT_BOUND, run=ROWS_RUN))
    for ddl in INDEXES:
        con.execute(ddl.format(trgm=f'"{trgm}"'))
    for name in TABLES:
        # the planner's statistics, and the visibility map: a table never vacuumed sends every
        # index-only scan to the table too (the OR/negation shape of BENCHMARKS.md: 18 -> 12 ms)
        con.execute(f"VACUUM (ANALYZE) {name}")
    con.execute("RESET search_path")


class _WordStats:
    """The lexemes of one ``tsvector`` column counted card by card in row order (``word_stat``)."""

    def __init__(self) -> None:
        self.docs: dict[str, int] = {}
        self.reach: dict[str, int] = {}

    def add(self, rowid: int, tokens: list[str]) -> None:
        """Count the card ``rowid``, whose column holds ``tokens`` (each lexeme once a card)."""
        docs = self.docs
        for token in set(tokens):
            n = docs.get(token, 0) + 1
            docs[token] = n
            if n == WORD_STAT_BOUND + 1:
                self.reach[token] = rowid

    def common(self) -> Iterator[tuple[str, int, int]]:
        """``(lexeme, cards, the row id of its WORD_STAT_BOUND + 1-th card)`` of each lexeme in more
        than :data:`WORD_STAT_BOUND` cards."""
        for token, rowid in self.reach.items():
            yield token, self.docs[token], rowid


def _columns(table: str) -> list[str]:
    """The column names of one of :data:`TABLES`, in order."""
    return re.findall(r"(?:^|, )(\w+) (?:text|bigint|bytea|double precision|tsvector)\b", TABLES[table])


def _swap(con: Any, schema: str) -> None:
    """In one transaction: the live schema renamed away, ``schema`` renamed live; then the old one
    dropped (readers that began before the swap finish on it first), or left to the next build
    when readers still lock its tables after :data:`DROP_WAIT` seconds (:func:`_drop_quietly`)."""
    old = f"{OLD_PREFIX}{os.getpid()}"
    with con.transaction():
        con.execute("SELECT pg_advisory_xact_lock(%s, %s)", SWAP_LOCK)  # the searches in progress end first
        if con.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (LIVE_SCHEMA,)).fetchone():
            con.execute(f'ALTER SCHEMA {LIVE_SCHEMA} RENAME TO "{old}"')
        con.execute(f'ALTER SCHEMA "{schema}" RENAME TO {LIVE_SCHEMA}')
        con.execute(f"NOTIFY {SWAP_CHANNEL}")  # sent to every reader when the swap commits
    _SWAPS[0] += 1
    _drop_quietly(con, old, DROP_WAIT)
