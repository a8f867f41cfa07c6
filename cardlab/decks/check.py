"""Deck lists: read plain-text or YAML deck files into entries with line numbers, then resolve them
against the catalog (:mod:`cardlab.decks.resolve`, whose names are re-exported here) into a :class:`Deck`
that the rules of a format (``cardlab.decks.rules``) check.

Plain text, the way players paste lists (one card per line)::

    Format: pokemon-base            # optional; names the format (any case, spaces or underscores)
    Deck: Zap                       # or Name: Zap, Deck name: Zap; the deck's name
    Pokémon: 12                     # a header; its declared total is checked
    4 Pikachu                       # also 4x Pikachu, 4 x Pikachu, x4 Pikachu, Pikachu x4, Bill ×4
    4 Pikachu BS 58                 # set code or alias + collector number (PTCGO/PTCGL style)
    4 Pikachu (BS #58)              # the same, as other exporters write it
    4 Pikachu 58/102                # collector number / the set's printed total
    4 base1-58                      # a card id
    12 {L} Energy                   # energy symbols as exports write them; also Basic {L} Energy
    SB: 2 Gust of Wind              # a sideboard line, like the Sideboard: header
    // comments start with // or #  (but ##Pokémon is a header, and Total Cards: 60 too)

Blank lines, CRLF, a UTF-8 BOM, tabs and trailing spaces are fine; so are decorations (``=== Pokémon
===``, ``***4 Bill``: the card is read, never dropped). ``-`` as the file name reads standard input. A header naming a section of the
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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import Problem, SourcePos
from cardlab.core.text import pick
from cardlab.decks.model import Deck, DeckCard, DeckList
from cardlab.decks.read import read_deck
from cardlab.decks.resolve import build_deck

if TYPE_CHECKING:
    from cardlab.catalog.model import Catalog
    from cardlab.catalog.formats import Format

__all__ = ["DeckReport", "check_file", "choose_format", "deck_list", "describe_entry", "find_format", "header_words",
           "load_deck", "open_deck"]



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

    deck_list = read_deck(path, header_words(formats))
    name = format_name or deck_list.format
    known = ", ".join(sorted(formats)) or "none"
    if not name:
        bad = next((p for p in deck_list.problems if p.rule == "schema" and deck_list.format_line
                    and p.pos.line == deck_list.format_line), None)
        if bad is not None:
            raise UsageError(f"{bad.pos}: {bad.message}: the format must be a name such as pokemon-base; "
                             f"fix it or use --format NAME (formats: {known})")
        raise UsageError(f"{path}: no format given; use --format NAME or a 'Format: NAME' line (formats: {known})")
    deck, _problems, _notes = choose_format(deck_list, catalog, formats, format_name, langs)
    return deck


def choose_format(deck_list: DeckList, catalog: Catalog, formats: dict[str, Format], format_name: str | None = None,
                  langs: Sequence[str] = ()) -> tuple[Deck, list[Problem], list[str]]:
    """Match a parsed deck list under the format it should be checked against, and check it.

    The format is ``format_name`` (any case), else the one the file names, else the format (of any
    game) under which the list has the fewest unknown cards, then the fewest problems (ties: by
    name), so a plain list of Base Set cards works. ``deck validate`` and ``proxies`` both use it.

    Returns:
        ``(deck, problems from the format's rules and the list, notes)``; ``notes`` says which format
        was chosen when the deck names none.

    Raises:
        UsageError: an unknown format name, or a catalog with no format at all (exit 2).
    """
    from cardlab.core.errors import UsageError
    from cardlab.decks.rules import check_deck

    name = format_name or deck_list.format
    known = ", ".join(sorted(formats)) or "none"
    if name:
        found = find_format(formats, name)
        if found is None:
            where = f"{SourcePos(deck_list.path, deck_list.format_line)}: " if not format_name and deck_list.format_line else ""
            raise UsageError(f"{where}unknown format '{name}' (formats: {known})")
        deck = build_deck(deck_list, catalog, found, langs=langs)
        return deck, check_deck(deck), []
    if not formats:
        raise UsageError("the catalog defines no deck format to read the deck with")
    best: tuple[tuple[int, int, str], Deck, list[Problem]] | None = None
    for fmt in formats.values():
        deck = build_deck(deck_list, catalog, fmt, langs=langs)
        problems = check_deck(deck)
        key = (sum(p.rule == "unknown-card" for p in problems), len(problems), fmt.name)
        if best is None or key < best[0]:
            best = (key, deck, problems)
    assert best is not None
    _, deck, problems = best
    return deck, problems, [f"checked against {deck.format.name} (the deck names no format; use --format)"]


def header_words(formats: dict[str, Format]) -> set[str]:
    """The folded header words of every format (section and group words), for :func:`read_deck`."""
    words: set[str] = set()
    for fmt in formats.values():
        words.update(fmt.header_words())
    return words


def find_format(formats: dict[str, Format], name: str) -> Format | None:
    """Return the format called ``name`` whatever its case, accents, spaces or underscores
    (``POKEMON-BASE``, ``Pokemon Base``, ``pokemon_base``), or None."""
    from cardlab.core.text import norm_value

    if name in formats:
        return formats[name]
    wanted = norm_value(name.strip())
    return next((f for n, f in formats.items() if norm_value(n) == wanted), None)


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
                "problems": [p.to_json() for p in self.problems],
                "catalog_problems": [p.to_json() for p in self.deck.catalog_problems]}


def open_deck(path: Path, roots: list[Path], format_name: str | None = None, langs: Sequence[str] = ()) -> Deck:
    """Load the catalog and formats under ``roots``, then read and match a deck file (card names
    in messages in the first of ``langs`` a card has, see :func:`load_deck`).

    A catalog with invalid files (a draft from ``card new``) is still used: the deck is checked
    against the valid cards and formats, and the catalog's problems are kept in
    ``Deck.catalog_problems`` as warnings; the deck's own verdict is the answer.

    Raises:
        CatalogError: the catalog's problems leave no format to check the deck with.
        InputError, UsageError: as :func:`load_deck`.
    """
    from cardlab.core.errors import CatalogError
    from cardlab.catalog.validate import validate

    from cardlab.core.errors import UsageError

    result = validate(list(roots))  # cards and formats in one (cached) pass
    if result.problems and not result.formats:
        raise CatalogError(result.problems)
    try:
        deck = load_deck(Path(path), result.catalog, dict(sorted(result.formats.items())), format_name, langs)
    except UsageError as err:
        broken_formats = [p for p in result.problems if p.pos.path.parent.name == "formats"]
        if broken_formats and "unknown format" in str(err):
            raise CatalogError(broken_formats) from None  # the format asked for is the broken file
        raise
    deck.catalog_problems = list(result.problems)
    return deck


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
        CatalogError: the catalog's problems leave no format (exit 1); problems of other catalog
            files are warnings in ``report.deck.catalog_problems``.
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
