"""cardlab.decks.rules, rule by rule on decks built in memory (issue 16): each limit at its exact
edge (the maximum accepted, one over refused), the exact wording and line of each message, two
problems at once reported once each and in order, and the one-line descriptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.catalog.formats import Format, RuleSpec, Section
from cardlab.core.errors import Problem, SourcePos
from cardlab.decks.model import Deck, DeckCard, Entry
from cardlab.decks.rules import (
    _condition_text,
    _first_over,
    _section_line,
    card_legality,
    check_banned,
    check_copies,
    check_deck,
    check_max_cards,
    check_number_range,
    check_require,
    check_section_cards,
    check_sets,
    check_size,
    describe,
    matches,
)

PATH = Path("zorb.txt")
SECTIONS = [Section("main", "Main deck"), Section("side", "Reserve")]


def _format(*rules: RuleSpec, name: str = "zorb-format") -> Format:
    return Format(name, "pokemon", "Zorb format", SECTIONS, list(rules), Path("zorb-format.yaml"))


def _card(line: int, count: int, name: str, *, section: str = "main", set_code: str = "zz1", number: str = "1", **data) -> DeckCard:
    card = {"name": {"en": name}, "number": number, **data}
    return DeckCard(line, count, f"{set_code}-{number}", set_code, section, name, name.lower(), card)


def _deck(cards: list[DeckCard], *rules: RuleSpec, extra: list[tuple[Entry, str]] = (), section_lines=None, problems=()) -> Deck:
    entries = [(Entry(c.line, c.count, c.name), c.section) for c in cards] + list(extra)
    return Deck(
        PATH,
        _format(*rules),
        cards=cards,
        problems=list(problems),
        section_lines=dict(section_lines or {}),
        entries=[e for e, _s in entries],
        _entry_sections=[s for _e, s in entries],
    )


# -- matches and condition text -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "condition", "expected"),
    [
        ({"stage": "Basic"}, {}, True),  # no condition: every card
        ({"stage": "Basic"}, {"stage": "Basic"}, True),
        ({"stage": "Basic"}, {"stage": "Stage 1"}, False),
        ({"stage": "Basic"}, {"stage": ["Stage 1", "Basic"]}, True),  # a list: any of them
        ({"types": ["Fire", "Water"]}, {"types": "Water"}, True),  # a card list: one item
        ({"types": ["Fire", "Water"]}, {"types": ["Grass", "Fire"]}, True),
        ({"types": ["Fire", "Water"]}, {"types": "Grass"}, False),
        ({"types": ["Fire"]}, {"types": ["Water"]}, False),  # lists on both sides, no item in common
        ({"stage": "Basic"}, {"stage": "Basic", "hp": 40}, False),  # every field must match
        ({"stage": "Basic", "hp": 40}, {"stage": "Basic", "hp": 40}, True),
        ({}, {"stage": "Basic"}, False),  # a missing field matches nothing
        ({}, {"stage": None}, True),
    ],
)
def test_matches(card, condition, expected):
    """Every field of the condition must match; lists on either side match by any item."""
    assert matches(card, condition) is expected


def test_condition_text():
    """Fields joined by commas, list values by ``or``."""
    assert _condition_text({"supertype": "Energy", "subtype": ["Basic", "Special"]}) == "supertype Energy, subtype Basic or Special"
    assert _condition_text({}) == ""


# -- where a problem is reported ------------------------------------------------------------------


def test_section_line_prefers_the_header():
    """The section's header line, else its first card line, else the first line of the list, else 1."""
    cards = [_card(5, 1, "Zorb A"), _card(3, 1, "Zorb B"), _card(9, 1, "Zorb C", section="side")]
    deck = _deck(cards, section_lines={"side": 7})
    assert _section_line(deck, "side") == 7
    assert _section_line(deck, "main") == 3  # the lowest card line, not the first in the list
    assert _section_line(deck, None) == 3  # every section
    extra = [(Entry(4, 1, "Unknown Zorb"), "main")]
    assert _section_line(_deck([], extra=extra), "main") == 4
    assert _section_line(_deck([], extra=[(Entry(6, 1, "Q"), "main"), (Entry(2, 1, "R"), "main")]), "side") == 2
    assert _section_line(_deck([]), "main") == 1
    # the list starts with another section: a section's own first card line, not the list's first line
    mixed = _deck([_card(2, 1, "Zorb Side", section="side"), _card(6, 1, "Zorb A"), _card(4, 1, "Zorb B")])
    assert _section_line(mixed, "main") == 4
    assert _section_line(mixed, "side") == 2
    assert _section_line(mixed, None) == 2


