"""How the index knows it is fresh (issue 12): every file's stamp for a small catalog, only the
folders' stamps for a large one, every file again on ``cardlab index`` and after ``cardlab
validate`` saw a change."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from cardlab.cli.whole import app
from cardlab.core import stamps
from cardlab.index import sqlite as index_mod

PAST = 1_500_000_000  # 2017: far from "now", so no stamp is racy


@pytest.fixture
def large(monkeypatch, test_set):
    """The fictional test set, treated as a catalog above the full-check size; stamps not racy."""
    monkeypatch.setattr(index_mod, "FULL_CHECK_FILES", 0)
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    return test_set


def _age(root: Path) -> None:
    """Put every file and folder's modification time in the past (the change time stays)."""
    for folder, _dirs, files in os.walk(root):
        for name in files:
            os.utime(Path(folder) / name, (PAST, PAST))
        os.utime(folder, (PAST, PAST))


def _meta(db: Path) -> dict[str, str]:
    con = sqlite3.connect(db)
    try:
        return dict(con.execute("SELECT key, value FROM meta"))
    finally:
        con.close()


def _names(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT name FROM card ORDER BY id")]
    finally:
        con.close()


def _edit_in_place(path: Path, old: str, new: str) -> None:
    """Rewrite a file in place (same inode, the folder untouched), same size, same mtime."""
    text = path.read_text(encoding="utf-8")
    assert len(old) == len(new) and old in text
    st = path.stat()
    with open(path, "r+", encoding="utf-8") as fh:
        fh.write(text.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_build_records_files_and_quick_fingerprint(large, tmp_path):
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)
    meta = _meta(db)
    assert meta["files"] == str(len(list((large / "pokemon" / "test1").glob("*.yaml"))))
    assert meta["quick"] == index_mod.quick_fingerprint([large])


def test_large_catalog_fresh_without_statting_each_file(large, tmp_path, monkeypatch):
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)

    def every_file(_roots):
        raise AssertionError("every file was statted")

    monkeypatch.setattr(index_mod, "_fingerprint_and_count", every_file)
    assert index_mod.ensure_index([large], db) is None


