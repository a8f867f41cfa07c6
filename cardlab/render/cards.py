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

from cardlab.core import words
from cardlab.core.errors import Problem
from cardlab.core.text import visible

if TYPE_CHECKING:
    from cardlab.games.base import Span


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


def hits(rows: Sequence, console: Console) -> None:
    """Print search hits (:class:`cardlab.search.hits.Hit`) as a rich table for a terminal, then the
    count. Piped output and the other formats are :func:`cardlab.render.plain.hits`."""
    table = Table(box=None, header_style="bold", pad_edge=False, expand=False)
    table.add_column("Id", no_wrap=True, style="cyan")
    table.add_column("Name", ratio=3)
    table.add_column("Type", ratio=3)
    table.add_column("Stats", ratio=3)
    table.add_column("Rarity", ratio=1)
    for h in rows:
        table.add_row(escape(h.id), escape(h.name), escape(h.type_line), escape(h.stats), escape(h.rarity or ""))
    console.print(table)
    console.print(f"[dim]{words.count(len(rows), 'card')}[/]")


def markup(spans: Iterable[Span]) -> str:
    """Return a game's neutral detail spans (:class:`cardlab.games.base.Span`) as rich markup: each
    span's text escaped, in ``[style]...[/]`` when it has a style tag (``Span("R", "red")`` gives
    ``[red]R[/]``)."""
    return "".join(f"[{s.style}]{escape(s.text)}[/]" if s.style else escape(s.text) for s in spans)


def card(view, console: Console, langs: Sequence[str] = ()) -> None:  # noqa: ANN001 - search.hits.CardView
    """Print a whole card as a panel: names, type line, the game's details, set and number."""
    from cardlab.core.text import pick
    from cardlab.games import get

    data, src = view.data, view.set_data.get("source_language", "en")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for row in get(view.game).details(data, langs, src):
        table.add_row(escape(row.label), markup(row.spans))
    names = ", ".join(f"{lang}: {escape(text)}" for lang, text in data["name"].items() if lang != "_source")
    table.add_row("Names", names)
    set_name = pick(view.set_data.get("name"), langs, src)
    number = f"{data['number']}/{view.set_data['printed_total']}" if view.set_data.get("printed_total") else data["number"]
    table.add_row("Set", f"{escape(set_name)} ({view.set_data['code']}) · {number}")
    for label, key in (("Rarity", "rarity"), ("Illustrator", "illustrator")):
        if data.get(key):
            table.add_row(label, escape(str(data[key])))
    if data.get("printed_name"):
        table.add_row("Printed as", escape(pick(data["printed_name"], langs, src)))
    if data.get("transcribed") is False:
        table.add_row("Transcribed", f"not yet: the rules text is recorded in another language, not from the card ({escape(src)})")
    if len(getattr(view, "printings", ())) > 1:
        shown = [
            f"{escape(pid)}{' (this one)' if pid == view.id else ''} · {escape(code)} {escape(number)}"
            f"{' · ' + escape(rarity) if rarity else ''}"
            for pid, code, number, rarity in view.printings
        ]
        table.add_row("Printings", "\n".join(shown))
    title = f"[bold]{escape(pick(data['name'], langs, src))}[/]  [dim]{escape(view.id)}[/]"
    console.print(Panel(table, title=title, title_align="left", expand=False))


def lines(texts: Iterable[str], console: Console) -> None:
    """Print plain lines (no markup)."""
    for t in texts:
        console.out(t, highlight=False)