def test_first_over_is_the_card_passing_the_limit():
    """The running count first passes the limit at the second card (2 + 2 > 3); exactly the limit
    does not pass it; when the total stays within, the last card."""
    cards = [_card(1, 2, "Zorb"), _card(2, 2, "Zorb"), _card(3, 2, "Zorb")]
    assert _first_over(cards, 3).line == 2
    assert _first_over(cards, 4).line == 3  # 4 is not over 4: the third card passes it
    assert _first_over(cards, 1).line == 1
    assert _first_over(cards, 6).line == 3  # never over: the last card


# -- deck-size / section-size --------------------------------------------------------------------


def test_size_exact_is_legal():
    """Exactly the size: no problem, counting unmatched lines too."""
    cards = [_card(2, 3, "Zorb")]
    deck = _deck(cards, extra=[(Entry(4, 2, "Unknown Zorb"), "main")])
    assert list(check_size(deck, {"size": 5})) == []


def test_size_one_short_and_one_over():
    """One short and one over are both reported at the first card line, plural and singular."""
    deck = _deck([_card(2, 3, "Zorb"), _card(3, 1, "Fen")])
    assert list(check_size(deck, {"size": 5})) == [(2, "the deck holds 4 cards; exactly 5 needed")]
    assert list(check_size(deck, {"size": 3})) == [(2, "the deck holds 4 cards; exactly 3 needed")]
    one = _deck([_card(6, 1, "Zorb")])
    assert list(check_size(one, {"size": 2})) == [(6, "the deck holds 1 card; exactly 2 needed")]
    none = _deck([])
    assert list(check_size(none, {"size": 1})) == [(1, "the deck holds 0 cards; exactly 1 needed")]


def test_size_of_another_section_names_its_title():
    """A section other than main is named by its title and reported at its header."""
    deck = _deck([_card(2, 1, "Zorb"), _card(9, 2, "Fen", section="side")], section_lines={"side": 8})
    assert list(check_size(deck, {"section": "side", "size": 1})) == [(8, "the Reserve section holds 2 cards; exactly 1 needed")]
    # a section without cards or header: the list's first line
    assert list(check_size(deck, {"section": "extra", "size": 1})) == [(2, "the extra section holds 0 cards; exactly 1 needed")]


# -- copy-limit ----------------------------------------------------------------------------------


def test_copies_exactly_the_limit_is_legal():
    """Four copies on two lines with a limit of four: legal."""
    deck = _deck([_card(1, 2, "Zorb"), _card(2, 2, "Zorb")])
    assert list(check_copies(deck, {"same": "name", "max": 4})) == []


def test_copies_one_over_is_reported_where_it_passes():
    """Five copies on two lines: reported at the line where the count passes four, naming both."""
    deck = _deck([_card(1, 3, "Zorb"), _card(4, 1, "Fen"), _card(5, 2, "Zorb")])
    assert list(check_copies(deck, {"same": "name", "max": 4})) == [(5, '5 copies of "Zorb" (limit 4; lines 1, 5)')]


