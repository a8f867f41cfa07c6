"""The SQLite search index: build it atomically, and know cheaply whether it is fresh.

- :func:`build_index` validates the catalog first; a catalog with problems raises
  :class:`~cardlab.core.errors.CatalogError` and the index in use is untouched. The new index is written
  to a temporary file beside the target and renamed into place (``os.replace``), so a reader sees
  either the old index or the new one, never half of one.
- :func:`ensure_index` rebuilds only when the catalog's fingerprint (every file's path, size and
  modification time, the schemas, the index version) differs from the one stored in the index.
"""

from __future__ import annotations

import glob
import json
import os
import re
import sqlite3
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson

from cardlab import games
from cardlab.catalog.freshness import folders, stamp_digest
from cardlab.catalog.model import Catalog, SetInfo, merge_reprint, number_int, play_key
from cardlab.core import progress
from cardlab.core.bulk import bulk_objects
from cardlab.core.errors import CardlabError, CatalogError, InputError, Problem, SourcePos
from cardlab.core.fs import process_alive
from cardlab.core.inputs import MAX_FILE_BYTES
from cardlab.core.paths import cache_dir, is_server, schema_dir
from cardlab.core.stamps import file_stamp, is_racy, sha1_hex
from cardlab.core.text import compact, fold, forget, has_cjk, localized_fields, norm_value, pick, stem_words
from cardlab.games.base import Game

INDEX_VERSION = "23"
"""The search index's layout (this module): bump when its tables or contents
change, and old indexes are rebuilt."""

FINGERPRINT_SALT = f"v{INDEX_VERSION}"
"""What the index's fingerprint of the catalog (:func:`fingerprint`) hashes
first: an index of another version never matches."""

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def whole_sqlite_file(db: str | os.PathLike[str]) -> bool:
    """True when the file at ``db`` starts as a SQLite database and is as long as its header says
    (a truncated index is not)."""
    try:
        with open(db, "rb") as fh:
            head = fh.read(100)
        size = os.path.getsize(db)
    except OSError:
        return False
    if len(head) < 100 or head[:16] != SQLITE_MAGIC:
        return False
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    return pages == 0 or size >= page * pages


def stored_meta(db: str | os.PathLike[str]) -> dict[str, str] | None:
    """Return the facts recorded in the search index file at ``db`` (``fingerprint``, ``quick``,
    ``files``...), or None (missing, truncated or unreadable, or a PostgreSQL URL: see
    :mod:`cardlab.index.postgres`)."""
    if is_server(db):
        return None
    if not os.path.isfile(db) or not whole_sqlite_file(db):
        return None
    try:
        con = sqlite3.connect(f"{Path(db).resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT key, value FROM meta").fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    meta = dict(rows)
    return meta if "fingerprint" in meta else None


def stored_fingerprint(db: str | os.PathLike[str]) -> str | None:
    """Return the fingerprint recorded in the index at ``db``, or None (missing, truncated or unreadable)."""
    meta = stored_meta(db)
    return meta["fingerprint"] if meta else None


DICTIONARY_BYTES = 8192
"""Size of the zlib preset dictionary for ``card.data``: the last bytes of about 100 cards spread over
the catalog (their keys and common values; :func:`_write`). A card's JSON then takes about a fifth
of its size (2.8 MB instead of 14.9 MB for 30,000 synthetic cards)."""


def _compress(text: bytes, zdict: bytes) -> bytes:

    co = zlib.compressobj(6, zdict=zdict) if zdict else zlib.compressobj(6)
    return co.compress(text) + co.flush()


def data_decoder(con: sqlite3.Connection) -> Callable[[bytes], dict]:
    """Return the function that turns a ``card.data`` value of the index on ``con`` into the card
    (a dict, as in its YAML file): zlib with the index's dictionary (meta ``zdict``), then JSON
    (orjson: a page of 50 cards is parsed in a third of the standard library's time, the largest
    part of a search API request). About 7 µs a card before JSON parsing."""

    row = con.execute("SELECT value FROM meta WHERE key = 'zdict'").fetchone()
    zdict = bytes.fromhex(row[0]) if row else b""

    def decode(blob: bytes) -> dict:
        d = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
        return orjson.loads(d.decompress(blob))

    return decode


class IndexWriteError(CardlabError):
    """The index cannot be written (read-only folder, full disk...). When an older index exists,
    searches use it with a warning (:func:`open_fresh`)."""

    def __init__(self, db: Path, err: BaseException) -> None:
        reason = getattr(err, "strerror", None) or str(err)
        super().__init__(
            f"cannot write the search index {db}: {reason}; free some space or make the folder writable,"
            " or choose another index file with --db or CARDLAB_DB"
        )


