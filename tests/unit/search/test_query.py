"""cardlab.search.query value by value (issue 16): each error's wording and column, the limits at
their exact edge (length, terms, tokens, nesting), the parse trees, and the SQL each kind of term
compiles to."""

from __future__ import annotations

import pytest

from cardlab.search.compile import _after_prefix, compile_sql
from cardlab.search.fields import FIELDS, fields_help
from cardlab.search.query.parse import parse
from cardlab.search.query.tokens import MAX_DEPTH, MAX_QUERY_CHARS, MAX_TERMS, MAX_TOKENS
from cardlab.search.query.tree import And, Not, Or, QueryError, Term, replace_terms, terms

KNOWN = (
    "artist, atk, attack, attr, blocks, blow, cost, damage, def, dex, element, energy, evolves, faction, game, hp, is, kind, kw, "
    "level, mana, name, number, power, rarity, resistance, retreat, set, stage, stars, supertype, text, timing, type, value, weakness"
)


def _error(query: str) -> tuple[int, str, str]:
    with pytest.raises(QueryError) as err:
        parse(query)
    assert err.value.query == query  # the caret is drawn under this text
    return err.value.pos, err.value.reason, str(err.value)


# -- errors: wording and column -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "pos", "reason"),
    [
        ('"zorb', 0, "this quote is never closed"),
        ('type:"fire', 5, "this quote is never closed"),
        ("- zorb", 0, "'-' needs a term right after it (-type:fire)"),
        ("zorb -", 5, "'-' needs a term right after it (-type:fire)"),
        ("-", 0, "'-' needs a term right after it (-type:fire)"),
        ('"..."', 0, "this phrase has no letters or digits to search for"),
        ('""', 0, "this phrase has no letters or digits to search for"),
        ('zorb ""', 5, "this phrase has no letters or digits to search for"),
        ("text:*", 5, "'text:*' has no letters or digits to search for"),  # it matched every card
        ('o:"!!"', 3, "'o:!!' has no letters or digits to search for"),
        ("type:", 5, "'type:' needs a value"),
        ("type: fire", 5, "'type:' needs a value"),
        ("hp:", 3, "'hp:' needs a value"),
        ('hp:" "', 4, "'hp:' needs a value"),
        (":fire", 0, "':' needs a field name before it (e.g. type:...)"),
        ("zorb <5", 5, "'<' needs a field name before it (e.g. type<...)"),
        ("! x", 0, "'!' needs a name right after it: !\"Dark Charizard\" or !pikachu finds that exact name"),
        ("=x", 0, "'=' needs a field name before it (e.g. type=...)"),
        (">x", 0, "'>' needs a field name before it (e.g. type>...)"),
        ("zorb ...", 5, "'...' has no letters or digits to search for; quote it as part of a phrase"),
        ("zorb ';", 5, '"\';" has no letters or digits to search for; quote it as part of a phrase'),
        ("zorb or", 5, "'or' needs a term on both sides"),
        ("zorb or or fen", 5, "'or' needs a term on both sides"),
        ("(zorb or) fen", 6, "'or' needs a term on both sides"),
        ("or zorb", 0, "expected a search term here"),
        ("zorb and", 5, "'and' needs a term on both sides"),
        ("and zorb", 0, "'and' needs a term on both sides"),
        ("zorb and and fen", 5, "'and' needs a term on both sides"),
        ("zorb and or fen", 5, "'and' needs a term on both sides"),
        ("(zorb and) fen", 6, "'and' needs a term on both sides"),
        ("not", 0, "'-' and 'not' need a term after them"),
        ("not or zorb", 0, "'-' and 'not' need a term after them"),
        ("(not) zorb", 1, "'-' and 'not' need a term after them"),
        ("not and zorb", 0, "'-' and 'not' need a term after them"),
        ("zorb (fen", 5, "this parenthesis is never closed"),
        ("zorb)", 4, "unmatched ')'"),
        ("zorb)(", 4, "unmatched ')'"),
        ("()", 1, "expected a search term here"),
        ("(", 1, "expected a search term here"),  # at the end of the query
        ("zorb (", 6, "expected a search term here"),
        ("-(", 2, "expected a search term here"),
        ("hp:abc", 3, "'hp' takes a number, not 'abc'"),
        ("hp>=8x", 5, "'hp' takes a number, not '8x'"),
        ("hp:1-2", 4, "'hp' takes a number, not '1-2'"),
        ("hp:1.5.5", 3, "'hp' takes a number, not '1.5.5'"),
        ("hp:Xy", 3, "'hp' takes a number, not 'Xy'"),
        ("hp:+y", 4, "'hp' takes a number, not '+y'"),
        ("hp:1+", 4, "'hp' takes a number, not '1+'"),
        ("hp<x", 3, "'hp' takes a number, not 'x'"),
        ("hp>?", 3, "'hp' takes a number, not '?'"),
        ("number<abc", 7, "'number<' takes a number, not 'abc'"),
        ("type>fire", 4, "'type' is text: use ':', '=' or '!=', not '>'"),
        ("type<=fire", 4, "'type' is text: use ':', '=' or '!=', not '<='"),
        ('type>"fire"', 4, "'type' is text: use ':', '=' or '!=', not '>'"),
        ('name<"x y"', 4, "'name' is text: use ':', '=' or '!=', not '<'"),
        ("tpye:fire", 0, f"unknown field 'tpye'; did you mean type:? (known fields: {KNOWN})"),
        ("zorb zzzzqq<1", 5, f"unknown field 'zzzzqq' (known fields: {KNOWN})"),
        # ties: the shorter first, then A-Z (the same answer whatever the hash seed)
        ("aame:x", 0, f"unknown field 'aame'; did you mean game: or name:? (known fields: {KNOWN})"),
        ("at:x", 0, f"unknown field 'at'; did you mean atk: or attr:? (known fields: {KNOWN})"),
        ("aet:x", 0, f"unknown field 'aet'; did you mean attack: or retreat:? (known fields: {KNOWN})"),  # two at most
        ("cnn:4", 0, f"unknown field 'cnn' (known fields: {KNOWN})"),  # two-letter aliases are not suggested
        ('"zorb"-(fen)', 6, "'-' has no letters or digits to search for; quote it as part of a phrase"),
        # a NUL would end SQLite's LIKE pattern (name:<NUL>pika matched every name): refused where it stands
        ("name:\x00pika", 5, "control character U+0000 is not allowed in a query"),
        ("pika \x1bchu", 5, "control character U+001B is not allowed in a query"),
        ("pika\x9f", 4, "control character U+009F is not allowed in a query"),
    ],
)
def test_error_wording_and_column(query, pos, reason):
    """The reason, the 0-based offset, and the message with the 1-based column."""
    assert _error(query) == (pos, reason, f"{reason} (column {pos + 1})")


