"""Deck data, from the bottom of the deck pipeline: the lines of a deck file as parsed
(:class:`Entry`, :class:`Header`, :class:`DeckList`) and a deck matched to the catalog
(:class:`DeckCard`, :class:`Deck`). No imports from the other deck modules."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from cardlab.core.errors import Problem

if TYPE_CHECKING:
    from cardlab.catalog.formats import Format

MAX_DECK_BYTES = 1_000_000
"""A deck file larger than this (1 MB; a 60-card list is about 1 kB) is refused unread."""

MAX_COUNT = 999
"""The largest count one line may give; 0, negative and larger counts are problems (rule ``count``)."""

TOTAL_WORDS = frozenset({"total", "total cards", "cards", "total cards in deck", "deck total"})
"""Header words that declare the total of the whole list (``Total Cards: 60``)."""

SIDEBOARD_WORDS = frozenset(
    {
        "sideboard",
        "side board",
        "side deck",
        "sideboard cards",
        "maybeboard",
        "maybe board",
        "considering",
        "reserve",
        "reserves",
        "サイドデッキ",
        "サイド",
    }
)
"""Header words (folded) of lines kept beside the deck (a sideboard); no format here has one."""


class Entry(NamedTuple):
    """One card line of a deck list, as written (immutable; a named tuple, as :class:`DeckCard`:
    one is made per deck line, and a tuple is made several times faster than a frozen dataclass)."""

    line: int
    """1-based line of the deck file."""
    count: int  # type: ignore[assignment]  # the field hides tuple.count, which nothing calls on a line
    """Copies, 1 to :data:`MAX_COUNT`."""
    text: str
    """The card as written (``Pikachu``, ``Pikachu BS 58``, ``base1-58``)."""
    header: int | None = None
    """Index into :attr:`DeckList.headers` of the header above the line, or None."""
    section: str | None = None
    """The section id when the file says it (YAML lists), else None."""
    name: str | None = None
    """Explicit parts from a YAML entry (None in text lists): the name, set code, number and card id."""
    set_code: str | None = None
    number: str | None = None
    card_id: str | None = None


@dataclass(frozen=True)
class Header:
    """A header line: ``label`` as written, ``word`` folded, ``total`` its declared count or None,
    ``is_total`` for ``Total Cards: 60`` (the whole list), ``outside`` for a header whose lines
    are not part of the deck (``Sideboard:``, see :data:`SIDEBOARD_WORDS`)."""

    line: int
    label: str
    word: str
    total: int | None
    is_total: bool = False
    outside: bool = False


@dataclass
class DeckList:
    """A parsed deck file, not yet matched to cards.

    Attributes:
        path: the deck file (positions name it as given).
        entries: card lines in file order (lines with a bad count are left out, with a problem).
        headers: header lines in file order.
        format: the format the file names (``Format: NAME`` or YAML ``format:``), or None.
        name: the deck's name when the file gives one.
        problems: what is wrong with the lines themselves.
        format_line: the line naming the format (0 when none).
        meta_lines: every line that gives the format or the deck's name (``Format:``, ``Name:``, ``Deck: Zap``).
    """

    path: Path
    entries: list[Entry] = field(default_factory=list)
    headers: list[Header] = field(default_factory=list)
    format: str | None = None
    name: str | None = None
    problems: list[Problem] = field(default_factory=list)
    format_line: int = 0
    meta_lines: list[int] = field(default_factory=list)


class DeckCard(NamedTuple):
    """A deck line matched to one card of the catalog (immutable; a named tuple, see :class:`Entry`).

    Attributes:
        line: 1-based line in the deck file; count: copies (1 or more).
        card_id: the catalog id; set_code: its set; section: the deck section (``main``...).
        name: the card's display name (English if known, else its source language).
        same_name: the folded name "same name" rules compare.
        card: the card's data (as in its YAML file).
        source_language: the language the card's set is written in (names fall back to it).
        candidates: for a line that names a card by name alone, every printing it may be (those
            legal in the format, in print order; every printing when none is), the assumed one
            (``card_id``) first; empty for a line that names its printing (set and number, id).
    """

    line: int
    count: int  # type: ignore[assignment]  # the field hides tuple.count, which nothing calls on a line
    card_id: str
    set_code: str
    section: str
    name: str
    same_name: str
    card: dict
    source_language: str = "en"
    candidates: tuple[str, ...] = ()


@dataclass
class Deck:
    """A deck matched to the catalog, ready for a format's rules (``cardlab.decks.rules.check_deck``).

    Attributes:
        path: the deck file; format: the format checked against.
        cards: the matched lines, in file order (a name on two lines gives two items).
        problems: problems of the lines and of the matching (unknown or ambiguous cards...).
        section_lines: section id -> the line of its first header (absent when none).
        entries: every parsed line with a valid count, matched or not (section totals use them).
        name: the deck's name, if the file gives one.
        catalog_problems: problems of the catalog's own files (a draft card from ``card new``): the
            deck was checked against the valid cards; these are warnings, not the deck's problems.
        notes: what the check assumed, never a problem: a line naming a card by name alone that
            several cards of the format share gets a note at its line saying which printing was
            assumed and which others it could be (rule ``assumed-printing``).
    """

    path: Path
    format: Format
    cards: list[DeckCard] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    section_lines: dict[str, int] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    name: str | None = None
    catalog_problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    def in_section(self, section: str | None) -> list[DeckCard]:
        """Return the cards of ``section`` (None: every section)."""
        return [c for c in self.cards if section is None or c.section == section]

    def size(self, section: str | None = "main") -> int:
        """Return how many cards a section holds, counting lines that matched no card too."""
        return sum([e.count for e, s in zip(self.entries, self._entry_sections, strict=True) if section is None or s == section])

    _entry_sections: list[str] = field(default_factory=list, repr=False)