def test_copies_on_one_line_name_no_lines():
    """Over the limit on a single line: no line list."""
    deck = _deck([_card(3, 5, "Zorb")])
    assert list(check_copies(deck, {"same": "name", "max": 4})) == [(3, '5 copies of "Zorb" (limit 4)')]


def test_copies_by_number_name_the_card_id():
    """``same: number``: grouped by card id, the id in the message; the same name in two sets is two cards."""
    deck = _deck([_card(1, 3, "Zorb", number="7"), _card(2, 2, "Zorb", number="7"), _card(3, 4, "Zorb", number="8")])
    assert list(check_copies(deck, {"same": "number", "max": 4})) == [(2, '5 copies of "Zorb" (zz1-7) (limit 4; lines 1, 2)')]
    assert list(check_copies(deck, {"same": "name", "max": 4})) == [(2, '9 copies of "Zorb" (limit 4; lines 1, 2, 3)')]


def test_copies_exempt_and_sections():
    """Exempt cards have no limit; ``sections`` counts only those sections."""
    deck = _deck(
        [
            _card(1, 9, "Zorb Energy", supertype="Energy", subtype="Basic"),
            _card(2, 3, "Fen"),
            _card(3, 2, "Fen", section="side"),
        ]
    )
    exempt = [{"supertype": "Energy", "subtype": "Basic"}]
    assert list(check_copies(deck, {"same": "name", "max": 4, "exempt": exempt})) == [(3, '5 copies of "Fen" (limit 4; lines 2, 3)')]
    assert list(check_copies(deck, {"same": "name", "max": 4, "exempt": exempt, "sections": ["main"]})) == []
    assert list(check_copies(deck, {"same": "name", "max": 4, "sections": ["main"]})) == [(1, '9 copies of "Zorb Energy" (limit 4)')]


# -- require -------------------------------------------------------------------------------------


def test_require_exactly_the_minimum_is_legal():
    """Two matching cards with a minimum of two: legal."""
    deck = _deck([_card(1, 1, "Zorb", stage="Basic"), _card(2, 1, "Fen", stage="Basic")])
    assert list(check_require(deck, {"where": {"stage": "Basic"}, "min": 2, "label": "Basic Pokémon"})) == []


def test_require_none_and_one_short():
    """None: "no ..."; one short: "only N ..."; at the section's first line."""
    deck = _deck([_card(4, 1, "Zorb", stage="Basic"), _card(3, 2, "Fen", stage="Stage 1")])
    params = {"where": {"stage": "Basic"}, "min": 2, "label": "Basic Pokémon"}
    assert list(check_require(deck, params)) == [(3, "the deck holds only 1 Basic Pokémon; at least 2 needed")]
    params = {"where": {"stage": "Stage 2"}, "min": 1, "label": "Stage 2 Pokémon"}
    assert list(check_require(deck, params)) == [(3, "the deck holds no Stage 2 Pokémon; at least 1 needed")]


def test_require_counts_copies_in_its_section_only():
    """Copies count; cards of another section do not."""
    deck = _deck([_card(1, 2, "Zorb", stage="Basic"), _card(5, 3, "Fen", stage="Basic", section="side")])
    params = {"where": {"stage": "Basic"}, "min": 3, "label": "Basic Pokémon"}
    assert list(check_require(deck, params)) == [(1, "the deck holds only 2 Basic Pokémon; at least 3 needed")]
    assert list(check_require(deck, {**params, "section": "side"})) == []


def test_require_in_another_section_names_it():
    """A section other than main is named by its title, at its header line."""
    deck = _deck([_card(1, 2, "Zorb", stage="Basic"), _card(5, 1, "Fen", stage="Basic", section="side")], section_lines={"side": 4})
    params = {"where": {"stage": "Basic"}, "min": 2, "label": "Basic Pokémon", "section": "side"}
    assert list(check_require(deck, params)) == [(4, "the Reserve section holds only 1 Basic Pokémon; at least 2 needed")]


