"""cardlab.decks.rules: every rule of every shipped format has a deck that breaks exactly that rule,
reported with its line and the rule's id; the legal decks have no problem."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.catalog.validate import validate
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import load_deck
from cardlab.decks.rules import RULES, check_deck, condition_test, matches

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog", DECKS / "catalog", REPO / "tests" / "fixtures" / "forumtcg"]


@pytest.fixture(scope="module")
def plain_catalog():
    """The shipped Base Set only, without the reprint set (the other sets' Pikachu, Magnemite...
    and the fixture reprint set's Pikachu and Bill make those names ambiguous in pokemon-unlimited)."""
    return validate([ROOTS[0] / "pokemon" / "base1", ROOTS[1]], cache_path=None).catalog


@pytest.fixture(scope="module")
def base_catalog():
    """The shipped Base Set only, with the fixture catalogs (the reprint set RPT included)."""
    return validate([ROOTS[0] / "pokemon" / "base1", *ROOTS[1:]], cache_path=None).catalog


def _catalog(fmt, catalog, plain_catalog, name=""):
    """The vintage fixtures write every card with its set and number: the whole catalog suits them."""
    return plain_catalog if fmt == "pokemon-unlimited" and not name.startswith("vintage/") else catalog


LEGAL = [
    ("pokemon/legal.txt", None),
    ("pokemon/zap.yaml", None),
    ("pokemon/dialects.txt", "pokemon-base"),
    ("pokemon/allowed-sets.txt", "pokemon-unlimited"),
    ("ippo/legal-10-rounds.txt", None),
    ("ippo/legal-4-rounds.yaml", None),
    ("monpa/legal.txt", None),
    ("monpa/legal.yaml", None),
]


@pytest.mark.parametrize(("name", "fmt"), LEGAL)
def test_legal_decks(catalog, plain_catalog, formats, name, fmt):
    deck = load_deck(DECKS / name, _catalog(fmt, catalog, plain_catalog), formats, fmt)
    assert check_deck(deck) == []


VINTAGE_FORMATS = [
    "pokemon-base",
    "pokemon-base-jungle",
    "pokemon-base-fossil",
    "pokemon-base-rocket",
    "pokemon-base-gym",
    "pokemon-prop-15-3",
    "pokemon-unlimited",
]
VINTAGE_SETS = {
    "pokemon-base": "base1",
    "pokemon-base-jungle": "base1, base2",
    "pokemon-base-fossil": "base1, base2, base3, base4, basep",
    "pokemon-base-rocket": "base1, base2, base3, base4, base5, basep",
    "pokemon-base-gym": "base1, base2, base3, base4, base5, gym1, gym2, basep",
    "pokemon-prop-15-3": "base1, base2, base3, base4, base5, gym1, gym2, basep",
}
VINTAGE = [
    # the vintage fixtures (tests/fixtures/decks/vintage/) name no format: one entry per format
    *[("vintage/deck-size.txt", f, 2, "deck-size", "the deck holds 59 cards; exactly 60 needed") for f in VINTAGE_FORMATS],
    *[("vintage/require.txt", f, 2, "require", "the deck holds no Basic Pokémon; at least 1 needed") for f in VINTAGE_FORMATS],
    *[
        ("vintage/copy-limit.txt", f, 3, "copy-limit", '5 copies of "Pikachu" (limit 4; lines 2, 3)')
        for f in VINTAGE_FORMATS[1:]
        if f != "pokemon-prop-15-3"
    ],
    ("vintage/copy-limit.txt", "pokemon-prop-15-3", 2, "copy-limit", '5 copies of "Pikachu" (limit 3; lines 2, 3)'),
    ("vintage/copy-limit-3.txt", "pokemon-prop-15-3", 7, "copy-limit", '4 copies of "Bill" (limit 3)'),
    *[
        ("vintage/allowed-sets.txt", f, 13, "allowed-sets", f'"Testmon" (test1-1) is from set test1; {f} allows only {sets}')
        for f, sets in VINTAGE_SETS.items()
        if f != "pokemon-base"
    ],
    (
        "vintage/promo-12.txt",
        "pokemon-base-fossil",
        13,
        "number-range",
        '"Mewtwo" (basep-12) is basep number 12; pokemon-base-fossil allows only basep 1 to 9',
    ),
    (
        "vintage/promo-25.txt",
        "pokemon-prop-15-3",
        13,
        "number-range",
        '"Flying Pikachu" (basep-25) is basep number 25; pokemon-prop-15-3 allows only basep 1 to 24',
    ),
    (
        "vintage/banned.txt",
        "pokemon-base-gym",
        13,
        "banned",
        '"Birthday Pikachu" ("_____\'s Pikachu", basep-24) is banned in pokemon-base-gym (Birthday Pikachu, banned upon its release in September 2000)',
    ),
    (
        "vintage/max-cards.txt",
        "pokemon-prop-15-3",
        12,
        "max-cards",
        "the deck holds 16 Trainer cards; at most 15 (lines 7, 8, 9, 10, 11, 12)",
    ),
]


BROKEN = [
    # (deck, format override, line, rule, message)
    ("pokemon/deck-size.txt", None, 4, "deck-size", "the deck holds 59 cards; exactly 60 needed"),
    ("pokemon/copy-limit.txt", None, 16, "copy-limit", '5 copies of "Bill" (limit 4)'),
    ("pokemon/copy-limit-split.txt", None, 20, "copy-limit", '5 copies of "Pokémon Breeder" (limit 4; lines 16, 20)'),
    ("pokemon/copy-limit-dce.txt", None, 28, "copy-limit", '5 copies of "Double Colorless Energy" (limit 4)'),
    ("pokemon/require.txt", None, 4, "require", "the deck holds no Basic Pokémon; at least 1 needed"),
    ("pokemon/allowed-sets.txt", None, 14, "allowed-sets", '"Testmon" (test1-1) is from set test1; pokemon-base allows only base1'),
    ("pokemon/deck-size.txt", "pokemon-unlimited", 4, "deck-size", "the deck holds 59 cards; exactly 60 needed"),
    ("pokemon/copy-limit.txt", "pokemon-unlimited", 16, "copy-limit", '5 copies of "Bill" (limit 4)'),
    ("pokemon/require.txt", "pokemon-unlimited", 4, "require", "the deck holds no Basic Pokémon; at least 1 needed"),
    *VINTAGE,
    ("ippo/deck-size.txt", None, 4, "deck-size", "the deck holds 59 cards; exactly 60 needed"),
    ("ippo/copy-limit.txt", None, 11, "copy-limit", '5 copies of "Test Jab" (ippo-test-1) (limit 4; lines 5, 11)'),
    ("ippo/deck-size-4-rounds.txt", None, 4, "deck-size", "the deck holds 60 cards; exactly 40 needed"),
    ("ippo/copy-limit-4-rounds.yaml", None, 14, "copy-limit", '5 copies of "Test Jab" (ippo-test-1) (limit 4; lines 4, 14)'),
    ("monpa/deck-size.txt", None, 10, "deck-size", "the deck holds 39 cards; exactly 40 needed"),
    ("forumtcg/deck-size.txt", None, 3, "deck-size", "the deck holds 9 cards; exactly 10 needed"),
    ("monpa/section-size-commander.txt", None, 4, "section-size", "the Commander section holds 2 cards; exactly 1 needed"),
    ("monpa/section-size-favor.txt", None, 5, "section-size", "the Favor section holds 0 cards; exactly 1 needed"),
    ("monpa/copy-limit.txt", None, 16, "copy-limit", '4 copies of "Test Servant" (limit 3)'),
    (
        "monpa/commander-in-main.txt",
        None,
        27,
        "section-cards",
        '"Test Commander" (commander) is in the deck; commanders and favors may not be in the deck',
    ),
    (
        "monpa/servant-as-commander.txt",
        None,
        5,
        "section-cards",
        '"Test Giant" (servant) is in the Commander section, which holds only a commander',
    ),
    ("monpa/charm-as-favor.txt", None, 8, "section-cards", '"Test Charm" (charm) is in the Favor section, which holds only a favor'),
]


@pytest.mark.parametrize(("name", "fmt", "line", "rule", "message"), BROKEN)
def test_each_rule_broken_alone(catalog, plain_catalog, formats, name, fmt, line, rule, message):
    deck = load_deck(DECKS / name, _catalog(fmt, catalog, plain_catalog, name), formats, fmt)
    problems = check_deck(deck)
    assert [(p.pos.path, p.pos.line, p.rule, p.message) for p in problems] == [(DECKS / name, line, rule, message)]


def test_every_rule_of_every_format_is_broken_by_a_test_deck(formats):
    broken = set()
    for name, fmt, _line, rule, message in BROKEN:
        fmt_name = fmt or next(
            ln.split(":", 1)[1].strip() for ln in (DECKS / name).read_text().splitlines() if ln.lower().startswith("format:")
        )
        broken.add((fmt_name, rule, message.split(" ")[1] if rule == "section-size" else None))
    for fmt in formats.values():
        for spec in fmt.rules:
            key = (fmt.name, spec.rule, _section_word(spec) if spec.rule == "section-size" else None)
            assert {key, (fmt.name, spec.rule, None)} & broken, key  # broken for this section, or for the rule as a whole


def _section_word(spec):
    return "Commander" if spec.params["section"] == "commander" else "Favor"


def test_registry_ids():
    assert set(RULES) == {
        "deck-size",
        "section-size",
        "copy-limit",
        "require",
        "allowed-sets",
        "section-cards",
        "max-cards",
        "banned",
        "number-range",
    }


def test_registry_is_the_schema_enum():
    import json

    schema = json.loads((REPO / "schema" / "format.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["rule"]["properties"]["rule"]["enum"] == list(RULES)
    for rule, check in RULES.items():
        assert check.__doc__ and f"``{rule}``" in check.__doc__


@pytest.mark.parametrize("fmt", VINTAGE_FORMATS)
def test_vintage_legal_deck_is_legal_everywhere(catalog, formats, fmt):
    assert check_deck(load_deck(DECKS / "vintage" / "legal.txt", catalog, formats, fmt)) == []


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("vintage/max-cards.txt", f) for f in VINTAGE_FORMATS[:-2]]
    + [("vintage/copy-limit-3.txt", f) for f in VINTAGE_FORMATS if f != "pokemon-prop-15-3"]
    + [
        ("vintage/banned.txt", "pokemon-base-rocket"),
        ("vintage/banned.txt", "pokemon-prop-15-3"),
        ("vintage/promo-12.txt", "pokemon-base-gym"),
        ("vintage/promo-12.txt", "pokemon-prop-15-3"),
    ],
)
def test_vintage_decks_legal_where_the_rule_does_not_apply(catalog, formats, name, fmt):
    assert check_deck(load_deck(DECKS / name, catalog, formats, fmt)) == []


def test_copy_limit_names_pikachu_across_sets_and_dark_pokemon_apart(catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(
        "4 Pikachu BS 58\n1 Pikachu JU 60\n4 Charizard BS 4\n4 Dark Charizard TR 4\n4 Charmander BS 46\n43 Fire Energy BS 98\n",
        encoding="utf-8",
    )
    problems = check_deck(load_deck(path, catalog, formats, "pokemon-base-rocket"))
    assert [(p.pos.line, p.rule, p.message) for p in problems] == [(2, "copy-limit", '5 copies of "Pikachu" (limit 4; lines 1, 2)')]


def test_reprints_count_under_the_originals_name(catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(
        "3 Impostor Professor Oak BS 73\n2 Imposter Professor Oak B2 102\n4 Pikachu BS 58\n51 Lightning Energy BS 100\n", encoding="utf-8"
    )
    problems = check_deck(load_deck(path, catalog, formats, "pokemon-base-fossil"))
    assert [(p.pos.line, p.rule, p.message) for p in problems] == [
        (2, "copy-limit", '5 copies of "Impostor Professor Oak" (limit 4; lines 1, 2)')
    ]


def test_ptcgo_codes_in_deck_lines(catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("4 Scyther JU 10\n1 Mewtwo PR 3\n55 Grass Energy\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats, "pokemon-base-fossil")
    assert [(c.line, c.count, c.card_id) for c in deck.cards] == [(1, 4, "base2-10"), (2, 1, "basep-3"), (3, 55, "base1-99")]
    assert check_deck(deck) == []


@pytest.mark.parametrize(
    ("card", "condition", "expected"),
    [
        ({"supertype": "Pokémon", "stage": "Basic"}, {"supertype": "Pokémon", "stage": "Basic"}, True),
        ({"supertype": "Pokémon", "stage": "Stage 1"}, {"supertype": "Pokémon", "stage": "Basic"}, False),
        ({"type": "favor"}, {"type": ["commander", "favor"]}, True),
        ({"type": "servant"}, {"type": ["commander", "favor"]}, False),
        ({"types": ["Fire", "Water"]}, {"types": "Water"}, True),
        ({"name": "x"}, {"energy_type": "basic"}, False),
    ],
)
def test_matches(card, condition, expected):
    assert matches(card, condition) is expected
    assert condition_test(condition)(card) is expected


_KEYS = st.sampled_from(["stage", "types", "energy_type"])
_VALUES = st.sampled_from(["Basic", "Fire", "basic", "", 1, True, None])
_FIELD = st.one_of(_VALUES, st.lists(_VALUES, max_size=3))


@settings(max_examples=1000, deadline=None)
@given(st.dictionaries(_KEYS, _FIELD, max_size=3), st.dictionaries(_KEYS, _FIELD, max_size=3))
def test_condition_test_is_matches(card, condition):
    """Property (1,000 cards and conditions): the function a rule builds once per deck
    (condition_test) says what matches says, for scalar and list values on either side, missing
    fields, and several fields."""
    assert condition_test(condition)(card) is matches(card, condition)


def test_same_name_across_sets_counts_together(base_catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("Format: pokemon-unlimited\n4 Magnemite\n2 Bill BS 91\n3 Bill RPT 2\n51 Lightning Energy\n", encoding="utf-8")
    problems = check_deck(load_deck(path, base_catalog, formats))
    assert [(p.pos.line, p.rule, p.message) for p in problems] == [(4, "copy-limit", '5 copies of "Bill" (limit 4; lines 3, 4)')]


ONE_CARD = {"pokemon": "4 Bill BS 91", "ippo": "4 Test Jab", "monpa": "1 Test Commander", "forumtcg": "5 Lame errante"}
DECK_WIDE = {"deck-size", "section-size", "require", "max-cards"}
WORDING = re.compile(
    r"^the (deck|[A-Z]\w*(?: \w+)* section) holds (no |only )?\d* ?[^;]+; (exactly|at least|at most) \d+( needed| \(.+\))$"
)


def test_deck_wide_problems_have_one_wording(catalog, formats, tmp_path):
    """Kind: a problem of the whole deck or a section (size, a required kind, a cap) reads one way
    in every format of every game: "<the deck | the X section> holds ...; exactly|at least|at most N"."""
    seen: dict[str, set[str]] = {}
    for name, fmt in formats.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(f"Format: {name}\n{ONE_CARD[fmt.game]}\n", encoding="utf-8")
        for p in check_deck(load_deck(path, catalog, formats, name)):
            if p.rule in DECK_WIDE:
                assert WORDING.match(p.message), (name, p.message)
                seen.setdefault(p.rule, set()).add(re.sub(r"\d+", "N", p.message))
    assert seen["deck-size"] == {"the deck holds N cards; exactly N needed", "the deck holds N card; exactly N needed"}
    assert seen["section-size"] == {
        "the Commander section holds N cards; exactly N needed",
        "the Favor section holds N cards; exactly N needed",
    }
    assert seen["require"] == {"the deck holds no Basic Pokémon; at least N needed"}
