"""Monpa's same-name rule counts copies by the name printed on the card (seed 004: at most 3 cards of
the same name), whatever translations exist (issue 33, item 4): a translation neither splits one
printed name into two nor joins two printed names into one. Fictional cards in
tests/fixtures/decks/monpa-names."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.catalog.validate import load_formats, validate
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import check_list, header_words
from cardlab.decks.read import parse_deck_text

REPO = Path(__file__).resolve().parents[3]
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog", REPO / "tests" / "fixtures" / "decks" / "monpa-names"]
HEAD = "Format: monpa\nCommander:\n1 Test Commander\nFavor:\n1 Faveur Test\nDeck:\n"


@pytest.fixture(scope="module")
def catalog():
    return validate(ROOTS, cache_path=None).catalog


@pytest.fixture(scope="module")
def formats():
    return load_formats(ROOTS)


def copy_problems(text: str, catalog, formats) -> list[tuple[int, str]]:
    report = check_list(parse_deck_text(HEAD + text, "deck.txt", header_words(formats)), catalog, formats)
    return [(p.pos.line, p.message) for p in report.best.problems if p.rule == "copy-limit"]


def test_one_printed_name_is_one_name_though_only_one_printing_is_translated(catalog, formats):
    # monpa-names-1 is "Écho Factice" (en: Mock Echo); monpa-names-2 is "Écho Factice" untranslated
    text = "3 Écho Factice MNN 1\n3 Écho Factice MNN 2\n"
    assert copy_problems(text, catalog, formats) == [(8, '6 copies of "Mock Echo" (limit 3; lines 7, 8)')]


def test_two_printed_names_stay_two_though_their_translations_agree(catalog, formats):
    # "Ombre Factice" and "Spectre Factice" are both "Mock Shade" in English: 3 + 3 is no problem
    assert copy_problems("3 Ombre Factice\n3 Spectre Factice\n", catalog, formats) == []
    assert copy_problems("3 Ombre Factice\n1 Ombre Factice MNN 3\n", catalog, formats) == [
        (8, '4 copies of "Mock Shade" (limit 3; lines 7, 8)')
    ]
