"""The ``cardlab`` entry point (cardlab.cli.entry): ``cardlab validate`` of a whole catalog to a
pipe answers without loading the CLI when the catalog is clean: from the record of the last clean
run when nothing changed, else from a validation of its own; anything else goes to the full CLI
(issue 12)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.catalog import freshness
from cardlab.cli import entry
from cardlab.cli.whole import app
from cardlab.core.paths import index_location

REPO = Path(__file__).resolve().parents[2]


def _quick(monkeypatch, argv: list[str]) -> tuple[bool, str]:
    """Run the entry's quick path on ``argv`` with stdout a pipe; return (answered, what it printed)."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    answered = entry._plain_validate(argv)
    return answered, out.getvalue()


def _full_validate(runner, root: Path) -> str:
    result = runner.invoke(app, ["validate", "--catalog", str(root)])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_an_unchanged_clean_catalog_answers_as_the_full_validation(runner, catalog_copy, monkeypatch):
    full = _full_validate(runner, catalog_copy)
    assert full == "ok: 110 files, no problems\n"  # Base Set: set.yaml and 102 cards; 7 formats
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, full)
    assert _quick(monkeypatch, ["validate", f"--catalog={catalog_copy}"]) == (True, full)
    monkeypatch.setenv("CARDLAB_CATALOG", str(catalog_copy))
    assert _quick(monkeypatch, ["validate"]) == (True, full)
    monkeypatch.setenv("CARDLAB_LANG", "de,fr-CH")
    assert _quick(monkeypatch, ["validate"]) == (True, full)


@pytest.mark.parametrize("value", ["zz", "fr,zz", "fr!"])
def test_an_unknown_cardlab_lang_goes_to_the_full_cli_which_refuses_it(runner, catalog_copy, monkeypatch, value):
    _full_validate(runner, catalog_copy)
    monkeypatch.setenv("CARDLAB_LANG", value)
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (False, "")
    result = runner.invoke(app, ["validate", "--catalog", str(catalog_copy)])
    assert result.exit_code == 2 and "error: CARDLAB_LANG:" in result.stderr


def test_a_same_size_edit_with_the_modification_time_kept_is_not_answered_from_the_record(runner, catalog_copy, monkeypatch):
    """The record of the last clean run would say ok; the file, edited to a negative HP (same size,
    same modification time), is checked again and the full CLI reports it."""
    _full_validate(runner, catalog_copy)
    card = next((catalog_copy / "pokemon" / "base1").glob("4-*.yaml"))
    st = card.stat()
    text = card.read_text(encoding="utf-8")
    assert "hp: 120" in text
    card.write_text(text.replace("hp: 120", "hp: -12"), encoding="utf-8")  # same size
    os.utime(card, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert card.stat().st_size == st.st_size and card.stat().st_mtime_ns == st.st_mtime_ns
    assert freshness.unchanged_clean_run([catalog_copy], index_location([catalog_copy])[0]) is None
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (False, "")
    result = runner.invoke(app, ["validate", "--catalog", str(catalog_copy)])
    assert result.exit_code == 1 and f"{card.name}:" in result.stderr and "hp" in result.stderr


def test_a_changed_clean_catalog_is_validated_and_answered_without_the_cli(runner, catalog_copy, monkeypatch):
    """The first validation of a catalog (no record, an empty cache) and one after an edit answer
    from the entry when clean, and record the run: the next one answers from the record."""
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, "ok: 110 files, no problems\n")
    card = next((catalog_copy / "pokemon" / "base1").glob("4-*.yaml"))
    card.write_text(card.read_text(encoding="utf-8").replace("hp: 120", "hp: 130"), encoding="utf-8")
    assert freshness.unchanged_clean_run([catalog_copy], index_location([catalog_copy])[0]) is None
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, "ok: 110 files, no problems\n")
    assert freshness.unchanged_clean_run([catalog_copy], index_location([catalog_copy])[0]) == 110


