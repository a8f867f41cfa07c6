"""Whether anything changed: the catalog's folders, a digest of every file's stamp, the key and
the record of the last whole validation, and the fingerprint recorded in the search index.

Standard library only (no YAML, schema or CLI code): ``cardlab validate`` of a catalog that
validated clean and has not changed since answers from this module alone (:mod:`cardlab.cli.entry`).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from cardlab.core.stamps import file_stamp, is_racy

INDEX_VERSION = "15"
"""The search index's layout (:mod:`cardlab.catalog.index`): bump when its tables or contents
change, and old indexes are rebuilt."""

FINGERPRINT_SALT = f"v{INDEX_VERSION}"
"""What the index's fingerprint of the catalog (:func:`cardlab.catalog.index.fingerprint`) hashes
first: an index of another version never matches."""


def folders(roots: Iterable[Path]) -> Iterator[tuple[str, Path, str]]:
    """Yield the catalog's folders as ``(kind, folder, game)``: kind ``set`` for a set folder,
    ``formats`` for a formats folder; each folder once, however the roots overlap.

    A root is a catalog root (``<game>/<set>/`` below it), a game folder (set folders below it) or
    a set folder (it holds YAML files itself); which one is seen from where the YAML files are.

    Raises:
        InputError: a root does not exist or is not a folder, or a folder of the catalog cannot be
            listed (no permission).
    """
    seen: set[Path] = set()
    for root in roots:
        root = Path(root)
        if not _is_dir(root):
            from cardlab.core.errors import InputError

            raise InputError(f"{root}: catalog folder not found" if not root.exists() else f"{root}: not a folder")
        if yaml_names(root):
            set_dirs = [root]
        elif any(yaml_names(d) for d in subdirs(root) if d.name != "formats"):
            set_dirs = [d for d in subdirs(root) if d.name != "formats"]
        else:
            set_dirs = [d for g in subdirs(root) for d in subdirs(g) if d.name != "formats"]
        for set_dir in set_dirs:
            if set_dir not in seen:  # overlapping roots
                seen.add(set_dir)
                yield "set", set_dir, set_dir.parent.name
        for fmt_dir in [root / "formats", *(g / "formats" for g in subdirs(root))]:
            if _is_dir(fmt_dir) and fmt_dir not in seen:
                seen.add(fmt_dir)
                yield "formats", fmt_dir, fmt_dir.parent.name


def yaml_names(folder: Path) -> list[str]:
    """The names of the ``.yaml`` files directly in ``folder``, sorted (a broken link or a link
    loop counts: validation reports it; hidden files do not); empty when the folder does not exist.

    Raises:
        InputError: the folder cannot be listed (no permission)."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries if e.name.endswith(".yaml") and not e.name.startswith(".") and not _entry_is_dir(e))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as err:
        raise _unreadable(folder, err) from None


def subdirs(path: Path) -> list[Path]:
    """The folders directly in ``path`` whose names start with neither ``.`` nor ``_``, sorted by
    name (a link that loops is not one); empty when ``path`` does not exist.

    Raises:
        InputError: ``path`` cannot be listed (no permission)."""
    try:
        with os.scandir(path) as entries:
            found = sorted(e.path for e in entries if not e.name.startswith((".", "_")) and _entry_is_dir(e))
        return [Path(p) for p in found]  # sorted as text: the same order, without Path comparisons
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as err:
        raise _unreadable(path, err) from None