def test_unknown_field_suggests_up_to_two_with_the_operator():
    """A did-you-mean keeps the operator typed, and offers aliases longer than two letters."""
    assert _error("illustrater>=3")[1] == f"unknown field 'illustrater'; did you mean illustrator>=? (known fields: {KNOWN})"
    assert _error("atack:x")[1] == f"unknown field 'atack'; did you mean attack: or atk:? (known fields: {KNOWN})"


def test_error_offsets_are_in_the_query_as_typed():
    """Full-width characters and typographic quotes keep their offsets."""
    assert _error("ｔｙｐｅ：")[:2] == (5, "'type:' needs a value")
    assert _error("zorb “fen")[:2] == (5, "this quote is never closed")


def test_caret_counts_wide_characters_as_two():
    """The caret sits under the offending character; kana and full width take two columns."""
    assert QueryError("ピカ zorb", 3, "x").caret() == "ピカ zorb\n     ^"
    assert QueryError("ｆａ", 1, "x").caret() == "ｆａ\n  ^"
    assert QueryError("ab", 1, "x").caret() == "ab\n ^"
    assert QueryError("ab", 0, "x").caret() == "ab\n^"


# -- limits at their edge -----------------------------------------------------------------------


def test_query_length_limit():
    """1000 characters are accepted; 1001 refused at column 1001."""
    assert MAX_QUERY_CHARS == 1000
    assert parse("z" * 1000) == Term(None, ":", "z" * 1000, 0)
    assert _error("z" * 1001) == (
        1000,
        "the query is too long (at most 1000 characters)",
        "the query is too long (at most 1000 characters) (column 1001)",
    )