def test_a_catalog_with_problems_goes_to_the_full_cli(runner, catalog_copy, monkeypatch):
    card = next((catalog_copy / "pokemon" / "base1").glob("4-*.yaml"))
    card.write_text(card.read_text(encoding="utf-8").replace("hp: 120", "hp: -120"), encoding="utf-8")
    result = runner.invoke(app, ["validate", "--catalog", str(catalog_copy)])
    assert result.exit_code == 1
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (False, "")


def test_an_index_of_another_state_of_the_catalog_is_told_by_the_quick_path_too(runner, catalog_copy, tmp_path, monkeypatch):
    """A validation tells an index of another state of the catalog to check every file at the next
    search (it drops the index's folder fingerprint, ``quick``): the quick path's validation as the
    full command's; once told, the next run answers from the record."""
    from cardlab.index.sqlite import FINGERPRINT_SALT, _write_meta, stored_meta

    db = tmp_path / "index.sqlite"
    monkeypatch.setenv("CARDLAB_DB", str(db))
    assert runner.invoke(app, ["index", "--catalog", str(catalog_copy)]).exit_code == 0
    _full_validate(runner, catalog_copy)
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)])[0] is True
    assert "quick" in stored_meta(db)
    card = next((catalog_copy / "pokemon" / "base1").glob("4-*.yaml"))
    card.write_text(card.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert freshness.unchanged_clean_run([catalog_copy], db) is None  # the run key changed
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, "ok: 110 files, no problems\n")
    meta = stored_meta(db)  # the index still holds the state before the edit: marked stale
    assert meta["fingerprint"] != freshness.run_key([catalog_copy], FINGERPRINT_SALT)[1]
    assert "quick" not in meta
    assert freshness.unchanged_clean_run([catalog_copy], db) == 110
    _write_meta(db, {"quick": "an index trusted by its folders again (restored from a backup)"})
    assert freshness.unchanged_clean_run([catalog_copy], db) is None
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, "ok: 110 files, no problems\n")
    assert "quick" not in stored_meta(db)


def test_an_index_rebuilt_since_the_last_validation_is_recorded_again(runner, catalog_copy, tmp_path, monkeypatch):
    """The record holds for the index file the last validation left; any write to it since (a
    rebuild, a restored backup) makes the next run validate, which records it again."""
    db = tmp_path / "index.sqlite"
    monkeypatch.setenv("CARDLAB_DB", str(db))
    _full_validate(runner, catalog_copy)  # no index yet: recorded as none
    assert freshness.unchanged_clean_run([catalog_copy], db) == 110
    monkeypatch.setattr("cardlab.core.stamps.RACY_NS", 0)  # the index just written can be trusted at once
    assert runner.invoke(app, ["index", "--catalog", str(catalog_copy)]).exit_code == 0
    assert freshness.unchanged_clean_run([catalog_copy], db) is None
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, "ok: 110 files, no problems\n")
    assert freshness.unchanged_clean_run([catalog_copy], db) == 110
    assert runner.invoke(app, ["index", "--force", "--catalog", str(catalog_copy)]).exit_code == 0
    assert freshness.unchanged_clean_run([catalog_copy], db) is None


def test_an_index_on_a_server_or_no_cache_goes_to_the_full_cli_which_validates_once(runner, catalog_copy, monkeypatch):
    _full_validate(runner, catalog_copy)
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)])[0] is True
    monkeypatch.setenv("CARDLAB_DB", "postgresql+psycopg://nobody@localhost/cards")
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (False, "")
    monkeypatch.delenv("CARDLAB_DB")
    monkeypatch.setenv("CARDLAB_NO_CACHE", "1")
    db = index_location([catalog_copy])[0]
    assert freshness.unchanged_clean_run([catalog_copy], db) is None  # no record without a cache
    # the full CLI could not read a validation done here back (no cache): it validates, once
    from cardlab.index import access

    calls = []
    real = access.validate_and_record
    monkeypatch.setattr(access, "validate_and_record", lambda *a: calls.append(a) or real(*a))
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (False, "")
    assert calls == []
    monkeypatch.setattr(sys, "stdout", sys.__stdout__)
    assert _full_validate(runner, catalog_copy) == "ok: 110 files, no problems\n"
    assert len(calls) == 1
    assert freshness.unchanged_clean_run([catalog_copy], db) is None


