"""YAML files -> plain data, and data paths -> positions in the file.

Two loaders, as ``../shared/STYLE.md`` section 4 advises: a fast C-backed safe load (PyYAML's
``CSafeLoader``, about 0.5 ms for a small card) for bulk work, and ruamel.yaml's round-trip load
(about 8 ms) only for files that have problems, to point at the offending line and column.

Card files never need anchors or aliases, so both refuse them: that disarms "billion laughs"
alias bombs before anything expands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from cardlab.core.errors import Problem, SourcePos

try:  # pragma: no cover - depends on how PyYAML was built
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader

MAX_FILE_BYTES = 1_000_000
"""A card or set file larger than this (1 MB) is refused unread."""

_ANCHOR = re.compile(rb"(^|[\s\[{,:-])[&*][^\s,\[\]{}]", re.MULTILINE)


class LoadError(Exception):
    """A file that cannot be turned into data; ``problem`` says where and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


class _NoAliasLoader(_Base):  # type: ignore[misc,valid-type]
    """Safe loader that refuses anchors and aliases (a repeated node is an alias) and a key given
    twice in one mapping (YAML says keys are unique; PyYAML would keep the last silently)."""

    def construct_mapping(self, node, deep=False):  # noqa: ANN001 - PyYAML's signature
        seen: dict = {}
        for key_node, _ in node.value:
            key = key_node.value
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key '{key}' is given twice (first on line {seen[key]})", key_node.start_mark)
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)

    def construct_object(self, node, deep=False):  # noqa: ANN001 - PyYAML's signature
        if node in self.constructed_objects or node in self.recursive_objects:
            mark = node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, "anchors and aliases are not allowed in card files", mark)
        return super().construct_object(node, deep)


def read_text(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file (a BOM is dropped).

    Raises:
        LoadError: the file is missing, larger than ``max_bytes``, or not UTF-8 (the position of
            the first bad byte is given as line and column).
    """
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise LoadError(Problem(SourcePos(path, 1, 1), f"file is {size:,} bytes; the limit is {max_bytes:,}", "file"))
        raw = path.read_bytes()
    except OSError as err:
        raise LoadError(Problem(SourcePos(path, 1, 1), f"cannot read file: {err.strerror or err}", "file")) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        before = raw[: err.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise LoadError(Problem(SourcePos(path, line, col),
                                f"not UTF-8 text (byte 0x{raw[err.start]:02x}); save the file as UTF-8", "encoding")) from None
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        col = nul - (text.rfind("\n", 0, nul) + 1) + 1
        raise LoadError(Problem(SourcePos(path, line, col), "a NUL byte: this is a binary file, not YAML text", "encoding"))
    return text.removeprefix("\ufeff")


def _mark_problem(path: Path, err: yaml.MarkedYAMLError, text: str) -> Problem:
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    what = err.problem or err.context or "invalid YAML"
    lines = text.splitlines()
    if mark and mark.line < len(lines) and lines[mark.line][mark.column:mark.column + 1] == "\t":
        what = "a tab character; indent YAML with spaces"
    elif "another document" in what:
        what = "a second YAML document ('---'); a card file holds one card"
    return Problem(SourcePos(path, line, col), f"YAML syntax: {what}", "yaml")


def load_fast(path: Path, text: str | None = None) -> Any:
    """Load one YAML file as plain data (dicts, lists, str, int, float, bool, None).

    Args:
        path: the file (used for messages; read unless ``text`` is given).
        text: the file's text, if already read.

    Returns:
        The data of the single YAML document.

    Raises:
        LoadError: unreadable, not UTF-8, a YAML syntax error, anchors/aliases, or an empty file.
    """
    if text is None:
        text = read_text(path)
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        raise LoadError(Problem(SourcePos(path, 1, 1), "empty file", "yaml"))
    try:
        data = yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 - a safe loader subclass
    except yaml.MarkedYAMLError as err:
        raise LoadError(_mark_problem(path, err, text)) from None
    except yaml.reader.ReaderError as err:
        line = text.count("\n", 0, err.position) + 1
        col = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        raise LoadError(Problem(SourcePos(path, line, col), f"control character 0x{err.character:02x} is not allowed in YAML text", "yaml")) from None
    except yaml.YAMLError as err:  # pragma: no cover - unmarked errors are rare
        raise LoadError(Problem(SourcePos(path), f"YAML: {err}", "yaml")) from None
    return data


def load_roundtrip(path: Path, text: str | None = None) -> Any:
    """Load a YAML file with ruamel.yaml's round-trip loader (keeps comments, order and positions).

    Returns:
        ruamel's CommentedMap/CommentedSeq tree, whose ``.lc`` gives 0-based positions.

    Raises:
        LoadError: as :func:`load_fast`.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    if text is None:
        text = read_text(path)
    if _ANCHOR.search(text.encode()):
        load_fast(path, text)  # raises the positioned alias error
    yml = YAML(typ="rt")
    try:
        return yml.load(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise LoadError(Problem(SourcePos(path, line, col), f"YAML syntax: {err.problem or err.context}", "yaml")) from None


def position(root: Any, keys: Sequence[str | int], path: Path) -> SourcePos:
    """Return where the value at ``keys`` starts in the file ``path``.

    Args:
        root: the round-trip tree of the file (from :func:`load_roundtrip`).
        keys: a data path such as ``["attacks", 0, "cost"]``; stops at the deepest key that exists.
        path: the file, for the returned position.

    Returns:
        A 1-based :class:`SourcePos` (line 1, column 1 when nothing better is known).
    """
    node = root
    line, col = (getattr(node, "lc", None) and (node.lc.line, node.lc.col)) or (0, 0)
    for key in keys:
        lc = getattr(node, "lc", None)
        if lc is None:
            break
        try:
            if isinstance(key, int):
                line, col = lc.item(key)
            else:
                line, col = lc.value(key)
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    return SourcePos(path, line + 1, col + 1)


def key_position(root: Any, keys: Sequence[str | int], key: str, path: Path) -> SourcePos:
    """Return where the *key* ``key`` of the map at ``keys`` stands (for "unknown field" messages)."""
    node = root
    for k in keys:
        try:
            node = node[k]
        except (KeyError, IndexError, TypeError):
            return position(root, keys, path)
    lc = getattr(node, "lc", None)
    try:
        line, col = lc.key(key)  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        return position(root, keys, path)
    return SourcePos(path, line + 1, col + 1)