@dataclass
class BuildReport:
    """What a build did: ``cards`` indexed, ``sets``, ``seconds`` taken, the ``db`` path (or, on
    PostgreSQL, its URL without the password)."""

    db: Path | str
    cards: int
    sets: int
    seconds: float


def fingerprint(roots: list[Path]) -> str:
    """Return a hash of the catalog's state: every file's path and :func:`~cardlab.core.stamps.file_stamp`
    (size, modification and change times, inode), plus the schemas. A same-size edit that keeps the
    modification time (``cp -p``, ``rsync -t``) still changes the change time or the inode.

    Costs one ``stat`` per file (about 0.15 s for 30,000 files), no YAML parsing.
    """
    return _fingerprint_and_count(roots)[0]


def _fingerprint_and_count(roots: list[Path], racy_files: list[str] | None = None) -> tuple[str, int]:
    """:func:`fingerprint`, and how many catalog files it stamped (the racy ones' paths added to
    ``racy_files``, see :func:`cardlab.catalog.freshness.stamp_digest`)."""
    return stamp_digest(roots, FINGERPRINT_SALT, racy_files)


def _contents(paths: list[str]) -> dict[str, str]:
    """SHA-1 of each file's bytes (empty for a file that cannot be read)."""
    import hashlib  # lazy: hashlib (16 ms cold), only for a build

    out = {}
    for path in paths:
        try:
            with open(path, "rb") as fh:
                out[path] = hashlib.sha1(fh.read(MAX_FILE_BYTES + 1)).hexdigest()
        except OSError:
            out[path] = ""
    return out


def _settled(db: Path, meta: dict[str, str], fp: str, quick: str | None) -> bool:
    """True when an index built while files were being written (a racy fingerprint) still holds
    the catalog: the stamps are the same as then, and the files that were too recent to trust have
    the same bytes as when the build began. The fingerprint then recorded is the one of now (when
    no longer racy), so the next command checks stamps only. A settled catalog costs reading those
    files once, not building the index again."""
    stored = meta["fingerprint"]
    if ":racy-" not in stored or fp.split(":racy-")[0] != stored.split(":racy-")[0]:
        return False
    try:
        recorded = json.loads(meta.get("racy_files", "{}"))
    except ValueError:
        return False
    if not isinstance(recorded, dict) or _contents(sorted(recorded)) != recorded:
        return False
    if ":racy-" not in fp:  # a read-only index is checked this way again next time
        trusted_quick = {"quick": quick} if quick is not None and ":racy-" not in quick else {}
        _write_meta(db, {"fingerprint": fp, **trusted_quick}, drop=("racy_files",))
    return True


FULL_CHECK_FILES = 5000
"""Up to this many catalog files, every search checks every file's stamp (:func:`fingerprint`,
a few milliseconds); above it, searches check only the folders (:func:`quick_fingerprint`)."""


def quick_fingerprint(roots: list[Path]) -> str:
    """Return a hash of the catalog's folders: each set and formats folder's own stamp (which
    changes when a file is added, removed or renamed in it, so also when an editor saves by
    writing a new file and renaming it), each set's ``set.yaml``, each format file and the schemas.

    It costs one ``stat`` per folder, not per card: about 1 ms at 100,000 cards in 334 sets. A card
    file rewritten in place (same inode, folder untouched) is not seen: ``cardlab validate`` and
    ``cardlab index`` check every file (:func:`fingerprint`).
    """

    now = time.time_ns()
    racy = False
    parts = [f"q{INDEX_VERSION}"]  # hashed at the end: sha1_hex loads no OpenSSL for a small text
    for kind, folder, _game in folders(roots):
        name = os.fspath(folder)
        try:
            st = os.stat(name)
        except OSError:
            continue
        parts.append(f"{name}\0{file_stamp(st)}\n")
        racy = racy or is_racy(st, now)
        watched = sorted(map(os.fspath, folder.glob("*.yaml"))) if kind == "formats" else [f"{name}/set.yaml"]
        for path in watched:
            try:
                fst = os.stat(path)
            except OSError:
                parts.append(f"{path}\0missing\n")
                continue
            parts.append(f"{path}\0{file_stamp(fst)}\n")
            racy = racy or is_racy(fst, now)
    for p in sorted(schema_dir().glob("*.json")):
        parts.append(f"{p.name}\0{file_stamp(p.stat())}\n")
    return sha1_hex("".join(parts).encode()) + (f":racy-{now}" if racy else "")


