"""Shared test fixtures: a private cache and index per session, the CLI runner, fixture paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path_factory):
    """Keep tests away from the user's cache, index, catalog and language settings."""
    cache = tmp_path_factory.getbasetemp() / "cardlab-cache"
    cache.mkdir(exist_ok=True)
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(cache))
    for var in ("CARDLAB_DB", "CARDLAB_CATALOG", "CARDLAB_LANG", "CARDLAB_CONFIG", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "no-user-config"))
    monkeypatch.setenv("COLUMNS", "200")
    # Test files are copied just before they are read: do not treat them as "racy" (changed within
    # the file system's time tick, so re-read every time); tests of that rule set it back.
    from cardlab.core import inputs

    monkeypatch.setattr(inputs, "RACY_NS", 0)


@pytest.fixture
def runner() -> CliRunner:
    """typer's CliRunner (stderr captured apart from stdout)."""
    return CliRunner()


@pytest.fixture
def fixtures() -> Path:
    """The tests/fixtures folder."""
    return FIXTURES


@pytest.fixture
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture
def test_set(tmp_path) -> Path:
    """A private copy of the fictional Pokémon test set (tests/fixtures/catalog/pokemon/test1),
    as a catalog root ``<tmp>/catalog`` holding ``pokemon/test1``."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "catalog" / "pokemon" / "test1", root / "pokemon" / "test1")
    return root
