"""The query language's tokens: a query's text cut into terms, parentheses and operators, within
the limits of a query (:data:`MAX_QUERY_CHARS`, :data:`MAX_TERMS`, :data:`MAX_TOKENS`)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from cardlab.core.fuzzy import did_you_mean, suggest
from cardlab.core.l10n import _, either
from cardlab.core.text import fold, is_quote
from cardlab.search.fields import ALIASES, DISPLAY_KEYWORDS, EDITION_WORDS, FIELDS, IS_ALIASES, IS_VALUES
from cardlab.search.query.tree import QueryError, Term

_FIELD_TERM = re.compile(r"([A-Za-z_]+)(<=|>=|!=|:|=|<|>)")


@dataclass(frozen=True)
class Token:
    """One token of a query: ``kind`` (term, lparen, rparen, or, and, not), its offset ``pos``
    and, for a term, the :class:`~cardlab.search.query.tree.Term`."""

    kind: str  # term | lparen | rparen | or | not
    pos: int
    term: Term | None = None


def _read_quoted(q: str, i: int) -> tuple[str, int]:
    end = q.find('"', i + 1)
    if end < 0:
        raise QueryError(q, i, _("this quote is never closed"))
    return q[i + 1 : end], end + 1


MAX_QUERY_CHARS = 1000
"""Longest query accepted (characters)."""
MAX_TERMS = 64
"""Most search terms (field:value, words, phrases) in one query."""
MAX_TOKENS = 4 * MAX_TERMS
"""Most terms, operators and parentheses in one query, all counted."""
MAX_DEPTH = 16
"""Deepest nesting of parentheses and negations."""


def _same_width(ch: str) -> str:
    """One character as the tokenizer reads it: a typographic double quote is ``"``; a full-width
    form is its NFKC form (``：`` is ``:``) when that is one character, so offsets stay the same."""
    if ch.isascii():
        return ch
    if is_quote(ch):
        return '"'
    norm = unicodedata.normalize("NFKC", ch)
    return norm if len(norm) == 1 else ch


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
"""Control characters that are not white space: refused (a NUL would end a LIKE pattern in SQLite,
turning ``name:<NUL>pika`` into "any name")."""

_SURROGATE = re.compile("[\ud800-\udfff]")
"""Lone surrogates (a query that is not Unicode text, e.g. an argument that was not UTF-8): refused
(SQLite would raise UnicodeEncodeError)."""


def tokenize(query: str) -> list[Token]:
    """Cut ``query`` into tokens: terms (bare words, "phrases", ``field:value``), parentheses,
    ``or``, ``and``, ``not`` and ``-``. Typographic quotes read as ``"`` and full-width forms as
    their ASCII twins, offsets unchanged (:func:`_same_width`); field names and their short forms
    are checked against :data:`cardlab.search.fields.FIELDS` and :data:`~cardlab.search.fields.ALIASES`.

    Raises:
        QueryError: a query over :data:`MAX_QUERY_CHARS`, :data:`MAX_TERMS` or :data:`MAX_TOKENS`,
            a control character, an unclosed quote, an unknown field, a field with no value, a
            word with no letter or digit; at the offending character.
    """
    lone = _SURROGATE.search(query)
    if lone:  # not Unicode text: SQLite cannot take it (UnicodeEncodeError), the CLI and web refuse it too
        shown = query.encode("utf-8", "backslashreplace").decode()  # the caret line must print
        raise QueryError(
            shown,
            len(query[: lone.start()].encode("utf-8", "backslashreplace").decode()),
            _("{char} is half of a surrogate pair, not a character: the query is not Unicode text").format(
                char=f"U+{ord(lone.group()):04X}"
            ),
        )
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(query, MAX_QUERY_CHARS, _("the query is too long (at most {n} characters)").format(n=MAX_QUERY_CHARS))
    control = _CONTROL.search(query)
    if control:
        raise QueryError(
            query, control.start(), _("control character {char} is not allowed in a query").format(char=f"U+{ord(control.group()):04X}")
        )
    q = "".join(_same_width(ch) for ch in query)
    try:
        return _tokens_of(q)
    except QueryError as err:
        raise QueryError(query, err.pos, err.reason) from None


def _tokens_of(q: str) -> list[Token]:
    """:func:`tokenize` of ``q``, its characters as the tokenizer reads them (:func:`_same_width`)."""
    toks: list[Token] = []
    i, n = 0, len(q)
    while i < n:
        ch = q[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            toks.append(Token("lparen", i))
            i += 1
        elif ch == ")":
            toks.append(Token("rparen", i))
            i += 1
        elif ch == "-" and (i + 1 >= n or q[i + 1].isspace()):
            raise QueryError(q, i, _("'-' needs a term right after it (-type:fire)"))
        elif (
            ch == "-"
            and i + 1 < n
            and not q[i + 1].isspace()
            and (not toks or toks[-1].kind != "term" or q[i - 1].isspace() or q[i - 1] == "(")
        ):
            toks.append(Token("not", i))
            i += 1
        elif ch == "!" and (i + 1 >= n or q[i + 1].isspace() or q[i + 1] in "()="):
            raise QueryError(q, i, _("'!' needs a name right after it: !\"Dark Charizard\" or !pikachu finds that exact name"))
        elif ch == "!":
            # Scryfall's exact name: !"Dark Charizard", !pikachu (name=... by another spelling)
            if q[i + 1] == '"':
                value, j = _read_quoted(q, i + 1)
                vpos = i + 2
            else:
                j = i + 1
                while j < n and not q[j].isspace() and q[j] not in '()"':
                    j += 1
                value, vpos = q[i + 1 : j], i + 1
            if not re.search(r"\w", fold(value)):
                raise QueryError(q, vpos, _("this name has no letters or digits to search for"))
            toks.append(Token("term", i, Term("name", "=", value, vpos, q[i + 1] == '"')))
            i = j
        elif ch == '"':
            value, j = _read_quoted(q, i)
            if not re.search(r"\w", fold(value)):
                raise QueryError(q, i, _("this phrase has no letters or digits to search for"))
            toks.append(Token("term", i, Term(None, ":", value, i + 1, True)))
            i = j
        else:
            j = i
            while j < n and not q[j].isspace() and q[j] not in '()"':
                j += 1
            word = q[i:j]
            m = _FIELD_TERM.match(word)
            if m and m.group(1).lower() == "not" and m.group(2) == ":":
                # Scryfall's not:reprint is -is:reprint
                term, j = _field_term(q, i + 4, j, _FIELD_TERM.match("is:" + word[4:]), shown="not")  # type: ignore[arg-type]
                toks.append(Token("not", i))
                toks.append(Token("term", i, term))
            elif m:
                term, j = _field_term(q, i, j, m)
                toks.append(Token("term", i, term))
            elif word.lower() == "or":
                toks.append(Token("or", i))
            elif word.lower() == "and":
                toks.append(Token("and", i))
            elif word.lower() == "not":
                toks.append(Token("not", i))
            elif word[0] in ":=<>!":
                raise QueryError(q, i, _("'{op}' needs a field name before it (e.g. type{op}...)").format(op=word[0]))
            else:
                if not re.search(r"\w", fold(word)):
                    shown = f'"{word}"' if "'" in word else f"'{word}'"  # a quote mark is not quoted with itself
                    raise QueryError(
                        q, i, _("{word} has no letters or digits to search for; quote it as part of a phrase").format(word=shown)
                    )
                toks.append(Token("term", i, Term(None, ":", word, i)))
            i = j
    _check_limits(q, toks)
    return toks


def _field_term(q: str, i: int, j: int, m: re.Match[str], shown: str | None = None) -> tuple[Term, int]:
    """The ``field:value`` term of the word ``q[i:j]`` (``m``: its field and operator matched by
    :data:`_FIELD_TERM`), the value quoted when a phrase follows the operator (``name:"mr. mime"``).

    Returns:
        ``(term, offset after it)``; the field is its full name (:data:`~cardlab.search.fields.ALIASES`).

    Raises:
        QueryError: an unknown field (with "did you mean" among fields and the longer short forms),
            no value, or a ``text:`` value with no letter or digit.
    """
    field_raw, op = m.group(1), m.group(2)
    if shown is not None:  # not:VALUE read as is:VALUE; i is its value's offset
        vpos, value = i, q[i:j]
        field_raw = "is"
    else:
        vpos = i + m.end()
        value = q[i:j][m.end() :]
    quoted = False
    if not value and j < len(q) and q[j] == '"':
        value, j = _read_quoted(q, j)
        vpos, quoted = vpos + 1, True
    field = ALIASES.get(field_raw.lower(), field_raw.lower())
    if field not in FIELDS:
        known = ", ".join(sorted(f for f, (kind, _meaning) in FIELDS.items() if kind not in ("display", "exact")))  # filters only
        fields = (f for f, (kind, _meaning) in FIELDS.items() if kind != "exact")
        names = sorted({*fields, *(a for a in ALIASES if len(a) > 2)}, key=lambda name: (len(name), name))  # ties: the shorter, then A-Z
        hint = suggest(field_raw, names, limit=2)
        mean = did_you_mean([h + op for h in hint], either)
        raise QueryError(q, i, _("unknown field '{field}'{mean} (known fields: {known})").format(field=field_raw, mean=mean, known=known))
    if not value.strip():
        raise QueryError(q, vpos, _("'{field}' needs a value").format(field=f"{shown or field_raw}{op}"))
    if field in DISPLAY_KEYWORDS:
        option, what = DISPLAY_KEYWORDS[field]
        raise QueryError(
            q, i, _("'{field}' sets {what} in cardlab: give {option}").format(field=field_raw + op, what=_(what), option=option)
        )
    if field == "is":
        wanted = IS_ALIASES.get(value.strip().lower(), value.strip().lower())
        if op not in (":", "="):
            raise QueryError(
                q,
                vpos - len(op),
                _("'{field}' takes ':' ({field}:{value}); for the opposite write -is:{value} or not:{value}").format(
                    field=field_raw, value=value
                ),
            )
        if wanted in EDITION_WORDS:
            raise QueryError(
                q,
                vpos,
                _(
                    "{term} asks for an edition (1st Edition, Shadowless, Unlimited), which cardlab's cards"
                    " do not record: a printing is a set and a number; is:first-printing finds a card in the set it was"
                    " first printed in (not a reprint)"
                ).format(term=f"{shown or field_raw}:{value}"),
            )
        if wanted not in IS_VALUES:
            hint = suggest(value, [*IS_VALUES, *IS_ALIASES], limit=2)
            mean = did_you_mean([f"{shown or field_raw}:{h}" for h in hint], either)
            raise QueryError(
                q,
                vpos,
                _("unknown {term}{mean} (known: {known})").format(
                    term=f"{shown or field_raw}:{value}", mean=mean, known=", ".join(IS_VALUES)
                ),
            )
        value = wanted
    if field == "text" and not re.search(r"\w", fold(value)):
        # as a bare word: rules text is searched by its words, and "*" or "!!" holds none (it matched every card)
        raise QueryError(q, vpos, _("'{term}' has no letters or digits to search for").format(term=f"{field_raw}{op}{value}"))
    return Term(field, op, value, vpos, quoted), j


def _check_limits(q: str, toks: list[Token]) -> None:
    """Raise QueryError at the first term past :data:`MAX_TERMS`, or the first token past :data:`MAX_TOKENS`."""
    terms = [t for t in toks if t.kind == "term"]
    if len(terms) > MAX_TERMS:
        raise QueryError(
            q,
            terms[MAX_TERMS].pos,
            _("too many terms: {n} words, phrases and field:value terms (at most {limit})").format(n=len(terms), limit=MAX_TERMS),
        )
    if len(toks) > MAX_TOKENS:
        raise QueryError(
            q,
            toks[MAX_TOKENS].pos,
            _("too many terms, operators and parentheses: {n} (at most {limit})").format(n=len(toks), limit=MAX_TOKENS),
        )
