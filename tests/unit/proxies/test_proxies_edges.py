"""Proxies under hostile input (issue 6 follow-up): bad output paths, file modes, over-long words,
deck problems and the format used, card sizes, card references, the text layer, Ippo keywords."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from cardlab.catalog.model import Catalog, SetInfo
from cardlab.core import fs
from cardlab.core import fs as proxy_output
from cardlab.core.errors import UsageError
from cardlab.proxies import pdf as px

pypdf = pytest.importorskip("pypdf")

REPO = Path(__file__).resolve().parents[3]
POKEMON = REPO / "cards" / "pokemon"
IPPO = REPO / "tests" / "fixtures" / "catalog" / "ippo" / "ippo-test"
URL = "https://example.com/" + "very-long-path-segment/" * 6 + "end.html"


@pytest.fixture(scope="module")
def base1():
    from cardlab.catalog.validate import load_catalog

    return load_catalog([POKEMON])


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    from cardlab.search.engine import open_index

    con = open_index([POKEMON], tmp_path_factory.mktemp("index") / "index.sqlite")
    yield con
    con.close()


def _cli(runner, args):
    from cardlab.cli.whole import app

    return runner.invoke(app, ["proxies", *args, "--catalog", str(POKEMON)])


def _deck(tmp_path, text: str = "4 Pikachu\n") -> Path:
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _synthetic(text: str, **extra) -> Catalog:
    info = SetInfo("syn", "pokemon", {"code": "syn", "source_language": "en", "printed_total": 1}, Path("set.yaml"))
    card = {"id": "syn-1", "number": "1", "name": {"en": "Wordy Trainer"}, "supertype": "Trainer", "text": {"en": text}, **extra}
    return Catalog(roots=[], sets={"syn": info}, cards={"syn-1": card}, paths={}, card_set={"syn-1": "syn"})


# --- 1. any OSError on the output path is a clear error -----------------------------------------


def test_file_name_too_long_is_a_usage_error(base1, tmp_path):
    out = tmp_path / ("a" * 300 + ".pdf")
    with pytest.raises(fs.OutputPathError, match="File name too long") as err:
        fs.check_output(out)
    assert err.value.exit_code == 2
    with pytest.raises(fs.OutputPathError):
        px.make_proxies(base1, ["base1-58"], out)
    assert list(tmp_path.iterdir()) == []


def test_cli_file_name_too_long(runner, tmp_path):
    result = _cli(runner, [str(_deck(tmp_path)), "-o", str(tmp_path / ("a" * 300 + ".pdf")), "--force"])
    assert result.exit_code == 2, result.stderr
    assert "File name too long" in _flat(result.stderr) and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def test_a_name_near_the_limit_still_writes(base1, tmp_path):
    out = tmp_path / ("b" * 250 + ".pdf")  # 254 bytes: legal; the temporary name must be too
    px.make_proxies(base1, ["base1-58"], out)
    assert out.read_bytes().startswith(b"%PDF") and list(tmp_path.iterdir()) == [out]


def test_oserror_while_writing_leaves_nothing(base1, tmp_path, monkeypatch):
    def fail(*_args, **_kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(proxy_output.tempfile, "mkstemp", fail)
    with pytest.raises(fs.OutputError, match="Input/output error"):
        px.make_proxies(base1, ["base1-58"], tmp_path / "deck.pdf")
    assert list(tmp_path.iterdir()) == []


# --- 3. file mode ---------------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_new_pdf_follows_the_umask(base1, tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        out = px.make_proxies(base1, ["base1-58"], tmp_path / "deck.pdf").path
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == mode


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_overwrite_keeps_the_existing_mode(base1, tmp_path):
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"old")
    out.chmod(0o604)
    px.make_proxies(base1, ["base1-58"], out, overwrite=True)
    assert stat.S_IMODE(out.stat().st_mode) == 0o604 and out.read_bytes().startswith(b"%PDF")


# --- 7. '-', '' and a file used as a folder -------------------------------------------------------


def test_dash_empty_and_file_as_folder_are_refused(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    deck = _deck(tmp_path)
    (tmp_path / "b3.pdf").write_bytes(b"a file")
    cases = [
        ("-", "write to a file path"),
        ("", "the output path is empty"),
        ("b3.pdf/x.pdf", f"{tmp_path / 'b3.pdf'} is a file, not a folder"),
        ("b3.pdf/sub/x.pdf", f"{tmp_path / 'b3.pdf'} is a file, not a folder"),
    ]
    for output, message in cases:
        result = _cli(runner, [str(deck), "-o", output, "--force"])
        assert result.exit_code == 2, (output, result.stderr)
        assert message in _flat(result.stderr), (output, result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b3.pdf", "deck.txt"]
    assert (tmp_path / "b3.pdf").read_bytes() == b"a file"


def test_missing_folder_and_folder_output_are_usage_errors(tmp_path):
    for bad in (tmp_path / "missing" / "x.pdf", tmp_path):
        with pytest.raises(fs.OutputPathError) as err:
            fs.check_output(bad)
        assert err.value.exit_code == 2


# --- 2. over-long words break inside the word; overflow is reported --------------------------------


def test_long_word_is_broken_inside_the_text_box():
    from reportlab.pdfgen.canvas import Canvas

    from cardlab.proxies.textengine import Block, Pen, _Body

    pen = Pen(Canvas(io.BytesIO()))
    width = 150.0
    for spans, kind, right in (
        ([(f"See {URL} for details.", "regular", None)], "para", ""),
        ([("Attack" + "x" * 80, "bold", None)], "row", "30"),
    ):
        lines = _Body(pen, width).lines([Block(kind, spans, right=right)], 8.5)
        assert len(lines) > 2
        for i, (_, items, _) in enumerate(lines):
            room = width - (pen.width(right, 8.5 * 1.15, "bold") + 4 if right and i == 0 else 0)
            for x, (text, style, _, _), size in items:
                assert x + pen.width(text, size, style) <= room + 1e-6, text
        words = "".join(("" if x else "\n") + (" " if sp and x else "") + t for _, items, _ in lines for x, (t, _, _, sp), _ in items)
        assert words.replace("\n", "") == spans[0][0]


def test_url_in_rules_text_fits_and_reads_whole():
    data, report = px.render_pdf(_synthetic(f"See {URL} for details."), ["syn-1"])
    assert report.overflow == []
    assert URL in _text(data).replace("\n", "")


def test_huge_word_is_reported_not_clipped():
    data, report = px.render_pdf(_synthetic("x" * 200_000), ["syn-1"])
    assert report.overflow and "did not fit" in report.overflow[0][1]
    assert "text continues" in _flat(_text(data))


def test_type_line_too_long_is_reported():
    cat = _synthetic("Draw a card.", trainer_type="Z" * 120)
    _, report = px.render_pdf(cat, ["syn-1"])
    assert report.overflow and "type line too long" in report.overflow[0][1]


# --- 9. the text layer has whole lines ------------------------------------------------------------


def test_text_layer_has_whole_lines(base1):
    data, _ = px.render_pdf(base1, ["base1-58"])
    text = _text(data)
    assert "Thunder Jolt" in text  # an attack name, not one word per line
    assert "If you flip tails, this Pokémon hits itself" in text
    assert "Pikachu 40 HP" in text


# --- 10. Ippo keywords in the label language ------------------------------------------------------


def test_ippo_keywords_use_the_rules_terms():
    from cardlab.catalog.validate import load_catalog

    cat = load_catalog([IPPO])
    for langs in (("fr",), ()):
        data, _ = px.render_pdf(cat, ["ippo-test-5", "ippo-test-9", "ippo-test-15"], px.ProxyOptions(langs=langs))
        text = _flat(_text(data))
        for term in ("Knock-down, Guard Break", "Shut Off", "Round UP"):
            assert term in text, (langs, term)
        assert "KNOCK-DOWN" not in text and "GUARD-BREAK" not in text


# --- 4 and 5. deck problems as 'deck validate' prints them; the format used ------------------------


def test_illegal_deck_says_how_to_go_on(runner, tmp_path):
    deck = _deck(tmp_path, "4 Pikachu\n5 Bill\n1 Missingno\n")
    out = tmp_path / "deck.pdf"
    result = _cli(runner, [str(deck), "-o", str(out)])
    assert result.exit_code == 1
    err = result.stderr
    assert f'{deck}:2: copy-limit: 5 copies of "Bill" (limit 4)' in err
    assert f'{deck}:3: unknown-card: unknown card "Missingno"' in err
    assert "the deck has 3 problems; fix them or use --force to print what can be printed" in err
    assert "nothing was changed" not in err and not out.exists()
    result = _cli(runner, [str(deck), "-o", str(out), "--force"])
    assert result.exit_code == 0 and f"{deck}:2: copy-limit:" in result.stderr


def test_the_format_used_is_said_when_the_deck_names_none(runner, tmp_path, base1):
    deck = _deck(tmp_path)
    sel = px.deck_cards(deck, base1, [POKEMON], force=True)
    assert sel.notes == ["checked against pokemon-base (the deck names no format; use --format)"]
    result = _cli(runner, [str(deck), "-o", str(tmp_path / "a.pdf"), "--force"])
    assert "checked against pokemon-base (the deck names no format; use --format)" in result.stderr
    result = _cli(runner, [str(deck), "-o", str(tmp_path / "b.pdf"), "--force", "--format", "pokemon-base"])
    assert "checked against" not in result.stderr
    named = _deck(tmp_path, "Format: pokemon-base\n4 Pikachu\n")
    assert px.deck_cards(named, base1, [POKEMON], force=True).notes == []


# --- 6. card sizes ---------------------------------------------------------------------------------


def test_tiny_card_sizes_are_refused():
    for bad in ("0.01x0.01", "1x1", "19.9x88", "63x10"):
        with pytest.raises(UsageError, match="20 to 200 mm"):
            px.parse_card_size(bad)
    assert px.parse_card_size("20x20") == (20, 20)


def test_fewer_cards_per_page_is_said(runner, tmp_path):
    lay = px.compute_layout("a4", card_mm=(70, 99))
    assert lay.per_page == 4 and any("4 per page (2 across, 2 down)" in n for n in lay.notes)
    result = _cli(runner, [str(_deck(tmp_path)), "-o", str(tmp_path / "big.pdf"), "--card-size", "70x99", "--force"])
    assert result.exit_code == 0 and "4 per page" in result.stderr
    result = _cli(runner, [str(_deck(tmp_path)), "-o", str(tmp_path / "tiny.pdf"), "--card-size", "1x1"])
    assert result.exit_code == 2 and "20 to 200 mm" in result.stderr


# --- 8. card references that match nothing ---------------------------------------------------------


def test_unknown_card_id_says_how_many_the_set_has(index, base1):
    from cardlab.search.lookup import CardNotFoundError

    for ref in ("base1-999", "BS 999"):
        with pytest.raises(CardNotFoundError) as err:
            px.named_card(index, ref, base1)
        assert str(err.value) == f"no card {ref} (base1 has 102 cards)"
    with pytest.raises(CardNotFoundError, match="no set 'base9'"):
        px.named_card(index, "base9-1", base1)


def test_suggestions_are_in_one_language(index, base1):
    from cardlab.search.lookup import CardNotFoundError

    with pytest.raises(CardNotFoundError) as err:
        px.named_card(index, "nope", base1)
    assert "Bisaknosp" not in str(err.value) and "Doppelte" not in str(err.value)
    with pytest.raises(CardNotFoundError) as err:
        px.named_card(index, "Raichoo", base1, ("de",))
    assert err.value.suggestions == ["Raichu"]
    with pytest.raises(CardNotFoundError) as err:
        px.named_card(index, "Dracaufeux", base1, ("fr",))
    assert err.value.suggestions[0] == "Dracaufeu"
    with pytest.raises(CardNotFoundError) as err:
        px.named_card(index, "Dracaufeux", base1)
    assert "Charizard (Dracaufeu)" in err.value.suggestions


def test_a_name_with_its_printing_is_that_card(index, base1):
    """As `cardlab show`: a name with its collector number and set total, or its set code."""
    assert px.named_card(index, "Charizard 4/102", base1) == "base1-4"
    assert px.named_card(index, "Charizard BS 4", base1) == "base1-4"
