"""cardlab.decks.resolve.build_deck: the values that survivors of the fifth and sixth mutation runs
changed (issue 16): the format's collector number ranges used to choose among cards of one name, a
YAML deck's unknown section reported word for word with the lines after it kept, and each deck
card's source language."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.decks.check import load_deck
from cardlab.decks.parse_text import parse_text
from cardlab.decks.resolve import build_deck

P = Path("deck.txt")


def test_a_name_is_matched_among_the_cards_in_the_formats_number_ranges(catalog, formats):
    """Under pokemon-base-fossil (promos 1 to 9 only), "Mewtwo" is Base Set's, promo 3 or the Base
    Set 2 reprint: the promos 12 and 14 are out of the range, so they are not candidates. The
    cards are the same to every rule of the format: Base Set's is assumed, in a note."""
    deck = build_deck(parse_text("1 Mewtwo\n", P), catalog, formats["pokemon-base-fossil"])
    assert [(c.card_id, c.candidates) for c in deck.cards] == [("base1-10", ("base1-10", "base4-10", "basep-3"))]  # promos last
    assert deck.problems == []
    assert [(p.pos.line, p.rule, p.message) for p in deck.notes] == [
        (1, "assumed-printing", "1 Mewtwo: Base Set 10 assumed (also Wizards Black Star Promos 3)")
    ]
    deck = build_deck(parse_text("1 Mewtwo\n", P), catalog, formats["pokemon-base-gym"])  # every promo: 12 and 14 too
    assert deck.cards[0].candidates == ("base1-10", "base4-10", "basep-3", "basep-12", "basep-14")


