"""Errors and problems: everything a user can fix, with where it is.

Checks *collect* :class:`Problem` values; code raises a :class:`CardlabError` only when work cannot
go on (an unreadable file, an unknown format). The CLI turns both into text in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path


class ExitStatus(IntEnum):
    """The exit status of every ``cardlab`` command (README, "Exit status").

    - ``OK`` (0): done; the input is valid and passes every check asked for.
    - ``CHECK_FAILED`` (1): the input is valid but fails a check (an illegal deck, deck lines
      that match no card, catalog problems, coverage under ``--fail-under``, no card matching a
      reference...).
    - ``USAGE`` (2): bad arguments or a bad query, or an input that cannot be read at all
      (missing, binary, too large, no format), or over one of cardlab's caps (a saved deck's lines
      or cards, a card's copies in a collection). typer's own usage errors exit 2 too.
    """

    OK = 0
    CHECK_FAILED = 1
    USAGE = 2

    @classmethod
    def of(cls, ok: bool) -> ExitStatus:
        """Return ``OK`` when ``ok``, else ``CHECK_FAILED``."""
        return cls.OK if ok else cls.CHECK_FAILED


@dataclass(frozen=True, order=True)
class SourcePos:
    """A place in an input file: 1-based line and column (column 0 = the whole line)."""

    path: Path
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return str(self.path)
        if self.col <= 0:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input.

    Attributes:
        pos: where it is (file, 1-based line and column).
        message: what is wrong, in words a contributor or player understands.
        rule: a short stable id of the rule broken (``schema``, ``unique-id``, ``copy-limit``...).
    """

    pos: SourcePos
    message: str
    rule: str = field(default="error")

    def __str__(self) -> str:
        return f"{self.pos}: {self.message} ({self.rule})"

    def to_json(self) -> dict:
        """Return a JSON-ready dict: path, line, column, message, rule."""
        return {"path": str(self.pos.path), "line": self.pos.line, "column": self.pos.col, "message": self.message, "rule": self.rule}


class CardlabError(Exception):
    """A problem the user can fix: the root of cardlab's one exception tree.

    ``exit_code`` is the :class:`ExitStatus` the CLI returns for it: ``CHECK_FAILED`` unless a
    subclass says ``USAGE``. A subclass may set a plain ``0``/``1``/``2``; it is turned into the
    :class:`ExitStatus` member, and any other value fails at class creation (ValueError).
    """

    exit_code: ExitStatus = ExitStatus.CHECK_FAILED

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.exit_code = ExitStatus(cls.exit_code)


class UsageError(CardlabError):
    """Bad arguments or a bad query (exit 2)."""

    exit_code = ExitStatus.USAGE


class InputError(CardlabError):
    """An input file cannot be read at all (missing, binary, too large...): exit 2."""

    exit_code = ExitStatus.USAGE


class DataError(CardlabError):
    """Bad data at a known place (exit 1). ``problems`` holds every problem found (at least one)."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        first = self.problems[0]
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        super().__init__(f"{first}{more}")


class UnreadableError(DataError):
    """An input file that cannot be read as what it should be (bytes not in its charset, binary,
    a syntax error), at a known place: positioned problems as a :class:`DataError` has, and exit 2
    as an :class:`InputError` (the input is unusable, not valid input failing a check)."""

    exit_code = ExitStatus.USAGE


class CatalogError(DataError):
    """The card catalog does not validate; the index in use is left as it was."""
