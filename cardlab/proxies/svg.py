"""A card face as SVG: the proxies' own face (:func:`cardlab.proxies.faces.draw_face`) drawn on
:class:`SvgCanvas`, a recording stand-in for the ReportLab canvas that writes SVG elements.

The same layout code as the PDF (:mod:`cardlab.proxies.faces`, :mod:`cardlab.proxies.textengine`):
text is measured with the same font metrics (Liberation Sans, IPAex Gothic) and placed at the same
points; the SVG names the fonts (``Liberation Sans``, ``Arial``: the same metrics) rather than
embedding them, so a face is a few kilobytes. Never printed art: the face is the proxy's own
drawing (frame, bands, text, Energy symbols).

Coordinates: the canvas receives PDF points from the bottom-left corner; the SVG's ``viewBox`` is
the card in points from the top-left corner (``y_svg = height - y``). Only presentation attributes
are written (no ``style`` attribute, no script): the site's Content-Security-Policy allows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from cardlab.proxies.faces import Context, draw_face
from cardlab.proxies.layout import MM, Rect
from cardlab.proxies.pdf import card_size
from cardlab.proxies.textengine import CJK_FONT, FONTS, Pen

if TYPE_CHECKING:
    from cardlab.catalog.model import Catalog

FONT_FAMILY = {
    "LiberationSans": ("'Liberation Sans', Arial, Helvetica, sans-serif", "", ""),
    "LiberationSans-Bold": ("'Liberation Sans', Arial, Helvetica, sans-serif", "bold", ""),
    "LiberationSans-Italic": ("'Liberation Sans', Arial, Helvetica, sans-serif", "", "italic"),
    CJK_FONT: ("'IPAexGothic', 'IPAexゴシック', 'Noto Sans CJK JP', sans-serif", "", ""),
}
"""The text engine's font name -> (SVG font-family, font-weight, font-style): the fonts the PDF
embeds, named, with faces of the same metrics after them."""


def _rgb(color: tuple[float, float, float]) -> str:
    """An RGB colour (0 to 1 each) as ``#rrggbb``."""
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in color)


