"""Shared deck fixtures: the shipped catalog plus the fictional test sets and the deck-test
catalog, validated once per session, and their formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.catalog.validate import load_formats, validate
from cardlab.core.paths import shipped_catalog

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog", DECKS / "catalog", REPO / "tests" / "fixtures" / "forumtcg"]


@pytest.fixture(scope="session")
def catalog():
    """The catalog of :data:`ROOTS` (shipped cards, fictional test sets, deck-test cards)."""
    return validate(ROOTS, cache_path=None).catalog


@pytest.fixture(scope="session")
def formats():
    """Every format under :data:`ROOTS`, by name."""
    return load_formats(ROOTS)