def check_db_path(db: Path) -> None:
    """Refuse an index path cardlab must not write: a folder, a device or other special file, or
    an existing file that is not a cardlab index (it would be replaced).

    Raises:
        InputError: with the reason.
    """

    if not str(db).strip():
        raise InputError("the index path is empty")
    if db.is_dir():
        raise InputError(f"{db}: is a folder; give the index a file name, e.g. {db / 'cardlab.sqlite'}")
    if db.exists() or db.is_symlink():
        if not db.is_file():
            raise InputError(f"{db}: not a regular file; cardlab will not write its index there")
        if is_own_cache_file(db):
            return  # cardlab's own index file: a truncated or corrupt one is rebuilt
        with open(db, "rb") as fh:
            head = fh.read(16)
        if head and (head != SQLITE_MAGIC or stored_fingerprint(db) is None):
            raise InputError(f"{db}: exists and is not a cardlab index; cardlab will not replace it")
    elif not db.parent.is_dir():
        if db.parent == cache_dir():
            raise InputError(
                f"{db.parent}: cardlab's cache folder cannot be created (is a file in the way, or the disk"
                " read-only?); set CARDLAB_CACHE_DIR, or give the index a file with --db"
            )
        raise InputError(f"{db.parent}: folder not found (for the index {db.name})")


_TEMP = re.compile(r"\.tmp-(\d+)(?:-journal|-wal|-shm)?")


def _clean_stale_temp(db: Path) -> None:
    """Remove temporary index files left by builds that were killed (their process is gone): the
    ``.<name>.tmp-<pid>`` files and their ``-journal``, ``-wal`` and ``-shm`` companions."""
    prefix = f".{db.name}"
    for tmp in db.parent.glob(f".{glob.escape(db.name)}.tmp-*"):
        m = _TEMP.fullmatch(tmp.name[len(prefix) :])
        if m and not process_alive(int(m.group(1))):
            tmp.unlink(missing_ok=True)


def is_own_cache_file(db: Path | str) -> bool:
    """True for an index file cardlab names itself (``index-<hash>.sqlite`` in its cache folder):
    such a file may be replaced when it is damaged; a file elsewhere (or a database URL) never is."""

    if is_server(db):
        return False
    db = Path(db)
    try:
        return (
            re.fullmatch(r"index-[0-9a-f]{12}\.sqlite", db.name) is not None
            and not db.is_symlink()
            and db.parent.resolve() == cache_dir().resolve()
        )
    except OSError:
        return False


def _write_meta(db: Path, values: dict[str, str], drop: tuple[str, ...] = ()) -> None:
    """Set ``values`` and delete the keys ``drop`` in the index's ``meta`` table, in one transaction;
    best effort (a read-only or busy index is left as it is: it is only checked more slowly)."""
    try:
        con = sqlite3.connect(db, timeout=0.2)
        try:
            with con:
                con.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))
                con.executemany("DELETE FROM meta WHERE key = ?", [(k,) for k in drop])
        finally:
            con.close()
    except sqlite3.Error:
        pass


def _note_quick(db: Path, quick: str) -> None:
    """Record ``quick`` as the index's folder fingerprint (the files were checked and are the same);
    best effort: a read-only index just keeps checking every file."""
    if ":racy-" not in quick:
        _write_meta(db, {"quick": quick})


def mark_stale(db: Path | str) -> None:
    """Make the next search check every file of the catalog (not only its folders) against the
    index at ``db``: ``cardlab validate`` calls it when it saw a changed file. Best effort."""
    if not is_server(db) and stored_meta(db) is not None:
        _write_meta(Path(db), {}, drop=("quick",))


def ensure_index(roots: list[Path], db: Path | str, full: bool = False) -> BuildReport | None:
    """Make sure the index at ``db`` reflects the catalog under ``roots``.

    ``db`` is a file (a PostgreSQL URL goes through :func:`cardlab.index.access.ensure_index`).

    A catalog of up to :data:`FULL_CHECK_FILES` files is checked file by file (:func:`fingerprint`);
    a larger one folder by folder (:func:`quick_fingerprint`), unless ``full`` (``cardlab index``)
    or the folders changed, or ``cardlab validate`` saw a changed file (:func:`mark_stale`); then
    every file is checked, and the index is rebuilt only if a file changed.

    Returns:
        The :class:`BuildReport` when it (re)built the index, None when it was already fresh.

    Raises:
        CatalogError: the catalog has problems (the index in use is left as it was).
    """
    db = Path(db)
    meta = stored_meta(db)
    quick = None
    if meta is not None and not full and int(meta.get("files", "0")) > FULL_CHECK_FILES:
        quick = quick_fingerprint(roots)
        if meta.get("quick") == quick:
            return _fresh(meta)
    racy: list[str] = []
    fp, files = _fingerprint_and_count(roots, racy)
    if meta is not None and meta["fingerprint"] == fp:
        if files > FULL_CHECK_FILES:
            _note_quick(db, quick or quick_fingerprint(roots))
        return _fresh(meta)
    if meta is not None and _settled(db, meta, fp, quick or (quick_fingerprint(roots) if files > FULL_CHECK_FILES else None)):
        return _fresh(meta)
    return build_index(roots, db, fp, racy)


