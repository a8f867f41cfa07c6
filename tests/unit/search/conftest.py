"""Indexes the search tests share: the shipped Base Set, every shipped card, the fictional test set."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.index.sqlite import build_index, connect

REPO = Path(__file__).resolve().parents[3]
BASE1 = REPO / "cards" / "pokemon" / "base1"


@pytest.fixture(scope="module")
def base_con(tmp_path_factory):
    """An index of the shipped Base Set alone."""
    db = tmp_path_factory.mktemp("idx") / "index.sqlite"
    build_index([BASE1], db)
    con = connect(db)
    yield con
    con.close()


@pytest.fixture(scope="module")
def full_con(tmp_path_factory):
    """An index of every shipped card."""
    db = tmp_path_factory.mktemp("idx") / "full.sqlite"
    build_index([REPO / "cards"], db)
    con = connect(db)
    yield con
    con.close()


@pytest.fixture
def fixture_con(test_set, tmp_path):
    db = tmp_path / "test.sqlite"
    build_index([test_set], db)
    con = connect(db)
    yield con
    con.close()
