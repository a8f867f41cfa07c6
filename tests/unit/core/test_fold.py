"""Kind D, "one way to fold text": cardlab.core.text.fold is the one folding of names, queries,
deck lines and suggestions. Property tests for the kind, plus the issue's examples."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core.text import compact, fold, is_quote


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Ｐｉｋａｃｈｕ", "Pikachu"),  # full width (NFKC)
        ("PIKACHU", "Pikachu"),  # case
        ("pokemon breeder", "Pokémon Breeder"),  # accents
        ("coeur", "Cœur"),  # a letter that does not decompose
        ("aerodactyl", "Ærodactyl"),
        ("strasse", "Straße"),
        ("farfetch'd", "Farfetch’d"),  # apostrophes
        ("farfetch'd", "Farfetch`d"),
        ("farfetch'd", "Farfetchʼd"),
        ("ho-oh", "Ho–Oh"),  # dashes
        ("ho-oh", "Ho—Oh"),
        ("ho-oh", "Ho‐Oh"),
        ("nidoran m", "Nidoran♂"),
        ("nidoran f", "Nidoran ♀"),
        ("ピカチュウ", "ぴかちゅう"),  # hiragana finds katakana and the reverse
        ("テスト", "ﾃｽﾄ"),  # half-width katakana
        ("mr. mime", "Mr.\u00a0Mime"),  # no-break space
    ],
)
def test_fold_equates_what_users_type_with_stored_names(typed, stored):
    """Kind D (one folding): each pair is one name."""
    assert fold(typed) == fold(stored)


@pytest.mark.parametrize(("a", "b"), [("Nidoran ♀", "Nidoran ♂"), ("バ", "ハ"), ("パ", "ハ"), ("Pikachu", "Raichu")])
def test_fold_keeps_different_names_apart(a, b):
    """Kind D (one folding): folding never merges names that differ (♀/♂, dakuten)."""
    assert fold(a) != fold(b)


def test_compact_drops_spaces_and_punctuation():
    """Kind D (names typed without spaces or punctuation)."""
    assert compact("Farfetch’d") == compact("farfetchd") == "farfetchd"
    assert compact("Item Finder") == compact("itemfinder")
    assert compact("PlusPower") == compact("plus power")


def test_typographic_quotes_are_quotes():
    """Kind D (typographic quotes as phrase quotes)."""
    assert all(is_quote(ch) for ch in '"“”„＂')
    assert not any(is_quote(ch) for ch in "'’«a")


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=30))
def test_fold_is_idempotent_and_case_blind(text):
    """Kind D (one folding): folding twice changes nothing; case, width and composition never matter."""
    once = fold(text)
    assert fold(once) == once
    assert fold(text.upper()) == fold(text.upper().lower())
    assert fold(unicodedata.normalize("NFD", text)) == fold(unicodedata.normalize("NFC", text))
    assert fold(unicodedata.normalize("NFKC", text)) == once


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="latin-1", categories=("Lu", "Ll")), min_size=1, max_size=20))
def test_latin_letters_fold_to_ascii(text):
    """Kind D (accents and letters that do not decompose): every Latin-1 letter folds to ASCII
    (the micro sign is a Greek letter once NFKC-normalized)."""
    text = text.replace("µ", "")
    assert fold(text).isascii()


def test_forget_empties_the_fold_caches():
    from cardlab.core.text import fold, forget, norm_value

    assert (fold("Rare Holo"), norm_value("Rare_Holo")) == ("rare holo", "rare holo")
    forget()
    assert (fold.cache_info().currsize, norm_value.cache_info().currsize) == (0, 0)
    assert fold("Rare Holo") == "rare holo"
