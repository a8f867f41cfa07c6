"""Deck lists: read plain-text or YAML deck files into entries with line numbers, then resolve them
against the catalog (:mod:`cardlab.decks.resolve`, whose names are re-exported here) into a :class:`Deck`
that the rules of a format (``cardlab.decks.rules``) check.

Plain text, the way players paste lists (one card per line)::

    Format: pokemon-base            # optional; names the format
    Pokémon: 12                     # a header; its declared total is checked
    4 Pikachu                       # also 4x Pikachu, 4 x Pikachu, x4 Pikachu, Pikachu x4, Bill ×4
    4 Pikachu BS 58                 # set code or alias + collector number (PTCGO/PTCGL style)
    4 base1-58                      # a card id
    // comments start with // or #  (but ##Pokémon is a header, and Total Cards: 60 too)

Blank lines, CRLF, a UTF-8 BOM, tabs and trailing spaces are fine. A header naming a section of the
format (``Commander:``, ``Favor:``, ``Deck:``) starts that section; any other header (``Pokémon:``,
``Trainer:``, ``Blow:``, or any ``Word:``) is a group inside the main deck; ``Total Cards: 60``
declares the whole list's total. A ``Sideboard:`` header (:data:`SIDEBOARD_WORDS`) starts lines
that are not part of the deck: they are reported (``unknown-section``), never counted. A line that
starts with a count is always a card (``1 Energy Removal``); Japanese lists may count with 枚
(``4枚 テストフック``, ``テストフック 4枚``). A second ``Format:`` line naming another format is a
``format-conflict`` problem (the first one is used).

YAML deck files follow ``schema/deck.schema.json``: ``name``, ``format`` and one list per section
(``main``, ``commander``, ``favor``), each item ``"4 Pikachu"`` or ``{count: 4, name: Pikachu}``.
An item that breaks the schema is reported at its line and left out; the other items are still
checked. A file whose top level is not a mapping cannot be read (exit 2).
They are parsed by :mod:`cardlab.decks.parse_yaml` (:func:`parse_yaml`, re-exported here).

A file with no card line at all (blank, comments, headers or a ``Format:`` line only; a YAML deck
whose lists are empty) cannot be read either: "the deck list holds no cards" (exit 2).

Names match case-, accent- and apostrophe-insensitively, in every language the catalog knows.
Problems found here (rule ids): ``count``, ``no-count``, ``empty``, ``schema``, ``format-conflict``;
and in matching:
``section-total``, ``unknown-card``, ``ambiguous-card``, ``unknown-section``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.decks.parse_yaml import parse_yaml
from cardlab.decks.resolve import CardIndex, Deck, DeckCard, build_deck
from cardlab.core.errors import InputError, Problem, SourcePos
from cardlab.core.text import fold, pick

if TYPE_CHECKING:
    from cardlab.catalog.model import Catalog
    from cardlab.catalog.formats import Format

__all__ = [
    # parsing
    "MAX_COUNT", "MAX_DECK_BYTES", "SIDEBOARD_WORDS", "TOTAL_WORDS", "DeckList", "Entry", "Header", "parse_text", "parse_yaml",
    "read_deck", "split_count",
    # matching (cardlab.decks.resolve), re-exported
    "CardIndex", "Deck", "DeckCard", "build_deck",
    # loading and checking
    "DeckReport", "check_file", "deck_list", "describe_entry", "find_format", "load_deck", "open_deck",
]

MAX_DECK_BYTES = 1_000_000
"""A deck file larger than this (1 MB; a 60-card list is about 1 kB) is refused unread."""

MAX_COUNT = 999
"""The largest count one line may give; 0, negative and larger counts are problems (rule ``count``)."""

TOTAL_WORDS = frozenset({"total", "total cards", "cards", "total cards in deck", "deck total"})
"""Header words that declare the total of the whole list (``Total Cards: 60``)."""

SIDEBOARD_WORDS = frozenset({"sideboard", "side board", "side deck", "sideboard cards", "maybeboard",
                             "maybe board", "considering", "reserve", "reserves", "サイドデッキ", "サイド"})
"""Header words (folded) of lines kept beside the deck (a sideboard); no format here has one."""

_META = re.compile(r"^(?P<key>format|name|deck name|title)\s*:\s*(?P<value>.*\S)\s*$", re.IGNORECASE)
_COMMENT_TAIL = re.compile(r"\s+(?://|#).*$")
_DECORATION = re.compile(r"^(?:\*{3,}|={3,}|-{3,}|_{3,})")
_HEADER = re.compile(r"^(?P<label>[^\W\d][^:()]*?)\s*(?:(?P<sep>[:\-–—])\s*(?P<n>[-+]?\d+)?"
                     r"|\(\s*(?P<n2>\d+)\s*\))?\s*$")
_COUNT_FIRST = re.compile(r"^(?P<n>[-+]?\d+)(?:\s*[x×])?\s+(?P<rest>\S.*)$", re.IGNORECASE)
_X_FIRST = re.compile(r"^[x×]\s*(?P<n>[-+]?\d+)\s+(?P<rest>\S.*)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(?P<rest>\S.*?)(?:\s+[x×]\s*|\s*×\s*)(?P<n>[-+]?\d+)$", re.IGNORECASE)
_MAI_FIRST = re.compile(r"^(?P<n>[-+]?\d+)\s*枚\s*(?P<rest>\S.*)$")            # 4枚 テストフック
_MAI_LAST = re.compile(r"^(?P<rest>\S.*?)\s*[x×]?\s*(?P<n>[-+]?\d+)\s*枚$")       # テストフック 4枚, テストフック×4枚


@dataclass(frozen=True)
class Entry:
    """One card line of a deck list, as written.

    Attributes:
        line: 1-based line of the deck file.
        count: copies, 1 to :data:`MAX_COUNT`.
        text: the card as written (``Pikachu``, ``Pikachu BS 58``, ``base1-58``).
        header: index into :attr:`DeckList.headers` of the header above the line, or None.
        section: the section id when the file says it (YAML lists), else None.
        name, set_code, number, card_id: explicit parts from a YAML entry (None in text lists).
    """

    line: int
    count: int
    text: str
    header: int | None = None
    section: str | None = None
    name: str | None = None
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
    """

    path: Path
    entries: list[Entry] = field(default_factory=list)
    headers: list[Header] = field(default_factory=list)
    format: str | None = None
    name: str | None = None
    problems: list[Problem] = field(default_factory=list)
    format_line: int = 0


