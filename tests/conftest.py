"""Shared test fixtures: a private cache and index per session, the CLI runner, fixture paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path_factory, tmp_path):
    """Keep tests away from the user's cache, index, catalog, collections and language settings
    (each test gets its own empty collections folder, ``CARDLAB_DATA``)."""
    cache = tmp_path_factory.getbasetemp() / "cardlab-cache"
    cache.mkdir(exist_ok=True)
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(cache))
    monkeypatch.setenv("CARDLAB_DATA", str(tmp_path / "cardlab-data"))
    for var in ("CARDLAB_DB", "CARDLAB_CATALOG", "CARDLAB_LANG", "CARDLAB_CONFIG", "NO_COLOR", "CARDLAB_PLAYER"):
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
def forum_catalog() -> Path:
    """The catalog root of the fictional forum TCG test set (tests/fixtures/forumtcg: set
    ``ftcg-test``, 25 Commons of Values 1-5, five of each)."""
    return FIXTURES / "forumtcg"


@pytest.fixture(scope="session")
def forum_roots(tmp_path_factory) -> str:
    """A catalog root (as ``CARDLAB_CATALOG``) with the forum test set and the shipped
    ``forumtcg-list`` format (copied once per session: no Pokémon cards to validate on every command)."""
    root = tmp_path_factory.mktemp("forum-catalog")
    shutil.copytree(FIXTURES / "forumtcg" / "forumtcg" / "ftcg-test", root / "forumtcg" / "ftcg-test")
    (root / "forumtcg" / "formats").mkdir()
    shutil.copy(REPO / "cards" / "forumtcg" / "formats" / "forumtcg-list.yaml", root / "forumtcg" / "formats")
    return str(root)


@pytest.fixture
def test_set(tmp_path) -> Path:
    """A private copy of the fictional Pokémon test set (tests/fixtures/catalog/pokemon/test1),
    as a catalog root ``<tmp>/catalog`` holding ``pokemon/test1``."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "catalog" / "pokemon" / "test1", root / "pokemon" / "test1")
    return root


@pytest.fixture(scope="session")
def pokemon_formats() -> list[str]:
    """The shipped Pokémon formats, by name (the order every legality table lists them in)."""
    return [
        "pokemon-base",
        "pokemon-base-fossil",
        "pokemon-base-gym",
        "pokemon-base-jungle",
        "pokemon-base-rocket",
        "pokemon-prop-15-3",
        "pokemon-unlimited",
    ]
