"""Plain-text deck lists, the way players paste them (see :mod:`cardlab.decks.check` for the dialect):
headers, totals, sideboards, format and name lines, comments and decorations, 枚 counts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from cardlab.core.errors import Problem, SourcePos
from cardlab.core.inputs import as_path, split_lines
from cardlab.core.l10n import _, quote
from cardlab.core.text import fold, norm_value
from cardlab.decks.lines import HUGE, count_problem, no_count_message, split_count, to_int
from cardlab.decks.model import MAX_COUNT, SIDEBOARD_WORDS, TOTAL_WORDS, DeckList, Entry, Header

_META = re.compile(r"^(?P<key>format|name|deck name|deck|title)\s*:\s*(?P<value>.*?)\s*$", re.IGNORECASE)
_FORMAT_NAME = re.compile(r"(?=.*[^\W\d_])[\w][\w .'&/+-]*", re.UNICODE)
"""A ``Format:`` value that can be a format name (``pokemon-base``, ``Pokémon Base``): a letter
somewhere, made of letters, digits, spaces, ``-``/``_`` and a few name marks; ``60`` is none."""
_COMMENT_TAIL = re.compile(r"\s+(?://|#)(?=\s|$).*$")  # "# comment", never "#58" (a collector number)
_SIDEBOARD_LINE = re.compile(r"^(?:sb|sideboard)\s*:\s*(?=[-+]?\d|[x×]\s*\d)", re.IGNORECASE)
_HEADER = re.compile(
    r"^(?P<label>[^\W\d][^:()]*?)\s*(?:(?P<sep>[:\-–—])\s*(?P<n>[-+]?\d+)?"
    r"|\(\s*(?P<n2>\d+)\s*\))?\s*$"
)


LOCAL_TOTAL_WORDS = frozenset(
    {"total de cartes", "karten insgesamt", "gesamtzahl der karten", "carte totali", "totale carte", "total de cartas"}
)
"""Folded header words of the whole list's total in the other languages of Pokémon TCG Live's
export (``Total de cartes : 60``, ``Karten insgesamt: 60``, ``Carte totali: 60``, ``Total de
cartas: 60``), besides :data:`cardlab.decks.model.TOTAL_WORDS`."""
ALL_TOTAL_WORDS = TOTAL_WORDS | LOCAL_TOTAL_WORDS
"""Every word of a header that gives the whole list's total."""


_DECO_CHARS = "*=-_~"
"""The characters a decoration run is made of (``***``, ``===``, ``---``, ``___``, ``~~~`` at either end
of a line, stripped; the rest of the line is read as any line: ``=== Trainers ===`` is a header,
``===4 Bill`` a card line, ``*** My deck ***`` a title, ``=== Bill`` a line without a count,
reported); a line that neither starts nor ends with one has none."""


def _run(line: str, start: int, end: int, step: int) -> int:
    """How many times ``line[start]`` repeats from ``start`` towards ``end`` (``step`` 1 or -1);
    0 when it is no decoration character."""
    char = line[start]
    if char not in _DECO_CHARS:
        return 0
    i = start
    while i != end and line[i] == char:
        i += step
    return abs(i - start)


def _starts_decorated(line: str) -> bool:
    """True when the line starts with three or more of one decoration character."""
    return bool(line) and _run(line, 0, len(line), 1) >= 3


def _ends_decorated(line: str) -> bool:
    """True when the line ends with three or more of one decoration character (read from the end:
    a pattern searched for it at every position, quadratic on a long run before the line's end)."""
    return bool(line) and _run(line, len(line) - 1, -1, -1) >= 3


def _undecorated(line: str) -> str:
    """The line without the decorations around it (``=== *** Pokémon *** ===`` -> ``Pokémon``);
    ``line`` has no space at either end.

    A decoration is a run of three or more of one of ``*=-_~`` at either end. Each round strips a
    run and the spaces after it at the start, a run and the spaces before it at the end (never
    reaching into what the start took), then the spaces at both ends, until nothing changes; read by
    index, so a line costs its length whatever its runs (a property test holds it equal to the
    decoration pattern the parser used before, substituted until nothing changed)."""
    if line[:1] not in _DECO_CHARS and line[-1:] not in _DECO_CHARS:
        return line  # most lines: nothing to strip
    start, end = 0, len(line)
    while True:
        s, e = start, end
        run = _run(line, s, e, 1) if s < e else 0
        if run >= 3:
            s += run
            while s < e and line[s].isspace():
                s += 1
        run = _run(line, e - 1, s - 1, -1) if s < e else 0
        if run >= 3:
            e -= run
            while e > s and line[e - 1].isspace():
                e -= 1
        while s < e and line[s].isspace():
            s += 1
        while e > s and line[e - 1].isspace():
            e -= 1
        if (s, e) == (start, end):
            return line[s:e]
        start, end = s, e


