"""Printable proxies: a cut-ready PDF of text-only card faces, nine 63 x 88 mm cards to a page (smaller cards: as many as fit).

This module is the API: choosing the cards (a deck list, search queries, card references), drawing
them into a PDF (:func:`render_pdf`) and writing the file atomically (:func:`cardlab.core.fs.atomic_write`,
:func:`make_proxies`). The work is split so the geometry can be tested without drawing:

- :mod:`cardlab.proxies.layout` is pure arithmetic: page size and card rectangles in millimetres (and
  points), crop-mark segments, and notes on what had to give. Its names are re-exported here.
- :mod:`cardlab.proxies.faces` builds and draws each game's card face, with the text engine of
  :mod:`cardlab.proxies.textengine` (fonts, wrapping, shrinking text to fit).
- :mod:`cardlab.core.fs` checks the output path and writes the PDF atomically (temporary file,
  umask mode, rename). Its names are re-exported here.

Bleed: where the full bleed does not fit the paper, neighbouring cards share it; the
:mod:`cardlab.proxies.layout` docstring explains how.

Why ReportLab: it is pure Python with C speed-ups, already a dependency, writes compact compressed
PDFs quickly (a 60-card deck in well under a second), and embeds TrueType fonts as subsets (only the
glyphs used). Every font of a proxy PDF is embedded, so it prints the same anywhere: Liberation Sans
for Latin text and IPAex Gothic for Japanese, shipped in ``cardlab/proxies/fonts``
(:mod:`cardlab.proxies.textengine`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardlab.catalog.validate import load_formats
from cardlab.core import words
from cardlab.core.errors import CardlabError, CatalogError, DataError, UsageError
from cardlab.core.fs import atomic_write, check_output
from cardlab.core.fuzzy import suggest
from cardlab.core.paths import default_db
from cardlab.core.text import fold
from cardlab.decks import check as decks
from cardlab.decks.read import read_deck
from cardlab.decks.resolve import printing_named
from cardlab.index.stored import open_catalog
from cardlab.proxies.faces import Context, draw_face
from cardlab.proxies.layout import (
    DEFAULT_CARD_MM,
    GRID,
    LETTER_TERRITORIES,
    MARK_LENGTH_MM,
    MARK_OFFSET_MM,
    MAX_BLEED_MM,
    MIN_MARGIN_MM,
    MM,
    PAPERS,
    Layout,
    Rect,
    compute_layout,
    default_paper,
    paper_size,
    parse_card_size,
)
from cardlab.proxies.textengine import FONTS, Pen, register_fonts
from cardlab.search.engine import open_index, search
from cardlab.search.lookup import CardNotFoundError, get_card

if TYPE_CHECKING:
    import sqlite3

    from reportlab.pdfgen.canvas import Canvas

    from cardlab.catalog.model import Catalog

__all__ = [
    # layout (cardlab.proxies.layout), re-exported
    "DEFAULT_CARD_MM",
    "GRID",
    "LETTER_TERRITORIES",
    "MARK_LENGTH_MM",
    "MARK_OFFSET_MM",
    "MAX_BLEED_MM",
    "MIN_MARGIN_MM",
    "MM",
    "PAPERS",
    "Layout",
    "Rect",
    "compute_layout",
    "default_paper",
    "paper_size",
    "parse_card_size",
    # choosing the cards
    "DeckProblemsError",
    "ProxyOptions",
    "ProxyReport",
    "Selection",
    "card_size",
    "deck_cards",
    "expand",
    "is_basic_energy",
    "named_card",
    "query_cards",
    "select",
    # output
    "make_proxies",
    "render_pdf",
]


class DeckProblemsError(DataError):
    """The deck has problems and ``force`` was not given.

    Attributes:
        report: the deck check (:class:`cardlab.decks.check.DeckReport`), to print as ``cardlab deck validate`` does.
        notes: what the check assumed (the format chosen when the deck names none, the printing assumed for a name alone).
        catalog_problems: problems of invalid catalog files left out (warnings).
    """

    def __init__(self, report: decks.DeckReport, notes: Sequence[str] = ()) -> None:
        super().__init__(report.problems)
        self.report = report
        self.notes = list(notes)
        self.catalog_problems: list = []

    def __str__(self) -> str:
        n = len(self.problems)
        return f"the deck has {words.count(n, 'problem')}; fix them or use --force to print what can be printed"


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


def card_size(catalog: Catalog, card_id: str, override: tuple[float, float] | None = None) -> tuple[float, float]:
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
        report: the deck check (:class:`cardlab.decks.check.DeckReport`), None without a deck file.
        notes: what the check assumed, in words (the format chosen when the deck names none, the printing assumed for a name alone).
        catalog_problems: problems of invalid catalog files (a draft from ``card new``): warnings;
            those files' cards are left out of the catalog, every other card prints.
    """

    card_ids: list[str] = field(default_factory=list)
    problems: list = field(default_factory=list)
    title: str = "cardlab proxies"
    catalog: Catalog | None = None
    report: decks.DeckReport | None = None
    notes: list[str] = field(default_factory=list)
    catalog_problems: list = field(default_factory=list)