# --- reading -------------------------------------------------------------------------------------

def read_deck(path: Path, header_words: Iterable[str] = ()) -> DeckList:
    """Read and parse a deck file: YAML for ``.yaml``/``.yml``, plain text otherwise.

    Args:
        path: the deck file.
        header_words: extra header words (folded) that make a line a header even without a colon
            (formats' section and group words, see :meth:`cardlab.catalog.formats.Format.header_words`).

    Returns:
        The parsed :class:`DeckList` (problems inside).

    Raises:
        InputError: the file is missing, larger than :data:`MAX_DECK_BYTES`, binary (NUL bytes or
            not UTF-8), holds no card line (blank, comments, headers or a format line only; a YAML
            deck with empty lists), YAML that does not parse or whose top level is not a mapping
            (exit code 2).
    """
    from cardlab.core.yamlio import LoadError, read_text

    path = Path(path)
    try:
        text = read_text(path, max_bytes=MAX_DECK_BYTES)
    except LoadError as err:
        problem = err.problem
        if problem.rule == "encoding":
            raise InputError(f"{problem.pos}: binary file or not UTF-8 text; a deck list is plain text") from None
        raise InputError(str(problem.pos) + ": " + problem.message) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError(f"{SourcePos(path, line)}: binary file (a NUL byte); a deck list is plain text")
    if path.suffix.lower() in (".yaml", ".yml"):
        deck = parse_yaml(text, path, header_words)
    else:
        deck = parse_text(text, path, header_words)
    empty = next((p for p in deck.problems if p.rule == "empty"), None)
    if empty and not deck.entries and all(p.rule in ("empty", "format-conflict") for p in deck.problems):
        example = "main: [4 Pikachu]" if path.suffix.lower() in (".yaml", ".yml") else "4 Pikachu"
        raise InputError(f"{empty.pos}: {empty.message}; a deck list has lines like '{example}'")
    return deck


def _count_problem(path: Path, line: int, n: int, text: str) -> Problem | None:
    if n < 1:
        return Problem(SourcePos(path, line), f"count {n} for \"{text}\": a count is a whole number from 1 to {MAX_COUNT}", "count")
    if n > MAX_COUNT:
        return Problem(SourcePos(path, line), f"count {n} for \"{text}\" is too large (at most {MAX_COUNT} on one line)", "count")
    return None


def no_count_message(line: str) -> str:
    """The message for a line with no count: suggest ``1 <line>`` only when the line reads like a
    bare card name (no digit, no brace); point at YAML when it looks like a YAML item."""
    if re.match(r"^(?:[\w-]+:\s*)?[\[{]", line):
        return f"this line looks like YAML (\"{line}\"); a YAML deck file must be named .yaml or .yml"
    if re.search(r"[\d{}\[\]]", line):
        return f"cannot read a count and a card from this line (\"{line}\"); a card line looks like \"4 Pikachu\""
    return f"no count on this line (\"{line}\"); write it as \"1 {line}\""


