"""Printable proxies: a cut-ready PDF of text-only card faces, nine to a page.

Two halves, kept apart so the geometry can be tested without drawing:

- :func:`compute_layout` is pure arithmetic: page size and card rectangles in millimetres (and
  points), crop-mark segments, and notes on what had to give (bleed shared between neighbours).
- :func:`render_pdf` draws the faces with ReportLab; :func:`write_pdf` writes the file atomically.

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

Why ReportLab: it is pure Python with C speed-ups, already a dependency, writes compact compressed
PDFs quickly (a 60-card deck in well under a second), and ships the Adobe CID fonts (here
``HeiseiKakuGo-W5``) that render Japanese with no font download or embedding; the standard
Helvetica fonts cover French accents and ``×``. fpdf2 would need a TTF font file for Japanese.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardlab.errors import CardlabError, UsageError

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

MARK_OFFSET_MM = 1.0
MARK_LENGTH_MM = 5.0
GRID = (3, 3)


class OutputError(CardlabError):
    """The PDF cannot be written where asked (exists, unwritable folder...)."""


# --- geometry (pure) -------------------------------------------------------------------------

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
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)


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
        UsageError: not two positive numbers, or larger than 200 mm.
    """
    m = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*[x×X*]\s*(\d+(?:[.,]\d+)?)\s*(?:mm)?\s*", text)
    if not m:
        raise UsageError(f"card size '{text}' is not WIDTHxHEIGHT in mm, e.g. 63x88")
    w, h = (float(g.replace(",", ".")) for g in m.groups())
    if not (0 < w <= 200 and 0 < h <= 200):
        raise UsageError(f"card size '{text}': each side must be more than 0 and at most 200 mm")
    return (w, h)


