"""Plain output, without rich: what rich would print where it prints no colour, for the paths that
do not load it (the quick ``cardlab validate`` of :mod:`cardlab.cli.entry`, a clean full one).
Standard library only."""

from __future__ import annotations

import os
import sys

from cardlab.core.words import count

_COLOUR_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
"""Variables with which rich colours output that does not go to a terminal."""


def plain_stdout() -> bool:
    """True when standard output takes no colour: it is open, not a terminal, and none of
    :data:`_COLOUR_ENV` asks rich for colours anyway (so plain text is what rich would print)."""
    if sys.stdout is None or any(os.environ.get(v) for v in _COLOUR_ENV):
        return False
    try:
        return not sys.stdout.isatty()
    except (ValueError, AttributeError):  # closed, or not a file
        return False


def clean_summary(files: int, ok: str = "ok") -> str:
    """The line ``cardlab validate`` ends with when it found nothing: ``ok: 3 files, no problems``
    (``ok`` as given: the full CLI colours it)."""
    return f"{ok}: {count(files, 'file')}, no problems"
