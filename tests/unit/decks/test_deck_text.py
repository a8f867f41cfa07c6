"""Deck lists given as text (pasted in the web page, sent to the API): parsing, every format of the
game, export that reads back to the same cards, seeded sample hands, a card's legality per format."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.core.errors import InputError
from cardlab.decks.check import choose_format, export_json, export_text, header_words, legality
from cardlab.decks.model import MAX_DECK_BYTES
from cardlab.decks.read import parse_deck_text, read_deck
from cardlab.decks.rules import card_legality
from cardlab.decks.stats import sample_hand

REPO = Path(__file__).resolve().parents[3]
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"


@pytest.fixture(scope="module")
def shipped():
    """The shipped catalog and its formats only (no test sets whose Pikachu would be ambiguous)."""
    from cardlab.catalog.validate import validate
    from cardlab.core.paths import shipped_catalog

    result = validate([shipped_catalog()], cache_path=None)
    return result.catalog, dict(sorted(result.formats.items()))


def test_text_parses_as_the_file_does(formats):
    words = header_words(formats)
    from_text = parse_deck_text(ZAP.read_text(encoding="utf-8"), ZAP, words)
    assert from_text == read_deck(ZAP, words)


def test_text_limits():
    with pytest.raises(InputError, match="limit is 1,000,000"):
        parse_deck_text("4 Bill\n" * (MAX_DECK_BYTES // 7 + 1), "deck.txt")
    with pytest.raises(InputError, match="NUL byte"):
        parse_deck_text("4 Bill\n\x00", "deck.txt")
    with pytest.raises(InputError, match="holds no cards"):
        parse_deck_text("# only a comment\n", "deck.txt")


def test_every_format_of_the_game(shipped, pokemon_formats):
    catalog, formats = shipped
    text = ZAP.read_text(encoding="utf-8").replace("2 Bill", "5 Bill")
    every = legality(parse_deck_text(text, "deck.txt", header_words(formats)), catalog, formats)
    reports = every.results
    assert [r.format.name for r in reports] == pokemon_formats
    assert every.best.format.name == "pokemon-base"  # the best fit: Zap is a Base Set theme deck
    for report in reports:
        # 3 more cards: 63, and 5 copies of Bill on line 10
        assert {(p.pos.line, p.rule) for p in report.problems} >= {(10, "copy-limit")}
        assert not report.legal


def test_export_reads_back_to_the_same_cards(shipped):
    catalog, formats = shipped
    words = header_words(formats)
    deck, problems, _ = choose_format(parse_deck_text(ZAP.read_text(encoding="utf-8"), "zap.txt", words), catalog, formats)
    assert not problems
    text = export_text(deck, ["fr"])
    assert text.splitlines()[:3] == ["Format: pokemon-base", "Deck: 60", "4 Pikachu base1 58"]
    again, problems2, _ = choose_format(parse_deck_text(text, "again.txt", words), catalog, formats)
    assert not problems2
    assert sorted((c.card_id, c.count) for c in again.cards) == sorted((c.card_id, c.count) for c in deck.cards)
    data = export_json(deck)
    assert data["format"] == "pokemon-base" and sum(c["count"] for c in data["main"]) == 60


def test_sample_hand_is_seeded(shipped):
    catalog, formats = shipped
    deck, _, _ = choose_format(parse_deck_text(ZAP.read_text(encoding="utf-8"), "zap.txt", header_words(formats)), catalog, formats)
    hand = sample_hand(deck, 7)
    assert len(hand) == 7
    assert [c.card_id for c in hand] == [c.card_id for c in sample_hand(deck, 7)]
    assert {tuple(c.card_id for c in sample_hand(deck, s)) for s in range(5)} != {tuple(c.card_id for c in hand)}
    assert len(sample_hand(deck, 1, size=100)) == 60
    drawn = sample_hand(deck, 3, size=60)  # the whole deck: every copy exactly once
    assert sorted((c.card_id, n) for c in deck.cards for n in [sum(d is c for d in drawn)]) == sorted(
        (c.card_id, c.count) for c in deck.cards
    )


def test_sample_hand_of_a_huge_deck_lists_no_copies(shipped):
    catalog, formats = shipped
    text = "999 Bill\n" * 20_000  # 20 million copies
    deck, _, _ = choose_format(parse_deck_text(text, "big.txt", header_words(formats)), catalog, formats, "pokemon-base")
    hand = sample_hand(deck, 5)
    assert len(hand) == 7 and {c.card_id for c in hand} == {"base1-91"}


def test_card_legality(formats):
    pokemon = [formats["pokemon-base"], formats["pokemon-unlimited"]]
    assert [(f.name, ok, why) for f, ok, why in card_legality("base1", pokemon)] == [
        ("pokemon-base", True, ""),
        ("pokemon-unlimited", True, ""),
    ]
    assert [(ok, why) for _f, ok, why in card_legality("test1", pokemon)] == [(False, "only the sets base1"), (True, "")]


def test_card_index_cache(shipped):
    from cardlab.decks.check import MAX_CACHED_INDEXES, card_index

    catalog, formats = shipped
    words = header_words(formats)
    cache: dict = {}
    deck_list = parse_deck_text(ZAP.read_text(encoding="utf-8"), "zap.txt", words)
    first, problems, _ = choose_format(deck_list, catalog, formats, "pokemon-base", indexes=cache)
    assert not problems and len(cache) == 1
    index = next(iter(cache.values()))
    again, _, _ = choose_format(deck_list, catalog, formats, "pokemon-base", indexes=cache)
    assert next(iter(cache.values())) is index and [c.card_id for c in again.cards] == [c.card_id for c in first.cards]
    assert card_index(None, catalog, "pokemon") is None
    for i in range(MAX_CACHED_INDEXES + 5):
        card_index(cache, catalog, "pokemon", [f"l{i}"])
    assert len(cache) == MAX_CACHED_INDEXES


@pytest.mark.parametrize("name", ["monpa/legal.txt", "monpa/legal.yaml", "ippo/legal-10-rounds.txt", "ippo/legal-4-rounds.yaml"])
def test_export_reads_back_in_every_game(catalog, formats, name):
    path = REPO / "tests" / "fixtures" / "decks" / name
    words = header_words(formats)
    deck, problems, _ = choose_format(parse_deck_text(path.read_text(encoding="utf-8"), path.name, words), catalog, formats)
    again, problems2, _ = choose_format(parse_deck_text(export_text(deck), "again.txt", words), catalog, formats)
    assert not problems and not problems2 and again.format is deck.format
    assert sorted((c.card_id, c.count, c.section) for c in again.cards) == sorted((c.card_id, c.count, c.section) for c in deck.cards)
