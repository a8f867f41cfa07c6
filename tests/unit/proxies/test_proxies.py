"""Proxies: layout arithmetic (to 0.1 mm), PDF content read back with pypdf, bad input, the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.catalog.model import Catalog, SetInfo
from cardlab.core import fs
from cardlab.core import fs as proxy_output
from cardlab.core.errors import DataError, UsageError
from cardlab.proxies import pdf as px

pypdf = pytest.importorskip("pypdf")

REPO = Path(__file__).resolve().parents[3]
POKEMON = REPO / "cards" / "pokemon"  # Base Set + Pokémon formats
IPPO = REPO / "tests" / "fixtures" / "catalog" / "ippo" / "ippo-test"
MONPA = REPO / "tests" / "fixtures" / "catalog" / "monpa" / "monpa-test"
PT = 72 / 25.4

ZAP = """\
4 Pikachu
3 Magnemite
3 Abra
1 Kadabra
3 Gastly
2 Haunter
2 Drowzee
2 Jynx
1 Mewtwo
2 Bill
1 Computer Search
1 Defender
2 Gust of Wind
1 Potion
1 Professor Oak
1 Super Potion
2 Switch
12 Lightning Energy
16 Psychic Energy
"""
"""The "Zap!" theme deck (1999): 60 cards, 28 of them basic Energy (examples/decks/zap-theme-deck.txt)."""


@pytest.fixture(scope="module")
def base1():
    from cardlab.catalog.validate import load_catalog

    return load_catalog([POKEMON])


@pytest.fixture
def zap(tmp_path) -> Path:
    path = tmp_path / "zap.txt"
    path.write_text(ZAP, encoding="utf-8")
    return path


def _text(pdf: Path | bytes) -> list[str]:
    import io

    reader = pypdf.PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf)
    return [page.extract_text() or "" for page in reader.pages]


def _flat(text: str) -> str:
    return " ".join(text.split())


# --- layout ----------------------------------------------------------------------------------


def _near(a: float, b: float, tol: float = 0.05) -> bool:
    return abs(a - b) <= tol


def test_a4_layout_centres_nine_63x88_cards():
    lay = px.compute_layout("a4")
    assert _near(lay.page_pt[0], 595.28, 0.01) and _near(lay.page_pt[1], 841.89, 0.01)
    assert (lay.cols, lay.rows, len(lay.cards)) == (3, 3, 9)
    assert all(_near(c.w, 63) and _near(c.h, 88) for c in lay.cards)
    first, last = lay.cards[0], lay.cards[-1]
    assert _near(first.x, 10.5) and _near(first.y + first.h, 297 - 16.5)  # top-left card
    assert _near(last.x + last.w, 210 - 10.5) and _near(last.y, 16.5)  # bottom-right card
    assert _near(lay.cards[1].x, 73.5) and _near(lay.cards[3].y, 104.5)  # cards touch: one cut
    assert lay.notes == [] and lay.gutter_mm == (0, 0)


def test_letter_layout_centres_nine_cards():
    lay = px.compute_layout("letter")
    assert lay.page_pt == pytest.approx((612, 792), abs=0.01)
    assert _near(lay.cards[0].x, (215.9 - 189) / 2) and _near(lay.cards[-1].y, (279.4 - 264) / 2)


def test_rect_in_points():
    x, y, w, h = px.compute_layout("a4").cards[0].pt
    assert (w, h) == pytest.approx((63 * PT, 88 * PT))
    assert x == pytest.approx(10.5 * PT)


def test_bleed_on_a4_keeps_full_gutters_when_they_fit():
    lay = px.compute_layout("a4", bleed_mm=2)
    assert lay.gutter_mm == pytest.approx((4, 4)) and lay.notes == []
    b = lay.bleeds[4]
    assert _near(b.w, 67) and _near(b.h, 92)
    assert _near(lay.cards[0].x + lay.cards[0].w / 2 + lay.cards[2].x + lay.cards[2].w / 2, 210)  # centred
    # 3 mm: 3 x 69 = 207 mm leaves under 3 mm a side across A4, so columns share: 210 - 6 - 189 - 6 = 9 mm
    lay = px.compute_layout("a4", bleed_mm=3)
    assert lay.gutter_mm == pytest.approx((4.5, 6))
    assert len(lay.notes) == 1 and "across" in lay.notes[0] and "4.5 mm gutter" in lay.notes[0]


def test_bleed_on_letter_is_shared_between_rows_and_said():
    lay = px.compute_layout("letter", bleed_mm=3)
    gx, gy = lay.gutter_mm
    assert _near(gx, 6)
    assert _near(gy, 1.7)  # 279.4 - 2*3 margin - 264 - 2*3 outer bleed = 3.4 for 2 gutters
    assert lay.notes and "share" in lay.notes[0] and "down" in lay.notes[0]
    top = max(b.y + b.h for b in lay.bleeds)
    assert top <= 279.4 - px.MIN_MARGIN_MM + 1e-6
    assert all(_near(c.h, 88) for c in lay.cards)
    for i, a in enumerate(lay.bleeds):  # bleeds meet but never overlap
        assert not any(a.overlaps(b) for b in lay.bleeds[i + 1 :])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 1.5, 3])
def test_crop_marks_stay_outside_the_cards(paper, bleed):
    lay = px.compute_layout(paper, bleed_mm=bleed)
    assert lay.marks
    page_w, page_h = lay.page_mm
    for (x1, y1), (x2, y2) in lay.marks:
        seg = px.Rect(min(x1, x2), min(y1, y2), max(abs(x2 - x1), 1e-3), max(abs(y2 - y1), 1e-3))
        assert not any(seg.overlaps(b) for b in lay.bleeds)
        assert 0 <= min(x1, x2) and max(x1, x2) <= page_w and 0 <= min(y1, y2) and max(y1, y2) <= page_h
    xs = {round(x1, 3) for (x1, _), (x2, _) in lay.marks if x1 == x2}
    assert {round(c.x, 3) for c in lay.cards} <= xs  # a mark at every vertical cut line
    assert px.compute_layout(paper, bleed_mm=bleed, cut_marks=False).marks == []


def test_bad_layout_input():
    with pytest.raises(UsageError, match="unknown paper size 'a5'"):
        px.compute_layout("a5")
    with pytest.raises(UsageError, match="bleed"):
        px.compute_layout("a4", bleed_mm=4)
    with pytest.raises(UsageError, match="does not fit"):
        px.compute_layout("a4", card_mm=(250, 88))
    assert px.compute_layout("a4", card_mm=(88, 125)).cols == 2  # as many as fit


def test_card_size_option():
    assert px.parse_card_size("63x88") == (63, 88)
    assert px.parse_card_size("59 × 86") == (59, 86)
    assert px.parse_card_size("63.5x88.9mm") == (63.5, 88.9)
    for bad in ("63", "x88", "0x88", "63x300", "big"):
        with pytest.raises(UsageError):
            px.parse_card_size(bad)


@pytest.mark.parametrize(
    ("env", "paper"),
    [
        ({"LANG": "en_US.UTF-8"}, "letter"),
        ({"LANG": "fr_CA.UTF-8"}, "letter"),
        ({"LANG": "es_MX"}, "letter"),
        ({"LANG": "fr_FR.UTF-8"}, "a4"),
        ({"LANG": "en_GB.UTF-8"}, "a4"),
        ({"LANG": "C.UTF-8"}, "a4"),
        ({}, "a4"),
        ({"LANG": "en_US.UTF-8", "LC_PAPER": "de_DE.UTF-8"}, "a4"),
        ({"LANG": "fr_FR.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "letter"),
        ({"LC_ALL": "en_GB.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "a4"),
    ],
)
def test_default_paper_from_locale(env, paper):
    assert px.default_paper(env) == paper


# --- PDF content -----------------------------------------------------------------------------


def test_zap_deck_prints_seven_a4_pages_with_every_name(base1, zap, tmp_path):
    sel = px.deck_cards(zap, base1, [POKEMON])
    assert len(sel.card_ids) == 60 and not sel.problems
    out = tmp_path / "zap.pdf"
    report = px.make_proxies(base1, sel.card_ids, out, px.ProxyOptions(paper="a4"))
    assert (report.pages, report.cards, report.overflow) == (7, 60, [])
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 7
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(595.28, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(841.89, abs=0.01)
    text = _flat(" ".join(_text(out)))
    for card_id in set(sel.card_ids):
        assert base1.name_of(card_id) in text, card_id
    assert "base1 · 58/102" in text and "PROXY" in text
    assert report.bytes == out.stat().st_size < 1_000_000


def test_letter_pages(base1):
    data, report = px.render_pdf(base1, ["base1-58"] * 10, px.ProxyOptions(paper="letter"))
    reader = pypdf.PdfReader(__import__("io").BytesIO(data))
    assert len(reader.pages) == 2
    assert (float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)) == pytest.approx((612, 792))


def test_one_proxy_per_copy_and_skip_basic_energy_by_data(base1, zap):
    ids = px.deck_cards(zap, base1, [POKEMON]).card_ids
    data, report = px.render_pdf(base1, ids, px.ProxyOptions(skip_basic_energy=True))
    assert (report.cards, len(report.skipped), report.pages) == (32, 28, 4)
    # Double Colorless Energy is a special Energy: kept although its name says Energy
    data, report = px.render_pdf(base1, ["base1-96", "base1-98"], px.ProxyOptions(skip_basic_energy=True))
    assert report.cards == 1 and report.skipped == ["base1-98"]
    assert "Double Colorless Energy" in _flat(_text(data)[0])
    with pytest.raises(UsageError, match="no card to print"):
        px.render_pdf(base1, ["base1-98"], px.ProxyOptions(skip_basic_energy=True))


def test_pokemon_face_shows_key_stats_and_french_text(base1):
    data, _ = px.render_pdf(base1, ["base1-4"], px.ProxyOptions())
    text = _flat(_text(data)[0])
    for part in (
        "Charizard",
        "120 HP",
        "Stage 2",
        "Charmeleon",
        "Energy Burn",
        "Fire Spin",
        "100",
        "Weakness",
        "×2",
        "Resistance",
        "-30",
        "Retreat",
        "base1 · 4/102 · Rare Holo",
    ):
        assert part in text, part
    data, _ = px.render_pdf(base1, ["base1-4", "base1-96"], px.ProxyOptions(langs=("fr",)))
    text = _flat(_text(data)[0])
    for part in (
        "Dracaufeu",
        "Reptincel",
        "Combustion d'Énergie",
        "Faiblesse",
        "×2",
        "Retraite",
        "Double Énergie Incolore",
        "vous devez défausser 2 cartes Énergie",  # the French rules text (Fire Spin's)
    ):
        assert part in text, part


def test_japanese_names_render_in_the_text_layer():
    from cardlab.catalog.validate import load_catalog

    cat = load_catalog([IPPO])
    data, report = px.render_pdf(cat, ["ippo-test-1", "ippo-test-10"], px.ProxyOptions())
    text = _flat(_text(data)[0])
    assert "テストジャブ" in text and "テストガード" in text
    fonts = {
        str(f.get_object()["/BaseFont"]) for f in pypdf.PdfReader(__import__("io").BytesIO(data)).pages[0]["/Resources"]["/Font"].values()
    }
    assert any("IPAexGothic" in f for f in fonts)
    assert "Blow card" in text and "Straight" in text and "Power 2" in text and "courage" in text
    data, _ = px.render_pdf(cat, ["ippo-test-1"], px.ProxyOptions(langs=("fr",)))
    assert "Jab de test" in _flat(_text(data)[0]) and "Carte coup" in _flat(_text(data)[0])


def test_monpa_face_in_its_source_language():
    from cardlab.catalog.validate import load_catalog

    cat = load_catalog([MONPA])
    data, _ = px.render_pdf(cat, ["monpa-test-4"], px.ProxyOptions())
    text = _flat(_text(data)[0])
    assert "Serviteur Test" in text and "Serviteur" in text and "feu" in text and "3 / 2" in text


def _synthetic(text: str) -> Catalog:
    info = SetInfo("syn", "pokemon", {"code": "syn", "source_language": "en", "printed_total": 1}, Path("set.yaml"))
    card = {"id": "syn-1", "number": "1", "name": {"en": "Wordy Trainer"}, "supertype": "Trainer", "text": {"en": text}}
    return Catalog(roots=[], sets={"syn": info}, cards={"syn-1": card}, paths={}, card_set={"syn-1": "syn"})


def test_long_text_shrinks_then_overflow_is_reported_not_silent():
    fits = _synthetic("Draw 3 cards. " * 40)
    data, report = px.render_pdf(fits, ["syn-1"])
    assert report.overflow == []
    too_long = _synthetic("Draw 3 cards, then shuffle your deck. " * 120)
    data, report = px.render_pdf(too_long, ["syn-1"])
    assert report.overflow and report.overflow[0][0] == "syn-1" and "did not fit" in report.overflow[0][1]
    assert "text continues" in _flat(_text(data)[0])


# --- bad input -------------------------------------------------------------------------------


def test_existing_output_needs_overwrite(base1, tmp_path):
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"keep me")
    with pytest.raises(fs.OutputError, match="already exists; use --overwrite"):
        px.make_proxies(base1, ["base1-58"], out)
    assert out.read_bytes() == b"keep me"
    px.make_proxies(base1, ["base1-58"], out, overwrite=True)
    assert out.read_bytes().startswith(b"%PDF")


def test_unwritable_output_leaves_nothing(base1, tmp_path, monkeypatch):
    with pytest.raises(fs.OutputError, match="does not exist"):
        px.make_proxies(base1, ["base1-58"], tmp_path / "missing" / "deck.pdf")
    with pytest.raises(fs.OutputError, match="is a folder"):
        px.make_proxies(base1, ["base1-58"], tmp_path)

    def fail(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(proxy_output.os, "replace", fail)
    monkeypatch.setattr(proxy_output.os, "link", fail)
    with pytest.raises(fs.OutputError, match="No space left"):
        px.make_proxies(base1, ["base1-58"], tmp_path / "deck.pdf")
    assert list(tmp_path.iterdir()) == []  # no partial PDF, no temp file


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_read_only_folder(base1, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(fs.OutputError, match="not writable"):
            px.make_proxies(base1, ["base1-58"], folder / "deck.pdf")
    finally:
        folder.chmod(0o700)


def test_illegal_deck_stops_unless_forced(base1, tmp_path):
    deck = tmp_path / "bad.txt"
    deck.write_text("4 Pikachu\n5 Bill\n1 Missingno\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        px.deck_cards(deck, base1, [POKEMON])
    rules = {p.rule for p in err.value.problems}
    assert "unknown-card" in rules and "deck-size" in rules
    sel = px.deck_cards(deck, base1, [POKEMON], force=True)
    assert len(sel.card_ids) == 9 and sel.problems


# --- CLI -------------------------------------------------------------------------------------


def _cli(runner, args):
    from cardlab.cli.whole import app

    return runner.invoke(app, ["proxies", *args, "--catalog", str(POKEMON)])


def test_cli_prints_a_deck(runner, zap, tmp_path):
    out = tmp_path / "zap.pdf"
    result = _cli(runner, [str(zap), "-o", str(out), "--paper", "letter", "--bleed", "3"])
    assert result.exit_code == 0, result.stderr
    assert "60 cards on 7 page(s), letter" in result.stderr
    assert "share" in result.stderr  # the bleed note is said
    assert len(pypdf.PdfReader(out).pages) == 7


def test_cli_query_and_card(runner, tmp_path):
    out = tmp_path / "holo.pdf"
    result = _cli(
        runner,
        [
            "--query",
            "set:base1 rarity:rare-holo",
            "--card",
            "base1-58",
            "--card",
            "Dracaufeu",
            "-o",
            str(out),
            "--db",
            str(tmp_path / "index.sqlite"),
            "--no-cut-marks",
        ],
    )
    assert result.exit_code == 0, result.stderr
    assert "18 cards on 2 page(s)" in result.stderr
    text = _flat(" ".join(_text(out)))
    assert "Pikachu" in text and text.count("Charizard") == 2


def test_cli_bad_input(runner, zap, tmp_path):
    out = tmp_path / "zap.pdf"
    result = _cli(runner, [str(zap), "-o", str(out), "--paper", "a5"])
    assert result.exit_code == 2 and "unknown paper size 'a5'" in result.stderr and not out.exists()
    out.write_bytes(b"old")
    result = _cli(runner, [str(zap), "-o", str(out)])
    assert result.exit_code == 2 and "--overwrite" in result.stderr and out.read_bytes() == b"old"
    bad = tmp_path / "bad.txt"
    bad.write_text("4 Pikachu\n1 Missingno\n", encoding="utf-8")
    result = _cli(runner, [str(bad), "-o", str(tmp_path / "bad.pdf")])
    assert result.exit_code == 1 and "Missingno" in result.stderr and not (tmp_path / "bad.pdf").exists()
    result = _cli(runner, [str(bad), "-o", str(tmp_path / "bad.pdf"), "--force"])
    assert result.exit_code == 0 and "4 cards on 1 page(s)" in result.stderr
    result = _cli(runner, ["-o", str(tmp_path / "none.pdf")])
    assert result.exit_code == 2 and "DECK" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.pdf", "bad.txt", "zap.pdf", "zap.txt"]


def test_cli_import_is_light():
    code = "import sys, cardlab.cli.app; print('reportlab' in sys.modules, 'cardlab.proxies.pdf' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_shipped_example_deck(runner, repo, tmp_path):
    deck = repo / "examples" / "decks" / "zap-theme-deck.txt"
    if not deck.is_file():
        pytest.skip("examples/decks/zap-theme-deck.txt not there yet")
    out = tmp_path / "zap.pdf"
    from cardlab.cli.whole import app

    result = runner.invoke(app, ["proxies", str(deck), "-o", str(out), "--paper", "a4"])
    assert result.exit_code == 0, result.stderr
    assert len(pypdf.PdfReader(out).pages) == 7


# --- rendering to an image -------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) not installed")
def test_page_renders_to_png(base1, zap, tmp_path):
    ids = px.deck_cards(zap, base1, [POKEMON]).card_ids
    pdf = tmp_path / "zap.pdf"
    px.make_proxies(base1, ids, pdf, px.ProxyOptions(paper="a4"))
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(tmp_path / "p1")], check=True)
    png = (tmp_path / "p1.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert abs(width - 210 / 25.4 * 50) <= 1 and abs(height - 297 / 25.4 * 50) <= 1
    assert (REPO / "docs" / "proxies-page1.png").is_file()
