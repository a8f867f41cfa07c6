"""FTS5's words for the PostgreSQL index and its queries (cardlab.index.tokens)."""

from __future__ import annotations

from cardlab.index import tokens


def test_tokenize_cuts_as_fts5_does():
    assert tokens.tokenize(["ho-oh ex", "", "pokémon a_b"]) == [["ho", "oh", "ex"], [], ["pokemon", "a", "b"]]
    assert tokens.tokenize(["en_fire en_spin"], "stems") == [["en_fire", "en_spin"]]


def test_tokens_of_one_text_are_remembered():
    tokens.tokens_of.cache_clear()
    assert tokens.tokens_of("ho-oh ex") == ("ho", "oh", "ex")
    assert tokens.tokens_of("a_b", "stems") == ("a_b",)
    assert tokens.tokens_of("a_b") == ("a", "b")
    assert tokens.tokens_of("ho-oh ex") == ("ho", "oh", "ex")
    info = tokens.tokens_of.cache_info()
    assert (info.hits, info.misses) == (1, 3)
