"""One-line messages on standard error (errors, warnings, notes) and a :class:`CardlabError` as text.

The CLI's error handler (:mod:`cardlab.cli.errors`) calls :func:`user_error`; messages take plain
text and escape it here, so no caller writes rich markup around user data, and control characters
(a terminal escape pasted in a deck line) are written as ``\x1b`` (:func:`cardlab.core.text.visible`).
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from cardlab.core.errors import CardlabError, DataError
from cardlab.core.l10n import _
from cardlab.core.text import visible
from cardlab.render.cards import problems, problems_count, stderr_console


def user_error(err: CardlabError, console: Console | None = None) -> None:
    """Print ``err`` for a person: a :class:`DataError`'s problems one a line then a count; a query
    error with a caret under the offending character; anything else as ``error: <message>``."""
    console = console or stderr_console()
    if isinstance(err, DataError):
        problems(err.problems, console)
        n = len(err.problems)
        console.print("[red]" + _("error") + "[/]: " + _("{problems} found").format(problems=problems_count(n)))
        return
    caret = getattr(err, "caret", None)
    if caret:
        console.print("[red]" + _("error") + "[/]: " + f"{escape(visible(err.reason, lines=True))}")  # type: ignore[attr-defined]
        console.out(caret(), highlight=False)
    else:
        console.print("[red]" + _("error") + "[/]: " + f"{escape(visible(str(err), lines=True))}")


def error(text: str, console: Console | None = None) -> None:
    """Print ``error: <text>``."""
    (console or stderr_console()).print("[red]" + _("error") + "[/]: " + f"{escape(visible(text, lines=True))}", highlight=False)


def warning(text: str, console: Console | None = None) -> None:
    """Print ``warning: <text>``."""
    (console or stderr_console()).print("[yellow]" + _("warning") + "[/]: " + f"{escape(visible(text, lines=True))}", highlight=False)


def note(text: str, console: Console | None = None) -> None:
    """Print ``note: <text>``."""
    (console or stderr_console()).print("[yellow]" + _("note") + "[/]: " + f"{escape(visible(text, lines=True))}", highlight=False)


def dim(text: str, console: Console | None = None) -> None:
    """Print a progress line (``indexed 102 cards in 0.9 s``), dimmed on a terminal."""
    (console or stderr_console()).print(f"[dim]{escape(text)}[/]")