def split_count(line: str) -> tuple[int, str] | None:
    """Split ``4 Pikachu``, ``4x Pikachu``, ``4 x Bill``, ``x4 Bill``, ``Pikachu x4``, ``Bill ×4``,
    ``4枚 テストフック``, ``テストフック 4枚`` into ``(count, card text)``; None when the line has no
    count. Counts may be 0 or negative here."""
    for pattern in (_COUNT_FIRST, _X_FIRST, _MAI_FIRST, _COUNT_LAST, _MAI_LAST):
        m = pattern.match(line)
        if m:
            return int(m["n"]), m["rest"].strip()
    return None


def parse_text(text: str, path: Path, header_words: Iterable[str] = ()) -> DeckList:
    """Parse a plain-text deck list (module docstring). Never raises; problems are collected.

    Args:
        text: the file's text (a leading BOM is dropped; CRLF, tabs and trailing spaces are fine).
        path: the deck file, for positions.
        header_words: folded words that make a line a header (besides ``Word:`` and totals).

    Returns:
        A :class:`DeckList`; a file with no card line gets an ``empty`` problem at line 1.
    """
    format_words = set(header_words)
    words = format_words | TOTAL_WORDS | SIDEBOARD_WORDS
    deck = DeckList(path=Path(path))
    header: int | None = None
    content = False  # any line besides blanks and comments
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = " ".join(raw.replace("\t", " ").split())
        if not line or line.startswith("//") or _DECORATION.match(line):
            continue
        hashed = line.startswith("#")
        content = content or not hashed
        if hashed:
            line = line.lstrip("#").strip()
        elif line.startswith(("* ", "- ", "• ")):
            line = line[2:].strip()
        meta = None if hashed else _META.match(line)
        if meta and not meta["value"].isdigit():
            key = meta["key"].lower()
            if key == "format":
                value = meta["value"].strip()
                if deck.format is None:
                    deck.format, deck.format_line = value, number
                elif fold(value) != fold(deck.format):
                    deck.problems.append(Problem(SourcePos(deck.path, number), (
                        f"a second format line names '{value}' but line {deck.format_line} names '{deck.format}' "
                        f"(that one is used); keep one 'Format:' line"), "format-conflict"))
            else:
                deck.name = meta["value"].strip()
            continue
        m = _HEADER.match(line)
        if m:
            word = fold(m["label"])
            total = m["n"] or m["n2"]
            if word in words or (m["sep"] == ":" and not hashed):
                deck.headers.append(Header(number, line, word, int(total) if total is not None else None, word in TOTAL_WORDS,
                                           word in SIDEBOARD_WORDS and word not in format_words))
                content = True
                if word not in TOTAL_WORDS:
                    header = len(deck.headers) - 1
                continue
        if hashed:
            continue
        line = _COMMENT_TAIL.sub("", line)
        split = split_count(line)
        if split is None:
            deck.problems.append(Problem(SourcePos(deck.path, number), no_count_message(line), "no-count"))
            continue
        n, card_text = split
        problem = _count_problem(deck.path, number, n, card_text)
        if problem:
            deck.problems.append(problem)
            continue
        deck.entries.append(Entry(number, n, card_text, header))
    if not deck.entries and all(p.rule == "format-conflict" for p in deck.problems):
        message = "the deck list holds no cards" if content else "the file is empty: the deck list holds no cards"
        deck.problems.append(Problem(SourcePos(deck.path, 1), message, "empty"))
    return deck


# --- loading and checking ------------------------------------------------------------------------

def load_deck(path: Path, catalog: Catalog, formats: dict[str, Format], format_name: str | None = None,
              langs: Sequence[str] = ()) -> Deck:
    """Read a deck file and match it to the catalog under a format.

    Args:
        path: the deck file.
        catalog: the card catalog; formats: name -> :class:`~cardlab.catalog.formats.Format`.
        format_name: the format to use (any case: ``POKEMON-BASE``); None uses the one the file names.
        langs: preferred languages for card names in messages (the card's source language is the
            fallback; English when empty).

    Returns:
        The :class:`Deck` (its ``problems`` hold the problems of the list itself).

    Raises:
        InputError: the file cannot be read (see :func:`read_deck`).
        UsageError: no format given or named in the file, or an unknown format name (exit 2).
    """
    from cardlab.core.errors import UsageError

    words: set[str] = set()
    for fmt in formats.values():
        words.update(fmt.header_words())
    deck_list = read_deck(path, words)
    name = format_name or deck_list.format
    known = ", ".join(sorted(formats)) or "none"
    if not name:
        bad = next((p for p in deck_list.problems if p.rule == "schema" and deck_list.format_line
                    and p.pos.line == deck_list.format_line), None)
        if bad is not None:
            raise UsageError(f"{bad.pos}: {bad.message}: the format must be a name such as pokemon-base; "
                             f"fix it or use --format NAME (formats: {known})")
        raise UsageError(f"{path}: no format given; use --format NAME or a 'Format: NAME' line (formats: {known})")
    found = find_format(formats, name)
    if found is None:
        where = f"{SourcePos(Path(path), deck_list.format_line)}: " if not format_name and deck_list.format_line else ""
        raise UsageError(f"{where}unknown format '{name}' (formats: {known})")
    return build_deck(deck_list, catalog, found, langs=langs)


