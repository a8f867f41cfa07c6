"""Per-file checks of catalog files: YAML load, JSON Schema, the source-language rule, and the
per-file cache that lets a re-validate after one edit re-read one file.

Files are checked with jsonschema-rs first (a valid/invalid answer in microseconds); the files it
rejects, or holds values it types differently (floats, dates), are checked again with jsonschema for
messages in YAML's words (:func:`cardlab.core.schema_words.schema_message`), positioned from the same YAML parse as the data.
A cold run over many files uses every core. :mod:`cardlab.catalog.validate` adds the rules that
span files.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.catalog.freshness import validation_cache
from cardlab.catalog.model import SourceFile, layered_dirs
from cardlab.catalog.schemas import card_schema_name, fast_validator, fingerprint, validator
from cardlab.core.errors import Problem, SourcePos
from cardlab.core.inputs import LoadError, read_text
from cardlab.core.paths import cache_dir
from cardlab.core.progress import step
from cardlab.core.schema_words import found_words, schema_message
from cardlab.core.stamps import file_stamp, is_racy
from cardlab.core.text import is_localized

if TYPE_CHECKING:
    from cardlab.core.yamlio import Positions  # lazy: PyYAML (17 ms), only for a file with problems

COMMON_FIELDS = ("id", "number", "name", "rarity", "illustrator", "notes", "transcribed")
"""The fields of ``common.schema.json#/$defs/card``, which every game's card has."""

PARALLEL_THRESHOLD = 5000
"""Below this many files to (re)check, work stays in one process: about 0.2 ms a card file, so under
a second. Measured on 2 CPUs (BENCHMARKS.md, Scale): a pool of workers gained 0 – 10 % wall time on
3,000 files and 10 – 15 % on 5,000 – 10,000, for 30 – 50 % more CPU time (process start, results
pickled back, the parent's own share)."""


# --- per-file checks -------------------------------------------------------------------------


MESSAGES_VERSION = "m2"
"""Which wording of the problems the cache holds: raise it when the code that finds or words a
file's problems changes (the schemas' own text is fingerprinted apart), so an upgraded cardlab never
serves a problem list its predecessor cached (issue 33: a missing kind kept its old messages)."""


