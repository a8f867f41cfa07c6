"""cardlab.decks.rules: every rule of every shipped format has a deck that breaks exactly that rule,
reported with its line and the rule's id; the legal decks have no problem."""

from pathlib import Path

import pytest

from cardlab.decks.check import load_deck
from cardlab.core.paths import shipped_catalog
from cardlab.decks.rules import RULES, check_deck, matches
from cardlab.catalog.validate import validate

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog", DECKS / "catalog", REPO / "tests" / "fixtures" / "forumtcg"]


@pytest.fixture(scope="module")
def plain_catalog():
    """Without the reprint set (whose second Pikachu and Bill make those names ambiguous in
    pokemon-unlimited)."""
    return validate(ROOTS[:2], cache_path=None).catalog


def _catalog(fmt, catalog, plain_catalog):
    return plain_catalog if fmt == "pokemon-unlimited" else catalog


LEGAL = [
    ("pokemon/legal.txt", None), ("pokemon/zap.yaml", None), ("pokemon/dialects.txt", "pokemon-base"),
    ("pokemon/allowed-sets.txt", "pokemon-unlimited"),
    ("ippo/legal-10-rounds.txt", None), ("ippo/legal-4-rounds.yaml", None),
    ("monpa/legal.txt", None), ("monpa/legal.yaml", None),
]


@pytest.mark.parametrize(("name", "fmt"), LEGAL)
def test_legal_decks(catalog, plain_catalog, formats, name, fmt):
    deck = load_deck(DECKS / name, _catalog(fmt, catalog, plain_catalog), formats, fmt)
    assert check_deck(deck) == []


BROKEN = [
    # (deck, format override, line, rule, message)
    ("pokemon/deck-size.txt", None, 4, "deck-size", "the deck holds 59 cards; exactly 60 needed"),
    ("pokemon/copy-limit.txt", None, 16, "copy-limit", '5 copies of "Bill" (limit 4)'),
    ("pokemon/copy-limit-split.txt", None, 20, "copy-limit", '5 copies of "Pokémon Breeder" (limit 4; lines 16, 20)'),
    ("pokemon/copy-limit-dce.txt", None, 28, "copy-limit", '5 copies of "Double Colorless Energy" (limit 4)'),
    ("pokemon/require.txt", None, 4, "require", "no Basic Pokémon in the deck (at least 1 needed)"),
    ("pokemon/allowed-sets.txt", None, 14, "allowed-sets", '"Testmon" (test1-1) is from set test1; pokemon-base allows only base1'),
    ("pokemon/deck-size.txt", "pokemon-unlimited", 4, "deck-size", "the deck holds 59 cards; exactly 60 needed"),
    ("pokemon/copy-limit.txt", "pokemon-unlimited", 16, "copy-limit", '5 copies of "Bill" (limit 4)'),
    ("pokemon/require.txt", "pokemon-unlimited", 4, "require", "no Basic Pokémon in the deck (at least 1 needed)"),
    ("ippo/deck-size.txt", None, 4, "deck-size", "the deck holds 59 cards; exactly 60 needed"),
    ("ippo/copy-limit.txt", None, 11, "copy-limit", '5 copies of "Test Jab" (ippo-test-1) (limit 4; lines 5, 11)'),
    ("ippo/deck-size-4-rounds.txt", None, 4, "deck-size", "the deck holds 60 cards; exactly 40 needed"),
    ("ippo/copy-limit-4-rounds.yaml", None, 14, "copy-limit", '5 copies of "Test Jab" (ippo-test-1) (limit 4; lines 4, 14)'),
    ("monpa/deck-size.txt", None, 10, "deck-size", "the deck holds 39 cards; exactly 40 needed"),
    ("forumtcg/deck-size.txt", None, 3, "deck-size", "the deck holds 9 cards; exactly 10 needed"),
    ("monpa/section-size-commander.txt", None, 4, "section-size", "the Commander section holds 2 cards; exactly 1 needed"),
    ("monpa/section-size-favor.txt", None, 5, "section-size", "the Favor section holds 0 cards; exactly 1 needed"),
    ("monpa/copy-limit.txt", None, 16, "copy-limit", '4 copies of "Test Servant" (limit 3)'),
    ("monpa/commander-in-main.txt", None, 27, "section-cards",
     '"Test Commander" (commander) is in the deck; commanders and favors may not be in the main deck'),
    ("monpa/servant-as-commander.txt", None, 5, "section-cards",
     '"Test Giant" (servant) is in the Commander section, which holds only a commander'),
    ("monpa/charm-as-favor.txt", None, 8, "section-cards", '"Test Charm" (charm) is in the Favor section, which holds only a favor'),
]


@pytest.mark.parametrize(("name", "fmt", "line", "rule", "message"), BROKEN)
def test_each_rule_broken_alone(catalog, plain_catalog, formats, name, fmt, line, rule, message):
    deck = load_deck(DECKS / name, _catalog(fmt, catalog, plain_catalog), formats, fmt)
    problems = check_deck(deck)
    assert [(p.pos.path, p.pos.line, p.rule, p.message) for p in problems] == [(DECKS / name, line, rule, message)]


def test_every_rule_of_every_format_is_broken_by_a_test_deck(formats):
    broken = set()
    for name, fmt, _line, rule, message in BROKEN:
        fmt_name = fmt or next(ln.split(":", 1)[1].strip() for ln in (DECKS / name).read_text().splitlines()
                               if ln.lower().startswith("format:"))
        broken.add((fmt_name, rule, message.split(" ")[1] if rule == "section-size" else None))
    for fmt in formats.values():
        for spec in fmt.rules:
            key = (fmt.name, spec.rule, _section_word(spec) if spec.rule == "section-size" else None)
            assert {key, (fmt.name, spec.rule, None)} & broken, key  # broken for this section, or for the rule as a whole


def _section_word(spec):
    return "Commander" if spec.params["section"] == "commander" else "Favor"


def test_registry_ids():
    assert set(RULES) == {"deck-size", "section-size", "copy-limit", "require", "allowed-sets", "section-cards"}


@pytest.mark.parametrize(("card", "condition", "expected"), [
    ({"supertype": "Pokémon", "stage": "Basic"}, {"supertype": "Pokémon", "stage": "Basic"}, True),
    ({"supertype": "Pokémon", "stage": "Stage 1"}, {"supertype": "Pokémon", "stage": "Basic"}, False),
    ({"type": "favor"}, {"type": ["commander", "favor"]}, True),
    ({"type": "servant"}, {"type": ["commander", "favor"]}, False),
    ({"types": ["Fire", "Water"]}, {"types": "Water"}, True),
    ({"name": "x"}, {"energy_type": "basic"}, False),
])
def test_matches(card, condition, expected):
    assert matches(card, condition) is expected


def test_same_name_across_sets_counts_together(catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("Format: pokemon-unlimited\n4 Magnemite\n2 Bill BS 91\n3 Bill RPT 2\n51 Lightning Energy\n", encoding="utf-8")
    problems = check_deck(load_deck(path, catalog, formats))
    assert [(p.pos.line, p.rule, p.message) for p in problems] == [(4, "copy-limit", '5 copies of "Bill" (limit 4; lines 3, 4)')]