def _axis(page: float, card: float, n_max: int, bleed: float) -> tuple[int, float, float, float]:
    """Lay out one axis: return (count, first cut edge, gutter, outer bleed), all mm."""
    room = page - 2 * MIN_MARGIN_MM
    n = min(n_max, int(room // card))
    if n < 1:
        return 0, 0.0, 0.0, 0.0
    outer = min(bleed, max(0.0, (room - n * card) / 2))
    gutter = 0.0
    if bleed > 0 and n > 1:
        gutter = min(2 * bleed, max(0.0, (room - n * card - 2 * outer) / (n - 1)))
    block = n * card + (n - 1) * gutter
    return n, (page - block) / 2, gutter, outer


def compute_layout(paper: str = "a4", card_mm: tuple[float, float] = DEFAULT_CARD_MM,
                   bleed_mm: float = 0.0, cut_marks: bool = True, grid: tuple[int, int] = GRID) -> Layout:
    """Compute the page and card rectangles for one page of proxies.

    The grid of cut rectangles is centred on the page. Gutters are 0 without bleed, else ``2 x bleed``
    when that fits, else shared (module docstring). A card too large for three across (or down)
    gets as many as fit.

    Args:
        paper: ``a4`` or ``letter``.
        card_mm: card (width, height) in mm.
        bleed_mm: bleed in mm, 0 to 3.
        cut_marks: compute crop marks (``marks`` is empty when False).
        grid: most (columns, rows) per page.

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
    cols, x0, gx, ox = _axis(page_w, cw, grid[0], bleed_mm)
    rows, y0, gy, oy = _axis(page_h, ch, grid[1], bleed_mm)
    if not cols or not rows:
        raise UsageError(f"a {cw:g} x {ch:g} mm card does not fit on {paper} paper")
    cards, bleeds = [], []
    for r in range(rows):
        y = page_h - y0 - ch - r * (ch + gy)        # rows counted from the top
        for c in range(cols):
            x = x0 + c * (cw + gx)
            cards.append(Rect(x, y, cw, ch))
            left = ox if c == 0 else gx / 2
            right = ox if c == cols - 1 else gx / 2
            top = oy if r == 0 else gy / 2
            bottom = oy if r == rows - 1 else gy / 2
            bleeds.append(Rect(x - left, y - bottom, cw + left + right, ch + top + bottom))
    notes = []
    for axis, gap, out in (("across", gx, ox), ("down", gy, oy)):
        if bleed_mm > 0 and (gap < 2 * bleed_mm - 1e-9 or out < bleed_mm - 1e-9):
            notes.append(f"{bleed_mm:g} mm bleed does not fully fit {paper} paper {axis}: neighbouring cards "
                         f"share a {gap:.1f} mm gutter ({gap / 2:.2f} mm bleed on inner edges, "
                         f"{out:.1f} mm on outer edges)")
    marks = _crop_marks(cards, bleeds, (page_w, page_h)) if cut_marks else []
    return Layout(paper, (page_w, page_h), (cw, ch), cols, rows, cards, bleeds, bleed_mm, (gx, gy), marks, notes)


def _crop_marks(cards: list[Rect], bleeds: list[Rect], page: tuple[float, float]
                ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
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


# --- choosing the cards ----------------------------------------------------------------------

@dataclass(frozen=True)
class ProxyOptions:
    """How to print.

    Attributes:
        paper: ``a4`` or ``letter`` (None: from the locale, :func:`default_paper`).
        langs: preferred languages, first first; each text falls back to its set's source language.
        cut_marks: draw crop marks.
        bleed_mm: bleed in mm, 0 to 3.
        card_mm: (width, height) in mm overriding every game's size, or None for the set data's.
        skip_basic_energy: leave out cards whose data says ``energy_type: basic``.
    """

    paper: str | None = None
    langs: tuple[str, ...] = ()
    cut_marks: bool = True
    bleed_mm: float = 0.0
    card_mm: tuple[float, float] | None = None
    skip_basic_energy: bool = False


@dataclass
class ProxyReport:
    """What was printed.

    Attributes:
        path: the PDF written (None when only rendered to bytes).
        pages: page count; ``cards``: proxies printed (one per copy); ``bytes``: file size.
        skipped: card ids left out (basic Energy with ``skip_basic_energy``), one per copy.
        overflow: ``(card id, message)`` for each face whose text did not fit at the smallest size.
        notes: layout notes (shared bleed...).
        paper: the paper used.
    """

    path: Path | None = None
    pages: int = 0
    cards: int = 0
    bytes: int = 0
    skipped: list[str] = field(default_factory=list)
    overflow: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    paper: str = "a4"


def expand(entries: Iterable[tuple[str, int]]) -> list[str]:
    """Return one card id per copy: ``[("base1-58", 2)]`` -> ``["base1-58", "base1-58"]``."""
    return [card_id for card_id, count in entries for _ in range(int(count))]


def is_basic_energy(card: dict) -> bool:
    """True when the card's data says it is a basic Energy (``energy_type: basic``); names never count."""
    return card.get("energy_type") == "basic"


def card_size(catalog, card_id: str, override: tuple[float, float] | None = None) -> tuple[float, float]:  # noqa: ANN001
    """Return the (width, height) in mm to print a card at: ``override``, else its set's
    ``card_size_mm``, else :data:`DEFAULT_CARD_MM`."""
    if override:
        return (float(override[0]), float(override[1]))
    size = catalog.set_of(card_id).data.get("card_size_mm")
    return (float(size[0]), float(size[1])) if size else DEFAULT_CARD_MM


@dataclass
class Selection:
    """The cards chosen for printing.

    Attributes:
        card_ids: one id per copy, in print order (deck lines in file order, then queries, then cards).
        problems: deck problems that ``force`` let through (empty otherwise).
        title: a title for the PDF (the deck's name or file name).
    """

    card_ids: list[str] = field(default_factory=list)
    problems: list = field(default_factory=list)
    title: str = "cardlab proxies"
    catalog: object = None


def deck_cards(path: Path, catalog, roots: Sequence[Path], format_name: str | None = None,  # noqa: ANN001
               force: bool = False) -> Selection:
    """Read a deck list, match it to the catalog and check it against its format.

    The format is ``format_name``, else the one the file names, else the format (of any game) under
    which the list has the fewest problems (ties: by name), so a plain list of Base Set cards works.

    Args:
        path: the deck file (text or YAML, see :mod:`cardlab.deck`).
        catalog: the loaded catalog; roots: its roots (where the formats are).
        format_name: a format name, or None.
        force: return the cards that matched even when the deck has problems.

    Returns:
        A :class:`Selection`; with ``force`` its ``problems`` lists what is wrong.

    Raises:
        InputError: the deck file cannot be read at all.
        UsageError: an unknown format name.
        DataError: the deck has problems (unknown cards, illegal counts...) and ``force`` is False.
    """
    from cardlab import deck as decks, rules
    from cardlab.errors import DataError
    from cardlab.formats import load_formats

    formats = load_formats(roots)
    words: set[str] = set()
    for fmt in formats.values():
        words.update(fmt.header_words())
    deck_list = decks.read_deck(Path(path), words)
    name = format_name or deck_list.format
    if name and name not in formats:
        raise UsageError(f"unknown format '{name}' (formats: {', '.join(sorted(formats)) or 'none'})")
    candidates = [formats[name]] if name else list(formats.values())
    if not candidates:
        raise UsageError("the catalog defines no deck format to read the deck with")
    best = None
    for fmt in candidates:
        deck = decks.build_deck(deck_list, catalog, fmt)
        problems = rules.check_deck(deck)
        unknown = sum(p.rule == "unknown-card" for p in problems)
        key = (unknown, len(problems), fmt.name)
        if best is None or key < best[0]:
            best = (key, deck, problems)
    _, deck, problems = best
    if problems and not force:
        raise DataError(problems)
    ids = expand((c.card_id, c.count) for c in deck.cards)
    return Selection(ids, problems if force else [], deck.name or Path(path).stem)


def query_cards(con, query: str) -> list[str]:  # noqa: ANN001
    """Return the ids of the cards matching a search query, in search order (one copy each).

    Args:
        con: an index connection (:func:`cardlab.search.open_index`).
        query: a query (``set:base1 rarity:rare-holo``).

    Raises:
        QueryError: the query cannot be parsed.
    """
    from cardlab import search

    return [hit.id for hit in search.search(con, query)]


def named_card(con, ref: str) -> str:  # noqa: ANN001
    """Return the id of one card named by id, set and number, or name (as ``cardlab show``).

    Raises:
        CardNotFoundError, AmbiguousCardError: as :func:`cardlab.search.get_card`.
    """
    from cardlab import search

    return search.get_card(con, ref).id


def select(roots: Sequence[Path], db: Path | None, deck: Path | None = None, queries: Sequence[str] = (),
           cards: Sequence[str] = (), format_name: str | None = None, force: bool = False) -> Selection:
    """Load the catalog and gather the cards to print: a deck's cards, then each query's, then each card's.

    Args:
        roots: catalog roots; db: the search index (used only for ``queries`` and ``cards``).
        deck: a deck file or None; queries: search queries; cards: card references.
        format_name, force: as :func:`deck_cards`.

    Returns:
        A :class:`Selection` with ``catalog`` set.

    Raises:
        CatalogError: the catalog does not validate.
        UsageError: nothing selected (no deck, query or card, or queries matching nothing).
        and whatever :func:`deck_cards`, :func:`query_cards`, :func:`named_card` raise.
    """
    from cardlab.validate import load_catalog

    catalog = load_catalog(list(roots))
    selection = deck_cards(deck, catalog, roots, format_name, force) if deck is not None else Selection()
    if queries or cards:
        from cardlab.search import open_index

        if db is None:
            from cardlab.paths import default_db

            db = default_db(list(roots))
        con = open_index(list(roots), db)
        try:
            for q in queries:
                found = query_cards(con, q)
                if not found:
                    raise UsageError(f"no card matches the query '{q}'")
                selection.card_ids += found
            selection.card_ids += [named_card(con, ref) for ref in cards]
        finally:
            con.close()
        if deck is None:
            selection.title = "cardlab proxies: " + "; ".join([*queries, *cards])
    if not selection.card_ids:
        raise UsageError("no card to print")
    selection.catalog = catalog
    return selection


# --- output ----------------------------------------------------------------------------------

def check_output(path: Path, overwrite: bool = False) -> Path:
    """Check that a PDF can be written at ``path`` before any work is done; return it absolute.

    Raises:
        OutputError: the file exists and ``overwrite`` is False, it is a folder, or its folder is
            missing or not writable.
    """
    path = Path(path).expanduser().absolute()
    if path.is_dir():
        raise OutputError(f"{path} is a folder; give a file name such as {path / 'proxies.pdf'}")
    if path.exists() and not overwrite:
        raise OutputError(f"{path} already exists; use --overwrite to replace it")
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: folder {folder} is not writable")
    return path


def write_pdf(path: Path, data: bytes, overwrite: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, then ``os.replace``.

    Nothing is left behind on failure; an existing file is only ever replaced whole.

    Raises:
        OutputError: as :func:`check_output`, or the write itself failed (disk full...).
    """
    path = check_output(path, overwrite)
    fd, tmp = None, None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fd = None
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists() and not overwrite:
            raise OutputError(f"{path} already exists; use --overwrite to replace it")
        os.replace(tmp, path)
        tmp = None
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror or err}") from None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


def render_pdf(catalog, card_ids: Sequence[str], options: ProxyOptions = ProxyOptions(),  # noqa: ANN001
               title: str = "cardlab proxies") -> tuple[bytes, ProxyReport]:
    """Draw one proxy per entry of ``card_ids`` and return the PDF bytes and a report.

    Cards are printed in the order given; a change of card size (two games in one print) starts a
    new page. Basic Energy are left out when ``options.skip_basic_energy``.

    Args:
        catalog: a :class:`cardlab.catalog.Catalog` holding every id.
        card_ids: card ids, one per copy to print (see :func:`expand`).
        options: paper, languages, marks, bleed, card size.
        title: the PDF's title metadata.

    Returns:
        ``(pdf bytes, report)``; ``report.path`` is None.

    Raises:
        UsageError: bad paper, bleed or card size; no card left to print.
        KeyError: an id not in the catalog (resolve deck lists first).
    """
    from reportlab.pdfgen.canvas import Canvas

    paper = (options.paper or default_paper()).strip().lower()
    paper_size(paper)
    report = ProxyReport(paper=paper)
    todo = []
    for card_id in card_ids:
        card = catalog.cards[card_id]
        if options.skip_basic_energy and is_basic_energy(card):
            report.skipped.append(card_id)
        else:
            todo.append(card_id)
    if not todo:
        raise UsageError("no card to print" + (" (every card is a basic Energy)" if report.skipped else ""))
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=PAPERS[paper], invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("cardlab")
    canvas.setCreator("cardlab proxies")
    pen = _Pen(canvas)
    ctx = _Context(catalog, tuple(options.langs))
    layouts: dict[tuple[float, float], Layout] = {}
    slot, current = 0, None
    forms: dict[tuple[str, tuple[float, float]], tuple[str, tuple[float, float, float]]] = {}
    for card_id in todo:
        size = card_size(catalog, card_id, options.card_mm)
        if size not in layouts:
            layouts[size] = compute_layout(paper, size, options.bleed_mm, options.cut_marks)
            report.notes.extend(n for n in layouts[size].notes if n not in report.notes)
        layout = layouts[size]
        if current is not layout or slot == layout.per_page:
            if current is not None:
                canvas.showPage()
            canvas.setPageSize(layout.page_pt)
            _draw_marks(canvas, layout)
            current, slot = layout, 0
            report.pages += 1
        key = (card_id, size)
        if key not in forms:            # each distinct card is drawn once, as a form placed per copy
            name = f"card{len(forms)}"
            canvas.beginForm(name, 0, 0, size[0] * MM, size[1] * MM)
            color, message = _draw_face(pen, ctx, card_id, Rect(0, 0, size[0], size[1]))
            canvas.endForm()
            forms[key] = (name, color)
            if message:
                report.overflow.append((card_id, message))
        name, color = forms[key]
        cx, cy, _, _ = layout.cards[slot].pt
        canvas.saveState()
        canvas.setFillColorRGB(*color)
        canvas.rect(*layout.bleeds[slot].pt, stroke=0, fill=1)
        canvas.translate(cx, cy)
        canvas.doForm(name)
        canvas.restoreState()
        slot += 1
        report.cards += 1
    canvas.showPage()
    canvas.save()
    data = buf.getvalue()
    report.bytes = len(data)
    return data, report


def make_proxies(catalog, card_ids: Sequence[str], out: Path, options: ProxyOptions = ProxyOptions(),  # noqa: ANN001
                 overwrite: bool = False, title: str = "cardlab proxies") -> ProxyReport:
    """Render proxies for ``card_ids`` (one per copy) and write the PDF to ``out`` atomically.

    The output is checked first (fails fast, before any drawing) and written through a temporary
    file in the same folder: no partial PDF is ever left at ``out``.

    Returns:
        The :class:`ProxyReport`, with ``path`` and ``bytes`` set.

    Raises:
        OutputError: ``out`` exists (without ``overwrite``) or cannot be written.
        UsageError: bad paper, bleed or card size; nothing to print.
    """
    check_output(out, overwrite)
    data, report = render_pdf(catalog, card_ids, options, title)
    report.path = write_pdf(out, data, overwrite)
    return report


def _draw_marks(canvas, layout: Layout) -> None:  # noqa: ANN001
    if not layout.marks:
        return
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.3)
    for (x1, y1), (x2, y2) in layout.marks:
        if abs(x2 - x1) + abs(y2 - y1) > 0.2:
            canvas.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)


# --- text engine -----------------------------------------------------------------------------

CJK_FONT = "HeiseiKakuGo-W5"
"""ReportLab's built-in Japanese CID font (Adobe-Japan1). It is not embedded: viewers substitute an
installed Japanese font (Acrobat and most readers do; poppler needs poppler-data and e.g. fonts-ipafont)."""
FONTS = {"regular": "Helvetica", "bold": "Helvetica-Bold", "italic": "Helvetica-Oblique"}
BODY_MAX_PT = 8.5
BODY_MIN_PT = 6.0
"""Rules text starts at BODY_MAX_PT and shrinks in 0.25 pt steps, never below BODY_MIN_PT (legible
at arm's length on a 63 x 88 mm card); text still too long is cut with a visible mark and reported."""
NAME_PT = (12.0, 7.5)
INK = (0.1, 0.1, 0.1)
MUTED = (0.38, 0.38, 0.38)


def _latin(ch: str) -> bool:
    try:
        ch.encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


def _runs(text: str) -> list[tuple[str, bool]]:
    """Split text into (run, is_latin) pieces: Latin-1/cp1252 in Helvetica, the rest in the CJK font."""
    out: list[tuple[str, bool]] = []
    for ch in text:
        lat = _latin(ch)
        if out and out[-1][1] == lat:
            out[-1] = (out[-1][0] + ch, lat)
        else:
            out.append((ch, lat))
    return out


def _wide(ch: str) -> bool:
    import unicodedata

    return unicodedata.east_asian_width(ch) in ("W", "F")


class _Pen:
    """Measures and draws mixed Latin/Japanese text on a ReportLab canvas."""

    def __init__(self, canvas) -> None:  # noqa: ANN001
        from reportlab.pdfbase import pdfmetrics

        self.canvas = canvas
        self.metrics = pdfmetrics
        self._cjk = False

    def _cjk_font(self) -> str:
        if not self._cjk:
            from reportlab.pdfbase.cidfonts import UnicodeCIDFont

            if CJK_FONT not in self.metrics.getRegisteredFontNames():
                self.metrics.registerFont(UnicodeCIDFont(CJK_FONT))
            self._cjk = True
        return CJK_FONT

    def width(self, text: str, size: float, style: str = "regular") -> float:
        """Width of ``text`` in points at ``size`` points."""
        return sum(self.metrics.stringWidth(run, FONTS[style] if lat else self._cjk_font(), size)
                   for run, lat in _runs(text))

    def draw(self, x: float, y: float, text: str, size: float, style: str = "regular",
             color: tuple[float, float, float] = INK) -> float:
        """Draw ``text`` with its baseline at ``(x, y)`` points; return the width drawn."""
        c = self.canvas
        c.setFillColorRGB(*color)
        start = x
        for run, lat in _runs(text):
            font = FONTS[style] if lat else self._cjk_font()
            c.setFont(font, size)
            c.drawString(x, y, run)
            x += self.metrics.stringWidth(run, font, size)
        return x - start

    def fit(self, text: str, width: float, sizes: tuple[float, float], style: str = "bold") -> tuple[float, str, bool]:
        """Return the largest size in ``sizes`` (max, min) at which ``text`` fits ``width``, the text
        (cut with "…" if it fits at no size) and whether it was cut."""
        size = sizes[0]
        while size > sizes[1] and self.width(text, size, style) > width:
            size -= 0.25
        if self.width(text, size, style) <= width:
            return size, text, False
        while text and self.width(text + "…", size, style) > width:
            text = text[:-1]
        return size, text.rstrip() + "…", True


# A span is (text, style, colour or None); a symbol is ("@sym", label, colour).
Span = tuple[str, str, "tuple[float, float, float] | None"]


@dataclass
class _Block:
    """A body element: ``para`` (wrapped spans), ``row`` (one line: left spans, right text), ``rule``,
    ``big`` (one large centred symbol line)."""

    kind: str
    spans: list = field(default_factory=list)
    right: str = ""
    scale: float = 1.0
    gap: float = 0.35          # space after, in lines of body text


def _tokens(spans: list) -> list[tuple[str, str, object, bool]]:
    """Break spans into wrap tokens ``(text, style, colour, space_before)``; each CJK character and
    each symbol is its own token."""
    out: list = []
    for text, style, color in spans:
        space = bool(out)                 # spans are separated by a space
        if text == "@sym":
            out.append((style, "@sym", color, space))
            continue
        word = ""
        for ch in text:
            if ch.isspace():
                if word:
                    out.append((word, style, color, space))
                    word = ""
                space = True
            elif _wide(ch):
                if word:
                    out.append((word, style, color, space))
                    word, space = "", False
                out.append((ch, style, color, space))
                space = False
            else:
                word += ch
        if word:
            out.append((word, style, color, space))
    return out


def _sym_width(label: str, size: float) -> float:
    return size * (1.05 if len(label) <= 1 else 0.55 * len(label) + 0.6)


class _Body:
    """Lays out body blocks in a box ``width`` points wide at a given text size."""

    def __init__(self, pen: _Pen, width: float) -> None:
        self.pen, self.width = pen, width

    def lines(self, blocks: list[_Block], size: float) -> list[tuple[float, list, _Block]]:
        """Return ``(line height, items, block)`` per line; items are ``(x, token, size)``."""
        out: list[tuple[float, list, _Block]] = []
        for block in blocks:
            s = size * block.scale
            lh = s * 1.22
            if block.kind in ("rule", "big"):
                out.append((s * (0.7 if block.kind == "rule" else 6.5), [], block))
                continue
            reserve = self.pen.width(block.right, s * 1.15, "bold") + 4 if block.kind == "row" and block.right else 0.0
            x, items = 0.0, []
            for tok in _tokens(block.spans):
                text, style, _, space = tok
                w = _sym_width(text, s) if style == "@sym" else self.pen.width(text, s, style)
                sp = self.pen.width(" ", s) if space and items else 0.0
                if items and x + sp + w > self.width - reserve:
                    out.append((lh, items, block))
                    x, items, sp, reserve = 0.0, [], 0.0, 0.0
                items.append((x + sp, tok, s))
                x += sp + w
            out.append((lh + s * block.gap * 1.22, items, block))
        return out


def _draw_symbol(pen: _Pen, x: float, baseline: float, label: str, size: float,
                 color: tuple[float, float, float]) -> None:
    c = pen.canvas
    w = _sym_width(label, size)
    h = size * 1.0
    cy = baseline + size * 0.33
    c.setFillColorRGB(*color)
    c.setStrokeColorRGB(0.15, 0.15, 0.15)
    c.setLineWidth(0.4)
    if len(label) <= 1:
        c.circle(x + w / 2, cy, h / 2, stroke=1, fill=1)
    else:
        c.roundRect(x, cy - h / 2, w, h, h / 2, stroke=1, fill=1)
    light = sum(color) / 3 > 0.62
    tw = pen.width(label, size * 0.7, "bold")
    pen.draw(x + (w - tw) / 2, cy - size * 0.25, label, size * 0.7, "bold", INK if light else (1, 1, 1))


def _draw_body(pen: _Pen, box: tuple[float, float, float, float], blocks: list[_Block]) -> str | None:
    """Draw blocks top-down in ``box`` (x, y, w, h points), shrinking text to fit.

    Returns an overflow message, or None when everything fitted."""
    x0, y0, w, h = box
    body = _Body(pen, w)
    size = BODY_MAX_PT
    lines = body.lines(blocks, size)
    while sum(lh for lh, _, _ in lines) > h and size > BODY_MIN_PT:
        size = max(BODY_MIN_PT, size - 0.25)
        lines = body.lines(blocks, size)
    overflow = None
    total = sum(lh for lh, _, _ in lines)
    if total > h:
        kept, used = [], 0.0
        for line in lines:
            if used + line[0] > h - BODY_MIN_PT * 1.3:
                break
            kept.append(line)
            used += line[0]
        hidden = len(lines) - len(kept)
        overflow = f"text too long: {hidden} line(s) at {BODY_MIN_PT:g} pt did not fit"
        lines = kept + [(BODY_MIN_PT * 1.3, [(0.0, ("[…] text continues: see the real card", "italic", (0.7, 0, 0), False),
                                              BODY_MIN_PT)], _Block("para"))]
    y = y0 + h
    seen_rows: set[int] = set()
    for lh, items, block in lines:
        s = size * block.scale
        if block.kind == "rule":
            pen.canvas.setStrokeColorRGB(0.7, 0.7, 0.7)
            pen.canvas.setLineWidth(0.4)
            pen.canvas.line(x0, y - lh / 2, x0 + w, y - lh / 2)
            y -= lh
            continue
        if block.kind == "big":
            label, color = block.spans[0]
            big = s * 4.5
            _draw_symbol(pen, x0 + (w - _sym_width(label, big)) / 2, y - lh + s * 1.2, label, big, color)
            y -= lh
            continue
        baseline = y - s * 1.22 * 0.8
        for ix, (text, style, color, _), ts in items:
            if style == "@sym":
                _draw_symbol(pen, x0 + ix, baseline, text, ts, color)
            else:
                pen.draw(x0 + ix, baseline, text, ts, style, color or INK)
        if block.kind == "row" and block.right and id(block) not in seen_rows:
            seen_rows.add(id(block))
            rw = pen.width(block.right, s * 1.15, "bold")
            pen.draw(x0 + w - rw, baseline, block.right, s * 1.15, "bold")
        y -= lh
    return overflow


# --- card faces ------------------------------------------------------------------------------

LABELS: dict[str, dict[str, str]] = {
    "fr": {"Weakness": "Faiblesse", "Resistance": "Résistance", "Retreat": "Retraite", "Pokémon Power": "Pouvoir Pokémon",
           "Basic": "de base", "Stage 1": "Niveau 1", "Stage 2": "Niveau 2", "evolves from": "évolue de",
           "Trainer": "Dresseur", "Energy": "Énergie", "basic Energy": "Énergie de base",
           "special Energy": "Énergie spéciale", "provides": "fournit", "Level": "Niveau",
           "Grass": "Plante", "Fire": "Feu", "Water": "Eau", "Lightning": "Électrique", "Psychic": "Psy",
           "Fighting": "Combat", "Colorless": "Incolore",
           "blow": "Carte coup", "defense": "Carte défense", "support": "Carte soutien", "fight": "Carte combat",
           "straight": "direct", "hook": "crochet", "upper": "uppercut", "special": "spécial",
           "blocks": "bloque", "Cost": "Coût", "Start cost": "Coût de démarrage", "Power": "Force",
           "Defense": "Défense", "Generates": "Génère", "generic": "générique", "tap": "engager",
           "damage effect": "effet de dégâts", "placement": "Placement", "fast": "Rapide", "boxing": "Boxe",
           "interval": "Intervalle", "constant": "Permanent", "courage": "courage", "kan": "intuition",
           "technique": "technique", "calm": "calme",
           "commander": "Commandant", "favor": "Faveur", "charm": "Charme", "servant": "Serviteur",
           "spell": "Sort", "rapide": "Rapide", "upkeep": "Entretien", "prediction": "Prédiction",
           "Token": "Jeton", "element": "élément", "free": "gratuit", "ATK": "ATQ", "DEF": "DÉF"},
}
"""Label translations by language; English is the key itself."""

POKEMON_COLORS = {"Grass": (0.33, 0.65, 0.27), "Fire": (0.86, 0.27, 0.16), "Water": (0.19, 0.5, 0.85),
                  "Lightning": (0.98, 0.8, 0.15), "Psychic": (0.6, 0.33, 0.7), "Fighting": (0.75, 0.45, 0.2),
                  "Colorless": (0.82, 0.8, 0.75)}
POKEMON_LETTER = {"Grass": "G", "Fire": "R", "Water": "W", "Lightning": "L", "Psychic": "P",
                  "Fighting": "F", "Colorless": "C"}
TRAINER_COLOR = (0.55, 0.6, 0.66)
IPPO_COLORS = {"blow": (0.8, 0.16, 0.16), "defense": (0.08, 0.4, 0.75), "support": (0.45, 0.2, 0.6),
               "fight": (0.2, 0.55, 0.25)}
IPPO_ATTR_COLORS = {"courage": (0.8, 0.15, 0.15), "kan": (0.75, 0.6, 0.0), "technique": (0.15, 0.55, 0.2),
                    "calm": (0.1, 0.35, 0.75)}
MONPA_ELEMENTS = {"feu": (0.85, 0.3, 0.15), "eau": (0.2, 0.5, 0.85), "terre": (0.55, 0.4, 0.2),
                  "air": (0.55, 0.75, 0.85), "foudre": (0.95, 0.78, 0.1), "lumière": (0.92, 0.8, 0.4),
                  "ténèbres": (0.35, 0.25, 0.45), "nature": (0.3, 0.62, 0.3), "plante": (0.3, 0.62, 0.3)}
NEUTRAL = (0.5, 0.5, 0.55)


@dataclass
class _Face:
    """What a card face shows; drawn by :func:`_draw_face` the same way for every game."""

    color: tuple[float, float, float]
    name: str
    header: list = field(default_factory=list)      # spans drawn right of the name
    type_spans: list = field(default_factory=list)
    body: list[_Block] = field(default_factory=list)
    footer: list = field(default_factory=list)      # columns (label, spans) above the credit line
    stat: str = ""                                  # big text at the bottom right (atk/def, power)
    stat_label: str = ""                            # small label above it
    credit: str = ""


class _Context:
    """Catalog, languages and label translation for drawing faces."""

    def __init__(self, catalog, langs: tuple[str, ...]) -> None:  # noqa: ANN001
        self.catalog, self.langs = catalog, langs
        self._wanted = next((lang.split("-")[0] for lang in langs if lang.split("-")[0] in (*LABELS, "en")), None)
        self.labels: dict[str, str] = {}
        self._names: dict[str, str] | None = None

    def start(self, card_id: str) -> None:
        """Pick the label language for a card: the first preferred language cardlab has labels in,
        else the card's source language when it has, else English."""
        lang = self._wanted or self.catalog.set_of(card_id).source_language.split("-")[0]
        self.labels = LABELS.get(lang, {})

    def tr(self, card_id: str, loc) -> str:  # noqa: ANN001
        from cardlab.text import pick

        return pick(loc, self.langs, self.catalog.set_of(card_id).source_language)

    def label(self, key: str) -> str:
        return self.labels.get(key, key)

    def pokemon_name(self, english: str) -> str:
        """The name, in the preferred language, of the Pokémon whose English name is ``english``."""
        from cardlab.text import fold

        if self._names is None:
            self._names = {}
            for cid, card in self.catalog.cards.items():
                if card.get("supertype") == "Pokémon" and "en" in (card.get("name") or {}):
                    self._names.setdefault(fold(card["name"]["en"]), self.tr(cid, card["name"]))
        return self._names.get(fold(english), english)


def _sym(label: str, color: tuple[float, float, float]) -> Span:
    return ("@sym", label, color)  # type: ignore[return-value]


def _energy(t: str) -> Span:
    return _sym(POKEMON_LETTER.get(t, t[:1]), POKEMON_COLORS.get(t, NEUTRAL))


def _credit(ctx: _Context, card_id: str, card: dict, extra: str = "") -> str:
    info = ctx.catalog.set_of(card_id)
    number = f"{card['number']}/{info.printed_total}" if info.printed_total else card["number"]
    return " · ".join(p for p in (info.code, number, extra or card.get("rarity", "")) if p)


def _pokemon(ctx: _Context, card_id: str, card: dict) -> _Face:
    L = ctx.label
    sup = card.get("supertype")
    types = card.get("types") or card.get("provides") or []
    color = POKEMON_COLORS.get(types[0], NEUTRAL) if types and sup != "Trainer" else TRAINER_COLOR
    face = _Face(color, ctx.tr(card_id, card["name"]), credit=_credit(ctx, card_id, card))
    body = face.body
    if sup == "Pokémon":
        face.header = [(f"{card['hp']} HP", "bold", (0.75, 0.1, 0.1)), *(_energy(t) for t in types)]
        stage = card.get("stage", "Basic")
        face.type_spans = [(f"{L(stage)} Pokémon" if stage == "Basic" and not ctx.labels else
                            (f"Pokémon {L(stage)}" if stage == "Basic" else L(stage)), "bold", None)]
        if card.get("evolves_from"):
            face.type_spans.append((f"· {L('evolves from')} {ctx.pokemon_name(card['evolves_from'])}", "regular", None))
        if card.get("level"):
            face.type_spans.append((f"· {L('Level')} {card['level']}", "regular", MUTED))
        power = card.get("pokemon_power")
        if power:
            body.append(_Block("para", [(f"{L('Pokémon Power')}: {ctx.tr(card_id, power['name'])}", "bold", (0.7, 0.1, 0.1))], gap=0.1))
            body.append(_Block("para", [(ctx.tr(card_id, power["text"]), "regular", None)]))
            body.append(_Block("rule"))
        for attack in card.get("attacks") or []:
            cost = [_energy(t) for t in attack.get("cost") or []] or [("(" + L("free") + ")", "italic", MUTED)]
            body.append(_Block("row", [*cost, (ctx.tr(card_id, attack["name"]), "bold", None)],
                               right=attack.get("damage", ""), scale=1.12, gap=0.05 if attack.get("text") else 0.45))
            if attack.get("text"):
                body.append(_Block("para", [(ctx.tr(card_id, attack["text"]), "regular", None)], gap=0.5))
        for label, key in (("Weakness", "weaknesses"), ("Resistance", "resistances")):
            spans = [s for m in card.get(key) or [] for s in (_energy(m["type"]), (m["value"], "bold", None))]
            face.footer.append((L(label), spans or [("–", "bold", None)]))
        face.footer.append((L("Retreat"), [_energy("Colorless")] * card.get("retreat_cost", 0) or [("0", "bold", None)]))
    elif sup == "Energy":
        basic = card.get("energy_type") == "basic"
        face.type_spans = [(L("basic Energy") if basic else L("special Energy"), "bold", None)]
        face.header = [_energy(t) for t in types]
        if card.get("text"):
            body.append(_Block("para", [(ctx.tr(card_id, card["text"]), "regular", None)], scale=1.1))
        body.append(_Block("para", [(L("provides") + ":", "regular", MUTED), *(_energy(t) for t in types)], scale=1.2))
        if basic and types:
            body.append(_Block("big", [(POKEMON_LETTER.get(types[0], "?"), POKEMON_COLORS.get(types[0], NEUTRAL))]))
    else:
        face.type_spans = [(L("Trainer"), "bold", None)]
        if card.get("trainer_type"):
            face.type_spans.append((f"· {card['trainer_type']}", "regular", None))
        body.append(_Block("para", [(ctx.tr(card_id, card.get("text")), "regular", None)], scale=1.1))
    return face


def _ippo_cost(ctx: _Context, cost: dict | None, card_id: str) -> list:
    if not cost:
        return [(ctx.label("free"), "italic", MUTED)]
    spans: list = []
    counts: dict[str, int] = {}
    for a in cost.get("attributes") or []:
        counts[a] = counts.get(a, 0) + 1
    for a, n in counts.items():
        spans.append((f"{n}× {ctx.label(a)}" if n > 1 else ctx.label(a), "bold", IPPO_ATTR_COLORS.get(a)))
    if cost.get("generic"):
        spans.append((f"{cost['generic']} {ctx.label('generic')}", "bold", None))
    if cost.get("tap"):
        spans.append((ctx.label("tap"), "bold", None))
    if cost.get("other"):
        spans.append((ctx.tr(card_id, cost["other"]), "regular", None))
    out: list = []
    for i, span in enumerate(spans):
        out.append(span if i == len(spans) - 1 else (span[0] + ",", span[1], span[2]))
    return out or [(ctx.label("free"), "italic", MUTED)]


def _ippo(ctx: _Context, card_id: str, card: dict) -> _Face:
    L = ctx.label
    kind = card["kind"]
    face = _Face(IPPO_COLORS.get(kind, NEUTRAL), ctx.tr(card_id, card["name"]),
                 credit=_credit(ctx, card_id, card, "★" * int(card.get("stars", 0))))
    kind_label = L(kind) if ctx.labels else f"{kind.capitalize()} card"
    face.type_spans = [(kind_label, "bold", IPPO_COLORS.get(kind))]
    face.header = [("★" * int(card.get("stars", 0)), "bold", (0.75, 0.55, 0.0))]
    body = face.body
    if kind == "blow":
        face.type_spans.append((f"· {L(card['blow_type'])}", "bold", None))
        body.append(_Block("para", [(L("Start cost") + ":", "regular", MUTED), *_ippo_cost(ctx, card.get("start_cost"), card_id)], scale=1.1))
        face.stat = f"{L('Power')} {card['blow_power']}"
    elif kind == "defense":
        face.type_spans.append((f"· {L('blocks')} " + ", ".join(L(b) for b in card.get("blocks", [])), "bold", None))
        gen = card.get("generates") or {}
        body.append(_Block("para", [(L("Generates") + ":", "regular", MUTED), *_ippo_cost(ctx, gen, card_id)], scale=1.1))
        face.stat = f"{L('Defense')} {card['defense_power']}"
    for ability in card.get("abilities") or []:
        body.append(_Block("rule"))
        head: list = []
        if ability.get("timing"):
            head.append((f"[{L(ability['timing'])}]", "bold", IPPO_COLORS.get(kind)))
        if "cost" in ability:
            head += [(L("Cost") + ":", "regular", MUTED), *_ippo_cost(ctx, ability["cost"], card_id)]
        if ability.get("keywords"):
            head.append(("— " + ", ".join(k.upper() for k in ability["keywords"]), "bold", None))
        if ability.get("damage_effect"):
            head.append((f"({L('damage effect')})", "italic", MUTED))
        if head:
            body.append(_Block("para", head, gap=0.1))
        if ability.get("text"):
            body.append(_Block("para", [(ctx.tr(card_id, ability["text"]), "regular", None)]))
    if card.get("flavor"):
        body.append(_Block("para", [(ctx.tr(card_id, card["flavor"]), "italic", MUTED)], scale=0.9))
    return face


def _mana(value) -> str:  # noqa: ANN001
    return "{" + str(value) + "}"


def _monpa(ctx: _Context, card_id: str, card: dict) -> _Face:
    L = ctx.label
    element = card.get("element", "")
    color = MONPA_ELEMENTS.get(element.casefold(), NEUTRAL)
    face = _Face(color, ctx.tr(card_id, card["name"]), credit=_credit(ctx, card_id, card))
    if "mana" in card:
        face.header = [_sym(str(card["mana"]), (0.9, 0.9, 0.88))]
    face.type_spans = [(L(card["type"]) if ctx.labels else card["type"].capitalize(), "bold", None),
                       (f"· {element}", "bold", color)]
    for effect in card.get("effects") or []:
        spans: list = []
        kw = effect.get("keyword")
        cost = effect.get("cost") or {}
        cost_parts = (["{T}"] if cost.get("tap") else []) + ([_mana(cost["mana"])] if "mana" in cost else [])
        if cost.get("other"):
            cost_parts.append(ctx.tr(card_id, cost["other"]))
        if kw:
            label = L(kw) if ctx.labels else kw.capitalize()
            if kw == "prediction":
                label += f" {effect['n']}"
            if kw == "upkeep" and cost_parts:
                label += " — " + ", ".join(cost_parts)
                cost_parts = []
            spans.append((label, "bold", None))
        if cost_parts:
            spans.append((", ".join(cost_parts) + " :", "bold", None))
        if effect.get("text"):
            spans.append((ctx.tr(card_id, effect["text"]), "regular", None))
        face.body.append(_Block("para", spans, scale=1.05))
    for token in card.get("tokens") or []:
        stats = f" {token['attack']}/{token['defense']}" if "attack" in token else ""
        spans = [(f"{L('Token')}: {ctx.tr(card_id, token['name'])}", "bold", None),
                 (f"({L(token['type']).lower()}{stats})", "regular", MUTED)]
        if token.get("text"):
            spans.append((ctx.tr(card_id, token["text"]), "regular", None))
        face.body.append(_Block("para", spans))
    if card.get("flavor"):
        face.body.append(_Block("para", [(ctx.tr(card_id, card["flavor"]), "italic", MUTED)], scale=0.9))
    if "attack" in card:
        face.stat = f"{card['attack']} / {card['defense']}"
        face.stat_label = f"{L('ATK')} / {L('DEF')}"
    return face


def _generic(ctx: _Context, card_id: str, card: dict) -> _Face:
    return _Face(NEUTRAL, ctx.tr(card_id, card.get("name")), credit=_credit(ctx, card_id, card))


FACES = {"pokemon": _pokemon, "ippo": _ippo, "monpa": _monpa}
"""Game -> function building the :class:`_Face` of a card."""


def _tint(color: tuple[float, float, float], amount: float) -> tuple[float, float, float]:
    return tuple(1 - (1 - c) * amount for c in color)  # type: ignore[return-value]


def _spans_width(pen: _Pen, spans: list, size: float) -> float:
    total = 0.0
    for i, (text, style, _) in enumerate(spans):
        total += (_sym_width(style, size) if text == "@sym" else pen.width(text, size, style)) + (2.5 if i else 0)
    return total


def _draw_spans(pen: _Pen, x: float, baseline: float, spans: list, size: float) -> float:
    for i, (text, style, color) in enumerate(spans):
        if i:
            x += 2.5
        if text == "@sym":
            _draw_symbol(pen, x, baseline, style, size, color)
            x += _sym_width(style, size)
        else:
            x += pen.draw(x, baseline, text, size, style, color or INK)
    return x


def _draw_face(pen: _Pen, ctx: _Context, card_id: str, rect: Rect) -> tuple[tuple[float, float, float], str | None]:
    """Draw one card face in ``rect`` (the cut size); return its frame colour (for the bleed) and an
    overflow message or None."""
    card = ctx.catalog.cards[card_id]
    ctx.start(card_id)
    face = FACES.get(ctx.catalog.game_of(card_id), _generic)(ctx, card_id, card)
    c = pen.canvas
    x, y, w, h = rect.pt
    c.saveState()
    c.setFillColorRGB(*face.color)
    c.rect(x, y, w, h, stroke=0, fill=1)
    frame = 2.2 * MM
    px, py, pw, ph = x + frame, y + frame, w - 2 * frame, h - 2 * frame
    c.setFillColorRGB(1, 1, 1)
    c.roundRect(px, py, pw, ph, 1.5 * MM, stroke=0, fill=1)
    pad = 1.8 * MM
    # header band: name + right-hand spans (HP and types, stars, mana)
    head_h = 8.5 * MM
    c.setFillColorRGB(*_tint(face.color, 0.28))
    c.roundRect(px, py + ph - head_h, pw, head_h, 1.5 * MM, stroke=0, fill=1)
    c.rect(px, py + ph - head_h, pw, head_h / 2, stroke=0, fill=1)
    base = py + ph - head_h + 2.6 * MM
    right_w = _spans_width(pen, face.header, 10.5) if face.header else 0.0
    if face.header:
        _draw_spans(pen, px + pw - pad - right_w, base, face.header, 10.5)
    name_w = pw - 2 * pad - (right_w + 3 if right_w else 0)
    size, name, cut = pen.fit(face.name, name_w, NAME_PT)
    pen.draw(px + pad, base, name, size, "bold")
    overflow = [f"name cut to fit: {face.name}"] if cut else []
    # type line
    top = py + ph - head_h - 1.2 * MM
    if face.type_spans:
        tsize = 7.5
        while tsize > 6 and _spans_width(pen, face.type_spans, tsize) > pw - 2 * pad:
            tsize -= 0.25
        _draw_spans(pen, px + pad, top - tsize, face.type_spans, tsize)
        top -= tsize * 1.5
        c.setStrokeColorRGB(*_tint(face.color, 0.6))
        c.setLineWidth(0.6)
        c.line(px + pad, top, px + pw - pad, top)
        top -= 1.2 * MM
    # footer: credit line, then stats line
    credit_size = 6.0
    pen.draw(px + pad, py + 1.4 * MM, face.credit, credit_size, "regular", MUTED)
    tag = "PROXY"
    pen.draw(px + pw - pad - pen.width(tag, credit_size, "bold"), py + 1.4 * MM, tag, credit_size, "bold", MUTED)
    bottom = py + 1.4 * MM + credit_size * 1.3
    if face.footer or face.stat:
        line_y = bottom + 1.2 * MM
        if face.stat:
            ssize = 13.0
            sw = pen.width(face.stat, ssize, "bold")
            pen.draw(px + pw - pad - sw, line_y + 0.6 * MM, face.stat, ssize, "bold")
            line_top = line_y + ssize * 1.1
            if face.stat_label:
                lw = pen.width(face.stat_label, 5.5)
                pen.draw(px + pw - pad - lw, line_top, face.stat_label, 5.5, "regular", MUTED)
                line_top += 5.5
        else:
            line_top = line_y
        if face.footer:
            col_w = (pw - 2 * pad) / len(face.footer)
            fsize = 8.0
            while fsize > 6 and max(_spans_width(pen, sp, fsize) for _, sp in face.footer) > col_w - 2:
                fsize -= 0.25
            for i, (label, spans) in enumerate(face.footer):
                cx = px + pad + i * col_w
                _draw_spans(pen, cx, line_y + 0.4 * MM, spans, fsize)
                pen.draw(cx, line_y + 0.4 * MM + fsize * 1.25, label, 5.5, "regular", MUTED)
            line_top = max(line_top, line_y + 0.4 * MM + fsize * 1.25 + 5.5)
        c.setStrokeColorRGB(*_tint(face.color, 0.6))
        c.setLineWidth(0.6)
        c.line(px + pad, line_top + 0.8 * MM, px + pw - pad, line_top + 0.8 * MM)
        bottom = line_top + 1.6 * MM
    message = _draw_body(pen, (px + pad, bottom, pw - 2 * pad, top - bottom), face.body)
    if message:
        overflow.append(message)
    c.restoreState()
    return face.color, "; ".join(overflow) or None