def _card_line(deck: DeckList, number: int, line: str, header: int | None) -> None:
    """Read one card line into ``deck``: an entry, or a ``no-count`` / ``count`` problem at its line."""
    split = split_count(line)
    if split is None:
        deck.problems.append(Problem(SourcePos(deck.path, number), no_count_message(line), "no-count"))
        return
    n, card_text = split
    problem = count_problem(deck.path, number, n, card_text)
    if problem:
        deck.problems.append(problem)
    else:
        deck.entries.append(Entry(number, n, card_text, header))


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
    words = format_words | ALL_TOTAL_WORDS | SIDEBOARD_WORDS
    deck = DeckList(path=as_path(path))
    header: int | None = None
    content = False  # any line besides blanks and comments
    entries = deck.entries
    for number, raw in enumerate(split_lines(text.removeprefix("\ufeff")), start=1):
        line = " ".join(raw.split())  # tabs and runs of spaces as one space
        count, _sep, rest = line.partition(" ")
        if (
            count.isdecimal()
            and 0 < len(count) < 19
            and rest
            and (rest[0] not in "xX×" or rest[1:2] != " ")
            and line[-1] not in _DECO_CHARS
            and "#" not in line
            and "//" not in line
        ):
            # most lines ("4 Pikachu BS 58"): digits, a space, the card, no decoration, no
            # comment, no "x" between count and card ("4 x Bill"): read as _card_line reads them
            # (the count-first pattern of split_count) when the count is fine; a test holds both equal
            n = int(count)
            if 0 < n <= MAX_COUNT:
                content = True
                entries.append(Entry(number, n, rest, header))
                continue
        if line.startswith("//"):
            continue
        # decorations around a line are dropped, never the line: ***4 Bill is a card; a line
        # wrapped in them (*** Pokémon Trading Card Game Deck List ***) is a header or a title
        bare = _undecorated(line)
        wrapped = bare != line and _starts_decorated(line) and _ends_decorated(line)
        line = bare
        if not line:
            continue
        if not wrapped and line[0].isdecimal():  # most lines: "4 Pikachu BS 58" is a card line, never a
            content = True  # format, name, sideboard or header line (each starts with a letter)
            if "#" in line or "//" in line:
                line = _COMMENT_TAIL.sub("", line)
            _card_line(deck, number, line, header)
            continue
        if wrapped and split_count(line) is None:
            m = _HEADER.match(line)
            if m and (fold(m["label"]) in words or m["sep"] == ":"):
                pass  # === Pokémon === and === Trainers: 4 === are headers
            else:
                continue  # a decorated title, like a comment
        hashed = line.startswith("#")
        content = content or not hashed
        if hashed:
            line = line.lstrip("#").strip()
        elif line.startswith(("* ", "- ", "• ")):
            line = line[2:].strip()
        if not hashed and ("#" in line or "//" in line):
            line = _COMMENT_TAIL.sub("", line)
        colon = ":" in line  # a format or name line, a sideboard line: never without one
        meta = None if hashed or not colon else _META.match(line)
        key, value = (meta["key"].lower(), meta["value"].strip()) if meta else ("", "")
        if key == "format" and not _FORMAT_NAME.fullmatch(value):
            # "Format:", "Format: 60": a schema problem at the line, as a YAML deck's bad format:
            # (the checker asks for a name or --format); never a header nor a total
            deck.meta_lines.append(number)
            if deck.format is None:
                deck.format_line = number
            shown = _("'Format: {value}' names no format").format(value=value) if value else _("the 'Format:' line names no format")
            deck.problems.append(Problem(SourcePos(deck.path, number), shown, "schema"))
            continue
        # "Deck: Zap" names the deck; "Deck:" and "Deck: 60" are the deck section header; a name line
        # whose value reads as a card line ("Deck: 4 Bill", "Name: 4 Gust of Wind") is reported as one
        card_like = bool(value) and split_count(value) is not None
        if meta and not value.isdigit() and not card_like and not (key == "deck" and not value):
            deck.meta_lines.append(number)
            if not value:
                deck.headers.append(Header(number, line, fold(key), None))  # an empty "Name:" line
                continue
            if key == "format":
                if deck.format is None:
                    deck.format, deck.format_line = value, number
                elif norm_value(value) != norm_value(deck.format):
                    deck.problems.append(
                        Problem(
                            SourcePos(deck.path, number),
                            _(
                                "a second format line names '{value}' but line {line} names '{first}' (that one is used); keep one 'Format:' line"
                            ).format(value=value, line=deck.format_line, first=deck.format),
                            "format-conflict",
                        )
                    )
            else:
                deck.name = value
            continue
        sideboard = None if hashed or not colon else _SIDEBOARD_LINE.match(line)
        if sideboard:  # SB: 2 Gust of Wind, as the Sideboard: header
            line = line[sideboard.end() :]
            deck.headers.append(Header(number, sideboard.group(0).strip(), "sideboard", None, False, True))
            _card_line(deck, number, line, len(deck.headers) - 1)
            continue
        m = _HEADER.match(line)
        if m:
            word = fold(m["label"])
            total = m["n"] or m["n2"]
            if word in words or (m["sep"] == ":" and not hashed):
                declared = to_int(total) if total is not None else None
                if declared is not None and abs(declared) >= HUGE:  # more than 18 digits: reported, not capped
                    message = _("{label} declares a total of more than 18 digits; a header's total is its number of cards").format(
                        label=quote(m["label"])
                    )
                    deck.problems.append(Problem(SourcePos(deck.path, number), message, "section-total"))
                    declared = None
                deck.headers.append(
                    Header(
                        number,
                        line,
                        word,
                        declared,
                        word in ALL_TOTAL_WORDS,
                        word in SIDEBOARD_WORDS and word not in format_words,
                    )
                )
                content = True
                if word not in ALL_TOTAL_WORDS:
                    header = len(deck.headers) - 1
                continue
        if hashed:
            continue
        _card_line(deck, number, line, header)
    if not deck.entries and all(p.rule == "format-conflict" for p in deck.problems):
        message = _("the deck list holds no cards") if content else _("the file is empty: the deck list holds no cards")
        deck.problems.append(Problem(SourcePos(deck.path, 1), message, "empty"))
    return deck