def _fresh(meta: dict[str, str]) -> BuildReport | None:
    """None for an index that reflects its catalog; when it was built without the files that have
    problems (:func:`build_index` ``partial``), those problems again, as the CatalogError callers
    warn with (issue 33: one bad file must not stop the commands that do not need it)."""
    try:
        shown = json.loads(meta.get("problems", "[]"))
        problems = [Problem(SourcePos(Path(p), line, col), message, rule) for p, line, col, message, rule in shown]
    except (ValueError, TypeError):
        problems = []
    if problems:
        raise CatalogError(problems)
    return None


FTS_DDL = [
    # contentless (the text is not stored twice): a match gives the card's rowid
    "CREATE VIRTUAL TABLE card_fts USING fts5(names, body, content = '', columnsize = 0, tokenize = \"unicode61 remove_diacritics 2\")",
    # substrings of Japanese, Chinese and Korean text (no spaces between words): only the lines that
    # hold such characters, with their text (a LIKE on a trigram table reads it)
    "CREATE VIRTUAL TABLE card_tri USING fts5(names, body, columnsize = 0, tokenize = 'trigram')",
    # rules-text words stemmed by their text's language, each as <lang>_<stem> (en_paralyz)
    "CREATE VIRTUAL TABLE card_stem USING fts5(stems, content = '', columnsize = 0, tokenize = \"unicode61 tokenchars '_'\")",
]
"""Full-text tables, keyed by ``card.rowid``. Every text in them is folded (:func:`cardlab.core.text.fold`)
as queries are."""


def _common_facets(card: dict, set_data: dict, aliases: list[str]) -> list[tuple[str, str | None, float | None]]:
    rows: list[tuple[str, str | None, float | None]] = []
    number = card["number"]
    num = number_int(number)
    rows.append(("number", fold(number), float(num) if num is not None else None))
    if card.get("rarity"):
        rows.append(("rarity", card["rarity"], None))
    if card.get("illustrator"):
        rows.append(("artist", fold(card["illustrator"]), None))
    return rows


def _cjk_lines(text: str) -> str:
    """The lines of ``text`` holding Japanese, Chinese or Korean characters (:func:`cardlab.core.text.has_cjk`): all the
    trigram table needs, since a substring search is made trigram only when it holds one."""
    return "\n".join(line for line in text.split("\n") if has_cjk(line))


def _texts(card: dict) -> tuple[str, str, str]:
    """Return a card's folded names, folded rules text (every language) and stemmed rules-text words
    (``<lang>_<stem>``, :func:`cardlab.core.text.stem_words`) for the full-text tables."""

    names: list[str] = []
    body: list[str] = []
    stems: list[str] = []
    for path, loc in localized_fields(card):
        for lang, value in loc.items():
            if lang == "_source":
                continue
            if path == "name":
                names.append(fold(value))
            else:
                body.append(fold(value))
                base = lang.split("-")[0].lower()
                stems.extend(f"{base}_{w}" for w in stem_words(value, lang))
            stems.append("\n")
    return "\n".join(names), "\n".join(body), " ".join(stems)


def search_order(cat: Catalog, card_id: str) -> tuple:
    """The sort key of the index's row order (``card.rowid``), which is the default order of a
    search (``cardlab search --sort number``): sets by release date (sets without one last), then
    set code, then the collector number's digits as a number (numbers without digits first), then the
    number as written; text compared by code point, as SQLite's BINARY collation does. The search
    engine orders by rowid instead of sorting on these five values."""
    info = cat.set_of(card_id)
    date = info.data.get("release_date")
    number = str(cat.cards[card_id].get("number", ""))
    num = number_int(number)
    return (date is None, "" if date is None else str(date), info.code, num is not None, num or 0, number)


def _rarity_rank(rarity: object, set_data: dict) -> int | None:
    """The place of ``rarity`` in the set's ``rarities`` list (commonest first), folded; None if absent."""
    order = [norm_value(r) for r in set_data.get("rarities") or [] if isinstance(r, str)]
    if not isinstance(rarity, str) or norm_value(rarity) not in order:
        return None
    return order.index(norm_value(rarity))


def _card_path(cat: Catalog, card_id: str, info: SetInfo) -> str:
    """The path the index stores for a card: its file name in its set's folder; the whole path for
    a card of a personal folder layered over the set (:func:`cardlab.catalog.model.layered_dirs`),
    which the readers' ``set folder / path`` then gives back unchanged."""
    path = cat.paths[card_id]
    return path.name if path.parent == info.path.parent else str(path)


