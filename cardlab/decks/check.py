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

import dataclasses
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from cardlab.catalog.validate import validate
from cardlab.core.errors import CatalogError, Problem, SourcePos, UsageError
from cardlab.core.l10n import _
from cardlab.core.paths import default_db
from cardlab.core.text import norm_value, pick
from cardlab.decks.model import Deck, DeckCard, DeckList
from cardlab.decks.read import parse_deck_text, read_deck
from cardlab.decks.resolve import CardIndex, build_deck, lookups
from cardlab.decks.rules import check_deck
from cardlab.index.sqlite import is_own_cache_file
from cardlab.index.stored import StoredCatalog, open_catalog

if TYPE_CHECKING:
    from cardlab.catalog.formats import Format
    from cardlab.catalog.model import Catalog

__all__ = [
    "DeckReport",
    "FormatResult",
    "LegalityReport",
    "card_index",
    "check_deck_file",
    "check_file",
    "check_list",
    "choose_format",
    "deck_list",
    "describe_entry",
    "export_json",
    "export_text",
    "find_format",
    "header_words",
    "legality",
    "load_deck",
    "open_deck",
]


def load_deck(path: Path, catalog: Catalog, formats: dict[str, Format], format_name: str | None = None, langs: Sequence[str] = ()) -> Deck:
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
    return resolve_deck(read_deck(path, header_words(formats)), catalog, formats, format_name, langs)


def resolve_deck(
    deck_list: DeckList, catalog: Catalog, formats: dict[str, Format], format_name: str | None = None, langs: Sequence[str] = ()
) -> Deck:
    """Match a parsed deck list to the catalog under the format given or named (:func:`load_deck`
    without reading the file again: a deck from standard input is read once).

    Raises:
        UsageError: no format given or named in the list, or an unknown format name (exit 2).
    """
    path = deck_list.path
    name = format_name or deck_list.format
    known = _known(formats)
    if not name:
        bad = next(
            (p for p in deck_list.problems if p.rule == "schema" and deck_list.format_line and p.pos.line == deck_list.format_line), None
        )
        if bad is not None:
            raise UsageError(
                f"{bad.pos}: "
                + _("{problem}: the format must be a name such as pokemon-base; fix it or use --format NAME (formats: {known})").format(
                    problem=bad.message, known=known
                )
            )
        raise UsageError(
            f"{path}: " + _("no format given; use --format NAME or a 'Format: NAME' line (formats: {known})").format(known=known)
        )
    deck, _problems, _notes = choose_format(deck_list, catalog, formats, format_name, langs)
    return deck


MAX_CACHED_INDEXES = 32
"""Most :class:`CardIndex` values one ``indexes`` cache keeps (one per game and language list)."""


def card_index(indexes: dict | None, catalog: Catalog, game: str, langs: Sequence[str] = ()) -> CardIndex | None:
    """Return the :class:`CardIndex` of ``game`` for ``langs`` from the cache ``indexes`` (building and
    keeping it, up to :data:`MAX_CACHED_INDEXES`), or None when ``indexes`` is None (build per deck).

    A server checking many decks against one catalog passes the same dict each time: matching a deck
    then costs its lines, not the catalog's size.
    """
    if indexes is None:
        return None
    key = (id(catalog), game, tuple(langs))
    index = indexes.get(key)
    if index is None:
        index = CardIndex(catalog, game, langs)
        if len(indexes) < MAX_CACHED_INDEXES:
            indexes[key] = index
    return index


def _known(formats: dict[str, Format]) -> str:
    """The format names a message lists, sorted (``none`` when there is none)."""
    return ", ".join(sorted(formats)) or "none"


def choose_format(
    deck_list: DeckList,
    catalog: Catalog,
    formats: dict[str, Format],
    format_name: str | None = None,
    langs: Sequence[str] = (),
    indexes: dict | None = None,
) -> tuple[Deck, list[Problem], list[str]]:
    """Match a parsed deck list under the format it should be checked against, and check it
    (:func:`check_list`, keeping only the chosen format's result).

    The format is ``format_name`` (any case), else the one the file names, else the format (of any
    game) under which the list has the fewest unknown cards, then the fewest problems (ties: by
    name), so a plain list of Base Set cards works.

    Returns:
        ``(deck, problems from the format's rules and the list, notes)``; ``notes`` says which format
        was chosen when the deck names none.

    Raises:
        UsageError: an unknown format name, or a catalog with no format at all (exit 2).
    """
    report = check_list(deck_list, catalog, formats, format_name, langs, indexes)
    return report.best.deck, report.best.problems, report.notes


