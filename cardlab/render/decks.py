"""Rich output of the deck commands: a deck check's problems and verdict, deck statistics, and
the list of formats. Every function takes plain library values and a console (tests can pass a
recording console); the CLI imports this module inside the commands that print."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardlab.core import l10n
from cardlab.core.l10n import _
from cardlab.core.text import visible
from cardlab.decks.rules import describe
from cardlab.render.cards import problems_count

if TYPE_CHECKING:
    from cardlab.catalog.formats import Format
    from cardlab.core.errors import Problem
    from cardlab.decks.check import DeckReport, LegalityReport
    from cardlab.decks.model import Deck
    from cardlab.decks.stats import DeckStats


def print_problems(problems: Sequence[Problem], err: Console) -> None:
    """Print each problem as ``path:line: rule: message`` on ``err`` (never wrapped; one print
    call, as thousands of separate ones are slow)."""
    if problems:
        err.print(
            "\n".join(f"{escape(visible(str(p.pos)))}: [red]{escape(p.rule)}[/]: {escape(visible(p.message))}" for p in problems),
            highlight=False,
            soft_wrap=True,
        )


CHECKED_VALID = l10n.N_("the deck was checked against the valid cards")


def print_catalog_warnings(problems: Sequence[Problem], err: Console, done: str = CHECKED_VALID) -> None:
    """Warn that the catalog has invalid files; ``done`` says what was done without them."""
    if problems:
        print_problems(problems, err)
        files = len({p.pos.path for p in problems})
        err.print(
            "[yellow]"
            + _("warning")
            + "[/]: "
            + _("{n} problem(s) in {files} catalog file(s) (run 'cardlab validate'); {done}").format(
                n=len(problems), files=files, done=escape(_(done))
            ),
            highlight=False,
            soft_wrap=True,
        )


def print_notes(deck: Deck, err: Console, said: Sequence[str] = ()) -> None:
    """Print what a check assumed, never a problem, on ``err``: each of ``said`` (the format chosen
    for a list that names none) as ``note: ...``, then each of the deck's notes (the printing
    assumed for a name alone) as ``path:line: note: message``."""
    note = _("note")
    lines = [f"[yellow]{note}[/]: {escape(visible(text))}" for text in said]
    lines += [f"{escape(visible(str(p.pos)))}: [yellow]{note}[/]: {escape(visible(p.message))}" for p in deck.notes]
    if lines:
        err.print("\n".join(lines), highlight=False, soft_wrap=True)


def print_report(report: DeckReport, out: Console, err: Console) -> None:
    """Print each problem as ``path:line: rule: message`` on ``err``, the deck's notes (the
    printings assumed), then a one-line verdict."""
    fmt = report.deck.format
    print_problems(report.problems, err)
    print_notes(report.deck, err)
    n = report.deck.size("main")
    if report.legal:
        out.print(
            f"[green]{_('legal')}[/]: "
            + _("{path} under {format} ({n} cards)").format(path=escape(visible(str(report.deck.path))), format=_(fmt.name), n=n),
            highlight=False,
            soft_wrap=True,
        )
    else:
        k = len(report.problems)
        err.print(
            f"[red]{_('not legal')}[/]: "
            + _("{problems} in {path} under {format}").format(
                problems=problems_count(k), path=escape(visible(str(report.deck.path))), format=_(fmt.name)
            ),
            highlight=False,
            soft_wrap=True,
        )


FIRST_PROBLEMS = 3
"""How many problems the legality table shows per format (then "and N more")."""


def print_legality(report: LegalityReport, out: Console, err: Console | None = None) -> None:
    """Print a deck's legality in every format of its game as a table (format, verdict, the
    first problems with their lines), then a one-line summary. On a terminal the problems wrap
    in their column, one a line; piped, the table is plain text, one line per format (its
    problems joined by `` | ``), never wrapped. On ``err`` (when given), the notes of the best
    fit's check (the printings it assumed for names alone)."""
    if err is not None:
        print_notes(report.best.deck, err)
    rows: list[tuple[str, str, str, list[str]]] = []
    for r in report.results:
        if r.legal:
            rows.append((_(r.format.name), _("legal"), " (" + _("{n} cards").format(n=r.deck.size("main")) + ")", []))
            continue
        shown = [_("line {n}").format(n=p.pos.line) + f": {p.rule}: {visible(p.message)}" for p in r.problems[:FIRST_PROBLEMS]]
        more = len(r.problems) - FIRST_PROBLEMS
        if more > 0:
            shown.append(_("and {n} more").format(n=more))
        k = len(r.problems)
        rows.append((_(r.format.name), _("not legal"), f" ({problems_count(k)})", shown))
    out.print(
        f"{escape(visible(str(report.path)))}: " + _("no format named; legality in every {game} format").format(game=_(report.game)),
        highlight=False,
        soft_wrap=True,
    )
    if out.is_terminal:
        table = Table(box=None, header_style="bold", pad_edge=False, show_edge=False)
        table.add_column(_("Format"), no_wrap=True)
        table.add_column(_("Verdict"), no_wrap=True)
        table.add_column(_("First problems"), overflow="fold")
        for name, verdict, count, shown in rows:
            colour = "green" if verdict == _("legal") else "red"
            table.add_row(escape(name), f"[{colour}]{verdict}[/]{count}", escape("\n".join(shown)))
        out.print(table)
    else:
        cells = [
            (_("Format"), _("Verdict"), _("First problems")),
            *((name, verdict + count, " | ".join(shown)) for name, verdict, count, shown in rows),
        ]
        widths = [max(len(c[i]) for c in cells) for i in (0, 1)]
        text = "\n".join(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}".rstrip() for a, b, c in cells)
        out.print(text, markup=False, highlight=False, soft_wrap=True)
    n = len(report.results)
    if report.legal:
        out.print(
            f"[green]{_('legal')}[/] "
            + _("in {k} of {n} {game} formats: {names}").format(
                k=len(report.legal_in), n=n, game=_(report.game), names=", ".join(_(name) for name in report.legal_in)
            ),
            highlight=False,
            soft_wrap=True,
        )
    else:
        out.print(
            f"[red]{_('not legal')}[/] " + _("in any of the {n} {game} formats").format(n=n, game=_(report.game)),
            highlight=False,
            soft_wrap=True,
        )