def test_term_limit():
    """64 terms are accepted; the 65th is refused where it starts."""
    assert MAX_TERMS == 64
    assert len(parse(" ".join(["z"] * 64)).nodes) == 64
    assert _error(" ".join(["z"] * 65))[:2] == (128, "too many terms: 65 words, phrases and field:value terms (at most 64)")


def test_token_limit():
    """256 terms, operators and parentheses are accepted; 257 refused at the 257th."""
    assert MAX_TOKENS == 256
    assert len(parse(" ".join(["-(z)"] * 64)).nodes) == 64  # 4 tokens each
    query = "-(z) and " + " ".join(["-(z)"] * 63)
    assert _error(query)[:2] == (322, "too many terms, operators and parentheses: 257 (at most 256)")


def test_term_limit_counts_phrases_and_field_terms():
    """The 65th term is refused where it starts, whether phrases or field terms."""
    assert _error(" ".join(['"z"'] * 65))[:2] == (256, "too many terms: 65 words, phrases and field:value terms (at most 64)")
    assert _error(" ".join(["t:z"] * 65))[:2] == (256, "too many terms: 65 words, phrases and field:value terms (at most 64)")


def test_offsets_after_a_ligature():
    """A character that NFKC spells with two letters keeps one column."""
    assert _error("ﬁ zorb )")[:2] == (7, "unmatched ')'")


@pytest.mark.parametrize("opening", ["-", "(", "not "])
def test_depth_limit(opening):
    """16 levels of '(' and '-' are accepted; the 17th is refused where it opens."""
    assert MAX_DEPTH == 16
    closing = ")" if opening == "(" else ""
    deep = opening * 16 + "z" + closing * 16
    expected = Term(None, ":", "z", 16 * len(opening))
    if opening != "(":
        for _ in range(16):
            expected = Not(expected)
    assert parse(deep) == expected
    too_deep = opening * 17 + "z" + closing * 17
    assert _error(too_deep)[:2] == (16 * len(opening), "nested too deeply (at most 16 levels of '(' and '-')")


@pytest.mark.parametrize(("sibling", "opening"), [("(z) ", "("), ("-z ", "-"), ("not (z) ", "not ")])
def test_depth_starts_again_after_a_closed_group(sibling, opening):
    """After a closed group or a negation, nesting counts from zero again: 16 levels are accepted,
    the 17th refused."""
    closing = ")" if opening == "(" else ""
    assert parse(sibling + opening * 16 + "z" + closing * 16) is not None
    reason = "nested too deeply (at most 16 levels of '(' and '-')"
    assert _error(sibling + opening * 17 + "z" + closing * 17)[:2] == (len(sibling) + 16 * len(opening), reason)


def test_depth_counts_nesting_not_siblings():
    """Sixteen groups side by side, each two deep, are fine."""
    assert len(parse(" ".join(["-(z)"] * 16)).nodes) == 16