def check_list(
    deck_list: DeckList,
    catalog: Catalog,
    formats: dict[str, Format],
    format_name: str | None = None,
    langs: Sequence[str] = (),
    indexes: dict | None = None,
) -> LegalityReport:
    """The one deck checker (issue 27): every door (``deck validate|stats|list|have``, the web page
    and API, proxies, the mini-games) checks a parsed list through here.

    The format is the one asked for (``format_name``, any case), else the list's own ``Format:``
    line, else none: the list is then checked under every format of its game (the survey): the
    game is the one whose cards the most lines name (ties: the game with the most sets in the
    catalog, so a list that names no card at all is read as the catalog's main game, with "did you
    mean"), and the best fit the format with the fewest problems (ties: the narrowest, the one with
    the fewest allowed sets, then by name). Each line is looked up once per game (:func:`cardlab.decks.resolve.lookups`) and the
    list built once per format (:func:`cardlab.decks.resolve.build_deck`), a name alone read as
    a judge of that format reads it.

    Args:
        deck_list: the parsed list (:func:`cardlab.decks.read.read_deck`, ``parse_deck_text``).
        catalog, formats: the catalog and its formats by name.
        format_name: the format asked for, or None.
        langs: preferred languages of card names in messages.
        indexes: a cache of card indexes kept between calls (:func:`card_index`); None: this call's.

    Returns:
        A :class:`LegalityReport`: one :class:`FormatResult` under the format asked for or named
        (``surveyed`` False), else one per format of the list's game (``surveyed`` True); ``best``
        is the one to show, count and print.

    Raises:
        UsageError: an empty or unknown format name, a ``Format:`` line that is no name, or a
            catalog with no format at all (exit 2).
    """
    if format_name is not None and not format_name.strip():
        raise UsageError(_("the format name is empty; give one such as pokemon-base (formats: {known})").format(known=_known(formats)))
    indexes = {} if indexes is None else indexes
    name = format_name or deck_list.format
    if name:
        found = find_format(formats, name)
        if found is None:
            where = f"{SourcePos(deck_list.path, deck_list.format_line)}: " if not format_name and deck_list.format_line else ""
            from cardlab.core.fuzzy import did_you_mean, suggest  # lazy: rapidfuzz, only when a format name is wrong

            close = suggest(name, list(formats))
            hint = did_you_mean(close)
            raise UsageError(
                where + _("unknown format '{name}'{mean} (formats: {known})").format(name=name, mean=hint, known=_known(formats))
            )
        deck = build_deck(deck_list, catalog, found, card_index(indexes, catalog, found.game, langs), langs=langs)
        return LegalityReport(deck_list.path, found.game, [FormatResult(deck, check_deck(deck))], found.name, surveyed=False)
    bad = next(
        (p for p in deck_list.problems if p.rule == "schema" and deck_list.format_line and p.pos.line == deck_list.format_line), None
    )
    if bad is not None:
        raise UsageError(
            f"{bad.pos}: "
            + _("{problem}: the format must be a name such as pokemon-base; fix it or use --format NAME (formats: {known})").format(
                problem=bad.message, known=_known(formats)
            )
        )
    if not formats:
        raise UsageError(_("the catalog defines no deck format to read the deck with"))
    # the game first: the one whose cards the most lines name (each line looked up once per game,
    # without "did you mean"); then every format of that game, the list built once per format
    found_by_game: dict[str, list] = {}
    unknown: dict[str, int] = {}
    held = {f.game for f in formats.values()}
    sets_of = {game: sum(info.game == game for info in catalog.sets.values()) for game in held}
    # ties go to the game with the most sets (the catalog's main game), so a list none of whose
    # lines names a card is read as that game's, with "did you mean" for each line
    order = sorted(held, key=lambda g: (-sets_of[g], g))
    winner = order[0]
    for game in order:
        index = card_index(indexes, catalog, game, langs)
        assert index is not None
        fewest = unknown.get(winner)
        # a later game must have fewer unknown lines to win: its lookups stop once it cannot
        looked = lookups(deck_list, index, suggest=False, give_up=None if fewest is None else fewest - 1)
        found_by_game[game] = looked
        unknown[game] = sum(not ids for ids, _message, _rule in looked) + (len(deck_list.entries) - len(looked))
        if fewest is not None and unknown[game] < fewest:
            winner = game
    results: list[FormatResult] = []
    best: tuple[tuple[int, int, int, str], FormatResult] | None = None
    memo: dict = {}  # rules shared between formats (rules.check_deck)
    for fmt in formats.values():
        if fmt.game != winner:
            continue
        index = card_index(indexes, catalog, fmt.game, langs)
        assert index is not None
        matched = found_by_game[fmt.game]
        if unknown[winner]:  # unknown lines: "did you mean" among the names of this format's cards first, as with -f
            matched = lookups(deck_list, index, fmt.allowed_sets)
        deck = build_deck(deck_list, catalog, fmt, index, langs, matched)
        result = FormatResult(deck, sorted(check_deck(deck, memo)))
        results.append(result)
        pool = len(fmt.allowed_sets or ()) or 10**6  # the narrowest format a list fits: Base-Jungle's theme decks are Base-Jungle's
        key = (sum(p.rule == "unknown-card" for p in result.problems), len(result.problems), pool, fmt.name)
        if best is None or key < best[0]:
            best = (key, result)
    assert best is not None
    chosen = best[1].format
    rows = sorted(results, key=lambda r: r.format.name)
    note = _("checked against {format} (the deck names no format; use --format)").format(format=_(chosen.name))
    return LegalityReport(deck_list.path, chosen.game, rows, chosen.name, surveyed=True, notes=[note])


