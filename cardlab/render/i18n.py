"""Rich output of ``cardlab i18n``: coverage tables and the summary of a PO import."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardlab.render.cards import problems, stderr_console, stdout_console

if TYPE_CHECKING:
    from cardlab.i18n.po_import import ImportReport
    from cardlab.i18n.strings import Coverage


def coverage(cov: Coverage, console: Console | None = None) -> None:
    """Print one table per language: set, field kind, source/translated/outdated/missing counts, %."""
    from cardlab.i18n.strings import KIND_LABELS

    console = console or stdout_console()
    for code in cov.langs:
        table = Table(title=f"Translation coverage: {code}", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("set", no_wrap=True)
        table.add_column("field", no_wrap=True)
        for name in ("source", "translated", "outdated", "missing", "%"):
            table.add_column(name, justify="right", no_wrap=True)
        previous = None
        for r in [r for r in cov.rows if r.lang == code]:
            table.add_row(
                r.set_code if r.set_code != previous else "",
                KIND_LABELS[r.kind],
                str(r.total),
                str(r.translated),
                f"[yellow]{r.outdated}[/]" if r.outdated else "0",
                str(r.missing),
                f"{r.percent:.1f}",
            )
            previous = r.set_code
        t = cov.total(code)
        table.add_section()
        table.add_row("[bold]all[/]", "", str(t.total), str(t.translated), str(t.outdated), str(t.missing), f"[bold]{t.percent:.1f}[/]")
        console.print(table)


def import_report(report: ImportReport, roots: Sequence[Path], dry_run: bool, err: Console | None = None) -> None:
    """Print an import's problems and warnings on stderr, the diff on stdout for a dry run, then the summary."""
    err = err or stderr_console()
    problems(report.problems, err)
    for problem in report.warnings:
        err.print(f"{escape(str(problem.pos))}: [yellow]{escape(problem.message)}[/] [dim]({problem.rule})[/]")
    if dry_run:
        sys.stdout.write(report.diff(roots))
    err.print(escape(report.summary()))
