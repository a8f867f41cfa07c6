"""Issue 10, kind F ("deck lists as people paste them") and kind D on deck lines (one folding):
every dialect line the issue lists, a table of siblings, and a property test over 2,000 generated
lists: no exception, and no dropped line (every line is counted, a header, a comment, or reported)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.decks.check import find_format, load_deck
from cardlab.decks.lines import split_count
from cardlab.decks.model import Entry
from cardlab.decks.parse_text import parse_text
from cardlab.decks.read import read_deck
from cardlab.decks.resolve import CardIndex, build_deck
from cardlab.decks.rules import check_deck

P = Path("deck.txt")


@pytest.fixture(scope="module")
def index(catalog):
    return CardIndex(catalog, "pokemon")


def _one(index, text):
    """Resolve one line as the Base Set format does (its sets preferred when a name has reprints,
    so more sets in the catalog do not change the answer)."""
    deck = parse_text(text, P)
    assert len(deck.entries) == 1, (text, deck.problems)
    return index.resolve(deck.entries[0], {"base1"})


@pytest.mark.parametrize(
    ("line", "card_id"),
    [
        ("4 Pikachu (BS #58)", "base1-58"),
        ("4 Pikachu BS 58", "base1-58"),
        ("4 Pikachu 58/102", "base1-58"),
        ("4 Pikachu BS #58", "base1-58"),
        ("4 Pikachu ＢＳ ５８", "base1-58"),
        ("4 Pikachu bs 58", "base1-58"),
        ("4 Pikachu (BS 58)", "base1-58"),
        ("4 Pikachu #58/102", "base1-58"),
        ("4 {L} Energy", "base1-100"),
        ("4 Basic {L} Energy", "base1-100"),
        ("4 Basic Lightning Energy", "base1-100"),
        ("4 {P} Energy", "base1-101"),
        ("10 Basic {W} Energy", "base1-102"),
        # kind D on deck lines: the one folding
        ("2 farfetchd", "base1-27"),
        ("2 Farfetch’d", "base1-27"),
        ("1 itemfinder", "base1-74"),
        ("1 plus power", "base1-84"),
        ("1 Ｒａｉｃｈｕ", "base1-14"),
        ("1 POKÉMON BREEDER", "base1-76"),
        ("1 pokemon breeder", "base1-76"),
        ("1 Nidoran M", "base1-55"),
        ("1 Nidoran♂", "base1-55"),
        ("4 Raichu  # my favourite", "base1-14"),
        ("4 Raichu BS 14 // one", "base1-14"),
    ],
)
def test_pasted_lines_find_their_card(index, line, card_id):
    """Kind F (deck lists as people paste them) and D (one folding) on deck lines."""
    assert _one(index, line) == (card_id, None, "")


@pytest.mark.parametrize(
    ("line", "never"),
    [("4 Raichu 58/102", "base1-58"), ("4 Pikachu 58/999", "base1-58"), ("4 Nidoran F", "base1-55"), ("4 Nidoran ♀", "base1-55")],
)
def test_lines_that_name_another_card_are_refused(index, line, never):
    """Kind F: a name that disagrees with its number, and ♀ for ♂, never match the other card (they
    are unknown cards, or Nidoran ♀ once a set with her is in the catalog)."""
    card_id, message, rule = _one(index, line)
    assert card_id != never
    if card_id is None:
        assert rule == "unknown-card" and message


def test_sideboard_line_is_like_the_sideboard_header(catalog, formats):
    """Kind F: SB: 2 Gust of Wind is a sideboard line: reported, not counted."""
    deck_list = parse_text("Format: pokemon-base\n4 Pikachu\nSB: 2 Gust of Wind\nsb: x1 Bill\n", P)
    assert [e.line for e in deck_list.entries] == [2, 3, 4]
    deck = build_deck(deck_list, catalog, formats["pokemon-base"])
    assert deck.size("main") == 4
    sideboard = [p for p in deck.problems if p.rule == "unknown-section"]
    assert [p.pos.line for p in sideboard] == [3, 4]


@pytest.mark.parametrize(
    ("text", "name", "fmt"),
    [
        ("Deck: Zap\n4 Pikachu\n", "Zap", None),
        ("Name: Zap\n4 Pikachu\n", "Zap", None),
        ("Deck name: Zap!\n4 Pikachu\n", "Zap!", None),
        ("Format: pokemon-base  # comment\n4 Pikachu\n", None, "pokemon-base"),
        ("Format: pokemon-base // comment\n4 Pikachu\n", None, "pokemon-base"),
        ("Name:\nDeck: 4\n4 Pikachu\n", None, None),
    ],
)
def test_name_and_format_lines(text, name, fmt):
    """Kind F: Deck:/Name: give the deck's name; a Format line may carry a comment."""
    deck = parse_text(text, P)
    assert deck.name == name and deck.format == fmt and not deck.problems
    assert [e.text for e in deck.entries] == ["Pikachu"]