# -- allowed-sets, banned, number-range ----------------------------------------------------------


def test_sets_message_per_line():
    """Each line of another set, with the format's name and its sets."""
    deck = _deck([_card(1, 1, "Zorb", set_code="zz1"), _card(2, 1, "Fen", set_code="zz9", number="4"), _card(3, 1, "Quux", set_code="zz2")])
    assert list(check_sets(deck, {"sets": ["zz1", "zz2"]})) == [(2, '"Fen" (zz9-4) is from set zz9; zorb-format allows only zz1, zz2')]


def test_banned_with_and_without_why():
    """Each line holding a banned card; the reason when the format gives one."""
    deck = _deck([_card(1, 1, "Zorb", number="1"), _card(2, 1, "Fen", number="2"), _card(3, 1, "Zorb", number="1")])
    assert list(check_banned(deck, {"cards": ["zz1-1"]})) == [
        (1, '"Zorb" (zz1-1) is banned in zorb-format'),
        (3, '"Zorb" (zz1-1) is banned in zorb-format'),
    ]
    assert list(check_banned(deck, {"cards": ["zz1-2"], "why": "too strong"})) == [
        (2, '"Fen" (zz1-2) is banned in zorb-format (too strong)')
    ]
    assert list(check_banned(deck, {"cards": ["zz1-2"], "why": ""})) == [(2, '"Fen" (zz1-2) is banned in zorb-format')]


def test_number_range_edges():
    """Numbers 1 and 9 are in a 1-9 range; 0 and 10 are not; letters around digits are ignored;
    a number without digits is out; other sets are not concerned."""
    cards = [
        _card(1, 1, "Zorb", set_code="zzp", number="1"),
        _card(2, 1, "Fen", set_code="zzp", number="9"),
        _card(3, 1, "Quux", set_code="zzp", number="10"),
        _card(4, 1, "Blip", set_code="zzp", number="0"),
        _card(5, 1, "Blop", set_code="zzp", number="7a"),
        _card(6, 1, "Blup", set_code="zzp", number="SV"),
        _card(7, 1, "Other", set_code="zz1", number="99"),
    ]
    deck = _deck(cards)
    assert list(check_number_range(deck, {"set": "zzp", "min": 1, "max": 9})) == [
        (3, '"Quux" (zzp-10) is zzp number 10; zorb-format allows only zzp 1 to 9'),
        (4, '"Blip" (zzp-0) is zzp number 0; zorb-format allows only zzp 1 to 9'),
        (6, '"Blup" (zzp-SV) is zzp number SV; zorb-format allows only zzp 1 to 9'),
    ]


# -- section-cards and max-cards -----------------------------------------------------------------


def test_section_cards_deny_in_main():
    """``deny`` in main: the card's kind, the label (or the condition) and "the main deck"."""
    deck = _deck([_card(1, 1, "Zorb", type="commander"), _card(2, 1, "Fen", type="unit")])
    params = {"section": "main", "deny": {"type": ["commander", "favor"]}, "label": "commanders or favors"}
    assert list(check_section_cards(deck, params)) == [
        (1, '"Zorb" (commander) is in the deck; commanders or favors may not be in the deck')
    ]
    del params["label"]
    assert list(check_section_cards(deck, params)) == [
        (1, '"Zorb" (commander) is in the deck; type commander or favor may not be in the deck')
    ]


def test_section_cards_kind_names_every_field_of_the_condition():
    """The card's kind lists its value of each field of the condition, comma-separated."""
    deck = _deck([_card(3, 1, "Zorb", type="commander", element="fire")])
    params = {"section": "main", "deny": {"type": "commander", "element": "fire"}}
    assert list(check_section_cards(deck, params)) == [
        (3, '"Zorb" (commander, fire) is in the deck; type commander, element fire may not be in the deck')
    ]


