"""cardlab proxies on a catalog holding invalid files (issue 10, kind F for proxies): a draft card
elsewhere in the catalog is a warning and every other card prints; the draft itself is refused
with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"

DRAFTS = [  # file name, content: kinds of invalid catalog file
    ("103-draft.yaml", 'id: base1-103\nnumber: "103"\nname: {en: Draft}\n'),  # fields missing (schema)
    ("103-broken.yaml", "id: base1-103\nname: [unclosed\n"),  # YAML syntax
    ("103-nulls.yaml", 'id: base1-103\nnumber: "103"\nname: {en: Draftmon}\nhp: null\nsupertype: Pokémon\n'),  # card new's nulls
]


def _proxies(runner, catalog, tmp_path, *args):
    out = tmp_path / "out.pdf"
    return runner.invoke(app, ["proxies", *args, "-o", str(out), "--catalog", str(catalog), "--db", str(tmp_path / "i.sqlite")]), out


@pytest.mark.parametrize(("name", "text"), DRAFTS)
def test_a_draft_elsewhere_does_not_stop_the_deck(runner, catalog_copy, tmp_path, name, text):
    """A deck's proxies print (exit 0) with a warning naming the invalid file."""
    (catalog_copy / "pokemon" / "base1" / name).write_text(text, encoding="utf-8")
    result, out = _proxies(runner, catalog_copy, tmp_path, str(ZAP), "-f", "pokemon-base")
    assert result.exit_code == 0, result.stderr
    assert f"{name}:" in result.stderr
    assert "warning: " in result.stderr and "catalog file(s) (run 'cardlab validate'); their cards are left out" in result.stderr
    assert "wrote " in result.stderr and ": 60 cards on 7 page(s)" in result.stderr
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(("name", "text"), DRAFTS)
def test_cards_and_queries_print_beside_a_draft(runner, catalog_copy, tmp_path, name, text):
    """--card and --query use the index built before the draft was added (with a warning)."""
    first, _ = _proxies(runner, catalog_copy, tmp_path, "-c", "base1-4")
    assert first.exit_code == 0, first.stderr
    (catalog_copy / "pokemon" / "base1" / name).write_text(text, encoding="utf-8")
    result, out = _proxies(runner, catalog_copy, tmp_path, "-c", "base1-4", "-q", "set:base1 rarity:rare-holo", "--overwrite")
    assert result.exit_code == 0, result.stderr
    assert ": 17 cards on 2 page(s)" in result.stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_the_draft_itself_is_refused_with_the_reason(runner, catalog_copy, tmp_path):
    """A card reference to the draft: not found, and the message says invalid files were left out."""
    first, _ = _proxies(runner, catalog_copy, tmp_path, "-c", "base1-4")
    assert first.exit_code == 0, first.stderr
    name, text = DRAFTS[0]
    (catalog_copy / "pokemon" / "base1" / name).write_text(text, encoding="utf-8")
    result, _ = _proxies(runner, catalog_copy, tmp_path, "-c", "base1-103", "--overwrite")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].endswith("; 1 invalid catalog file(s) left out (run 'cardlab validate')")
    assert "Traceback" not in result.stderr


def test_a_deck_line_naming_the_draft_is_refused_with_the_warning(runner, catalog_copy, tmp_path):
    """A deck naming the draft card: the deck's own problem (exit 1), and the warning says why."""
    name, text = DRAFTS[0]
    (catalog_copy / "pokemon" / "base1" / name).write_text(text, encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text("Format: pokemon-base\n4 Draft\n56 Lightning Energy\n", encoding="utf-8")
    result, out = _proxies(runner, catalog_copy, tmp_path, str(deck))
    assert result.exit_code == 1
    assert f"{name}:" in result.stderr and "their cards are left out" in result.stderr
    assert 'unknown-card: unknown card "Draft"' in result.stderr
    assert not out.exists()