def test_a_damaged_record_is_written_again(runner, catalog_copy, monkeypatch):
    _full_validate(runner, catalog_copy)
    record = Path(str(freshness.validation_cache([catalog_copy])).removesuffix(".sqlite") + ".clean")
    lines = record.read_text(encoding="utf-8").split("\n")
    assert len(lines) == 5 and lines[1] == "110" and lines[4] == ""
    db = index_location([catalog_copy])[0]
    for damaged in ("", "\n".join(lines[:3]), "\n".join([lines[0], "many", *lines[2:]]), "\n".join(lines) + "extra\n"):
        record.write_text(damaged, encoding="utf-8")
        assert freshness.unchanged_clean_run([catalog_copy], db) is None
        assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (True, "ok: 110 files, no problems\n")
        assert record.read_text(encoding="utf-8") == "\n".join(lines)


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "--format", "json"],
        ["validate", "cards"],
        ["validate", "--catalog"],
        ["validate", "--catalog", "--format"],
        ["validate", "--help"],
        ["search", "pikachu"],
        ["--version"],
        [],
    ],
)
def test_other_command_lines_go_to_the_full_cli(argv, runner, catalog_copy, monkeypatch):
    _full_validate(runner, catalog_copy)
    monkeypatch.setenv("CARDLAB_CATALOG", str(catalog_copy))
    assert _quick(monkeypatch, argv) == (False, "")


@pytest.mark.parametrize("variable", ["FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"])
def test_output_rich_would_colour_goes_to_the_full_cli(variable, runner, catalog_copy, monkeypatch):
    _full_validate(runner, catalog_copy)
    monkeypatch.setenv(variable, "1")
    assert _quick(monkeypatch, ["validate", "--catalog", str(catalog_copy)]) == (False, "")


def test_a_terminal_goes_to_the_full_cli(runner, catalog_copy, monkeypatch):
    _full_validate(runner, catalog_copy)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    assert entry._plain_validate(["validate", "--catalog", str(catalog_copy)]) is False
    assert sys.stdout.getvalue() == ""


def test_a_missing_catalog_goes_to_the_full_cli_which_says_so(runner, tmp_path, monkeypatch):
    assert _quick(monkeypatch, ["validate", "--catalog", str(tmp_path / "nowhere")]) == (False, "")
    result = runner.invoke(app, ["validate", "--catalog", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "catalog folder not found" in result.stderr


def test_as_a_process_a_clean_validation_loads_neither_typer_nor_rich(tmp_path):
    """A real process, on the shipped catalog (its files are older than the racy tick): the first
    run validates without the CLI, the second answers from its record without even the checks."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDLAB_", "FORCE_COLOR", "TTY_"))}
    env["CARDLAB_CACHE_DIR"] = str(tmp_path / "cache")
    command = [sys.executable, "-X", "importtime", "-m", "cardlab", "validate"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=REPO)
    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=REPO)
    assert first.returncode == 0 and second.returncode == 0
    files = len(list((REPO / "cards").rglob("*.yaml")))  # 780 today
    assert first.stdout == second.stdout == f"ok: {files} files, no problems\n"
    loaded = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines() if line.startswith("import time:")}
    assert "cardlab.catalog.freshness" in loaded
    assert {"typer", "rich", "cardlab.cli.app", "cardlab.catalog.validate"} & loaded == set()
    assert {"pathlib", "sqlite3", "hashlib"} & loaded == set()  # about 12 ms of imports the quick answer does without
    loaded_first = {line.rsplit("|", 1)[-1].strip() for line in first.stderr.splitlines()}
    assert "cardlab.catalog.validate" in loaded_first
    assert {"typer", "rich", "cardlab.cli.app"} & loaded_first == set()
    with open("/dev/full", "w") as full:
        third = subprocess.run(
            [sys.executable, "-m", "cardlab", "validate"], stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=120, cwd=REPO
        )
    assert third.returncode == 2
    assert third.stderr == "error: cannot write the output: No space left on device\n"
