"""What ``cardlab proxies`` says on standard error: the deck check behind a selection, notes and
warnings from the layout, and the summary of the PDF written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console

from cardlab.core import words
from cardlab.render import messages
from cardlab.render.cards import stderr_console

if TYPE_CHECKING:
    from cardlab.core.errors import Problem
    from cardlab.decks.check import DeckReport
    from cardlab.proxies.pdf import DeckProblemsError, ProxyReport, Selection


def deck_check(report: DeckReport | None, notes: Sequence[str], err: Console | None = None) -> None:
    """Say which format the deck was checked against when it names none, then its problems as
    ``cardlab deck validate`` prints them (``path:line: rule: message``)."""
    err = err or stderr_console()
    for note in notes:
        messages.note(note, err)
    if report is not None and report.problems:
        from cardlab.render import decks as render_deck

        render_deck.print_report(report, err, err)


def selection(sel: Selection, err: Console | None = None) -> None:
    """Print the deck check of a selection, and a warning when ``--force`` prints a deck with problems."""
    err = err or stderr_console()
    _catalog_warnings(sel.catalog_problems, err)
    deck_check(sel.report, sel.notes, err)
    if sel.problems:
        n = len(sel.problems)
        messages.warning(f"the deck has {words.count(n, 'problem')}; printing what can be printed (--force)", err)


def refused(exc: DeckProblemsError, err: Console | None = None) -> None:
    """Print why a deck with problems was not printed: the deck check, then the error."""
    err = err or stderr_console()
    _catalog_warnings(exc.catalog_problems, err)
    deck_check(exc.report, exc.notes, err)
    messages.error(str(exc), err)


def _catalog_warnings(problems: Sequence[Problem], err: Console) -> None:
    if problems:
        from cardlab.render import decks as render_deck

        render_deck.print_catalog_warnings(problems, err, "their cards are left out; the other cards print")


def written(report: ProxyReport, err: Console | None = None) -> None:
    """Print the layout's notes and overflow warnings, then ``wrote PATH: N cards on P page(s)...``."""
    err = err or stderr_console()
    for note in report.notes:
        messages.note(note, err)
    for card_id, message in report.overflow:
        messages.warning(f"{card_id}: {message}", err)
    skipped = f", {len(report.skipped)} basic Energy left out" if report.skipped else ""
    err.print(
        f"wrote {report.path}: {report.cards} cards on {report.pages} page(s), {report.paper}, {report.bytes / 1024:.0f} kB{skipped}",
        highlight=False,
        markup=False,
    )
