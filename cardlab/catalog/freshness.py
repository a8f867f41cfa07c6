"""Whether anything in the catalog changed: its folders, a digest of every file's stamp (under a
caller's salt: the search index's fingerprint is one such digest), the key and the record of the
last whole validation.

Standard library only (no YAML, schema or CLI code), and neither ``pathlib``, ``sqlite3`` nor
``hashlib`` at import: ``cardlab validate`` of a catalog that validated clean and has not changed
answers from this module alone (:func:`unchanged_clean_run`, called by :mod:`cardlab.cli.entry`),
on paths as text; the functions that return paths or read SQLite import what they need.
"""

from __future__ import annotations

import errno
import os
import stat
import time

from cardlab.core.paths import cache_folder, is_server, roots_key, schema_folder
from cardlab.core.stamps import file_stamp, is_racy, sha1_hex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable, Iterator  # annotations only: the collections package costs 2 ms to load
    from pathlib import Path

    from cardlab.core.errors import Problem  # lazy: the quick `validate` runs without pathlib (78 ms)


def folders(roots: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[str, Path, str]]:
    """Yield the catalog's folders as ``(kind, folder, game)``: kind ``set`` for a set folder,
    ``formats`` for a formats folder; each folder once, however the roots overlap
    (:func:`folder_texts` with each folder as a path).

    Raises:
        InputError: a root does not exist or is not a folder, or a folder of the catalog cannot be
            listed (no permission).
    """
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    for kind, folder, game in folder_texts(roots):
        yield kind, Path(folder), game


def folder_texts(roots: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[str, str, str]]:
    """Yield the catalog's folders as ``(kind, folder as text, game)``: kind ``set`` for a set
    folder, ``formats`` for a formats folder; each folder once, however the roots overlap.

    A root is a catalog root (``<game>/<set>/`` below it), a game folder (set folders below it) or
    a set folder (it holds YAML files itself); which one is seen from where the YAML files are.

    Raises:
        InputError: a root does not exist or is not a folder, or a folder of the catalog cannot be
            listed (no permission).
    """
    seen: set[str] = set()
    for given in roots:
        root = _plain(os.fspath(given))
        if not _is_dir(root):
            from cardlab.core.errors import InputError  # lazy: the quick `validate` runs without pathlib (78 ms)

            raise InputError(f"{root}: catalog folder not found" if not os.path.lexists(root) else f"{root}: not a folder")
        if yaml_names(root):
            set_dirs = [root]
        elif any(yaml_names(d) for d in subdirs(root) if os.path.basename(d) != "formats"):
            set_dirs = [d for d in subdirs(root) if os.path.basename(d) != "formats"]
        else:
            set_dirs = [d for g in subdirs(root) for d in subdirs(g) if os.path.basename(d) != "formats"]
        for set_dir in set_dirs:
            if set_dir not in seen:  # overlapping roots
                seen.add(set_dir)
                yield "set", set_dir, os.path.basename(os.path.dirname(set_dir))
        for fmt_dir in [os.path.join(root, "formats"), *(os.path.join(g, "formats") for g in subdirs(root))]:
            if _is_dir(fmt_dir) and fmt_dir not in seen:
                seen.add(fmt_dir)
                yield "formats", fmt_dir, os.path.basename(os.path.dirname(fmt_dir))


def _plain(path: str) -> str:
    """``path`` as pathlib spells it (no ``.`` parts, no doubled or trailing separator), so a
    folder is named the same however its root was written; ``..`` parts are kept (a link may precede them)."""
    if ".." in path.split(os.sep):
        return path.rstrip(os.sep) or path
    return os.path.normpath(path) if path else "."


def yaml_names(folder: str | os.PathLike[str]) -> list[str]:
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


def subdirs(path: str) -> list[str]:
    """The folders directly in ``path`` whose names start with neither ``.`` nor ``_``, as text,
    sorted (a link that loops is not one); empty when ``path`` does not exist.

    Raises:
        InputError: ``path`` cannot be listed (no permission)."""
    try:
        with os.scandir(path) as entries:
            return sorted(e.path for e in entries if not e.name.startswith((".", "_")) and _entry_is_dir(e))
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


_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)
"""What makes a path simply not a folder (as ``Path.is_dir`` reads them)."""


