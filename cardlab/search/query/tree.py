"""The tree of a parsed query: :class:`Term`, :class:`Not`, :class:`And`, :class:`Or`; its walks
(:func:`terms`, :func:`replace_terms`); and :class:`QueryError`, which every step of the query
language raises with the offending character's offset."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from cardlab.core.errors import UsageError
from cardlab.core.text import ECHO_CHARS, cell_width, clip, visible


@dataclass(frozen=True)
class Term:
    """A search term: ``field`` (None for a bare word), ``op``, ``value``; ``pos`` of the value
    in the query (0-based); ``quoted`` for a "phrase"."""

    field: str | None
    op: str
    value: str
    pos: int
    quoted: bool = False


@dataclass(frozen=True)
class Not:
    """Negation of ``node``."""

    node: Node


@dataclass(frozen=True)
class And:
    """All of ``nodes``."""

    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    """Any of ``nodes``."""

    nodes: tuple[Node, ...]


Node = Union[Term, Not, And, Or]


class QueryError(UsageError):
    """A query that cannot be understood. ``pos`` is the 0-based offset of the offending character."""

    def __init__(self, query: str, pos: int, message: str) -> None:
        self.query, self.pos, self.reason = query, pos, message
        super().__init__(f"{message} (column {pos + 1})")

    def caret(self) -> str:
        """Return the query and a caret under the offending character, on two lines (wide
        characters such as Japanese take two columns: :func:`cardlab.core.text.cell_width`); control
        characters written as escapes (:func:`cardlab.core.text.visible`), the caret under the escape.
        A query longer than :data:`~cardlab.core.text.ECHO_CHARS` shows that many characters around
        the offending one, ``…`` where it is cut."""
        q, pos = self.query, self.pos
        head = tail = ""
        if len(q) > ECHO_CHARS:
            start = max(0, min(pos - ECHO_CHARS // 2, len(q) - ECHO_CHARS))
            head, tail = ("…" if start else ""), ("…" if start + ECHO_CHARS < len(q) else "")
            q, pos = q[start : start + ECHO_CHARS], pos - start
        return f"{head}{visible(q)}{tail}\n{' ' * cell_width(head + visible(q[:pos]))}^"

    @property
    def shown_query(self) -> str:
        """The query as an error quotes it (:func:`cardlab.core.text.clip`)."""
        return clip(self.query)


def terms(node: Node | None) -> list[Term]:
    """Every :class:`Term` of a parsed query, in query order."""
    if node is None:
        return []
    if isinstance(node, Term):
        return [node]
    if isinstance(node, Not):
        return terms(node.node)
    return [t for n in node.nodes for t in terms(n)]


def replace_terms(node: Node | None, new: dict[int, Term]) -> Node | None:
    """Return the tree with each term whose ``pos`` is a key of ``new`` replaced by its value."""
    if node is None:
        return None
    if isinstance(node, Term):
        return new.get(node.pos, node)
    if isinstance(node, Not):
        return Not(replace_terms(node.node, new))  # type: ignore[arg-type]
    kind = type(node)
    return kind(tuple(replace_terms(n, new) for n in node.nodes))  # type: ignore[misc]