# -- parse trees --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "tree"),
    [
        ("", None),
        ("   ", None),
        ("zorb", Term(None, ":", "zorb", 0)),
        ("zorb-fen", Term(None, ":", "zorb-fen", 0)),
        ('"zorb fen"', Term(None, ":", "zorb fen", 1, True)),
        ("“zorb fen”", Term(None, ":", "zorb fen", 1, True)),
        ('name:"zorb fen"', Term("name", ":", "zorb fen", 6, True)),
        ("T:fire", Term("type", ":", "fire", 2)),
        ("N=zorb", Term("name", "=", "zorb", 2)),
        ("illustrator:arita", Term("artist", ":", "arita", 12)),
        ("ｔｙｐｅ：ｆｉｒｅ", Term("type", ":", "fire", 5)),
        ("hp:５", Term("hp", ":", "5", 3)),
        ("hp>=-5", Term("hp", ">=", "-5", 4)),
        ("hp:+5", Term("hp", ":", "+5", 3)),
        ("hp<1.5", Term("hp", "<", "1.5", 3)),
        ("hp!=120", Term("hp", "!=", "120", 4)),
        ("mana:x", Term("mana", ":", "x", 5)),
        ("atk=?", Term("atk", "=", "?", 4)),
        ("mana:X", Term("mana", ":", "X", 5)),
        ("number:4a", Term("number", ":", "4a", 7)),
        ("number>3", Term("number", ">", "3", 7)),
        ("zorb -fen", And((Term(None, ":", "zorb", 0), Not(Term(None, ":", "fen", 6))))),
        ("-zorb", Not(Term(None, ":", "zorb", 1))),
        ("(-zorb)", Not(Term(None, ":", "zorb", 2))),
        ("(zorb)-fen", And((Term(None, ":", "zorb", 1), Not(Term(None, ":", "fen", 7))))),
        ('"zorb"-fen', And((Term(None, ":", "zorb", 1, True), Term(None, ":", "-fen", 6)))),
        ("Xatu", Term(None, ":", "Xatu", 0)),
        ("ﬁre zorb", And((Term(None, ":", "ﬁre", 0), Term(None, ":", "zorb", 4)))),  # a ligature is not two letters here
        ('name:"zorb"-fen', And((Term("name", ":", "zorb", 6, True), Term(None, ":", "-fen", 11)))),
        ('"zorb" "fen"', And((Term(None, ":", "zorb", 1, True), Term(None, ":", "fen", 8, True)))),
        ('name:"zorb" "fen"', And((Term("name", ":", "zorb", 6, True), Term(None, ":", "fen", 13, True)))),
        ("not zorb", Not(Term(None, ":", "zorb", 4))),
        ("NOT zorb", Not(Term(None, ":", "zorb", 4))),
        ("zorb AND fen", And((Term(None, ":", "zorb", 0), Term(None, ":", "fen", 9)))),
        ("zorb OR fen", Or((Term(None, ":", "zorb", 0), Term(None, ":", "fen", 8)))),
        (
            "a b or c",
            Or((And((Term(None, ":", "a", 0), Term(None, ":", "b", 2))), Term(None, ":", "c", 7))),
        ),
        (
            "a (b or c) d",
            And((Term(None, ":", "a", 0), Or((Term(None, ":", "b", 3), Term(None, ":", "c", 8))), Term(None, ":", "d", 11))),
        ),
        ("a or b or c", Or((Term(None, ":", "a", 0), Term(None, ":", "b", 5), Term(None, ":", "c", 10)))),
    ],
)
def test_parse_tree(query, tree):
    """Each query parses to exactly this tree (positions are 0-based offsets of the values)."""
    assert parse(query) == tree


def test_terms_and_replace_terms():
    """Terms in query order; replacing by position keeps the shape."""
    tree = parse("a (b or -c) d")
    assert [t.value for t in terms(tree)] == ["a", "b", "c", "d"]
    assert terms(None) == []
    new = Term("type", ":", "fire", 9)
    assert replace_terms(tree, {9: new}) == And(
        (Term(None, ":", "a", 0), Or((Term(None, ":", "b", 3), Not(new))), Term(None, ":", "d", 12))
    )
    assert replace_terms(None, {0: new}) is None
    assert replace_terms(parse("a or b"), {}) == parse("a or b")


# -- SQL ----------------------------------------------------------------------------------------

FTS = "SELECT rowid FROM card_fts WHERE card_fts MATCH ?"
STEM = "SELECT rowid FROM card_stem WHERE card_stem MATCH ?"
NAME = "SELECT n.rowid FROM card n WHERE n.id IN (SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?)"
COMPACT = "c.id IN (SELECT card_id FROM card_name WHERE compact >= ? AND compact < ?)"
WORD = f"c.rowid IN ({FTS} UNION ALL {STEM} UNION ALL {NAME})"
FACET_TEXT = "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text = ?)"
TYPE_LINE = "c.rowid IN (SELECT card FROM facet_text WHERE field IN (?, ?, ?, ?) AND text = ?)"
"""type: matches the type line (types, supertypes, stages, Energy kinds: issue 31)."""