def _is_dir(path: str) -> bool:
    """Whether ``path`` is a folder (following links); a folder that cannot be searched (no
    permission) is an error, not "no".

    Raises:
        InputError: the path cannot be checked."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError as err:
        if err.errno in _NOT_THERE:
            return False
        raise _unreadable(os.path.dirname(path) or ".", err) from None
    except ValueError:  # a NUL in the name
        return False


def _unreadable(folder: str | os.PathLike[str], err: OSError) -> Exception:
    """The error for a catalog folder that cannot be listed: exit 2, nothing checked half-way."""
    from cardlab.core.errors import InputError  # lazy: the quick `validate` runs without pathlib (78 ms)

    return InputError(f"{folder}: cannot read this catalog folder: {err.strerror or err}")


def stamp_digest(roots: Iterable[str | os.PathLike[str]], salt: str, racy_files: list[str] | None = None) -> tuple[str, int]:
    """:func:`stamp_digests` for one salt: ``(digest, number of catalog files)``."""
    digests, count = stamp_digests(roots, [salt], racy_files)
    return digests[0], count


def stamp_digests(roots: Iterable[str | os.PathLike[str]], salts: list[str], racy_files: list[str] | None = None) -> tuple[list[str], int]:
    """Return, for each of ``salts``, a hash of it, every catalog file's path and stamp
    (:func:`cardlab.core.stamps.file_stamp`: size, modification and change times, inode) and the
    schemas' stamps (one pass: one ``stat`` per file, no reading), and how many catalog files there are.

    A file changed within the file system's time tick of now could change again unseen: the hash
    then ends with ``:racy-<now>`` and never equals a later one; such files' paths are added to
    ``racy_files`` when it is given.

    Raises:
        InputError: a root does not exist or is not a folder, or a folder cannot be listed.
    """

    now = time.time_ns()
    racy = False
    count = 0
    blocks: list[bytes] = []
    for _kind, folder, _game in folder_texts(roots):
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
        blocks.append("".join(lines).encode())
    schemas = schema_folder()
    for name in sorted(n for n in os.listdir(schemas) if n.endswith(".json") and not n.startswith(".")):
        blocks.append(f"{name}\0{file_stamp(os.stat(os.path.join(schemas, name)))}\n".encode())
    data = b"".join(blocks)
    return [sha1_hex(salt.encode(), data) + (f":racy-{now}" if racy else "") for salt in salts], count


_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
"""The ``cardlab`` package folder."""


def run_key(roots: list[str] | list[Path], index_salt: str = "") -> tuple[str | None, str | None]:
    """The key of a whole validation's outcome: a hash of every catalog file's stamp, the schemas
    and the checking code's files (``cardlab/catalog``, ``games``, ``core``), None when a file
    changed too recently for its stamp to be trusted; and, from the same ``stat`` of each file, the
    search index's fingerprint of the catalog when ``index_salt`` (the index's salt) is given, else None.

    Raises:
        InputError: a root does not exist or is not a folder.
    """
    code = [
        f"{sub}/{name}:{file_stamp(os.stat(os.path.join(_PACKAGE, sub, name)))}"
        for sub in ("catalog", "games", "core")
        for name in sorted(n for n in os.listdir(os.path.join(_PACKAGE, sub)) if n.endswith(".py"))
    ]
    digests, _count = stamp_digests(roots, ["validate\0" + "\0".join(code), *([index_salt] if index_salt else [])])
    return (None if ":racy-" in digests[0] else digests[0]), (digests[1] if index_salt else None)


def catalog_key(roots: Iterable[str | os.PathLike[str]]) -> str:
    """The roots key (:func:`cardlab.core.paths.roots_key`) of ``roots`` made absolute (links
    resolved), so a relative and an absolute spelling of the same catalog share a cache file."""

    return roots_key([os.path.realpath(os.fspath(r)) for r in roots])


def _cache_file(roots: Iterable[str | os.PathLike[str]], suffix: str) -> str | None:
    """``<cache dir>/validate-<roots key><suffix>``; None when ``CARDLAB_NO_CACHE`` is set."""
    if os.environ.get("CARDLAB_NO_CACHE"):
        return None

    return os.path.join(cache_folder(), f"validate-{catalog_key(roots)}{suffix}")


def validation_cache(roots: Iterable[str | os.PathLike[str]] = ()) -> Path | None:
    """The validation cache file of the catalog under ``roots``:
    ``<cache dir>/validate-<roots key>.sqlite``; None when ``CARDLAB_NO_CACHE`` is set."""
    path = _cache_file(roots, ".sqlite")
    if path is None:
        return None
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return Path(path)


def _read_only(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open the SQLite file at ``path`` read-only (never created).

    Raises:
        sqlite3.Error: it cannot be opened."""
    import sqlite3  # lazy: the quick `validate` runs without sqlite3 (34 ms cold)
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def cached_run(roots: Iterable[str | os.PathLike[str]], key: str) -> tuple[int, list[Problem]] | None:
    """The outcome of the last whole validation of the catalog under ``roots`` when it was made
    with ``key`` (:func:`run_key`), from its validation cache (:func:`validation_cache`, written by
    :func:`cardlab.catalog.filecheck.store_run`): ``(files checked, problems)``, the problems as
    :class:`~cardlab.core.errors.Problem`; None when there is none for that key (or no readable cache)."""
    import sqlite3  # lazy: the quick `validate` runs without sqlite3 (34 ms cold)

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
    import json  # lazy: the quick `validate` runs without json (28 ms cold)
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    from cardlab.core.errors import Problem, SourcePos  # lazy: the quick `validate` runs without pathlib (78 ms)

    try:
        shown = json.loads(row[1])
        return row[0], [Problem(SourcePos(Path(p), ln, col), msg, rule) for p, ln, col, msg, rule in shown]
    except (ValueError, TypeError):
        return None


