"""The SQL compiler of search: a query tree → a condition on the index's ``card`` table, and the
whole statements of a search (order, page, total) and of a count. All of search's knowledge of the two
SQL dialects is here (:data:`DIALECTS`): SQLite's FTS5 ``MATCH`` strings and PostgreSQL's ``tsquery``
(lexemes cut by :mod:`cardlab.index.tokens`), ``1``/``TRUE``, ``COLLATE NOCASE``/``lower()``,
where NULLs sort and how ``LIMIT`` says "no limit". How the tables are built on each is
:mod:`cardlab.index.sqlite` and :mod:`cardlab.index.postgres`.

No user text reaches the SQL raw: every value is a bound parameter, and full-text terms are quoted
FTS5 strings, so ``farfetch'd``, ``mr. mime`` and ``ho-oh`` are plain searches. Text in Japanese or
Chinese (no spaces between words) is matched as a substring through a trigram index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardlab.core.text import compact, fold, has_cjk, norm_value, stem_words, stemmer_languages
from cardlab.index.tokens import tokens_of, tsquery_phrase
from cardlab.search.fields import CARD_COLUMNS, NUMBER, TEXT_OPS, TYPE_LINE_FIELDS
from cardlab.search.fields import kind as field_kind
from cardlab.search.query.tree import And, Node, Not, Or, Term, terms
from cardlab.search.request import SearchRequest

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
        if t.field in CARD_COLUMNS:  # every card has a game and a set
            return f"NOT ({sql})", params
        if t.field == "type":  # the whole type line: every card of a game with supertypes has one
            marks = ", ".join("?" * len(TYPE_LINE_FIELDS))
            has = f"c.rowid IN (SELECT card FROM facet_text WHERE field IN ({marks}))"
            return (f"({has} AND NOT ({sql}))", [*TYPE_LINE_FIELDS, *params])
        has = "c.rowid IN (SELECT card FROM facet_text WHERE field = ? UNION ALL SELECT card FROM facet_num WHERE field = ?)"
        return (f"({has} AND NOT ({sql}))", [t.field, t.field, *params])
    return f"NOT ({sql})", params


def _positive_term_sql(t: Term, stem_langs: tuple[str, ...] | None = None, dialect: str = "sqlite") -> tuple[str, list]:
    """The SQL of a term without its ``!=`` (:func:`_term_sql` adds it): words and ``text:`` through
    :func:`_text_sql`, names through ``card_name``, ``game`` and ``set`` on the card, every other
    field through its facet rows (``like``, ``num``, ``number``: :func:`cardlab.search.fields.kind`)."""
    if t.field is None or t.field == "text":
        return _text_sql(t, stem_langs, dialect)
    kind = field_kind(t.field)
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
    if kind == "is":
        sql, params = IS_SQL[t.value]
        return sql, list(params)
    if kind == "like":
        return (
            "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text LIKE ? ESCAPE '\\')",
            [t.field, _like(norm_value(t.value))],
        )
    if kind == "num" and not NUMBER.match(t.value):  # mana:x, atk:?
        return "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text = ?)", [t.field, fold(t.value.strip())]
    if kind == "num" or (kind == "number" and t.op not in TEXT_OPS):
        op = "=" if t.op in TEXT_OPS else _SQL_OPS[t.op]
        return f"c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num {op} ?)", [t.field, float(t.value)]
    if t.field == "game":
        return "c.game = ?", [norm_value(t.value)]
    if t.field == "set":
        return "c.set_code IN (SELECT code FROM set_key WHERE key = ?)", [norm_value(t.value)]
    if t.field == "type":  # as Scryfall's type line: types, supertypes and stages (t:trainer, t:basic)
        marks = ", ".join("?" * len(TYPE_LINE_FIELDS))
        return f"c.rowid IN (SELECT card FROM facet_text WHERE field IN ({marks}) AND text = ?)", [*TYPE_LINE_FIELDS, norm_value(t.value)]
    return "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text = ?)", [t.field, norm_value(t.value)]


_REPRINT = "(c.reprint_of IS NOT NULL OR c.set_code <> (SELECT o.set_code FROM card o WHERE o.id = c.oracle_id))"
"""A reprint: a card the catalog says reprints another (``reprint_of``), or one whose first printing
(``oracle_id``) is in another set; a set's non-holo twin of its holo (Jungle's two Clefables) is not."""

IS_SQL: dict[str, tuple[str, tuple[str, ...]]] = {
    "holo": ("c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text LIKE ?)", ("rarity", "%holo%")),
    "promo": ("c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text = ?)", ("rarity", "promo")),
    "reprint": (_REPRINT, ()),
    "first-printing": (f"NOT ({_REPRINT})", ()),
}
"""The condition of each ``is:`` value (:data:`cardlab.search.fields.IS_VALUES`): rarities as the
facet rows hold them (folded), reprints by :data:`_REPRINT` (``oracle_id`` is the id of a card's
first printing: :meth:`cardlab.catalog.model.Catalog.oracle_of`)."""


def _text_sql(t: Term, stem_langs: tuple[str, ...] | None, dialect: str) -> tuple[str, list]:
    """A bare word or phrase (names and rules text) or a ``text:`` term: Chinese and Japanese text by
    substring through ``card_tri``; else whole words through ``card_fts`` (a bare word also a name by
    its prefix), their stems through ``card_stem``, and a name typed without spaces by a prefix range
    on ``card_name.compact``; on PostgreSQL through :func:`_pg_text_sql`."""
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


def _pg_text_sql(t: Term, words: list[str], column: str | None, stem_langs: tuple[str, ...] | None) -> tuple[str, list]:
    """:func:`_positive_term_sql`'s full-text part on PostgreSQL: the same phrases as the FTS5
    ``MATCH`` strings, as ``tsquery`` on the ``tsvector`` columns of ``card_fts`` and ``card_stem``
    (lexemes as FTS5's tokenizers cut them: :mod:`cardlab.index.tokens`). An FTS5 phrase with no
    token matches nothing; so does its ``tsquery`` here (``FALSE``)."""
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


SORTS = {
    "number": "c.rowid",  # the index's row order: release date, set, number (cardlab.index.sqlite.search_order)
    "name": "c.name COLLATE NOCASE, c.set_code, c.number_int",  # then by the shown name, in Python (see cardlab.search.hits)
    "set": "c.set_code, c.number_int, c.number",
    "rarity": "c.rarity_rank, c.set_code, c.number_int",
    "artist": "c.illustrator COLLATE NOCASE, c.set_code, c.number_int",
    "hp": "hp_sort.v, c.set_code, c.number_int",
}
"""Sort keys for ``--sort``: name -> SQL ORDER BY expression. ``rarity`` follows each set's
``rarities`` list (commonest first); ``name`` sorts by the name shown (``--lang``), folded."""

_SORT_JOINS = {
    "hp": " LEFT JOIN (SELECT card, MAX(num) AS v FROM facet_num WHERE field = 'hp' GROUP BY card) hp_sort ON hp_sort.card = c.rowid"
}
"""Joins a sort key needs: one pass over that field's facet rows, not one lookup per card."""

_PG_SORTS = {
    name: sql.replace("c.name COLLATE NOCASE", "lower(c.name)").replace("c.illustrator COLLATE NOCASE", "lower(c.illustrator)")
    for name, sql in SORTS.items()
}
""":data:`SORTS` on PostgreSQL: ``lower()`` of a ``COLLATE "C"`` column folds ASCII letters only, as
SQLite's ``NOCASE`` does."""


def order_terms(keys: list[str], reverse: bool, dialect: str) -> list[str]:
    """ORDER BY terms for ``keys`` in ``dialect``: SQLite puts NULL first going up and last going
    down; PostgreSQL is told to (``NULLS FIRST``, ``DESC NULLS LAST``)."""
    if dialect == "sqlite":
        return [f"{k} DESC" for k in keys] if reverse else keys
    return [f"{k} DESC NULLS LAST" for k in keys] if reverse else [f"{k} NULLS FIRST" for k in keys]


@dataclass(frozen=True)
class SearchStatement:
    """The statement of one search and what its rows hold.

    Attributes:
        sql, params: the statement and its bound values (``?``).
        in_sql: the page is cut and the total counted in SQL (``LIMIT``, a window count); else the
            hits are grouped, sorted by name and paged in Python (:func:`cardlab.search.hits.assemble`).
        page: a page cut in SQL (``in_sql`` and a ``limit``).
        shown: the rows hold the display strings (``type_line, stats, rarity`` after the name).
        exact: ``[the words run together]`` when the query is bare words (cards whose whole name they
            are come first), else ``[]``.
        generic: PostgreSQL may plan the statement once for every value (one bare word).
    """

    sql: str
    params: list
    in_sql: bool
    page: bool
    shown: bool
    exact: list
    generic: bool


def search_statement(request: SearchRequest, tree: Node | None, stem_langs: tuple[str, ...] | None, dialect: str) -> SearchStatement:
    """Compile a search: the query's condition (:func:`compile_sql`), its order (in the default
    order, not reversed, exact names first for bare words; then :data:`SORTS`, cards without the
    sort value last), and its page.

    The page is cut in SQL (``LIMIT``, with the total as a window count when ``with_total``) unless
    the order or the grouping needs every match first: ``sort="name"`` (the shown language's names,
    folded) and ``unique="cards"`` (printings collapsed). Only the columns a hit shows are read (its
    data and names are read when first asked for); a page reads its display strings with its rows,
    a whole result on SQLite when first shown; on PostgreSQL always in the search's own snapshot
    (read later, they could come from an index swapped in since; see ARCHITECTURE.md).

    Returns:
        The :class:`SearchStatement`. Raises KeyError for a sort key outside :data:`SORTS`.
    """
    where, params = compile_sql(tree, stem_langs, dialect)
    sorts = SORTS if dialect == "sqlite" else _PG_SORTS
    parts = order_terms(sorts[request.sort].split(", "), request.reverse, dialect)
    # cards without the sort value (Trainers have no HP, sets no release date) come last either way,
    # ties in row order; the row order itself puts undated sets last, and needs no sort at all
    if request.sort != "number":
        order = [f"({SORTS[request.sort].split(', ')[0].split(' COLLATE')[0]}) IS NULL", *parts, "c.rowid"]
    else:
        order = ["(s.release_date) IS NULL", *parts] if request.reverse else parts
    words = terms(tree)
    exact: list = []
    # relevance (cards whose whole name the words are, first) only in the default order: an explicit
    # sort key, or --reverse, orders by that key alone, both ways
    relevance = request.sort == "number" and not request.reverse
    if relevance and words and all(t.field is None and t.op == ":" for t in words) and compact(request.query):
        order.insert(0, "c.id NOT IN (SELECT card_id FROM card_name WHERE compact = ?)")
        exact = [compact(" ".join(t.value for t in words))]
    in_sql = request.sort != "name" and request.unique == "prints"
    page = in_sql and request.limit is not None
    shown = page or dialect != "sqlite"
    columns = "c.id, c.game, c.set_code, c.number, c.name" + (", c.type_line, c.stats, c.rarity" if shown else "")
    columns += ", c.oracle_id" if request.unique == "cards" else ""
    # the set table is joined only for an order on its release date
    sets = " LEFT JOIN card_set s ON s.code = c.set_code" if any(re.search(r"\bs\.", part) for part in order) else ""
    sql = (
        f"SELECT {columns}{', COUNT(*) OVER ()' if request.with_total and in_sql else ''}"
        f" FROM card c{sets}{_SORT_JOINS.get(request.sort, '')} WHERE {where} ORDER BY {', '.join(order)}"
    )
    params = [*params, *exact]
    if in_sql and (request.limit is not None or request.offset):
        sql += " LIMIT ? OFFSET ?"
        no_limit = -1 if dialect == "sqlite" else None
        params = [*params, no_limit if request.limit is None else int(request.limit), max(int(request.offset), 0)]
    return SearchStatement(sql, params, in_sql, page, shown, exact, dialect != "sqlite" and one_bare_word(tree))


def count_statement(tree: Node | None, dialect: str) -> tuple[str, list]:
    """The statement counting the cards that match ``tree`` (stems of every language:
    :func:`compile_sql` with ``stem_langs`` None): ``(sql, params)``."""
    where, params = compile_sql(tree, dialect=dialect)
    return f"SELECT COUNT(*) FROM card c WHERE {where}", params
