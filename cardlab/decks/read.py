"""Reading a deck file: size, binary and empty checks, then the text, YAML (and JSON, ``deck list -O
json``) or Cockatrice (``.cod``) parser by suffix; a pasted list or standard input that starts like
XML is read as a Cockatrice deck, one that starts like a JSON object as a deck document."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from cardlab.core.errors import InputError, Problem, SourcePos
from cardlab.core.inputs import LoadError, as_path, read_text
from cardlab.core.l10n import _
from cardlab.decks.model import MAX_DECK_BYTES, DeckList
from cardlab.decks.parse_cod import looks_like_cod, parse_cod
from cardlab.decks.parse_text import parse_text
from cardlab.decks.parse_yaml import parse_yaml

STDIN = "-"
"""The file name that means standard input (``cardlab deck validate - < deck.txt``)."""
STDIN_NAME = "<stdin>"
"""How positions name standard input."""


def _read_stdin() -> str:
    """Read a plain-text deck list from standard input: at most :data:`MAX_DECK_BYTES` + 1 bytes."""

    where = SourcePos(Path(STDIN_NAME), 1, 1)
    stream = getattr(sys.stdin, "buffer", None)
    raw = stream.read(MAX_DECK_BYTES + 1) if stream is not None else (sys.stdin.read(MAX_DECK_BYTES + 1) or "").encode()
    if len(raw) > MAX_DECK_BYTES:
        raise LoadError(
            Problem(
                where, _("standard input holds more than {limit} bytes; the limit is {limit}").format(limit=f"{MAX_DECK_BYTES:,}"), "file"
            )
        )
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise LoadError(Problem(where, _("not UTF-8 text"), "encoding")) from None


def looks_like_json(text: str) -> bool:
    """True when a pasted list or standard input is a JSON object (``deck list -O json`` output):
    it starts with ``{`` followed by a key or the object's end (a text list never starts so: ``{L}
    Energy`` has a letter after the brace)."""
    head = text.lstrip()[:2]
    return head.startswith("{") and (len(head) == 1 or head[1] in '"} \t\r\n')


def read_deck(path: Path, header_words: Iterable[str] = ()) -> DeckList:
    """Read and parse a deck file: YAML for ``.yaml``/``.yml``, a Cockatrice deck for ``.cod`` (or
    text that starts with ``<?xml`` or ``<cockatrice_deck``), plain text otherwise.

    Args:
        path: the deck file; ``-`` reads a plain-text list from standard input.
        header_words: extra header words (folded) that make a line a header even without a colon
            (formats' section and group words, see :meth:`cardlab.catalog.formats.Format.header_words`).

    Returns:
        The parsed :class:`DeckList` (problems inside).

    Raises:
        InputError: the file is missing, larger than :data:`MAX_DECK_BYTES`, binary (NUL bytes or
            not UTF-8), holds no card line (blank, comments, headers or a format line only; a YAML
            deck with empty lists), YAML that does not parse or whose top level is not a mapping, a
            ``.cod`` file that is not well-formed XML or not a Cockatrice deck (exit code 2).
    """

    path = as_path(path)
    try:
        text = _read_stdin() if str(path) == STDIN else read_text(path, max_bytes=MAX_DECK_BYTES)
        if str(path) == STDIN:
            path = Path(STDIN_NAME)
    except LoadError as err:
        problem = err.problem
        if problem.rule == "encoding":
            raise InputError(f"{problem.pos}: " + _("binary file or not UTF-8 text; a deck list is plain text")) from None
        raise InputError(str(problem.pos) + ": " + problem.message) from None
    return parse_deck_text(text, path, header_words)


def parse_deck_text(text: str, path: Path | str, header_words: Iterable[str] = ()) -> DeckList:
    """Parse a deck list given as text (pasted into a page, sent to an API), as :func:`read_deck`
    parses a file's contents: YAML when ``path`` ends in ``.yaml``/``.yml``, plain text otherwise.

    Args:
        text: the deck list (a UTF-8 BOM is dropped).
        path: the name positions are reported under (``deck.txt``); nothing is read from it.
        header_words: as :func:`read_deck`.

    Returns:
        The parsed :class:`DeckList` (problems inside).

    Raises:
        InputError: the text is larger than :data:`MAX_DECK_BYTES` (UTF-8), holds a NUL byte, or holds
            no card line; YAML whose top level is not a mapping (exit code 2).
    """

    path = as_path(path)
    text = text.removeprefix("\ufeff")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_DECK_BYTES:
        raise InputError(
            f"{SourcePos(path, 1)}: "
            + _("the deck list is {size} bytes; the limit is {limit}").format(size=f"{size:,}", limit=f"{MAX_DECK_BYTES:,}")
        )
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError(f"{SourcePos(path, line)}: " + _("binary file (a NUL byte); a deck list is plain text"))
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml", ".json") or looks_like_json(text):  # JSON is YAML 1.2: a deck document
        deck = parse_yaml(text, path, header_words)
    elif suffix == ".cod" or looks_like_cod(text):
        deck = parse_cod(text, path)
    else:
        deck = parse_text(text, path, header_words)
    empty = next((p for p in deck.problems if p.rule == "empty"), None)
    if empty and not deck.entries and all(p.rule in ("empty", "format-conflict") for p in deck.problems):
        example = {".yaml": "main: [4 Pikachu]", ".yml": "main: [4 Pikachu]", ".json": '{"main": ["4 Pikachu"]}'}.get(suffix, "4 Pikachu")
        if suffix == ".cod" or looks_like_cod(text):
            example = '<card number="4" name="Pikachu"/>'
            raise InputError(
                f"{empty.pos}: "
                + _("the Cockatrice deck holds no cards; a deck's zone holds elements like '{example}'").format(example=example)
            )
        raise InputError(
            f"{empty.pos}: " + _("{problem}; a deck list has lines like '{example}'").format(problem=empty.message, example=example)
        )
    return deck
