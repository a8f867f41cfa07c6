"""Deck matching: resolve the lines of a parsed deck list (:mod:`cardlab.deck`) to cards of the
catalog, section by section, into a :class:`Deck` that the rules of a format (``cardlab.rules``) check.

A line matches by card id (``base1-58``), by name plus set code or alias and collector number
(``Pikachu BS 58``), or by name alone, case-, accent- and apostrophe-insensitively, in every language
the catalog knows. Problems found here (rule ids): ``unknown-card``, ``ambiguous-card``,
``unknown-section``, ``section-total``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardlab.errors import Problem, SourcePos
from cardlab.text import fold, pick

if TYPE_CHECKING:
    from cardlab.catalog import Catalog
    from cardlab.deck import DeckList, Entry
    from cardlab.formats import Format

_SET_NUMBER = re.compile(r"^(?P<name>.+?)\s+\(?(?P<set>[^\W\d][\w.\-]*)\)?\s+\(?(?P<num>\d+[a-z]?)\)?$")
_CARD_ID = re.compile(r"^[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)*-[0-9a-z]+$")


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
