"""cardlab.decks.check: parsing deck lists (every dialect and trap) and matching names to cards."""

from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.core.errors import InputError, UsageError
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import load_deck
from cardlab.decks.lines import split_count
from cardlab.decks.model import MAX_DECK_BYTES, Entry
from cardlab.decks.parse_text import parse_text
from cardlab.decks.read import read_deck
from cardlab.decks.resolve import CardIndex, build_deck
from cardlab.decks.rules import check_deck

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog", DECKS / "catalog"]
BASE_ROOTS = [shipped_catalog() / "pokemon" / "base1", *ROOTS[1:]]
"""The shipped Base Set only (no other Pikachu or Magnemite), with the fixture catalogs."""


@pytest.fixture(scope="module")
def base_catalog():
    return validate(BASE_ROOTS, cache_path=None).catalog


@pytest.fixture(scope="module")
def index(catalog):
    return CardIndex(catalog, "pokemon")


@pytest.fixture(scope="module")
def base_index(base_catalog):
    return CardIndex(base_catalog, "pokemon")


def deck_of(text: str, catalog, formats, fmt: str = "pokemon-base", path: Path = Path("deck.txt")):
    words = set().union(*(f.header_words() for f in formats.values()))
    return build_deck(parse_text(text, path, words), catalog, formats[fmt])


# --- counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("4 Pikachu", (4, "Pikachu")),
        ("4x Pikachu", (4, "Pikachu")),
        ("4X Pikachu", (4, "Pikachu")),
        ("4 x Bill", (4, "Bill")),
        ("x4 Bill", (4, "Bill")),
        ("Pikachu x4", (4, "Pikachu")),
        ("Bill ×4", (4, "Bill")),
        ("Bill×4", (4, "Bill")),
        ("4 Pikachu BS 58", (4, "Pikachu BS 58")),
        ("4 base1-58", (4, "base1-58")),
        ("4 Xatu", (4, "Xatu")),
        ("1 Energy Removal", (1, "Energy Removal")),
        ("-1 Bill", (-1, "Bill")),
        ("Pikachu", None),
    ],
)
def test_split_count(line, expected):
    assert split_count(line) == expected


# --- headers, comments, traps ----------------------------------------------------------------


def test_headers_are_not_cards_and_cards_are_not_headers():
    text = "##Pokémon - 4\n4 Pikachu\nTrainer: 3\n1 Energy Removal\n2 Energy Retrieval\nEnergy:\n56 Lightning Energy\nTotal Cards: 63\n"
    deck = parse_text(text, Path("d.txt"), {"pokemon", "trainer", "energy"})
    assert [(e.line, e.count, e.text) for e in deck.entries] == [
        (2, 4, "Pikachu"),
        (4, 1, "Energy Removal"),
        (5, 2, "Energy Retrieval"),
        (7, 56, "Lightning Energy"),
    ]
    assert [(h.line, h.word, h.total, h.is_total) for h in deck.headers] == [
        (1, "pokemon", 4, False),
        (3, "trainer", 3, False),
        (6, "energy", None, False),
        (8, "total cards", 63, True),
    ]
    assert deck.problems == []


def test_no_headers_loses_no_line():
    text = "4 Pikachu\n\n3 Magnemite\n// a comment\n# another\n53 Lightning Energy\n"
    deck = parse_text(text, Path("d.txt"))
    assert sum(e.count for e in deck.entries) == 60
    assert [e.line for e in deck.entries] == [1, 3, 6]


def test_crlf_bom_tabs_trailing_spaces():
    text = "\ufeffFormat: pokemon-base\r\n4\tPikachu   \r\n\t3 x Magnemite\t\r\n"
    deck = parse_text(text, Path("d.txt"))
    assert deck.format == "pokemon-base"
    assert [(e.line, e.count, e.text) for e in deck.entries] == [(2, 4, "Pikachu"), (3, 3, "Magnemite")]


