"""The words SQLite's full-text tables see in a text, for the PostgreSQL index.

The SQLite index leaves tokenizing to FTS5 (``unicode61 remove_diacritics 2`` for names and rules
text, ``unicode61 tokenchars '_'`` for stemmed words: :data:`cardlab.index.sqlite.FTS_DDL`).
PostgreSQL's own parser splits text differently (``ho-oh``, ``a_b``, digits, symbols), so the
PostgreSQL index (:mod:`cardlab.index.postgres`) and its queries (:mod:`cardlab.search.compile`) take
their words from the same FTS5 tokenizers, here: an in-memory FTS5 table per tokenizer and its
``fts5vocab`` ``instance`` table give every token with its offset. Both backends then see the same
words at the same positions by construction, not by imitation.
"""

from __future__ import annotations

import sqlite3
import threading
from functools import lru_cache

TOKENIZERS = {
    "text": "unicode61 remove_diacritics 2",
    "stems": "unicode61 tokenchars '_'",
}
"""Tokenizer of each kind of full-text column: ``text`` (card_fts: names, body), ``stems`` (card_stem)."""

_lock = threading.Lock()
_con: sqlite3.Connection | None = None


def _connection() -> sqlite3.Connection:
    global _con
    if _con is None:
        con = sqlite3.connect(":memory:", check_same_thread=False)
        for kind, spec in TOKENIZERS.items():
            con.execute(f'CREATE VIRTUAL TABLE tok_{kind} USING fts5(x, tokenize = "{spec.replace(chr(34), chr(34) * 2)}")')
            con.execute(f"CREATE VIRTUAL TABLE vocab_{kind} USING fts5vocab(tok_{kind}, instance)")
        _con = con
    return _con


def tokenize(texts: list[str], kind: str = "text") -> list[list[str]]:
    """Return the tokens of each text as FTS5 sees them, in order (folded by the tokenizer: lower
    case, diacritics removed).

    Args:
        texts: the texts (each already folded by :func:`cardlab.core.text.fold`).
        kind: a key of :data:`TOKENIZERS`.

    Returns:
        One list of tokens per text (empty for a text with no word).
    """
    if kind not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer kind {kind!r}")
    out: list[list[str]] = [[] for _ in texts]
    if not texts:
        return out
    with _lock:
        con = _connection()
        try:
            con.executemany(f"INSERT INTO tok_{kind} (rowid, x) VALUES (?, ?)", [(i, t) for i, t in enumerate(texts) if t])
            rows = con.execute(f"SELECT doc, offset, term FROM vocab_{kind} ORDER BY doc, offset").fetchall()
        finally:
            con.execute(f"DELETE FROM tok_{kind}")
    for doc, _offset, term in rows:
        out[doc].append(term)
    return out


@lru_cache(maxsize=4096)
def tokens_of(text: str, kind: str = "text") -> tuple[str, ...]:
    """The tokens of one text as :func:`tokenize` gives them, remembered (the last 4,096 texts): a
    query's words are cut once per process, not at every search (about 50 µs each).

    Args:
        text: the text (already folded); kind: a key of :data:`TOKENIZERS`.
    """
    return tuple(tokenize([text], kind)[0])


def tsvector(tokens: list[str]) -> str:
    """Return a PostgreSQL ``tsvector`` literal holding ``tokens`` at positions 1, 2, ... (as FTS5
    numbers them), each lexeme quoted as is: no dictionary or stemming applies to it.

    PostgreSQL keeps positions up to 16,383 and 256 of them per lexeme; a card's text holds far
    fewer words."""
    return " ".join(f"{quote(t)}:{min(i, 16383)}" for i, t in enumerate(tokens, 1))


def quote(token: str) -> str:
    """A lexeme quoted for a ``tsvector`` or ``tsquery`` literal."""
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery_phrase(tokens: list[str], prefix: bool = False) -> str:
    """A ``tsquery`` literal for the phrase ``tokens`` (each right after the previous: ``<->``), the
    last one as a prefix when ``prefix`` (FTS5's ``"a b"*``). Empty tokens: empty text."""
    if not tokens:
        return ""
    parts = [quote(t) for t in tokens]
    if prefix:
        parts[-1] += ":*"
    return " <-> ".join(parts)