def print_stats(stats: DeckStats, out: Console) -> None:
    """Print deck statistics as small tables and the odds as percentages with their formulas."""
    out.print(
        f"[bold]{_(stats.format)}[/]: "
        + _("{n} cards in the deck").format(n=stats.size)
        + (" (" + _("{n} on lines that matched no card").format(n=stats.unmatched) + ")" if stats.unmatched else "")
        + "".join(", " + _("{n} in {section}").format(n=n, section=_(s)) for s, n in stats.sections.items() if s != "main"),
        highlight=False,
        soft_wrap=True,
    )
    for title, data in ((l10n.N_("card type"), stats.by_type), (stats.energy_label, stats.by_energy), (stats.curve_label, stats.curve)):
        if not data:
            continue
        out.print(f"[bold]{_(title)}[/]", highlight=False)  # the game's labels are said already
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(no_wrap=True)
        table.add_column(justify="right")
        for key, n in data.items():
            table.add_row(l10n.words(str(key), ": "), str(n))
        out.print(table)
    for o in stats.odds:
        if o.value is None:
            shown = _("never (no such card)")
        elif o.kind == "probability":
            shown = f"{float(o.value) * 100:.2f}%"
        else:
            shown = f"{float(o.value):.3f}"
        out.print(f"{o.label}: [bold]{shown}[/]  [dim]({o.formula})[/]", highlight=False, soft_wrap=True)
    for note in stats.notes:
        out.print(_("no odds") + f": {escape(_(note))}", highlight=False, soft_wrap=True)


def print_formats(found: Sequence[Format], out: Console) -> None:
    """Print each format's name, game, title and description, then its rules with their sources.
    Wrapped to the terminal's width on a terminal; never hard-wrapped when piped."""
    soft = not out.is_terminal
    for f in found:
        out.print(f"[bold]{escape(f.name)}[/] ({f.game}): {escape(_(f.title))}", soft_wrap=soft)
        if f.description:
            out.print(f"  {escape(_(f.description))}", soft_wrap=soft)
        for r in f.rules:
            out.print(f"  - [cyan]{r.rule}[/]: {escape(describe(r))}", soft_wrap=soft)
            if r.source:
                out.print(f"    [dim]{escape(_(r.source))}[/]", soft_wrap=soft)
    if not found:
        out.print(_("no formats found"))
