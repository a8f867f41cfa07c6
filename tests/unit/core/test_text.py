"""cardlab.core.text, value by value (issue 16): folding's exact output, language choice and its
fallbacks, localized maps, slugs, line lists at their limit, and the stemmer table."""

from __future__ import annotations

from pathlib import Path

import pytest
import snowballstemmer

from cardlab.core.text import (
    MAX_LINES_SHOWN,
    _ascii_of,
    fold,
    is_localized,
    line_list,
    listify,
    localized_fields,
    norm_value,
    pick,
    slug,
    stem_words,
    stemmer_languages,
)


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Fold each text anew: ``fold`` and its helpers keep results (lru_cache), so a text folded by
    an earlier test would not run the folding code again (and a mutation of it would go unseen)."""
    fold.cache_clear()
    _ascii_of.cache_clear()
    norm_value.cache_clear()


# -- fold: exact outputs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("  Zorblax   Fennic ", "zorblax fennic"),  # ASCII fast path: lower case, runs of spaces collapsed
        ("Zorb`ax", "zorb'ax"),  # ASCII backquote is an apostrophe
        ("Zorbé`ax", "zorbe'ax"),  # the same outside the fast path
        ("Zörblax  Fénnic", "zorblax fennic"),  # accents dropped, spaces collapsed
        ("Cœur`s", "coeur's"),
        ("Ｚｏｒｂ ｆｅｎ", "zorb fen"),  # full width
        ("ぁ", "ァ"),  # the first hiragana (U+3041) is written as katakana
        ("ぴかちゅう", "ピカチュウ"),
        ("ば", "バ"),  # dakuten kept
        ("ぱ", "パ"),  # handakuten kept
        ("ﾊﾞ", "バ"),  # half-width with a combining dakuten
        ("₩", "₩"),  # East Asian half-width: kept, not spelled "W"
        ("、", "、"),  # East Asian wide punctuation kept
        ("ー", "ー"),  # the katakana long sound mark (a modifier letter) stays
        ("Ωmega", "ωmega"),  # Greek stays Greek
        ("Зорб", "зорб"),  # Cyrillic stays Cyrillic
        ("a\u3000b", "a b"),  # ideographic space
        ("a\u2028b", "a b"),  # a separator (category Z) is a space
        ("Zorbʼs", "zorb's"),  # a modifier-letter apostrophe is spelled in ASCII
        ("Zorb\u2642", "zorb m"),
        ("Zorb \u2640\ufe0f", "zorb f"),
        ("Zorb\u2642\ufe0f Fen", "zorb m fen"),
        ("Zorb©", "zorb(c)"),  # spelled by anyascii, then lower case
        ("Zorbʻs", "zorb's"),  # anyascii spells the okina as a backquote: an apostrophe
        ("a\u200bb", "a\u200bb"),  # nothing in ASCII: the character stays
    ],
)
def test_fold_gives_exact_text(text, folded):
    """Each input folds to exactly this text."""
    assert fold(text) == folded


# -- pick: language choice ----------------------------------------------------------------------


def test_pick_plain_values():
    """A plain string is returned as is; None gives the empty string."""
    assert pick("Zorblax") == "Zorblax"
    assert pick(None, ["fr"]) == ""


def test_pick_first_of_the_languages_asked():
    """The first language asked that the map has wins, before the source language."""
    names = {"en": "Zorblax", "fr": "Zorblaxe", "de": "Zorblachs"}
    assert pick(names, ["it", "de", "fr"]) == "Zorblachs"
    assert pick(names, ["fr"]) == "Zorblaxe"


def test_pick_regional_tag_falls_back_to_its_language():
    """``fr-CA`` reads ``fr`` when the map has no ``fr-CA``; an exact regional entry wins."""
    assert pick({"en": "Zorblax", "fr": "Zorblaxe"}, ["fr-CA"]) == "Zorblaxe"
    assert pick({"fr": "Zorblaxe", "fr-CA": "Zorblaxe québécois"}, ["fr-CA"]) == "Zorblaxe québécois"
    assert pick({"en": "Zorblax", "pt": "Zorbláx"}, ["pt-BR-x-test"]) == "Zorbláx"


def test_pick_three_letter_code():
    """A three-letter code is a language like any other."""
    assert pick({"en": "Zorblax", "fil": "Zorblaks"}, ["fil"]) == "Zorblaks"
    assert pick({"en": "Zorblax", "fil": "Zorblaks"}, ["fil-PH"]) == "Zorblaks"


def test_pick_source_language_then_any():
    """Without any asked language: the source language (also by its base), then the first entry
    that is not the ``_source`` hash map."""
    assert pick({"de": "Zorblachs", "ja": "ゾルブ"}, ["fr"], source="ja") == "ゾルブ"
    assert pick({"de": "Zorblachs", "en": "Zorblax"}, [], source="en-GB") == "Zorblax"
    assert pick({"de": "Zorblachs", "en": "Zorblax"}, ["fr"]) == "Zorblax"  # the source is English by default
    assert pick({"_source": "abc123", "de": "Zorblachs", "it": "Zorblace"}, ["fr"]) == "Zorblachs"


def test_pick_empty_map_gives_empty_text():
    """An empty map, or one holding only ``_source``, has no text."""
    assert pick({}, ["fr"]) == ""
    assert pick({"_source": "abc123"}, ["en"]) == ""


# -- is_localized -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"en": "Zorblax"}, True),
        ({"fil": "Zorblaks"}, True),  # three letters
        ({"en-US": "Zorblax"}, True),
        ({"zh-Hant-TW": "左"}, True),
        ({"en": "Zorblax", "_source": "abc123"}, True),
        ({"_source": "abc123", "en": "Zorblax"}, True),
        ({}, False),  # empty: not a translation
        ({"_source": "abc123"}, False),  # only the hash map
        ({"e": "Zorblax"}, False),  # one letter
        ({"engl": "Zorblax"}, False),  # four letters
        ({"EN": "Zorblax"}, False),  # upper case
        ({"en-": "Zorblax"}, False),
        ({"en-a": "Zorblax"}, False),  # subtag of one character
        ({"en-abcdefghi": "Zorblax"}, False),  # subtag of nine characters
        ({"en": "Zorblax", "fr": 3}, False),  # a value that is not text
        ({"en": "Zorblax", 1: "Zorblax"}, False),  # a key that is not text
        ({"en": ["Zorblax"]}, False),
        ("Zorblax", False),
        (["en"], False),
        (None, False),
    ],
)
def test_is_localized(value, expected):
    """A localized map is a non-empty dict of language code -> text (plus ``_source``)."""
    assert is_localized(value) is expected


def test_localized_fields_paths_in_file_order():
    """Every localized map with its path: keys joined by dots, list items by index."""
    card = {
        "name": {"en": "Zorblax"},
        "hp": 40,
        "attacks": [{"name": {"en": "Zap"}, "damage": 10}, {"text": {"fr": "Zut"}}],
        "power": {"detail": {"en": "Zing"}},
        "tags": ["plain", {"en": "Tagged"}],
    }
    assert list(localized_fields(card)) == [
        ("name", {"en": "Zorblax"}),
        ("attacks[0].name", {"en": "Zap"}),
        ("attacks[1].text", {"fr": "Zut"}),
        ("power.detail", {"en": "Zing"}),
        ("tags[1]", {"en": "Tagged"}),
    ]
    assert list(localized_fields({"en": "Zorblax"}, "name")) == [("name", {"en": "Zorblax"})]
    assert list(localized_fields([{"en": "A"}], "x")) == [("x[0]", {"en": "A"})]


# -- slug, norm_value, listify ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mr. Zorb", "mr-zorb"),
        ("Zorblax♂", "zorblax-m"),
        ("Zorb’s Fen", "zorbs-fen"),
        ("--Zorb--", "zorb"),
        ("ゾルブ", "card"),  # no Latin letter: still a usable file name
        ("", "card"),
    ],
)
def test_slug(text, expected):
    """A file-name slug: lower-case ASCII letters and digits joined by single dashes."""
    assert slug(text) == expected


def test_norm_value():
    """Dashes and underscores are spaces; runs of spaces collapse."""
    assert norm_value("Rare-Holo_Zorb") == "rare holo zorb"
    assert norm_value("  a--b__c  ") == "a b c"


def test_listify():
    """One value becomes a list of one; None an empty list; an iterable its items."""
    assert listify(None) == []
    assert listify("ab") == ["ab"]
    assert listify(b"ab") == [b"ab"]
    assert listify(Path("zorb.yaml")) == [Path("zorb.yaml")]
    assert listify((1, 2)) == [1, 2]
    assert listify(iter("ab")) == ["a", "b"]


# -- line_list at its limit ---------------------------------------------------------------------


def test_line_list_one_and_two():
    """One line: singular; several: plural, comma-separated."""
    assert line_list([7]) == "line 7"
    assert line_list([1, 2]) == "lines 1, 2"


def test_line_list_exactly_the_most_has_no_more():
    """Exactly ``most`` lines: all shown, no "and N more" (N would be 0)."""
    assert MAX_LINES_SHOWN == 10
    assert line_list(range(1, 11)) == "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"


def test_line_list_one_over_the_most():
    """One more than ``most``: ten shown and "and 1 more"."""
    assert line_list(range(1, 12)) == "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 1 more"
    assert line_list(range(1, 1012)) == "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 1,001 more"


def test_line_list_custom_most():
    """``most`` bounds the numbers shown."""
    assert line_list([4, 5, 6], most=2) == "lines 4, 5 and 1 more"
    assert line_list([4, 5], most=2) == "lines 4, 5"


# -- stemming -----------------------------------------------------------------------------------

STEMMERS = {
    "ar": "arabic",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "en": "english",
    "es": "spanish",
    "eu": "basque",
    "fi": "finnish",
    "fr": "french",
    "hu": "hungarian",
    "hy": "armenian",
    "id": "indonesian",
    "it": "italian",
    "lt": "lithuanian",
    "nb": "norwegian",
    "nl": "dutch",
    "nn": "norwegian",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
}


def test_stemmer_languages_exact():
    """The languages with a stemmer, sorted."""
    assert stemmer_languages() == sorted(STEMMERS)


@pytest.mark.parametrize(("lang", "algorithm"), sorted(STEMMERS.items()))
def test_each_language_uses_its_snowball_algorithm(lang, algorithm):
    """Each code stems with the Snowball algorithm of its language (also through a regional tag)."""
    words = "Zorblaxes running players cards attaques angriffe ataques attacchi атаки"
    expected = snowballstemmer.stemmer(algorithm).stemWords(fold(words).split())
    assert stem_words(words, lang) == expected
    assert stem_words(words, f"{lang.upper()}-XX") == expected


def test_stem_words_examples():
    """Known stems; no stemmer, no words."""
    assert stem_words("Paralyzed, Paralyzes", "en") == ["paralyz", "paralyz"]
    assert stem_words("Zorblax's attacks", "en") == ["zorblax", "s", "attack"]
    assert stem_words("paralyzed", "ja") == []
    assert stem_words("paralyzed", "xx-en") == []
