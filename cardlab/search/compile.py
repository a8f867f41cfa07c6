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
from functools import lru_cache
from typing import TypeGuard

from cardlab.core.text import compact, fold, has_cjk, norm_value, stem_words, stemmer_languages
from cardlab.index.tokens import quote, tokens_of, tsquery_phrase
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


_CARD_ID = re.compile(r"[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)*-[0-9]{1,4}[a-z]?")
"""A card id as ``schema/common.schema.json`` spells it, in lower case: a set code, ``-`` and a
collector number (digits, maybe a letter: ``base1-4``, ``basep-26a``), never a hyphenated word (``ho-oh``)."""


def card_id_of(t: Term) -> str | None:
    """The card id a bare word names (``base1-4``, any case), else None: a bare word also finds the
    card of that id, as typing the id on Scryfall's search finds that card."""
    if t.field is not None or t.quoted:
        return None
    value = t.value.strip().lower()
    return value if _CARD_ID.fullmatch(value) else None


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
    arms, params = _text_arms(t, words, column, stem_langs)
    # one IN over a UNION ALL, not an OR of INs: SQLite walks the one list of row ids in order (a
    # page in row order stops after its rows) instead of sorting every match (issue 29: a page of
    # a word in half of 100,000 cards 4-5x faster)
    return "c.rowid IN (" + " UNION ALL ".join(f"SELECT {r} FROM {body}" for r, body in arms) + ")", params


def _text_arms(t: Term, words: list[str], column: str | None, stem_langs: tuple[str, ...] | None) -> tuple[list[tuple[str, str]], list]:
    """The arms of :func:`_text_sql` on SQLite (not Chinese or Japanese text, ``words`` not empty):
    ``([(the arm's row id column, its FROM ... WHERE ...)], their parameters in order)``, each arm
    a set of card row ids (``card_fts``, ``card_stem``, names typed without spaces, the card of an id)."""
    if t.field is None and _symbol_only(t.value):
        return [("rowid", "card_fts WHERE card_fts MATCH ?")], ["{names} : " + _fts_phrase(words, False)]
    # rules text matches whole words (and, below, their stems): "bur" never finds "burn";
    # a bare word still finds a name that starts with it (char: Charizard)
    phrase = _fts_phrase(words, prefix=False)
    if column:
        match = f"{{{column}}} : {phrase}"
    elif t.quoted:
        match = f"{{names body}} : {phrase}"
    else:
        match = f"{{names}} : {_fts_phrase(words, prefix=True)} OR {{body}} : {phrase}"
    arms = [("rowid", "card_fts WHERE card_fts MATCH ?")]
    params: list = [match]
    stems = _stem_match(t.value, stem_langs)
    if stems:
        arms.append(("rowid", "card_stem WHERE card_stem MATCH ?"))
        params.append(stems)
    joined = compact(t.value)
    if t.field is None and joined:
        # names typed without spaces, by prefix (farfetch): a range on the index, not a scan
        arms.append(("n.rowid", "card n WHERE n.id IN (SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?)"))
        params += [joined, _after_prefix(joined)]
    card_id = card_id_of(t)
    if card_id is not None:  # base1-4: that card, by its unique id
        arms.append(("n.rowid", "card n WHERE n.id = ?"))
        params.append(card_id)
    return arms, params


def _full_text_term(tree: Node | None) -> TypeGuard[Term]:
    """True for a query of one word or phrase in names and rules text, or ``text:``, not negated
    and not Chinese or Japanese: the one shape the full-text arms' page, count and statistics
    forms are written for (:func:`sqlite_row_arms`, :func:`pg_row_probe`,
    :func:`word_count_statement`, :class:`WordStats`)."""
    return isinstance(tree, Term) and tree.op != "!=" and tree.field in (None, "text") and not has_cjk(tree.value)


def sqlite_row_arms(tree: Node | None, stem_langs: tuple[str, ...] | None) -> tuple[list[tuple[str, str]], list] | None:
    """For a query of one word or phrase (names and rules text, or ``text:``) on SQLite, the arms
    of its condition (:func:`_text_arms`): what :func:`page_statement` reads each of in row order,
    bounded, for a page in the default order. None for any other query (the shapes of
    :func:`pg_row_probe`)."""
    if not _full_text_term(tree):
        return None
    words = _fts_words(tree.value)
    if not words:
        return None
    return _text_arms(tree, words, "body" if tree.field == "text" else None, stem_langs)


def _pg_text_parts(
    t: Term, words: list[str], column: str | None, stem_langs: tuple[str, ...] | None
) -> tuple[list[tuple[str, str]], str | None, tuple[str, str] | None, str | None]:
    """The arms of a word or phrase on PostgreSQL: ``(the card_fts columns and their tsquery, each
    matched (none when the words have no token), the card_stem tsquery or None, the range of
    card_name.compact a name typed without spaces falls in, or None, the card id it is or None
    (:func:`card_id_of`))``, read by both of its forms (:func:`_pg_text_sql`, :func:`pg_row_probe`).
    The same phrases as the FTS5 ``MATCH`` strings of :func:`_text_sql` (lexemes as FTS5's
    tokenizers cut them: :mod:`cardlab.index.tokens`)."""
    card_id = card_id_of(t)
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
    if not tokens:
        conds = []
    if t.field is None and _symbol_only(t.value):
        return conds, None, None, card_id
    alternatives = []
    for stem_tokens in _stem_tokens(t.value, stem_langs):
        query = tsquery_phrase(stem_tokens)
        if query:
            alternatives.append(f"({query})")
    joined = compact(t.value)
    names = (joined, _after_prefix(joined)) if t.field is None and joined else None
    return conds, (" | ".join(dict.fromkeys(alternatives)) if alternatives else None), names, card_id


