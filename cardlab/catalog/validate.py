"""Validate the catalog: every file against its JSON Schema, then the rules that span files.

Per-file work (YAML load, schema, source language) is in :mod:`cardlab.catalog.filecheck`, cached by
path, size, modification and change times, inode and the schemas' fingerprint. Problems carry ``file:line:column``
positions from the same YAML parse as the data (:mod:`cardlab.core.yamlio`).

Cross-file rules (ids: ``rule`` of each :class:`~cardlab.core.errors.Problem`):

- ``unique-id``: no two cards share an id; ``unique-set``: no two sets share a code;
  ``set-code-collision``: no code, alias or tool code (``codes``) of a set is another set's.
- ``id``: a card's id is ``<set code>-<number>``; ``file-name``: its file is ``<number>-<slug>.yaml``.
- ``number-range``: a numeric collector number is within the set's printed total.
- ``source-language``: every localized map holds the set's source language.
- ``missing-set``: a card folder has a set.yaml (whose ``game`` chooses the cards' schema).
- ``reprint-of``: a reprint's ``reprint_of`` names a card of the catalog that is not itself a reprint.
- ``extends``: a personal folder's ``set.yaml`` that says ``extends: <code>`` names a set of another root
  and of the folder's own game (:func:`cardlab.catalog.model.layered_dirs`; its cards belong to that
  set); a set of another game, or a cycle of folders extending each other, is named as such.
- game rules from ``cardlab.games.<game>.check`` (Pokémon: ``evolves-from``).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab import games
from cardlab.catalog import model as catalog_mod
from cardlab.catalog.filecheck import _localized_keys, check_file, check_files, store_run
from cardlab.catalog.formats import Format, build_format, collect_formats
from cardlab.catalog.freshness import cached_run, run_key
from cardlab.catalog.model import Catalog, SourceFile, scan
from cardlab.core.bulk import bulk_objects
from cardlab.core.errors import CatalogError, DataError, InputError, Problem, SourcePos, UsageError
from cardlab.core.inputs import LoadError
from cardlab.core.text import listify

__all__ = ["Validation", "bulk_objects", "check_file", "check_files", "cross_checks", "load_catalog", "validate", "validate_paths"]


@dataclass
class Validation:
    """The outcome of a validation run.

    Attributes:
        catalog: the catalog assembled from every file that loaded (even when problems exist).
        problems: every problem found, sorted by file and position.
        files: how many files were checked; ``reparsed``: how many were not served from the cache.
        formats: format name -> :class:`cardlab.catalog.formats.Format`, for the format files without problems.
    """

    catalog: Catalog
    problems: list[Problem] = field(default_factory=list)
    formats: dict = field(default_factory=dict)
    files: int = 0
    reparsed: int = 0
    index_fingerprint: str | None = None
    """For a whole-catalog ``cardlab validate``: the catalog's fingerprint as the search index
    records it (:func:`cardlab.index.sqlite.fingerprint`), so that an index of another state is
    marked for a full check."""
    run_key: str | None = None
    """For a whole-catalog validation: its key (:func:`cardlab.catalog.freshness.run_key`), None
    when a file changed too recently to be trusted."""

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems


# --- cross-file rules ------------------------------------------------------------------------


def _extends_problem(f: catalog_mod.SourceFile, wanted: object, files: list[catalog_mod.SourceFile], data: dict[Path, Any]) -> str:
    """Why a folder's ``extends: <code>`` names no set it can join: the set is of another game; the
    name is a folder that extends in turn, round in a cycle (named: ``mine1 → mine2 → mine1``) or
    on to a set (name that set); or no root has it."""
    sets: dict[str, object] = {}  # set code -> its game
    extending: dict[str, object] = {}  # folder name -> what its set.yaml extends
    for g in files:
        d = data.get(g.path)
        if g.kind != "set" or g.set_dir is None or not isinstance(d, dict):
            continue
        if "extends" in d:
            if g.game == f.game:
                extending.setdefault(g.set_dir.name, d["extends"])
        elif isinstance(d.get("code"), str):
            sets.setdefault(d["code"], d.get("game"))
    if wanted in sets:
        return f"extends '{wanted}', a set of the game {sets[wanted]}; this folder is under {f.game}/: a folder adds cards to a set of its own game"
    chain = [f.set_dir.name if f.set_dir is not None else "", wanted]
    while chain[-1] in extending and chain[-1] not in chain[:-1]:
        chain.append(extending[chain[-1]])
    if len(chain) == 2 and chain[0] == wanted:
        return f"extends '{wanted}', its own folder: extends names a set with its own set.yaml (code, game, name)"
    if chain[-1] in chain[:-1]:
        cycle = chain[chain.index(chain[-1]) :]
        return (
            f"extends '{wanted}', a cycle of extends ({' → '.join(map(str, cycle))}): each folder extends another and none is"
            " a set; extends names a set with its own set.yaml (code, game, name)"
        )
    if len(chain) > 2 and chain[-1] in sets and sets[chain[-1]] == f.game:
        return f"extends '{wanted}', a folder that itself extends '{chain[2]}': extends names a set; write extends: {chain[-1]}"
    return f"extends '{wanted}', a set no catalog root has"


def cross_checks(
    cat: Catalog, files: list[SourceFile], data: dict[Path, Any], bad: AbstractSet[Path] = frozenset()
) -> list[tuple[Path, list, str, str]]:
    """Check the rules that span files (module docstring), over the files not in ``bad`` (those
    already have problems of their own). Returns ``(path, data path, message, rule)``."""
    found: list[tuple[Path, list, str, str]] = []
    set_by_dir: dict[Path | None, dict] = {}
    seen_sets: dict[str, Path] = {}
    set_dirs_with_file = {f.set_dir for f in files if f.kind == "set"}
    missing_reported: set[Path | None] = set()
    layered = catalog_mod.layered_dirs(files, data)
    for f in files:
        d = data.get(f.path)
        if f.kind != "set" or not isinstance(d, dict) or f.path in bad:
            continue
        if "extends" in d:
            if f.set_dir not in layered:
                found.append((f.path, ["extends"], _extends_problem(f, d["extends"], files, data), "extends"))
            continue
        set_by_dir[f.set_dir] = d
        code = d.get("code")
        if code in seen_sets:
            found.append((f.path, ["code"], f"set code '{code}' is already used by {seen_sets[code]}", "unique-set"))
        elif isinstance(code, str):
            seen_sets[code] = f.path
        src = d.get("source_language", "en")
        for keys, loc in _localized_keys(d, []):
            if src not in loc:
                found.append((f.path, keys, f"missing the source language '{src}'", "source-language"))
    set_files: dict[str, Path] = {}
    for f in files:
        d = data.get(f.path)
        if f.kind == "set" and f.path not in bad and isinstance(d, dict) and isinstance(d.get("code"), str):
            set_files.setdefault(d["code"], f.path)
    for code, name, where, other, how in catalog_mod.set_code_collisions((c, data[p]) for c, p in set_files.items()):
        message = f"set code '{name}' is also the {how} of set {other}; set lookup gives it to {other}: remove one of them"
        found.append((set_files[code], where, message, "set-code-collision"))
    for folder, under in layered.items():  # a personal folder's cards belong to the set it adds to
        if under in set_by_dir:
            set_by_dir[folder] = set_by_dir[under]
    seen_ids: dict[str, Path] = {}
    for f in files:
        d = data.get(f.path)
        if f.kind != "card" or not isinstance(d, dict) or f.path in bad:
            continue
        s = set_by_dir.get(f.set_dir)
        if s is None:
            if f.set_dir not in set_dirs_with_file and f.set_dir not in missing_reported:
                missing_reported.add(f.set_dir)
                found.append((f.path, [], f"no set.yaml in {f.set_dir}; every card folder needs a set manifest", "missing-set"))
            continue
        card_id, number = d.get("id"), d.get("number")
        if isinstance(card_id, str):
            if card_id in seen_ids:
                found.append((f.path, ["id"], f"duplicate card id '{card_id}' (also in {seen_ids[card_id]})", "unique-id"))
            else:
                seen_ids[card_id] = f.path
        if isinstance(number, str) and isinstance(s.get("code"), str):
            expected = f"{s['code']}-{number}"
            if card_id != expected:
                found.append((f.path, ["id"], f"id '{card_id}' should be '{expected}' (set code + collector number)", "id"))
            if not f.path.name.startswith(f"{number}-"):
                found.append((f.path, ["number"], f"file name should start with '{number}-' (the collector number)", "file-name"))
            total = s.get("total", s.get("printed_total"))
            num = catalog_mod.number_int(number)
            if isinstance(total, int) and num is not None and num > total:
                what = "total" if "total" in s else "printed total"
                found.append((f.path, ["number"], f"collector number {number} is beyond the set's {what} {total}", "number-range"))
    for card_id, card in cat.cards.items():
        target = card.get("reprint_of")
        if not isinstance(target, str) or card_id in cat.own or cat.paths[card_id] in bad:
            continue
        if target not in cat.cards:
            found.append((cat.paths[card_id], ["reprint_of"], f"reprint_of '{target}' names no card of the catalog", "reprint-of"))
        else:
            found.append(
                (
                    cat.paths[card_id],
                    ["reprint_of"],
                    f"reprint_of '{target}' names a reprint (of {cat.cards[target]['reprint_of']}); name the original card",
                    "reprint-of",
                )
            )

    for game in sorted({s.game for s in cat.sets.values()}):
        try:
            module = games.get(game)
        except (KeyError, ModuleNotFoundError):
            continue
        for card_id, keys, message, rule in module.check(cat):
            found.append((cat.paths[card_id], keys, message, rule))
    return found


def _positioned(found: list[tuple[Path, list, str, str]]) -> list[Problem]:
    from cardlab.core.yamlio import load_positions, position  # lazy: PyYAML (17 ms), only for a file with problems

    trees: dict[Path, Any] = {}
    out = []
    for path, keys, message, rule in found:
        if path not in trees:
            try:
                trees[path] = load_positions(path)
            except LoadError:
                trees[path] = None
        tree = trees[path]
        pos = position(tree, keys, path) if tree is not None else SourcePos(path, 1, 1)
        out.append(Problem(pos, message, rule))
    return out


def validate(
    roots: list[Path], only: Iterable[Path] | None = None, cache_path: Path | None | str = "default", full: bool = True
) -> Validation:
    """Validate the catalog under ``roots`` (a list of folders; one folder or string is taken as one root).

    Args:
        roots: catalog roots (see :func:`cardlab.core.paths.catalog_roots`).
        only: report problems only for these files or folders (the whole catalog is still read,
            since rules span files); None reports everything.
        cache_path: the per-file cache (``"default"``: this catalog's file in the user cache dir; None: no
            cache). Rows of files under ``roots`` that are gone are deleted from it.
        full: False when only the problems matter (``cardlab validate``): cards read from the
            cache then hold only :data:`cardlab.catalog.filecheck.SUMMARY_FIELDS` in ``Validation.catalog``.

    Returns:
        A :class:`Validation` with the catalog and every problem: each file's own problems (schema,
        YAML) sorted by position, then the problems across files, sorted by position.
    """
    roots = [Path(r) for r in listify(roots)]
    files = catalog_mod.scan(roots)
    with bulk_objects():
        data, problems, reparsed = check_files(files, cache_path, full, roots)
    bad = {p.pos.path for p in problems}
    cat = catalog_mod.build_catalog(roots, files, {p: d for p, d in data.items() if p not in bad})
    own = sorted(set(problems))
    cross = _positioned(cross_checks(cat, files, data, bad))

    bad = bad | {p.pos.path for p in cross}
    formats, format_problems = collect_formats([(f.path, f.game) for f in files if f.kind == "format"], data, bad)
    # a file's own problems (schema...) come first, then the problems across files they may cause:
    # a broken Pikachu is reported as Pikachu's problem before Raichu's "evolves from no Pokémon"
    problems = own + sorted(set(cross) | set(format_problems) - set(own))
    if only is not None:
        wanted = [Path(p).resolve() for p in only]
        problems = [p for p in problems if any(p.pos.path.resolve() == w or w in p.pos.path.resolve().parents for w in wanted)]
    return Validation(catalog=cat, problems=problems, files=len(files), reparsed=reparsed, formats=formats)


def load_catalog(roots: list[Path]) -> Catalog:
    """Load and validate the catalog; return it only when it is valid.

    Raises:
        CatalogError: with every problem, when anything is wrong.
    """
    roots = [Path(r) for r in listify(roots)]

    result = validate(roots)
    if result.problems:
        raise CatalogError(result.problems)
    return result.catalog


def _whole_catalog(roots: list[Path], index_salt: str = "") -> Validation:
    """``cardlab validate`` of the whole catalog: when nothing changed since the last run (same
    :func:`run_key`), its outcome again, for the cost of one ``stat`` per file; else a validation."""

    key, index_fp = run_key(roots, index_salt)
    if key is not None:
        found = cached_run(roots, key)
        if found is not None:
            return Validation(
                catalog=Catalog(roots=list(roots)), problems=found[1], files=found[0], reparsed=0, index_fingerprint=index_fp, run_key=key
            )
    result = validate(roots, full=False)
    result.index_fingerprint = index_fp
    result.run_key = key
    if key is not None:
        store_run(roots, key, result.files, result.problems)
    return result


def validate_paths(paths: list[Path], roots: list[Path], index_salt: str = "") -> Validation:
    """Validate what ``cardlab validate [PATH...]`` names.

    Args:
        paths: files or folders; empty means the whole catalog under ``roots``. Paths inside
            ``roots`` are checked with the whole catalog (rules span sets), reporting only their
            problems. Otherwise a folder is read as a catalog root (or a game or set folder); a file
            is checked with the rest of its set folder, and only its own problems are reported.
        roots: the catalog roots used when ``paths`` is empty.
        index_salt: for the whole catalog, also give :attr:`Validation.index_fingerprint` under this
            salt (the search index passes its own), from the same ``stat`` of each file.

    Raises:
        InputError: a path does not exist.
        UsageError: a path is a device, pipe or other special file (``/dev/null``), or no catalog
            file is found under the paths (exit 2: never "ok: 0 files").
    """

    if not paths:
        return _whole_catalog(list(roots), index_salt)
    for p in paths:
        if not Path(p).exists():
            raise InputError(f"{p}: no such file or folder")
    inside = [Path(r).resolve() for r in roots if Path(r).is_dir()]
    targets = [Path(p).resolve() for p in paths]
    if inside and all(any(t == r or r in t.parents for r in inside) for t in targets):
        # within the catalog: read all of it (rules span sets: a reprint's original, an
        # evolution's Pokémon in another set) and report only what was named
        result = validate(list(roots), only=targets, full=False)
        scanned = {f.path.resolve() for f in catalog_mod.scan(list(roots))}
        result.files = sum(1 for f in scanned if any(f == t or t in f.parents for t in targets))
        for p, t in zip(paths, targets, strict=True):
            if t.is_file() and t not in scanned:
                result.problems.append(
                    Problem(
                        SourcePos(Path(p), 1, 1),
                        "not a catalog file: cards, sets and formats are .yaml files in a set or formats folder",
                        "file",
                    )
                )
        return result
    read: list[Path] = []
    only: list[Path] = []
    for p in paths:
        p = Path(p)
        if not p.exists():
            raise InputError(f"{p}: no such file or folder")
        if not p.is_dir() and not p.is_file():
            raise UsageError(
                f"{p}: not a catalog file or folder (a device, pipe or other special file); "
                "give card, set or format .yaml files, or folders of them"
            )
        if p.is_dir():
            read.append(p.resolve())
        else:
            read.append(p.resolve().parent)
            only.append(p.resolve())
    if only and len(only) < len(paths):
        only.extend(r for r, p in zip(read, paths, strict=True) if Path(p).is_dir())
    result = validate(list(dict.fromkeys(read)), only=only or None, full=False)
    scanned = {f.path.resolve() for f in catalog_mod.scan(list(dict.fromkeys(read)))}
    for p in paths:
        if Path(p).is_file() and Path(p).resolve() not in scanned:
            result.problems.append(
                Problem(
                    SourcePos(Path(p), 1, 1),
                    "not a catalog file: cards, sets and formats are .yaml files in a set or formats folder",
                    "file",
                )
            )
    if result.files == 0 and not result.problems:
        raise UsageError(
            f"no catalog file under {', '.join(str(p) for p in paths)}: cards, sets and formats are .yaml files in a set or formats folder"
        )
    return result


def load_format(path: Path, game: str | None = None) -> tuple[Format | None, list[Problem]]:
    """Load and check one format file on its own (schema, then :func:`build_format`).

    Args:
        path: the ``<name>.yaml`` file; game: the game folder it sits in (checked when given).

    Returns:
        ``(format, problems)``; the format is None when any problem was found.
    """
    data, problems = check_file(Path(path), "format", game or "")
    if problems or data is None:
        return None, problems
    return build_format(Path(path), game, data)


def format_files(roots: Iterable[Path]) -> list[tuple[Path, str]]:
    """List ``(format file, game folder)`` under the catalog roots, in scan order."""

    return [(f.path, f.game) for f in scan(list(roots)) if f.kind == "format"]


def formats_only(roots: Iterable[Path]) -> tuple[dict[str, Format], list[Problem]]:
    """Load the formats under ``roots`` from their files alone (cached as every catalog file), for a
    catalog whose cards are read from a fresh index (:func:`cardlab.index.stored.open_catalog`):
    a format's rules read only its own file.

    Returns:
        ``(name -> Format sorted by name, for the files without problems; every problem of the
        format files)``, as :func:`check_formats`.
    """
    files = [
        SourceFile(p, "format", game, None)
        for kind, folder, game in catalog_mod.folders(list(roots))
        if kind == "formats"
        for p in sorted(folder.glob("*.yaml"))
    ]
    data, problems, _reparsed = check_files(files)
    bad = {p.pos.path for p in problems}
    formats, format_problems = collect_formats([(f.path, f.game) for f in files], data, bad)
    return dict(sorted(formats.items())), sorted(set(problems)) + format_problems


def check_formats(roots: Iterable[Path]) -> tuple[dict[str, Format], list[Problem]]:
    """Load every format under ``roots`` and collect every problem.

    Formats are checked with the rest of the catalog by :func:`cardlab.catalog.validate.validate` (and
    cached with it), so a warm run parses no YAML and imports no jsonschema.

    Returns:
        ``(name -> Format for the formats without problems, problems in format files)``; a name
        defined in two files is a ``unique-format`` problem on the second (the first is kept).
    """
    result = validate(list(roots))
    files = {p for p, _ in format_files(result.catalog.roots)}
    return dict(result.formats), [p for p in result.problems if p.pos.path in files]


def load_formats(roots: Iterable[Path]) -> dict[str, Format]:
    """Load every format under the catalog roots.

    Returns:
        Format name -> :class:`Format`, sorted by name.

    Raises:
        DataError: with every problem (positioned), when any format file is wrong.
    """
    found, problems = check_formats(roots)
    if problems:
        raise DataError(problems)
    return dict(sorted(found.items()))
