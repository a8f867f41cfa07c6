"""Closed vocabularies: a value of a field of :data:`cardlab.search.fields.CLOSED_FIELDS` is checked
against the values the index holds (one seek in the usual case), so ``type:electric`` is a query
error with a caret and "did you mean", never a silent empty result."""

from __future__ import annotations

import json
import sqlite3

from cardlab import games
from cardlab.core.fuzzy import did_you_mean, suggest
from cardlab.core.l10n import _, either
from cardlab.core.text import norm_value
from cardlab.search.fields import CLOSED_FIELDS, SCRYFALL_RARITY_LETTERS, TYPE_LINE_FIELDS
from cardlab.search.query.tree import Node, QueryError, Term, replace_terms, terms


def _vocabulary(con: sqlite3.Connection, field_name: str) -> list[str]:
    """The values of a closed field the index holds (folded), plus each set's rarities."""
    if field_name == "game":
        values = {r[0] for r in con.execute("SELECT DISTINCT game FROM card_set")}
    elif field_name == "set":
        values = {r[0] for r in con.execute("SELECT key FROM set_key")}
    else:
        # the distinct values by a skip scan of the (field, text) key: one seek per value, not one
        # step per card (type: 7 seeks instead of 25,000 rows at 30,000 cards); type: the whole type line
        values = {
            r[0]
            for name in (TYPE_LINE_FIELDS if field_name == "type" else (field_name,))
            for r in con.execute(
                "WITH RECURSIVE v(t) AS (SELECT MIN(text) FROM facet_text WHERE field = ? UNION ALL"
                " SELECT (SELECT MIN(text) FROM facet_text WHERE field = ? AND text > v.t) FROM v WHERE v.t IS NOT NULL)"
                " SELECT t FROM v WHERE t IS NOT NULL",
                (name, name),
            )
        }
    if field_name == "rarity":
        for (data,) in con.execute("SELECT data FROM card_set"):
            values.update(norm_value(r) for r in json.loads(data).get("rarities") or [] if isinstance(r, str))
    if field_name == "game":
        values.update(games.GAMES)
    if field_name == "set":  # every set of the catalog, with or without cards yet (Ippo: 0 of 162)
        for code, aliases in con.execute("SELECT code, aliases FROM card_set"):
            values.update(norm_value(v) for v in [code, *json.loads(aliases or "[]")])
    return sorted(values)


def _holds(con: sqlite3.Connection, field_name: str, value: str) -> bool:
    """True when ``value`` (normalized) is surely in :func:`_vocabulary` of ``field_name``: a card or
    set of the index holds it (False may still be in it: the vocabulary then decides)."""
    if field_name == "game":
        sql, params = "SELECT 1 FROM card_set WHERE game = ? LIMIT 1", [value]
    elif field_name == "set":
        sql, params = "SELECT 1 FROM set_key WHERE key = ? LIMIT 1", [value]
    elif field_name == "type":
        marks = ", ".join("?" * len(TYPE_LINE_FIELDS))
        sql, params = f"SELECT 1 FROM facet_text WHERE field IN ({marks}) AND text = ? LIMIT 1", [*TYPE_LINE_FIELDS, value]
    else:
        sql, params = "SELECT 1 FROM facet_text WHERE field = ? AND text = ? LIMIT 1", [field_name, value]
    return con.execute(sql, params).fetchone() is not None


def check_vocabulary(con: sqlite3.Connection, query: str, tree: Node | None) -> Node | None:
    """Check every value of a closed field (:data:`CLOSED_FIELDS`) against the values the catalog
    holds; Scryfall's rarity letters (``r:c``, ``r:u``, ``r:r``: :data:`SCRYFALL_RARITY_LETTERS`)
    become that rarity where the catalog has it. Returns the tree (letters replaced).

    Raises:
        QueryError: a value outside the vocabulary, with the offending column and "did you mean".
    """
    new: dict[int, Term] = {}
    cache: dict[str, list[str]] = {}
    for t in terms(tree):
        if t.field not in CLOSED_FIELDS:
            continue
        if t.field not in cache and _holds(con, t.field, norm_value(t.value)):
            continue  # the usual case: one seek instead of the field's whole vocabulary
        known = cache.get(t.field)
        if known is None:
            known = cache[t.field] = _vocabulary(con, t.field)
        if not known:
            continue  # no card of the catalog has this field (another game's field)
        value = norm_value(t.value)
        if value in known:
            continue
        if t.field == "rarity" and SCRYFALL_RARITY_LETTERS.get(value) in known:
            new[t.pos] = Term(t.field, t.op, SCRYFALL_RARITY_LETTERS[value], t.pos, t.quoted)
            continue
        hint = suggest(t.value, known)
        shown = did_you_mean([f"{t.field}:{_quoted(h)}" for h in hint], either)
        listed = ", ".join(known[:20]) + (_(" and {n} more").format(n=len(known) - 20) if len(known) > 20 else "")
        raise QueryError(
            query,
            t.pos,
            _("no card has {field} '{value}'{mean} (known: {known})").format(field=t.field, value=t.value, mean=shown, known=listed),
        )
    return replace_terms(tree, new) if new else tree


def _quoted(value: str) -> str:
    return f'"{value}"' if " " in value else value