def _stem_tokens(value: str, stem_langs: tuple[str, ...] | None) -> list[list[str]]:
    """The ``card_stem`` lexemes of ``value``'s words stemmed by each language's stemmer (None:
    every language with one): a list of tokens per language that stems them (``[["en_paralyz"],
    ["fr_paralys"]]``), as the index's ``stems`` tokenizer cuts them."""
    return [
        list(tokens_of(" ".join(f"{lang}_{w}" for w in stems), "stems"))
        for lang in (stemmer_languages() if stem_langs is None else stem_langs)
        if (stems := stem_words(value, lang))
    ]


def _pg_text_sql(t: Term, words: list[str], column: str | None, stem_langs: tuple[str, ...] | None) -> tuple[str, list]:
    """:func:`_positive_term_sql`'s full-text part on PostgreSQL: the arms of :func:`_pg_text_parts`
    as ``tsquery`` on the ``tsvector`` columns of ``card_fts`` and ``card_stem`` and a range of
    ``card_name.compact``. An FTS5 phrase with no token matches nothing; so does its ``tsquery``
    here (``FALSE``)."""
    conds, stems, names, card_id = _pg_text_parts(t, words, column, stem_langs)
    # one IN over a UNION ALL, not an OR of INs: PostgreSQL then joins the few matching rows to
    # ``card`` instead of probing every card against each subquery
    parts: list[str] = []
    params: list = []
    if conds:
        parts.append("SELECT rowid FROM card_fts WHERE " + " OR ".join(f"{c} @@ ?::tsquery" for c, _ in conds))
        params += [q for _, q in conds]
    if stems:
        parts.append("SELECT rowid FROM card_stem WHERE stems @@ ?::tsquery")
        params.append(stems)
    if names:
        # the card's rowid is kept beside each name on PostgreSQL: no join back to ``card``
        parts.append("SELECT card FROM card_name WHERE compact >= ? AND compact < ?")
        params += list(names)
    if card_id is not None:  # base1-4: that card, by its unique id
        parts.append("SELECT rowid FROM card WHERE id = ?")
        params.append(card_id)
    if not parts:
        return "FALSE", []
    return "c.rowid IN (" + " UNION ALL ".join(parts) + ")", params


def pg_row_probe(tree: Node | None, stem_langs: tuple[str, ...] | None) -> tuple[list[str], str, list] | None:
    """For a query of one word or phrase (names and rules text, or ``text:``) on PostgreSQL, its
    condition read row by row: ``(the aliases of the tables joined to card by rowid: card_fts f,
    card_stem st; the condition on them; its parameters)``, or None for any other query.

    What a page of a broad word reads (:func:`page_statement`): the cards in row order merged with
    their full-text rows (three primary keys read side by side), each tested, stopping after the
    page. A GIN index gives its matches in no order, so the other form (:func:`_pg_text_sql`)
    gathers and sorts every match first: 35 ms against 0.3 ms for a page of a word in a quarter of
    100,000 cards, but 5 ms against 3 ms for one in 1.2% of them (EXPLAIN ANALYZE, BENCHMARKS.md).
    Every card has its ``card_fts`` and ``card_stem`` row (:func:`cardlab.index.postgres.build`),
    so the joins keep every card."""
    if not _full_text_term(tree):
        return None
    words = _fts_words(tree.value)
    if not words:
        return None
    conds, stems, names, card_id = _pg_text_parts(tree, words, "body" if tree.field == "text" else None, stem_langs)
    aliases: list[str] = []
    ors: list[str] = []
    params: list = []
    if conds:
        aliases.append("f")
        ors += [f"f.{c} @@ ?::tsquery" for c, _ in conds]
        params += [q for _, q in conds]
    if stems:
        aliases.append("st")
        ors.append("st.stems @@ ?::tsquery")
        params.append(stems)
    if names:
        ors.append("c.rowid IN (SELECT card FROM card_name WHERE compact >= ? AND compact < ?)")
        params += list(names)
    if card_id is not None:  # base1-4: that card too, by its unique id (as _pg_text_sql)
        ors.append("c.id = ?")
        params.append(card_id)
    if not ors:
        return None
    return aliases, "(" + " OR ".join(ors) + ")", params


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
    exact: list = []
    whole_name = exact_name(request, tree)
    if whole_name is not None:
        order.insert(0, "c.id NOT IN (SELECT card_id FROM card_name WHERE compact = ?)")
        exact = [whole_name]
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


@dataclass(frozen=True)
class OrderKey:
    """One term of a search's order after its flags: ``sql`` as ORDER BY has it (``COLLATE NOCASE``
    on SQLite, ``lower()`` on PostgreSQL), ``desc`` its direction. NULL sorts first going up and last
    going down on both backends (:func:`order_terms`)."""

    sql: str
    desc: bool = False


@dataclass(frozen=True)
class OrderFlag:
    """A yes/no term at the head of a search's order (cards whose whole name the words are, cards
    with the sort value): the cards where it is false come first. ``false_sql`` and ``true_sql``
    select either side (``params`` bound in each), so a page reads each side by its own plan.
    ``row_false`` and ``row_true``: the same as conditions on a row id ``{r}`` (a full-text
    table's on SQLite, a gathered match's on PostgreSQL), or None when that side is not read that
    way (:func:`page_statement`)."""

    false_sql: str
    true_sql: str
    params: tuple = ()
    row_false: str | None = None
    row_true: str | None = None


_UNDATED = "(SELECT s.release_date FROM card u LEFT JOIN card_set s ON s.code = u.set_code WHERE u.rowid = {r}) IS NOT NULL"
"""A card of a dated set, by its row id ``{r}``: :class:`OrderFlag`'s ``row_false`` of the reverse default order."""


def exact_name(request: SearchRequest, tree: Node | None) -> str | None:
    """The words of a query of bare words run together (``compact``), whose cards (those of that
    whole name) come first in its order; None for any other query, and in any order but the
    default one: an explicit sort key, or ``reverse``, orders by that key alone, both ways (the
    whole result and its pages alike)."""
    if request.sort != "number" or request.reverse:
        return None
    words = terms(tree)
    if words and all(t.field is None and t.op == ":" for t in words) and compact(request.query):
        return compact(" ".join(t.value for t in words))
    return None


