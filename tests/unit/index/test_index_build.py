"""The index build reads whole cards from the validation cache a batch at a time (issue 12: peak
memory); the index it writes is the one written from the whole catalog in memory, row for row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.core.paths import catalog_roots
from cardlab.index import sqlite as index_mod

TABLES = ["card", "card_set", "set_key", "card_name", "printed_name", "facet_text", "facet_num", "meta"]


def _dump(db: Path) -> dict[str, list]:
    con = sqlite3.connect(db)
    try:
        out = {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
        for fts in ("card_fts", "card_stem"):
            out[fts] = sorted(con.execute(f"SELECT rowid FROM {fts} WHERE {fts} MATCH 'energy'").fetchall())
        out["card_tri"] = con.execute("SELECT rowid, names, body FROM card_tri ORDER BY rowid").fetchall()
        return out
    finally:
        con.close()


@pytest.mark.parametrize("batch", [7, 2000])
def test_streamed_build_equals_build_from_memory(tmp_path, monkeypatch, batch):
    monkeypatch.setattr(index_mod, "WRITE_BATCH", batch)
    roots = catalog_roots(None)
    streamed = tmp_path / "streamed.sqlite"
    index_mod.build_index(roots, streamed)
    meta = dict(sqlite3.connect(streamed).execute("SELECT key, value FROM meta"))
    whole = validate(roots)
    assert whole.problems == []
    memory = tmp_path / "memory.sqlite"
    index_mod._write(whole.catalog, memory, meta["fingerprint"], meta.get("quick", ""), int(meta["files"]))
    a, b = _dump(streamed), _dump(memory)
    assert len(a["card"]) == 758
    for table in a:
        assert a[table] == b[table], table


def test_build_reads_a_card_missing_from_the_cache(test_set, tmp_path, monkeypatch):
    from cardlab.catalog import filecheck

    monkeypatch.setattr(filecheck, "cached_data", lambda roots, paths: {})
    db = tmp_path / "i.sqlite"
    report = index_mod.build_index([test_set], db)
    assert report.cards == 4
    con = sqlite3.connect(db)
    assert [r[0] for r in con.execute("SELECT id FROM card ORDER BY rowid")] == ["test1-1", "test1-2", "test1-3", "test1-4"]
