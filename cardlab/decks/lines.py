"""One deck line's count, shared by the text and YAML parsers: ``4 Pikachu``, ``Pikachu x4``,
``4枚 テストフック``; the messages for a bad or missing count."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from cardlab.core.errors import Problem, SourcePos
from cardlab.core.l10n import _, quote
from cardlab.decks.model import MAX_COUNT

_COUNT_FIRST = re.compile(r"^(?P<n>[-+]?\d+)(?:\s*[x×])?\s+(?P<rest>\S.*)$", re.IGNORECASE)
_X_FIRST = re.compile(r"^[x×]\s*(?P<n>[-+]?\d+)\s+(?P<rest>\S.*)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(?P<rest>\S.*?)(?:\s+[x×]\s*|\s*×\s*)(?P<n>[-+]?\d+)$", re.IGNORECASE)
_MAI_FIRST = re.compile(r"^(?P<n>[-+]?\d+)\s*枚\s*(?P<rest>\S.*)$")  # 4枚 テストフック

_MAI_END = re.compile(r"(?<!\d)(\d+)\s*枚\n?\Z")
"""The whole run of digits before the final 枚 (:func:`_mai_last`): each run is read once."""


def _mai_last(line: str) -> tuple[str, str] | None:
    r"""``テストフック 4枚``, ``テストフック×4枚``: the count last, then 枚, as ``(rest, n)``, or None;
    what ``^(?P<rest>\S.*?)\s*[x×]?\s*(?P<n>[-+]?\d+)\s*枚$`` matches, in time linear in the line.

    That pattern tries every length of ``rest`` and reads the digits after each again: a line of
    200,000 digits ending in ``a枚`` took minutes. Its answer is the shortest ``rest`` whose tail is
    ``\s*[x×]?\s*[-+]?`` and the digits before ``\s*枚``: found here from the end of the line (a
    property test holds both equal)."""
    if not line or line[0].isspace():  # rest starts with a character that is not a space
        return None
    end = _MAI_END.search(line)
    if end is None:
        return None
    first, last = end.span(1)
    start = first  # the leftmost start of the tail: [x×] and spaces, then a sign, then the digits
    if start > 0 and line[start - 1] in "+-":
        start -= 1
    while start > 0 and line[start - 1].isspace():
        start -= 1
    if start > 0 and line[start - 1] in "x×":
        start -= 1
    while start > 0 and line[start - 1].isspace():
        start -= 1
    cut = max(1, start)  # rest holds one character at least
    if cut > first:  # the line starts with the digits: rest is the first one
        if last - cut < 1:
            return None
        n = line[cut:last]
    else:
        n = line[first - 1 : last] if first - 1 >= cut and line[first - 1] in "+-" else line[first:last]
    rest = line[:cut]
    return None if "\n" in rest else (rest, n)


def _matcher(pattern: re.Pattern[str]) -> Callable[[str], tuple[str, str] | None]:
    """A count pattern as a function of the line giving ``(rest, n)`` or None."""

    def match(line: str) -> tuple[str, str] | None:
        m = pattern.match(line)
        return (m["rest"], m["n"]) if m else None

    return match


_first, _x_first, _mai_first, _count_last = map(_matcher, (_COUNT_FIRST, _X_FIRST, _MAI_FIRST, _COUNT_LAST))
_ALL_PATTERNS = (_first, _x_first, _mai_first, _count_last, _mai_last)
"""The count readers in the order :func:`split_count` tries them."""
_PLAIN_PATTERNS = (_first, _x_first, _count_last)
"""The same without the 枚 ones, for a line without 枚 (which they cannot match)."""

HUGE = 10**18
"""Counts and totals are read up to this; a longer number (5,000 digits) stands as this, so no
integer conversion limit is ever reached and messages stay short."""


def to_int(digits: str) -> int:
    """``int(digits)`` for a deck count or header total, capped at :data:`HUGE` in size."""
    if len(digits) < 19 and digits.isdecimal():  # most counts: one digit, no sign
        return int(digits)
    body = digits.lstrip("+-").lstrip("0") or "0"
    sign = -1 if digits.startswith("-") else 1
    return sign * (HUGE if len(body) > 18 else int(body))


def _shown(n: int) -> str:
    return _("count {n}").format(n=n) if abs(n) < HUGE else _("a count of more than 18 digits")


def count_problem(path: Path, line: int, n: int, text: str) -> Problem | None:
    """The ``count`` problem of a line whose count is below 1 or above :data:`MAX_COUNT`, else None."""
    if n < 1:
        return Problem(
            SourcePos(path, line),
            _("{count} for {line}: a count is a whole number from 1 to {limit}").format(count=_shown(n), line=quote(text), limit=MAX_COUNT),
            "count",
        )
    if n > MAX_COUNT:
        return Problem(
            SourcePos(path, line),
            _("{count} for {line} is too large (at most {limit} on one line)").format(count=_shown(n), line=quote(text), limit=MAX_COUNT),
            "count",
        )
    return None


def no_count_message(line: str) -> str:
    """The message for a line with no count: suggest ``1 <line>`` only when the line reads like a
    bare card name (no digit, no brace); point at YAML when it looks like a YAML item."""
    if re.match(r"^(?:[\w-]+:\s*)?[\[{]", line):
        return _("this line looks like YAML ({line}); a YAML deck file must be named .yaml or .yml").format(line=quote(line))
    if re.search(r"[\d{}\[\]]", line):
        return _("cannot read a count and a card from this line ({line}); a card line looks like {example}").format(
            line=quote(line), example=quote("4 Pikachu")
        )
    return _("no count on this line ({line}); write it as {fix}").format(line=quote(line), fix=quote(f"1 {line}"))


def split_count(line: str) -> tuple[int, str] | None:
    """Split ``4 Pikachu``, ``4x Pikachu``, ``4 x Bill``, ``x4 Bill``, ``Pikachu x4``, ``Bill ×4``,
    ``4枚 テストフック``, ``テストフック 4枚`` into ``(count, card text)``; None when the line has no
    count. Counts may be 0 or negative here."""
    # the 枚 readers only where a 枚 is (with none, they cannot match)
    for read in _ALL_PATTERNS if "枚" in line else _PLAIN_PATTERNS:
        found = read(line)
        if found:
            return to_int(found[1]), found[0].strip()
    return None
