"""The search query language: parse a query into a tree, compile the tree into SQL.

In the spirit of Scryfall's syntax (``../shared/ANCHORS.md`` section 1)::

    charizard                   bare words match names (every language) and rules text
    "double colorless"          a quoted phrase
    type:fire hp>=80            field:value and numeric comparisons (= != < <= > >=)
    -type:fire, not type:fire   negation
    type:fire or type:water     alternatives; terms side by side (or joined by 'and') are ANDed
    (type:fire or type:water) retreat<=1
    hp!=120                     has HP, and it is not 120

Every value is folded one way (:func:`cardlab.core.text.fold`), as the index is: case, accents,
full width, typographic quotes (``name:“Pokémon Breeder”``) and apostrophes never matter, hiragana
finds katakana, and names typed without spaces or punctuation (``farfetchd``, ``plus power``) find
the name. Rules-text words also match their inflections (``text:paralyzed`` finds "Paralyzes"):
index and query stem them with the stemmer of each text's language.

Matching folds case, accents and apostrophes (``pokemon`` finds ``Pokémon``). No user text reaches
SQLite raw: every value is a bound parameter, and full-text terms are quoted FTS5 strings, so
``farfetch'd``, ``mr. mime`` and ``ho-oh`` are plain searches. Text in Japanese or Chinese (no
spaces between words) is matched as a substring through a trigram index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from cardlab.core.errors import UsageError
from cardlab.core.text import compact, fold, has_cjk, is_quote, norm_value, stem_words, stemmer_languages

# field -> (kind, help). kinds: facet (exact folded text), like (substring of a facet), num (number),
# name, text, number (text or number), set
FIELDS: dict[str, tuple[str, str]] = {
    "name": ("name", "card name in any language, substring (name:char); name=... for the whole name"),
    "text": ("text", "rules text (attacks, powers, abilities, Trainer text), words in any language"),
    "game": ("facet", "pokemon, ippo, monpa or forumtcg"),
    "set": ("facet", "set code or alias (set:base1, set:BS)"),
    "number": ("number", "collector number (number:4, number<=10)"),
    "rarity": ("facet", "rarity (rarity:rare, rarity:rare-holo, rarity:common)"),
    "artist": ("like", "illustrator, substring (artist:arita)"),
    # Pokémon
    "supertype": ("facet", "Pokémon: pokemon, trainer or energy"),
    "type": (
        "facet",
        "Pokémon: the Pokémon's type, or the Energy an Energy card provides (type:fire); Monpa: card type (type:servant, type:serviteur)",
    ),
    "stage": ("facet", 'Pokémon: basic, "stage 1", "stage 2"'),
    "hp": ("num", "Pokémon: hit points (hp>=80)"),
    "retreat": ("num", "Pokémon: retreat cost (retreat<=1)"),
    "cost": ("num", "Pokémon: converted Energy cost of an attack (cost<=2); Ippo: total cost"),
    "damage": ("num", "Pokémon: base damage of an attack (damage>=50)"),
    "weakness": ("facet", "Pokémon: weakness type (weakness:water)"),
    "resistance": ("facet", "Pokémon: resistance type (resistance:psychic)"),
    "attack": ("like", 'Pokémon: attack or Pokémon Power name, substring, any language (attack:"fire spin")'),
    "evolves": ("facet", "Pokémon: the name it evolves from (evolves:charmeleon)"),
    "energy": ("facet", "Pokémon: Energy card kind, basic or special"),
    "level": ("num", "Pokémon: level printed on the card"),
    "dex": ("num", "Pokémon: national Pokédex number"),
    # Ippo
    "kind": ("facet", "Ippo: blow, defense, support or fight"),
    "blow": ("facet", "Ippo: blow type of a Blow card (straight, hook, upper, special)"),
    "blocks": ("facet", "Ippo: a blow type a Defense card blocks"),
    "attr": ("facet", "Ippo: attribute icon (courage, kan, technique, calm, generic)"),
    "power": ("num", "Ippo: blow power"),
    "def": ("num", "Ippo: defense power; Monpa: a servant's defense"),
    "kw": ("facet", 'keyword (Ippo: "guard break", "shut off", knock-down, "round up"; Monpa: rapide, upkeep, prediction)'),
    "timing": ("facet", "Ippo: ability timing (placement, fast, boxing, interval, constant)"),
    "stars": ("num", "Ippo: rarity in stars"),
    # Monpa
    "element": ("facet", "Monpa: element"),
    "mana": ("num", "Monpa: mana cost (commanders and favors have none); mana:x for X"),
    "atk": ("num", "Monpa: a servant's attack; atk:? for ?"),
    # the forum TCG (seed 002)
    "value": ("num", "forum TCG: the card's Value (value>=4)"),
    "faction": ("facet", "forum TCG: faction code, name or symbol (faction:gotei-13, faction:lozenge, faction:skull)"),
}
ALIASES = {
    "t": "type",
    "s": "set",
    "e": "set",
    "r": "rarity",
    "a": "artist",
    "o": "text",
    "cn": "number",
    "n": "name",
    "hp": "hp",
    "illustrator": "artist",
    "keyword": "kw",
    "attribute": "attr",
    "k": "kind",
}
_TEXT_OPS = (":", "=", "!=")
_CARD_COLUMNS = ("game", "set")
"""Fields read from the ``card`` table itself (``game``; ``set`` through ``set_key``), not from facets."""
_OPS = ("<=", ">=", "!=", ":", "=", "<", ">")
_FIELD_TERM = re.compile(r"([A-Za-z_]+)(<=|>=|!=|:|=|<|>)")


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
        characters such as Japanese take two columns)."""
        import unicodedata

        width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in self.query[: self.pos])
        return f"{self.query}\n{' ' * width}^"


