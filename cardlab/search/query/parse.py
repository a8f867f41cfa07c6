"""The query language's parser: tokens (:mod:`cardlab.search.query.tokens`) → a tree of
:class:`~cardlab.search.query.tree.Term`, ``Not``, ``And``, ``Or``, each term checked against its
field's kind. The grammar, loosest first: ``or``; terms side by side or joined by ``and``; ``-`` /
``not`` and parentheses (at most :data:`~cardlab.search.query.tokens.MAX_DEPTH` deep)."""

from __future__ import annotations

from cardlab.core.l10n import _
from cardlab.search.fields import NUMBER, TEXT_OPS
from cardlab.search.fields import kind as field_kind
from cardlab.search.query.tokens import MAX_DEPTH, Token, tokenize
from cardlab.search.query.tree import And, Node, Not, Or, QueryError, Term


def parse(query: str) -> Node | None:
    """Parse a query into a tree of :class:`Term`, :class:`Not`, :class:`And`, :class:`Or`.

    Returns:
        The tree, or None for an empty query (which matches every card).

    Raises:
        QueryError: with the offset of the offending character (unknown field, a comparison on a
            text field, a value that is not a number, unbalanced parentheses, a dangling ``or``...).
    """
    toks = tokenize(query)
    if not toks:
        return None
    parser = _Parser(query, toks)
    tree = parser.parse_or()
    if parser.pos < len(toks):
        t = toks[parser.pos]
        raise QueryError(query, t.pos, _("unmatched ')'") if t.kind == "rparen" else _("unexpected '{token}'").format(token=t.kind))
    return tree


class _Parser:
    """A recursive descent over the tokens of ``query``: ``pos`` is the next token, ``depth`` the
    nesting of parentheses and negations so far."""

    def __init__(self, query: str, toks: list[Token]) -> None:
        self.query, self.toks, self.pos, self.depth = query, toks, 0, 0

    def peek(self) -> Token | None:
        """The next token, or None at the end."""
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def parse_or(self) -> Node:
        """``and-terms ('or' and-terms)*``: one node, or :class:`Or` of several."""
        nodes = [self.parse_and()]
        while (t := self.peek()) is not None and t.kind == "or":
            self.pos += 1
            after = self.peek()
            if after is None or after.kind in ("or", "rparen"):
                raise QueryError(self.query, t.pos, _("'or' needs a term on both sides"))
            nodes.append(self.parse_and())
        return nodes[0] if len(nodes) == 1 else Or(tuple(nodes))

    def parse_and(self) -> Node:
        """``unary (['and'] unary)*`` up to an ``or`` or ``)``: one node, or :class:`And` of several."""
        nodes: list[Node] = []
        while (t := self.peek()) is not None and t.kind not in ("or", "rparen"):
            if t.kind == "and":
                nxt = self.toks[self.pos + 1] if self.pos + 1 < len(self.toks) else None
                if not nodes or nxt is None or nxt.kind in ("or", "rparen", "and"):
                    raise QueryError(self.query, t.pos, _("'and' needs a term on both sides"))
                self.pos += 1
                continue
            nodes.append(self.parse_unary())
        if not nodes:
            t = self.peek()
            raise QueryError(self.query, t.pos if t else len(self.query), _("expected a search term here"))
        return nodes[0] if len(nodes) == 1 else And(tuple(nodes))

    def parse_unary(self) -> Node:
        """``('-' | 'not') unary``, ``'(' or-terms ')'`` or a term (checked by :func:`_check_term`),
        at most :data:`~cardlab.search.query.tokens.MAX_DEPTH` levels deep."""
        t = self.peek()
        assert t is not None
        if t.kind in ("not", "lparen"):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise QueryError(self.query, t.pos, _("nested too deeply (at most {n} levels of '(' and '-')").format(n=MAX_DEPTH))
        if t.kind == "not":
            self.pos += 1
            after = self.peek()
            if after is None or after.kind in ("or", "rparen", "and"):
                raise QueryError(self.query, t.pos, _("'-' and 'not' need a term after them"))
            node = Not(self.parse_unary())
            self.depth -= 1
            return node
        if t.kind == "lparen":
            self.pos += 1
            inner = self.parse_or()
            close = self.peek()
            if close is None or close.kind != "rparen":
                raise QueryError(self.query, t.pos, _("this parenthesis is never closed"))
            self.pos += 1
            self.depth -= 1
            return inner
        self.pos += 1
        _check_term(self.query, t.term)  # type: ignore[arg-type]
        return t.term  # type: ignore[return-value]


def _check_term(query: str, term: Term) -> None:
    """Check a term's operator and value against its field's kind (:func:`cardlab.search.fields.kind`):
    numbers for ``num`` fields (``x`` and ``?`` as text), ``:``, ``=``, ``!=`` only on text.

    Raises:
        QueryError: at the offending operator or character.
    """
    if term.field is None:
        return
    kind = field_kind(term.field)
    op_pos = term.pos - len(term.op) - (1 if term.quoted else 0)
    if kind == "num":
        if term.op in TEXT_OPS and not NUMBER.match(term.value) and term.value.strip().lower() in ("x", "?"):
            return  # printed X or ? (Monpa mana, attack, defense) match as text
        if not NUMBER.match(term.value):
            bad = next((k for k, ch in enumerate(term.value) if not (ch.isdigit() or (k == 0 and ch in "+-") or ch == ".")), 0)
            raise QueryError(query, term.pos + bad, _("'{field}' takes a number, not '{value}'").format(field=term.field, value=term.value))
    elif kind == "number":
        if term.op not in TEXT_OPS and not NUMBER.match(term.value):
            raise QueryError(
                query, term.pos, _("'{field}' takes a number, not '{value}'").format(field=f"{term.field}{term.op}", value=term.value)
            )
    elif term.op not in TEXT_OPS:
        raise QueryError(query, op_pos, _("'{field}' is text: use ':', '=' or '!=', not '{op}'").format(field=term.field, op=term.op))