@pytest.mark.parametrize(
    ("query", "sql", "params"),
    [
        ("zorb", WORD, ['{names} : "zorb"* OR {body} : "zorb"', 'stems : ("en_zorb")', "zorb", "zorc"]),
        ('"zorb fen"', WORD, ['{names body} : "zorb fen"', 'stems : ("en_zorb en_fen")', "zorbfen", "zorbfeo"]),
        ("Zorb'd", WORD, ['{names} : "zorb d"* OR {body} : "zorb d"', 'stems : ("en_zorb en_d")', "zorbd", "zorbe"]),
        ("text:paralyzed", f"c.rowid IN ({FTS} UNION ALL {STEM})", ['{body} : "paralyzed"', 'stems : ("en_paralyz")']),
        (
            "ゾルブ",
            "c.rowid IN (SELECT rowid FROM card_tri WHERE names LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\')",
            ["%ゾルブ%", "%ゾルブ%"],
        ),
        ("text:ぞるぶ", "c.rowid IN (SELECT rowid FROM card_tri WHERE body LIKE ? ESCAPE '\\')", ["%ゾルブ%"]),
        ("♀", f"c.rowid IN ({FTS})", ['{names} : "f"']),
        (
            "name:zorb",
            "c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\' OR compact LIKE ? ESCAPE '\\')",
            ["%zorb%", "%zorb%"],
        ),
        (
            "name:z_b",
            "c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\' OR compact LIKE ? ESCAPE '\\')",
            ["%z\\_b%", "%zb%"],
        ),
        ('name="Mr. Zorb"', "c.id IN (SELECT card_id FROM card_name WHERE folded = ? OR compact = ?)", ["mr. zorb", "mrzorb"]),
        ('name="..."', "c.id IN (SELECT card_id FROM card_name WHERE folded = ? OR compact = ?)", ["...", "..."]),
        ("name:♀", "c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\')", ["%f%"]),
        ('name:"..."', "c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\')", ["%...%"]),
        (
            "artist:ari_ta%",
            "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text LIKE ? ESCAPE '\\')",
            ["artist", "%ari ta\\%%"],
        ),
        ("artist:a\\b", "c.rowid IN (SELECT card FROM facet_text WHERE field = ? AND text LIKE ? ESCAPE '\\')", ["artist", "%a\\\\b%"]),
        ("mana:X", FACET_TEXT, ["mana", "x"]),
        ("hp>=80", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num >= ?)", ["hp", 80.0]),
        ("hp<=80", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num <= ?)", ["hp", 80.0]),
        ("hp>80", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num > ?)", ["hp", 80.0]),
        ("hp<80", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num < ?)", ["hp", 80.0]),
        ("hp:80", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num = ?)", ["hp", 80.0]),
        ("hp=80", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num = ?)", ["hp", 80.0]),
        ("number<=10", "c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num <= ?)", ["number", 10.0]),
        ("number:4a", FACET_TEXT, ["number", "4a"]),
        ("number:4", FACET_TEXT, ["number", "4"]),
        ("rarity:Rare-Holo", FACET_TEXT, ["rarity", "rare holo"]),
        ("game:Pokemon", "c.game = ?", ["pokemon"]),
        ("game!=pokemon", "NOT (c.game = ?)", ["pokemon"]),
        ("set:Base1", "c.set_code IN (SELECT code FROM set_key WHERE key = ?)", ["base1"]),
        (
            "type!=fire",
            f"(c.rowid IN (SELECT card FROM facet_text WHERE field IN (?, ?, ?, ?)) AND NOT ({TYPE_LINE}))",
            ["type", "supertype", "stage", "energy", "type", "supertype", "stage", "energy", "fire"],
        ),
        (
            "hp!=120",
            "(c.rowid IN (SELECT card FROM facet_text WHERE field = ? UNION ALL SELECT card FROM facet_num WHERE field = ?) AND NOT (c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num = ?)))",
            ["hp", "hp", "hp", 120.0],
        ),
        (
            "name!=zorb",
            "NOT (c.id IN (SELECT card_id FROM card_name WHERE folded LIKE ? ESCAPE '\\' OR compact LIKE ? ESCAPE '\\'))",
            ["%zorb%", "%zorb%"],
        ),
        ("text!=burn", f"NOT (c.rowid IN ({FTS} UNION ALL {STEM}))", ['{body} : "burn"', 'stems : ("en_burn")']),
        ("-zorb", f"NOT ({WORD})", ['{names} : "zorb"* OR {body} : "zorb"', 'stems : ("en_zorb")', "zorb", "zorc"]),
        (
            "type:fire or hp>5",
            f"({TYPE_LINE} OR c.rowid IN (SELECT card FROM facet_num WHERE field = ? AND num > ?))",
            ["type", "supertype", "stage", "energy", "fire", "hp", 5.0],
        ),
        (
            "zorb fen",
            f"(({WORD} AND {WORD}) OR {COMPACT})",
            ['{names} : "zorb"* OR {body} : "zorb"', 'stems : ("en_zorb")', "zorb", "zorc"]
            + ['{names} : "fen"* OR {body} : "fen"', 'stems : ("en_fen")', "fen", "feo", "zorbfen", "zorbfeo"],
        ),
        (
            "zorb -fen",
            f"({WORD} AND NOT ({WORD}))",
            [
                '{names} : "zorb"* OR {body} : "zorb"',
                'stems : ("en_zorb")',
                "zorb",
                "zorc",
                '{names} : "fen"* OR {body} : "fen"',
                'stems : ("en_fen")',
                "fen",
                "feo",
            ],
        ),
        (
            'zorb "fen"',
            f"({WORD} AND {WORD})",
            [
                '{names} : "zorb"* OR {body} : "zorb"',
                'stems : ("en_zorb")',
                "zorb",
                "zorc",
                '{names body} : "fen"',
                'stems : ("en_fen")',
                "fen",
                "feo",
            ],
        ),
    ],
)
def test_compile_sql(query, sql, params):
    """Each kind of term compiles to exactly this condition and these bound parameters (English stems)."""
    assert compile_sql(parse(query), ("en",)) == (sql, params)


