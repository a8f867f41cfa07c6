"""cardlab.decks.parse_text value by value (issue 16): every kind of line (decorations, comments,
bullets, meta lines, sideboard lines, headers with totals) read into exact entries, headers and
problems, two problems in one file reported once each in line order."""

from __future__ import annotations

from pathlib import Path

from cardlab.decks.parse_text import parse_text


def _read(text: str, words=()) -> dict:
    deck = parse_text(text, Path("zorb.txt"), words)
    assert deck.path == Path("zorb.txt")
    assert {p.pos.path for p in deck.problems} <= {Path("zorb.txt")}
    return {
        "entries": [(e.line, e.count, e.text, e.header) for e in deck.entries],
        "headers": [(h.line, h.label, h.word, h.total, h.is_total, h.outside) for h in deck.headers],
        "format": (deck.format, deck.format_line),
        "name": deck.name,
        "meta": deck.meta_lines,
        "problems": [(p.pos.line, p.rule, p.message) for p in deck.problems],
    }


def test_decorations_titles_and_comments():
    """A BOM, ``//`` comments, a decorated title (skipped), decorations before a count (a card)."""
    got = _read("\ufeff// a comment\n=== Zorb things ===\n4 Zorb\n*** My Zorb deck ***\n===4 Fen\n=== Fen\n~~~\n")
    assert got["entries"] == [(3, 4, "Zorb", None), (5, 4, "Fen", None)]
    assert got["headers"] == []
    assert got["problems"] == [(6, "no-count", 'no count on this line ("Fen"); write it as "1 Fen"')]


def test_decorated_header_words():
    """A decorated line is a header when its word is a header word, or it has ``Word:``."""
    got = _read("=== *** Pokémon *** ===\n4 Zorb\n___ Stuff: 4 ___\n2 Fen\n--- Notes ---\n1 Quux\n", ["pokemon"])
    assert got["headers"] == [(1, "Pokémon", "pokemon", None, False, False), (3, "Stuff: 4", "stuff", 4, False, False)]
    assert got["entries"] == [(2, 4, "Zorb", 0), (4, 2, "Fen", 1), (6, 1, "Quux", 1)]
    assert got["problems"] == []


def test_comment_tails_hashes_and_bullets():
    """``# comment`` after a card is dropped, ``#58`` is kept; a hashed line is a comment or a
    header; bullets ``*``, ``-``, ``•`` are dropped."""
    got = _read(
        "Pokémon: 4\n4 Zorb # comment\n1 Blip // note\n2 Fen #58\n# Trainers\n# 3 Blip\n* 1 Quux\n- 2 Quuy\n• 3 Quuz\n", ["pokemon"]
    )
    assert got["headers"] == [(1, "Pokémon: 4", "pokemon", 4, False, False)]
    assert got["entries"] == [
        (2, 4, "Zorb", 0),
        (3, 1, "Blip", 0),
        (4, 2, "Fen #58", 0),
        (7, 1, "Quux", 0),
        (8, 2, "Quuy", 0),
        (9, 3, "Quuz", 0),
    ]
    assert got["problems"] == []


def test_hashed_headers():
    """``#Trainers:`` is a header when its word is a header word; ``#Stuff: 4`` is only a comment."""
    got = _read("#Trainers:\n2 Fen\n#Stuff: 4\n1 Zorb\n", ["trainers"])
    assert got["headers"] == [(1, "Trainers:", "trainers", None, False, False)]
    assert got["entries"] == [(2, 2, "Fen", 0), (4, 1, "Zorb", 0)]


def test_meta_lines_and_a_second_format():
    """Format and name lines; a second, different format line is reported once, the first kept;
    the same format written another way is no conflict; ``Deck:`` and ``Deck: 60`` are headers."""
    got = _read("Format: zorb-a\nFormat: Zorb_A\nformat: zorb-b\nName: My Zorb\nDeck: Zap\nDeck:\nDeck: 60\nTitle:\n4 Zorb")
    assert got["format"] == ("zorb-a", 1)
    assert got["name"] == "Zap"
    assert got["meta"] == [1, 2, 3, 4, 5, 8]
    assert got["headers"] == [
        (6, "Deck:", "deck", None, False, False),
        (7, "Deck: 60", "deck", 60, False, False),
        (8, "Title:", "title", None, False, False),
    ]
    assert got["entries"] == [(9, 4, "Zorb", 1)]
    assert got["problems"] == [
        (3, "format-conflict", "a second format line names 'zorb-b' but line 1 names 'zorb-a' (that one is used); keep one 'Format:' line")
    ]


def test_deck_name_lines():
    """``Deck Name:`` and ``Title:`` name the deck; the last one wins."""
    got = _read("Deck Name: Zorb Rush\nTitle:  Fen Control  \n1 Zorb\n")
    assert got["name"] == "Fen Control"
    assert got["meta"] == [1, 2]


def test_sideboard_lines():
    """``SB: 2 Fen`` is a sideboard header and a card on one line, in any case and spacing."""
    got = _read("SB: 2 Fen\nSideboard: x3 Quux\nsb:4 Blip\n1 Zorb")
    assert got["headers"] == [
        (1, "SB:", "sideboard", None, False, True),
        (2, "Sideboard:", "sideboard", None, False, True),
        (3, "sb:", "sideboard", None, False, True),
    ]
    assert got["entries"] == [(1, 2, "Fen", 0), (2, 3, "Quux", 1), (3, 4, "Blip", 2), (4, 1, "Zorb", None)]