@dataclass
class LegalityReport:
    """A deck that names no format, checked under every format of its game (as Limitless and
    Moxfield show legality badges).

    Attributes:
        path: the deck file; game: the game found from its cards.
        results: one :class:`FormatResult` per format of the game, by format name.
        chosen: the format :func:`choose_format` picks for the list (the file's, else the best fit).
        surveyed: True when no format was asked for or named (every format of the game checked).
        notes: what the check says it chose (the format of a list that names none).
        catalog: the catalog checked against, when the door that opened it keeps it
            (:func:`check_deck_file`: writers need its sets' codes).
    """

    path: Path
    game: str
    results: list[FormatResult]
    chosen: str = ""
    surveyed: bool = True
    notes: list[str] = field(default_factory=list)
    catalog: Any = field(default=None, repr=False)

    @property
    def best(self) -> FormatResult:
        """The result under :attr:`chosen` (the first result when none was recorded)."""
        return next((r for r in self.results if r.format.name == self.chosen), self.results[0])

    @property
    def legal(self) -> bool:
        """True when the deck is legal in at least one format (surveyed), else in the one asked."""
        return any(r.legal for r in self.results) if self.surveyed else self.best.legal

    @property
    def report(self) -> DeckReport:
        """The :class:`DeckReport` of :attr:`best` (what a check under one format answers)."""
        return DeckReport(self.best.deck, self.best.problems)

    @property
    def legal_in(self) -> list[str]:
        """The names of the formats the deck is legal in."""
        return [r.format.name for r in self.results if r.legal]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready. Under one format: :meth:`DeckReport.to_json`. Surveyed: file, game, legal (in
        at least one format), legal_in, chosen, formats (each result)."""
        if not self.surveyed:
            return self.report.to_json()
        return {
            "file": str(self.path),
            "game": self.game,
            "legal": self.legal,
            "legal_in": self.legal_in,
            "chosen": self.chosen,
            "formats": [r.to_json() for r in self.results],
        }


def legality(
    deck_list: DeckList, catalog: Catalog, formats: dict[str, Format], langs: Sequence[str] = (), indexes: dict | None = None
) -> LegalityReport:
    """Check a deck list under every format of its game ("is this deck legal anywhere?"):
    :func:`check_list` with no format asked for, whatever the list names.

    Raises:
        UsageError: the catalog defines no format (exit 2).
    """
    return check_list(dataclasses.replace(deck_list, format=None, format_line=0), catalog, formats, None, langs, indexes)


def header_words(formats: dict[str, Format]) -> set[str]:
    """The folded header words of every format (section and group words), for :func:`read_deck`."""
    words: set[str] = set()
    for fmt in formats.values():
        words.update(fmt.header_words())
    return words


def find_format(formats: dict[str, Format], name: str) -> Format | None:
    """Return the format called ``name`` whatever its case, accents, spaces or underscores
    (``POKEMON-BASE``, ``Pokemon Base``, ``pokemon_base``), also without its game's prefix
    (``Base-Fossil``: ``pokemon-base-fossil``), or None."""

    if name in formats:
        return formats[name]
    wanted = norm_value(name.strip())
    found = next((f for n, f in formats.items() if norm_value(n) == wanted), None)
    if found is None:  # as forums write it, without the game: "Base-Fossil" is pokemon-base-fossil
        found = next((f for n, f in formats.items() if norm_value(n) == norm_value(f"{f.game} {name}")), None)
    return found


def describe_entry(card: DeckCard) -> dict[str, Any]:
    """Return a JSON-ready dict of a matched line: line, count, id (the printing assumed for a name
    alone), name, section, candidates (every printing a name alone may be, the assumed first;
    ``[]`` for a line that names its printing)."""
    return {
        "line": card.line,
        "count": card.count,
        "id": card.card_id,
        "name": card.name,
        "section": card.section,
        "candidates": list(card.candidates),
    }


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
        return {
            "file": str(self.deck.path),
            "format": fmt.name,
            "game": fmt.game,
            "legal": self.legal,
            "cards": self.deck.size("main"),
            "sections": {s.id: self.deck.size(s.id) for s in fmt.sections},
            "problems": [p.to_json() for p in self.problems],
            "notes": [p.to_json() for p in self.deck.notes],
            "lines": [describe_entry(c) for c in self.deck.cards],
            "catalog_problems": [p.to_json() for p in self.deck.catalog_problems],
        }


@dataclass
class FormatResult(DeckReport):
    """A deck list checked under one format (one row of a :class:`LegalityReport`): a
    :class:`DeckReport` whose format is ``deck.format``."""

    @property
    def format(self) -> Format:
        """The format the deck was checked under."""
        return self.deck.format

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: format, title, legal, cards (main deck size), problems."""
        return {
            "format": self.format.name,
            "title": self.format.title,
            "legal": self.legal,
            "cards": self.deck.size("main"),
            "problems": [p.to_json() for p in self.problems],
            "notes": [p.to_json() for p in self.deck.notes],
        }


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
    return check_deck_file(path, roots, format_name, langs).best.deck


