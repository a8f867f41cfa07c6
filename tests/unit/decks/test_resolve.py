"""cardlab.decks.resolve value by value (issue 16): the messages of lines that name another card or
an unknown set, word for word, and ``58/102`` lines over two sets of one printed total (Gym Heroes
and Gym Challenge both print 132 cards)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.decks.parse_text import parse_text
from cardlab.decks.resolve import CardIndex, printing_named

P = Path("deck.txt")


@pytest.fixture(scope="module")
def index(catalog):
    return CardIndex(catalog, "pokemon")


def _resolve(index, text, allowed_sets=None):
    deck = parse_text(text, P)
    assert len(deck.entries) == 1, (text, deck.problems)
    return index.resolve(deck.entries[0], allowed_sets)


def test_unknown_set_lists_the_codes_a_to_z_whatever_the_case(index):
    """No close set code: every code and alias of the game, A-Z without regard to case."""
    assert _resolve(index, "1 Charizard XYZ 4") == (
        None,
        'unknown set code "XYZ" in "Charizard XYZ 4" (known: B2, base, base1, base2, base3, base4, base5, basep, BS, BS2, FO, '
        "fossil, G1, G2, gym1, gym2, JU, jungle, PR, promo, reprint, RO, rocket, RPT, test1, TR, TST, WBSP)",
        "unknown-card",
    )


@pytest.mark.parametrize(
    ("line", "allowed", "answer"),
    [
        # one card of that number in a set of 102: its name must agree
        ("4 Raichu 58/102", None, (None, '58/102 is "Pikachu", not "Raichu"', "unknown-card")),
        ("4 Pikachu 58/102", None, ("base1-58", None, "")),
        # Blaine's Growlithe is number 62 of both Gym sets (132 cards each)
        (
            "4 Blaine's Growlithe 62/132",
            None,
            (None, '"Blaine\'s Growlithe 62/132" matches 2 cards: gym1-62, gym2-62; add the set code', "ambiguous-card"),
        ),
        ("4 Blaine's Growlithe 62/132", {"gym1"}, ("gym1-62", None, "")),
        ("4 Blaine's Growlithe 62/132", {"gym2"}, ("gym2-62", None, "")),
        (
            "4 Blaine's Growlithe 62/132",
            {"gym1", "gym2"},
            (None, '"Blaine\'s Growlithe 62/132" matches 2 cards: gym1-62, gym2-62; add the set code', "ambiguous-card"),
        ),
        # neither Gym set allowed: both stay candidates
        (
            "4 Blaine's Growlithe 62/132",
            {"base1"},
            (None, '"Blaine\'s Growlithe 62/132" matches 2 cards: gym1-62, gym2-62; add the set code', "ambiguous-card"),
        ),
        # the name agrees with one of the two: that one, allowed or not (before the fix of issue 16,
        # a format of Gym Heroes only answered '1/132 is "Blaine's Moltres", not "Blaine's Arcanine"')
        ("4 Blaine's Arcanine 1/132", None, ("gym2-1", None, "")),
        ("4 Blaine's Arcanine 1/132", {"gym1"}, ("gym2-1", None, "")),
        # agrees with neither: the first set's card is named
        ("4 Pikachu 1/132", None, (None, '1/132 is "Blaine\'s Moltres", not "Pikachu"', "unknown-card")),
        ("4 Pikachu 1/132", {"gym2"}, (None, '1/132 is "Blaine\'s Arcanine", not "Pikachu"', "unknown-card")),
        ("4 Pikachu 999/132", None, (None, 'no card 999/132 in the catalog ("Pikachu 999/132")', "unknown-card")),
    ],
)
def test_number_over_printed_total(index, line, allowed, answer):
    """``name number/total``: the card of that number in the sets of that total, the allowed sets'
    first when several, whose name agrees; else why not, word for word."""
    assert _resolve(index, line, allowed) == answer


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("4 Basic {L} Energy BS 100", ("base1-100", None, "")),
        ("4 {L} Energy BS 100", ("base1-100", None, "")),
        # {Z} is no energy symbol: read as the letter z, which Lightning Energy's name lacks
        ("4 Basic {Z} Energy BS 100", (None, 'BS 100 is "Lightning Energy", not "Basic {Z} Energy"', "unknown-card")),
        ("4 {W} Energy BS 100", (None, 'BS 100 is "Lightning Energy", not "{W} Energy"', "unknown-card")),
    ],
)
def test_energy_symbols_in_a_name_with_set_and_number(index, line, answer):
    """A name beside a set and number agrees once its energy symbols are read as their type; an
    unknown symbol is its letter."""
    assert _resolve(index, line) == answer


def test_loose_words():
    """The words a name is loosely compared by: energy symbols read as their type (an unknown one
    is its letter), ``basic`` and empty pieces dropped."""
    from cardlab.decks.resolve import _loose

    assert _loose("basic {l} energy!") == frozenset({"lightning", "energy"})
    assert _loose("{z} basic") == frozenset({"z"})
    assert _loose("here comes team rocket!") == frozenset({"here", "comes", "team", "rocket"})


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("4 Pikachu BS 058", ("base1-58", None, "")),  # zeros before a number
        ("4 Here Comes Team Rocket TR 71", ("base5-71", None, "")),  # the name's "!" left out
        ("4 base1-999", (None, 'unknown card "base1-999"', "unknown-card")),  # an id of no card: a name
    ],
)
def test_lines_with_set_and_number(index, line, answer):
    """A set and number written with leading zeros, a name without its punctuation, an id of no card."""
    assert _resolve(index, line) == answer


def _fake_index(cards: dict[str, dict], names: dict[str, set[str]], sets: dict[str, str] | None = None):
    """A :class:`CardIndex` over a made-up catalog: ``cards`` by id (set ``zz1`` unless ``sets`` says),
    ``names`` folded name -> ids."""
    from types import SimpleNamespace

    card_set = {i: (sets or {}).get(i, "zz1") for i in cards}
    catalog = SimpleNamespace(
        cards=cards,
        card_set=card_set,
        name_maps=lambda game: (names, {}, {}),
        set_of=lambda card_id: SimpleNamespace(source_language="en"),
        find_set=lambda code: SimpleNamespace(code=code, game="pokemon") if code in set(card_set.values()) else None,
    )
    return CardIndex(catalog, "pokemon")  # type: ignore[arg-type]


def test_by_number_strips_zeros_only():
    """``058`` is 58, ``000`` is 0; a number that does not start with a digit is kept whole."""
    index = _fake_index({"zz1-0": {}, "zz1-5": {}, "zz1-58": {}}, {})
    assert [index._by_number("zz1", n) for n in ("058", "000", "0", "X5", " 5")] == ["zz1-58", "zz1-0", "zz1-0", None, None]


def test_agrees_ignores_the_source_hashes_of_a_name():
    """A name map that records the source hashes of imported translations (``_source``) is compared
    by its names only."""
    index = _fake_index({"zz1-1": {"name": {"en": "Zorb", "fr": "Zorbe", "_source": {"fr": "0123abcd"}}}}, {})
    assert (index._agrees("zz1-1", "ZORBE"), index._agrees("zz1-1", "Zorbette")) == (True, False)


def test_suggestions_put_the_card_game_type_first_and_look_past_the_first_three():
    """ "Electric Energy" suggests Lightning Energy first (the card game's name for the type), even
    when closer names exist; the names with a card in the allowed sets are found among every close
    name, not only the three closest."""
    names = {
        "electric energi": {"zz1-1"},
        "electric energy drink": {"zz1-2"},
        "electric energies": {"zz1-3"},
        "electric energ": {"zz1-4"},
        "lightning energy": {"zz2-5"},
    }
    cards = {
        "zz1-1": {"name": {"en": "Electric Energi"}},
        "zz1-2": {"name": {"en": "Electric Energy Drink"}},
        "zz1-3": {"name": {"en": "Electric Energies"}},
        "zz1-4": {"name": {"en": "Electric Energ"}},
        "zz2-5": {"name": {"en": "Lightning Energy"}},
    }
    index = _fake_index(cards, names, sets={"zz2-5": "zz2", "zz1-2": "zz3"})
    assert index.suggestions("Electric Energy") == ["Lightning Energy", "Electric Energ", "Electric Energy Drink"]
    # the fourth closest name is the only one of set zz3
    assert index.suggestions("Electric Energie") == ["Electric Energies", "Electric Energi", "Electric Energ"]
    assert index.suggestions("Electric Energie", allowed_sets={"zz3"}) == ["Electric Energy Drink"]


def test_allowed_by_set_and_number_range():
    """A card is allowed when its set is (if sets are given) and the digits of its number are in its
    set's range (if the set has one); a number without digits, or no number, is out of range."""
    cards = {"zz1-5a": {"number": "5a"}, "zz1-9": {"number": "9"}, "zz1-x": {"number": "X"}, "zz1-n": {}, "zz2-7": {"number": "7"}}
    index = _fake_index(cards, {}, sets={"zz2-7": "zz2"})
    ranges = {"zz1": (1, 6)}
    assert [index._allowed(i, None, ranges) for i in cards] == [True, False, False, False, True]
    assert [index._allowed(i, {"zz1"}, None) for i in cards] == [True, True, True, True, False]
    assert [index._allowed(i, {"zz1"}, {"zz1": (9, 9)}) for i in cards] == [False, True, False, False, False]


def test_ids_of_by_name_then_symbols_then_compact():
    """A name is looked up folded, then with its energy symbols read (an unknown symbol is its
    letter) and ``basic`` dropped, then typed without spaces or punctuation; a name with no letter
    or digit finds no card, not the cards named by punctuation alone."""
    from types import SimpleNamespace

    names = {"zorb fen": {"zz1-1"}, "z zorb": {"zz1-2"}, "lightning zorb": {"zz1-3"}, "basic lightning zorbo": {"zz1-5"}}
    catalog = SimpleNamespace(name_maps=lambda game: (names, {"zorbfan": {"zz1-4"}, "": {"zz1-9"}}, {}))
    index = CardIndex(catalog, "pokemon")  # type: ignore[arg-type]
    names_asked = ("Zorb Fen", "{Z} Zorb", "Basic {L} Zorb", "Basic {L} Zorbo", "Zorb-Fan", "Zorb Fan", "!!", "Zorbx")
    assert [index.ids_of(n) for n in names_asked] == [{"zz1-1"}, {"zz1-2"}, {"zz1-3"}, {"zz1-5"}, {"zz1-4"}, {"zz1-4"}, set(), set()]


def test_same_name_is_the_printed_name_in_the_source_language():
    """The name "same name" rules compare: the set's source language (the printed name), whatever
    translations the card has (not English, nor the first language the map happens to list), folded;
    English only for a card with no name in its source language."""
    from types import SimpleNamespace

    cards = {
        "zz1-1": {"name": {"fr": "Zorbe", "ja": "ゾルブ"}},
        "zz1-2": {"name": {"fr": "Zorbe", "ja": "ゾルブ", "en": "Zorb"}},
        "zz1-3": {"name": {"fr": "Zorbe", "en": "Zorb"}},
    }
    catalog = SimpleNamespace(
        cards=cards, name_maps=lambda game: ({}, {}, {}), set_of=lambda card_id: SimpleNamespace(source_language="ja")
    )
    index = CardIndex(catalog, "pokemon", ["fr"])  # type: ignore[arg-type]
    assert [index.same_name(i) for i in ("zz1-1", "zz1-2", "zz1-1", "zz1-3")] == ["ゾルブ", "ゾルブ", "ゾルブ", "zorb"]
    assert [index.display_name(i) for i in ("zz1-1", "zz1-2")] == ["Zorbe", "Zorbe"]


def test_lines_under_a_total_header_before_any_section_are_main_deck_cards(catalog, formats):
    """``Total Cards: 4`` before any section header: its lines are main-deck cards, counted."""
    from cardlab.decks.resolve import build_deck

    deck = build_deck(parse_text("Total Cards: 4\n4 Pikachu BS 58\n", P), catalog, formats["pokemon-base"])
    assert (deck.size("main"), [(c.card_id, c.section) for c in deck.cards], deck.problems) == (4, [("base1-58", "main")], [])


def test_sideboard_after_a_section_counts_its_own_lines(catalog, formats):
    """A ``Sideboard:`` header after a section: its problem counts the lines under it, not the others."""
    from cardlab.decks.resolve import build_deck

    text = "Pokemon: 4\n4 Pikachu BS 58\nSideboard:\n2 Bill\n1 Potion\n"
    deck = build_deck(parse_text(text, P), catalog, formats["pokemon-base"])
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [
        (3, "unknown-section", "sideboards are not part of pokemon-base; remove these lines (3 cards on lines 4, 5, not counted)")
    ]


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("Charizard 4/102", "base1-4"),
        ("  Charizard BS 4 ", "base1-4"),
        ("Charizard base4-4", "base4-4"),
        ("Charizard", None),  # a name alone names every printing: no one printing
        ("Bill BS 4", None),  # BS 4 is Charizard
        ("Nothingmon 4/102", None),
    ],
)
def test_printing_named_is_the_deck_lines_printing(catalog, text, answer):
    assert printing_named(catalog, text) == answer