def _plain_json(data: Any) -> bool:
    """True when ``data`` holds only values the two validators type alike: no float (JSON Schema
    counts 4.0 as an integer, YAML 1.2 and cardlab do not) and nothing JSON lacks (dates)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif not (value is None or isinstance(value, (str, int))):
            return False
    return True


def schema_errors(data: Any, schema: str, plain_json: bool | None = None) -> list[Any]:
    """Return the jsonschema errors of ``data`` against ``schema`` (empty when valid).

    jsonschema-rs answers first (microseconds); it is trusted only when it says valid and the data
    holds only plain JSON values (``plain_json`` when the caller knows it, as the YAML reader does:
    :attr:`cardlab.core.yamlio.Positions.plain_json`; else :func:`_plain_json` looks); in every other case the explaining validator
    decides. So when either validator says invalid, the data is invalid: the two never disagree
    silently (their patterns are written to read alike, see tests/unit/catalog/test_schemas.py).
    """

    fast = fast_validator(schema)
    if fast is not None:
        try:
            if fast.is_valid(data) and (_plain_json(data) if plain_json is None else plain_json):
                return []
        except Exception:  # noqa: BLE001 - values JSON has no type for (dates): the full check below says why
            pass
    return list(validator(schema).iter_errors(data))


def _schema_problems(path: Path, tree: Positions, data: Any, schema: str) -> list[Problem]:
    from cardlab.core.yamlio import key_position, position  # lazy: PyYAML (17 ms), only for a file with problems

    errors = schema_errors(data, schema, tree.plain_json)
    if not errors:
        return []
    from jsonschema.exceptions import best_match  # only for a file with problems: a valid catalog never imports it

    problems = []
    # When the common card part (an allOf branch) fails, jsonschema stops counting its properties
    # as evaluated and unevaluatedProperties calls them unknown: report only the real failure.
    other = any(e.validator not in ("unevaluatedProperties", "additionalProperties") or list(e.absolute_path) for e in errors)
    common = set(COMMON_FIELDS) if other else set()
    # A field the if/then/else branches are chosen by (supertype, kind) with a value outside its
    # list makes the branches fail too; report the field, not their consequences. A field of a
    # branch itself (an Ippo blow's blow_type) decides nothing: its error, and every other error of
    # that branch, is reported (issue 33: a misspelt blow_type hid the whole card's problems).
    # A missing chooser (no `kind`) chooses no branch either: the fallback branch's demands are not
    # the card's problems.
    chooser_enum = any(e.validator == "enum" and len(e.absolute_path) == 1 and not _in_branch(e) for e in errors) or any(
        e.validator == "required" and not list(e.absolute_path) and not _in_branch(e) and _missing(e) & _chooser_fields(e.schema)
        for e in errors
    )
    for err in errors:
        if chooser_enum and _in_branch(err):
            continue
        either = _either_field(err)
        if either:  # anyOf [required a, required b]: one problem naming each way to satisfy it
            fields = " or ".join(f"'{k}'" for k in either)
            where = ".".join(str(k) for k in err.absolute_path)
            problems.append(
                Problem(position(tree, list(err.absolute_path), path), f"{where + ': ' if where else ''}missing field {fields}", "schema")
            )
            continue
        if err.context:
            err = best_match(err.context) or err
        keys = list(err.absolute_path)
        if err.validator in ("unevaluatedProperties", "additionalProperties") and isinstance(err.instance, dict):
            allowed = _allowed_keys(err)
            extra = [k for k in err.instance if k not in allowed] or list(err.instance)
            # with no branch chosen, the fields of every kind look unknown: only the truly unknown are
            branch = _branch_fields(err.schema) if chooser_enum and not keys else set()
            for k in extra:
                if not keys and (k in common or k in branch):
                    continue
                problems.append(Problem(key_position(tree, keys, k, path), f"unknown field '{k}'", "schema"))
            continue
        where = ".".join(str(k) for k in keys)
        prefix = f"{where}: " if where else ""
        problem = Problem(position(tree, keys, path), prefix + schema_message(err), "schema")
        if problem not in problems:  # several required fields of one branch: one message names them all
            problems.append(problem)
    return problems


def _missing(err: Any) -> set[str]:
    """The fields a ``required`` error ``err`` finds missing."""
    return {k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance}


def _chooser_fields(schema: Any) -> set[str]:
    """The fields the if/then/else chain of ``schema`` (a card schema's root) chooses its branch by
    (Ippo ``kind``, Monpa ``type``)."""
    found: set[str] = set()
    part = schema
    while isinstance(part, dict) and isinstance(part.get("if"), dict):
        found.update(part["if"].get("required", []))
        part = part.get("else")
    return found


def _either_field(err: Any) -> list[str]:
    """The fields of an ``anyOf``/``oneOf`` whose every branch requires one field that is missing
    (an Ippo ability needs ``text`` or ``keywords``), in the schema's order; else ``[]``."""
    if err.validator not in ("anyOf", "oneOf") or not err.context:
        return []
    if any(c.validator != "required" or list(c.relative_path) for c in err.context):
        return []
    return list(dict.fromkeys(k for c in err.context for k in c.validator_value if k not in err.instance))


def _in_branch(err: Any) -> bool:
    """True when ``err`` comes from an if/then/else branch of the schema (a field of one kind of card)."""
    return bool({"then", "else"} & set(map(str, err.relative_schema_path)))


def _branch_fields(schema: Any) -> set[str]:
    """The field names the if/then/else branches of ``schema`` (a card schema's root) define."""
    found: set[str] = set()
    stack = [schema.get(k) for k in ("then", "else")] if isinstance(schema, dict) else []
    while stack:
        part = stack.pop()
        if isinstance(part, dict):
            found.update(part.get("properties", {}))
            stack.extend(part.get(k) for k in ("then", "else"))
    return found


def _allowed_keys(err: Any) -> set[str]:
    """The keys of ``err.instance`` that the failing (un)evaluated-properties check accepts."""
    if err.validator == "additionalProperties":
        props = err.schema.get("properties", {})
        patterns = [re.compile(p) for p in err.schema.get("patternProperties", {})]
        return {k for k in err.instance if k in props or any(p.search(k) for p in patterns)}
    found = re.findall(r"'([^']+)'", err.message.split("(")[-1]) if "(" in err.message else []
    return {k for k in err.instance if k not in found}


def check_file(path: Path, kind: str, game: str, source_language: str | None = None) -> tuple[Any, list[Problem]]:
    """Load one catalog file and check it against its schema.

    Args:
        path: the YAML file.
        kind: ``set``, ``card`` or ``format`` (formats are checked by the deck code, not here).
        game: the game folder the file sits in (selects the card schema).
        source_language: the set's source language; every localized map of a card must hold it
            (rule ``source-language``). None skips that check.

    Returns:
        ``(data, problems)``; ``data`` is None when the file could not be loaded.
    """
    try:
        text = read_text(path)
    except LoadError as err:
        return None, [err.problem]
    return check_text(path, text, kind, game, source_language)


def check_text(path: Path, text: str, kind: str, game: str, source_language: str | None = None) -> tuple[Any, list[Problem]]:
    """:func:`check_file` on a file's text, already read."""
    from cardlab.core.yamlio import load, position  # lazy: PyYAML (17 ms), only when a file must be read again

    try:
        data, tree = load(path, text)
    except LoadError as err:
        return None, [err.problem]
    if not isinstance(data, dict):
        return None, [Problem(SourcePos(path, 1, 1), f"expected a map of fields (name: value), found {found_words(data)}", "schema")]
    schema = {"set": "set.schema.json", "format": "format.schema.json"}.get(kind, card_schema_name(game))
    try:
        problems = _schema_problems(path, tree, data, schema)
    except KeyError:
        problems = []  # the set manifest's own check reports its unknown game
    if kind == "card" and source_language and not problems:
        missing = missing_source_language(data, source_language)
        if missing:
            problems = [
                Problem(position(tree, keys, path), f"missing the source language '{source_language}'", "source-language")
                for keys in missing
            ]
    return data, problems


def _check_job(job: tuple[Path, str, str, str | None, bool]) -> tuple[Path, Any, list[tuple], tuple[bytes, str, bytes]]:
    """Check one file for :func:`check_files` (in a worker process when there are many): returns
    ``(path, data or its summary as asked, problems as tuples, its cache row's data, problems and
    summary columns)``. The worker pickles the cache columns itself, so the parent neither receives
    the whole data when it asked for summaries nor pickles it again."""
    path, kind, game, src, full = job
    data, problems = check_file(path, kind, game, src)
    probs = [(p.pos.line, p.pos.col, p.message, p.rule) for p in problems]
    summary = _summary(kind, data)
    row = (pickle.dumps(data, protocol=5), json.dumps(probs, ensure_ascii=False) if probs else "[]", pickle.dumps(summary, protocol=5))
    return path, data if full else summary, probs, row


# --- the cache -------------------------------------------------------------------------------


class _Cache:
    """path -> (file stamp, schema fingerprint, data, problems) in a small SQLite file; the stamp is
    :func:`cardlab.core.stamps.file_stamp` (size, modification and change times, inode).

    The data is pickled (it is the file's own YAML data, written and read only by cardlab in the
    user's cache folder); pickle reads three times faster than JSON here."""

    def __init__(self, path: Path | None) -> None:
        self.db = None
        if path is None:
            return
        for attempt in (1, 2):
            try:
                self.db = sqlite3.connect(path, timeout=5)
                self.db.execute(
                    "CREATE TABLE IF NOT EXISTS files4 (path TEXT PRIMARY KEY, stamp TEXT, fp TEXT, data BLOB, problems TEXT, summary BLOB)"
                )
                self.db.execute("CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, key TEXT, files INTEGER, problems TEXT)")
                return
            except sqlite3.Error as err:
                if self.db is not None:
                    self.db.close()
                self.db = None
                if attempt == 2 or not (isinstance(err, sqlite3.DatabaseError) and _own_cache_file(path)):
                    return
                try:  # cardlab's own cache file, damaged: start it again
                    Path(path).unlink()
                except OSError:
                    return

    def get_many(self, paths: list[str], full: bool = True) -> dict[str, tuple]:
        """Rows of ``paths`` (the cache may hold other catalogs too: read only what is asked):
        ``(stamp, fp, data or summary, problems)``."""
        if self.db is None:
            return {}
        sql = f"SELECT path, stamp, fp, {'data' if full else 'summary'}, problems FROM files4"
        try:
            if len(paths) > 5000:
                wanted = set(paths)
                return {r[0]: r[1:] for r in self.db.execute(sql) if r[0] in wanted}
            found: dict = {}
            for i in range(0, len(paths), 500):
                part = paths[i : i + 500]
                found.update((r[0], r[1:]) for r in self.db.execute(f"{sql} WHERE path IN ({','.join('?' * len(part))})", part))
            return found
        except sqlite3.Error:
            return {}

    def put(self, rows: list[tuple], current: set[str] | None = None, prefixes: tuple[str, ...] = ()) -> int:
        """Store ``rows`` (files checked again) and, in the same transaction, delete the rows of
        files that are gone: paths under one of ``prefixes`` (catalog roots, each ending with the
        path separator) that are not in ``current`` (every file of the catalog just scanned).

        The rows are listed only when the cache holds more rows than ``current`` has paths (after
        the insert every current file has its row), so a catalog whose files did not go away pays
        one ``count(*)``. Errors of the cache are ignored (it is a cache).

        Returns:
            How many rows were deleted.
        """
        if self.db is None:
            return 0
        try:
            with self.db:
                if rows:
                    self.db.executemany("INSERT OR REPLACE INTO files4 VALUES (?, ?, ?, ?, ?, ?)", rows)
                if current is None or not prefixes:
                    return 0
                (count,) = self.db.execute("SELECT count(*) FROM files4").fetchone()
                if count <= len(current):
                    return 0
                stale = [
                    (path,) for (path,) in self.db.execute("SELECT path FROM files4") if path not in current and path.startswith(prefixes)
                ]
                self.db.executemany("DELETE FROM files4 WHERE path = ?", stale)
                return len(stale)
        except sqlite3.Error:
            return 0


CACHE_MAX_AGE_DAYS = 30
"""The validation cache file of a catalog not validated for this many days is removed (by the next
validation of another catalog)."""

_CACHE_NAME = re.compile(r"validate-(?:[0-9a-f]{12}\.(?:sqlite|clean)|cache\.sqlite)")
"""cardlab's validation cache files: ``validate-<roots key>.sqlite``, one per catalog, its record of
the last clean run ``validate-<roots key>.clean`` (:func:`cardlab.catalog.freshness.record_clean_run`),
and the ``validate-cache.sqlite`` that earlier versions shared between catalogs."""


def _own_cache_file(path: Path | str) -> bool:
    """True for cardlab's own validation cache files (which may be replaced when damaged): a name
    of :data:`_CACHE_NAME` in :func:`cardlab.core.paths.cache_dir`."""

    try:
        return bool(_CACHE_NAME.fullmatch(Path(path).name)) and Path(path).parent.resolve() == cache_dir().resolve()
    except OSError:
        return False


def store_run(roots: Iterable[Path], key: str, files: int, problems: list[Problem]) -> None:
    """Record the outcome of a whole validation made with ``key`` (see :func:`cardlab.catalog.freshness.cached_run`); best effort."""
    cache = _Cache(validation_cache(list(roots)))
    if cache.db is None:
        return
    shown = [(str(p.pos.path), p.pos.line, p.pos.col, p.message, p.rule) for p in problems]
    try:
        with cache.db:
            cache.db.execute("INSERT OR REPLACE INTO runs VALUES (1, ?, ?, ?)", (key, files, json.dumps(shown, ensure_ascii=False)))
    except sqlite3.Error:
        pass
    finally:
        cache.db.close()


def cached_data(roots: Iterable[Path], paths: list[str]) -> dict[str, Any]:
    """The parsed data of ``paths`` as the catalog's validation cache holds it (what the last
    validation read), for the files it holds; read by the index build (:mod:`cardlab.index.sqlite`)
    a batch at a time, instead of keeping every card in memory. A damaged row is left out."""
    cache = _Cache(validation_cache(list(roots)))
    out: dict[str, Any] = {}
    try:
        for path, row in cache.get_many(paths, full=True).items():
            try:
                out[path] = pickle.loads(row[2])
            except Exception:  # noqa: BLE001 - a damaged row: the caller reads the file
                continue
    finally:
        if cache.db is not None:
            cache.db.close()
    return out


def prune_caches(keep: Path, now: float | None = None, max_age_days: float = CACHE_MAX_AGE_DAYS) -> list[Path]:
    """Mark ``keep`` (the cache file just used) as used now and remove the other validation cache
    files of its folder (names of :data:`_CACHE_NAME`, with their ``-journal``, ``-wal`` and
    ``-shm`` files) not modified for ``max_age_days``. Files that cannot be touched, listed or
    removed are left alone.

    Args:
        keep: the cache file in use (its modification time is set to ``now``).
        now: the current time (seconds since the epoch); None for :func:`time.time`.
        max_age_days: how old (by modification time) a file must be to go.

    Returns:
        The cache files removed.
    """
    now = time.time() if now is None else now
    try:
        os.utime(keep, (now, now))
    except OSError:
        pass
    removed = []
    try:
        entries = list(os.scandir(keep.parent))
    except OSError:
        return []
    for entry in entries:
        if entry.name == keep.name or not _CACHE_NAME.fullmatch(entry.name):
            continue
        try:
            if entry.stat().st_mtime >= now - max_age_days * 86400:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
        for suffix in ("-journal", "-wal", "-shm"):
            try:
                os.unlink(entry.path + suffix)
            except OSError:
                pass
    return removed


SUMMARY_FIELDS = ("id", "number", "name", "supertype", "stage", "evolves_from", "hp", "reprint_of")
"""The card fields the rules across files read (see :func:`cross_checks` and the games' ``check``)."""


_SUMMARY_TAG = str(len(SUMMARY_FIELDS)) + "".join(f[0] for f in SUMMARY_FIELDS)
"""Part of each cache entry's tag: a change of :data:`SUMMARY_FIELDS` invalidates the cache."""


BATCH_FILES = 5000
"""Files checked, cached and let go of together: validating 100,000 files holds the parsed cards of
one batch, not of all (with ``full=False``, the rest of the run keeps each card's summary)."""


def _summary(kind: str, data: Any) -> Any:
    if kind != "card" or not isinstance(data, dict):
        return data
    return {k: data[k] for k in SUMMARY_FIELDS if k in data}


_SHARED_VALUES = frozenset(("number", "supertype", "stage"))
"""Summary fields whose values repeat across cards (``1``, ``Pokémon``, ``Basic``): held once."""


def _shared(summary: Any) -> Any:
    """A card summary with its keys (and the language keys of its names) and the values of
    :data:`_SHARED_VALUES` interned: each unpickled summary would otherwise hold its own copy of
    every key, a third of its memory (100,000 summaries are held while a catalog is validated)."""
    if not isinstance(summary, dict):
        return summary
    out = {}
    for key, value in summary.items():
        if isinstance(value, dict):
            value = {sys.intern(k) if isinstance(k, str) else k: v for k, v in value.items()}
        elif key in _SHARED_VALUES and isinstance(value, str):
            value = sys.intern(value)
        out[sys.intern(key) if isinstance(key, str) else key] = value
    return out


def _ignore_interrupt() -> None:
    """In a worker of the checking pool: Ctrl-C is the parent's to handle (the terminal sends it to
    every process of the group; a worker would print its own traceback)."""
    import signal  # lazy: signal, only in a pool's worker

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def check_files(
    files: list[SourceFile],
    cache_path: Path | None | str = "default",
    full: bool = True,
    roots: Iterable[Path] | None = None,
) -> tuple[dict[Path, Any], list[Problem], int]:
    """Run :func:`check_file` over ``files``, using the cache and, for many files, every core.

    With ``full=False`` a card served from the cache comes back as a summary (the fields of
    :data:`SUMMARY_FIELDS`), which is all the rules across files need and five times quicker to read.

    Args:
        files: every file of the catalog (:func:`cardlab.catalog.model.scan` of ``roots``).
        cache_path: the cache file; ``"default"`` is the catalog's own file in the user cache folder
            (:func:`_default_cache`; other catalogs' files unused for :data:`CACHE_MAX_AGE_DAYS`
            are then removed); None uses no cache.
        full: False to get cached cards as summaries.
        roots: the catalog roots ``files`` were scanned from: they name the default cache file, and
            the cache rows of files under them that are not in ``files`` (deleted files) are
            deleted. None: the folder holding every file stands for them.

    Returns:
        ``(data by path, problems, how many files were re-read)``.
    """

    if roots is None:
        try:
            roots = [Path(os.path.commonpath([str(f.path.parent) for f in files]))] if files else []
        except ValueError:  # relative and absolute paths mixed: no common folder
            roots = []
    roots = list(roots)
    default = validation_cache(roots) if cache_path == "default" else None
    cache = _Cache(default if cache_path == "default" else cache_path)  # type: ignore[arg-type]
    schema_fp = fingerprint() + MESSAGES_VERSION
    data: dict[Path, Any] = {}
    problems: list[Problem] = []
    reparsed = 0

    now = time.time_ns()

    pool: Any = None
    done = 0

    def run(batch: list[SourceFile], games: dict[Path | None, str], langs: dict[Path | None, str]) -> None:
        nonlocal reparsed, pool
        cached = cache.get_many([str(f.path) for f in batch], full)
        rows: list[tuple] = []
        jobs: list[tuple[Path, str, str, str | None, bool]] = []
        stats: dict[str, tuple[str, str]] = {}
        tags: dict[tuple, str] = {}
        for f in batch:
            key = str(f.path)
            game = games.get(f.set_dir, f.game)
            src = langs.get(f.set_dir)
            tag = tags.get((f.kind, game, src))
            if tag is None:
                tag = tags[(f.kind, game, src)] = f"{schema_fp}:{_SUMMARY_TAG}:{f.kind}:{game}:{src}"
            try:
                st = os.stat(key)
                # a file changed within the last time tick may change again with the same stamp
                stat = stats[key] = (file_stamp(st) + ("racy" if is_racy(st, now) else ""), tag)
            except OSError:
                stat = stats[key] = ("", "")
            hit = cached.get(key)
            served = None
            if hit and hit[:2] == stat and not stat[0].endswith("racy"):
                try:
                    served = (
                        pickle.loads(hit[2]) if full or f.kind != "card" else _shared(pickle.loads(hit[2])),
                        [Problem(SourcePos(f.path, ln, col), msg, rule) for ln, col, msg, rule in json.loads(hit[3])],
                    )
                except Exception:  # noqa: BLE001 - a damaged cache row: check the file again
                    served = None
            if served is not None:
                data[f.path] = served[0]
                problems.extend(served[1])
            else:
                jobs.append((f.path, f.kind, game, src, full))
        workers = os.cpu_count() or 1
        results: Iterable[tuple[Path, Any, list[tuple], tuple[bytes, str, bytes]]]
        if len(jobs) >= PARALLEL_THRESHOLD and workers > 1:
            if pool is None:
                from concurrent.futures import ProcessPoolExecutor  # lazy: concurrent.futures (90 ms cold), only for a catalog worth a pool

                for game in {job[2] for job in jobs}:  # compiled once here, inherited by the forked workers
                    try:
                        fast_validator(card_schema_name(game))
                    except KeyError:
                        pass  # an unknown game: the set manifest's check reports it
                pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt)
            results = pool.map(_check_job, jobs, chunksize=250)
        else:
            results = (_check_job(j) for j in jobs)
        for path, d, probs, row in results:
            key = str(path)
            data[path] = d if full else _shared(d)  # the whole data, or its summary: the rest is in the cache
            problems.extend(Problem(SourcePos(path, ln, col), msg, rule) for ln, col, msg, rule in probs)
            rows.append((key, *stats[key], *row))
        reparsed += len(jobs)
        cache.put(rows)  # batch by batch: the parsed cards of one batch at a time are held
        nonlocal done
        done += len(batch)
        step("checking files", done, len(files))

    # Set manifests first: a set's `game` chooses the schema of the cards beside it.
    run([f for f in files if f.kind == "set"], {}, {})
    games: dict[Path | None, str] = {}
    langs: dict[Path | None, str] = {}
    for f in files:
        if f.kind == "set":
            d = data.get(f.path)
            game = d.get("game") if isinstance(d, dict) else None
            games[f.set_dir] = game if isinstance(game, str) else f.game
            src = d.get("source_language", "en") if isinstance(d, dict) else None
            if isinstance(src, str):
                langs[f.set_dir] = src
    for folder, target in layered_dirs(files, data).items():  # a personal folder over a shipped set
        games[folder] = games.get(target, games.get(folder, ""))
        if target in langs:
            langs[folder] = langs[target]
    others = [f for f in files if f.kind != "set"]
    try:
        for start in range(0, len(others), BATCH_FILES):
            run(others[start : start + BATCH_FILES], games, langs)
    finally:
        if pool is not None:
            pool.shutdown()
    prefixes = {os.path.join(str(r), "") for r in roots}
    for r in roots:
        try:
            prefixes.add(os.path.join(str(Path(r).resolve()), ""))
        except (OSError, RuntimeError):
            pass
    cache.put([], {str(f.path) for f in files}, tuple(sorted(prefixes)))
    if default is not None and cache.db is not None:
        prune_caches(default)
    return data, problems, reparsed


def missing_source_language(card: dict, lang: str) -> list[list]:
    """The data paths of ``card``'s localized maps that lack ``lang`` (the set's source language;
    rule ``source-language``). A card marked ``transcribed: false`` (its rules text recorded first in
    another language, not yet from the card) needs it in its names only."""
    if not _lacks_language(card, lang):
        return []
    names_only = card.get("transcribed") is False
    return [
        keys for keys, loc in _localized_keys(card, []) if lang not in loc and not (names_only and keys[0] not in ("name", "printed_name"))
    ]


def _lacks_language(data: Any, lang: str) -> bool:
    """True when a localized map in ``data`` has no ``lang`` entry (a quick walk; :func:`_localized_keys`
    then says where)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if is_localized(value):
                if lang not in value:
                    return True
                continue
            value = value.values()
        for item in value:  # only maps and lists are walked further (most values are text or numbers)
            if isinstance(item, (dict, list)):
                stack.append(item)
    return False


def _localized_keys(data: Any, keys: list) -> Iterator[tuple[list, dict]]:
    if is_localized(data):
        yield keys, data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _localized_keys(v, [*keys, k])
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _localized_keys(v, [*keys, i])