def with_catalog(roots: list[Path], work: Any) -> Any:
    """Run ``work(catalog result, formats)`` on the catalog to check decks against
    (:func:`_usable_catalog`); when the index turns out damaged while a deck is matched (``database
    disk image is malformed``), again on the catalog validated in memory, so the answer is the same
    (cardlab's own index file is removed: the next search builds it again).

    Raises:
        CatalogError: as :func:`_usable_catalog`.
    """

    result, formats = _usable_catalog(roots)
    try:
        return work(result, formats)
    except sqlite3.DatabaseError:
        if not isinstance(result.catalog, StoredCatalog):
            raise

    try:
        db = default_db(list(roots))
        if isinstance(db, Path) and is_own_cache_file(db):
            db.unlink(missing_ok=True)
    except OSError:
        pass
    checked = validate(list(roots))
    if checked.problems and not checked.formats:
        raise CatalogError(checked.problems)
    return work(SimpleNamespace(catalog=checked.catalog, problems=list(checked.problems)), dict(sorted(checked.formats.items())))


def _usable_catalog(roots: list[Path]) -> tuple[Any, dict[str, Format]]:
    """The catalog to check decks against (:func:`cardlab.index.stored.open_catalog`: read from
    the index when it is fresh, else validated); usable while a format is left.

    Raises:
        CatalogError: the catalog's problems leave no format to check a deck with.
    """

    catalog, formats, problems = open_catalog(list(roots))
    if problems and not formats:
        raise CatalogError(problems)
    return SimpleNamespace(catalog=catalog, problems=problems), formats


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
    return check_deck_file(path, roots, format_name, langs).report  # the rules run once


def _checked(deck_list: DeckList, result: Any, formats: dict[str, Format], format_name: str | None, langs: Sequence[str]) -> LegalityReport:
    """:func:`check_list` on a catalog opened by :func:`with_catalog`, keeping the catalog's problems
    as each deck's warnings.

    Raises:
        CatalogError: the format asked for is a broken format file.
        UsageError: as :func:`check_list`.
    """

    try:
        report = check_list(deck_list, result.catalog, formats, format_name, langs)
    except UsageError as err:
        broken_formats = [p for p in result.problems if p.pos.path.parent.name == "formats"]
        if broken_formats and "unknown format" in str(err):
            raise CatalogError(broken_formats) from None  # the format asked for is the broken file
        raise
    for r in report.results:
        r.deck.catalog_problems = list(result.problems)
    report.catalog = result.catalog
    return report