@pytest.mark.parametrize("name", ["pokemon-base", "Pokemon Base", "pokemon_base", "POKÉMON BASE", "pokemon  base"])
def test_format_names_with_spaces_or_underscores(formats, name):
    """Kind F: a format name written with spaces, underscores, capitals or accents."""
    assert find_format(formats, name) is formats["pokemon-base"]


def test_standard_input(monkeypatch):
    """Kind F: '-' reads the deck list from standard input (at most the size limit + 1 byte)."""
    from cardlab.decks.model import MAX_DECK_BYTES

    data = b"Format: pokemon-base\n4 Pikachu\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    deck = read_deck(Path("-"))
    assert deck.format == "pokemon-base" and [e.text for e in deck.entries] == ["Pikachu"]
    assert str(deck.path) == "<stdin>"

    class Endless(io.RawIOBase):
        read_so_far = 0

        def readable(self):
            return True

        def readinto(self, b):
            Endless.read_so_far += len(b)
            b[:] = b"4" * len(b)
            return len(b)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    from cardlab.core.errors import InputError

    with pytest.raises(InputError, match="more than"):
        read_deck(Path("-"))
    assert Endless.read_so_far <= MAX_DECK_BYTES + 2 * io.DEFAULT_BUFFER_SIZE


@pytest.mark.parametrize(
    ("line", "count", "text"),
    [
        ("===4 Bill", 4, "Bill"),
        ("***4 Bill", 4, "Bill"),
        ("===***---4 Bill", 4, "Bill"),
        ("---4 Bill", 4, "Bill"),
        ("___4 Bill", 4, "Bill"),
        ("=== 4 Bill ===", 4, "Bill"),
    ],
)
def test_decorated_card_lines_are_cards(line, count, text):
    """Kind F (no dropped line): a decoration before a card does not hide the card."""
    deck = parse_text(line + "\n", P)
    assert [(e.count, e.text) for e in deck.entries] == [(count, text)]


def test_zap_deck_with_pasted_dialects_is_legal(catalog, formats, tmp_path):
    """Kind F: the Zap! deck written with every new dialect line is still the legal Zap! deck."""
    path = tmp_path / "zap.txt"
    path.write_text(
        "Deck: Zap!\nFormat: Pokemon Base  # Base Set only\n"
        "4 Pikachu (BS #58)\n3 Magnemite 53/102\n3 Abra BS 43\n1 Kadabra\n3 Gastly\n2 Haunter\n2 Drowzee\n"
        "2 Jynx\n1 Mewtwo\n2 Bill\n1 Computer Search\n1 Defender\n2 Gust of Wind\n1 Potion\n"
        "1 Professor Oak\n1 Super Potion\n2 Switch\n12 {L} Energy\n16 Basic {P} Energy\n",
        encoding="utf-8",
    )
    deck = load_deck(path, catalog, formats)
    assert check_deck(deck) == [] and deck.name == "Zap!" and deck.size("main") == 60


# --- property: 2,000 generated lists -------------------------------------------------------------

_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # kind C (line splitting) is another branch's
_DECO = re.compile(r"^(?:\*{3,}|={3,}|-{3,}|_{3,})")
_DECO_END = re.compile(r"(?:\*{3,}|={3,}|-{3,}|_{3,})$")
_PIECES = [
    "4",
    "2x",
    "x3",
    "×4",
    "0",
    "-1",
    "1000",
    "4枚",
    "枚",
    " ",
    " ",
    "Pikachu",
    "Bill",
    "Farfetch’d",
    "{L}",
    "Energy",
    "Basic",
    "(BS #58)",
    "BS",
    "58",
    "/102",
    "58/102",
    "base1-58",
    "SB:",
    "Sideboard:",
    "Format:",
    "pokemon-base",
    "Name:",
    "Deck:",
    "Deck",
    "Total Cards:",
    "60",
    "Pokémon:",
    "Trainer - 11",
    "##",
    "#",
    "//",
    "# c",
    "===",
    "***",
    "---",
    "___",
    "* ",
    "- ",
    "• ",
    "\t",
    ":",
    "(",
    ")",
    "テストフック",
    "x",
    "ｘ４",
]


