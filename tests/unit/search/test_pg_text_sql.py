"""The PostgreSQL dialect of full-text terms (cardlab.search.query._pg_text_sql through compile_sql),
SQL and parameters exactly: the same phrases as FTS5's MATCH strings, as tsquery literals."""

from __future__ import annotations

import pytest

from cardlab.search.query import compile_sql, parse

FTS = "SELECT rowid FROM card_fts WHERE names @@ ?::tsquery OR body @@ ?::tsquery"
STEMS = "SELECT rowid FROM card_stem WHERE stems @@ ?::tsquery"
PREFIX = "SELECT card FROM card_name WHERE compact >= ? AND compact < ?"


def pg(query: str, stem_langs: tuple[str, ...] | None) -> tuple[str, list]:
    return compile_sql(parse(query), stem_langs, "postgresql")


@pytest.mark.parametrize(
    ("query", "langs", "params"),
    [
        ("pika", ("en", "fr"), ["'pika':*", "'pika'", "('en_pika') | ('fr_pik')", "pika", "pikb"]),
        (
            '"fire spin"',
            ("en", "fr"),
            ["'fire' <-> 'spin'", "'fire' <-> 'spin'", "('en_fire' <-> 'en_spin') | ('fr_fir' <-> 'fr_spin')", "firespin", "firespio"],
        ),
        ("ho-oh", ("en",), ["'ho' <-> 'oh':*", "'ho' <-> 'oh'", "('en_ho' <-> 'en_oh')", "hooh", "hooi"]),
        ('"pika"', ("en",), ["'pika'", "'pika'", "('en_pika')", "pika", "pikb"]),
        ("fire", ("en", "en"), ["'fire':*", "'fire'", "('en_fire')", "fire", "firf"]),  # the same stems once
    ],
)
def test_a_bare_word_or_phrase(query, langs, params):
    assert pg(query, langs) == (f"c.rowid IN ({FTS} UNION ALL {STEMS} UNION ALL {PREFIX})", params)


def test_no_stem_language_leaves_the_stems_out():
    assert pg("pika", ()) == (f"c.rowid IN ({FTS} UNION ALL {PREFIX})", ["'pika':*", "'pika'", "pika", "pikb"])


def test_every_stemmer_language_when_the_index_does_not_say():
    sql, params = pg("pika", None)
    assert sql == f"c.rowid IN ({FTS} UNION ALL {STEMS} UNION ALL {PREFIX})"
    assert params[2].split(" | ")[:3] == ["('ar_pika')", "('ca_pik')", "('cs_pik')"]
    assert len(params[2].split(" | ")) == 28


def test_a_field_searches_its_column_only_and_no_name_prefix():
    assert pg('text:"draw a card"', ("en", "fr")) == (
        f"c.rowid IN (SELECT rowid FROM card_fts WHERE body @@ ?::tsquery UNION ALL {STEMS})",
        ["'draw' <-> 'a' <-> 'card'", "('en_draw' <-> 'en_a' <-> 'en_card') | ('fr_draw' <-> 'fr_a' <-> 'fr_card')"],
    )


def test_a_word_with_no_token_stem_or_name_matches_nothing():
    """``_`` is a word character, but FTS5's tokenizer drops it and it has no letters: no phrase."""
    assert pg("_", ()) == ("FALSE", [])