def test_totals_and_header_counts():
    """A total line is a header but not a section; ``Trainers (12)``, ``Energy - 10``, ``Energy — 5``."""
    got = _read("Total Cards: 60\nTrainers (12)\n2 Fen\nEnergy - 10\nEnergy — 5\nSideboard:\n1 Zorb", ["trainers", "energy"])
    assert got["headers"] == [
        (1, "Total Cards: 60", "total cards", 60, True, False),
        (2, "Trainers (12)", "trainers", 12, False, False),
        (4, "Energy - 10", "energy", 10, False, False),
        (5, "Energy — 5", "energy", 5, False, False),
        (6, "Sideboard:", "sideboard", None, False, True),
    ]
    assert got["entries"] == [(3, 2, "Fen", 1), (7, 1, "Zorb", 4)]


def test_sideboard_as_a_format_section_is_not_outside():
    """When the format names a sideboard section, its header is part of the deck."""
    got = _read("Sideboard:\n2 Fen", ["sideboard"])
    assert got["headers"] == [(1, "Sideboard:", "sideboard", None, False, False)]


def test_several_problems_each_once_in_order():
    """Count 0, count 1000, no count, a count hidden after ``Deck:``: each reported once, by line."""
    got = _read("0 Zorb\n1000 Fen\nZorb\n4 Zorb x\n=== Trainers: 4 ===\n--- Notes ---\nDeck: 4 Bill\n")
    assert got["entries"] == [(4, 4, "Zorb x", None)]
    assert got["headers"] == [(5, "Trainers: 4", "trainers", 4, False, False)]
    assert got["problems"] == [
        (1, "count", 'count 0 for "Zorb": a count is a whole number from 1 to 999'),
        (2, "count", 'count 1000 for "Fen" is too large (at most 999 on one line)'),
        (3, "no-count", 'no count on this line ("Zorb"); write it as "1 Zorb"'),
        (7, "no-count", 'cannot read a count and a card from this line ("Deck: 4 Bill"); a card line looks like "4 Pikachu"'),
    ]


def test_count_limits_on_a_line():
    """1 and 999 are accepted; 0 and 1000 are not."""
    got = _read("1 Zorb\n999 Fen\n")
    assert got["entries"] == [(1, 1, "Zorb", None), (2, 999, "Fen", None)]
    assert got["problems"] == []


def test_tabs_crlf_and_spaces():
    """Tabs and runs of spaces are single spaces; CRLF line ends."""
    got = _read("\tZorb\t x4  \r\n4\tFen   Blip\r\n")
    assert got["entries"] == [(1, 4, "Zorb", None), (2, 4, "Fen Blip", None)]


def test_empty_files():
    """No card line: ``empty`` at line 1; "the file is empty" when nothing but blanks and comments."""
    for text in ("", "// only\n\n", "# a hashed title\n", "=== Zorb ===\n"):
        assert _read(text)["problems"] == [(1, "empty", "the file is empty: the deck list holds no cards")]
    assert _read("Stuff: 3\n")["problems"] == [(1, "empty", "the deck list holds no cards")]
    assert _read("Zorbs:\n", ["zorbs"])["problems"] == [(1, "empty", "the deck list holds no cards")]


def test_format_conflict_alone_still_reports_empty():
    """A file with two formats and no card: the conflict, then ``empty``."""
    assert _read("Format: a\nFormat: b\n")["problems"] == [
        (2, "format-conflict", "a second format line names 'b' but line 1 names 'a' (that one is used); keep one 'Format:' line"),
        (1, "empty", "the deck list holds no cards"),
    ]


def test_a_line_problem_means_no_empty_problem():
    """A file whose only line has a bad count is not also reported empty."""
    assert _read("0 Zorb\n")["problems"] == [(1, "count", 'count 0 for "Zorb": a count is a whole number from 1 to 999')]


def test_blank_lines_between_cards():
    """A blank line (or one of only decorations) between cards ends nothing."""
    got = _read("1 Zorb\n\n   \n~~~~\n2 Fen\n")
    assert got["entries"] == [(1, 1, "Zorb", None), (5, 2, "Fen", None)]


def test_hashed_lines_are_never_meta_nor_sideboard_lines():
    """``# Format: x`` and ``# SB: 2 Fen`` are comments."""
    got = _read("# Format: zorb-x\n# Name: Zap\n# SB: 2 Fen\n1 Zorb\n")
    assert got["format"] == (None, 0)
    assert got["name"] is None
    assert got["meta"] == []
    assert got["headers"] == []
    assert got["entries"] == [(4, 1, "Zorb", None)]


def test_hashed_header_keeps_its_first_letter():
    """Only the hashes are stripped from a hashed header (``#Xtra:`` is the header ``Xtra:``)."""
    got = _read("#Xtra:\n1 Zorb\n", ["xtra"])
    assert got["headers"] == [(1, "Xtra:", "xtra", None, False, False)]
    assert got["entries"] == [(2, 1, "Zorb", 0)]


def test_total_and_sideboard_words_without_a_colon():
    """``Sideboard`` and ``Total cards - 60`` are headers by their words alone."""
    got = _read("1 Zorb\nTotal cards - 60\nSideboard\n2 Fen\nMaybeboard (3)\n")
    assert got["headers"] == [
        (2, "Total cards - 60", "total cards", 60, True, False),
        (3, "Sideboard", "sideboard", None, False, True),
        (5, "Maybeboard (3)", "maybeboard", 3, False, True),
    ]
    assert got["entries"] == [(1, 1, "Zorb", None), (4, 2, "Fen", 1)]
    assert got["problems"] == []


def test_decorated_title_between_cards():
    """A decorated title between cards is skipped and the cards after it still read."""
    got = _read("1 Zorb\n*** Zorb Deck ***\n=== Trainers ===\n2 Fen\n")
    assert got["entries"] == [(1, 1, "Zorb", None), (4, 2, "Fen", None)]
    assert got["headers"] == []