def _lines():
    random_text = st.text(alphabet=st.characters(blacklist_characters=_BREAKS, blacklist_categories=("Cs",)), max_size=6)
    line = st.lists(st.one_of(st.sampled_from(_PIECES), random_text), max_size=6).map("".join)
    return st.lists(line, min_size=1, max_size=8)


def _comment(raw: str) -> bool:
    """A line the parser may pass over: blank, a // or # comment, or a decorated title."""
    s = " ".join(raw.replace("\t", " ").split())
    if not s or s.startswith(("//", "#")):
        return True
    bare = s
    while True:  # decorations around the line, however many
        stripped = re.sub(r"\s*(?:\*{3,}|={3,}|-{3,}|_{3,})$", "", re.sub(r"^(?:\*{3,}|={3,}|-{3,}|_{3,})\s*", "", bare)).strip()
        if stripped == bare:
            break
        bare = stripped
    return not bare or bare.startswith("#") or (bool(_DECO.match(s)) and bool(_DECO_END.search(s)) and split_count(bare) is None)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_lines())
def test_no_deck_line_is_dropped(catalog, formats, index, lines):
    """Kind F (property, 2,000 lists): parsing and matching never raise, and every line is counted,
    a header, a comment, or reported."""
    text = "\n".join(lines)
    deck_list = parse_text(text, P)
    accounted = (
        {e.line for e in deck_list.entries}
        | {h.line for h in deck_list.headers}
        | {p.pos.line for p in deck_list.problems}
        | set(deck_list.meta_lines)
    )
    for number, raw in enumerate(lines, start=1):
        if not _comment(raw):
            assert number in accounted, (number, raw, text)
    for e in deck_list.entries:
        assert isinstance(e, Entry) and 1 <= e.count <= 999
    deck = build_deck(deck_list, catalog, formats["pokemon-base"], index=index)
    check_deck(deck)


@pytest.mark.parametrize(
    ("text", "card_id"),
    [
        ("てすとふっく", "ippo-test-3"),
        ("ﾃｽﾄﾌｯｸ", "ippo-test-3"),
        ("テストフック", "ippo-test-3"),
        ("test hook", "ippo-test-3"),
        ("testhook", "ippo-test-3"),
        ("Crochet de test", "ippo-test-3"),
    ],
)
def test_japanese_deck_lines_fold_kana_and_width(catalog, text, card_id):
    """Kind D on deck lines: hiragana finds the katakana name, half width finds full width."""
    assert CardIndex(catalog, "ippo").resolve(Entry(1, 4, text)) == (card_id, None, "")


@pytest.mark.parametrize(
    ("line", "message", "lists_codes"),
    [
        ("1 Charizard XYZ 4", 'unknown set code "XYZ" in "Charizard XYZ 4"', True),
        ("1 Charizard (XYZ #4)", 'unknown set code "XYZ" in "Charizard (XYZ #4)"', True),
        ("1 Charizard bs1 4", 'unknown set code "bs1" in "Charizard bs1 4"; did you mean BS, base1?', False),
        ("4 Pikachu jungel 60", 'unknown set code "jungel" in "Pikachu jungel 60"; did you mean JU, jungle?', False),
        ("4 Dracaufeu JUN 4", 'unknown set code "JUN" in "Dracaufeu JUN 4"; did you mean JU, jungle?', False),
        ("1 Foo XYZ 4", 'unknown card "Foo XYZ 4"', False),
    ],
)
def test_unknown_set_code_after_a_known_name(index, line, message, lists_codes):
    """Kind: a known card name followed by a set code that is no set (``Charizard XYZ 4``) is an
    unknown *set*, with "did you mean" over set codes and aliases, not an unknown card."""
    card_id, got, rule = _one(index, line)
    assert (card_id, rule) == (None, "unknown-card")
    head, _, known = got.partition(" (known: ")
    assert head == message
    assert ("BS" in known.rstrip(")").split(", ")) is lists_codes