def order_plan(request: SearchRequest, tree: Node | None, dialect: str, exact_names: bool = True) -> tuple[list[OrderFlag], list[OrderKey]]:
    """The order of :func:`search_statement` (exact names first for bare words, cards without the
    sort value last, then :data:`SORTS`, ties by row) as flags and keys, for the pages read by
    keyset (:func:`page_statement`). ``exact_names`` False: no card has the whole name the words
    make (:func:`exact_name`), so that flag is left out. Raises KeyError for a sort key outside
    :data:`SORTS`."""
    sorts = SORTS if dialect == "sqlite" else _PG_SORTS
    keys = [OrderKey(k, request.reverse) for k in sorts[request.sort].split(", ")]
    flags: list[OrderFlag] = []
    exact = exact_name(request, tree)
    if exact is not None and exact_names:
        # by row id (the card's row read only once it is on the page): PostgreSQL keeps it beside each name
        if dialect == "sqlite":
            cond = "c.rowid IN (SELECT e.rowid FROM card e WHERE e.id IN (SELECT card_id FROM card_name WHERE compact = ?))"
            # the side of exact names is read as before: FTS5 would evaluate the word again for each
            # row id of an IN (twinenergy, 1,374 cards of that name: 99 ms against 9)
            by_row = "{r} NOT IN (SELECT e.rowid FROM card e WHERE e.id IN (SELECT card_id FROM card_name WHERE compact = ?))"
            flags.append(OrderFlag(cond, f"NOT ({cond})", (exact,), None, by_row))
        else:
            # NOT EXISTS, not NOT IN: an anti-join by the index, where NOT IN read every card
            # the side of exact names has no row form: its cards are read from the name's index first
            flags.append(
                OrderFlag(
                    "c.rowid IN (SELECT card FROM card_name WHERE compact = ?)",
                    "NOT EXISTS (SELECT 1 FROM card_name e WHERE e.compact = ? AND e.card = c.rowid)",
                    (exact,),
                    None,
                    "NOT EXISTS (SELECT 1 FROM card_name e WHERE e.compact = ? AND e.card = {r})",
                )
            )
    if request.sort != "number":
        first = SORTS[request.sort].split(", ")[0].split(" COLLATE")[0]
        flags.append(OrderFlag(f"({first}) IS NOT NULL", f"({first}) IS NULL"))
        keys.append(OrderKey("c.rowid"))
    elif request.reverse:
        # undated cards (the last side, read at the end of a result) are found as before
        flags.append(OrderFlag("(s.release_date) IS NOT NULL", "(s.release_date) IS NULL", (), _UNDATED))
    return flags, keys


def _after(keys: list[OrderKey], values: list, dialect: str) -> tuple[str, list]:
    """The condition "after the row whose order keys are ``values``" (NULL the least value), as an
    OR of prefixes: ``k1 > v1 OR (k1 = v1 AND k2 > v2) OR ...``; ``k1 >= v1`` in front when the
    first key goes up, so the index on it can seek."""
    ors: list[str] = []
    params: list = []
    for i, key in enumerate(keys):
        ands: list[str] = []
        part: list = []
        for prev, value in zip(keys[:i], values[:i], strict=True):
            if value is None:
                ands.append(f"{prev.sql} IS NULL")
            else:
                ands.append(f"{prev.sql} = ?")
                part.append(value)
        value = values[i]
        if value is None:
            if key.desc:
                continue  # nothing comes after NULL going down
            ands.append(f"{key.sql} IS NOT NULL")
        elif key.desc:
            ands.append(f"({key.sql} < ? OR {key.sql} IS NULL)")
            part.append(value)
        else:
            ands.append(f"{key.sql} > ?")
            part.append(value)
        ors.append("(" + " AND ".join(ands) + ")")
        params += part
    if not ors:
        return ("0" if dialect == "sqlite" else "FALSE"), []
    cond = "(" + " OR ".join(ors) + ")"
    if not keys[0].desc and values[0] is not None and len(keys) > 1:
        cond = f"{keys[0].sql} >= ? AND {cond}"
        params = [values[0], *params]
    return cond, params


PAGE_COLUMNS = "c.id, c.game, c.set_code, c.number, c.name, c.type_line, c.stats, c.rarity"
"""The columns of a page's rows before their side and order keys (:func:`page_statement`)."""


