"""Pages rendered from the Jinja2 templates, and the shapes the pages and API show: a deck report as
JSON, a pasted deck's lines with their problems.

The templates are built once per app (:func:`templates`, on ``app.state.templates``); :func:`page`
renders one with the request's :class:`~cardlab.web.state.Site`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from cardlab.core.fuzzy import did_you_mean_words
from cardlab.core.text import visible
from cardlab.i18n.negotiate import template_globals

if TYPE_CHECKING:
    from cardlab.decks.check import DeckReport

HERE = Path(__file__).resolve().parent


def templates() -> Jinja2Templates:
    """Jinja2 templates from ``templates/``, every one autoescaped, with the words of the request's
    language (:func:`cardlab.i18n.negotiate.template_globals`: ``t``, ``words``, ``page_lang``)."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals.update(template_globals())
    return Jinja2Templates(env=env)


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """Render the template ``name`` with ``context`` (plus ``site`` and a default title) and ``status``."""
    context["title"] = visible(context.get("title", "cardlab"))  # a NUL typed in a query never reaches <title>
    state = request.app.state
    return state.templates.TemplateResponse(request, name, {"site": state.site, **context}, status_code=status)


def report_json(report: DeckReport) -> dict[str, Any]:
    """Return a deck report as the API gives it (:meth:`DeckReport.to_json` without the server-side file name)."""
    data = report.to_json()
    data.pop("file", None)
    for p in [*data["problems"], *data.get("notes", [])]:
        p.pop("path", None)
    return {"object": "deck_report", **data}


def lines_with_problems(text: str, reports: Sequence) -> tuple[list[dict[str, Any]], list]:
    """Pair each line of the pasted text with the problems reported at it, the lines split as the deck
    parser splits them (:func:`cardlab.core.inputs.split_lines`: at ``\\n``, ``\\r\\n`` and ``\\r`` only).

    A problem several formats report alike (the same rule and message at the same line) is shown
    once, with the formats it concerns (``"all"`` when it is every format checked). Its "did you
    mean" may differ (each format suggests among its own cards): the problem is still one, shown
    with the first format's suggestions.

    Returns:
        ``([{"number", "text", "problems": [(formats, Problem), ...], "notes": []}, ...],
        [(formats, Problem) at no line]``; ``formats`` is the names joined by ``, `` or ``"all"``.
    """
    from cardlab.core.inputs import split_lines

    # the deck parser's own splitter (cardlab.decks.parse_text): \f, \v, NEL, U+2028... are spaces, not breaks
    rows = [{"number": i, "text": line, "problems": [], "notes": []} for i, line in enumerate(split_lines(text), start=1)]
    seen: dict[tuple[int, str, str], list[str]] = {}
    found: dict[tuple[int, str, str], Any] = {}
    mean = did_you_mean_words()  # the suggestions, in the page's language
    for report in reports:
        for p in report.problems:
            key = (p.pos.line, p.rule, p.message.split(mean)[0])
            seen.setdefault(key, []).append(report.deck.format.name)
            found.setdefault(key, p)
    loose = []
    for key, names in seen.items():
        where = "all" if len(names) == len(reports) and len(reports) > 1 else ", ".join(names)
        p = found[key]
        if 1 <= p.pos.line <= len(rows):
            rows[p.pos.line - 1]["problems"].append((where, p))
        else:
            loose.append((where, p))
    return rows, loose