def test_inline_comments_and_meta():
    deck = parse_text("Name: Zap!\n1 Defender # one is enough\n2 Switch // two\n", Path("d.txt"))
    assert deck.name == "Zap!"
    assert [e.text for e in deck.entries] == ["Defender", "Switch"]


def test_dialects_file_reads_as_the_zap_deck(tmp_path, catalog, formats):
    raw = (DECKS / "pokemon" / "dialects.txt").read_text(encoding="utf-8")
    path = tmp_path / "dialects.txt"
    path.write_bytes(b"\xef\xbb\xbf" + raw.replace("\n", "\r\n").encode("utf-8"))
    deck = load_deck(path, catalog, formats, "pokemon-base")
    assert check_deck(deck) == []
    assert deck.size() == 60
    ids = {c.card_id for c in deck.cards}
    assert {"base1-58", "base1-10", "base1-94", "base1-101"} <= ids


# --- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card_id"),
    [
        ("Farfetch'd", "base1-27"),
        ("Farfetch’d", "base1-27"),
        ("FARFETCH'D", "base1-27"),
        ("Pokemon Center", "base1-85"),
        ("Pokémon Center", "base1-85"),
        ("pokémon center", "base1-85"),
        ("Dracaufeu", "base1-4"),
        ("Glurak", "base1-4"),
        ("Énergie Psy", "base1-101"),
        ("Energie Psy", "base1-101"),
        ("Nidoran♂", "base1-55"),
        ("Nidoran ♂", "base1-55"),
        ("Nidoran M", "base1-55"),
        ("nidoran m", "base1-55"),
        ("Pikachu BS 58", "base1-58"),
        ("Pikachu base1 58", "base1-58"),
        ("Pikachu (BS 58)", "base1-58"),
        ("base1-58", "base1-58"),
        ("Léo", "base1-91"),
    ],
)
def test_names_match(index, text, card_id):
    assert index.resolve(Entry(1, 1, text), {"base1"}) == (card_id, None, "")


def test_nidoran_female_is_another_card(index):
    # Nidoran♀ is Jungle's (base2-57, reprinted as base4-82), never Base Set's Nidoran♂ (base1-55)
    assert index.resolve(Entry(1, 1, "Nidoran♀"), {"base1"}) == ("base2-57", None, "")
    assert index.resolve(Entry(1, 1, "Nidoran♀"), {"base4"}) == ("base4-82", None, "")


def test_nidoran_female_is_unknown_in_a_base_set_only_catalog():
    base_only = validate([shipped_catalog() / "pokemon" / "base1"], cache_path=None).catalog
    card_id, message, rule = CardIndex(base_only, "pokemon").resolve(Entry(1, 1, "Nidoran♀"), {"base1"})
    assert card_id is None and rule == "unknown-card"
    assert message.startswith('unknown card "Nidoran♀"')


def test_unknown_name_gets_suggestions(index):
    card_id, message, rule = index.resolve(Entry(1, 1, "Pikachoo"), None)
    assert (card_id, rule) == (None, "unknown-card")
    assert message == 'unknown card "Pikachoo"; did you mean "Pikachu", "Surfing Pikachu", "_____\'s Pikachu"?'
    # the format's sets first: only the Base Set's Pikachu under pokemon-base
    _, message, _ = index.resolve(Entry(1, 1, "Pikachoo"), {"base1"})
    assert message == 'unknown card "Pikachoo"; did you mean "Pikachu"?'
    _, message, _ = index.resolve(Entry(1, 1, "Charizrd"), None)
    assert '"Charizard"' in message


def test_card_of_another_game(index):
    _, message, rule = index.resolve(Entry(1, 1, "Test Jab"), None)
    assert (message, rule) == ('"Test Jab" is a ippo card, not a pokemon card', "unknown-card")


def test_ambiguous_name_lists_choices(base_index):
    index = base_index
    card_id, message, rule = index.resolve(Entry(3, 4, "Pikachu"), None)
    assert (card_id, rule) == (None, "ambiguous-card")
    assert message == (
        '"Pikachu" matches 2 cards: Pikachu base1 58 (base1-58), Pikachu reprint 1 (reprint-1); '
        'add the set and number, e.g. "4 Pikachu base1 58"'
    )
    assert index.resolve(Entry(3, 4, "Pikachu RPT 1"), None)[0] == "reprint-1"
    assert index.resolve(Entry(3, 4, "Pikachu"), {"base1"})[0] == "base1-58"


