"""Proxy page layout: pure arithmetic, no drawing (ReportLab is not imported here).

Page size and card rectangles in millimetres (and points), bleed rectangles, crop-mark segments, and
notes on what had to give. :func:`compute_layout` is the entry point; :mod:`cardlab.proxies.pdf` draws
on the result.

Units: every ``*_mm`` value is in millimetres; PDF coordinates are points (1 pt = 1/72 inch =
25.4/72 mm). Rectangles are ``(x, y, width, height)`` measured from the page's **bottom-left**
corner, as in PDF.

Bleed. With ``bleed_mm = b`` each card's face colour runs ``b`` past its cut line. Nine cards
with ``b`` on every side need ``3 x (88 + 2b)`` mm of height: 282 mm for 3 mm, more than Letter's
279.4 mm. Where the full bleed does not fit (keeping :data:`MIN_MARGIN_MM` between the outer bleed
and the paper edge for crop marks), neighbouring cards **share** their bleed: the gutter between
them shrinks to what fits and each card's bleed on an inner edge is half the gutter; outer edges keep
the full bleed. The layout's ``notes`` say so in words (the CLI prints them). With no bleed the
cards touch: one cut separates two neighbours.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from cardlab.core.errors import UsageError

MM = 72 / 25.4
"""Points per millimetre."""

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper name -> (width, height) in mm, portrait."""

LETTER_TERRITORIES = frozenset("US CA MX PR CL CO CR DO GT NI PA PH SV VE".split())
"""Locale territories whose paper is US Letter (as glibc's LC_PAPER data says)."""

DEFAULT_CARD_MM = (63.0, 88.0)
"""Card size when the set data gives none: the common 63 x 88 mm (2.5 x 3.5 in)."""

MAX_BLEED_MM = 3.0
MIN_MARGIN_MM = 3.0
"""Paper kept clear between the outer bleed edge and the page edge, for crop marks."""

MIN_CARD_MM = 20.0
MAX_CARD_MM = 200.0
"""Smallest and largest card side ``--card-size`` accepts, in mm (a face needs room for its name)."""

MARK_OFFSET_MM = 1.0
MARK_LENGTH_MM = 5.0
GRID = (3, 3)
"""The grid of a page of 63 x 88 mm cards on A4 or Letter; the "N per page" note compares with it.
Smaller cards fit as many per page as the paper allows (no grid limit by default)."""


@dataclass(frozen=True)
class Rect:
    """A rectangle in mm from the page's bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def pt(self) -> tuple[float, float, float, float]:
        """The rectangle in points: ``(x, y, width, height)``."""
        return (self.x * MM, self.y * MM, self.w * MM, self.h * MM)

    def overlaps(self, other: Rect) -> bool:
        """True when the two rectangles share interior area."""
        return self.x < other.x + other.w and other.x < self.x + self.w and self.y < other.y + other.h and other.y < self.y + self.h


@dataclass(frozen=True)
class Layout:
    """Where the cards of one page go.

    Attributes:
        paper: paper name (``a4``, ``letter``).
        page_mm: page (width, height) in mm; ``page_pt`` in points.
        card_mm: card (width, height) in mm (the cut size).
        cols, rows: grid size; ``cards`` has ``cols * rows`` entries.
        cards: cut rectangles in reading order (left to right, top to bottom), mm.
        bleeds: the rectangle each card's face colour fills, same order (cut rectangle plus bleed).
        bleed_mm: the bleed asked for; ``gutter_mm``: (horizontal, vertical) gap between cards.
        marks: crop-mark segments ``((x1, y1), (x2, y2))`` in mm, all outside every bleed rectangle.
        notes: what had to give, in words (empty when nothing did).
    """

    paper: str
    page_mm: tuple[float, float]
    card_mm: tuple[float, float]
    cols: int
    rows: int
    cards: list[Rect]
    bleeds: list[Rect]
    bleed_mm: float
    gutter_mm: tuple[float, float]
    marks: list[tuple[tuple[float, float], tuple[float, float]]]
    notes: list[str] = field(default_factory=list)

    @property
    def page_pt(self) -> tuple[float, float]:
        """Page (width, height) in points."""
        return (self.page_mm[0] * MM, self.page_mm[1] * MM)

    @property
    def per_page(self) -> int:
        """Cards per page."""
        return self.cols * self.rows

    def marks_for(self, n: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Crop marks for a page holding the first ``n`` cards (the last page of a print may hold
        fewer): marks only at the cut lines of the rows and columns that hold cards."""
        if not self.marks or n <= 0:
            return []
        if n >= self.per_page:
            return self.marks
        return _crop_marks(self.cards[:n], self.bleeds[:n], self.page_mm)