def deck_cards(
    path: Path,
    catalog: Catalog,
    roots: Sequence[Path],
    format_name: str | None = None,
    force: bool = False,
    formats: dict | None = None,
) -> Selection:
    """Read a deck list, match it to the catalog and check it against its format.

    The format is ``format_name``, else the one the file names, else the format (of any game) under
    which the list has the fewest problems (ties: by name), so a plain list of Base Set cards works.

    Args:
        path: the deck file (text or YAML, see :mod:`cardlab.decks.check`).
        catalog: the loaded catalog; roots: its roots (where the formats are).
        format_name: a format name, or None.
        force: return the cards that matched even when the deck has problems.
        formats: the formats opened with the catalog (:func:`select` passes them, so the catalog is
            read once); None reads them from ``roots``.

    Returns:
        A :class:`Selection`; with ``force`` its ``problems`` lists what is wrong. Its ``notes`` name
        the format used when the file names none.

    Raises:
        InputError: the deck file cannot be read at all.
        UsageError: an unknown format name.
        DeckProblemsError: the deck has problems (unknown cards, illegal counts...) and ``force`` is False.
    """
    if formats is None:
        formats = load_formats(roots)
    deck_list = read_deck(Path(path), decks.header_words(formats))
    check = decks.check_list(deck_list, catalog, formats, format_name)
    deck, notes = check.best.deck, check.notes + [p.message for p in check.best.deck.notes]
    report = decks.DeckReport(deck, sorted(check.best.problems))
    if report.problems and not force:
        raise DeckProblemsError(report, notes)
    ids = expand((c.card_id, c.count) for c in deck.cards)
    return Selection(ids, report.problems if force else [], deck.name or Path(path).stem, report=report, notes=notes)


def query_cards(con: sqlite3.Connection, query: str) -> list[str]:
    """Return the ids of the cards matching a search query, in search order (one copy each).

    Args:
        con: an index connection (:func:`cardlab.search.engine.open_index`).
        query: a query (``set:base1 rarity:rare-holo``).

    Raises:
        QueryError: the query cannot be parsed.
    """

    return [hit.id for hit in search(con, query)]


def named_card(con: sqlite3.Connection, ref: str, catalog: Catalog | None = None, langs: Sequence[str] = ()) -> str:
    """Return the id of one card named by id, set and number, or name (as ``cardlab show``; with
    ``catalog``, also a name with its printing: ``Charizard 4/102``, ``Charizard BS 4``).

    Args:
        con: an index connection; ref: the card reference.
        catalog: the loaded catalog, to read a name with its printing
            (:func:`cardlab.decks.resolve.printing_named`) and to word a "not found" error (None:
            the index's wording).
        langs: preferred languages for the names suggested.

    Raises:
        CardNotFoundError: nothing matches; with ``catalog``, an id-like ``ref`` (``base1-999``) says
            how many cards its set has, and names suggested are in ``langs`` (else each set's source
            language).
        AmbiguousCardError: as :func:`cardlab.search.lookup.get_card`.
    """

    printing = None if catalog is None else (lambda text: printing_named(catalog, text))
    try:
        return get_card(con, ref, printing).id
    except CardNotFoundError:
        if catalog is None:
            raise
        raise _not_found(catalog, ref, langs) from None


_ID_LIKE = re.compile(r"(?P<set>[^\s-]+)(?:-|\s+)#?(?P<number>\w+)")