def test_compile_sql_edges():
    """No query: every card; a value with no words: every card; no stemmer: no stem clause."""
    assert compile_sql(None) == ("1", [])
    assert compile_sql(Term(None, ":", "--", 0), ("en",)) == ("1", [])
    assert compile_sql(parse("zorb"), ()) == (
        f"c.rowid IN ({FTS} UNION ALL {NAME})",
        ['{names} : "zorb"* OR {body} : "zorb"', "zorb", "zorc"],
    )
    assert compile_sql(parse("paralyzed"), ("en", "fr", "ja"))[1][1] == 'stems : ("en_paralyz" OR "fr_paralyzed")'
    assert compile_sql(parse("zorb ゾルブ"), ("en",)) == (
        f"({WORD} AND c.rowid IN (SELECT rowid FROM card_tri WHERE names LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\'))",
        ['{names} : "zorb"* OR {body} : "zorb"', 'stems : ("en_zorb")', "zorb", "zorc", "%ゾルブ%", "%ゾルブ%"],
    )


def test_compile_sql_stems_in_every_language_by_default():
    """Without ``stem_langs``, a word is stemmed by every stemmer, in code order."""
    stems = compile_sql(parse("paralyzed"))[1][1]
    assert stems == (
        'stems : ("ar_paralyzed" OR "ca_paralyz" OR "cs_paralyzed" OR "da_paralyzed" OR "de_paralyzed" OR "el_paralyzed" '
        'OR "en_paralyz" OR "es_paralyz" OR "eu_paralyzed" OR "fi_paralyzed" OR "fr_paralyzed" OR "hu_paralyz" '
        'OR "hy_paralyzed" OR "id_paralyzed" OR "it_paralyzed" OR "lt_paralyzed" OR "nb_paralyzed" OR "nl_paralyzed" '
        'OR "nn_paralyzed" OR "no_paralyzed" OR "pl_paralyzed" OR "pt_paralyzed" OR "ro_paralyzed" OR "ru_paralyzed" '
        'OR "sr_paralyzed" OR "sv_paralyzed" OR "ta_paralyzed" OR "tr_paralyzedi")'
    )


# -- fields -------------------------------------------------------------------------------------


def test_field_kinds():
    """Each field's kind decides how its values compile."""
    assert {name: kind for name, (kind, _help) in FIELDS.items()} == {
        "name": "name",
        "text": "text",
        "game": "facet",
        "set": "facet",
        "number": "number",
        "rarity": "facet",
        "artist": "like",
        "supertype": "facet",
        "type": "facet",
        "stage": "facet",
        "hp": "num",
        "retreat": "num",
        "cost": "num",
        "damage": "num",
        "weakness": "facet",
        "resistance": "facet",
        "attack": "like",
        "evolves": "facet",
        "energy": "facet",
        "level": "num",
        "dex": "num",
        "kind": "facet",
        "blow": "facet",
        "blocks": "facet",
        "attr": "facet",
        "power": "num",
        "def": "num",
        "kw": "facet",
        "timing": "facet",
        "stars": "num",
        "element": "facet",
        "mana": "num",
        "atk": "num",
        "value": "num",
        "faction": "facet",
        "is": "is",
        "!": "exact",
        "order": "display",
        "direction": "display",
        "unique": "display",
        "lang": "display",
    }