def _rarity(card: dict, set_data: dict, game: Game) -> tuple[str | None, int | None]:
    """A card's rarity text and rank: the common field, else its game's own (Ippo's stars)."""
    own = None if card.get("rarity") else game.rarity(card)
    return own if own is not None else (card.get("rarity"), _rarity_rank(card.get("rarity"), set_data))


def build_index(roots: list[Path], db: Path, fp: str | None = None, racy: list[str] | None = None, partial: bool = False) -> BuildReport:
    """Validate the catalog under ``roots`` and build a fresh index at ``db`` (atomic rename).

    With ``partial``, a catalog with problems is indexed without the files that have them (the
    validated catalog holds none of their cards), and the problems are kept in the index's meta:
    each later use of the index warns with them (:func:`ensure_index`) until they are fixed.

    Raises:
        CatalogError: the catalog has problems; nothing is written and ``db`` is unchanged.
        IndexWriteError: the index folder cannot be written (read-only, disk full); ``db`` is unchanged.
    """
    from cardlab.catalog.validate import validate  # lazy: jsonschema-rs and PyYAML, only to build

    start = time.perf_counter()
    check_db_path(db)
    quick = quick_fingerprint(roots)
    if fp is None:
        racy = []
        fp, _count = _fingerprint_and_count(roots, racy)
    # files written within the file system's time tick: their bytes now, so that the next command
    # can see they did not change since (instead of building everything again)
    recent = _contents(sorted(racy or [])) if ":racy-" in fp else {}
    result = validate(roots, full=False)  # cards as summaries: the whole cards are read batch by batch
    if result.problems and not partial:
        raise CatalogError(result.problems)
    problems = json.dumps([(str(p.pos.path), p.pos.line, p.pos.col, p.message, p.rule) for p in result.problems], ensure_ascii=False)
    files, n_cards, n_sets = result.files, len(result.catalog.cards), len(result.catalog.sets)
    tmp = db.with_name(f".{db.name}.tmp-{os.getpid()}")
    try:
        _clean_stale_temp(db)
        tmp.unlink(missing_ok=True)
        try:
            with bulk_objects():
                cat = result.catalog
                load = _cards_loader(cat)
                order = sorted(cat.cards, key=lambda card_id: search_order(cat, card_id))
                # the summaries are let go of: the writer needs ids, paths and sets, and reads whole cards
                cat.cards = dict.fromkeys(cat.cards, {})
                del result
                _write(cat, tmp, fp, quick, files, load, recent, order)
            if partial and problems != "[]":
                _write_meta(tmp, {"problems": problems})
            os.replace(tmp, db)
        finally:
            tmp.unlink(missing_ok=True)
            db.with_name(tmp.name + "-journal").unlink(missing_ok=True)
    except (OSError, sqlite3.Error) as err:
        raise IndexWriteError(db, err) from None
    return BuildReport(db=db, cards=n_cards, sets=n_sets, seconds=time.perf_counter() - start)


def _cards_loader(cat: Catalog) -> Callable[[list[str]], dict[str, dict]]:
    """Return ``load(ids) -> {id: whole card}`` for a catalog validated with ``full=False`` (cards as
    summaries): each card as the validation cache holds it (the file read again when the cache
    lacks it), a reprint merged with its original (the originals of reprints are kept in memory)."""
    from cardlab.catalog.filecheck import cached_data, check_file  # lazy: jsonschema-rs and PyYAML, only to build

    def whole(ids: list[str]) -> dict[str, dict]:
        paths = {i: str(cat.paths[i]) for i in ids}
        found = cached_data(cat.roots, list(paths.values()))
        out: dict[str, dict] = {}
        for i in ids:
            data = found.get(paths[i])
            if not isinstance(data, dict):
                info = cat.set_of(i)
                data = check_file(cat.paths[i], "card", info.game, info.source_language)[0]
            out[i] = data
        return out

    originals = whole(sorted({cat.own[i]["reprint_of"] for i in cat.own}))

    def load(ids: list[str]) -> dict[str, dict]:
        cards = whole(ids)
        for i in ids:
            if i in cat.own:
                cards[i] = merge_reprint(cards[i], originals[cards[i]["reprint_of"]])
        return cards

    return load


WRITE_BATCH = 2000
"""Cards read, turned into rows and written together by :func:`_write`."""


