"""Deck lists: read plain-text or YAML deck files into entries with line numbers, then resolve them
against the catalog into a :class:`Deck` that the rules of a format (``cardlab.rules``) check.

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
declares the whole list's total. A line that starts with a count is always a card
(``1 Energy Removal``).

YAML deck files follow ``schema/deck.schema.json``: ``name``, ``format`` and one list per section
(``main``, ``commander``, ``favor``), each item ``"4 Pikachu"`` or ``{count: 4, name: Pikachu}``.

Names match case-, accent- and apostrophe-insensitively, in every language the catalog knows.
Problems found here (rule ids): ``count``, ``no-count``, ``section-total``, ``unknown-card``,
``ambiguous-card``, ``unknown-section``, ``empty``, ``schema``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.errors import InputError, Problem, SourcePos
from cardlab.text import fold, pick

if TYPE_CHECKING:
    from cardlab.catalog import Catalog
    from cardlab.formats import Format

MAX_DECK_BYTES = 1_000_000
"""A deck file larger than this (1 MB; a 60-card list is about 1 kB) is refused unread."""

MAX_COUNT = 999
"""The largest count one line may give; 0, negative and larger counts are problems (rule ``count``)."""

TOTAL_WORDS = frozenset({"total", "total cards", "cards", "total cards in deck", "deck total"})
"""Header words that declare the total of the whole list (``Total Cards: 60``)."""

_META = re.compile(r"^(?P<key>format|name|deck name|title)\s*:\s*(?P<value>.*\S)\s*$", re.IGNORECASE)
_COMMENT_TAIL = re.compile(r"\s+(?://|#).*$")
_DECORATION = re.compile(r"^(?:\*{3,}|={3,}|-{3,}|_{3,})")
_HEADER = re.compile(r"^(?P<label>[^\W\d][^:()]*?)\s*(?:(?P<sep>[:\-–—])\s*(?P<n>[-+]?\d+)?"
                     r"|\(\s*(?P<n2>\d+)\s*\))?\s*$")
_COUNT_FIRST = re.compile(r"^(?P<n>[-+]?\d+)(?:\s*[x×])?\s+(?P<rest>\S.*)$", re.IGNORECASE)
_X_FIRST = re.compile(r"^[x×]\s*(?P<n>[-+]?\d+)\s+(?P<rest>\S.*)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(?P<rest>\S.*?)(?:\s+[x×]\s*|\s*×\s*)(?P<n>[-+]?\d+)$", re.IGNORECASE)
_SET_NUMBER = re.compile(r"^(?P<name>.+?)\s+\(?(?P<set>[^\W\d][\w.\-]*)\)?\s+\(?(?P<num>\d+[a-z]?)\)?$")
_CARD_ID = re.compile(r"^[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)*-[0-9a-z]+$")


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
    ``is_total`` for ``Total Cards: 60`` (the whole list)."""

    line: int
    label: str
    word: str
    total: int | None
    is_total: bool = False


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
            (formats' section and group words, see :meth:`cardlab.formats.Format.header_words`).

    Returns:
        The parsed :class:`DeckList` (problems inside).

    Raises:
        InputError: the file is missing, larger than :data:`MAX_DECK_BYTES`, binary (NUL bytes or
            not UTF-8), empty (nothing but blank lines and comments), or YAML that does not parse
            (exit code 2).
    """
    from cardlab.loader import LoadError, read_text

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
    if not deck.entries and not deck.headers and not deck.format and [p.rule for p in deck.problems] == ["empty"]:
        raise InputError(f"{SourcePos(path, 1)}: the file is empty (no card lines); a deck list has lines like '4 Pikachu'")
    return deck


def _count_problem(path: Path, line: int, n: int, text: str) -> Problem | None:
    if n < 1:
        return Problem(SourcePos(path, line), f"count {n} for \"{text}\": a count is a whole number from 1 to {MAX_COUNT}", "count")
    if n > MAX_COUNT:
        return Problem(SourcePos(path, line), f"count {n} for \"{text}\" is too large (at most {MAX_COUNT} on one line)", "count")
    return None


def split_count(line: str) -> tuple[int, str] | None:
    """Split ``4 Pikachu``, ``4x Pikachu``, ``4 x Bill``, ``x4 Bill``, ``Pikachu x4``, ``Bill ×4``
    into ``(count, card text)``; None when the line has no count. Counts may be 0 or negative here."""
    for pattern in (_COUNT_FIRST, _X_FIRST, _COUNT_LAST):
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
    words = set(header_words) | TOTAL_WORDS
    deck = DeckList(path=Path(path))
    header: int | None = None
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = " ".join(raw.replace("\t", " ").split())
        if not line or line.startswith("//") or _DECORATION.match(line):
            continue
        hashed = line.startswith("#")
        if hashed:
            line = line.lstrip("#").strip()
        elif line.startswith(("* ", "- ", "• ")):
            line = line[2:].strip()
        meta = None if hashed else _META.match(line)
        if meta and not meta["value"].isdigit():
            key = meta["key"].lower()
            if key == "format":
                deck.format, deck.format_line = meta["value"].strip(), number
            else:
                deck.name = meta["value"].strip()
            continue
        m = _HEADER.match(line)
        if m:
            word = fold(m["label"])
            total = m["n"] or m["n2"]
            if word in words or (m["sep"] == ":" and not hashed):
                deck.headers.append(Header(number, line, word, int(total) if total is not None else None, word in TOTAL_WORDS))
                if word not in TOTAL_WORDS:
                    header = len(deck.headers) - 1
                continue
        if hashed:
            continue
        line = _COMMENT_TAIL.sub("", line)
        split = split_count(line)
        if split is None:
            deck.problems.append(Problem(SourcePos(deck.path, number),
                                         f"no count on this line (\"{line}\"); write it as \"1 {line}\"", "no-count"))
            continue
        n, card_text = split
        problem = _count_problem(deck.path, number, n, card_text)
        if problem:
            deck.problems.append(problem)
            continue
        deck.entries.append(Entry(number, n, card_text, header))
    if not deck.entries and not deck.problems:
        deck.problems.append(Problem(SourcePos(deck.path, 1), "the deck list holds no cards", "empty"))
    return deck


def parse_yaml(text: str, path: Path, header_words: Iterable[str] = ()) -> DeckList:
    """Parse a YAML deck file (``schema/deck.schema.json``).

    Returns:
        A :class:`DeckList` whose entries carry their section; schema problems have positions.

    Raises:
        InputError: the YAML does not parse (exit code 2).
    """
    from cardlab.loader import LoadError, load_fast, load_roundtrip, position
    from cardlab.schemas import validator

    path = Path(path)
    deck = DeckList(path=path)
    try:
        data = load_fast(path, text)
    except LoadError as err:
        if err.problem.message == "empty file":
            deck.problems.append(Problem(SourcePos(path, 1), "the deck file holds no cards", "empty"))
            return deck
        raise InputError(str(err.problem)) from None
    errors = list(validator("deck.schema.json").iter_errors(data))
    tree = load_roundtrip(path, text)
    if isinstance(data, dict) and isinstance(data.get("format"), str):
        deck.format = data["format"]
        deck.format_line = position(tree, ["format"], path).line
    if errors:
        from jsonschema.exceptions import best_match

        for err in errors:
            if err.context:  # anyOf: skip the branches whose type does not fit at all
                fitting = [e for e in err.context if not (e.validator == "type" and not e.relative_path)]
                err = best_match(fitting or err.context) or err
            keys = list(err.absolute_path)
            where = ".".join(str(k) for k in keys)
            deck.problems.append(Problem(position(tree, keys, path), f"{where + ': ' if where else ''}{err.message}", "schema"))
        return deck
    deck.name = data.get("name")
    for section, items in data.items():
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            line = position(tree, [section, i], path).line
            if isinstance(item, str):
                split = split_count(" ".join(item.split()))
                if split is None:
                    deck.problems.append(Problem(SourcePos(path, line), f"no count in \"{item}\"; write it as \"1 {item}\"", "no-count"))
                    continue
                n, card_text = split
                entry = Entry(line, n, card_text, section=section)
            else:
                n = item["count"]
                parts = [item.get("name") or item.get("card") or "", item.get("set") or "", item.get("number") or ""]
                entry = Entry(line, n, " ".join(p for p in parts if p), section=section, name=item.get("name"),
                              set_code=item.get("set"), number=item.get("number"), card_id=item.get("card"))
            problem = _count_problem(path, line, n, entry.text)
            if problem:
                deck.problems.append(problem)
            else:
                deck.entries.append(entry)
    if not deck.entries and not deck.problems:
        deck.problems.append(Problem(SourcePos(path, 1), "the deck file holds no cards", "empty"))
    return deck


# --- resolving names to cards --------------------------------------------------------------------

@dataclass(frozen=True)
class DeckCard:
    """A deck line matched to one card of the catalog.

    Attributes:
        line: 1-based line in the deck file; count: copies (1 or more).
        card_id: the catalog id; set_code: its set; section: the deck section (``main``...).
        name: the card's display name (English if known, else its source language).
        same_name: the folded name "same name" rules compare.
        card: the card's data (as in its YAML file).
    """

    line: int
    count: int
    card_id: str
    set_code: str
    section: str
    name: str
    same_name: str
    card: dict


@dataclass
class Deck:
    """A deck matched to the catalog, ready for a format's rules (``cardlab.rules.check_deck``).

    Attributes:
        path: the deck file; format: the format checked against.
        cards: the matched lines, in file order (a name on two lines gives two items).
        problems: problems of the lines and of the matching (unknown or ambiguous cards...).
        section_lines: section id -> the line of its first header (absent when none).
        entries: every parsed line with a valid count, matched or not (section totals use them).
        name: the deck's name, if the file gives one.
    """

    path: Path
    format: Format
    cards: list[DeckCard] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    section_lines: dict[str, int] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    name: str | None = None

    def in_section(self, section: str | None) -> list[DeckCard]:
        """Return the cards of ``section`` (None: every section)."""
        return [c for c in self.cards if section is None or c.section == section]

    def size(self, section: str | None = "main") -> int:
        """Return how many cards a section holds, counting lines that matched no card too."""
        return sum(e.count for e, s in zip(self.entries, self._entry_sections, strict=True) if section is None or s == section)

    _entry_sections: list[str] = field(default_factory=list, repr=False)


class CardIndex:
    """Names and numbers of one game's cards, for matching deck lines (build once, reuse).

    Args:
        catalog: the card catalog; game: ``pokemon``, ``ippo`` or ``monpa``.
    """

    def __init__(self, catalog: Catalog, game: str) -> None:
        self.catalog = catalog
        self.game = game
        self.names: dict[str, set[str]] = {}
        self.other_games: dict[str, str] = {}
        for card_id, card in catalog.cards.items():
            card_game = catalog.game_of(card_id)
            for lang, name in (card.get("name") or {}).items():
                if lang == "_source" or not isinstance(name, str):
                    continue
                if card_game == game:
                    self.names.setdefault(fold(name), set()).add(card_id)
                else:
                    self.other_games.setdefault(fold(name), card_game)
        self._choices: list[str] | None = None

    def display_name(self, card_id: str) -> str:
        """The card's English name if it has one, else its source-language name."""
        info = self.catalog.set_of(card_id)
        return pick(self.catalog.cards[card_id].get("name"), ["en"], info.source_language)

    def suggestions(self, text: str, limit: int = 3) -> list[str]:
        """Return up to ``limit`` known names close to ``text`` (rapidfuzz WRatio, score >= 75)."""
        from rapidfuzz import fuzz, process

        if self._choices is None:
            self._choices = sorted(self.names)
        found = process.extract(fold(text), self._choices, scorer=fuzz.WRatio, limit=limit, score_cutoff=75)
        return list(dict.fromkeys(self.display_name(sorted(self.names[name])[0]) for name, _score, _i in found))

    def _by_number(self, set_code: str, number: str) -> str | None:
        info = self.catalog.find_set(set_code)
        if info is None or info.game != self.game:
            return None
        card_id = f"{info.code}-{number.lstrip('0') or '0'}"
        return card_id if card_id in self.catalog.cards else None

    def resolve(self, entry: Entry, allowed_sets: set[str] | None = None) -> tuple[str | None, str | None, str]:
        """Match a deck line to a card.

        Tries, in order: an explicit or written card id (``base1-58``); a name followed by a set code
        or alias and a collector number (``Pikachu BS 58``); the name alone, in any language. When a
        name matches several cards, those of ``allowed_sets`` are preferred.

        Returns:
            ``(card id, None, "")`` when matched, else ``(None, message, rule)`` with rule
            ``unknown-card`` or ``ambiguous-card``.
        """
        text = entry.card_id or entry.text
        if _CARD_ID.match(text) and text in self.catalog.cards and self.catalog.game_of(text) == self.game:
            return text, None, ""
        name, set_code, number = entry.name or entry.text, entry.set_code, entry.number
        if set_code is None and entry.name is None:
            m = _SET_NUMBER.match(entry.text)
            if m and self.catalog.find_set(m["set"]):
                name, set_code, number = m["name"], m["set"], m["num"]
        if set_code and number:
            card_id = self._by_number(set_code, number)
            if card_id is None:
                return None, f"no card {set_code} {number} in the catalog (\"{entry.text}\")", "unknown-card"
            names = {fold(n) for k, n in self.catalog.cards[card_id]["name"].items() if k != "_source"}
            if name and fold(name) not in names and not _CARD_ID.match(name):
                return None, (f"{set_code} {number} is \"{self.display_name(card_id)}\", not \"{name}\""), "unknown-card"
            return card_id, None, ""
        ids = self.names.get(fold(name), set())
        if not ids:
            other = self.other_games.get(fold(name))
            if other:
                return None, f"\"{name}\" is a {other} card, not a {self.game} card", "unknown-card"
            hint = self.suggestions(name)
            more = "; did you mean " + ", ".join(f'"{h}"' for h in hint) + "?" if hint else ""
            return None, f"unknown card \"{name}\"{more}", "unknown-card"
        if allowed_sets and len(ids) > 1:
            ids = {i for i in ids if self.catalog.card_set[i] in allowed_sets} or ids
        if len(ids) > 1:
            choices = sorted(ids, key=lambda i: (self.catalog.card_set[i], i))
            shown = ", ".join(f"{self.display_name(i)} {self.catalog.card_set[i]} {self.catalog.cards[i]['number']} ({i})" for i in choices)
            return None, f"\"{name}\" matches {len(ids)} cards: {shown}; add the set and number, e.g. \"{entry.count} {name} {self.catalog.card_set[choices[0]]} {self.catalog.cards[choices[0]]['number']}\"", "ambiguous-card"
        return next(iter(ids)), None, ""


def build_deck(deck_list: DeckList, catalog: Catalog, fmt: Format, index: CardIndex | None = None) -> Deck:
    """Place each line in a section of ``fmt`` and match it to a card of the catalog.

    Args:
        deck_list: the parsed file; catalog: the cards; fmt: the format (its game and sections).
        index: a :class:`CardIndex` for ``fmt.game`` to reuse across decks (built when None).

    Returns:
        A :class:`Deck` whose ``problems`` hold the list's own problems plus ``unknown-card``,
        ``ambiguous-card``, ``unknown-section`` and ``section-total`` problems.
    """
    index = index or CardIndex(catalog, fmt.game)
    path = deck_list.path
    deck = Deck(path=path, format=fmt, problems=list(deck_list.problems), name=deck_list.name)
    words = fmt.header_words()
    main = fmt.sections[0].id
    header_section: list[str] = []
    current = main
    for h in deck_list.headers:
        section, _group = words.get(h.word, (main, True))
        if not h.is_total:
            current = section
            deck.section_lines.setdefault(current, h.line)
        header_section.append(current)
    allowed = fmt.allowed_sets
    known = {s.id for s in fmt.sections}
    for entry in deck_list.entries:
        section = entry.section or (header_section[entry.header] if entry.header is not None else main)
        if section not in known:
            deck.problems.append(Problem(SourcePos(path, entry.line), f"section '{section}' is not part of {fmt.name} "
                                         f"(sections: {', '.join(sorted(known))})", "unknown-section"))
            continue
        deck.entries.append(entry)
        deck._entry_sections.append(section)
        card_id, message, rule = index.resolve(entry, allowed)
        if card_id is None:
            deck.problems.append(Problem(SourcePos(path, entry.line), message or "", rule))
            continue
        card = catalog.cards[card_id]
        name = index.display_name(card_id)
        deck.cards.append(DeckCard(entry.line, entry.count, card_id, catalog.card_set[card_id], section, name, fold(name), card))
    deck.problems.extend(_total_problems(deck_list, words, main, path))
    return deck


def _total_problems(deck_list: DeckList, words: dict[str, tuple[str, bool]], main: str, path: Path) -> list[Problem]:
    problems = []
    headers = deck_list.headers
    for i, h in enumerate(headers):
        if h.total is None:
            continue
        if h.is_total:
            held = sum(e.count for e in deck_list.entries)
        else:
            section, is_group = words.get(h.word, (main, True))
            end = len(headers)
            for j in range(i + 1, len(headers)):
                if headers[j].is_total:
                    continue
                s, g = words.get(headers[j].word, (main, True))
                if is_group or not g:
                    end = j
                    break
            held = sum(e.count for e in deck_list.entries
                       if e.header is not None and i <= e.header < end and h.line < e.line)
        if held != h.total:
            problems.append(Problem(SourcePos(path, h.line),
                                    f"\"{h.label}\" declares {h.total} cards but its lines hold {held}", "section-total"))
    return problems


def load_deck(path: Path, catalog: Catalog, formats: dict[str, Format], format_name: str | None = None) -> Deck:
    """Read a deck file and match it to the catalog under a format.

    Args:
        path: the deck file.
        catalog: the card catalog; formats: name -> :class:`~cardlab.formats.Format`.
        format_name: the format to use; None uses the one the file names.

    Returns:
        The :class:`Deck` (its ``problems`` hold the problems of the list itself).

    Raises:
        InputError: the file cannot be read (see :func:`read_deck`).
        UsageError: no format given or named in the file, or an unknown format name (exit 2).
    """
    from cardlab.errors import UsageError

    words: set[str] = set()
    for fmt in formats.values():
        words.update(fmt.header_words())
    deck_list = read_deck(path, words)
    name = format_name or deck_list.format
    known = ", ".join(sorted(formats)) or "none"
    if not name:
        raise UsageError(f"{path}: no format given; use --format NAME or a 'Format: NAME' line (formats: {known})")
    if name not in formats:
        where = f"{SourcePos(Path(path), deck_list.format_line)}: " if not format_name and deck_list.format_line else ""
        raise UsageError(f"{where}unknown format '{name}' (formats: {known})")
    return build_deck(deck_list, catalog, formats[name])


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


def open_deck(path: Path, roots: list[Path], format_name: str | None = None) -> Deck:
    """Load the catalog and formats under ``roots``, then read and match a deck file.

    Raises:
        CatalogError: the catalog does not validate; DataError: a format file is wrong.
        InputError, UsageError: as :func:`load_deck`.
    """
    from cardlab.formats import load_formats
    from cardlab.validate import load_catalog

    formats = load_formats(roots)
    catalog = load_catalog(roots)
    return load_deck(Path(path), catalog, formats, format_name)


def check_file(path: Path, roots: list[Path], format_name: str | None = None) -> DeckReport:
    """Check a deck file against a format: every violation at once.

    Args:
        path: the deck file (text or YAML).
        roots: catalog roots (cards and ``<game>/formats/``), see :func:`cardlab.paths.catalog_roots`.
        format_name: the format; None uses the one the file names.

    Returns:
        A :class:`DeckReport`; ``legal`` when it has no problem.

    Raises:
        InputError: the file cannot be read (exit 2); UsageError: no or unknown format (exit 2);
        CatalogError / DataError: the catalog or a format file is wrong (exit 1).
    """
    from cardlab.rules import check_deck

    deck = open_deck(path, roots, format_name)
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