def page_statement(
    request: SearchRequest,
    tree: Node | None,
    stem_langs: tuple[str, ...] | None,
    dialect: str,
    after: tuple[int, list] | None,
    size: int,
    offset: int = 0,
    exact_names: bool = True,
    index_order: bool = False,
    probe_rows: bool = False,
    posted: int | None = None,
) -> tuple[str, list, int]:
    """One page of a search read by keyset: ``size`` rows (``limit`` + 1 to tell whether more
    follow) from ``offset`` after the row ``after`` (``(side, its order key values)``, or None for
    the first row), never the whole result sorted. The order (:func:`order_plan`) is split at its
    flags into sides (exact names, then the rest; cards with the sort value, then those without),
    each read by its own ``ORDER BY ... LIMIT``, joined by ``UNION ALL`` in order; sides before the
    cursor's are not read. Only for :data:`SORTS` read in SQL (``request.sort != "name"`` and
    ``unique="prints"``). ``exact_names``: as :func:`order_plan`; ``index_order``: the query matches
    many cards (PostgreSQL then reads them in row order: :func:`_order_term`); ``probe_rows``: on
    PostgreSQL, a word or phrase in the default order is tested card by card in that order outside
    the side of exact names (:func:`pg_row_probe`), stopping after the page, for a word so common
    that the page's rows come sooner than its matches could be gathered and sorted; on SQLite, a
    word or phrase in the default order (either way) not known to match few cards reads each arm
    of its ``IN`` in row order from the cursor, ``offset + size`` rows at most
    (:func:`sqlite_row_arms`, :func:`_bounded_arms`), where the plain ``IN`` gathered every match
    before the page (issue 29); on PostgreSQL, a word or phrase gathered from its indexes in the
    default order chooses the page's row ids before reading any card (:func:`_gathered_first`).
    ``posted``: on PostgreSQL, a bare word known to pass this bound: its side of no flag, in the
    default order (up), reads its common arms' cards from ``word_rows`` (:func:`posted_side`)
    where that applies, before the other forms.

    Returns:
        ``(sql, params, sides)``: rows of :data:`PAGE_COLUMNS`, then the side's number, then the
        order key values (the next cursor's); ``sides`` is how many sides the order has.
    """
    where, where_params = compile_sql(tree, stem_langs, dialect)
    flags, keys = order_plan(request, tree, dialect, exact_names)
    join = _SORT_JOINS.get(request.sort, "")
    sides = 1 << len(flags)
    start_side = after[0] if after is not None else 0
    order = ", ".join(_order_term(k, dialect, index_order) for k in keys)
    key_columns = ", ".join(f"{k.sql} AS k{i}" for i, k in enumerate(keys))
    probe = None
    if probe_rows and dialect != "sqlite" and request.sort == "number" and not request.reverse:
        probe = pg_row_probe(tree, stem_langs)
    aliases, probe_where, probe_params = probe or ([], "", [])
    arms = sqlite_row_arms(tree, stem_langs) if probe_rows and dialect == "sqlite" and request.sort == "number" else None
    parts: list[str] = []
    params: list = []
    for side in range(start_side, sides):
        start = after[1][0] if after is not None and side == after[0] else None
        at_cursor = after is not None and side == after[0]
        # the last side is the one of no flag (not exact names): a broad word's many matches
        from_rows = None
        if posted is not None and dialect != "sqlite" and side == sides - 1 and request.sort == "number" and not request.reverse:
            from_rows = posted_side(tree, stem_langs, (where, where_params), posted, flags, side, start, at_cursor, offset + size)
        probed = probe is not None and side == sides - 1 and from_rows is None
        conds = [f"({probe_where})" if probed else f"({where})"]
        side_params = list(probe_params if probed else where_params)
        if from_rows is not None:
            bounded: tuple[str, list] | None = from_rows
        elif dialect == "sqlite":
            bounded = _bounded_arms(arms, flags, side, keys[0].desc, start, at_cursor, offset + size)
        elif not probed and request.sort == "number" and not request.reverse and isinstance(tree, Term) and tree.field in (None, "text"):
            # a word or phrase (a facet's page costs the same either way), not going down: its side of
            # dated cards tests each match's set (_UNDATED), slower than the plain IN (water reversed:
            # 10.2 against 3.9 ms)
            bounded = _gathered_first(conds[0][1:-1], side_params, flags, side, start, at_cursor, offset + size)
        else:
            bounded = None
        if bounded is not None:
            conds[0], side_params = bounded
        for bit, flag in enumerate(flags):
            true = bool(side >> (len(flags) - 1 - bit) & 1)
            conds.append(flag.true_sql if true else flag.false_sql)
            side_params += flag.params
        tables = ""
        if probed:
            tables = "".join(f" JOIN {_PROBED[a]} {a} ON {a}.rowid = c.rowid" for a in aliases)
        if after is not None and side == after[0]:
            cond, cond_params = _after(keys, after[1], dialect)
            conds.append(cond)
            side_params += cond_params
            if probed and after[1] and after[1][0] is not None:
                # the joined tables start at the cursor too: a merge join does not carry c.rowid's
                # range over to them (it would read every row before the cursor's)
                for a in aliases:
                    conds.append(f"{a}.rowid > ?")
                    side_params.append(after[1][0])
        sets = " LEFT JOIN card_set s ON s.code = c.set_code" if any(re.search(r"\bs\.", c) for c in conds) else ""
        parts.append(
            f"SELECT * FROM (SELECT {PAGE_COLUMNS}, {side} AS side, {key_columns} FROM card c{tables}{sets}{join}"
            f" WHERE {' AND '.join(conds)} ORDER BY {order} LIMIT ?) AS side{side}"
        )
        params += [*side_params, offset + size]
    sql = " UNION ALL ".join(parts) + " LIMIT ? OFFSET ?"
    return sql, [*params, size, offset], sides


def _bounded_arms(
    arms: tuple[list[tuple[str, str]], list] | None,
    flags: list[OrderFlag],
    side: int,
    desc: bool,
    start: object,
    at_cursor: bool,
    rows: int,
) -> tuple[str, list] | None:
    """SQLite, a side of the default order of a word or phrase (:func:`sqlite_row_arms`): its
    condition with each arm read in row order (``desc``: down), after the cursor's row id
    ``start`` (``at_cursor``), with the side's flags (:class:`OrderFlag` ``row_false``/``row_true``),
    ``rows`` rows at most: ``(condition, parameters)``. FTS5 gives a ``MATCH``'s rows in row id order
    and seeks to ``rowid > ?``, so a page reads ``rows`` rows an arm where the plain ``IN`` gathered
    every match first (issue 29); the arms of names and ids are kept whole (as few rows as a name's
    cards). None when the side cannot be read so (another query, a flag with no row form, a cursor
    whose key is not a row id): its condition is then the plain one."""
    extra = None if arms is None else _row_flags(flags, side, start, at_cursor)
    if arms is None or extra is None:
        return None
    selects: list[str] = []
    params: list = []
    arm_params = list(arms[1])
    for column, body in arms[0]:
        table, cond = body.split(" WHERE ", 1)
        if not table.startswith("card_"):
            # the names typed without spaces and the card of an id: as few as the name's cards, kept
            # whole (the side's flags and cursor are tested on card); read in row order with a LIMIT,
            # SQLite would rather walk every card in row order testing each
            selects.append(f"SELECT {column} FROM {body}")
            params += arm_params[: cond.count("?")]
            arm_params = arm_params[cond.count("?") :]
            continue
        # named by its table: a flag's subquery has a rowid of its own
        column = f"{table}.{column}" if column == "rowid" else column
        n = cond.count("?")
        conds = [cond]
        params += arm_params[:n]
        arm_params = arm_params[n:]
        if at_cursor:
            conds.append(f"{column} {'<' if desc else '>'} ?")
            params.append(start)
        for template, flag_params in extra:
            conds.append(template.replace("{r}", column))
            params += flag_params
        selects.append(
            f"SELECT * FROM (SELECT {column} FROM {table} WHERE {' AND '.join(conds)} ORDER BY {column}{' DESC' if desc else ''} LIMIT ?)"
        )
        params.append(rows)
    return "c.rowid IN (" + " UNION ALL ".join(selects) + ")", params