def _write(
    cat: Catalog,
    path: Path,
    fp: str,
    quick: str = "",
    files: int = 0,
    load: Callable[[list[str]], dict[str, dict]] | None = None,
    recent: dict[str, str] | None = None,
    order: list[str] | None = None,
) -> None:
    """Write the index of ``cat`` to ``path`` in two passes over its cards, :data:`WRITE_BATCH` at a
    time: the first gathers the names for ``evolves:`` and the compression dictionary, the second
    writes the rows; then SQLite finds each card's oracle card (:meth:`Catalog.oracle_of`'s rule:
    per game and play key, the first printing), so that no per-card table is held in memory.

    Args:
        cat: the catalog (its cards may be summaries when ``load`` is given).
        load: card ids -> their whole cards (a reprint merged with its original); default: ``cat.cards``.
            :func:`build_index` reads them from the validation cache, so that only a batch of whole
            cards is held at a time.
        order: every card id in the order of the rows (``card.rowid``), which is the search order
            (:func:`search_order`); default: computed from ``cat.cards`` (which then must hold each
            card's number).
    """
    import hashlib  # lazy: hashlib (16 ms cold), only for a build

    from sqlalchemy import create_engine  # lazy: SQLAlchemy's dialects and pools, only for the engine that needs them

    from cardlab.index import tables  # lazy: SQLModel (1.7 s cold), only to build; importing it registers the tables

    if load is None:
        load = lambda batch: {i: cat.cards[i] for i in batch}  # noqa: E731
    ids = order if order is not None else sorted(cat.cards, key=lambda card_id: search_order(cat, card_id))
    pos = {card_id: n for n, card_id in enumerate(cat.cards)}
    batches = [ids[i : i + WRITE_BATCH] for i in range(0, len(ids), WRITE_BATCH)]

    # pass 1: the names for evolves: (of the cards with several) and the compression dictionary
    same: dict[str, set[str]] = {}
    samples: list[bytes] = []
    step = max(1, len(ids) // 100)
    position = 0
    for batch in batches:
        progress.step("reading cards", position, len(ids))
        forget()  # the names of the batch before are not asked for again: memory stays bounded
        cards = load(batch)
        for card_id in batch:
            card = cards[card_id]
            spelled = {norm_value(n) for k, n in (card.get("name") or {}).items() if k != "_source" and isinstance(n, str)}
            if len(spelled) > 1:  # a card of one name adds no other name to anyone's
                for n in spelled:
                    same.setdefault(n, set()).update(spelled)
            if position % step == 0:
                samples.append(_card_json(card))
            position += 1
    zdict = b"".join(samples)[-DICTIONARY_BYTES:]

    engine = create_engine(f"sqlite:///{path}")
    tables.SQLModel.metadata.create_all(engine)
    engine.dispose()
    con = sqlite3.connect(path)
    # a private temporary file, renamed into place only when complete: no journal needed
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("PRAGMA synchronous = OFF")
    try:
        for ddl in FTS_DDL:
            con.execute(ddl)
        set_rows = []
        for info in cat.sets.values():
            d = info.data
            set_rows.append(
                (
                    info.code,
                    info.game,
                    json.dumps(d.get("name"), ensure_ascii=False),
                    info.source_language,
                    info.printed_total,
                    d.get("release_date"),
                    json.dumps(info.aliases),
                    json.dumps(d, ensure_ascii=False, default=str),
                    str(info.path),
                )
            )
        con.executemany(
            "INSERT INTO card_set (code, game, name, source_language, printed_total, release_date, aliases, data, path, cards)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            set_rows,
        )
        # set:CODE, an alias, a tool's code, or the set's name in any language (set:"Base Set 2", set:fossile)
        keys = {(norm_value(fold(name)), info.code) for info in cat.sets.values() for name in info.lookup_names}
        keys |= {
            (norm_value(fold(name)), info.code)
            for info in cat.sets.values()
            for name in (info.data.get("name") or {}).values()
            if isinstance(name, str)
        }
        con.executemany("INSERT OR IGNORE INTO set_key VALUES (?, ?)", sorted(keys))

        # pass 2: the rows, batch by batch
        con.execute(
            "CREATE TEMP TABLE play (card INTEGER PRIMARY KEY, key BLOB, reprint INT, date TEXT, code TEXT, num INT, number TEXT, pos INT)"
        )
        stem_langs: set[str] = set()
        rowid = 0
        for batch in batches:
            progress.step("indexing cards", rowid, len(ids))
            forget()
            cards = load(batch)
            rows: list = []
            plays: list = []
            names: list = []
            printed: list = []
            facets: list = []
            fts: list = []
            tri: list = []
            stems: list = []
            for card_id in batch:
                card = cards[card_id]
                rowid += 1
                info = cat.set_of(card_id)
                game = games.get(info.game)
                src = info.source_language
                num = number_int(card["number"])
                rows.append(
                    (
                        rowid,
                        card_id,
                        info.game,
                        info.code,
                        card["number"],
                        num,
                        pos[card_id],
                        pick(card["name"], (), src),
                        game.type_line(card, ()),
                        game.key_stats(card),
                        *_rarity(card, info.data, game),
                        card.get("illustrator"),
                        _compress(_card_json(card), zdict),
                        _card_path(cat, card_id, info),  # in its set's folder (card_set.path): the folder once per set
                        card_id,  # the oracle card, found below
                        card.get("reprint_of") if card_id in cat.own else None,
                    )
                )
                number = str(card.get("number", ""))
                plays.append(
                    (
                        rowid,
                        hashlib.sha1(f"{info.game}\0{play_key(card)}".encode()).digest(),
                        card_id in cat.own,
                        str(info.data.get("release_date", "")),
                        info.code,
                        num or 0,
                        number,
                        pos[card_id],
                    )
                )
                for lang, name in card["name"].items():
                    if lang != "_source":
                        names.append((card_id, lang, name, fold(name), compact(name)))
                for lang, name in (card.get("printed_name") or {}).items():
                    if lang != "_source" and isinstance(name, str):
                        printed.append((card_id, fold(name), compact(name)))
                for name in card.get("also_known_as") or ():  # the community's name: Birthday Pikachu
                    if isinstance(name, str):
                        printed.append((card_id, fold(name), compact(name)))
                for f, t, value in _common_facets(card, info.data, info.aliases) + list(game.facets(card)):
                    text = norm_value(t) if t is not None else None
                    facets.append((rowid, f, text, value))
                    if f == "evolves" and text is not None:
                        # the other names of the Pokémon of that name: evolves: in any language (salameche)
                        facets.extend((rowid, "evolves", other, None) for other in sorted(same.get(text, ())) if other != text)
                folded_names, body, stemmed = _texts(card)
                fts.append((rowid, folded_names, body))
                if has_cjk(folded_names) or has_cjk(body):
                    tri.append((rowid, _cjk_lines(folded_names), _cjk_lines(body)))
                stems.append((rowid, stemmed))
                stem_langs.update(w.split("_", 1)[0] for w in stemmed.split() if "_" in w)
            con.executemany(
                "INSERT INTO card (rowid, id, game, set_code, number, number_int, pos, name, type_line,"
                " stats, rarity, rarity_rank, illustrator, data, path, oracle_id, reprint_of) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            con.executemany("INSERT INTO card_name (card_id, lang, name, folded, compact) VALUES (?, ?, ?, ?, ?)", names)
            con.executemany("INSERT INTO printed_name (card_id, folded, compact) VALUES (?, ?, ?)", printed)
            # each facet table is its own index (no row ids): duplicates once
            con.executemany(
                "INSERT OR IGNORE INTO facet_text (field, text, card) VALUES (?, ?, ?)",
                sorted({(f, t, r) for r, f, t, _n in facets if t is not None}),
            )
            con.executemany(
                "INSERT OR IGNORE INTO facet_num (field, num, card) VALUES (?, ?, ?)",
                sorted({(f, n, r) for r, f, _t, n in facets if n is not None}),
            )
            con.executemany("INSERT INTO card_fts (rowid, names, body) VALUES (?, ?, ?)", fts)
            con.executemany("INSERT INTO card_tri (rowid, names, body) VALUES (?, ?, ?)", tri)
            con.executemany("INSERT INTO card_stem (rowid, stems) VALUES (?, ?)", stems)
            con.executemany("INSERT INTO temp.play VALUES (?, ?, ?, ?, ?, ?, ?, ?)", plays)
        progress.step("indexing cards", rowid, len(ids))
        con.execute("UPDATE card_set SET cards = (SELECT count(*) FROM card WHERE card.set_code = card_set.code)")
        # the oracle card of each card: of the cards of its game with the same play key, the first
        # printing (originals, then release date, set code, number), the first in catalog order on a tie
        con.execute(
            "CREATE TEMP TABLE first AS SELECT key, card FROM (SELECT key, card, ROW_NUMBER() OVER"
            " (PARTITION BY key ORDER BY reprint, date, code, num, number, pos) AS n FROM temp.play) WHERE n = 1"
        )
        con.execute("CREATE INDEX temp.ix_first ON first (key)")
        con.execute(
            "UPDATE card SET oracle_id = (SELECT c.id FROM temp.play p JOIN temp.first f ON f.key = p.key"
            " JOIN card c ON c.rowid = f.card WHERE p.card = card.rowid)"
        )
        con.execute("DROP TABLE temp.first")
        con.execute("DROP TABLE temp.play")
        # a printing takes the names of the card it prints in the languages it has none in (the Gym
        # Heroes Fire Energy is « Énergie Feu » as base1-98 is): the same card, the same names
        con.execute(
            "INSERT INTO card_name (card_id, lang, name, folded, compact)"
            " SELECT c.id, n.lang, n.name, n.folded, n.compact FROM card c JOIN card_name n ON n.card_id = c.oracle_id"
            " WHERE c.id != c.oracle_id AND NOT EXISTS (SELECT 1 FROM card_name m WHERE m.card_id = c.id AND m.lang = n.lang)"
            " ORDER BY c.rowid, n.rowid"
        )
        con.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("fingerprint", fp),
                ("zdict", zdict.hex()),
                *([("racy_files", json.dumps(recent))] if recent else []),
                *([("quick", quick)] if quick and ":racy-" not in quick and ":racy-" not in fp else []),
                ("files", str(files)),
                ("version", INDEX_VERSION),
                ("stem_languages", json.dumps(sorted(stem_langs))),
                ("roots", json.dumps([str(r) for r in cat.roots])),
            ],
        )
        con.commit()
    finally:
        con.close()


