"""Fixtures of the core tests: a user without a configuration, and a configuration file written for one test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def no_user_config(monkeypatch, tmp_path) -> None:
    """No ``CARDLAB_CONFIG``, no ``CARDLAB_LANG``, and an empty XDG config folder: the defaults only."""
    monkeypatch.delenv("CARDLAB_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config-here"))
    monkeypatch.delenv("CARDLAB_LANG", raising=False)


@pytest.fixture
def write_config(monkeypatch, tmp_path) -> Callable[[str], Path]:
    """A function writing its text to ``<tmp>/config.toml`` and pointing ``CARDLAB_CONFIG`` at it; returns the path."""

    def write(text: str) -> Path:
        path = tmp_path / "config.toml"
        path.write_text(text, encoding="utf-8")
        monkeypatch.setenv("CARDLAB_CONFIG", str(path))
        return path

    return write