def test_section_cards_allow_in_another_section():
    """``allow`` elsewhere: the section's title in both places."""
    deck = _deck([_card(5, 1, "Zorb", section="side", type="commander"), _card(6, 1, "Fen", section="side", type="unit")])
    params = {"section": "side", "allow": {"type": "commander"}}
    assert list(check_section_cards(deck, params)) == [(6, '"Fen" (unit) is in the Reserve section, which holds only type commander')]
    params = {"section": "side", "allow": {"type": "commander"}, "label": "a commander"}
    assert list(check_section_cards(deck, params)) == [(6, '"Fen" (unit) is in the Reserve section, which holds only a commander')]
    params = {"section": "side", "deny": {"type": "unit"}}
    assert list(check_section_cards(deck, params)) == [
        (6, '"Fen" (unit) is in the Reserve section; type unit may not be in the Reserve section')
    ]


def test_max_cards_exact_and_one_over():
    """15 Trainers with a cap of 15: legal; 16: reported where the count passes 15, naming every line."""
    trainers = [
        _card(1, 10, "Zorb Ball", supertype="Trainer"),
        _card(2, 5, "Fen Potion", supertype="Trainer"),
        _card(3, 20, "Quux", supertype="Pokémon"),
    ]
    params = {"where": {"supertype": "Trainer"}, "max": 15, "label": "Trainer cards"}
    assert list(check_max_cards(_deck(trainers), params)) == []
    more = [*trainers, _card(4, 1, "Blip Rod", supertype="Trainer")]
    assert list(check_max_cards(_deck(more), params)) == [(4, "the deck holds 16 Trainer cards; at most 15 (lines 1, 2, 4)")]
    assert list(check_max_cards(_deck(more), {**params, "max": 9})) == [(1, "the deck holds 16 Trainer cards; at most 9 (lines 1, 2, 4)")]
    assert list(check_max_cards(_deck(more), {**params, "section": "side"})) == []
    # the main deck by default: Trainers in another section do not count
    side = [*trainers, _card(9, 5, "Blip Rod", section="side", supertype="Trainer")]
    assert list(check_max_cards(_deck(side), params)) == []
    assert list(check_max_cards(_deck(side), {**params, "section": "side", "max": 4})) == [
        (9, "the Reserve section holds 5 Trainer cards; at most 4 (line 9)")
    ]


# -- check_deck: order and uniqueness -------------------------------------------------------------


def test_two_problems_at_once_in_line_then_rule_order():
    """A deck one card short and with a banned card over the copy limit: every problem once, by
    line, the list's own problems before the rules at a line, rules in the format's order."""
    rules = (
        RuleSpec("copy-limit", {"same": "name", "max": 4}),
        RuleSpec("deck-size", {"size": 10}),
        RuleSpec("banned", {"cards": ["zz1-1"]}),
    )
    own = Problem(SourcePos(PATH, 2), "count 0 is not 1 to 999", "count")
    deck = _deck([_card(2, 5, "Zorb", number="1"), _card(3, 4, "Fen", number="2")], *rules, problems=[own])
    assert [(p.pos.line, p.rule, p.message) for p in check_deck(deck)] == [
        (2, "count", "count 0 is not 1 to 999"),
        (2, "copy-limit", '5 copies of "Zorb" (limit 4)'),
        (2, "deck-size", "the deck holds 9 cards; exactly 10 needed"),
        (2, "banned", '"Zorb" (zz1-1) is banned in zorb-format'),
    ]


def test_problems_at_one_line_keep_their_order():
    """Two problems of the list at the same line stay in the order found (not sorted by wording)."""
    second = Problem(SourcePos(PATH, 3), "zorb: unknown card", "unknown-card")
    first = Problem(SourcePos(PATH, 3), "another zorb problem", "count")
    deck = _deck([_card(1, 1, "Fen")], problems=[second, first])
    assert check_deck(deck) == [second, first]