def _card_json(card: dict) -> bytes:
    """A card as the index stores it before compression: compact JSON, UTF-8."""
    return json.dumps(card, ensure_ascii=False, default=str, separators=(",", ":")).encode()


def open_fresh(
    roots: list[Path], db: Path | str, threads: bool = False
) -> tuple[sqlite3.Connection, BuildReport | None, CardlabError | None]:
    """The index policy: return a connection to an index of the catalog, rebuilt when it changed
    (``threads``: one any thread may use, as :func:`connect`).

    When the rebuild fails because the catalog has problems or the index cannot be written
    (read-only folder, full disk) and an older index of the same catalog roots exists, that one is
    used and the failure comes back as the third value, for a warning. When the catalog has
    problems and there is no older index, the files without problems are indexed (``partial``
    :func:`build_index`) and the problems come back the same way: one bad card file never stops a
    search for the others (issue 33).

    Returns:
        ``(connection, build report or None, the error to warn about or None)``.

    Raises:
        IndexWriteError: the index cannot be written and there is no older one.

    ``db`` is a file (a PostgreSQL URL goes through :func:`cardlab.index.access.open_fresh`).
    """
    db = Path(db)
    try:
        report = ensure_index(roots, db)
        return connect(db, threads), report, None
    except (CatalogError, IndexWriteError) as err:
        meta = stored_meta(db)
        if meta is None or not built_from(meta, roots):
            if not isinstance(err, CatalogError):
                raise  # no older index of this catalog (an index of another catalog is no answer)
            # no older index: the cards of the files without problems, the problems as a warning
            report = build_index(roots, db, partial=True)
            return connect(db, threads), report, err
        return connect(db, threads), None, err