def check_deck_file(path: Path, roots: list[Path], format_name: str | None = None, langs: Sequence[str] = ()) -> LegalityReport:
    """The one deck checker on a deck file (:func:`check_list`): the catalog under ``roots`` opened
    once (the index when fresh, see :func:`with_catalog`), the file read, the format asked for,
    else the file's, else every format surveyed.

    Returns:
        A :class:`LegalityReport` (``best.deck`` is the deck to count, list or print).

    Raises:
        InputError: the file cannot be read (exit 2); UsageError: an unknown format (exit 2);
        CatalogError: the catalog's problems leave no format (exit 1).
    """
    return with_catalog(
        list(roots), lambda result, formats: _checked(read_deck(Path(path), header_words(formats)), result, formats, format_name, langs)
    )


def check_deck_text(text: str, name: str, roots: list[Path], format_name: str | None = None, langs: Sequence[str] = ()) -> LegalityReport:
    """:func:`check_deck_file` for a list held as text (a saved deck): parsed as ``name`` says
    (``.yaml`` as YAML, else text), checked on the catalog under ``roots`` opened once.

    Raises:
        InputError: the text holds no deck; UsageError, CatalogError: as :func:`check_deck_file`.
    """
    return with_catalog(
        list(roots),
        lambda result, formats: _checked(parse_deck_text(text, name, header_words(formats)), result, formats, format_name, langs),
    )


def deck_list(deck: Deck, langs: Iterable[str] = (), source_of: Any = None) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Return the matched deck list by section, with names in the preferred languages.

    Args:
        deck: a matched :class:`Deck`.
        langs: preferred languages, first first; a card's source language is the fallback.
        source_of: a function card id -> source language (default: the card's own, recorded when the
            deck was matched).

    Returns:
        ``[(section id, [(copies, name, card id), ...]), ...]``: sections in the format's order,
        cards in file order, copies of the same card on several lines added up.
    """
    out = []
    for section in deck.format.sections:
        merged: dict[str, list] = {}
        for c in deck.in_section(section.id):
            src = source_of(c.card_id) if source_of else c.source_language
            if c.card_id in merged:
                merged[c.card_id][0] += c.count
            else:
                merged[c.card_id] = [c.count, pick(c.card.get("name"), list(langs), src), c.card_id]
        if merged:
            out.append((section.id, [tuple(v) for v in merged.values()]))
    return out


def export_text(deck: Deck, langs: Iterable[str] = (), source_of: Any = None) -> str:
    """Return a matched deck as a plain-text deck list that reads back to the same cards.

    The first line names the format (``Format: pokemon-base``); each section of the format with
    cards gets a header with its total (``Deck: 60``), then one line per card:
    ``<copies> <name> <set code> <number>`` (names in ``langs``, see :func:`deck_list`). Lines that
    matched no card are left out.
    """
    lines = [f"Format: {deck.format.name}"]
    numbers = {c.card_id: (c.set_code, c.card.get("number", "")) for c in deck.cards}
    for section, rows in deck_list(deck, langs, source_of):
        sec = deck.format.section(section)
        lines.append(f"{sec.title if sec else section}: {sum(n for n, _, _ in rows)}")
        for n, name, cid in rows:
            code, number = numbers[cid]
            lines.append(f"{n} {name} {code} {number}")
    return "\n".join(lines) + "\n"


def export_json(deck: Deck, langs: Iterable[str] = (), source_of: Any = None) -> dict[str, Any]:
    """Return a matched deck as a deck document (``schema/deck.schema.json``, the shape of a YAML deck,
    so it reads back: ``cardlab deck validate deck.json``): ``{"format", "name" (when the deck has
    one), "main": [{"count", "card", "name"}, ...], and each other section of the format with cards}``;
    ``card`` is the printing the list names or the check assumed, ``name`` its name in ``langs``
    (see :func:`deck_list`)."""
    out: dict[str, Any] = {"format": deck.format.name}
    if deck.name:
        out["name"] = deck.name
    out["main"] = []
    for section, rows in deck_list(deck, langs, source_of):
        out[section] = [{"count": n, "card": cid, "name": name} for n, name, cid in rows]
    return out