def test_the_same_problem_twice_is_reported_once():
    """Two rules giving the same message at the same line under the same id: once."""
    rules = (RuleSpec("banned", {"cards": ["zz1-1"]}), RuleSpec("banned", {"cards": ["zz1-1", "zz1-2"]}))
    deck = _deck([_card(4, 1, "Zorb", number="1"), _card(1, 1, "Fen", number="2")], *rules)
    assert [str(p) for p in check_deck(deck)] == [
        'zorb.txt:1: "Fen" (zz1-2) is banned in zorb-format (banned)',
        'zorb.txt:4: "Zorb" (zz1-1) is banned in zorb-format (banned)',
    ]


def test_legal_deck_has_no_problem():
    """Nothing broken: an empty list."""
    deck = _deck([_card(1, 4, "Zorb")], RuleSpec("deck-size", {"size": 4}), RuleSpec("copy-limit", {"same": "name", "max": 4}))
    assert check_deck(deck) == []


# -- describe and card_legality ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "params", "text"),
    [
        ("deck-size", {"size": 60}, "exactly 60 cards in main"),
        ("section-size", {"size": 1, "section": "side"}, "exactly 1 card in side"),
        ("copy-limit", {"max": 4, "same": "name"}, "at most 4 copies of a card by name"),
        (
            "copy-limit",
            {"max": 1, "same": "number", "sections": ["main", "side"]},
            "at most 1 copies of a card by card number in main, side",
        ),
        (
            "copy-limit",
            {"max": 4, "same": "name", "exempt": [{"subtype": "Basic"}, {"name": ["A", "B"]}]},
            "at most 4 copies of a card by name; no limit for subtype Basic / name A or B",
        ),
        ("require", {"min": 1, "label": "Basic Pokémon", "where": {"stage": "Basic"}}, "at least 1 Basic Pokémon (stage Basic)"),
        ("allowed-sets", {"sets": ["zz1", "zz2"]}, "only cards of the sets zz1, zz2"),
        ("section-cards", {"section": "main", "deny": {"type": "favor"}}, "no type favor in main (type favor)"),
        ("section-cards", {"section": "main", "deny": {"type": "favor"}, "label": "favors"}, "no favors in main (type favor)"),
        ("section-cards", {"section": "side", "allow": {"type": "unit"}}, "only type unit in side (type unit)"),
        ("section-cards", {"section": "side", "allow": {"type": "unit"}, "label": "units"}, "only units in side (type unit)"),
        (
            "max-cards",
            {"max": 15, "label": "Trainers", "where": {"supertype": "Trainer"}},
            "at most 15 Trainers (supertype Trainer) in main",
        ),
        ("max-cards", {"max": 2, "label": "Units", "where": {"type": "unit"}, "section": "side"}, "at most 2 Units (type unit) in side"),
        ("banned", {"cards": ["zz1-1", "zz1-2"]}, "not legal: zz1-1, zz1-2"),
        ("banned", {"cards": ["zz1-1"], "why": "too strong"}, "not legal: zz1-1 (too strong)"),
        ("number-range", {"set": "zzp", "min": 1, "max": 9}, "zzp cards only numbered 1 to 9"),
        ("zorb-rule", {}, "zorb-rule"),
    ],
)
def test_describe(rule, params, text):
    """One line per rule, as ``cardlab formats`` prints it."""
    assert describe(RuleSpec(rule, params)) == text


def test_card_legality():
    """Legal where the set is allowed or no set rule exists; otherwise the sorted sets."""
    open_fmt = _format(name="zorb-open")
    closed = _format(RuleSpec("allowed-sets", {"sets": ["zz2", "zz1"]}), name="zorb-closed")
    assert card_legality("zz1", [open_fmt, closed]) == [(open_fmt, True, ""), (closed, True, "")]
    assert card_legality("zz9", [closed, open_fmt]) == [(closed, False, "only the sets zz1, zz2"), (open_fmt, True, "")]
