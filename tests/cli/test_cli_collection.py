"""``cardlab collection ...`` and ``cardlab deck have`` from the command line (issue 13 §2)."""

from __future__ import annotations

import json

import pytest

from cardlab.cli.app import app


@pytest.fixture
def env(monkeypatch, forum_catalog, tmp_path, backend):
    monkeypatch.setenv("CARDLAB_CATALOG", str(forum_catalog))
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")


def run(runner, *args):
    return runner.invoke(app, list(args))


def test_add_list_remove_export(runner, env):
    assert run(runner, "collection", "add", "ftcg-test-12", "-n", "2").exit_code == 0
    assert run(runner, "collection", "add", "Lame errante").exit_code == 0
    out = run(runner, "collection", "list", "faction:gotei-13")
    assert out.exit_code == 0 and "ftcg-test-12" in out.stdout and "ftcg-test-1 " not in out.stdout
    data = json.loads(run(runner, "collection", "list", "-O", "json").stdout)
    assert {(d["id"], d["count"]) for d in data} == {("ftcg-test-1", 1), ("ftcg-test-12", 2)}
    assert run(runner, "collection", "remove", "ftcg-test-12", "-n", "3").exit_code == 1
    assert run(runner, "collection", "export").stdout == "card_id,count\nftcg-test-1,1\nftcg-test-12,2\n"


def test_unknown_card_suggests_and_writes_nothing(runner, env):
    out = run(runner, "collection", "add", "Lame erante")
    assert out.exit_code == 1 and "did you mean" in out.stderr and "Traceback" not in out.stderr
    assert run(runner, "collection", "export").stdout == "card_id,count\n"


@pytest.mark.parametrize("count", ["-2", "2.5", "two"])
def test_bad_counts_exit_2(runner, env, count):
    out = run(runner, "collection", "add", "ftcg-test-1", "-n", count)
    assert out.exit_code == 2 and "count" in out.stderr


def test_import_bad_row_row_column_exit_1(runner, env, tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("card_id,count\nftcg-test-1,1\nftcg-test-99,1\n")
    out = run(runner, "collection", "import", str(f))
    assert out.exit_code == 1 and "c.csv:3:1" in out.stderr
    assert run(runner, "collection", "export").stdout == "card_id,count\n"


def test_export_to_file_is_a_backup_that_import_restores(runner, env, tmp_path):
    run(runner, "collection", "add", "ftcg-test-3", "-n", "4", "--player", "bob")
    run(runner, "collection", "add", "ftcg-test-5")
    backup = tmp_path / "backup.csv"
    assert run(runner, "collection", "export", "--all-players", "-o", str(backup)).exit_code == 0
    assert run(runner, "collection", "export", "--all-players", "-o", str(backup)).exit_code == 2  # no --overwrite
    run(runner, "collection", "set", "ftcg-test-5", "0")
    assert run(runner, "collection", "import", str(backup), "--replace").exit_code == 0
    assert run(runner, "collection", "export", "--all-players").stdout == backup.read_text()


def test_deck_have(runner, env, tmp_path, monkeypatch, forum_roots):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)  # the shipped forumtcg-list format
    deck = tmp_path / "list.txt"
    deck.write_text("2 Lame errante\n1 FT 3\n7 ftcg-test-4\n")
    run(runner, "collection", "add", "ftcg-test-1", "-n", "2")
    out = run(runner, "deck", "have", str(deck), "-O", "json")
    data = json.loads(out.stdout)
    assert out.exit_code == 1
    assert [(c["id"], c["need"], c["own"], c["missing"]) for c in data["cards"]] == [
        ("ftcg-test-1", 2, 2, 0),
        ("ftcg-test-3", 1, 0, 1),
        ("ftcg-test-4", 7, 0, 7),
    ]
    run(runner, "collection", "add", "ftcg-test-3")
    run(runner, "collection", "add", "ftcg-test-4", "-n", "7")
    assert run(runner, "deck", "have", str(deck)).exit_code == 0


def test_deck_have_other_games(runner, monkeypatch, repo, tmp_path):
    deck = repo / "examples" / "decks" / "zap-theme-deck.txt"
    out = run(runner, "deck", "have", str(deck), "--player", "nobody", "-O", "json")
    data = json.loads(out.stdout)
    assert out.exit_code == 1 and data["need"] == 60 and data["missing"] == 60


def test_read_only_data_dir_is_a_clear_error(runner, env, monkeypatch, tmp_path):
    import os
    from pathlib import Path

    target = tmp_path / "ro"
    target.mkdir()
    monkeypatch.setenv("CARDLAB_DATA", str(target))
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == target else real(p, mode, **kw))
    out = run(runner, "collection", "add", "ftcg-test-1")
    assert out.exit_code == 1 and "read-only" in out.stderr and "CARDLAB_DATA" in out.stderr
    assert "Traceback" not in out.stderr
    listed = run(runner, "collection", "list")  # reading needs no write access
    assert listed.exit_code == 0 and "0 cards" in listed.stdout
