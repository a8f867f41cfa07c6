"""Issue 10, kind H ("proxies that print anywhere"): every font of every PDF is embedded (checked
with pypdf on every game and language), labels follow the face's language, the last page has crop
marks only where cards are, and small cards fill the paper."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from cardlab.proxies import pdf as px
from cardlab.proxies.layout import compute_layout

pypdf = pytest.importorskip("pypdf")

REPO = Path(__file__).resolve().parents[3]
ROOTS = [REPO / "cards", REPO / "tests" / "fixtures" / "catalog"]


@pytest.fixture(scope="module")
def catalog():
    from cardlab.catalog.validate import validate

    return validate(ROOTS, cache_path=None).catalog


def _fonts(data: bytes) -> dict[str, bool]:
    """Every font a PDF uses (pages and the forms they draw) -> whether its program is embedded."""
    found: dict[str, bool] = {}

    def walk(resources) -> None:  # noqa: ANN001
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            parts = [d.get_object() for d in font["/DescendantFonts"]] if font.get("/Subtype") == "/Type0" else [font]
            descriptors = [p.get("/FontDescriptor") for p in parts]
            found[str(font["/BaseFont"])] = all(
                d is not None and any(k in d.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")) for d in descriptors
            )
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in pypdf.PdfReader(io.BytesIO(data)).pages:
        walk(page.get("/Resources"))
    return found


def _text(data: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(data)).pages]


@pytest.mark.parametrize("langs", [(), ("fr",), ("ja",), ("de",), ("it",), ("es",)])
def test_every_font_is_embedded(catalog, langs):
    """Kind H (fonts embedded): Latin, French accents, Japanese, symbols: no font is left to the viewer."""
    ids = ["base1-4", "base1-58", "base1-76", "base1-96", "ippo-test-1", "ippo-test-3", "monpa-test-1", "monpa-test-4"]
    data, _report = px.render_pdf(catalog, ids, px.ProxyOptions(langs=list(langs)))
    fonts = _fonts(data)
    assert fonts and all(fonts.values()), fonts
    assert not any("Helvetica" in f or "Heisei" in f for f in fonts)


def test_japanese_text_uses_the_shipped_font(catalog):
    """Kind H: Japanese names are drawn with the embedded IPAex Gothic subset."""
    data, _ = px.render_pdf(catalog, ["ippo-test-3"], px.ProxyOptions(langs=["ja"]))
    assert "テストフック" in _text(data)[0]
    assert any("IPAexGothic" in f and embedded for f, embedded in _fonts(data).items())


@pytest.mark.parametrize(
    ("lang", "needles"),
    [
        ("fr", ["40 PV", "Niv. 12", "Commune", "Faiblesse", "Retraite"]),
        ("de", ["40 KP", "Level 12", "Häufig", "Schwäche", "Rückzug"]),
        ("it", ["40 PS", "Liv. 12", "Comune", "Debolezza", "Ritirata"]),
        ("es", ["40 PS", "Nivel 12", "Común", "Debilidad", "Retirada"]),
        ("en", ["40 HP", "Level 12", "Common", "Weakness", "Retreat"]),
    ],
)
def test_faces_translate_their_labels(catalog, lang, needles):
    """Kind H (labels in the face's language): level, rarity, HP and the footer labels."""
    data, _ = px.render_pdf(catalog, ["base1-58"], px.ProxyOptions(langs=[lang]))
    text = _text(data)[0]
    for needle in needles:
        assert needle in text, (needle, text)


def _mark_lines(data: bytes, page: int) -> int:
    content = pypdf.PdfReader(io.BytesIO(data)).pages[page].get_contents().get_data().decode("latin-1")
    return len(re.findall(r" m [-\d.]+ [-\d.]+ l S", content))


def test_last_page_marks_only_rows_that_hold_cards(catalog):
    """Kind H (crop marks): a last page holding one card has marks for that card only."""
    layout = compute_layout("a4")
    data, report = px.render_pdf(catalog, ["base1-58"] * 10, px.ProxyOptions(paper="a4"))
    assert report.pages == 2
    assert _mark_lines(data, 0) == len(layout.marks)
    one = layout.marks_for(1)
    assert _mark_lines(data, 1) == len(one) == 8
    card = layout.cards[0]
    for (x1, y1), _end in one:
        # every mark is in line with the one card's cut edges
        assert any(abs(v - e) < 1e-6 for v in (x1, y1) for e in (card.x, card.x + card.w, card.y, card.y + card.h))


@pytest.mark.parametrize(
    ("paper", "size", "per_page"),
    [("a4", (41, 63), 16), ("letter", (41, 63), 20), ("a4", (63, 88), 9), ("a4", (59, 86), 9), ("a4", (25, 35), 64)],
)
def test_small_cards_fill_the_page(paper, size, per_page):
    """Kind H (page capacity): small cards fit as many per page as the paper allows; cards stay
    inside the page, apart, with the crop-mark margin."""
    layout = compute_layout(paper, size)
    assert layout.per_page == per_page
    w, h = layout.page_mm
    for i, c in enumerate(layout.cards):
        assert 3.0 - 1e-6 <= c.x and c.x + c.w <= w - 3.0 + 1e-6 and 3.0 - 1e-6 <= c.y and c.y + c.h <= h - 3.0 + 1e-6
        assert not any(c.overlaps(o) for o in layout.cards[i + 1 :])