def built_from(meta: dict[str, str], roots: list[Path]) -> bool:
    """True when the index's recorded catalog roots are ``roots`` (compared as resolved paths)."""

    def resolved(paths: list) -> set[str]:
        out = set()
        for p in paths:
            try:
                out.add(str(Path(p).resolve()))
            except (OSError, RuntimeError):
                out.add(str(p))
        return out

    recorded = recorded_roots(meta)
    return recorded is not None and resolved(recorded) == resolved(list(roots))


def recorded_roots(meta: dict[str, str]) -> list | None:
    """The catalog roots an index was built from (its ``meta`` ``roots``, a JSON list of folder
    paths as text), or None when they are missing or not such a list."""
    try:
        recorded = json.loads(meta.get("roots", "[]"))
    except ValueError:
        return None
    return recorded if isinstance(recorded, list) else None


def repair(roots: list[Path], db: Path, err: sqlite3.DatabaseError) -> sqlite3.Connection:
    """Answer an index found damaged while it was read (``database disk image is malformed``):
    cardlab's own index file is built again and reopened; another file is reported, not replaced.

    Raises:
        InputError: ``db`` is not in cardlab's cache folder (exit 2), with what to do.
        CatalogError, IndexWriteError: as :func:`open_fresh`, for the rebuild.
    """

    if not is_own_cache_file(db):
        raise InputError(f"{db}: the index is damaged ({err}); delete it or run 'cardlab index --force' with the same --db")
    db.unlink(missing_ok=True)
    return open_fresh(roots, db)[0]


def connect(db: Path | str, threads: bool = False) -> sqlite3.Connection:
    """Open the index file read-only (a PostgreSQL URL: :func:`cardlab.index.access.connect`);
    ``threads``: without sqlite3's same-thread check, for a connection whose users take turns
    (:class:`cardlab.index.stored.StoredCatalog`'s lock). Raises sqlite3.Error when it cannot be opened."""
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=not threads)
