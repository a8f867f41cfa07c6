"""YAML files -> plain data, and data paths -> positions in the file: one reader, one dialect.

Every YAML file cardlab reads (cards, sets, formats, YAML decks) goes through :func:`load`:
libyaml's C parser (PyYAML's ``CParser``, about 0.5 ms for a small card) with the YAML 1.2
resolution rules of ruamel.yaml, the library that writes translations back
(:mod:`cardlab.i18n.writeback`). So what cardlab writes reads back as written: ``no``, ``yes``,
``on``, ``off``, ``y`` and ``n`` are text (a Norwegian ``no:`` key too), ``017`` is seventeen,
``0o17`` is fifteen, ``~`` and ``null`` are null, ``.inf`` is infinity, ``2000-01-01`` is a date.
A plain number with ``_`` (``1_00``) is refused: YAML 1.1 reads 100, YAML 1.2 core reads text; the
message says so and gives the number to write (``write 100``).

The same parse gives the positions of problems (:func:`position`), counted as editors count
lines (``\\n``, ``\\r\\n``, ``\\r``; see :mod:`cardlab.core.inputs`).

Refused with a positioned problem, never a traceback: anchors and aliases ("billion laughs"
bombs), keys that are not text (``null: x``, ``? []``, ``{e,1}``), a key given twice, explicit
tags other than the core ones or whose value does not fit (``!!int x``), nesting deeper than
:data:`MAX_DEPTH`, numbers longer than :data:`MAX_DIGITS` digits.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
import yaml.constructor
import yaml.resolver

from cardlab.core.errors import Problem, SourcePos
from cardlab.core.inputs import MAX_FILE_BYTES, LineIndex, LoadError, read_text

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_FILE_BYTES",
    "LoadError",
    "Positions",
    "describe",
    "key_position",
    "load",
    "load_fast",
    "load_positions",
    "position",
    "read_text",
]

MAX_DEPTH = 64
"""Deepest nesting of lists and maps accepted (cards use about 5)."""

MAX_DIGITS = 1000
"""Longest plain number accepted, in digits."""

_T = "tag:yaml.org,2002:"

# YAML 1.2 resolution, as ruamel.yaml's VersionedResolver has it for version (1, 2).
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_FLOAT = re.compile(
    r"""^(?:
     [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)
_INT = re.compile(
    r"""^(?:[-+]?0b[0-1_]+
    |[-+]?0o?[0-7_]+
    |[-+]?[0-9_]+
    |[-+]?0x[0-9a-fA-F_]+)$""",
    re.X,
)
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_TIMESTAMP = re.compile(
    r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
    |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
    (?:[Tt]|[ \t]+)[0-9][0-9]?
    :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
    (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
    re.X,
)
_MERGE = re.compile(r"^(?:<<)$")

_SCALAR_RULES = {_T + "bool": _BOOL, _T + "float": _FLOAT, _T + "int": _INT, _T + "null": _NULL, _T + "timestamp": _TIMESTAMP}
_KIND_TAGS = {yaml.ScalarNode: {_T + "str", *_SCALAR_RULES}, yaml.SequenceNode: {_T + "seq"}, yaml.MappingNode: {_T + "map"}}

_WHAT = {
    _T + "null": "a YAML null",
    _T + "bool": "a YAML boolean",
    _T + "int": "a YAML integer",
    _T + "float": "a YAML number",
    _T + "timestamp": "a YAML date",
    _T + "merge": "a YAML merge key",
}


class _Resolver(yaml.resolver.BaseResolver):
    """YAML 1.2 implicit types (ruamel.yaml's table): no yes/no/on/off booleans, no sexagesimals.

    :meth:`resolve` is BaseResolver's for a resolver without path resolvers, shortened: the parser
    calls it for every node of every file."""

    def descend_resolver(self, current_node: yaml.Node | None, current_index: object) -> None:
        return None  # no path resolvers: nothing to track

    def ascend_resolver(self) -> None:
        return None

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            if implicit[0]:
                for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], ()):
                    if regexp.match(value):
                        return tag
            return self.DEFAULT_SCALAR_TAG
        return self.DEFAULT_SEQUENCE_TAG if kind is yaml.SequenceNode else self.DEFAULT_MAPPING_TAG