def _row_flags(flags: list[OrderFlag], side: int, start: object, at_cursor: bool) -> list[tuple[str, tuple]] | None:
    """The conditions of ``side``'s flags on a row id ``{r}`` (:class:`OrderFlag` ``row_false`` /
    ``row_true``), each with its parameters: what a side read by row id tests. None when one of
    them has no row form, or on the cursor's side (``at_cursor``) when its key ``start`` is not a
    row id."""
    if at_cursor and (isinstance(start, bool) or not isinstance(start, int)):
        return None
    extra: list[tuple[str, tuple]] = []
    for bit, flag in enumerate(flags):
        template = flag.row_true if side >> (len(flags) - 1 - bit) & 1 else flag.row_false
        if template is None:
            return None
        extra.append((template, flag.params))
    return extra


def _gathered_first(
    where: str, params: list, flags: list[OrderFlag], side: int, start: object, at_cursor: bool, rows: int
) -> tuple[str, list] | None:
    """PostgreSQL, a side of the default order (up) whose condition is one ``c.rowid IN (...)`` (a word
    or phrase, gathered from its indexes): that condition with the page's row ids chosen inside it,
    ``rows`` at most after the cursor's row id ``start`` (``at_cursor``) with the
    side's flags (:func:`_row_flags`), so that only the page's cards are read from ``card``. The
    plain ``IN`` joined every match to ``card`` in row order before the page: 3.0 against 2.0 ms a
    page of ``water`` (1,203 matches at 100,000 cards, EXPLAIN ANALYZE, BENCHMARKS.md). None when
    the side cannot be read so (another condition, a flag with no row form: the side of exact
    names, read from the name's index first; a cursor whose key is not a row id)."""
    arms = _gathered_arms(where)
    if arms is None:
        return None
    extra = _row_flags(flags, side, start, at_cursor)
    if extra is None:
        return None
    return _first_ids(arms, params, extra, start, at_cursor, rows)


def _gathered_arms(where: str) -> str | None:
    """The arms of ``where`` when it is one ``c.rowid IN (...)`` with no quoted text (a word or
    phrase gathered from its indexes on PostgreSQL: :func:`_pg_text_sql`), else None."""
    head = "c.rowid IN ("
    if "'" in where or not where.startswith(head) or not where.endswith(")") or _closing(where, len(head) - 1) != len(where) - 1:
        return None
    return where[len(head) : -1]


def _first_ids(arms: str, params: list, extra: list[tuple[str, tuple]], start: object, at_cursor: bool, rows: int) -> tuple[str, list]:
    """``c.rowid IN`` the first ``rows`` row ids that ``arms`` (a SELECT of row ids, ``params``)
    gives with a side's flags (``extra``: :func:`_row_flags`), after ``start`` when ``at_cursor``:
    a gathered side's page chosen by row id before any card is read (:func:`_gathered_first`,
    :func:`posted_side`)."""
    conds: list[str] = []
    cond_params: list = []
    for template, flag_params in extra:
        conds.append(template.replace("{r}", "a.r"))
        cond_params += flag_params
    if at_cursor:
        conds.append("a.r > ?")
        cond_params.append(start)
    filtered = f" WHERE {' AND '.join(conds)}" if conds else ""
    sql = f"c.rowid IN (SELECT a.r FROM ({arms}) AS a(r){filtered} GROUP BY a.r ORDER BY a.r LIMIT ?)"
    return sql, [*params, *cond_params, rows]


def counted_page_statement(
    request: SearchRequest,
    tree: Node | None,
    stem_langs: tuple[str, ...] | None,
    size: int,
    offset: int,
    bound: int,
    exact_names: bool = True,
) -> tuple[str, list] | None:
    """PostgreSQL, the first page of a word or phrase in the default order (``size`` rows from
    ``offset``, no cursor) and its total counted up to ``bound`` + 1, in one statement: its
    matches are gathered once from its indexes, each with its side (:func:`order_plan`'s flags on
    its row id), the page's row ids are chosen among them, and only those cards are read. A page
    of sides (:func:`page_statement`) and its count (:func:`bounded_count_statement`) each gathered
    the matches: 0.71 against 1.36 ms for ``noru`` (90 matches at 100,000 cards), 0.28 against
    0.38 ms for a word with none (BENCHMARKS.md). For a word not known to pass the bound (every
    match is gathered, as a page of sides gathers them).

    Returns:
        ``(sql, params)``: one row of NULL card columns, side -1 and the total (at most ``bound``
        + 1), then the page's rows as :func:`page_statement` gives them; None for another order, a
        cursor's page or a condition not gathered from its indexes (one ``c.rowid IN (...)``).
    """
    if request.sort != "number" or request.reverse:
        return None
    where, params = compile_sql(tree, stem_langs, "postgresql")
    if _gathered_arms(where) is None:
        return None
    flags, keys = order_plan(request, tree, "postgresql", exact_names)
    extra = _row_flags(flags, (1 << len(flags)) - 1, None, False)
    if extra is None or [k.sql for k in keys] != ["c.rowid"]:
        return None
    bits: list[str] = []
    side_params: list = []
    for bit, (template, flag_params) in enumerate(extra):
        bits.append(f"(CASE WHEN {template.replace('{r}', 'c.rowid')} THEN {1 << (len(flags) - 1 - bit)} ELSE 0 END)")
        side_params += flag_params
    side = " + ".join(bits) or "0"
    nulls = ", ".join(["NULL"] * len(PAGE_COLUMNS.split(", ")))
    sql = (
        f"WITH m AS MATERIALIZED (SELECT c.rowid AS r, {side} AS side FROM card c WHERE {where}),"
        " p AS (SELECT r, side FROM m ORDER BY side, r LIMIT ? OFFSET ?)"
        f" SELECT {nulls}, -1, (SELECT COUNT(*) FROM (SELECT 1 FROM m LIMIT {int(bound) + 1}) AS n)"
        f" UNION ALL (SELECT {PAGE_COLUMNS}, p.side, c.rowid AS k0 FROM p JOIN card c ON c.rowid = p.r ORDER BY p.side, p.r)"
    )
    return sql, [*side_params, *params, size, offset]