def test_yaml_unknown_section_before_the_main_deck(tmp_path, catalog, formats):
    """A section the format does not have: one problem at each of its lines, naming the format's
    sections; the lines of the sections after it are still matched."""
    path = tmp_path / "d.yaml"
    path.write_text("format: pokemon-base\nsideboard:\n  - 4 Pikachu\nmain: [60 Fire Energy]\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats)
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [
        (3, "unknown-section", "section 'sideboard' is not part of pokemon-base (sections: main)")
    ]
    assert [(c.line, c.count, c.card_id, c.section) for c in deck.cards] == [(4, 60, "base1-98", "main")]


def test_yaml_unknown_section_lists_the_formats_sections_a_to_z(tmp_path, catalog, formats):
    """The format's sections, A-Z, separated by a comma and a space."""
    path = tmp_path / "d.yaml"
    path.write_text("format: monpa\nsideboard:\n  - 1 monpa-test-1\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats)
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems if p.rule == "unknown-section"] == [
        (3, "unknown-section", "section 'sideboard' is not part of monpa (sections: commander, favor, main)")
    ]


def test_deck_cards_carry_their_sets_source_language(catalog, formats):
    """A card of a set written in French: its deck card's source language is ``fr`` (names fall back
    to it), an English set's ``en``."""
    fr = build_deck(parse_text("1 monpa-test-1\n", P), catalog, formats["monpa"])
    en = build_deck(parse_text("1 Pikachu BS 58\n", P), catalog, formats["pokemon-base"])
    assert [(c.card_id, c.name, c.source_language) for c in fr.cards + en.cards] == [
        ("monpa-test-1", "Test Commander", "fr"),
        ("base1-58", "Pikachu", "en"),
    ]


def _problems(text: str, catalog, fmt) -> list[tuple[int, str, str]]:
    deck = build_deck(parse_text(text, P, fmt.header_words()), catalog, fmt)
    return [(p.pos.line, p.rule, p.message) for p in deck.problems]


@pytest.mark.parametrize(
    ("sideboard", "message"),
    [
        ("", "sideboards are not part of pokemon-base; remove these lines"),
        ("1 Bill\n", "sideboards are not part of pokemon-base; remove these lines (1 card on line 4, not counted)"),
        ("2 Bill\n", "sideboards are not part of pokemon-base; remove these lines (2 cards on line 4, not counted)"),
    ],
)
def test_sideboard_problem_counts_its_cards_in_words(catalog, formats, sideboard, message):
    """An empty sideboard says nothing of cards; one card is "1 card", two are "2 cards"."""
    text = "Pokemon: 4\n4 Pikachu BS 58\nSideboard:\n" + sideboard
    assert _problems(text, catalog, formats["pokemon-base"]) == [(3, "unknown-section", message)]


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        # a header without a total does not end the checks of the headers after it
        ("Pokemon:\n4 Pikachu BS 58\nTrainer: 3\n2 Bill\n", [(3, "section-total", '"Trainer: 3" declares 3 cards but its lines hold 2')]),
        # a total line between two groups ends neither: Pokemon holds its 4 cards only
        ("Pokemon: 4\n4 Pikachu BS 58\nTotal Cards: 7\nTrainer: 3\n3 Bill\n", []),
        # a header the format does not know is a group of the main deck: it ends at the next header
        ("Stuff: 2\n2 Bill\nPokemon: 4\n4 Pikachu BS 58\n", []),
        # ... and does not end a section's count (Main Deck counts the groups under it)
        ("Main Deck: 6\nPokemon: 4\n4 Pikachu BS 58\nStuff: 2\n2 Bill\n", []),
    ],
)
def test_section_totals_count_the_lines_each_header_holds(catalog, formats, text, problems):
    """Declared totals against the lines under each header, groups and sections."""
    assert _problems(text, catalog, formats["pokemon-base"]) == problems


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        # a card id with a set and number that name no card
        (
            '{count: 4, card: base1-58, set: base1, number: "999"}',
            ("unknown-card", 'card base1-58 is "Pikachu" but base1 999 is no card of the catalog'),
        ),
        # a card id of another game, and one of no game
        ("{count: 1, card: monpa-test-1}", ("unknown-card", "monpa-test-1 is a monpa card, not a pokemon card")),
        ("{count: 1, card: base1-999}", ("unknown-card", "no card base1-999 in the catalog")),
        # an explicit name is a name: not read as "name set number" nor as "set number"
        ('{count: 1, name: "Pikachu BS 58"}', ("unknown-card", 'unknown card "Pikachu BS 58"; did you mean "Pikachu"?')),
        ('{count: 1, name: "BS 58"}', ("unknown-card", 'unknown card "BS 58"')),
    ],
)
def test_yaml_items_with_explicit_parts(tmp_path, catalog, formats, item, problem):
    """YAML items that give a card id, or a name, explicitly: the problem word for word, its rule."""
    path = tmp_path / "d.yaml"
    path.write_text(f"format: pokemon-base\nmain:\n  - {item}\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats)
    assert (deck.cards, [(p.pos.line, p.rule, p.message) for p in deck.problems]) == ([], [(3, *problem)])


def test_display_name_falls_back_to_the_sets_source_language():
    """No preferred language and no English name: the name in the set's source language, not the
    first one the map lists."""
    from types import SimpleNamespace

    from cardlab.decks.resolve import CardIndex

    catalog = SimpleNamespace(
        cards={"zz1-1": {"name": {"fr": "Zorbe", "ja": "ゾルブ"}}},
        name_maps=lambda game: ({}, {}, {}),
        set_of=lambda card_id: SimpleNamespace(source_language="ja"),
    )
    index = CardIndex(catalog, "pokemon")  # type: ignore[arg-type]
    assert (index.display_name("zz1-1"), index.display_name("zz1-1")) == ("ゾルブ", "ゾルブ")


def test_ambiguous_cards_are_listed_by_set_then_id():
    """The cards a name matches are listed set by set: with sets ``zz`` and ``zz-2``, ``zz-9`` (set
    ``zz``) comes before ``zz-2-5`` although its id sorts after."""
    from types import SimpleNamespace

    from cardlab.decks.model import Entry
    from cardlab.decks.resolve import CardIndex

    cards = {"zz-9": {"name": {"en": "Zorb"}, "number": "9"}, "zz-2-5": {"name": {"en": "Zorb"}, "number": "5"}}
    catalog = SimpleNamespace(
        cards=cards,
        card_set={"zz-9": "zz", "zz-2-5": "zz-2"},
        name_maps=lambda game: ({"zorb": set(cards)}, {}, {}),
        set_of=lambda card_id: SimpleNamespace(source_language="en"),
        find_set=lambda code: None,
        by_print_order=sorted,
        oracle_of=lambda card_id: card_id,
        printings=lambda card_id: [card_id],
    )
    index = CardIndex(catalog, "pokemon")  # type: ignore[arg-type]
    assert index.resolve(Entry(1, 2, "Zorb")) == (
        None,
        '"Zorb" matches 2 cards: Zorb zz 9 (zz-9), Zorb zz-2 5 (zz-2-5); add the set and number, e.g. "2 Zorb zz 9"',
        "ambiguous-card",
    )