def test_set_and_number_must_agree_with_the_name(index):
    _, message, rule = index.resolve(Entry(1, 1, "Bill BS 58"), None)
    assert (message, rule) == ('BS 58 is "Pikachu", not "Bill"', "unknown-card")
    _, message, _ = index.resolve(Entry(1, 1, "Pikachu BS 999"), None)
    assert message == 'no card BS 999 in the catalog ("Pikachu BS 999")'


def test_same_name_on_two_lines_counts_once(catalog, formats):
    deck = deck_of("3 Pokémon Breeder\n2 Pokemon Breeder\n4 Pikachu\n51 Fire Energy\n", catalog, formats)
    problems = check_deck(deck)
    assert [(p.pos.line, p.rule, p.message) for p in problems] == [(2, "copy-limit", '5 copies of "Pokémon Breeder" (limit 4; lines 1, 2)')]


def test_basic_energy_is_decided_by_data_not_name(catalog, formats):
    deck = deck_of("4 Pikachu\n5 Double Colorless Energy\n51 Fire Energy\n", catalog, formats)
    assert [(p.pos.line, p.rule, p.message) for p in check_deck(deck)] == [
        (2, "copy-limit", '5 copies of "Double Colorless Energy" (limit 4)')
    ]


def test_yaml_deck(catalog, formats):
    deck = load_deck(DECKS / "pokemon" / "zap.yaml", catalog, formats)
    assert deck.format.name == "pokemon-base" and deck.name == "Zap!"
    assert check_deck(deck) == []
    assert [(c.line, c.card_id) for c in deck.cards[:3]] == [(6, "base1-58"), (7, "base1-53"), (8, "base1-43")]


def test_yaml_deck_sections(catalog, formats):
    deck = load_deck(DECKS / "monpa" / "legal.yaml", catalog, formats)
    assert check_deck(deck) == []
    assert (deck.size("main"), deck.size("commander"), deck.size("favor")) == (40, 1, 1)


def test_yaml_schema_problem_has_position(tmp_path, catalog, formats):
    path = tmp_path / "d.yaml"
    path.write_text("format: pokemon-base\nmain:\n  - 4 Pikachu\n  - {count: four, name: Bill}\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats)
    assert [(p.pos.line, p.rule) for p in deck.problems] == [(4, "schema")]


def test_yaml_unknown_section(tmp_path, catalog, formats):
    path = tmp_path / "d.yaml"
    path.write_text("format: pokemon-base\nmain: [60 Fire Energy]\nsideboard:\n  - 4 Pikachu\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats)
    assert [(p.pos.line, p.rule) for p in deck.problems] == [(4, "unknown-section")]


# --- bad input -------------------------------------------------------------------------------


def test_empty_file_is_refused(tmp_path):
    for text in ("", "\n\n", "# only a comment\n// and another\n"):
        path = tmp_path / "empty.txt"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=r"empty\.txt:1: the file is empty") as err:
            read_deck(path)
        assert err.value.exit_code == 2


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "deck.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(InputError, match="binary file") as err:
        read_deck(path)
    assert err.value.exit_code == 2
    path.write_bytes(b"4 Pikachu\n\x00\x00\x00")
    with pytest.raises(InputError, match=r"deck\.png:2:1: binary file"):
        read_deck(path)


def test_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # 50 MB (sparse)
    with pytest.raises(InputError, match=f"the limit is {MAX_DECK_BYTES:,}") as err:
        read_deck(path)
    assert err.value.exit_code == 2


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="cannot read file"):
        read_deck(tmp_path / "nope.txt")


