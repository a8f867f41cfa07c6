"""The per-user validation cache: one file per catalog, rows of deleted files removed, the files of
catalogs not validated for 30 days removed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from cardlab.catalog import filecheck
from cardlab.catalog.validate import validate
from cardlab.core.paths import roots_key

TEST_SET_FILES = ["1-testmon.yaml", "2-testmon-ex.yaml", "3-test-fire-energy.yaml", "4-test-gadget.yaml", "set.yaml"]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder of this test's own (``CARDLAB_CACHE_DIR``)."""
    folder = tmp_path / "user-cache"
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(folder))
    return folder


def _rows(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return sorted(Path(p).name for (p,) in con.execute("SELECT path FROM files4"))
    finally:
        con.close()


def _cache_file(root: Path, cache: Path) -> Path:
    return cache / f"validate-{roots_key([root.resolve()])}.sqlite"


def test_rows_of_a_deleted_file_are_removed(test_set, cache):
    validate([test_set])
    db = _cache_file(test_set, cache)
    assert _rows(db) == TEST_SET_FILES
    (test_set / "pokemon" / "test1" / "4-test-gadget.yaml").unlink()
    again = validate([test_set])
    assert again.problems == []
    assert again.reparsed == 0
    assert _rows(db) == ["1-testmon.yaml", "2-testmon-ex.yaml", "3-test-fire-energy.yaml", "set.yaml"]


def test_explicit_cache_keeps_rows_outside_the_catalog(test_set, tmp_path):
    """A cache file given by path may hold other catalogs: only rows under the roots validated go."""
    other = tmp_path / "other"
    shutil.copytree(test_set, other)
    db = tmp_path / "shared.sqlite"
    validate([test_set], cache_path=db)
    validate([other], cache_path=db)
    assert len(_rows(db)) == 10
    (test_set / "pokemon" / "test1" / "1-testmon.yaml").unlink()
    (test_set / "pokemon" / "test1" / "2-testmon-ex.yaml").unlink()
    (other / "pokemon" / "test1" / "3-test-fire-energy.yaml").unlink()
    validate([test_set], cache_path=db)
    con = sqlite3.connect(db)
    paths = sorted(os.path.relpath(p, tmp_path) for (p,) in con.execute("SELECT path FROM files4"))
    con.close()
    assert paths == [
        os.path.join("catalog", "pokemon", "test1", name) for name in ["3-test-fire-energy.yaml", "4-test-gadget.yaml", "set.yaml"]
    ] + [os.path.join("other", "pokemon", "test1", name) for name in TEST_SET_FILES]


def test_two_catalogs_do_not_share_a_file(test_set, tmp_path, cache):
    other = tmp_path / "other"
    shutil.copytree(test_set, other)
    validate([test_set])
    validate([other])
    first, second = _cache_file(test_set, cache), _cache_file(other, cache)
    assert first != second
    assert sorted(p.name for p in cache.iterdir()) == sorted([first.name, second.name])
    con = sqlite3.connect(first)
    assert sorted(Path(p).relative_to(test_set).as_posix() for (p,) in con.execute("SELECT path FROM files4")) == [
        f"pokemon/test1/{name}" for name in TEST_SET_FILES
    ]
    con.close()
    con = sqlite3.connect(second)
    assert sorted(Path(p).relative_to(other).as_posix() for (p,) in con.execute("SELECT path FROM files4")) == [
        f"pokemon/test1/{name}" for name in TEST_SET_FILES
    ]
    con.close()


def test_relative_and_absolute_roots_share_a_file(test_set, cache, monkeypatch):
    monkeypatch.chdir(test_set.parent)
    validate([Path("catalog")])
    validate([test_set])
    assert [p.name for p in cache.iterdir()] == [_cache_file(test_set, cache).name]


def test_old_cache_files_of_other_catalogs_are_removed(test_set, cache):
    cache.mkdir()
    now = time.time()
    old = cache / "validate-0123456789ab.sqlite"
    old_record = cache / "validate-0123456789ab.clean"  # its last clean run (freshness.record_clean_run)
    fresh = cache / "validate-ba9876543210.sqlite"
    fresh_record = cache / "validate-ba9876543210.clean"
    shared = cache / "validate-cache.sqlite"  # the file earlier versions shared between catalogs
    for path, days in ((old, 31), (old_record, 31), (fresh, 29), (fresh_record, 29), (shared, 40)):
        path.write_bytes(b"")
        os.utime(path, (now - days * 86400, now - days * 86400))
    (cache / "validate-0123456789ab.sqlite-journal").write_bytes(b"")
    os.utime(cache / "validate-0123456789ab.sqlite-journal", (now - 31 * 86400, now - 31 * 86400))
    index = cache / "index-0123456789ab.sqlite"  # not a validation cache: never removed here
    index.write_bytes(b"")
    os.utime(index, (now - 400 * 86400, now - 400 * 86400))
    validate([test_set])
    mine = _cache_file(test_set, cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([fresh.name, fresh_record.name, index.name, mine.name])
    assert now - 60 <= mine.stat().st_mtime <= time.time() + 1


def test_prune_marks_the_file_in_use(tmp_path):
    keep = tmp_path / "validate-aaaaaaaaaaaa.sqlite"
    other = tmp_path / "validate-bbbbbbbbbbbb.sqlite"
    for path in (keep, other):
        path.write_bytes(b"")
        os.utime(path, (1_000_000, 1_000_000))
    removed = filecheck.prune_caches(keep, now=1_000_000 + 30 * 86400 + 1)
    assert removed == [other]
    assert keep.stat().st_mtime == 1_000_000 + 30 * 86400 + 1
    assert filecheck.prune_caches(keep, now=1_000_000 + 30 * 86400 + 2) == []


def test_damaged_cache_file_of_a_catalog_is_replaced(test_set, cache):
    validate([test_set])
    db = _cache_file(test_set, cache)
    db.write_bytes(b"not a database " * 100)
    result = validate([test_set])
    assert result.problems == []
    assert result.reparsed == 5
    assert _rows(db) == TEST_SET_FILES


def test_own_cache_file_names(cache):
    cache.mkdir()
    assert filecheck._own_cache_file(cache / "validate-0123456789ab.sqlite") is True
    assert filecheck._own_cache_file(cache / "validate-cache.sqlite") is True
    assert filecheck._own_cache_file(cache / "validate-mine.sqlite") is False
    assert filecheck._own_cache_file(cache / "index-0123456789ab.sqlite") is False
    assert filecheck._own_cache_file(cache.parent / "validate-0123456789ab.sqlite") is False
