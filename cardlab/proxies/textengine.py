"""Proxy text engine: measuring, wrapping, fitting and drawing mixed Latin/Japanese text and
energy-style symbols on a ReportLab canvas, for :mod:`cardlab.proxies.faces`.

A *span* is ``(text, style, colour or None)``; a symbol is ``("@sym", label, colour)``. Body text is
a list of :class:`Block` values laid out top-down by :func:`draw_body`, which shrinks the text size
until it fits. ReportLab is imported inside the functions that need it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

FONT_DIR = Path(__file__).parent / "fonts"
"""Fonts shipped with cardlab, every one embedded (as a subset) in the PDFs it writes, so that any
viewer or print shop shows the same text: Liberation Sans (SIL OFL 1.1; metrics of Helvetica/Arial)
for Latin, Greek and Cyrillic text, IPAex Gothic (IPA Font License 1.0) for Japanese. Both come
unmodified from Debian's fonts-liberation2 and fonts-ipaexfont-gothic packages; their licenses are
beside them."""
CJK_FONT = "IPAexGothic"
"""The Japanese font (IPAex Gothic, ``fonts/ipaexg.ttf``), embedded as a subset."""
FONTS = {"regular": "LiberationSans", "bold": "LiberationSans-Bold", "italic": "LiberationSans-Italic"}
"""The Latin font of each style (Liberation Sans, ``fonts/``), embedded as subsets."""
_FONT_FILES = {
    "LiberationSans": "LiberationSans-Regular.ttf",
    "LiberationSans-Bold": "LiberationSans-Bold.ttf",
    "LiberationSans-Italic": "LiberationSans-Italic.ttf",
    CJK_FONT: "ipaexg.ttf",
}


def register_fonts() -> None:
    """Register the shipped fonts with ReportLab (once): TrueType fonts, which ReportLab embeds as
    subsets holding the glyphs used."""
    from reportlab.pdfbase import pdfmetrics  # lazy: ReportLab (120-150 ms cold), only for proxies
    from reportlab.pdfbase.ttfonts import TTFont  # lazy: ReportLab (120-150 ms cold), only for proxies

    known = set(pdfmetrics.getRegisteredFontNames())
    for name, file in _FONT_FILES.items():
        if name not in known:
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))


_LATIN_CHARS: frozenset[int] | None = None


def _latin_chars() -> frozenset[int]:
    """The code points the Latin font has a glyph for."""
    global _LATIN_CHARS
    if _LATIN_CHARS is None:
        from reportlab.pdfbase import pdfmetrics  # lazy: ReportLab (120-150 ms cold), only for proxies

        register_fonts()
        _LATIN_CHARS = frozenset(pdfmetrics.getFont(FONTS["regular"]).face.charToGlyph)
    return _LATIN_CHARS


BODY_MAX_PT = 8.5
BODY_MIN_PT = 6.0
"""Rules text starts at BODY_MAX_PT and shrinks in 0.25 pt steps, never below BODY_MIN_PT (legible
at arm's length on a 63 x 88 mm card); text still too long is cut with a visible mark and reported.
A word wider than the text box (a long URL) is broken inside the word, never cut at the edge."""
NAME_PT = (12.0, 7.5)
RGB = tuple[float, float, float]
"""A colour: red, green, blue from 0 to 1."""
INK: RGB = (0.1, 0.1, 0.1)
MUTED = (0.38, 0.38, 0.38)


def _latin(ch: str) -> bool:
    return ord(ch) in _latin_chars() and not _wide(ch)


def _runs(text: str) -> list[tuple[str, bool]]:
    """Split text into (run, is_latin) pieces: what Liberation Sans has in it (Latin, Greek,
    Cyrillic, symbols), the rest (Japanese) in IPAex Gothic."""
    if text.isascii():
        return [(text, True)] if text else []
    return [("".join(run), lat) for lat, run in groupby(text, _latin)]


def _wide(ch: str) -> bool:

    return unicodedata.east_asian_width(ch) in ("W", "F")


class Pen:
    """Measures and draws mixed Latin/Japanese text on a ReportLab canvas."""

    def __init__(self, canvas: Canvas) -> None:
        from reportlab.pdfbase import pdfmetrics  # lazy: ReportLab (120-150 ms cold), only for proxies

        register_fonts()
        self.canvas = canvas
        self.metrics = pdfmetrics
        self._cjk = False
        self._text = None  # the open text object of :meth:`line`, if any
        self._unit: dict[tuple[str, str], float] = {}

    def _cjk_font(self) -> str:
        if not self._cjk:
            register_fonts()
            self._cjk = True
        return CJK_FONT

    def width(self, text: str, size: float, style: str = "regular") -> float:
        """Width of ``text`` in points at ``size`` points."""
        return sum(self.metrics.stringWidth(run, FONTS[style] if lat else self._cjk_font(), size) for run, lat in _runs(text))

    def char_width(self, ch: str, size: float, style: str = "regular") -> float:
        """Width of one character in points at ``size`` points (cached per character and style)."""
        key = (ch, style)
        unit = self._unit.get(key)
        if unit is None:
            unit = self._unit[key] = self.width(ch, 1000.0, style) / 1000.0
        return unit * size

    @contextmanager
    def line(self) -> Iterator[None]:
        """Collect every :meth:`draw` inside the block into one PDF text object.

        Pieces drawn on one baseline then read as one line of text: PDF readers (pypdf's
        ``extract_text``, a viewer's search) see ``Thunder Jolt``, not ``Thunder`` and ``Jolt`` on
        lines of their own. Positions, fonts and colours are the same as drawing piece by piece;
        the text object sits inside its own graphics state so nothing leaks to later drawing.
        """
        if self._text is not None:  # already inside a line
            yield
            return
        self._text = self.canvas.beginText()
        try:
            yield
        finally:
            text, self._text = self._text, None
            self.canvas.saveState()
            self.canvas.drawText(text)
            self.canvas.restoreState()

    def draw(self, x: float, y: float, text: str, size: float, style: str = "regular", color: tuple[float, float, float] = INK) -> float:
        """Draw ``text`` with its baseline at ``(x, y)`` points; return the width drawn."""
        if self._text is not None:
            t = self._text
            t.setFillColorRGB(*color)
            t.setTextOrigin(x, y)
            width = 0.0
            for run, lat in _runs(text):
                font = FONTS[style] if lat else self._cjk_font()
                t.setFont(font, size)
                t.textOut(run)
                width += self.metrics.stringWidth(run, font, size)
            return width
        with self.line():
            return self.draw(x, y, text, size, style, color)

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
class Block:
    """A body element: ``para`` (wrapped spans), ``row`` (one line: left spans, right text), ``rule``,
    ``big`` (one large centred symbol line)."""

    kind: str
    spans: list = field(default_factory=list)
    right: str = ""
    scale: float = 1.0
    gap: float = 0.35  # space after, in lines of body text


def _tokens(spans: list) -> list[tuple[str, str, object, bool]]:
    """Break spans into wrap tokens ``(text, style, colour, space_before)``; each CJK character and
    each symbol is its own token."""
    out: list = []
    for text, style, color in spans:
        space = bool(out)  # spans are separated by a space
        if text == "@sym":
            out.append((style, "@sym", color, space))
            continue
        for m in _WORD.finditer(text):
            space = space or bool(m.group(1))
            word = m.group(2)
            start = 0
            if not word.isascii():  # each wide (CJK) character is a token of its own
                for i, ch in enumerate(word):
                    if _wide(ch):
                        if i > start:
                            out.append((word[start:i], style, color, space))
                        out.append((ch, style, color, space and i == start))
                        space, start = False, i + 1
            if start < len(word):
                out.append((word[start:] if start else word, style, color, space))
            space = False
    return out


_WORD = re.compile(r"(\s*)(\S+)")


def sym_width(label: str, size: float) -> float:
    return size * (1.05 if len(label) <= 1 else 0.55 * len(label) + 0.6)


class _Body:
    """Lays out body blocks in a box ``width`` points wide at a given text size."""

    def __init__(self, pen: Pen, width: float) -> None:
        self.pen, self.width = pen, width

    def lines(self, blocks: list[Block], size: float) -> list[tuple[float, list, Block]]:
        """Return ``(line height, items, block)`` per line; items are ``(x, token, size)``."""
        out: list[tuple[float, list, Block]] = []
        for block in blocks:
            s = size * block.scale
            lh = s * 1.22
            if block.kind in ("rule", "big"):
                out.append((s * (0.7 if block.kind == "rule" else 6.5), [], block))
                continue
            reserve = self.pen.width(block.right, s * 1.15, "bold") + 4 if block.kind == "row" and block.right else 0.0
            x, items = 0.0, cast(list, [])
            for tok in _tokens(block.spans):
                text, style, color, space = tok
                w = sym_width(text, s) if style == "@sym" else self.pen.width(text, s, style)
                sp = self.pen.width(" ", s) if space and items else 0.0
                breakable = style != "@sym" and len(text) > 1
                room = self.width - reserve - x - sp
                # a word that fits no line (a long URL) starts where it is, when a little room is left
                if items and w > room and not (breakable and w > self.width and room >= 4 * s):
                    out.append((lh, items, block))
                    x, items, sp, reserve = 0.0, [], 0.0, 0.0
                if breakable and x + sp + w > self.width - reserve:  # break it inside the word
                    start = 0
                    while len(text) - start > 1 and x + sp + w > self.width - reserve:
                        end, hw = self._fit(text, start, s, style, self.width - reserve - x - sp)
                        items.append((x + sp, (text[start:end], style, color, space), s))
                        out.append((lh, items, block))
                        x, items, sp, reserve, space = 0.0, [], 0.0, 0.0, False
                        start, w = end, w - hw
                    tok = (text[start:], style, color, space)
                items.append((x + sp, tok, s))
                x += sp + w
            out.append((lh + s * block.gap * 1.22, items, block))
        return out

    def _fit(self, word: str, start: int, size: float, style: str, room: float) -> tuple[int, float]:
        """Return the end of the longest piece of ``word`` from ``start`` (at least one character)
        that fits ``room`` points, and its width."""
        used, end = 0.0, start
        for end in range(start, len(word)):
            cw = self.pen.char_width(word[end], size, style)
            if used + cw > room and end > start:
                return end, used
            used += cw
        return len(word), used


def draw_symbol(pen: Pen, x: float, baseline: float, label: str, size: float, color: tuple[float, float, float]) -> None:
    c = pen.canvas
    w = sym_width(label, size)
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


def draw_body(pen: Pen, box: tuple[float, float, float, float], blocks: list[Block]) -> str | None:
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
        lines = kept + [
            (
                BODY_MIN_PT * 1.3,
                [(0.0, ("[…] text continues: see the real card", "italic", (0.7, 0, 0), False), BODY_MIN_PT)],
                Block("para"),
            )
        ]
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
            draw_symbol(pen, x0 + (w - sym_width(label, big)) / 2, y - lh + s * 1.2, label, big, color)
            y -= lh
            continue
        baseline = y - s * 1.22 * 0.8
        with pen.line():
            for ix, (text, style, color), ts in _pieces(pen, items):
                if style == "@sym":
                    draw_symbol(pen, x0 + ix, baseline, text, ts, cast(RGB, color))
                else:
                    pen.draw(x0 + ix, baseline, text, ts, style, cast(RGB, color or INK))
            if block.kind == "row" and block.right and id(block) not in seen_rows:
                seen_rows.add(id(block))
                rw = pen.width(block.right, s * 1.15, "bold")
                pen.draw(x0 + w - rw, baseline, block.right, s * 1.15, "bold")
        y -= lh
    return overflow


def _pieces(pen: Pen, items: list) -> list[tuple[float, tuple[str, str, object], float]]:
    """Join the words of a laid-out line into runs of one style and colour, spaces included, where
    the joined run lands every word exactly where the layout put it; symbols stay on their own."""
    out: list = []
    for ix, (text, style, color, space), ts in items:
        if out and style != "@sym":
            px, (ptext, pstyle, pcolor), pts = out[-1]
            joined = ptext + (" " if space else "") + text
            if (pstyle, pcolor, pts) == (style, color, ts) and abs(
                px + pen.width(joined[: len(joined) - len(text)], ts, style) - ix
            ) < 0.01:
                out[-1] = (px, (joined, style, color), ts)
                continue
        out.append((ix, (text, style, color), ts))
    return out


def spans_width(pen: Pen, spans: list, size: float) -> float:
    """Width in points of ``spans`` on one line at ``size`` points (2.5 pt between spans)."""
    total = 0.0
    for i, (text, style, _) in enumerate(spans):
        total += (sym_width(style, size) if text == "@sym" else pen.width(text, size, style)) + (2.5 if i else 0)
    return total


def draw_spans(pen: Pen, x: float, baseline: float, spans: list, size: float) -> float:
    """Draw ``spans`` on one line from ``x`` at ``baseline`` (points); return the x where they end."""
    with pen.line():
        for i, (text, style, color) in enumerate(spans):
            if i:
                x += 2.5
            if text == "@sym":
                draw_symbol(pen, x, baseline, style, size, color)
                x += sym_width(style, size)
            else:
                x += pen.draw(x, baseline, text, size, style, color or INK)
    return x
