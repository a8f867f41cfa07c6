"""cardlab.decks.stats: counts, cost curves and opening odds equal values computed by hand."""

from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import load_deck
from cardlab.decks.stats import deck_stats

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog"]


def odds_of(stats):
    return {o.id: o.value for o in stats.odds}


def test_pokemon_zap(catalog, formats):
    stats = deck_stats(load_deck(REPO / "examples" / "decks" / "zap-theme-deck.txt", catalog, formats, "pokemon-base"))
    assert (stats.size, stats.hand, stats.unmatched) == (60, 7, 0)
    assert stats.by_type == {"Energy: basic": 28, "Pokémon: Basic": 18, "Trainer": 11, "Pokémon: Stage 1": 3}
    assert stats.by_energy == {"Psychic": 16, "Lightning": 12}
    # 18 Basic Pokémon: 4 Pikachu, 3 Magnemite, 3 Abra, 3 Gastly, 2 Drowzee, 2 Jynx, 1 Mewtwo
    p = 1 - Fraction(comb(42, 7), comb(60, 7))
    assert odds_of(stats)["opening-basic"] == p
    assert odds_of(stats)["mulligans"] == (1 - p) / p
    assert float(p) == pytest.approx(1 - 26_978_328 / 386_206_920)  # 0.9301


def test_pokemon_curve_and_special_energy(catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("2 Charizard\n4 Double Colorless Energy\n54 Fire Energy\n", encoding="utf-8")
    stats = deck_stats(load_deck(path, catalog, formats, "pokemon-unlimited"))
    assert stats.curve == {"4": 2}  # Fire Spin costs 4 Energy
    assert stats.by_type == {"Energy: basic": 54, "Energy: special": 4, "Pokémon: Stage 2": 2}
    assert stats.by_energy == {"Fire": 54, "Colorless": 4}
    assert odds_of(stats)["opening-basic"] == 0
    assert odds_of(stats)["mulligans"] is None


def test_unmatched_lines_still_count_as_cards(catalog, formats, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("4 Hitmonchan\n4 Pikachoo\n52 Fighting Energy\n", encoding="utf-8")
    stats = deck_stats(load_deck(path, catalog, formats, "pokemon-base"))
    assert (stats.size, stats.unmatched) == (60, 4)  # no card is called Pikachoo
    assert odds_of(stats)["opening-basic"] == 1 - Fraction(comb(56, 7), comb(60, 7))  # 4 Hitmonchan


def test_haymaker_opening_odds_count_every_basic_named_bare(catalog, formats):
    """Haymaker as players write it (bare names): 4 Hitmonchan, 4 Electabuzz (Base Set 20 assumed,
    the promo is the same to the rules) and 4 Scyther are its 12 Basic Pokémon."""
    deck = load_deck(REPO / "examples" / "decks" / "haymaker.txt", catalog, formats, "pokemon-base-fossil")
    stats = deck_stats(deck)
    assert (stats.size, stats.unmatched) == (60, 0)
    assert odds_of(stats)["opening-basic"] == 1 - Fraction(comb(48, 7), comb(60, 7))
    assert {c.card_id for c in deck.cards if c.card.get("stage") == "Basic"} == {"base1-7", "base1-20", "base2-10"}


def test_ippo(catalog, formats):
    stats = deck_stats(load_deck(DECKS / "ippo" / "legal-10-rounds.txt", catalog, formats))
    assert stats.by_type == {"blow": 24, "defense": 20, "fight": 8, "support": 8}
    assert stats.curve == {"1": 8, "3": 12, "5": 4}
    assert stats.hand == 5
    # mulligan: 5 cards with no Defense (40 others) or only Defense (20)
    assert odds_of(stats)["mulligan"] == Fraction(comb(40, 5) + comb(20, 5), comb(60, 5))
    # getting up: ten cards turned up with no Blow among them = C(36,10)/C(60,10)
    assert odds_of(stats)["get-up"] == 1 - Fraction(comb(36, 10), comb(60, 10))


def test_ippo_40_cards(catalog, formats):
    stats = deck_stats(load_deck(DECKS / "ippo" / "legal-4-rounds.yaml", catalog, formats))
    assert odds_of(stats)["mulligan"] == Fraction(comb(24, 5) + comb(16, 5), comb(40, 5))
    assert odds_of(stats)["get-up"] == 1 - Fraction(comb(24, 10), comb(40, 10))


def test_monpa_every_type_by_default(catalog, formats):
    stats = deck_stats(load_deck(DECKS / "monpa" / "legal.txt", catalog, formats))
    assert stats.by_type == {"servant": 21, "spell": 10, "charm": 9}
    assert stats.sections == {"main": 40, "commander": 1, "favor": 1}
    assert stats.curve == {"0": 3, "1": 6, "2": 12, "3": 4, "4": 6, "6": 3, "?": 3, "X": 3}
    # at least one charm (9), servant (21) and spell (10) in 5 of 40, by inclusion-exclusion
    n = comb(40, 5)
    expected = Fraction(n - comb(31, 5) - comb(19, 5) - comb(30, 5) + comb(10, 5) + comb(21, 5) + comb(9, 5) - comb(0, 5), n)
    assert odds_of(stats)["opening-each"] == expected


def test_monpa_chosen_kinds(catalog, formats):
    stats = deck_stats(load_deck(DECKS / "monpa" / "legal.txt", catalog, formats), need=["servant", "spell"])
    expected = 1 - Fraction(comb(19, 5) + comb(30, 5) - comb(9, 5), comb(40, 5))
    assert odds_of(stats)["opening-each"] == expected
    assert stats.odds[0].label == "at least one servant and one spell in the 5-card opening hand"


def test_json_is_exact_and_readable(catalog, formats):
    data = deck_stats(load_deck(DECKS / "monpa" / "legal.txt", catalog, formats)).to_json()
    odd = data["odds"][0]
    assert Fraction(odd["exact"]) == pytest.approx(odd["value"])
    assert data["size"] == 40