def _entry_is_dir(entry: os.DirEntry) -> bool:
    """``entry.is_dir()``, False for a link that loops or cannot be followed (as a file, validation
    reports it; the rest of its folder is still listed)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    """``path.is_dir()``; a folder that cannot be searched (no permission) is an error, not "no".

    Raises:
        InputError: the path cannot be checked."""
    try:
        return path.is_dir()
    except OSError as err:
        raise _unreadable(path.parent, err) from None


def _unreadable(folder: Path, err: OSError) -> Exception:
    """The error for a catalog folder that cannot be listed: exit 2, nothing checked half-way."""
    from cardlab.core.errors import InputError

    return InputError(f"{folder}: cannot read this catalog folder: {err.strerror or err}")


def stamp_digest(roots: Iterable[Path], salt: str, racy_files: list[str] | None = None) -> tuple[str, int]:
    """:func:`stamp_digests` for one salt: ``(digest, number of catalog files)``."""
    digests, count = stamp_digests(roots, [salt], racy_files)
    return digests[0], count


def stamp_digests(roots: Iterable[Path], salts: list[str], racy_files: list[str] | None = None) -> tuple[list[str], int]:
    """Return, for each of ``salts``, a hash of it, every catalog file's path and stamp
    (:func:`cardlab.core.stamps.file_stamp`: size, modification and change times, inode) and the
    schemas' stamps (one pass: one ``stat`` per file, no reading), and how many catalog files there are.

    A file changed within the file system's time tick of now could change again unseen: the hash
    then ends with ``:racy-<now>`` and never equals a later one; such files' paths are added to
    ``racy_files`` when it is given.

    Raises:
        InputError: a root does not exist or is not a folder, or a folder cannot be listed.
    """
    from cardlab.core.paths import schema_dir

    now = time.time_ns()
    racy = False
    count = 0
    hashes = [hashlib.sha1(salt.encode()) for salt in salts]
    for _kind, folder, _game in folders(roots):
        try:
            with os.scandir(folder) as listing:
                entries = {e.name: e for e in listing if e.name.endswith(".yaml")}
        except (FileNotFoundError, NotADirectoryError):  # gone since it was listed
            continue
        except OSError as err:
            raise _unreadable(folder, err) from None
        count += len(entries)
        lines = []
        prefix = f"{folder}/"
        for name in sorted(entries):
            try:
                st = entries[name].stat()
            except OSError:  # a broken link: validation reports it
                lines.append(f"{prefix}{name}\0missing\n")
                continue
            lines.append(f"{prefix}{name}\0{file_stamp(st)}\n")
            if is_racy(st, now):
                racy = True
                if racy_files is not None:
                    racy_files.append(f"{prefix}{name}")
        block = "".join(lines).encode()  # one update per folder: the same bytes as one per file
        for h in hashes:
            h.update(block)
    for p in sorted(schema_dir().glob("*.json")):
        line = f"{p.name}\0{file_stamp(p.stat())}\n".encode()
        for h in hashes:
            h.update(line)
    return [h.hexdigest() + (f":racy-{now}" if racy else "") for h in hashes], count


def run_key(roots: list[Path], index_salt: str = "") -> tuple[str | None, str | None]:
    """The key of a whole validation's outcome: a hash of every catalog file's stamp, the schemas
    and the checking code's files (``cardlab/catalog``, ``games``, ``core``), None when a file
    changed too recently for its stamp to be trusted; and, from the same ``stat`` of each file, the
    search index's fingerprint of the catalog when ``index_salt`` is given
    (:data:`FINGERPRINT_SALT`), else None.

    Raises:
        InputError: a root does not exist or is not a folder.
    """
    package = Path(__file__).resolve().parents[1]
    code = [
        f"{sub}/{name}:{file_stamp(os.stat(package / sub / name))}"
        for sub in ("catalog", "games", "core")
        for name in sorted(n for n in os.listdir(package / sub) if n.endswith(".py"))
    ]
    digests, _count = stamp_digests(roots, ["validate\0" + "\0".join(code), *([index_salt] if index_salt else [])])
    return (None if ":racy-" in digests[0] else digests[0]), (digests[1] if index_salt else None)


def catalog_key(roots: Iterable[Path]) -> str:
    """The roots key (:func:`cardlab.core.paths.roots_key`) of ``roots`` made absolute, so a
    relative and an absolute spelling of the same catalog share a cache file."""
    from cardlab.core.paths import roots_key

    resolved = []
    for r in roots:
        try:
            resolved.append(Path(r).resolve())
        except (OSError, RuntimeError):  # a symlink loop: keep the spelling given
            resolved.append(Path(r))
    return roots_key(resolved)


def validation_cache(roots: Iterable[Path] = ()) -> Path | None:
    """The validation cache file of the catalog under ``roots``:
    ``<cache dir>/validate-<roots key>.sqlite``; None when ``CARDLAB_NO_CACHE`` is set."""
    if os.environ.get("CARDLAB_NO_CACHE"):
        return None
    from cardlab.core.paths import cache_dir

    return cache_dir() / f"validate-{catalog_key(roots)}.sqlite"


def _read_only(path: Path) -> sqlite3.Connection:
    """Open the SQLite file at ``path`` read-only (never created).

    Raises:
        sqlite3.Error: it cannot be opened."""
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def cached_run(roots: Iterable[Path], key: str) -> tuple[int, list] | None:
    """The outcome of the last whole validation of the catalog under ``roots`` when it was made
    with ``key`` (:func:`run_key`), from its validation cache (:func:`validation_cache`, written by
    :func:`cardlab.catalog.filecheck.store_run`): ``(files checked, problems)``, the problems as
    :class:`~cardlab.core.errors.Problem`; None when there is none for that key (or no readable cache)."""
    path = validation_cache(list(roots))
    if path is None or not path.is_file():
        return None
    try:
        db = _read_only(path)
        try:
            row = db.execute("SELECT files, problems FROM runs WHERE id = 1 AND key = ?", (key,)).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    if row[1] == "[]":  # no problem (json not needed)
        return row[0], []
    import json

    from cardlab.core.errors import Problem, SourcePos

    try:
        shown = json.loads(row[1])
        return row[0], [Problem(SourcePos(Path(p), ln, col), msg, rule) for p, ln, col, msg, rule in shown]
    except (ValueError, TypeError):
        return None


SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def whole_sqlite_file(db: Path) -> bool:
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


def stored_meta(db: Path | str) -> dict[str, str] | None:
    """Return the facts recorded in the search index file at ``db`` (``fingerprint``, ``quick``,
    ``files``...), or None (missing, truncated or unreadable, or a PostgreSQL URL: see
    :mod:`cardlab.catalog.pgindex`)."""
    from cardlab.core.paths import is_server

    if is_server(db):
        return None
    db = Path(db)
    if not db.is_file() or not whole_sqlite_file(db):
        return None
    try:
        con = _read_only(db)
        try:
            rows = con.execute("SELECT key, value FROM meta").fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    meta = dict(rows)
    return meta if "fingerprint" in meta else None


def stored_fingerprint(db: Path | str) -> str | None:
    """Return the fingerprint recorded in the index at ``db``, or None (missing, truncated or unreadable)."""
    meta = stored_meta(db)
    return meta["fingerprint"] if meta else None


def unchanged_clean_run(roots: list[Path], db: Path | str) -> int | None:
    """How many files the last whole validation of the catalog under ``roots`` checked, when it
    found no problem, nothing it depends on changed since (same :func:`run_key`: every file's stamp,
    the schemas, the checking code) and the search index at ``db`` holds the same catalog, or none,
    or is already marked stale (so ``cardlab validate`` has nothing to tell it); else None (the full
    validation decides).

    Args:
        roots: the catalog roots.
        db: the search index (a file; a server URL gives None).

    Raises:
        InputError: a root does not exist or is not a folder.
    """
    from cardlab.core.paths import is_server

    if is_server(db):
        return None
    key, index_fp = run_key(roots, FINGERPRINT_SALT)
    if key is None:
        return None
    found = cached_run(roots, key)
    if found is None or found[1]:
        return None
    meta = stored_meta(db)
    if meta is not None and meta["fingerprint"] != index_fp and "quick" in meta:
        return None  # the full validation marks that index stale (cardlab.catalog.index.mark_stale)
    return found[0]