def _n(v: float) -> str:
    """A coordinate with two decimals at most (``12.5``, ``3``)."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


@dataclass
class _State:
    fill: str = "#000000"
    stroke: str = "#000000"
    width: float = 1.0


@dataclass
class _Text:
    """The text object of :meth:`SvgCanvas.beginText`: runs ``(x, y, font, size, fill, text)``."""

    runs: list[tuple[float, float, str, float, str, str]] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    font: str = FONTS["regular"]
    size: float = 10.0
    fill: str = "#000000"

    def setFillColorRGB(self, r: float, g: float, b: float) -> None:  # noqa: N802 - ReportLab's name
        self.fill = _rgb((r, g, b))

    def setTextOrigin(self, x: float, y: float) -> None:  # noqa: N802
        self.x, self.y = x, y

    def setFont(self, font: str, size: float) -> None:  # noqa: N802
        self.font, self.size = font, size

    def textOut(self, text: str) -> None:  # noqa: N802
        self.runs.append((self.x, self.y, self.font, self.size, self.fill, text))
        from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: ReportLab, only for faces

        self.x += stringWidth(text, self.font, self.size)


class SvgCanvas:
    """The part of ReportLab's canvas that :func:`draw_face` and the text engine use (state, colours,
    line width, rect, roundRect, line, circle, text objects), recording SVG elements.

    Args:
        width, height: the drawing's size in points.
    """

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []
        self._state = _State()
        self._stack: list[_State] = []

    def _y(self, y: float) -> float:
        return self.height - y

    def saveState(self) -> None:  # noqa: N802 - ReportLab's name
        self._stack.append(_State(self._state.fill, self._state.stroke, self._state.width))

    def restoreState(self) -> None:  # noqa: N802
        self._state = self._stack.pop()

    def setFillColorRGB(self, r: float, g: float, b: float) -> None:  # noqa: N802
        self._state.fill = _rgb((r, g, b))

    def setStrokeColorRGB(self, r: float, g: float, b: float) -> None:  # noqa: N802
        self._state.stroke = _rgb((r, g, b))

    def setLineWidth(self, width: float) -> None:  # noqa: N802
        self._state.width = width

    def _paint(self, stroke: int, fill: int) -> str:
        s = self._state
        paint = f' fill="{s.fill}"' if fill else ' fill="none"'
        if stroke:
            paint += f' stroke="{s.stroke}" stroke-width="{_n(s.width)}"'
        return paint

    def rect(self, x: float, y: float, w: float, h: float, stroke: int = 1, fill: int = 0) -> None:
        self.parts.append(f'<rect x="{_n(x)}" y="{_n(self._y(y + h))}" width="{_n(w)}" height="{_n(h)}"{self._paint(stroke, fill)}/>')

    def roundRect(self, x: float, y: float, w: float, h: float, r: float, stroke: int = 1, fill: int = 0) -> None:  # noqa: N802
        self.parts.append(
            f'<rect x="{_n(x)}" y="{_n(self._y(y + h))}" width="{_n(w)}" height="{_n(h)}" rx="{_n(r)}"{self._paint(stroke, fill)}/>'
        )

    def circle(self, cx: float, cy: float, r: float, stroke: int = 1, fill: int = 0) -> None:
        self.parts.append(f'<circle cx="{_n(cx)}" cy="{_n(self._y(cy))}" r="{_n(r)}"{self._paint(stroke, fill)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        s = self._state
        self.parts.append(
            f'<line x1="{_n(x1)}" y1="{_n(self._y(y1))}" x2="{_n(x2)}" y2="{_n(self._y(y2))}" stroke="{s.stroke}" stroke-width="{_n(s.width)}"/>'
        )

    def beginText(self) -> _Text:  # noqa: N802
        return _Text()

    def drawText(self, text: _Text) -> None:  # noqa: N802
        for x, y, font, size, fill, run in text.runs:
            family, weight, style = FONT_FAMILY[font]
            extra = (f' font-weight="{weight}"' if weight else "") + (f' font-style="{style}"' if style else "")
            self.parts.append(
                f'<text x="{_n(x)}" y="{_n(self._y(y))}" font-family={quoteattr(family)} font-size="{_n(size)}"'
                f'{extra} fill="{fill}" xml:space="preserve">{escape(run)}</text>'
            )

    def svg(self, title: str) -> str:
        """The recorded drawing as a standalone SVG document titled ``title`` (its text alternative)."""
        w, h = _n(self.width), _n(self.height)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}pt" height="{h}pt" role="img">'
            f"<title>{escape(title)}</title>" + "".join(self.parts) + "</svg>\n"
        )


def face_svg(catalog: Catalog, card_id: str, langs: tuple[str, ...] = (), size_mm: tuple[float, float] | None = None) -> str:
    """Return the proxy face of one card as an SVG document (UTF-8 text).

    Args:
        catalog: the catalog holding the card.
        card_id: the card's id.
        langs: preferred languages for names, text and labels (as ``cardlab proxies --lang``).
        size_mm: the card's (width, height) in mm; default its set's ``card_size_mm`` or 63 x 88 mm.

    Returns:
        ``<svg ...>...</svg>``: the card in points, titled "<name> (proxy face)".

    Raises:
        KeyError: ``card_id`` is not in the catalog.
    """
    w, h = size_mm or card_size(catalog, card_id)
    canvas = SvgCanvas(w * MM, h * MM)
    ctx = Context(catalog, langs)
    draw_face(Pen(canvas), ctx, card_id, Rect(0, 0, w, h))  # the recording canvas stands in for ReportLab's
    name = ctx.tr(card_id, catalog.cards[card_id].get("name"))
    return canvas.svg(f"{name} (proxy face)")