def _index_stamp(db: str) -> str | None:
    """The stamp of the index file at ``db`` (:func:`cardlab.core.stamps.file_stamp`), ``-`` when
    there is none; None when it changed too recently for the stamp to be trusted (or cannot be read)."""
    try:
        st = os.stat(db)
    except FileNotFoundError:
        return "-"
    except (OSError, ValueError):
        return None
    return None if is_racy(st) else file_stamp(st)


def record_clean_run(roots: list[str] | list[Path], key: str, files: int, db: str | os.PathLike[str]) -> None:
    """Record that the whole catalog under ``roots`` validated clean with ``key`` (:func:`run_key`),
    ``files`` files, and that the search index at ``db`` was then as the validation left it (the
    same catalog, or marked for a full check): ``<cache dir>/validate-<roots key>.clean``, four
    lines (key, files, index file, index stamp), written to a temporary file and renamed into
    place. Best effort: a cache that cannot be written only makes the next ``cardlab validate`` slower.
    An index on a server, or one changed too recently to be trusted, is not recorded."""

    path = _cache_file(roots, ".clean")
    if path is None or is_server(db):
        return
    db = os.fspath(db)
    stamp = _index_stamp(db)
    if stamp is None or "\n" in db:
        return
    temp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(temp, "w", encoding="utf-8") as fh:
            fh.write(f"{key}\n{files}\n{os.path.abspath(db)}\n{stamp}\n")
        os.replace(temp, path)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass


def unchanged_clean_run(roots: list[str] | list[Path], db: str | os.PathLike[str]) -> int | None:
    """How many files the last whole validation of the catalog under ``roots`` checked, when it
    found no problem, nothing it depends on changed since (same :func:`run_key`: every file's stamp,
    the schemas, the checking code) and the search index at ``db`` is still the file it left
    (:func:`record_clean_run`: so ``cardlab validate`` has nothing to tell it); else None (the full
    validation decides). Reads one small file and ``stat``s every catalog file; no SQLite.

    Args:
        roots: the catalog roots.
        db: the search index (a file; a server URL gives None).

    Raises:
        InputError: a root does not exist or is not a folder.
    """

    path = _cache_file(roots, ".clean")
    if path is None or is_server(db):
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            record = fh.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(record) != 5 or record[4] or not record[1].isdigit():
        return None
    db = os.fspath(db)
    if record[2] != os.path.abspath(db) or record[3] != _index_stamp(db):
        return None
    key, _fp = run_key(roots)
    if key is None or key != record[0]:
        return None
    return int(record[1])
