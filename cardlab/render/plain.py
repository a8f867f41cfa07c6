"""Plain output, without rich: what rich would print where it prints no colour, for the paths that
do not load it (the quick ``cardlab validate`` of :mod:`cardlab.cli.entry`, a clean full one), and
search results piped or written as ids, CSV or JSON (:func:`hits`). Standard library only.
"""

from __future__ import annotations

import os
import sys

from cardlab.core.words import count

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the quick validate path)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from cardlab.search.hits import Hit

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


def count_line(shown: int, total: tuple[int, bool] | None = None) -> str:
    """The line under a table of hits: ``102 cards``; when a limit cut them, how many match in all
    (``total``: ``(n, exact)``, a lower bound when not exact): ``10 of 102 cards``, ``10 of more
    than 1,000 cards``."""
    from cardlab.core.l10n import _

    if total is None or total[0] <= shown:
        return (_("{n} card") if shown == 1 else _("{n} cards")).replace("{n}", f"{shown:,}")
    n, exact = total
    if exact:
        return _("{shown} of {n} cards").format(shown=f"{shown:,}", n=f"{n:,}")
    return _("{shown} of more than {n} cards").format(shown=f"{shown:,}", n=f"{n - 1:,}")


def hits(rows: Sequence[Hit], fmt: str = "table", total: tuple[int, bool] | None = None) -> str:
    """Return search hits (:class:`cardlab.search.hits.Hit`) as plain text: ``table`` (aligned
    columns, one card a line, then the count), ``ids`` (one id a line), ``json`` (a list of
    :meth:`~cardlab.search.hits.Hit.to_json`) or ``csv`` (with a header); ``total`` as
    :func:`count_line`. No colour and no
    wrapping: for pipes and files (a terminal's table is :func:`cardlab.render.cards.hits`)."""
    if fmt == "ids":
        return "".join(f"{h.id}\n" for h in rows)
    # json (with re) and csv on first use, as cell_width below: the quick validate imports this module
    if fmt == "json":
        import json

        return json.dumps([h.to_json() for h in rows], ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["id", "set", "number", "name", "type", "stats", "rarity"])
        writer.writerows([h.id, h.set_code, h.number, h.name, h.type_line, h.stats, h.rarity or ""] for h in rows)
        return buf.getvalue()
    from cardlab.core import l10n
    from cardlab.core.l10n import _
    from cardlab.core.text import cell_width

    table = [(_("Id"), _("Name"), _("Type"), _("Stats"), _("Rarity"))]
    table += [(h.id, h.name, l10n.words(h.type_line), l10n.words(h.stats), _(h.rarity) if h.rarity else "") for h in rows]
    widths = [max(cell_width(r[i]) for r in table) for i in range(5)]
    lines = ["  ".join(cell + " " * (w - cell_width(cell)) for cell, w in zip(r, widths, strict=True)).rstrip() for r in table]
    lines.append(count_line(len(rows), total))
    return "\n".join(lines) + "\n"
