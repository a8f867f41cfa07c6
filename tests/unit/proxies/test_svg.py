"""A card's proxy face as SVG (:mod:`cardlab.proxies.svg`): the same drawing as the PDF's face."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardlab.proxies.svg import SvgCanvas, face_svg

pypdf = pytest.importorskip("pypdf")

REPO = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def catalog():
    from cardlab.catalog.validate import load_catalog

    return load_catalog([REPO / "cards" / "pokemon" / "base1", REPO / "tests" / "fixtures" / "catalog" / "ippo"])


def runs(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(SVG + "text")]


@pytest.mark.parametrize("card_id", ["base1-4", "base1-58", "base1-91", "base1-98", "ippo-test-1"])
def test_the_svg_face_says_what_the_pdf_face_says(catalog, card_id):
    """Every text run of the SVG face is in the PDF proxy of the same card, in the same order."""
    from cardlab.proxies.pdf import ProxyOptions, render_pdf

    data, _ = render_pdf(catalog, [card_id], ProxyOptions(paper="a4", cut_marks=False))
    pdf_text = " ".join(pypdf.PdfReader(io.BytesIO(data)).pages[0].extract_text().split())
    svg_runs = [r.strip() for r in runs(face_svg(catalog, card_id)) if r.strip()]
    assert len(svg_runs) >= 5
    at = 0
    for run in svg_runs:
        found = pdf_text.find(" ".join(run.split()), at)
        assert found >= 0, (run, pdf_text[at : at + 80])
        at = found


def test_coordinates_turn_to_the_top_left_origin():
    """A rectangle 10 pt from the bottom of a 100 pt drawing is 70 pt from its top (20 pt high)."""
    canvas = SvgCanvas(50, 100)
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(5, 10, 20, 20, stroke=0, fill=1)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 1)
    canvas.circle(25, 90, 4, stroke=0, fill=1)
    canvas.restoreState()
    canvas.circle(25, 50, 1, stroke=0, fill=1)
    svg = canvas.svg("test <face>")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 100" width="50pt" height="100pt" role="img">')
    assert '<title>test &lt;face&gt;</title><rect x="5" y="70" width="20" height="20" fill="#ff0000"/>' in svg
    assert '<circle cx="25" cy="10" r="4" fill="#0000ff"/><circle cx="25" cy="50" r="1" fill="#ff0000"/>' in svg


def test_every_font_of_the_text_engine_has_an_svg_family():
    from cardlab.proxies.svg import FONT_FAMILY
    from cardlab.proxies.textengine import CJK_FONT, FONTS

    assert sorted(FONT_FAMILY) == sorted([*FONTS.values(), CJK_FONT])


def test_text_is_escaped_and_placed_at_its_baseline():
    canvas = SvgCanvas(100, 100)
    text = canvas.beginText()
    text.setFont("LiberationSans-Bold", 10)
    text.setTextOrigin(3, 20)
    text.textOut("<b>&")
    canvas.drawText(text)
    assert (
        '<text x="3" y="80" font-family="\'Liberation Sans\', Arial, Helvetica, sans-serif" font-size="10" font-weight="bold" fill="#000000" xml:space="preserve">&lt;b&gt;&amp;</text>'
        in canvas.svg("t")
    )
