"""Rich output for the CLI: tables, card panels, problem lists. The only library module that
imports rich; every function takes plain data and a console (tests pass a recording console)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from cardlab.core import l10n
from cardlab.core.errors import Problem
from cardlab.core.l10n import _
from cardlab.core.text import visible
from cardlab.render.plain import count_line

if TYPE_CHECKING:
    from cardlab.games.base import Span
    from cardlab.search.hits import CardView


def stdout_console() -> Console:
    """Console for results: colour only on a terminal (rich also honours NO_COLOR)."""
    return Console(highlight=False, soft_wrap=False, emoji=False)


def stderr_console() -> Console:
    """Console for messages and problems, on standard error. Neither console turns ``:name:`` into an
    emoji (user text such as ``root:x:0:0`` or a card called ``:x:`` prints as written)."""
    return Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def problems(items: Sequence[Problem], console: Console, summary: str | None = None) -> None:
    """Print each problem as ``path:line:column: message (rule)``, then a one-line summary."""
    for p in items:
        console.print(f"{escape(visible(str(p.pos)))}: [red]{escape(visible(p.message))}[/] [dim]({p.rule})[/]")
    if summary:
        console.print(summary)


def problems_json(items: Sequence[Problem], console: Console, **extra: object) -> None:
    """Print problems as one JSON object: ``{"ok": bool, "problems": [...], **extra}``."""
    console.print_json(json.dumps({"ok": not items, **extra, "problems": [p.to_json() for p in items]}, ensure_ascii=False))


def hits(rows: Sequence, console: Console, total: tuple[int, bool] | None = None) -> None:
    """Print search hits (:class:`cardlab.search.hits.Hit`) as a rich table for a terminal, then the
    count (:func:`cardlab.render.plain.count_line`, ``total`` when a limit cut them). Piped output
    and the other formats are :func:`cardlab.render.plain.hits`."""
    table = Table(box=None, header_style="bold", pad_edge=False, expand=False)
    table.add_column(_("Id"), no_wrap=True, style="cyan")
    table.add_column(_("Name"), ratio=3)
    table.add_column(_("Type"), ratio=3)
    table.add_column(_("Stats"), ratio=3)
    table.add_column(_("Rarity"), ratio=1)
    for h in rows:
        table.add_row(
            escape(h.id),
            escape(h.name),
            escape(l10n.words(h.type_line)),
            escape(l10n.words(h.stats)),
            escape(_(h.rarity) if h.rarity else ""),
        )
    console.print(table)
    console.print(f"[dim]{count_line(len(rows), total)}[/]")


def problems_count(n: int) -> str:
    """Return ``1 problem``, ``3 problems`` in the interface language."""
    return (_("{n} problem") if n == 1 else _("{n} problems")).format(n=n)


def markup(spans: Iterable[Span]) -> str:
    """Return a game's neutral detail spans (:class:`cardlab.games.base.Span`) as rich markup: each
    span's text escaped, in ``[style]...[/]`` when it has a style tag (``Span("R", "red")`` gives
    ``[red]R[/]``)."""
    return "".join(f"[{s.style}]{escape(s.text)}[/]" if s.style else escape(s.text) for s in spans)


def card(view: CardView, console: Console, langs: Sequence[str] = ()) -> None:
    """Print a whole card as a panel: names, type line, the game's details, set and number, in
    the interface language (:mod:`cardlab.core.l10n`); the card it evolves from by its name in
    ``langs`` (:attr:`CardView.evolves_from_names`)."""
    from cardlab.core.text import pick
    from cardlab.games.base import common_rows

    data, src = view.data, view.set_data.get("source_language", "en")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for row in view.details(langs):
        table.add_row(escape(row.label), markup(row.spans))
    names = ", ".join(f"{lang}: {escape(text)}" for lang, text in data["name"].items() if lang != "_source")
    table.add_row(_("Names"), names)
    for row in common_rows(data, view.set_data, langs, src):
        table.add_row(escape(row.label), markup(row.spans))
    if len(getattr(view, "printings", ())) > 1:
        this_one = " (" + _("this one") + ")"
        shown = [
            f"{escape(pid)}{this_one if pid == view.id else ''} · {escape(code)} {escape(number)}"
            f"{' · ' + escape(_(rarity)) if rarity else ''}"
            for pid, code, number, rarity in view.printings
        ]
        table.add_row(_("Printings"), "\n".join(shown))
    title = f"[bold]{escape(pick(data['name'], langs, src))}[/]  [dim]{escape(view.id)}[/]"
    console.print(Panel(table, title=title, title_align="left", expand=False))


def lines(texts: Iterable[str], console: Console) -> None:
    """Print plain lines (no markup)."""
    for t in texts:
        console.out(t, highlight=False)
