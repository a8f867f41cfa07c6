"""Writing translations back into card and set files, keeping their layout byte for byte.

:func:`render_edits` applies :class:`Edit` values (a translation and its ``_source`` hash, see
:mod:`cardlab.i18n.strings`) to a file's text with ruamel.yaml's round-trip mode, so comments, key order,
flow maps and quoting of untouched lines stay as they are; a file ruamel would reformat is refused
(rule ``yaml-layout``). :func:`commit` replaces files atomically, and only when the new text still
validates. ruamel.yaml is imported inside the functions that need it. See docs/TRANSLATING.md.
"""

from __future__ import annotations

import difflib
import io
import os
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from cardlab.catalog.filecheck import check_file
from cardlab.core.errors import DataError, Problem, SourcePos
from cardlab.core.fs import process_alive
from cardlab.core.inputs import LoadError, split_lines
from cardlab.core.progress import step, uninterrupted
from cardlab.core.yamlio import load_fast


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

        return "".join(difflib.unified_diff(split_lines(self.old, keepends=True), split_lines(self.new, keepends=True), old, new))


def _detect_indent(text: str) -> tuple[int, int, int]:
    """Guess ruamel's (mapping, sequence, offset) indentation from a file's block structure."""
    mapping, offset = None, None

    lines = [ln for ln in split_lines(text) if ln.strip() and not ln.lstrip().startswith("#")]
    for prev, line in zip(lines, lines[1:], strict=False):
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
    from ruamel.yaml import YAML  # lazy: ruamel.yaml (220 ms cold), only to write translations back

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

    if "&" in text or "*" in text:
        load_fast(path, text)  # refuses anchors and aliases, with their position
    first_diff = None
    for width in (1 << 20, 80):
        yml = _yaml(text, width)
        try:
            tree = yml.load(text)
        except Exception:  # noqa: BLE001 - ruamel's many error types: let the loader position it
            load_fast(path, text)
            raise DataError(Problem(SourcePos(path, 1, 1), "cannot rewrite this file: ruamel.yaml cannot read it", "yaml-layout")) from None
        out = _dump(yml, tree, text)
        if out == text:
            return yml, tree
        if first_diff is None:
            old, new = split_lines(text), split_lines(out)
            first_diff = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    line = (first_diff or 0) + 1
    raise DataError(
        Problem(
            SourcePos(path, line, 1),
            "cannot rewrite this file without changing its layout (line wrapping, indentation or"
            " spacing from line "
            f"{line}); edit it by hand or reformat it first",
            "yaml-layout",
        )
    )


_NEEDS_ESCAPES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
"""Characters a translation keeps only inside a double-quoted YAML string (as escapes): ``\\r``
(a ``\\r\\n`` inside a translation), NEL, LS, PS and other control characters."""


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
    from ruamel.yaml.comments import CommentedMap  # lazy: ruamel.yaml (220 ms cold), only to write translations back
    from ruamel.yaml.scalarstring import (  # lazy: ruamel.yaml (220 ms cold), only to write translations back
        DoubleQuotedScalarString,
        LiteralScalarString,
        ScalarString,
    )

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
        if _NEEDS_ESCAPES.search(edit.text):
            value = DoubleQuotedScalarString(edit.text)  # \r, NEL, LS, PS, controls: escaped, never folded
        elif isinstance(old, ScalarString) and not isinstance(old, LiteralScalarString):
            value = type(old)(edit.text)
        elif "\n" in edit.text.rstrip("\n"):
            value = LiteralScalarString(edit.text)
        if edit.lang in node:
            node[edit.lang] = value
        else:
            at = list(node).index("_source") if "_source" in node else len(node)
            cast(Any, node).insert(at, edit.lang, value)  # a ruamel CommentedMap: insert keeps the key order
        src = node.get("_source")
        if src is None:
            src = CommentedMap()
            src.fa.set_flow_style()
            node["_source"] = src
        src[edit.lang] = edit.hash
    return _dump(yml, tree, text)


def read_back_differs(path: Path, new: str, edits: Sequence[Edit]) -> dict[Edit, str]:
    """The edits whose text the file's new text ``new`` does not read back equal (as cardlab reads
    files: :func:`cardlab.core.yamlio.load_fast`), with what it reads instead (``""`` for nothing):
    the check that an import writes every text as the PO file gave it, or refuses it (issue 33).
    A new text that is not YAML at all is left to the validation (empty result)."""
    try:
        data = load_fast(path, new)
    except LoadError:
        return {}
    out: dict[Edit, str] = {}
    for edit in edits:
        node: Any = data
        for k in (*edit.keys, edit.lang):
            try:
                node = node[k]
            except (KeyError, IndexError, TypeError):
                node = None
                break
        if node != edit.text:
            out[edit] = node if isinstance(node, str) else ""
    return out


def _check_text(real: Path, tmp: Path, kind: str, game: str) -> list[Problem]:

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


TEMP_SUFFIX = ".i18n-tmp"
"""The suffix of :func:`commit`'s temporary files: ``.<file name>.<pid>-<random>.i18n-tmp`` beside
the file they replace (never read as card files: they do not end in ``.yaml``)."""

_TEMP = re.compile(r"\..+\.(\d+)-[^.]*\.i18n-tmp")

STALE_SECONDS = 86400
"""A temporary file of an older cardlab (no process id in its name) older than this is a leftover."""


def sweep_stale(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed ``i18n import`` left in ``folder`` (issue 33): those
    named with the id of a process that no longer runs, and unnamed older ones (no process id)
    untouched for :data:`STALE_SECONDS`. Files that cannot be removed are left; best effort.

    Returns:
        The files removed.
    """
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        if not entry.name.endswith(TEMP_SUFFIX) or not entry.name.startswith("."):
            continue
        m = _TEMP.fullmatch(entry.name)
        try:
            stale = not process_alive(int(m.group(1))) if m else entry.stat().st_mtime < now - STALE_SECONDS
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def commit(changes: Sequence[Change], whole: bool = False) -> tuple[list[Path], list[Problem]]:
    """Write changed files atomically, each only if its new text validates.

    Every new text is first written to a temporary file beside its target (same folder, so the
    final :func:`os.replace` is atomic), flushed to disk and validated with
    :func:`cardlab.catalog.filecheck.check_file`; only then are the valid ones renamed over their targets.
    An interruption leaves each file either old or new, never half-written; leftover temporary
    files are removed on any exception. Ctrl-C (``KeyboardInterrupt``) while the files are written
    and checked changes nothing; once the renames begin, it waits until they are all done
    (:func:`cardlab.core.progress.uninterrupted`).

    Args:
        changes: the files to rewrite (at most one change per path).
        whole: all or nothing: when any file has problems, none is written.

    Returns:
        ``(paths written, problems)``; a file with problems is left as it was (with ``whole``,
        every file then is).

    Raises:
        OSError: a write or rename failed (files renamed before it stay new, the rest old).
    """
    ready: list[tuple[Change, Path]] = []
    problems: list[Problem] = []
    written: list[Path] = []
    for folder in sorted({change.path.parent for change in changes}):
        sweep_stale(folder)
    try:
        for n, change in enumerate(changes):
            step("writing files", n, len(changes))
            fd, name = tempfile.mkstemp(prefix=f".{change.path.name}.{os.getpid()}-", suffix=TEMP_SUFFIX, dir=change.path.parent)
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
        if whole and bad:
            bad = {change.path for change in changes}
        with uninterrupted():  # Ctrl-C before here changed nothing; from here every rename happens
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
