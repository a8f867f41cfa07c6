"""Long commands (issue 29 §6): a progress bar only on a terminal, and Ctrl-C that leaves the old
data whole and says so (exit 130, no traceback). The interruption is injected where a real Ctrl-C
would land: inside the library's loop, through the progress listener (:mod:`cardlab.core.progress`)."""

from __future__ import annotations

import hashlib
import io
import os
import signal
import sqlite3

import pytest
from rich.console import Console

from cardlab.cli.whole import app
from cardlab.core import progress
from cardlab.render import progress as render_progress


def interrupt_at(stage: str) -> progress.Listener:
    """A listener that presses Ctrl-C the first time ``stage`` reports."""

    def listener(what: str, done: int, total: int) -> None:
        if what == stage:
            raise KeyboardInterrupt

    return listener


def test_bar_shows_counts_once_work_runs_long():
    out = io.StringIO()
    with render_progress.ProgressBar(Console(file=out, force_terminal=True, width=120), delay=0) as bar:
        bar("indexing cards", 3, 10)
    assert "indexing cards" in out.getvalue()
    assert "3/10" in out.getvalue()


def test_quick_work_draws_nothing():
    out = io.StringIO()
    with render_progress.ProgressBar(Console(file=out, force_terminal=True, width=120), delay=60) as bar:
        bar("indexing cards", 3, 10)
    assert out.getvalue() == ""


def test_no_bar_when_not_a_terminal(runner, test_set, tmp_path, monkeypatch):
    monkeypatch.setattr(render_progress, "DELAY", 0.0)
    db = tmp_path / "i.sqlite"
    out = runner.invoke(app, ["index", "--force", "--catalog", str(test_set), "--db", str(db)])
    assert out.exit_code == 0, out.stderr
    assert out.stderr == ""
    assert out.stdout.splitlines()[1] == f"index: {db}"


def test_interrupted_index_keeps_the_previous_one(runner, test_set, tmp_path):
    db = tmp_path / "i.sqlite"
    assert runner.invoke(app, ["index", "--catalog", str(test_set), "--db", str(db)]).exit_code == 0
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    with sqlite3.connect(db) as con:
        cards = con.execute("SELECT id, name FROM card ORDER BY id").fetchall()
    with progress.reporting(interrupt_at("indexing cards")):
        out = runner.invoke(app, ["index", "--force", "--catalog", str(test_set), "--db", str(db)])
    assert (out.exit_code, out.stderr) == (130, f"interrupted: the previous index is unchanged: {db}\n")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT id, name FROM card ORDER BY id").fetchall() == cards
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog", "i.sqlite"]  # no temporary file left


def test_interrupted_collection_import_keeps_the_collection(runner, forum_roots, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)
    monkeypatch.setenv("CARDLAB_PLAYER", "alice")
    assert runner.invoke(app, ["collection", "add", "ftcg-test-12", "-n", "2"]).exit_code == 0
    csv = tmp_path / "more.csv"
    csv.write_text("card_id,count\nftcg-test-12,5\nftcg-test-3,1\n", encoding="utf-8")
    with progress.reporting(interrupt_at("importing cards")):
        out = runner.invoke(app, ["collection", "import", str(csv)])
    assert (out.exit_code, out.stderr) == (130, "interrupted: the collection is unchanged\n")
    assert runner.invoke(app, ["collection", "export"]).stdout == "card_id,count\nftcg-test-12,2\n"


def test_interrupted_validate_exits_130(runner, test_set):
    with progress.reporting(interrupt_at("checking files")):
        out = runner.invoke(app, ["validate", "--catalog", str(test_set)])
    assert (out.exit_code, out.stderr) == (130, "interrupted: nothing was changed (files already checked stay in the cache)\n")


def test_ctrl_c_waits_for_the_renames():
    finished = []
    with pytest.raises(KeyboardInterrupt):
        with progress.uninterrupted():
            os.kill(os.getpid(), signal.SIGINT)
            finished.append("renamed")
    assert finished == ["renamed"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_interrupted_db_copy_keeps_the_target(runner, forum_roots, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)
    source, target = str(tmp_path / "source"), str(tmp_path / "target")
    for where, card in ((source, "ftcg-test-12"), (target, "ftcg-test-3")):
        monkeypatch.setenv("CARDLAB_DATA", where)
        assert runner.invoke(app, ["collection", "add", card, "-n", "2", "-p", "alice"]).exit_code == 0
    with progress.reporting(interrupt_at("copying rows")):
        out = runner.invoke(app, ["db", "copy", "--from", source, "--to", target, "--overwrite"])
    assert (out.exit_code, out.stderr) == (130, "interrupted: the target database is unchanged\n")
    assert runner.invoke(app, ["collection", "export", "--all-players"]).stdout == "player,card_id,count\nalice,ftcg-test-3,2\n"


def test_real_sigint_mid_build_in_a_subprocess(runner, test_set, tmp_path):
    """The whole edge, once: a real SIGINT sent to the process while it writes the new index."""
    import subprocess
    import sys

    db = tmp_path / "i.sqlite"
    assert runner.invoke(app, ["index", "--catalog", str(test_set), "--db", str(db)]).exit_code == 0
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    script = (
        "import os, signal, sys\n"
        "from cardlab.core import progress\n"
        "from cardlab.cli.entry import main\n"
        "sys.argv = ['cardlab', 'index', '--force', '--catalog', sys.argv[1], '--db', sys.argv[2]]\n"
        "press = lambda what, done, total: os.kill(os.getpid(), signal.SIGINT) if what == 'indexing cards' else None\n"
        "with progress.reporting(press):\n"
        "    main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(test_set), str(db)], capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr, done.stdout) == (130, f"interrupted: the previous index is unchanged: {db}\n", "")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