@pytest.mark.parametrize(
    ("name", "line", "rule", "message"),
    [
        ("no-count.txt", 4, "no-count", 'no count on this line ("Bill"); write it as "1 Bill"'),
        ("count-zero.txt", 4, "count", 'count 0 for "Bill": a count is a whole number from 1 to 999'),
        ("count-negative.txt", 4, "count", 'count -1 for "Bill": a count is a whole number from 1 to 999'),
        ("count-huge.txt", 4, "count", 'count 10000 for "Bill" is too large (at most 999 on one line)'),
        ("section-total.txt", 2, "section-total", '"Pokémon: 12" declares 12 cards but its lines hold 11'),
        ("unknown-card.txt", 3, "unknown-card", 'unknown card "Pikachoo"; did you mean "Pikachu"?'),
        (
            "ambiguous.txt",
            4,
            "ambiguous-card",
            '"Mockmon" matches 2 cards that pokemon-unlimited tells apart (Basic Pokémon: reprint-3 yes, reprint-4 no): '
            'Mockmon reprint 3 (reprint-3), Mockmon reprint 4 (reprint-4); add the set and number, e.g. "4 Mockmon reprint 3"',
        ),
    ],
)
def test_bad_lines(base_catalog, formats, name, line, rule, message):
    deck = load_deck(DECKS / "bad" / name, base_catalog, formats)
    assert [(p.pos.line, p.rule, p.message) for p in check_deck(deck)] == [(line, rule, message)]


def test_no_format_and_unknown_format(catalog, formats):
    with pytest.raises(UsageError, match="no format given; use --format NAME") as err:
        load_deck(DECKS / "bad" / "no-format.txt", catalog, formats)
    assert "pokemon-base" in str(err.value) and err.value.exit_code == 2
    with pytest.raises(
        UsageError, match=r"unknown-format\.txt:1: unknown format 'pokemon-modern' \(formats: forumtcg-list, ippo-10-rounds"
    ):
        load_deck(DECKS / "bad" / "unknown-format.txt", catalog, formats)
    with pytest.raises(UsageError, match="unknown format 'nope'"):
        load_deck(DECKS / "pokemon" / "legal.txt", catalog, formats, "nope")


def test_header_only_list_is_an_empty_deck(catalog, formats):
    deck = deck_of("Format: pokemon-base\nPokémon:\n", catalog, formats)
    assert sorted(p.rule for p in check_deck(deck)) == ["deck-size", "empty", "require"]


def test_section_totals_nest(catalog, formats):
    # "Deck: 40" counts every line down to the next section header (Favor:), across the groups
    # Charm/Servants/Spell; "Total: 42" counts every section.
    deck = load_deck(DECKS / "bad" / "nested-totals.txt", catalog, formats)
    assert [(p.pos.line, p.rule, p.message) for p in check_deck(deck)] == [
        (10, "section-total", '"Servants: 20" declares 20 cards but its lines hold 21')
    ]


def test_yaml_deck_with_no_cards(tmp_path, catalog, formats):
    # issue 3 (hostile report, 6): an empty deck cannot be checked, in YAML as in text (exit 2)
    path = tmp_path / "d.yaml"
    path.write_text("format: pokemon-base\nmain: []\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"d\.yaml:1: the deck list holds no cards") as err:
        load_deck(path, catalog, formats)
    assert err.value.exit_code == 2


def test_survey_suggestions_are_each_formats_own(catalog, formats):
    """Without -f, each format's row suggests what `-f that-format` suggests: names of its own
    cards first (a finding: every row offered Base Set a Gym Challenge "Blaine")."""
    from cardlab.decks.check import check_list

    deck_list = parse_text("4 Pikachu\n2 Bil\n", Path("d.txt"))

    def unknown(format_name: str | None) -> dict[str, list[str]]:
        report = check_list(deck_list, catalog, formats, format_name)
        return {r.format.name: [p.message for p in r.problems if p.rule == "unknown-card"] for r in report.results}

    surveyed = unknown(None)
    assert surveyed["pokemon-base"] == ['unknown card "Bil"; did you mean "Bill", "Blastoise"?']
    for name, messages in surveyed.items():
        assert messages == unknown(name)[name], name