@pytest.mark.parametrize(
    ("alias", "field"),
    [
        ("t", "type"),
        ("s", "set"),
        ("e", "set"),
        ("r", "rarity"),
        ("a", "artist"),
        ("o", "text"),
        ("cn", "number"),
        ("n", "name"),
        ("HP", "hp"),
        ("illustrator", "artist"),
        ("keyword", "kw"),
        ("attribute", "attr"),
        ("k", "kind"),
    ],
)
def test_aliases(alias, field):
    """Each alias reads as its field, in any case."""
    assert parse(f"{alias}:1") == Term(field, ":", "1", len(alias) + 1)


def test_fields_help_lines():
    """One line per field: the indent, the name padded to 11 columns, its help."""
    lines = fields_help("  ").splitlines()
    assert len(lines) == len(FIELDS)
    assert lines[0] == "  name        card name in any language, substring (name:char); name=... for the whole name"
    assert lines[3] == '  set         set code, alias or name in any language (set:base1, set:BS, set:"Base Set 2")'
    assert lines[8] == "  faction     forum TCG: faction code, name or symbol (faction:gotei-13, faction:lozenge, faction:skull)"
    assert lines[-7] == "  dex         Pokémon: national Pokédex number"
    assert lines[-6] == "  is          is:holo, is:reprint, is:first-printing, is:promo; not:... for the opposite (not:reprint)"
    assert lines[-1] == "  lang        the language names are shown in, not a filter: give --lang CODE (fr, de, ja...)"
    assert fields_help().splitlines()[1] == "text        rules text (attacks, powers, abilities, Trainer text), words in any language"


def test_run_together_only_when_every_term_is_a_bare_word():
    """Two bare words and a field term: no run-together clause (it is for names typed apart)."""
    sql, params = compile_sql(parse("zorb fen type:fire"), ("en",))
    assert sql == f"({WORD} AND {WORD} AND {TYPE_LINE})"
    assert params[-5:] == ["type", "supertype", "stage", "energy", "fire"]


@pytest.mark.parametrize("space", ["\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85"])
def test_control_characters_that_are_white_space_still_separate_words(space):
    assert [t.value for t in terms(parse(f"pika{space}chu"))] == ["pika", "chu"]


def test_after_prefix_at_the_ends_of_unicode():
    """The range end after U+10FFFF carries to the character before it; a prefix of U+10FFFF alone
    ends at two of them; the surrogates (never stored) are stepped over at both ends."""
    assert _after_prefix("\U0010ffff") == "\U0010ffff\U0010ffff"
    assert _after_prefix("ab\U0010ffff") == "ac"
    assert _after_prefix("a\U0010ffff\U0010ffff") == "b"
    assert _after_prefix("\ud7fe") == "\ud7ff"
    assert _after_prefix("\ud7ff") == "\ue000"
    assert _after_prefix("\udffe") == "\ue000"
    assert _after_prefix("\udfff") == "\ue000"


@pytest.mark.parametrize(
    ("query", "pos", "caret"),
    [
        ("x" * 100_000, 1000, "…" + "x" * 200 + "…\n" + " " * 101 + "^"),  # around the offending character
        ("y" * 150 + ":" + "z" * 150, 10, "y" * 150 + ":" + "z" * 49 + "…\n" + " " * 10 + "^"),  # near the start: no … before
        ("y" * 150 + ":" + "z" * 150, 150, "…" + "y" * 100 + ":" + "z" * 99 + "…\n" + " " * 101 + "^"),
        ("y" * 300 + "!", 300, "…" + "y" * 199 + "!\n" + " " * 200 + "^"),  # at the end
        ("hp>>80", 3, "hp>>80\n   ^"),  # short: whole
    ],
)
def test_a_long_query_is_quoted_cut_around_the_caret(query, pos, caret):
    err = QueryError(query, pos, "reason")
    assert err.caret() == caret
    assert err.shown_query == (query if len(query) <= 200 else query[:200] + "…")
