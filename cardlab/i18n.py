"""Translations: which strings exist, which are translated or outdated, and writing them back.

Every text a person reads is a localized map (``{en: Charizard, fr: Dracaufeu}``). A map may carry
``_source: {fr: 1a2b3c4d}``: the :func:`source_hash` of the source text the French translation was
made from. A translation is

- *missing* when the map has no key for the language;
- *outdated* when its ``_source`` hash differs from the hash of the current source text;
- *current* otherwise, including when no hash is stored (the official names carried from
  reference data have none: they were not translated from our source text).

Writing translations back (:func:`render_edits`, :func:`commit`) uses ruamel.yaml's round-trip
mode, so comments, key order, flow maps and quoting of untouched lines stay as they are; a file is
replaced atomically, and only when the new text still validates. See docs/TRANSLATING.md.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.catalog import Catalog
from cardlab.errors import DataError, Problem, SourcePos, UsageError
from cardlab.text import localized_fields, pick

KINDS = ("name", "attack", "text", "set")
"""Field kinds, in report order: card names, attack/ability/power names, rules text, set names."""

KIND_LABELS = {"name": "card name", "attack": "attack name", "text": "rules text", "set": "set name"}
"""Short labels of :data:`KINDS` (``attack`` covers attack, ability and power names)."""

SET_PREFIX = "set."
"""Field paths of a set manifest start with this in contexts: ``base1 set.name``."""

_PATH_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def source_hash(text: str) -> str:
    """Return the short hash recorded in ``_source``: 8 hex digits of the SHA-1 of the source text.

    The text is NFC-normalized and its runs of white space are collapsed to one space (leading and
    trailing space dropped) first, so re-wrapping a YAML scalar does not make translations outdated.

    >>> source_hash("Charizard")
    'f474e615'
    """
    norm = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha1(norm.encode("utf-8")).hexdigest()[:8]


def parse_path(path: str) -> list[str | int]:
    """Turn a field path into data keys: ``attacks[0].name`` -> ``["attacks", 0, "name"]``.

    Raises:
        ValueError: ``path`` is empty or malformed.
    """
    keys: list[str | int] = []
    pos = 0
    while pos < len(path):
        if path[pos] == "." and keys and pos + 1 < len(path):
            pos += 1
        m = _PATH_TOKEN.match(path, pos)
        if not m:
            raise ValueError(f"malformed field path {path!r}")
        keys.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not keys:
        raise ValueError("empty field path")
    return keys


def field_kind(path: str, in_set: bool = False) -> str:
    """Return the kind of a translatable field (one of :data:`KINDS`).

    ``name`` is a card's name; another path ending in ``name`` (``attacks[0].name``,
    ``pokemon_power.name``) an ``attack``; a set manifest's fields are ``set``; the rest ``text``.
    """
    if in_set:
        return "set"
    if path == "name":
        return "name"
    if path.endswith(".name"):
        return "attack"
    return "text"


@dataclass(frozen=True)
class TString:
    """One translatable string of the catalog, for one target language.

    Attributes:
        owner: the card id (``base1-4``) or, for a set manifest, the set code (``base1``).
        path: the field path in contexts: ``attacks[0].name``; ``set.name`` for a set's fields.
        kind: one of :data:`KINDS`.
        set_code: the set the string belongs to.
        file: the YAML file holding it.
        source_lang: the set's source language; ``source``: the source text.
        lang: the target language; ``translation``: its text, or None when missing.
        stored_hash: the ``_source`` hash recorded for ``lang``, or None.
        label: a short human description (``Charizard (Dracaufeu) · Base Set``) for translators.
    """

    owner: str
    path: str
    kind: str
    set_code: str
    file: Path
    source_lang: str
    source: str
    lang: str
    translation: str | None
    stored_hash: str | None
    label: str = ""

    @property
    def context(self) -> str:
        """The PO ``msgctxt``: ``<card id or set code> <field path>``."""
        return f"{self.owner} {self.path}"

    @property
    def keys(self) -> list[str | int]:
        """The data keys of the localized map inside its file."""
        return parse_path(self.path.removeprefix(SET_PREFIX) if self.kind == "set" else self.path)

    @property
    def state(self) -> str:
        """``missing``, ``outdated`` or ``current`` (module docstring)."""
        if self.translation is None:
            return "missing"
        if self.stored_hash is not None and self.stored_hash != source_hash(self.source):
            return "outdated"
        return "current"


def _selected_sets(catalog: Catalog, sets: Iterable[str] | None) -> list[str]:
    """Return the set codes to work on (all, sorted, when ``sets`` is empty); aliases accepted.

    Raises:
        UsageError: a code names no set.
    """
    if not sets:
        return sorted(catalog.sets)
    out = []
    for code in sets:
        info = catalog.find_set(code)
        if info is None:
            known = ", ".join(sorted(catalog.sets)) or "none"
            raise UsageError(f"unknown set '{code}' (known: {known})")
        if info.code not in out:
            out.append(info.code)
    return out


def _number_key(card_id: str, card: dict) -> tuple:
    number = str(card.get("number", ""))
    digits = "".join(ch for ch in number if ch.isdigit())
    return (int(digits) if digits else 1 << 30, number, card_id)


def strings(catalog: Catalog, lang: str, sets: Iterable[str] | None = None) -> Iterator[TString]:
    """Yield every translatable string of the selected sets for target language ``lang``.

    Order: sets by code; in a set, its manifest first, then cards by collector number, fields in
    file order. Sets whose source language is ``lang`` are skipped (nothing to translate), and so
    are maps that lack the source language (a validation problem).

    Args:
        catalog: the loaded catalog.
        lang: the target language (``fr``).
        sets: set codes or aliases to keep, or None for all.

    Raises:
        UsageError: a set code is unknown.
    """
    codes = _selected_sets(catalog, sets)
    cards_by_set: dict[str, list[str]] = {}
    for card_id, code in catalog.card_set.items():
        cards_by_set.setdefault(code, []).append(card_id)
    for code in codes:
        info = catalog.sets[code]
        src = info.source_language
        if src == lang:
            continue
        set_label = f"{info.name()} ({code})"
        for path, loc in localized_fields(info.data):
            if src not in loc:
                continue
            yield _tstring(code, SET_PREFIX + path, "set", code, info.path, src, loc, lang, f"set {set_label}")
        for card_id in sorted(cards_by_set.get(code, []), key=lambda c: _number_key(c, catalog.cards[c])):
            card = catalog.cards[card_id]
            name = pick(card.get("name"), (), src)
            translated = pick(card.get("name"), (lang,), src)
            shown = name if translated == name else f"{name} ({translated})"
            label = f"{shown} · {set_label} #{card.get('number', '?')}"
            for path, loc in localized_fields(card):
                if src not in loc:
                    continue  # a validation problem (source-language): nothing to translate from
                yield _tstring(card_id, path, field_kind(path), code, catalog.paths[card_id], src, loc, lang, label)


def _tstring(owner: str, path: str, kind: str, code: str, file: Path, src: str, loc: dict, lang: str, label: str) -> TString:
    stored = loc.get("_source") if isinstance(loc.get("_source"), dict) else {}
    h = stored.get(lang)
    text = loc.get(lang)
    return TString(owner=owner, path=path, kind=kind, set_code=code, file=file, source_lang=src,
                   source=str(loc.get(src, "")), lang=lang, translation=text if isinstance(text, str) else None,
                   stored_hash=str(h) if h is not None else None, label=label)


def languages(catalog: Catalog, sets: Iterable[str] | None = None) -> list[str]:
    """Return every target language present in the selected sets (source languages excluded), sorted."""
    found: set[str] = set()
    for code in _selected_sets(catalog, sets):
        info = catalog.sets[code]
        datas = [info.data, *(catalog.cards[c] for c, s in catalog.card_set.items() if s == code)]
        for data in datas:
            for _path, loc in localized_fields(data):
                found.update(k for k in loc if k not in ("_source", info.source_language))
    return sorted(found)


# --- coverage --------------------------------------------------------------------------------

@dataclass
class CoverageRow:
    """Counts for one (language, set, field kind).

    Attributes:
        total: strings in the source language; ``translated``: those with a translation (current or
        outdated); ``outdated``: translations made from an older source text.
    """

    lang: str
    set_code: str
    kind: str
    total: int = 0
    translated: int = 0
    outdated: int = 0

    @property
    def current(self) -> int:
        """Translated and not outdated."""
        return self.translated - self.outdated

    @property
    def missing(self) -> int:
        """Not translated at all."""
        return self.total - self.translated

    @property
    def percent(self) -> float:
        """Current translations as a percentage of ``total`` (100.0 when there is nothing to translate)."""
        return 100.0 * self.current / self.total if self.total else 100.0

    def to_json(self) -> dict:
        """Return a JSON-ready dict of the counts and the percentage (rounded to 0.1)."""
        return {"lang": self.lang, "set": self.set_code, "kind": self.kind, "total": self.total,
                "translated": self.translated, "outdated": self.outdated, "missing": self.missing,
                "percent": round(self.percent, 1)}


@dataclass
class Coverage:
    """Translation coverage: one :class:`CoverageRow` per (language, set, kind) with strings."""

    langs: list[str]
    rows: list[CoverageRow] = field(default_factory=list)

    def total(self, lang: str, set_code: str | None = None) -> CoverageRow:
        """Return the sum of the rows of ``lang`` (and of ``set_code`` when given), kind ``all``."""
        out = CoverageRow(lang, set_code or "all", "all")
        for r in self.rows:
            if r.lang == lang and (set_code is None or r.set_code == set_code):
                out.total += r.total
                out.translated += r.translated
                out.outdated += r.outdated
        return out

    def below(self, percent: float) -> list[str]:
        """Return the languages whose overall coverage is under ``percent``."""
        return [lang for lang in self.langs if self.total(lang).percent < percent]

    def to_json(self) -> dict:
        """Return ``{"languages": [{lang, total..., "sets": [{set, total..., "kinds": [row...]}]}]}``."""
        out = []
        for lang in self.langs:
            sets = []
            for code in dict.fromkeys(r.set_code for r in self.rows if r.lang == lang):
                kinds = [r.to_json() for r in self.rows if r.lang == lang and r.set_code == code]
                sets.append({**self.total(lang, code).to_json(), "kinds": kinds})
            out.append({**self.total(lang).to_json(), "sets": sets})
        return {"languages": out}


def coverage(catalog: Catalog, langs: Sequence[str] | None = None, sets: Iterable[str] | None = None) -> Coverage:
    """Count source strings, translations and outdated translations per language, set and kind.

    Args:
        catalog: the loaded catalog.
        langs: target languages; None or empty: every language present (:func:`languages`), each
            counted only over the sets that hold at least one string in it.
        sets: set codes or aliases, or None for all.

    Returns:
        A :class:`Coverage`; rows are ordered by language, set code, then :data:`KINDS`.

    Raises:
        UsageError: a set code is unknown.
    """
    sets = list(sets) if sets else None
    present_only = not langs
    langs = list(langs) if langs else languages(catalog, sets)
    result = Coverage(langs=langs)
    for lang in langs:
        rows: dict[tuple[str, str], CoverageRow] = {}
        for s in strings(catalog, lang, sets):
            row = rows.setdefault((s.set_code, s.kind), CoverageRow(lang, s.set_code, s.kind))
            row.total += 1
            state = s.state
            row.translated += state != "missing"
            row.outdated += state == "outdated"
        if present_only:
            used = {code for (code, _kind), r in rows.items() if r.translated}
            rows = {key: r for key, r in rows.items() if key[0] in used}
        result.rows.extend(sorted(rows.values(), key=lambda r: (r.set_code, KINDS.index(r.kind))))
    return result


# --- writing translations back ---------------------------------------------------------------

@dataclass(frozen=True)
class Edit:
    """Set ``lang`` to ``text`` in the localized map at ``keys`` and record ``_source[lang] = hash``."""

    keys: tuple
    lang: str
    text: str
    hash: str


@dataclass
class Change:
    """A file to rewrite: its old and new text (``kind``/``game`` select its schema)."""

    path: Path
    kind: str
    game: str
    old: str
    new: str

    def diff(self, roots: Sequence[Path] = ()) -> str:
        """Return a unified diff of the change: ``a/<path>``, ``b/<path>`` relative to the first of
        ``roots`` holding the file, else the absolute path on both sides."""
        old, new = str(self.path), str(self.path)
        for root in roots:
            try:
                rel = self.path.resolve().relative_to(Path(root).resolve()).as_posix()
            except ValueError:
                continue
            old, new = f"a/{rel}", f"b/{rel}"
            break
        return "".join(difflib.unified_diff(self.old.splitlines(keepends=True), self.new.splitlines(keepends=True), old, new))


def _detect_indent(text: str) -> tuple[int, int, int]:
    """Guess ruamel's (mapping, sequence, offset) indentation from a file's block structure."""
    mapping, offset = None, None
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for prev, line in zip(lines, lines[1:]):
        if not prev.rstrip().endswith(":"):
            continue
        parent = len(prev) - len(prev.lstrip(" -"))
        if prev.lstrip().startswith("- "):
            parent = len(prev) - len(prev.lstrip(" ")) + 2
        indent = len(line) - len(line.lstrip(" "))
        if line.lstrip().startswith("- "):
            offset = offset if offset is not None else max(indent - parent, 0)
        elif indent > parent:
            mapping = mapping if mapping is not None else indent - parent
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    offset = offset or 0
    return mapping, max(mapping, offset + 2), offset


def _yaml(text: str, width: int) -> Any:
    from ruamel.yaml import YAML

    yml = YAML(typ="rt")
    yml.preserve_quotes = True
    yml.allow_unicode = True
    yml.width = width
    mapping, sequence, offset = _detect_indent(text)
    yml.indent(mapping=mapping, sequence=sequence, offset=offset)
    if text.lstrip().startswith("---"):
        yml.explicit_start = True
    spelled = re.search(r":[ \t]+(null|Null|NULL|~)[ \t]*(#.*)?$", text, re.MULTILINE)
    if spelled:  # ruamel writes None as nothing; keep the file's own spelling
        word = spelled.group(1)
        yml.representer.add_representer(type(None), lambda r, _d: r.represent_scalar("tag:yaml.org,2002:null", word))
    return yml


def _dump(yml: Any, tree: Any, original: str) -> str:
    buf = io.StringIO()
    yml.dump(tree, buf)
    out = buf.getvalue()
    if not original.endswith("\n") and out.endswith("\n"):
        out = out[:-1]
    return out


def _faithful_yaml(path: Path, text: str) -> tuple[Any, Any]:
    """Return ``(yaml, tree)`` whose dump reproduces ``text`` exactly, or raise DataError."""
    from cardlab.loader import load_roundtrip

    if "&" in text or "*" in text:
        load_roundtrip(path, text)  # refuses anchors and aliases, with their position
    first_diff = None
    for width in (1 << 20, 80):
        yml = _yaml(text, width)
        try:
            tree = yml.load(text)
        except Exception:  # noqa: BLE001 - ruamel's many error types: let the loader position it
            load_roundtrip(path, text)
            raise
        out = _dump(yml, tree, text)
        if out == text:
            return yml, tree
        if first_diff is None:
            old, new = text.splitlines(), out.splitlines()
            first_diff = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    line = (first_diff or 0) + 1
    raise DataError(Problem(SourcePos(path, line, 1),
                            "cannot rewrite this file without changing its layout (line wrapping, indentation or"
                            " spacing from line " f"{line}); edit it by hand or reformat it first", "yaml-layout"))


def render_edits(path: Path, text: str, edits: Sequence[Edit]) -> str:
    """Return ``text`` (a card or set file) with ``edits`` applied, all other bytes unchanged.

    A new language key goes after the existing ones (before ``_source``); ``_source`` is added as a
    flow map (``_source: {fr: 1a2b3c4d}``) at the end of its localized map. An existing
    translation keeps its quoting style.

    Args:
        path: the file (for messages).
        text: its current text.
        edits: the edits, each naming a localized map by its data keys.

    Returns:
        The new text.

    Raises:
        DataError: the file cannot be reproduced byte for byte by ruamel.yaml (rule ``yaml-layout``),
            or an edit names a place that is not a localized map (rule ``unknown-context``).
        LoadError: the file is not valid YAML.
    """
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import LiteralScalarString, ScalarString

    yml, tree = _faithful_yaml(path, text)
    for edit in edits:
        node = tree
        try:
            for k in edit.keys:
                node = node[k]
        except (KeyError, IndexError, TypeError):
            node = None
        if not isinstance(node, dict):
            where = ".".join(str(k) for k in edit.keys)
            raise DataError(Problem(SourcePos(path, 1, 1), f"no localized text at {where}", "unknown-context"))
        value: Any = edit.text
        old = node.get(edit.lang)
        if isinstance(old, ScalarString) and not isinstance(old, LiteralScalarString):
            value = type(old)(edit.text)
        elif "\n" in edit.text.rstrip("\n"):
            value = LiteralScalarString(edit.text)
        if edit.lang in node:
            node[edit.lang] = value
        else:
            at = list(node).index("_source") if "_source" in node else len(node)
            node.insert(at, edit.lang, value)
        src = node.get("_source")
        if src is None:
            src = CommentedMap()
            src.fa.set_flow_style()
            node["_source"] = src
        src[edit.lang] = edit.hash
    return _dump(yml, tree, text)


def _check_text(real: Path, tmp: Path, kind: str, game: str) -> list[Problem]:
    from cardlab.validate import check_file

    _data, problems = check_file(tmp, kind, game)
    return [Problem(SourcePos(real, p.pos.line, p.pos.col), p.message, p.rule) for p in problems]


def check_change(change: Change) -> list[Problem]:
    """Validate a change's new text against the file's schema without touching the file's folder.

    Returns:
        The schema problems of the new text, positioned in the real file (empty when valid).
    """
    with tempfile.TemporaryDirectory(prefix="cardlab-i18n-") as tmpdir:
        tmp = Path(tmpdir) / change.path.name
        tmp.write_text(change.new, encoding="utf-8", newline="")
        return _check_text(change.path, tmp, change.kind, change.game)


def commit(changes: Sequence[Change]) -> tuple[list[Path], list[Problem]]:
    """Write changed files atomically, each only if its new text validates.

    Every new text is first written to a temporary file beside its target (same folder, so the
    final :func:`os.replace` is atomic), flushed to disk and validated with
    :func:`cardlab.validate.check_file`; only then are the valid ones renamed over their targets.
    An interruption leaves each file either old or new, never half-written; leftover temporary
    files are removed on any exception.

    Args:
        changes: the files to rewrite (at most one change per path).

    Returns:
        ``(paths written, problems)``; a file with problems is left as it was.

    Raises:
        OSError: a write or rename failed (files renamed before it stay new, the rest old).
    """
    ready: list[tuple[Change, Path]] = []
    problems: list[Problem] = []
    written: list[Path] = []
    try:
        for change in changes:
            fd, name = tempfile.mkstemp(prefix=f".{change.path.name}.", suffix=".i18n-tmp", dir=change.path.parent)
            tmp = Path(name)
            ready.append((change, tmp))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(change.new)
                f.flush()
                os.fsync(f.fileno())
            try:
                os.chmod(tmp, change.path.stat().st_mode & 0o7777)
            except OSError:
                pass
            found = _check_text(change.path, tmp, change.kind, change.game)
            if found:
                problems.extend(found)
        bad = {p.pos.path for p in problems}
        for change, tmp in ready:
            if change.path in bad:
                continue
            os.replace(tmp, change.path)
            written.append(change.path)
    finally:
        for _change, tmp in ready:
            if tmp.exists():
                tmp.unlink()
    return written, sorted(problems)