def test_large_catalog_new_card_file_seen_through_its_folder(large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)
    card = large / "pokemon" / "test1" / "4-test-gadget.yaml"
    text = card.read_text(encoding="utf-8").replace("Test Gadget", "Test Widget")
    tmp = card.with_name(".edit.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, card)  # how editors save: a new file renamed into place
    report = index_mod.ensure_index([large], db)
    assert report is not None and report.cards == 4
    assert "Test Widget" in _names(db)


def test_large_catalog_set_manifest_edit_in_place_seen(large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)
    before = _meta(db)["fingerprint"]
    manifest = large / "pokemon" / "test1" / "set.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert index_mod.ensure_index([large], db) is not None
    assert _meta(db)["fingerprint"] != before


def test_large_catalog_card_edited_in_place_seen_after_mark_stale(large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)
    _edit_in_place(large / "pokemon" / "test1" / "4-test-gadget.yaml", "Test Gadget", "Test Widget")
    # the folders did not change: a search keeps the index (the documented cost of the quick check)
    assert index_mod.ensure_index([large], db) is None
    index_mod.mark_stale(db)
    assert "quick" not in _meta(db)
    assert index_mod.ensure_index([large], db) is not None
    assert "Test Widget" in _names(db)


def test_full_check_finds_in_place_edit(large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)
    _edit_in_place(large / "pokemon" / "test1" / "4-test-gadget.yaml", "Test Gadget", "Test Widget")
    assert index_mod.ensure_index([large], db, full=True) is not None


def test_touched_folder_checks_files_once_then_notes_quick(large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    index_mod.build_index([large], db)
    folder = large / "pokemon" / "test1"
    os.utime(folder, (PAST + 10, PAST + 10))  # a swap file came and went: nothing changed
    assert index_mod.ensure_index([large], db) is None
    assert _meta(db)["quick"] == index_mod.quick_fingerprint([large])


def test_small_catalog_sees_in_place_edit_on_every_search(test_set, tmp_path, monkeypatch):
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    _age(test_set)
    db = tmp_path / "i.sqlite"
    index_mod.build_index([test_set], db)
    _edit_in_place(test_set / "pokemon" / "test1" / "4-test-gadget.yaml", "Test Gadget", "Test Widget")
    assert index_mod.ensure_index([test_set], db) is not None


def test_cli_validate_after_in_place_edit_makes_search_see_it(runner, large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    opts = ["--catalog", str(large), "--db", str(db)]
    assert runner.invoke(app, ["index", *opts]).exit_code == 0
    _edit_in_place(large / "pokemon" / "test1" / "4-test-gadget.yaml", "Test Gadget", "Test Widget")
    env = {"CARDLAB_DB": str(db)}
    checked = runner.invoke(app, ["validate", "--catalog", str(large)], env=env)
    assert checked.exit_code == 0, checked.output
    found = runner.invoke(app, ["search", "widget", *opts, "--output-format", "ids"])
    assert found.exit_code == 0 and found.stdout.split() == ["test1-4"]


def test_cli_index_checks_every_file(runner, large, tmp_path):
    _age(large)
    db = tmp_path / "i.sqlite"
    opts = ["--catalog", str(large), "--db", str(db)]
    assert runner.invoke(app, ["index", *opts]).exit_code == 0
    _edit_in_place(large / "pokemon" / "test1" / "4-test-gadget.yaml", "Test Gadget", "Test Widget")
    rebuilt = runner.invoke(app, ["index", *opts])
    assert rebuilt.exit_code == 0 and rebuilt.stdout.startswith("indexed 4 cards")


def test_validate_twice_answers_from_the_last_run(runner, test_set, monkeypatch):
    from cardlab.catalog import validate as validate_mod

    monkeypatch.setattr(stamps, "RACY_NS", 0)
    _age(test_set)
    first = runner.invoke(app, ["validate", "--catalog", str(test_set)])
    assert first.exit_code == 0 and first.stdout.strip() == "ok: 5 files, no problems"

    def no_validation(*_a, **_k):
        raise AssertionError("validated again")

    monkeypatch.setattr(validate_mod, "validate", no_validation)
    again = runner.invoke(app, ["validate", "--catalog", str(test_set)])
    assert again.exit_code == 0 and again.stdout == first.stdout


def test_validate_after_same_size_edit_checks_again(runner, test_set, monkeypatch):
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    _age(test_set)
    card = test_set / "pokemon" / "test1" / "4-test-gadget.yaml"
    assert runner.invoke(app, ["validate", "--catalog", str(test_set)]).exit_code == 0
    _edit_in_place(card, 'number: "4"', 'number: "7"')
    again = runner.invoke(app, ["validate", "--catalog", str(test_set)])
    assert again.exit_code == 1
    assert "4-test-gadget.yaml" in again.stderr and "(id)" in again.stderr


def test_validate_repeats_the_problems_it_found(runner, test_set, monkeypatch):
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    card = test_set / "pokemon" / "test1" / "4-test-gadget.yaml"
    _edit_in_place(card, 'number: "4"', 'number: "7"')
    _age(test_set)
    first = runner.invoke(app, ["validate", "--catalog", str(test_set)])
    second = runner.invoke(app, ["validate", "--catalog", str(test_set)])
    assert first.exit_code == second.exit_code == 1
    assert second.stderr == first.stderr


def test_index_built_among_recent_files_settles_without_a_rebuild(test_set, tmp_path, monkeypatch):
    db = tmp_path / "i.sqlite"
    monkeypatch.setattr(stamps, "RACY_NS", 10**18)  # every file "just written", as after a checkout
    index_mod.build_index([test_set], db)
    meta = _meta(db)
    assert ":racy-" in meta["fingerprint"]
    assert sorted(Path(p).name for p in json.loads(meta["racy_files"])) == sorted(
        p.name for p in (test_set / "pokemon" / "test1").glob("*.yaml")
    )
    monkeypatch.setattr(stamps, "RACY_NS", 0)  # time passed
    assert index_mod.ensure_index([test_set], db) is None
    settled = _meta(db)
    assert settled["fingerprint"] == index_mod.fingerprint([test_set]) and "racy_files" not in settled


def test_recent_file_with_other_bytes_rebuilds(test_set, tmp_path, monkeypatch):
    db = tmp_path / "i.sqlite"
    monkeypatch.setattr(stamps, "RACY_NS", 10**18)
    index_mod.build_index([test_set], db)
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    real = index_mod._contents
    monkeypatch.setattr(index_mod, "_contents", lambda paths: {p: "0" * 40 for p in real(paths)})  # same stamps, other bytes
    report = index_mod.ensure_index([test_set], db)
    assert report is not None and report.cards == 4


def test_cli_validate_marks_the_index_even_when_another_command_read_the_edit_first(runner, large, tmp_path):
    from cardlab.catalog.validate import validate as validate_catalog

    _age(large)
    db = tmp_path / "i.sqlite"
    opts = ["--catalog", str(large), "--db", str(db)]
    assert runner.invoke(app, ["index", *opts]).exit_code == 0
    _edit_in_place(large / "pokemon" / "test1" / "4-test-gadget.yaml", "Test Gadget", "Test Widget")
    validate_catalog([large])  # another command (i18n status, serve...) re-read the file: the cache is warm
    checked = runner.invoke(app, ["validate", "--catalog", str(large)], env={"CARDLAB_DB": str(db)})
    assert checked.exit_code == 0, checked.output
    assert "quick" not in _meta(db)
    found = runner.invoke(app, ["search", "widget", *opts, "--output-format", "ids"])
    assert found.exit_code == 0 and found.stdout.split() == ["test1-4"]


def test_a_broken_catalog_never_searches_another_catalogs_index(runner, test_set, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(test_set, other)
    db = tmp_path / "shared.sqlite"
    assert runner.invoke(app, ["index", "--catalog", str(other), "--db", str(db)]).exit_code == 0
    (test_set / "pokemon" / "test1" / "9-draft.yaml").write_text('id: test1-9\nnumber: "9"\nname: {en: Draftmon}\n', encoding="utf-8")
    result = runner.invoke(app, ["search", "testmon", "--catalog", str(test_set), "--db", str(db), "-O", "ids"])
    # issue 33: this catalog's other cards are indexed and searched, with the bad file as a warning
    assert result.exit_code == 0
    assert "9-draft.yaml" in result.stderr and "searching the other cards" in result.stderr
    assert "searching the previous index" not in result.stderr
    assert result.stdout.split() == ["test1-1", "test1-2"]