def _not_found(catalog: Catalog, ref: str, langs: Sequence[str]) -> CardlabError:
    """The error for a card reference matching nothing, worded from the catalog (see :func:`named_card`)."""

    text = ref.strip()
    m = _ID_LIKE.fullmatch(text)
    info = catalog.find_set(m.group("set")) if m else None
    if info is not None:
        count = sum(1 for code in catalog.card_set.values() if code == info.code)
        err = CardNotFoundError(ref, [])
        err.args = (f"no card {text} ({info.code} has {words.count(count, 'card')})",)
        return err
    if m and "-" in text and any(ch.isdigit() for ch in m.group("set")):
        err = CardNotFoundError(ref, [])
        err.args = (f"no card {text}: there is no set '{m.group('set')}' (sets: {', '.join(sorted(catalog.sets))})",)
        return err
    shown: dict[str, str] = {}  # name in the preferred language -> itself
    every: dict[str, set[str]] = {}  # name in any language -> card ids
    for card_id, card in catalog.cards.items():
        shown.setdefault(catalog.name_of(card_id, langs), card_id)
        for lang, name in (card.get("name") or {}).items():
            if lang != "_source" and isinstance(name, str):
                every.setdefault(name, set()).add(card_id)
    close = suggest(text, shown)
    if not close:  # a name in another language: show it with the preferred one
        for other in suggest(text, every):
            mine = catalog.name_of(min(every[other]), langs)
            label = mine if fold(mine) == fold(other) else f"{mine} ({other})"
            if label not in close:
                close.append(label)
    err = CardNotFoundError(ref, close)
    if not close:
        err.args = (f"no card '{text}'; give a card id (base1-58), a set and number (base1 58) or a card name",)
    return err


def select(
    roots: Sequence[Path],
    db: Path | str | None,
    deck: Path | None = None,
    queries: Sequence[str] = (),
    cards: Sequence[str] = (),
    format_name: str | None = None,
    force: bool = False,
    langs: Sequence[str] = (),
) -> Selection:
    """Load the catalog and gather the cards to print: a deck's cards, then each query's, then each card's.

    Args:
        roots: catalog roots; db: the index (:func:`cardlab.index.stored.open_catalog` reads the
            catalog and formats from it once when it is fresh; ``queries`` and ``cards`` search it).
        deck: a deck file or None; queries: search queries; cards: card references.
        format_name, force: as :func:`deck_cards`.
        langs: preferred languages, for the names suggested when a card reference matches nothing.

    Returns:
        A :class:`Selection` with ``catalog`` set. Invalid catalog files (a draft from ``card new``)
        do not stop the proxies of other cards: their cards are left out and their problems are
        the selection's ``catalog_problems`` (warnings), as the deck commands do.

    Raises:
        UsageError: nothing selected (no deck, query or card, or queries matching nothing).
        and whatever :func:`deck_cards`, :func:`query_cards`, :func:`named_card` raise.
    """
    # the catalog and its formats opened once, as deck validate does: from the index when it is
    # fresh, else validated in memory (with the problems of the files left out)
    catalog, formats, catalog_problems = open_catalog(list(roots), db)
    if deck is not None and catalog_problems and not formats:
        raise CatalogError(catalog_problems)
    try:
        selection = deck_cards(deck, catalog, roots, format_name, force, formats) if deck is not None else Selection()
    except DeckProblemsError as refused:
        refused.catalog_problems = list(catalog_problems)  # a line naming a draft card: say why
        raise
    selection.catalog_problems = list(catalog_problems)
    if queries or cards:
        if db is None:
            db = default_db(list(roots))
        con = open_index(list(roots), db)
        try:
            for q in dict.fromkeys(queries):  # a query given twice prints its cards once
                found = query_cards(con, q)
                if not found:
                    raise UsageError(f"no card matches the query '{q}'")
                selection.card_ids += found
            for ref in cards:
                if not ref.strip():
                    raise UsageError("--card is empty; give a card id (base1-58), a set and number or a name")
                try:
                    selection.card_ids.append(named_card(con, ref, catalog, langs))
                except CardlabError as err:
                    if catalog_problems:  # the card may be the draft left out
                        files = len({p.pos.path for p in catalog_problems})
                        err.args = (f"{err}; {files} invalid catalog file(s) left out (run 'cardlab validate')",)
                    raise
        finally:
            con.close()
        if deck is None:
            selection.title = "cardlab proxies: " + "; ".join([*queries, *cards])
    if not selection.card_ids:
        raise UsageError("no card to print")
    selection.catalog = catalog
    return selection