def posted_side(
    tree: Node | None,
    stem_langs: tuple[str, ...] | None,
    condition: tuple[str, list],
    bound: int,
    flags: list[OrderFlag],
    side: int,
    start: object,
    at_cursor: bool,
    rows: int,
) -> tuple[str, list] | None:
    """PostgreSQL, a side of a bare word's default order (up) whose condition is ``condition``
    (:func:`compile_sql`'s, with its parameters) read from ``word_rows`` (built with
    ``word_stat`` for ``bound``: :data:`cardlab.index.postgres.TABLES`): the cards of the word's
    ``card_fts`` arm and of each of its stems, when that arm is common, are read as runs of row
    ids from the cursor's row id ``start`` (``at_cursor``) on, enough runs for ``rows`` cards
    with the side's flags (:func:`_row_flags`: the cards of its exact name, which the side of
    no flag leaves out, are counted in), as SQLite reads FTS5's row-ordered lists; an arm that is
    not common is gathered from its GIN index (at most ``bound`` cards: a one-time filter skips
    the index when the arm has runs), and so are the names typed without spaces and the card id.
    Where a GIN index gathers every match of a common word (or a page in row order reads every
    card until the page's): ``pied`` (2,069 cards at 100,000) 8.9 ms in row order, 14.5 gathered
    (BENCHMARKS.md).

    Returns:
        ``(the side's condition on c.rowid, its parameters)``, or None where it does not apply
        (not one bare word, a stem of several words, a flag with no row form).
    """
    if not isinstance(tree, Term) or tree.field is not None or tree.quoted or tree.op == "!=" or has_cjk(tree.value):
        return None
    keys = word_stat_keys(tree, stem_langs)
    if keys is None or not keys[0] or not keys[1] or keys[1][0][0] != WORD_UNION_COL:
        return None
    extra = _row_flags(flags, side, start, at_cursor)
    if extra is None:
        return None
    words = _fts_words(tree.value)
    conds, stems, names, card_id = _pg_text_parts(tree, words, None, stem_langs)
    if _pg_text_sql(tree, words, None, stem_langs) != condition:
        return None
    token = keys[1][0][1]
    stem_lexemes = [lexeme for _col, lexeme, _prefix in keys[1][1:]]
    exact = [p for flag in flags for p in flag.params][:1]
    where = f"bound = {int(bound)} AND col = ? AND lexeme = ?"
    # the runs that hold ``rows`` cards and the exact names' (one more: the cursor's run, part read)
    runs = (
        "(SELECT (? + (SELECT count(*) FROM card_name WHERE compact = ?) + docs - 1) / NULLIF(docs, 0)"
        f"{' + 1' if at_cursor else ''} FROM word_stat WHERE bound = {int(bound)} AND col = '' AND lexeme = '')"
    )
    after = " AND last > ?" if at_cursor else ""
    arms: list[str] = []
    params: list = []
    named = exact[0] if exact else ""
    for col, lexeme in [(WORD_UNION_COL, token), *(("stems", s) for s in stem_lexemes)]:
        # the arm's first cards after the cursor, as many as the page and the exact names need
        arms.append(
            f"SELECT x.r FROM (SELECT u.r FROM (SELECT rowids FROM word_rows WHERE {where}{after} ORDER BY last LIMIT {runs}) AS w"
            f" CROSS JOIN LATERAL unnest(w.rowids) AS u(r){' WHERE u.r > ?' if at_cursor else ''}"
            " ORDER BY u.r LIMIT ? + (SELECT count(*) FROM card_name WHERE compact = ?)) AS x"
        )
        params += [col, lexeme, *([start] if at_cursor else []), rows, named, *([start] if at_cursor else []), rows, named]
    if conds:
        arms.append(
            "SELECT rowid FROM card_fts WHERE (" + " OR ".join(f"{c} @@ ?::tsquery" for c, _ in conds) + ")"
            f" AND NOT EXISTS (SELECT 1 FROM word_rows WHERE {where})"
        )
        params += [*(q for _, q in conds), WORD_UNION_COL, token]
    for lexeme in stem_lexemes if stems else []:
        arms.append(f"SELECT rowid FROM card_stem WHERE stems @@ ?::tsquery AND NOT EXISTS (SELECT 1 FROM word_rows WHERE {where})")
        params += [tsquery_phrase([lexeme]), "stems", lexeme]
    if names:
        arms.append("SELECT card FROM card_name WHERE compact >= ? AND compact < ?")
        params += list(names)
    if card_id is not None:
        arms.append("SELECT rowid FROM card WHERE id = ?")
        params.append(card_id)
    return _first_ids(" UNION ALL ".join(arms), params, extra, start, at_cursor, rows)