def find_format(formats: dict[str, Format], name: str) -> Format | None:
    """Return the format called ``name`` whatever its case and accents (``POKEMON-BASE``), or None."""
    if name in formats:
        return formats[name]
    wanted = fold(name.strip())
    return next((f for n, f in formats.items() if fold(n) == wanted), None)


def describe_entry(card: DeckCard) -> dict[str, Any]:
    """Return a JSON-ready dict of a matched line: line, count, id, name, section."""
    return {"line": card.line, "count": card.count, "id": card.card_id, "name": card.name, "section": card.section}


@dataclass
class DeckReport:
    """The outcome of checking a deck file: the matched ``deck`` and every ``problems`` (sorted)."""

    deck: Deck
    problems: list[Problem]

    @property
    def legal(self) -> bool:
        """True when no problem was found."""
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: file, format, legal, cards (main deck size), sections, problems."""
        fmt = self.deck.format
        return {"file": str(self.deck.path), "format": fmt.name, "game": fmt.game, "legal": self.legal,
                "cards": self.deck.size("main"), "sections": {s.id: self.deck.size(s.id) for s in fmt.sections},
                "problems": [p.to_json() for p in self.problems]}


def open_deck(path: Path, roots: list[Path], format_name: str | None = None, langs: Sequence[str] = ()) -> Deck:
    """Load the catalog and formats under ``roots``, then read and match a deck file (card names
    in messages in the first of ``langs`` a card has, see :func:`load_deck`).

    Raises:
        CatalogError: the catalog does not validate; DataError: a format file is wrong.
        InputError, UsageError: as :func:`load_deck`.
    """
    from cardlab.core.errors import CatalogError
    from cardlab.catalog.validate import validate

    result = validate(list(roots))  # cards and formats in one (cached) pass
    if result.problems:
        raise CatalogError(result.problems)
    return load_deck(Path(path), result.catalog, dict(sorted(result.formats.items())), format_name, langs)


def check_file(path: Path, roots: list[Path], format_name: str | None = None, langs: Sequence[str] = ()) -> DeckReport:
    """Check a deck file against a format: every violation at once.

    Args:
        path: the deck file (text or YAML).
        roots: catalog roots (cards and ``<game>/formats/``), see :func:`cardlab.core.paths.catalog_roots`.
        format_name: the format; None uses the one the file names.
        langs: preferred languages for card names in messages (fallback: the card's source language).

    Returns:
        A :class:`DeckReport`; ``legal`` when it has no problem.

    Raises:
        InputError: the file cannot be read (exit 2); UsageError: no or unknown format (exit 2);
        CatalogError / DataError: the catalog or a format file is wrong (exit 1).
    """
    from cardlab.decks.rules import check_deck

    deck = open_deck(path, roots, format_name, langs)
    return DeckReport(deck, check_deck(deck))


def deck_list(deck: Deck, langs: Iterable[str] = (), source_of: Any = None) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Return the matched deck list by section, with names in the preferred languages.

    Args:
        deck: a matched :class:`Deck`.
        langs: preferred languages, first first; a card's source language is the fallback.
        source_of: a function card id -> source language (default ``en``).

    Returns:
        ``[(section id, [(copies, name, card id), ...]), ...]``: sections in the format's order,
        cards in file order, copies of the same card on several lines added up.
    """
    out = []
    for section in deck.format.sections:
        merged: dict[str, list] = {}
        for c in deck.in_section(section.id):
            src = source_of(c.card_id) if source_of else "en"
            if c.card_id in merged:
                merged[c.card_id][0] += c.count
            else:
                merged[c.card_id] = [c.count, pick(c.card.get("name"), list(langs), src), c.card_id]
        if merged:
            out.append((section.id, [tuple(v) for v in merged.values()]))
    return out