def paper_size(name: str) -> tuple[float, float]:
    """Return a paper's (width, height) in mm.

    Raises:
        UsageError: ``name`` is not a known paper (``a4`` or ``letter``, any case).
    """
    try:
        return PAPERS[name.strip().lower()]
    except KeyError:
        raise UsageError(f"unknown paper size '{name}'; choose one of: {', '.join(PAPERS)}") from None


def default_paper(environ: Mapping[str, str] | None = None) -> str:
    """Return ``letter`` when the locale's territory uses US Letter, else ``a4``.

    The locale is the first non-empty of ``LC_ALL``, ``LC_PAPER``, ``LANG`` (POSIX precedence); its
    territory is the part after ``_`` (``en_US.UTF-8`` -> ``US``). ``C``/``POSIX`` give ``a4``.
    """
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_PAPER", "LANG"):
        value = env.get(var)
        if value:
            m = re.match(r"^[A-Za-z]+_([A-Za-z]{2})", value)
            return "letter" if m and m.group(1).upper() in LETTER_TERRITORIES else "a4"
    return "a4"


def parse_card_size(text: str) -> tuple[float, float]:
    """Parse ``--card-size``: ``63x88``, ``63×88`` or ``63.5 x 88.9`` (width x height, mm).

    Raises:
        UsageError: not two numbers, or a side below :data:`MIN_CARD_MM` or above :data:`MAX_CARD_MM`.
    """
    m = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*[x×X*]\s*(\d+(?:[.,]\d+)?)\s*(?:mm)?\s*", text)
    if not m:
        raise UsageError(f"card size '{text}' is not WIDTHxHEIGHT in mm, e.g. 63x88")
    w, h = (float(g.replace(",", ".")) for g in m.groups())
    if not (MIN_CARD_MM <= w <= MAX_CARD_MM and MIN_CARD_MM <= h <= MAX_CARD_MM):
        raise UsageError(f"card size '{text}': each side must be {MIN_CARD_MM:g} to {MAX_CARD_MM:g} mm")
    return (w, h)