def _closing(sql: str, opening: int) -> int:
    """The index of the parenthesis closing the one at ``opening`` in ``sql`` (a statement with no
    quoted text), or -1."""
    depth = 0
    for i in range(opening, len(sql)):
        if sql[i] == "(":
            depth += 1
        elif sql[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


_PROBED = {"f": "card_fts", "st": "card_stem"}
"""The full-text tables of :func:`pg_row_probe` by alias."""


def _order_term(key: OrderKey, dialect: str, index_order: bool = True) -> str:
    """``key`` as an ORDER BY term. ``index_order``: the row id (never NULL) without a NULLS
    clause, so that PostgreSQL may read the cards in its primary key's order and stop after the
    page (``NULLS FIRST`` going up is not that order: every match is sorted, which is what a query
    with few matches wants)."""
    if key.sql == "c.rowid" and (index_order or dialect == "sqlite"):
        return "c.rowid DESC" if key.desc else "c.rowid"
    return order_terms([key.sql], key.desc, dialect)[0]


def bounded_count_statement(tree: Node | None, stem_langs: tuple[str, ...] | None, dialect: str, bound: int | None) -> tuple[str, list]:
    """The statement counting the cards that match ``tree`` up to ``bound`` + 1 (None: all of
    them): ``(sql, params)``, one row, one number. Counting stops at the bound, so a query matching
    every card costs what one matching ``bound`` cards costs."""
    where, params = compile_sql(tree, stem_langs, dialect)
    if bound is None:
        return f"SELECT COUNT(*) FROM card c WHERE {where}", params
    return f"SELECT COUNT(*) FROM (SELECT 1 FROM card c WHERE {where} LIMIT {int(bound) + 1}) AS matches", params


def word_count_statement(tree: Node | None, stem_langs: tuple[str, ...] | None, dialect: str, bound: int) -> tuple[str, list] | None:
    """For a query of one word or phrase (its names and rules text), the statement counting the
    cards its whole words match, up to ``bound`` + 1: a lower bound of its matches read from the
    full-text index alone (the first arm of its ``IN``), which stops at the bound where the whole
    count would gather every match first. None for any other query. On PostgreSQL the row also
    holds the row id of the last row counted and the highest row id of ``card_fts``: how far into
    the cards (read in row order, as the table was written) the counted matches reach, what decides
    whether a page reads the cards in row order (:func:`pg_row_probe`).

    Returns:
        ``(sql, params)`` (one row: the number, and on PostgreSQL the two row ids and the number
        again, as the transaction's setting :data:`WORDS_SETTING`: :func:`gated`), or None. On
        PostgreSQL a bare word within the bound may give 0 (not counted: :func:`_word_stat`).
    """
    if not _full_text_term(tree):
        return None
    sql, params = _positive_term_sql(tree, stem_langs, dialect)
    head = "c.rowid IN ("
    if not sql.startswith(head) or not sql.endswith(")"):
        return None
    arm = sql[len(head) : -1].split(" UNION ALL ")[0]
    if "FROM card_fts WHERE" not in arm or "(" in arm:
        return None
    params = params[: arm.count("?")]
    if dialect == "sqlite":
        return f"SELECT COUNT(*) FROM ({arm} LIMIT {int(bound) + 1}) AS words", params
    counted = f"SELECT COUNT(*) AS n, MAX(rowid) AS last FROM ({arm} LIMIT {int(bound) + 1}) AS w"
    stat = _word_stat(tree, stem_langs, bound)
    if stat is not None:
        # read from word_stat when it tells: the count is then not run (LIMIT 1)
        counted = " UNION ALL ".join(f"({branch})" for branch in [*stat[0], counted]) + " LIMIT 1"
        params = [*stat[1], *params]
    words = f"SELECT n, last, (SELECT MAX(rowid) FROM card_fts), set_config('{WORDS_SETTING}', n::text, true) FROM ({counted}) AS words"
    return words, params


@lru_cache(maxsize=1024)
def word_stat_keys(tree: Term, stem_langs: tuple[str, ...] | None) -> tuple[bool, list[tuple[str, str, bool]]] | None:
    """PostgreSQL, a word of one token: the ``word_stat`` rows that tell whether its ``card_fts``
    arm or its ``card_stem`` arm matches more than the bound (:func:`_word_stat`; either makes the
    word's matches pass it): ``(whole, [(col, lexeme, prefix)])``, ``prefix`` when every lexeme
    beginning with it counts. A bare word's ``card_fts`` arm (a name lexeme it begins, or the
    token in the rules text) is one row counted whole at build time (``names*|body``); another arm
    (``text:``, quoted) is read by its lexemes, one of which passes the bound; the stemmed arm by
    its lexeme in each language (``stems``: ``en_attack``). ``whole``: a word with no row has both
    arms within the bound (a bare word whose stems are one lexeme each). A rare word with a common
    stem (``attacking``) is told by its stem: its page is then read as a common word's.

    Returns:
        The rows, or None for a phrase, a word of other tokens or an arm of other forms.
    """
    words = _fts_words(tree.value)
    tokens = list(tokens_of(" ".join(words)))
    if len(tokens) != 1:
        return None
    conds, stems, _names, _card_id = _pg_text_parts(tree, words, "body" if tree.field == "text" else None, stem_langs)
    token = tokens[0]
    # the stemmed arm: one lexeme a language (a word stemmed to several tokens is told by the others)
    stemmed = [] if stems is None else _stem_tokens(tree.value, stem_langs)
    stem_keys = [("stems", lexemes[0], False) for lexemes in stemmed if len(lexemes) == 1]
    whole = len(stem_keys) == len(stemmed)
    if conds == [("names", quote(token) + ":*"), ("body", quote(token))]:
        return whole, [(WORD_UNION_COL, token, False), *dict.fromkeys(stem_keys)]
    keys = []
    for column, query in conds:
        if query not in (quote(token) + ":*", quote(token)):
            return None
        keys.append((column, token, query != quote(token)))
    return (False, [*keys, *dict.fromkeys(stem_keys)]) if keys else None


WORD_UNION_COL = "names*|body"
"""``word_stat.col`` of the rows counting a bare word's whole arm (``cardlab.index.postgres.WORD_UNION``)."""


def _word_stat(tree: Term, stem_langs: tuple[str, ...] | None, bound: int) -> tuple[list[str], list] | None:
    """PostgreSQL, a word of one token: the statement reading, from ``word_stat``
    (:data:`cardlab.index.postgres.TABLES`), whether its ``card_fts`` arm matches more than
    ``bound`` cards (the rows of :func:`word_stat_keys`): one row ``(bound + 1, the row id by which
    bound + 1 of them are read)`` when it does, else none. A bare word with no row is within the
    bound: a second statement then gives ``(0, NULL)`` (not counted) when ``word_stat`` was built
    for this bound (its row of no lexeme). For another arm, the least row id of its lexemes that
    pass the bound: no earlier than the arm's own, so the density it gives
    (:func:`cardlab.search.engine._row_order`), errs toward gathering. Counting such a word from
    its GIN index gathers every match first (2.9 ms for ``energy`` at 100,000 cards).

    Returns:
        ``(the statements, their parameters)``, or None for a phrase or a word of other tokens.
    """
    keys = word_stat_keys(tree, stem_langs)
    if keys is None:
        return None
    whole, rows = keys
    ors: list[str] = []
    params: list = []
    for column, lexeme, prefix in rows:
        if prefix:
            ors.append("(col = ? AND lexeme >= ? AND lexeme < ?)")
            params += [column, lexeme, _after_prefix(lexeme)]
        else:
            ors.append("(col = ? AND lexeme = ?)")
            params += [column, lexeme]
    branches = [
        f"SELECT {int(bound) + 1}::bigint AS n, MIN(reach) AS last FROM word_stat"
        f" WHERE bound = {int(bound)} AND ({' OR '.join(ors)}) HAVING COUNT(*) > 0"
    ]
    if whole:
        branches.append(f"SELECT 0::bigint, NULL::bigint FROM word_stat WHERE bound = {int(bound)} AND col = '' AND lexeme = ''")
    return branches, params


def word_stats_statement(bound: int) -> str:
    """PostgreSQL: the statement reading every ``word_stat`` row kept for ``bound`` (the row of no
    lexeme included) with the highest row id of ``card_fts``: what :class:`WordStats` is made of,
    read once per index by a process that searches it."""
    return f"SELECT col, lexeme, docs, reach, (SELECT MAX(rowid) FROM card_fts) FROM word_stat WHERE bound = {int(bound)}"


@dataclass(frozen=True)
class WordStats:
    """PostgreSQL: an index's ``word_stat`` rows for one bound, held by the searching process
    (:func:`word_stats_statement`), so that a word's first page knows whether the word passes the
    bound before it is sent: a page read in its one message, not after its count.

    ``lexemes``: ``col -> {lexeme: reach}``; ``complete``: the row of no lexeme is there (a bare
    word with no row is within the bound); ``cards``: the highest row id of ``card_fts`` (0: none)."""

    bound: int
    lexemes: dict[str, dict[str, int]]
    complete: bool
    cards: int

    @classmethod
    def of(cls, rows: list, bound: int) -> WordStats:
        """From the rows of :func:`word_stats_statement` for ``bound``."""
        lexemes: dict[str, dict[str, int]] = {}
        complete, cards = False, 0
        for col, lexeme, _docs, reach, highest in rows:
            cards = highest or 0
            if col == "" and lexeme == "":
                complete = True
            else:
                lexemes.setdefault(col, {})[lexeme] = reach
        return cls(bound, lexemes, complete, cards)

    def words(self, tree: Node | None, stem_langs: tuple[str, ...] | None) -> tuple[int, int | None, int] | None:
        """The row :func:`word_count_statement` gives for ``tree`` on this index, where these rows
        tell it: ``(bound + 1, the least row id by which bound + 1 cards of a passing lexeme are
        read, the highest row id)`` when the word passes the bound, ``(0, None, the highest row
        id)`` for a bare word within it; None when only a count can tell (or not one word)."""
        if not _full_text_term(tree):
            return None
        keys = word_stat_keys(tree, stem_langs)
        if keys is None:
            return None
        whole, rows = keys
        reaches = []
        for col, lexeme, prefix in rows:
            kept = self.lexemes.get(col, {})
            if prefix:
                reaches += [reach for word, reach in kept.items() if word.startswith(lexeme)]
            elif lexeme in kept:
                reaches.append(kept[lexeme])
        if reaches:
            return self.bound + 1, min(reaches), self.cards
        return (0, None, self.cards) if whole and self.complete else None


WORDS_SETTING = "cardlab.words"
"""The setting a PostgreSQL word count leaves for the rest of its transaction: the number it counted."""


def gated(sql: str, bound: int) -> str:
    """``sql`` (a SELECT) read only when the word count run just before it in the same PostgreSQL
    transaction (:func:`word_count_statement`) is within ``bound``: a one-time filter on
    :data:`WORDS_SETTING` (PostgreSQL does not start the statement's plan otherwise; unset: no rows).
    A word's first page and its total then travel with its count (``engine._first_view``)."""
    return f"SELECT * FROM ({sql}) AS gated WHERE current_setting('{WORDS_SETTING}', true)::bigint <= {int(bound)}"


def counted_sql(count: str) -> str:
    """``count`` (a SELECT of one number: :func:`bounded_count_statement`) leaving that number in
    :data:`WORDS_SETTING` for the rest of its PostgreSQL transaction (:func:`when_found`)."""
    return f"SELECT n, set_config('{WORDS_SETTING}', n::text, true) FROM ({count}) AS counted(n)"


def when_found(sql: str) -> str:
    """``sql`` (a SELECT) read only when the count run just before it in the same PostgreSQL
    transaction (:func:`counted_sql`) found a card: a word that matches nothing reads no page."""
    return f"SELECT * FROM ({sql}) AS gated WHERE current_setting('{WORDS_SETTING}', true)::bigint > 0"