def test_suggestions_are_names_in_the_readers_languages(catalog):
    """ "Bil" is close to the German "Snobilikat" (Persian) by a partial match: a reader of English
    is offered English names (and community names, as written), another language's names only when
    no name of theirs is close."""
    english = CardIndex(catalog, "pokemon")
    assert english.suggestions("Bil") == ["Bill", "Birthday Pikachu", "Blaine"]
    assert english.suggestions("Bisaflr") == ["Venusaur"]  # only a German name is close: the card, in English
    assert CardIndex(catalog, "pokemon", ["de"]).suggestions("Bisaflr") == ["Bisaflor"]


@pytest.mark.parametrize("line", ["4 Prof. Oak", "4 prof oak", "4 PROF. OAK", "4 Prof. Oak BS 88"])
def test_prof_is_professor(index, line):
    """Deck lists write Professor Oak "Prof. Oak": the abbreviation is written out, the card found
    outright (it suggested "Impostor Professor Oak" first)."""
    assert _resolve(index, line) == ("base1-88", None, "")


def test_an_abbreviation_is_written_out_for_suggestions_too(index):
    assert index.suggestions("Prof. Oka")[0] == "Professor Oak"
    message = _resolve(index, "1 Prof. Oka")[1]
    assert message == 'unknown card "Prof. Oka"; did you mean "Professor Oak", "Imposter Professor Oak", "Impostor Professor Oak"?'
    assert index.ids_of("Profit Oak") == set()  # only the whole word is an abbreviation