# --- output ----------------------------------------------------------------------------------


def render_pdf(
    catalog: Catalog,
    card_ids: Sequence[str],
    options: ProxyOptions = ProxyOptions(),
    title: str = "cardlab proxies",
) -> tuple[bytes, ProxyReport]:
    """Draw one proxy per entry of ``card_ids`` and return the PDF bytes and a report.

    Cards are printed in the order given; a change of card size (two games in one print) starts a
    new page. Basic Energy are left out when ``options.skip_basic_energy``.

    Args:
        catalog: a :class:`cardlab.catalog.model.Catalog` holding every id.
        card_ids: card ids, one per copy to print (see :func:`expand`).
        options: paper, languages, marks, bleed, card size.
        title: the PDF's title metadata.

    Returns:
        ``(pdf bytes, report)``; ``report.path`` is None.

    Raises:
        UsageError: bad paper, bleed or card size; no card left to print.
        KeyError: an id not in the catalog (resolve deck lists first).
    """
    from reportlab.pdfgen.canvas import Canvas  # lazy: ReportLab (120-150 ms cold), only for proxies

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
    register_fonts()
    # the initial font is an embedded one: never a reference to the (unembedded) standard Helvetica
    canvas = Canvas(buf, pagesize=PAPERS[paper], invariant=1, pageCompression=1, initialFontName=FONTS["regular"])
    canvas.setTitle(title)
    canvas.setAuthor("cardlab")
    canvas.setCreator("cardlab proxies")
    pen = Pen(canvas)
    ctx = Context(catalog, tuple(options.langs))
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
                _draw_marks(canvas, current, slot)
                canvas.showPage()
            canvas.setPageSize(layout.page_pt)
            current, slot = layout, 0
            report.pages += 1
        key = (card_id, size)
        if key not in forms:  # each distinct card is drawn once, as a form placed per copy
            name = f"card{len(forms)}"
            canvas.beginForm(name, 0, 0, size[0] * MM, size[1] * MM)
            color, message = draw_face(pen, ctx, card_id, Rect(0, 0, size[0], size[1]))
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
    if current is not None:
        _draw_marks(canvas, current, slot)
    canvas.showPage()
    canvas.save()
    data = buf.getvalue()
    report.bytes = len(data)
    return data, report


def make_proxies(
    catalog: Catalog,
    card_ids: Sequence[str],
    out: Path | str,
    options: ProxyOptions = ProxyOptions(),
    overwrite: bool = False,
    title: str = "cardlab proxies",
    protected: Sequence[Path] = (),
) -> ProxyReport:
    """Render proxies for ``card_ids`` (one per copy) and write the PDF to ``out`` atomically.

    The output is checked first (fails fast, before any drawing) and written through a temporary
    file in the same folder: no partial PDF is ever left at ``out``. ``protected`` lists the inputs
    (the deck file, the catalog roots) that the PDF must not replace (:func:`cardlab.core.fs.check_output`).

    Returns:
        The :class:`ProxyReport`, with ``path`` and ``bytes`` set.

    Raises:
        OutputError: ``out`` exists (without ``overwrite``) or cannot be written;
            OutputPathError (exit 2) when the path itself is wrong (:func:`check_output`).
        UsageError: bad paper, bleed or card size; nothing to print.
    """
    check_output(out, overwrite, protected=protected)
    data, report = render_pdf(catalog, card_ids, options, title)
    report.path = atomic_write(out, data, overwrite, protected=protected)
    return report


def _draw_marks(canvas: Canvas, layout: Layout, cards: int) -> None:
    """Draw the crop marks of a page holding ``cards`` cards (only rows and columns with cards)."""
    marks = layout.marks_for(cards)
    if not marks:
        return
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.3)
    for (x1, y1), (x2, y2) in marks:
        if abs(x2 - x1) + abs(y2 - y1) > 0.2:
            canvas.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