# --- tokens ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tok:
    kind: str  # term | lparen | rparen | or | not
    pos: int
    term: Term | None = None


def _read_quoted(q: str, i: int) -> tuple[str, int]:
    end = q.find('"', i + 1)
    if end < 0:
        raise QueryError(q, i, "this quote is never closed")
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
    import unicodedata

    if ch.isascii():
        return ch
    if is_quote(ch):
        return '"'
    norm = unicodedata.normalize("NFKC", ch)
    return norm if len(norm) == 1 else ch


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
"""Control characters that are not white space: refused (a NUL would end a LIKE pattern in SQLite,
turning ``name:<NUL>pika`` into "any name")."""


def _tokens(query: str) -> list[_Tok]:
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(query, MAX_QUERY_CHARS, f"the query is too long (at most {MAX_QUERY_CHARS} characters)")
    control = _CONTROL.search(query)
    if control:
        raise QueryError(query, control.start(), f"control character U+{ord(control.group()):04X} is not allowed in a query")
    q = "".join(_same_width(ch) for ch in query)
    try:
        return _tokens_of(q)
    except QueryError as err:
        raise QueryError(query, err.pos, err.reason) from None


def _tokens_of(q: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i, n = 0, len(q)
    while i < n:
        ch = q[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            toks.append(_Tok("lparen", i))
            i += 1
        elif ch == ")":
            toks.append(_Tok("rparen", i))
            i += 1
        elif ch == "-" and (i + 1 >= n or q[i + 1].isspace()):
            raise QueryError(q, i, "'-' needs a term right after it (-type:fire)")
        elif (
            ch == "-"
            and i + 1 < n
            and not q[i + 1].isspace()
            and (not toks or toks[-1].kind != "term" or q[i - 1].isspace() or q[i - 1] == "(")
        ):
            toks.append(_Tok("not", i))
            i += 1
        elif ch == '"':
            value, j = _read_quoted(q, i)
            if not re.search(r"\w", fold(value)):
                raise QueryError(q, i, "this phrase has no letters or digits to search for")
            toks.append(_Tok("term", i, Term(None, ":", value, i + 1, True)))
            i = j
        else:
            j = i
            while j < n and not q[j].isspace() and q[j] not in '()"':
                j += 1
            word = q[i:j]
            m = _FIELD_TERM.match(word)
            if m:
                field_raw, op = m.group(1), m.group(2)
                vpos = i + m.end()
                value = word[m.end() :]
                quoted = False
                if not value and j < n and q[j] == '"':
                    value, j = _read_quoted(q, j)
                    vpos, quoted = vpos + 1, True
                field = ALIASES.get(field_raw.lower(), field_raw.lower())
                if field not in FIELDS:
                    known = ", ".join(sorted(FIELDS))
                    from cardlab.core.fuzzy import suggest

                    names = sorted(
                        {*FIELDS, *(a for a in ALIASES if len(a) > 2)}, key=lambda name: (len(name), name)
                    )  # ties: the shorter, then A-Z
                    hint = suggest(field_raw, names, limit=2)
                    mean = f"; did you mean {' or '.join(h + op for h in hint)}?" if hint else ""
                    raise QueryError(q, i, f"unknown field '{field_raw}'{mean} (known fields: {known})")
                if not value.strip():
                    raise QueryError(q, vpos, f"'{field_raw}{op}' needs a value")
                toks.append(_Tok("term", i, Term(field, op, value, vpos, quoted)))
            elif word.lower() == "or":
                toks.append(_Tok("or", i))
            elif word.lower() == "and":
                toks.append(_Tok("and", i))
            elif word.lower() == "not":
                toks.append(_Tok("not", i))
            elif word[0] in ":=<>!":
                raise QueryError(q, i, f"'{word[0]}' needs a field name before it (e.g. type{word[0]}...)")
            else:
                if not re.search(r"\w", fold(word)):
                    shown = f'"{word}"' if "'" in word else f"'{word}'"  # a quote mark is not quoted with itself
                    raise QueryError(q, i, f"{shown} has no letters or digits to search for; quote it as part of a phrase")
                toks.append(_Tok("term", i, Term(None, ":", word, i)))
            i = j
    terms = [t for t in toks if t.kind == "term"]
    if len(terms) > MAX_TERMS:
        raise QueryError(
            q, terms[MAX_TERMS].pos, f"too many terms: {len(terms)} words, phrases and field:value terms (at most {MAX_TERMS})"
        )
    if len(toks) > MAX_TOKENS:
        raise QueryError(q, toks[MAX_TOKENS].pos, f"too many terms, operators and parentheses: {len(toks)} (at most {MAX_TOKENS})")
    return toks


# --- parser ----------------------------------------------------------------------------------


def parse(query: str) -> Node | None:
    """Parse a query into a tree of :class:`Term`, :class:`Not`, :class:`And`, :class:`Or`.

    Returns:
        The tree, or None for an empty query (which matches every card).

    Raises:
        QueryError: with the offset of the offending character (unknown field, a comparison on a
            text field, a value that is not a number, unbalanced parentheses, a dangling ``or``...).
    """
    toks = _tokens(query)
    if not toks:
        return None
    pos = 0

    def peek() -> _Tok | None:
        return toks[pos] if pos < len(toks) else None

    depth = 0

    def parse_or() -> Node:
        nonlocal pos
        nodes = [parse_and()]
        while (t := peek()) is not None and t.kind == "or":
            pos += 1
            after = peek()
            if after is None or after.kind in ("or", "rparen"):
                raise QueryError(query, t.pos, "'or' needs a term on both sides")
            nodes.append(parse_and())
        return nodes[0] if len(nodes) == 1 else Or(tuple(nodes))

    def parse_and() -> Node:
        nonlocal pos
        nodes: list[Node] = []
        while (t := peek()) is not None and t.kind not in ("or", "rparen"):
            if t.kind == "and":
                nxt = toks[pos + 1] if pos + 1 < len(toks) else None
                if not nodes or nxt is None or nxt.kind in ("or", "rparen", "and"):
                    raise QueryError(query, t.pos, "'and' needs a term on both sides")
                pos += 1
                continue
            nodes.append(parse_unary())
        if not nodes:
            t = peek()
            raise QueryError(query, t.pos if t else len(query), "expected a search term here")
        return nodes[0] if len(nodes) == 1 else And(tuple(nodes))

    def parse_unary() -> Node:
        nonlocal pos, depth
        t = peek()
        assert t is not None
        if t.kind in ("not", "lparen"):
            depth += 1
            if depth > MAX_DEPTH:
                raise QueryError(query, t.pos, f"nested too deeply (at most {MAX_DEPTH} levels of '(' and '-')")
        if t.kind == "not":
            pos += 1
            after = peek()
            if after is None or after.kind in ("or", "rparen", "and"):
                raise QueryError(query, t.pos, "'-' and 'not' need a term after them")
            node = Not(parse_unary())
            depth -= 1
            return node
        if t.kind == "lparen":
            pos += 1
            inner = parse_or()
            close = peek()
            if close is None or close.kind != "rparen":
                raise QueryError(query, t.pos, "this parenthesis is never closed")
            pos += 1
            depth -= 1
            return inner
        pos += 1
        _check_term(query, t.term)  # type: ignore[arg-type]
        return t.term  # type: ignore[return-value]

    tree = parse_or()
    if pos < len(toks):
        t = toks[pos]
        raise QueryError(query, t.pos, "unmatched ')'" if t.kind == "rparen" else f"unexpected '{t.kind}'")
    return tree


_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def _check_term(query: str, term: Term) -> None:
    if term.field is None:
        return
    kind = FIELDS[term.field][0]
    op_pos = term.pos - len(term.op) - (1 if term.quoted else 0)
    if kind == "num":
        if term.op in _TEXT_OPS and not _NUMBER.match(term.value) and term.value.strip().lower() in ("x", "?"):
            return  # printed X or ? (Monpa mana, attack, defense) match as text
        if not _NUMBER.match(term.value):
            bad = next((k for k, ch in enumerate(term.value) if not (ch.isdigit() or (k == 0 and ch in "+-") or ch == ".")), 0)
            raise QueryError(query, term.pos + bad, f"'{term.field}' takes a number, not '{term.value}'")
    elif kind == "number":
        if term.op not in _TEXT_OPS and not _NUMBER.match(term.value):
            raise QueryError(query, term.pos, f"'{term.field}{term.op}' takes a number, not '{term.value}'")
    elif term.op not in _TEXT_OPS:
        raise QueryError(query, op_pos, f"'{term.field}' is text: use ':', '=' or '!=', not '{term.op}'")


# --- compiler --------------------------------------------------------------------------------

_SQL_OPS = {":": "=", "=": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _after_prefix(prefix: str) -> str:
    """The least text greater than every text that starts with ``prefix`` (code point order, as
    SQLite's BINARY collation): ``text >= prefix AND text < _after_prefix(prefix)`` is
    ``text LIKE 'prefix%'`` (case-sensitive) and uses the column's index."""
    last = ord(prefix[-1])
    if last == 0x10FFFF:
        return _after_prefix(prefix[:-1]) if len(prefix) > 1 else "\U0010ffff" * 2
    nxt = 0xE000 if 0xD800 <= last + 1 <= 0xDFFF else last + 1  # no surrogates in stored text
    return prefix[:-1] + chr(nxt)


def _like(value: str) -> str:
    return "%" + value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _fts_words(value: str) -> list[str]:
    return re.findall(r"\w+", fold(value))


def _fts_phrase(words: list[str], prefix: bool) -> str:
    return '"' + " ".join(words).replace('"', '""') + '"' + ("*" if prefix else "")


def _stem_match(value: str, langs: tuple[str, ...] | None = None) -> str | None:
    """An FTS5 query on ``card_stem``: the words of ``value`` stemmed by each language's stemmer
    (``"en_paralyz" OR "fr_paralys" ...``), as a phrase when there are several words."""
    alternatives = []
    for lang in stemmer_languages() if langs is None else langs:
        stems = stem_words(value, lang)
        if stems:
            alternatives.append(_fts_phrase([f"{lang}_{w}" for w in stems], prefix=False))
    if not alternatives:
        return None
    return "stems : (" + " OR ".join(dict.fromkeys(alternatives)) + ")"


def _symbol_only(value: str) -> bool:
    """A value typed with no letter or digit (``♀``) that folds to letters (``f``): matched as a
    whole word of a name, never as a prefix of rules text (``nidoran ♀`` must not find ♂)."""
    return not re.search(r"\w", value)


DIALECTS = ("sqlite", "postgresql")
"""The SQL :func:`compile_sql` writes: SQLite (FTS5 ``MATCH`` strings) or PostgreSQL (``tsquery``
on ``tsvector`` columns). Everything else (facets, names, LIKE, prefix ranges) is the same SQL."""


def dialect_of(con: object) -> str:
    """The dialect of an index connection: ``postgresql`` for cardlab's PostgreSQL index
    (:class:`cardlab.index.postgres.PgIndex`, which says so), else ``sqlite``."""
    return getattr(con, "dialect", "sqlite")


def compile_sql(node: Node | None, stem_langs: tuple[str, ...] | None = None, dialect: str = "sqlite") -> tuple[str, list]:
    """Compile a parsed query into a SQL condition on the index's ``card`` table (alias ``c``).

    ``stem_langs``: the languages whose stemmed rules-text words the index holds (None: every
    language with a stemmer); a word is stemmed by each of them. ``dialect``: one of
    :data:`DIALECTS`; only the full-text matches and the always-true condition differ between them.

    Returns:
        ``(condition, parameters)`` for ``SELECT ... FROM card c WHERE <condition>``; every value
        is a bound parameter (``?``; the PostgreSQL connection turns them into its own).
    """
    if node is None:
        return _true(dialect), []
    if isinstance(node, Not):
        sql, params = compile_sql(node.node, stem_langs, dialect)
        return f"NOT ({sql})", params
    if isinstance(node, (And, Or)):
        parts = [compile_sql(n, stem_langs, dialect) for n in node.nodes]
        joiner = " AND " if isinstance(node, And) else " OR "
        sql = "(" + joiner.join(p[0] for p in parts) + ")"
        params = [x for p in parts for x in p[1]]
        if isinstance(node, And):
            sql, params = _with_run_together(node, sql, params)
        return sql, params
    return _term_sql(node, stem_langs, dialect)


def _true(dialect: str) -> str:
    return "1" if dialect == "sqlite" else "TRUE"


def _bare(node: Node) -> bool:
    return isinstance(node, Term) and node.field is None and not node.quoted and not has_cjk(node.value)


def one_bare_word(node: Node | None) -> bool:
    """True when the whole query is one bare word (no field, not quoted, no Chinese or Japanese
    characters): its SQL then has the same shape and the same good plan whatever the word, so
    PostgreSQL may plan it once (:meth:`cardlab.index.postgres.PgIndex.fetch`, ``generic``)."""
    return isinstance(node, Term) and node.op == ":" and _bare(node)


def _with_run_together(node: And, sql: str, params: list) -> tuple[str, list]:
    """Bare words side by side also match as one name typed apart: ``plus power`` finds PlusPower,
    ``item finder`` finds Item Finder whatever the spacing."""
    words = [n.value for n in node.nodes if _bare(n)]  # type: ignore[union-attr]
    if len(words) < 2 or len(words) != len(node.nodes):
        return sql, params
    joined = compact("".join(words))
    if not joined:
        return sql, params
    return (
        f"({sql} OR c.id IN (SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?))",
        [*params, joined, _after_prefix(joined)],
    )


def _term_sql(t: Term, stem_langs: tuple[str, ...] | None = None, dialect: str = "sqlite") -> tuple[str, list]:
    sql, params = _positive_term_sql(t, stem_langs, dialect)
    if t.op != "!=":
        return sql, params
    # Scryfall: field!=value means "has the field, and it is not value" (Trainers have no HP)
    if t.field is not None and t.field not in ("name", "text"):
        if t.field in _CARD_COLUMNS:  # every card has a game and a set
            return f"NOT ({sql})", params
        has = "c.rowid IN (SELECT card FROM facet_text WHERE field = ? UNION ALL SELECT card FROM facet_num WHERE field = ?)"
        return (f"({has} AND NOT ({sql}))", [t.field, t.field, *params])
    return f"NOT ({sql})", params


def _positive_term_sql(t: Term, stem_langs: tuple[str, ...] | None = None, dialect: str = "sqlite") -> tuple[str, list]:
    if t.field is None or t.field == "text":
        column = "body" if t.field == "text" else None
        if has_cjk(t.value):
            cols = [column] if column else ["names", "body"]
            cond = " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in cols)
            return f"c.rowid IN (SELECT rowid FROM card_tri WHERE {cond})", [_like(fold(t.value))] * len(cols)
        words = _fts_words(t.value)
        if not words:
            return _true(dialect), []
        if dialect != "sqlite":
            return _pg_text_sql(t, words, column, stem_langs)
        if t.field is None and _symbol_only(t.value):
            return "c.rowid IN (SELECT rowid FROM card_fts WHERE card_fts MATCH ?)", ["{names} : " + _fts_phrase(words, False)]
        # rules text matches whole words (and, below, their stems): "bur" never finds "burn";
        # a bare word still finds a name that starts with it (char: Charizard)
        phrase = _fts_phrase(words, prefix=False)
        if column:
            match = f"{{{column}}} : {phrase}"
        elif t.quoted:
            match = f"{{names body}} : {phrase}"
        else:
            match = f"{{names}} : {_fts_phrase(words, prefix=True)} OR {{body}} : {phrase}"
        sql = "c.rowid IN (SELECT rowid FROM card_fts WHERE card_fts MATCH ?)"
        params: list = [match]
        stems = _stem_match(t.value, stem_langs)
        if stems:
            sql += " OR c.rowid IN (SELECT rowid FROM card_stem WHERE card_stem MATCH ?)"
            params.append(stems)
        joined = compact(t.value)
        if t.field is None and joined:
            # names typed without spaces, by prefix (farfetch): a range on the index, not a scan
            sql += " OR c.id IN (SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?)"
            params += [joined, _after_prefix(joined)]
        return f"({sql})", params
    kind = FIELDS[t.field][0]
    if t.field == "name":
        joined = compact(t.value)
        if t.op == "=":
            return "c.id IN (SELECT card_id FROM card_name WHERE folded = ? OR compact = ?)", [fold(t.value), joined or fold(t.value)]
        if _symbol_only(t.value) or not joined:
            return "c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\')", [_like(fold(t.value))]
        return (
            "c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\' OR compact LIKE ? ESCAPE '\\')",
            [_like(fold(t.value)), _like(joined)],
        )
    if kind == "like":
        return (
            "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text LIKE ? ESCAPE '\\')",
            [t.field, _like(norm_value(t.value))],
        )
    if kind == "num" and not _NUMBER.match(t.value):  # mana:x, atk:?
        return "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text = ?)", [t.field, fold(t.value.strip())]
    if kind == "num" or (kind == "number" and t.op not in _TEXT_OPS):
        op = "=" if t.op in _TEXT_OPS else _SQL_OPS[t.op]
        return f"c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num {op} ?)", [t.field, float(t.value)]
    if t.field == "game":
        return "c.game = ?", [norm_value(t.value)]
    if t.field == "set":
        return "c.set_code IN (SELECT code FROM set_key WHERE key = ?)", [norm_value(t.value)]
    return "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text = ?)", [t.field, norm_value(t.value)]


def _pg_text_sql(t: Term, words: list[str], column: str | None, stem_langs: tuple[str, ...] | None) -> tuple[str, list]:
    """:func:`_positive_term_sql`'s full-text part on PostgreSQL: the same phrases as the FTS5
    ``MATCH`` strings, as ``tsquery`` on the ``tsvector`` columns of ``card_fts`` and ``card_stem``
    (lexemes as FTS5's tokenizers cut them: :mod:`cardlab.index.tokens`). An FTS5 phrase with no
    token matches nothing; so does its ``tsquery`` here (``FALSE``)."""
    from cardlab.index.tokens import tokens_of, tsquery_phrase

    tokens = list(tokens_of(" ".join(words)))
    whole, prefix = tsquery_phrase(tokens), tsquery_phrase(tokens, prefix=True)
    if t.field is None and _symbol_only(t.value):
        conds = [("names", whole)]
    elif column:
        conds = [(column, whole)]
    elif t.quoted:
        conds = [("names", whole), ("body", whole)]
    else:
        conds = [("names", prefix), ("body", whole)]
    # one IN over a UNION ALL, not an OR of INs: PostgreSQL then joins the few matching rows to
    # ``card`` instead of probing every card against each subquery
    parts: list[str] = []
    params: list = []
    if tokens:
        parts.append("SELECT rowid FROM card_fts WHERE " + " OR ".join(f"{c} @@ ?::tsquery" for c, _ in conds))
        params += [q for _, q in conds]
    if not (t.field is None and _symbol_only(t.value)):
        alternatives = []
        for lang in stemmer_languages() if stem_langs is None else stem_langs:
            stems = stem_words(t.value, lang)
            if stems:
                query = tsquery_phrase(list(tokens_of(" ".join(f"{lang}_{w}" for w in stems), "stems")))
                if query:
                    alternatives.append(f"({query})")
        if alternatives:
            parts.append("SELECT rowid FROM card_stem WHERE stems @@ ?::tsquery")
            params.append(" | ".join(dict.fromkeys(alternatives)))
        joined = compact(t.value)
        if t.field is None and joined:
            # the card's rowid is kept beside each name on PostgreSQL: no join back to ``card``
            parts.append("SELECT card FROM card_name WHERE compact >= ? AND compact < ?")
            params += [joined, _after_prefix(joined)]
    if not parts:
        return "FALSE", []
    return "c.rowid IN (" + " UNION ALL ".join(parts) + ")", params


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


def fields_help(indent: str = "") -> str:
    """Return the search fields, one ``name  help`` line each (after ``indent``), for ``--help``."""
    return "\n".join(f"{indent}{name:<11} {help_}" for name, (_, help_) in FIELDS.items())
