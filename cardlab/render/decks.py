"""Rich output of the deck commands: a deck check's problems and verdict, deck statistics, and
the list of formats. Every function takes plain library values and a console (tests can pass a
recording console); the CLI imports this module inside the commands that print."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardlab.core import words
from cardlab.core.text import visible
from cardlab.decks.rules import describe

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


def print_catalog_warnings(problems: Sequence[Problem], err: Console, done: str = "the deck was checked against the valid cards") -> None:
    """Warn that the catalog has invalid files; ``done`` says what was done without them."""
    if problems:
        print_problems(problems, err)
        files = len({p.pos.path for p in problems})
        err.print(
            f"[yellow]warning[/]: {len(problems)} problem(s) in {files} catalog file(s) (run 'cardlab validate'); {escape(done)}",
            highlight=False,
            soft_wrap=True,
        )


def print_notes(deck: Deck, err: Console, said: Sequence[str] = ()) -> None:
    """Print what a check assumed, never a problem, on ``err``: each of ``said`` (the format chosen
    for a list that names none) as ``note: ...``, then each of the deck's notes (the printing
    assumed for a name alone) as ``path:line: note: message``."""
    lines = [f"[yellow]note[/]: {escape(visible(text))}" for text in said]
    lines += [f"{escape(visible(str(p.pos)))}: [yellow]note[/]: {escape(visible(p.message))}" for p in deck.notes]
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
            f"[green]legal[/]: {escape(visible(str(report.deck.path)))} under {fmt.name} ({n} cards)", highlight=False, soft_wrap=True
        )
    else:
        k = len(report.problems)
        err.print(
            f"[red]not legal[/]: {words.count(k, 'problem')} in {escape(visible(str(report.deck.path)))} under {fmt.name}",
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
            rows.append((r.format.name, "legal", f" ({r.deck.size('main')} cards)", []))
            continue
        shown = [f"line {p.pos.line}: {p.rule}: {visible(p.message)}" for p in r.problems[:FIRST_PROBLEMS]]
        more = len(r.problems) - FIRST_PROBLEMS
        if more > 0:
            shown.append(f"and {more} more")
        k = len(r.problems)
        rows.append((r.format.name, "not legal", f" ({words.count(k, 'problem')})", shown))
    out.print(
        f"{escape(visible(str(report.path)))}: no format named; legality in every {report.game} format", highlight=False, soft_wrap=True
    )
    if out.is_terminal:
        table = Table(box=None, header_style="bold", pad_edge=False, show_edge=False)
        table.add_column("Format", no_wrap=True)
        table.add_column("Verdict", no_wrap=True)
        table.add_column("First problems", overflow="fold")
        for name, verdict, count, shown in rows:
            colour = "green" if verdict == "legal" else "red"
            table.add_row(escape(name), f"[{colour}]{verdict}[/]{count}", escape("\n".join(shown)))
        out.print(table)
    else:
        cells = [
            ("Format", "Verdict", "First problems"),
            *((name, verdict + count, " | ".join(shown)) for name, verdict, count, shown in rows),
        ]
        widths = [max(len(c[i]) for c in cells) for i in (0, 1)]
        text = "\n".join(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}".rstrip() for a, b, c in cells)
        out.print(text, markup=False, highlight=False, soft_wrap=True)
    n = len(report.results)
    if report.legal:
        out.print(
            f"[green]legal[/] in {len(report.legal_in)} of {n} {report.game} formats: {', '.join(report.legal_in)}",
            highlight=False,
            soft_wrap=True,
        )
    else:
        out.print(f"[red]not legal[/] in any of the {n} {report.game} formats", highlight=False, soft_wrap=True)


def print_stats(stats: DeckStats, out: Console) -> None:
    """Print deck statistics as small tables and the odds as percentages with their formulas."""
    out.print(
        f"[bold]{stats.format}[/]: {stats.size} cards in the deck"
        + (f" ({stats.unmatched} on lines that matched no card)" if stats.unmatched else "")
        + "".join(f", {n} in {s}" for s, n in stats.sections.items() if s != "main"),
        highlight=False,
        soft_wrap=True,
    )
    for title, data in (("card type", stats.by_type), (stats.energy_label, stats.by_energy), (stats.curve_label, stats.curve)):
        if not data:
            continue
        out.print(f"[bold]{title}[/]", highlight=False)
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(no_wrap=True)
        table.add_column(justify="right")
        for key, n in data.items():
            table.add_row(key, str(n))
        out.print(table)
    for o in stats.odds:
        if o.value is None:
            shown = "never (no such card)"
        elif o.kind == "probability":
            shown = f"{float(o.value) * 100:.2f}%"
        else:
            shown = f"{float(o.value):.3f}"
        out.print(f"{o.label}: [bold]{shown}[/]  [dim]({o.formula})[/]", highlight=False, soft_wrap=True)
    for note in stats.notes:
        out.print(f"no odds: {escape(note)}", highlight=False, soft_wrap=True)


def print_formats(found: Sequence[Format], out: Console) -> None:
    """Print each format's name, game, title and description, then its rules with their sources.
    Wrapped to the terminal's width on a terminal; never hard-wrapped when piped."""
    soft = not out.is_terminal
    for f in found:
        out.print(f"[bold]{escape(f.name)}[/] ({f.game}): {escape(f.title)}", soft_wrap=soft)
        if f.description:
            out.print(f"  {escape(f.description)}", soft_wrap=soft)
        for r in f.rules:
            out.print(f"  - [cyan]{r.rule}[/]: {escape(describe(r))}", soft_wrap=soft)
            if r.source:
                out.print(f"    [dim]{escape(r.source)}[/]", soft_wrap=soft)
    if not found:
        out.print("no formats found")