def _axis(page: float, card: float, n_max: int, bleed: float) -> tuple[int, float, float, float]:
    """Lay out one axis: return (count, first cut edge, gutter, outer bleed), all mm."""
    room = page - 2 * MIN_MARGIN_MM
    n = min(n_max, int((room + 1e-9) // card))  # 5 x 58.2 mm fill 291 mm, though 291 // 58.2 is 4.0 in binary
    if n < 1:
        return 0, 0.0, 0.0, 0.0
    outer = min(bleed, max(0.0, (room - n * card) / 2))
    gutter = 0.0
    if bleed > 0 and n > 1:
        gutter = min(2 * bleed, max(0.0, (room - n * card - 2 * outer) / (n - 1)))
    block = n * card + (n - 1) * gutter
    return n, (page - block) / 2, gutter, outer


def compute_layout(
    paper: str = "a4",
    card_mm: tuple[float, float] = DEFAULT_CARD_MM,
    bleed_mm: float = 0.0,
    cut_marks: bool = True,
    grid: tuple[int, int] | None = None,
) -> Layout:
    """Compute the page and card rectangles for one page of proxies.

    The grid of cut rectangles is centred on the page. Gutters are 0 without bleed, else ``2 x bleed``
    when that fits, else shared (module docstring). A card too large for three across (or down)
    gets as many as fit, and a note says how many fit per page.

    Args:
        paper: ``a4`` or ``letter``.
        card_mm: card (width, height) in mm.
        bleed_mm: bleed in mm, 0 to 3.
        cut_marks: compute crop marks (``marks`` is empty when False).
        grid: most (columns, rows) per page; None (the default): as many as the paper allows.

    Returns:
        A :class:`Layout`.

    Raises:
        UsageError: unknown paper, bleed outside 0-3 mm, or a card too large for the paper.
    """
    page_w, page_h = paper_size(paper)
    paper = paper.strip().lower()
    if not 0 <= bleed_mm <= MAX_BLEED_MM:
        raise UsageError(f"bleed {bleed_mm:g} mm is out of range: choose 0 to {MAX_BLEED_MM:g} mm")
    cw, ch = card_mm
    most = grid or (10_000, 10_000)
    cols, x0, gx, ox = _axis(page_w, cw, most[0], bleed_mm)
    rows, y0, gy, oy = _axis(page_h, ch, most[1], bleed_mm)
    if not cols or not rows:
        raise UsageError(f"a {cw:g} x {ch:g} mm card does not fit on {paper} paper")
    cards, bleeds = [], []
    for r in range(rows):
        y = page_h - y0 - ch - r * (ch + gy)  # rows counted from the top
        for c in range(cols):
            x = x0 + c * (cw + gx)
            cards.append(Rect(x, y, cw, ch))
            left = ox if c == 0 else gx / 2
            right = ox if c == cols - 1 else gx / 2
            top = oy if r == 0 else gy / 2
            bottom = oy if r == rows - 1 else gy / 2
            bleeds.append(Rect(x - left, y - bottom, cw + left + right, ch + top + bottom))
    notes = []
    usual = grid or GRID
    if cols * rows < usual[0] * usual[1]:
        notes.append(
            f"{cw:g} x {ch:g} mm cards: {cols * rows} per page ({cols} across, {rows} down) fit on {paper} paper, not {usual[0] * usual[1]}"
        )
    for axis, n, gap, out in (("across", cols, gx, ox), ("down", rows, gy, oy)):
        # a gutter exists only between two cards: one card across (or down) has none to share
        if bleed_mm > 0 and ((n > 1 and gap < 2 * bleed_mm - 1e-9) or out < bleed_mm - 1e-9):
            notes.append(
                f"{bleed_mm:g} mm bleed does not fully fit {paper} paper {axis}: neighbouring cards "
                f"share a {gap:.1f} mm gutter ({gap / 2:.2f} mm bleed on inner edges, "
                f"{out:.1f} mm on outer edges)"
            )
    marks = _crop_marks(cards, bleeds, (page_w, page_h)) if cut_marks else []
    return Layout(paper, (page_w, page_h), (cw, ch), cols, rows, cards, bleeds, bleed_mm, (gx, gy), marks, notes)


def _crop_marks(cards: list[Rect], bleeds: list[Rect], page: tuple[float, float]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Crop marks at every cut line, in the margins beyond the outer bleed (never over a card)."""
    left = min(b.x for b in bleeds)
    right = max(b.x + b.w for b in bleeds)
    bottom = min(b.y for b in bleeds)
    top = max(b.y + b.h for b in bleeds)
    xs = sorted({round(v, 4) for c in cards for v in (c.x, c.x + c.w)})
    ys = sorted({round(v, 4) for c in cards for v in (c.y, c.y + c.h)})
    marks = []
    for x in xs:
        marks.append(((x, top + MARK_OFFSET_MM), (x, min(page[1], top + MARK_OFFSET_MM + MARK_LENGTH_MM))))
        marks.append(((x, bottom - MARK_OFFSET_MM), (x, max(0.0, bottom - MARK_OFFSET_MM - MARK_LENGTH_MM))))
    for y in ys:
        marks.append(((left - MARK_OFFSET_MM, y), (max(0.0, left - MARK_OFFSET_MM - MARK_LENGTH_MM), y)))
        marks.append(((right + MARK_OFFSET_MM, y), (min(page[0], right + MARK_OFFSET_MM + MARK_LENGTH_MM), y)))
    return marks