for _tag, _rx, _first in [
    ("bool", _BOOL, "tTfF"),
    ("float", _FLOAT, "-+0123456789."),
    ("int", _INT, "-+0123456789"),
    ("merge", _MERGE, "<"),
    ("null", _NULL, ["~", "n", "N", ""]),
    ("timestamp", _TIMESTAMP, "0123456789"),
]:
    _Resolver.add_implicit_resolver(_T + _tag, _rx, list(_first))


class _Constructor(yaml.constructor.SafeConstructor):
    """SafeConstructor with YAML 1.2 integers (``017`` is 17, ``0o17`` is 15)."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        value = self.construct_scalar(node).replace("_", "")
        sign = -1 if value[:1] == "-" else 1
        value = value.lstrip("+-")
        for prefix, base in (("0b", 2), ("0o", 8), ("0x", 16)):
            if value.startswith(prefix):
                return sign * int(value[2:], base)
        return sign * int(value, 10)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> datetime.date | datetime.datetime:
        """PyYAML's timestamp, with ruamel.yaml's rounding of a fraction longer than microseconds
        (``.0000005`` is 1 µs, as ruamel writes and reads it back), so both read one value."""
        value = super().construct_yaml_timestamp(node)
        m = self.timestamp_regexp.match(node.value)
        fraction = (m.group("fraction") or "") if m else ""
        if len(fraction) > 6 and int(fraction[6]) > 4 and isinstance(value, datetime.datetime):
            value += datetime.timedelta(microseconds=1)
        return value


_Constructor.add_constructor(_T + "int", _Constructor.construct_yaml_int)
_Constructor.add_constructor(_T + "timestamp", _Constructor.construct_yaml_timestamp)

_DATES = _Constructor()
"""Checks dates before the document is built (an impossible date is a positioned problem)."""

try:  # pragma: no cover - depends on how PyYAML was built
    from yaml.cyaml import CParser as _Parser

    _LIBYAML = True

    class _Loader(_Parser, _Constructor, _Resolver):
        def __init__(self, stream: str) -> None:
            _Parser.__init__(self, stream)
            _Constructor.__init__(self)
            _Resolver.__init__(self)
except ImportError:  # pragma: no cover
    _LIBYAML = False
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Loader(Reader, Scanner, Parser, Composer, _Constructor, _Resolver):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)
            _Constructor.__init__(self)
            _Resolver.__init__(self)


class Positions:
    """Where a node of the file starts (a character offset, see :meth:`line_col`) and, for maps and
    lists, where its keys and items are: read from the parse's own nodes when first asked (a valid
    file, the usual case, never asks), so the walk that builds the data builds nothing else.

    Attributes:
        at: the node's start, a character offset into the text.
        keys: for a map, key -> ``(offset of the key, Positions of its value)``; else None.
        items: for a list, the Positions of each item; else None.
        lines: set on the root: turns offsets into lines and columns.
        plain_json: set on the root: True when the data holds no float and no date, only values
            JSON has and that a JSON Schema validator types as YAML 1.2 does (it counts ``4.0``
            as an integer).
    """

    __slots__ = ("_items", "_keys", "lines", "node", "plain_json")

    def __init__(self, node: yaml.Node, lines: LineIndex | None = None, plain_json: bool = False) -> None:
        self.node = node
        self.lines = lines
        self.plain_json = plain_json
        self._keys: dict[Any, tuple[int, Positions]] | None = None
        self._items: list[Positions] | None = None

    @property
    def at(self) -> int:
        return self.node.start_mark.index

    @property
    def keys(self) -> dict[Any, tuple[int, Positions]] | None:
        if self._keys is None and isinstance(self.node, yaml.MappingNode):
            self._keys = {}
            for key, value in self.node.value:  # keys are text and unique once load() returned
                self._keys.setdefault(key.value, (key.start_mark.index, Positions(value)))
        return self._keys

    @property
    def items(self) -> list[Positions] | None:
        if self._items is None and isinstance(self.node, yaml.SequenceNode):
            self._items = [Positions(item) for item in self.node.value]
        return self._items

    def line_col(self, index: int) -> tuple[int, int]:
        """The 1-based (line, column) of a character offset (call on the root)."""
        return self.lines.line_col(index) if self.lines is not None else (1, 1)


def describe(value: Any) -> str:
    """What YAML reads ``value`` as, in words: ``a YAML boolean``, ``a YAML date``, ``text``..."""
    if value is None:
        return "a YAML null"
    # bool before int (a bool is an int in Python)
    kinds = (
        (bool, "a YAML boolean"),
        (int, "a YAML integer"),
        (float, "a YAML number"),
        ((datetime.date, datetime.datetime), "a YAML date"),
        (str, "text"),
        (dict, "a map"),
        (list, "a list"),
    )
    return next((words for kind, words in kinds if isinstance(value, kind)), type(value).__name__)


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_T) :] if tag.startswith(_T) else tag


def _problem(path: Path, lines: LineIndex, mark: Any, message: str, rule: str = "yaml") -> LoadError:
    line, col = lines.line_col(mark.index) if mark is not None else (1, 1)
    return LoadError(Problem(SourcePos(path, line, col), message, rule))


def _syntax_problem(path: Path, err: yaml.MarkedYAMLError, text: str, lines: LineIndex) -> LoadError:
    mark = err.problem_mark or err.context_mark
    what = err.problem or err.context or "invalid YAML"
    if mark is not None and text[mark.index : mark.index + 1] == "\t":
        what = "a tab character; indent YAML with spaces"
    elif "another document" in what:
        what = "a second YAML document ('---'); a card file holds one card"
    elif "maximum nesting depth" in what or "exceeded" in what:
        what = f"lists and maps nested too deep (at most {MAX_DEPTH} levels)"
    return _problem(path, lines, mark, f"YAML syntax: {what}")


_STR = _T + "str"
_INT_TAG = _T + "int"
_NOT_JSON = {_T + "float", _T + "timestamp"}

_SCALAR_VALUES = {
    _T + "str": lambda node: node.value,
    _T + "null": lambda node: None,
    _T + "bool": lambda node: _DATES.construct_yaml_bool(node),
    _T + "int": lambda node: _DATES.construct_yaml_int(node),
    _T + "float": lambda node: _DATES.construct_yaml_float(node),
}
"""The value of a scalar of each accepted tag, as PyYAML's SafeConstructor (with YAML 1.2
integers, :class:`_Constructor`) builds it; timestamps are built while they are checked."""


def _check(path: Path, root: yaml.Node, lines: LineIndex) -> tuple[Any, bool]:
    """Walk the composed nodes (iteratively): refuse what cardlab files never hold and build the
    data in the same walk (no second pass of PyYAML's constructor). Returns ``(data, True when it
    holds no float and no date)``. Raises LoadError at the first refused node, in document order."""
    # an alias makes one node appear twice; without '&' and '*' in the text there is none to find
    seen: set[int] | None = set() if ("&" in lines.text or "*" in lines.text) else None
    out: list[Any] = [None]
    plain = True  # no float, no date (yet)
    # (node, depth, the list or dict that holds its value, its index or key there)
    stack: list[tuple[yaml.Node, int, Any, Any]] = [(root, 1, out, 0)]
    scalar = yaml.ScalarNode
    while stack:
        node, depth, holder, slot = stack.pop()
        if seen is not None:
            if id(node) in seen:
                raise _problem(path, lines, node.start_mark, "YAML syntax: anchors and aliases are not allowed in cardlab files")
            seen.add(id(node))
        if depth > MAX_DEPTH:
            raise _problem(path, lines, node.start_mark, f"lists and maps nested too deep (at most {MAX_DEPTH} levels)")
        tag = node.tag
        if tag == _STR and type(node) is scalar:  # most values: text
            holder[slot] = node.value
            continue
        if tag not in _KIND_TAGS[type(node)]:
            name = _tag_name(tag)
            raise _problem(path, lines, node.start_mark, f"the tag {name} is not used in cardlab files; remove it")
        if isinstance(node, scalar):
            rule = _SCALAR_RULES.get(tag)
            if rule is not None and not rule.match(node.value):
                raise _problem(path, lines, node.start_mark, f"{_tag_name(tag)} '{node.value}' is not {_WHAT[tag]}")
            if tag == _T + "timestamp":
                plain = False
                try:
                    holder[slot] = _DATES.construct_yaml_timestamp(node)
                except (ValueError, OverflowError):
                    raise _problem(
                        path, lines, node.start_mark, f"'{node.value}' reads as a date but is not one; quote it if it is text"
                    ) from None
                continue
            if tag in (_T + "int", _T + "float") and not node.style:
                if "_" in node.value:
                    raise _problem(
                        path,
                        lines,
                        node.start_mark,
                        (
                            f"'{node.value}': YAML 1.2 reads {node.value} as text (YAML 1.1 as a number);"
                            f" write {node.value.replace('_', '')}, or quote it if it is text"
                        ),
                    )
                # hexadecimal letters are digits too: 0x and 5,000 f's is a 6,000-digit integer,
                # past Python's int-string limit in every message that prints it (issue 33)
                digits = sum((ch.isalnum() if tag == _INT_TAG else ch.isdigit()) for ch in node.value)
                if digits > MAX_DIGITS:
                    raise _problem(
                        path, lines, node.start_mark, f"a number of {digits:,} digits (at most {MAX_DIGITS:,}); quote it if it is text"
                    )
            if tag == _INT_TAG and node.value.isdigit() and node.value.isascii():
                holder[slot] = int(node.value)  # most numbers: plain decimal digits
            else:
                plain = plain and tag not in _NOT_JSON
                holder[slot] = _SCALAR_VALUES[tag](node)
            continue
        # a text value below is set at once when nothing can be refused about it (no alias to
        # look for, not too deep): the walk's stack holds only what needs a look
        direct = seen is None and depth < MAX_DEPTH
        todo: list[tuple[yaml.Node, int, Any, Any]] = []
        if isinstance(node, yaml.SequenceNode):
            items: list[Any] = [None] * len(node.value)
            holder[slot] = items
            for i, item in enumerate(node.value):
                if direct and item.tag == _STR and type(item) is scalar:
                    items[i] = item.value
                else:
                    todo.append((item, depth + 1, items, i))
            stack.extend(reversed(todo))
            continue
        mapping: dict[str, Any] = {}
        holder[slot] = mapping
        for key, value in node.value:
            if not (type(key) is scalar and key.tag == _STR):
                if isinstance(key, scalar):
                    what = _WHAT.get(key.tag, _tag_name(key.tag))
                    shown = f"'{key.value}'" if key.value else "nothing"
                    fix = f"; quote it: '{key.value}':" if key.value and key.tag in _WHAT else ""
                    message = f"a key must be text, but {shown} is {what}{fix}"
                else:
                    message = f"a key must be text, not a {'list' if isinstance(key, yaml.SequenceNode) else 'map'}"
                raise _problem(path, lines, key.start_mark, message)
            name = key.value
            if name in mapping:
                first = next(k for k, _v in node.value if k.value == name)
                line = lines.line_col(first.start_mark.index)[0]
                raise _problem(path, lines, key.start_mark, f"YAML syntax: the key '{name}' is given twice (first on line {line})")
            if direct and value.tag == _STR and type(value) is scalar:
                mapping[name] = value.value
            else:
                mapping[name] = None  # keeps the file's key order; the value is set when its node is walked
                todo.append((value, depth + 1, mapping, name))
        stack.extend(reversed(todo))
    return out[0], plain


def load(path: Path, text: str | None = None) -> tuple[Any, Positions]:
    """Load one YAML file as plain data and the positions of its parts.

    Args:
        path: the file (used for messages; read unless ``text`` is given).
        text: the file's text, if already read.

    Returns:
        ``(data, positions)``: the data of the single YAML document (dicts with text keys, lists,
        str, int, float, bool, None, dates) and a :class:`Positions` tree for :func:`position`.

    Raises:
        LoadError: unreadable, not UTF-8, a YAML syntax error, an empty file, or anything the
            module docstring lists as refused; always with line and column.
    """
    if text is None:
        text = read_text(path)
    lines = LineIndex(text)
    stand_ins = _stand_ins(text)
    source = text.translate(stand_ins) if stand_ins else text
    loader = _Loader(source)
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as err:
            raise _syntax_problem(path, err, text, lines) from None
        except yaml.reader.ReaderError as err:
            index = err.position
            if _LIBYAML:
                index = len(source.encode("utf-8")[: err.position].decode("utf-8", errors="ignore"))  # libyaml: a byte offset
            line, col = lines.line_col(index)
            raise LoadError(
                Problem(SourcePos(path, line, col), f"control character 0x{err.character:02x} is not allowed in YAML text", "yaml")
            ) from None
        except yaml.YAMLError as err:  # pragma: no cover - unmarked errors are rare
            raise LoadError(Problem(SourcePos(path, 1, 1), f"YAML: {err}", "yaml")) from None
        if root is None:
            raise LoadError(Problem(SourcePos(path, 1, 1), "empty file", "yaml"))
        try:
            data, plain = _check(path, root, lines)
            positions = Positions(root, lines, plain)
        except (ValueError, TypeError, KeyError, OverflowError) as err:  # pragma: no cover - _check screens values first
            raise LoadError(Problem(SourcePos(path, 1, 1), f"YAML: {err}", "yaml")) from None
    finally:
        loader.dispose()
    if stand_ins:
        data = _restore(data, {v: k for k, v in stand_ins.items()})
    return data, positions


_NOT_BREAKS = "\x85\u2028\u2029"
"""NEL, LS and PS: line breaks to YAML 1.1 and libyaml, ordinary characters to YAML 1.2 and editors."""


def _stand_ins(text: str) -> dict[int, int]:
    """Map each of :data:`_NOT_BREAKS` in ``text`` to a private-use character absent from it (one
    code point for one, so every offset stays), so that libyaml reads them as content."""
    present = [ch for ch in _NOT_BREAKS if ch in text]
    if not present:
        return {}
    free = (cp for cp in range(0xF0000, 0xFFFFE) if chr(cp) not in text)
    return {ord(ch): next(free) for ch in present}


def _restore(data: Any, back: dict[int, int]) -> Any:
    if isinstance(data, str):
        return data.translate(back)
    if isinstance(data, dict):
        return {_restore(k, back): _restore(v, back) for k, v in data.items()}
    if isinstance(data, list):
        return [_restore(v, back) for v in data]
    return data


def load_fast(path: Path, text: str | None = None) -> Any:
    """Load one YAML file as plain data (see :func:`load`)."""
    return load(path, text)[0]


def load_positions(path: Path, text: str | None = None) -> Positions:
    """Return the :class:`Positions` of a YAML file (see :func:`load`)."""
    return load(path, text)[1]


def position(root: Positions | None, keys: Sequence[str | int], path: Path) -> SourcePos:
    """Return where the value at ``keys`` starts in the file ``path``.

    Args:
        root: the positions of the file (from :func:`load`), or None.
        keys: a data path such as ``["attacks", 0, "cost"]``; stops at the deepest key that exists.
        path: the file, for the returned position.

    Returns:
        A 1-based :class:`SourcePos` (line 1, column 1 when nothing better is known).
    """
    if root is None:
        return SourcePos(path, 1, 1)
    node = root
    for key in keys:
        if node.keys is not None and not isinstance(key, int) and key in node.keys:
            node = node.keys[key][1]
        elif node.items is not None and isinstance(key, int) and 0 <= key < len(node.items):
            node = node.items[key]
        else:
            break
    return SourcePos(path, *root.line_col(node.at))


def key_position(root: Positions | None, keys: Sequence[str | int], key: str, path: Path) -> SourcePos:
    """Return where the *key* ``key`` of the map at ``keys`` stands (for "unknown field" messages)."""
    node = root
    for k in keys:
        if node is None:
            break
        if node.keys is not None and not isinstance(k, int) and k in node.keys:
            node = node.keys[k][1]
        elif node.items is not None and isinstance(k, int) and 0 <= k < len(node.items):
            node = node.items[k]
        else:
            node = None
    if root is None or node is None or node.keys is None or key not in node.keys:
        return position(root, keys, path)
    return SourcePos(path, *root.line_col(node.keys[key][0]))
