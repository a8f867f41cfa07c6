"""Scryfall's query habits (issue 31 §2): !name, the type line, is:, set names, the display keywords
and an explicit sort over relevance, each with the card ids it must find in the shipped catalog;
property tests for the parser's additions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.search.engine import search
from cardlab.search.fields import DISPLAY_KEYWORDS, FIELDS, IS_VALUES, fields_help
from cardlab.search.query.parse import parse
from cardlab.search.query.tree import Not, QueryError, Term


def ids(con, query, **options):
    return [h.id for h in search(con, query, **options)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('!"Dark Charizard"', ["base5-4", "base5-21"]),
        ("!pikachu set:base1", ["base1-58"]),
        ("!charizard", ["base1-4", "base4-4"]),  # not Dark or Blaine's Charizard
        ('!"dark charizard" -is:holo', ["base5-21"]),
        ("t:trainer set:base1 name:bill", ["base1-91"]),
        ("t:basic set:base1 t:fire", ["base1-28", "base1-36", "base1-46", "base1-60", "base1-68", "base1-98"]),  # and Fire Energy
        ("t:special", ["base1-96", "base4-124", "base5-17", "base5-80", "base5-81", "base5-82"]),  # special Energy
        ('t:"stage 2" t:fire set:base1', ["base1-4"]),
        ("is:holo set:base1 t:fire", ["base1-4", "base1-12"]),
        ("is:reprint charizard", ["base4-4"]),
        ("not:reprint !charizard", ["base1-4"]),
        ("is:first-printing !charizard", ["base1-4"]),
        ("is:firstprint !charizard", ["base1-4"]),
        ("is:promo !pikachu", ["basep-1", "basep-4", "basep-26", "basep-27"]),
        ('set:"Base Set 2" charizard', ["base4-4"]),
        ('set:"Base Set" !charizard', ["base1-4"]),
        ('set:"set de base" !charizard', ["base1-4"]),  # the French name
        ("set:fossile !gengar", ["base3-5", "base3-20"]),
        # a card id typed as the query finds that card (in any case, beside other terms)
        ("base1-4", ["base1-4"]),
        ("BASE1-4", ["base1-4"]),
        ("base1-4 or basep-1", ["base1-4", "basep-1"]),
        ("base1-4 t:fire", ["base1-4"]),
        ("-base1-4 !charizard", ["base4-4"]),
        ("base1-999", []),
    ],
)
def test_each_keyword_finds_its_cards(full_con, query, expected):
    assert ids(full_con, query) == expected


@pytest.mark.parametrize(
    ("query", "pos", "reason"),
    [
        (
            "order:hp",
            0,
            "'order:' sets the order of the results, not a filter in cardlab: give --sort KEY (number, name, set, rarity, artist, hp)",
        ),
        (
            "pikachu direction:desc",
            8,
            "'direction:' sets the direction of the order, not a filter in cardlab: give --reverse (descending; ascending is the default)",
        ),
        (
            "unique:cards",
            0,
            "'unique:' sets one hit per card or per printing, not a filter in cardlab: give --unique cards or --unique prints",
        ),
        ("lang:fr pikachu", 0, "'lang:' sets the language names are shown in, not a filter in cardlab: give --lang CODE (fr, de, ja...)"),
        ("is:hollo", 3, "unknown is:hollo; did you mean is:holo or is:holofoil? (known: holo, reprint, first-printing, promo)"),
        ("not:shiny", 4, "unknown not:shiny (known: holo, reprint, first-printing, promo)"),
        # an edition is not recorded: said so, never "did you mean is:first" (first-printing)
        (
            "is:1st charizard",
            3,
            "is:1st asks for an edition (1st Edition, Shadowless, Unlimited), which cardlab's cards do not record:"
            " a printing is a set and a number; is:first-printing finds a card in the set it was first printed in (not a reprint)",
        ),
        (
            "-is:First-Edition",
            4,
            "is:First-Edition asks for an edition (1st Edition, Shadowless, Unlimited), which cardlab's cards do not record:"
            " a printing is a set and a number; is:first-printing finds a card in the set it was first printed in (not a reprint)",
        ),
        ("is!=holo", 2, "'is' takes ':' (is:holo); for the opposite write -is:holo or not:holo"),
        ("!", 0, "'!' needs a name right after it: !\"Dark Charizard\" or !pikachu finds that exact name"),
        ('!"', 1, "this quote is never closed"),
    ],
)
def test_caret_errors(query, pos, reason):
    with pytest.raises(QueryError) as err:
        parse(query)
    assert (err.value.pos, err.value.reason) == (pos, reason)


def test_set_by_name_picks_that_set_and_suggests_names(full_con):
    with pytest.raises(QueryError) as err:
        search(full_con, 'set:"Base Set 3"')
    assert err.value.reason.startswith('no card has set \'Base Set 3\'; did you mean set:"base set" or set:"set base" or set:base?')


def test_an_explicit_sort_wins_over_relevance(full_con):
    """The default order puts exact names first; --sort name orders by name alone, both ways."""
    assert ids(full_con, "charizard")[:2] == ["base1-4", "base4-4"]
    by_name = ids(full_con, "charizard", sort="name")
    assert by_name == ["gym2-2", "base1-4", "base4-4", "base5-4", "base5-21"]  # Blaine's, Charizard x2, Dark x2
    assert ids(full_con, "charizard", sort="name", reverse=True) == by_name[::-1]


def test_every_keyword_is_in_the_help_table():
    lines = fields_help()
    for keyword in ("is", "!", *DISPLAY_KEYWORDS):
        assert keyword in FIELDS
        assert f"\n{keyword:<11} " in "\n" + lines
    for value in IS_VALUES:
        assert f"is:{value}" in FIELDS["is"][1]


_NAME = st.text(alphabet="abcdxyzABCXYZ0189éèàüöçñœß", min_size=1, max_size=12)


@settings(max_examples=2000, deadline=None)
@given(name=_NAME, quoted=st.booleans(), lead=st.sampled_from(["", "-", "("]))
def test_bang_is_name_equals(name, quoted, lead):
    """!NAME and !"NAME" parse as name=NAME at the name's offset, negated or grouped as any term."""
    written = f'"{name}"' if quoted else name
    query = f"{lead}!{written}" + (")" if lead == "(" else "")
    tree = parse(query)
    offset = len(lead) + 1 + (1 if quoted else 0)
    term = Term("name", "=", name, offset, quoted)
    assert tree == (Not(term) if lead == "-" else term)


@settings(max_examples=2000, deadline=None)
@given(keyword=st.sampled_from(sorted(DISPLAY_KEYWORDS)), value=_NAME, before=st.sampled_from(["", "pikachu ", "hp>50 "]))
def test_display_keywords_always_name_their_option(keyword, value, before):
    with pytest.raises(QueryError) as err:
        parse(f"{before}{keyword}:{value}")
    assert err.value.pos == len(before)
    assert err.value.reason.endswith("give " + DISPLAY_KEYWORDS[keyword][0])


@settings(max_examples=2000, deadline=None)
@given(value=st.sampled_from(sorted(IS_VALUES)), upper=st.booleans())
def test_not_is_the_negation_of_is(value, upper):
    written = value.upper() if upper else value
    assert parse(f"not:{written}") == Not(Term("is", ":", value, 4))  # the value's offset after not:
    assert parse(f"is:{written}") == Term("is", ":", value, 3)
