"""Scryfall's lookups in the library (:mod:`cardlab.search.lookup`): a card by name, exact or fuzzy
(:func:`card_named`), by set and number (:func:`card_by_number`), name autocompletion; and the one
best fuzzy match (:func:`cardlab.core.fuzzy.best_match`)."""

from __future__ import annotations

import pytest

from cardlab.core.errors import UsageError
from cardlab.core.fuzzy import best_match
from cardlab.search.lookup import AmbiguousCardError, CardNotFoundError, SetNotFoundError, autocomplete, card_by_number, card_named


@pytest.mark.parametrize(
    ("name", "options", "card"),
    [
        ("Charizard", {}, "base1-4"),  # the original of base1-4 and its Base Set 2 reprint base4-4
        ("CHARIZARD", {}, "base1-4"),
        ("Dracaufeu", {}, "base1-4"),  # French
        ("Glurak", {}, "base1-4"),  # German
        ("Charizard", {"set_ref": "base4"}, "base4-4"),  # the printing of that set
        ("Pikachu", {"set_ref": "BS"}, "base1-58"),  # an alias narrows six Pikachus to one
        ("Pikachu", {"set_ref": "jungle"}, "base2-60"),
        ("charzard", {"fuzzy": True}, "base1-4"),  # a letter short: the one close name
        ("farfetchd", {"fuzzy": True}, "base1-27"),  # typed without the apostrophe
        ("dark chariz", {"fuzzy": True}, "base5-4"),  # the beginnings of Dark Charizard's words
    ],
)
def test_card_named(full_con, name, options, card):
    assert card_named(full_con, name, **options).id == card


def test_card_named_ambiguous_lists_each_card_once(full_con):
    with pytest.raises(AmbiguousCardError) as err:
        card_named(full_con, "Pikachu")
    assert [c[0] for c in err.value.choices] == ["base1-58", "base2-60", "basep-1", "basep-4", "basep-26", "basep-27"]
    with pytest.raises(AmbiguousCardError) as err:
        card_named(full_con, "dark char", fuzzy=True)
    assert [c[0] for c in err.value.choices] == ["base5-4", "base5-32"]  # Dark Charizard, Dark Charmeleon


def test_card_named_exact_is_not_fuzzy(full_con):
    with pytest.raises(CardNotFoundError) as err:
        card_named(full_con, "charzard")
    assert err.value.suggestions[0] == "Charizard"
    with pytest.raises(CardNotFoundError) as err:
        card_named(full_con, "zqxwv", fuzzy=True)
    assert err.value.suggestions == []
    with pytest.raises(CardNotFoundError):
        card_named(full_con, "Charizard", set_ref="jungle")  # not printed in Jungle
    with pytest.raises(SetNotFoundError) as set_err:
        card_named(full_con, "Charizard", set_ref="bas1")
    assert "base1" in set_err.value.suggestions
    with pytest.raises(UsageError):
        card_named(full_con, "   ")


def test_card_by_number(full_con):
    assert [card_by_number(full_con, s, n).id for s, n in [("base1", "4"), ("BS", "4"), ("bs", "4/102"), ("jungle", "60")]] == [
        "base1-4",
        "base1-4",
        "base1-4",
        "base2-60",
    ]
    with pytest.raises(CardNotFoundError):
        card_by_number(full_con, "BS", "103")
    with pytest.raises(SetNotFoundError):
        card_by_number(full_con, "nope", "1")


def test_autocomplete(full_con):
    names = autocomplete(full_con, "charm")
    assert names == ["Charmander", "Charmeleon", "Blaine's Charmander", "Blaine's Charmeleon", "Dark Charmeleon"]
    assert autocomplete(full_con, "c") == []
    assert len(autocomplete(full_con, "pi")) == 20
    assert autocomplete(full_con, "char", limit=2) == ["Charity", "Charizard"]
    assert autocomplete(full_con, "50%_") == []  # LIKE's wildcards are letters here


def test_best_match():
    names = ["Charizard", "Dark Charizard", "Charmander", "Pikachu", "Raichu"]
    assert best_match("charzard", names) == "Charizard"
    assert best_match("qqqq", names) is None
    assert best_match("Pikachu", ["Pikachu", "PIKACHU"]) == "Pikachu"  # alike when folded: one name
    assert best_match("abcd", ["abce", "abcf"]) is None  # two as close: no single best


def test_best_match_on_folded_choices():
    folded = ["charizard", "dark charizard", "pikachu"]
    assert best_match("Charzard", folded, folded=True) == "charizard"
    assert best_match("Charzard", ["charizard", "charizard"], folded=True) == "charizard"  # repeats count once
