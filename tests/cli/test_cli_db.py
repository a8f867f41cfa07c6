"""``cardlab db copy`` (collections and saved games between SQLite and PostgreSQL) and the errors of
a PostgreSQL ``CARDLAB_DATA``: one clear message, exit 2, no traceback."""

from __future__ import annotations

import pytest

from cardlab.cli.whole import app
from cardlab.collection import db, owned
from cardlab.collection.copy import TargetNotEmptyError, copy_database
from cardlab.play import store


def run(runner, *args, code=0):
    out = runner.invoke(app, list(args))
    assert out.exit_code == code, (args, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    return out


def _fill(runner, monkeypatch, where: str) -> None:
    """Two players' collections and two saved games (one over, its stake moved) in ``where``."""
    monkeypatch.setenv("CARDLAB_DATA", where)
    run(runner, "collection", "add", "ftcg-test-12", "-n", "2", "-p", "alice")
    run(runner, "collection", "add", "Lame errante", "-p", "alice")
    run(runner, "collection", "add", "ftcg-test-3", "-n", "4", "-p", "bob")
    run(
        runner,
        "play",
        "new",
        "zangetsu",
        "-p",
        "alice",
        "-p",
        "bob",
        "--set",
        "ftcg-test",
        "--seed",
        "22" * 32,
        "--stake",
        "alice:ftcg-test-12",
        "--stake",
        "bob:ftcg-test-3",
    )
    run(runner, "play", "accept", "1", "-p", "alice", "--contribution", "alice-word")
    run(runner, "play", "accept", "1", "-p", "bob", "--contribution", "bob-word")
    run(runner, "play", "new", "los-lobos", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--seed", "11" * 32)


def _snapshot(runner, monkeypatch, where: str) -> tuple[str, str, list[str]]:
    """What a user sees of ``where``: the full export, the game list, each game as JSON."""
    monkeypatch.setenv("CARDLAB_DATA", where)
    export = run(runner, "collection", "export", "--all-players").stdout
    games = run(runner, "play", "list").stdout
    shows = [run(runner, "play", "show", str(n), "-O", "json").stdout for n in (1, 2)]
    return export, games, shows


def test_sqlite_to_postgresql_to_sqlite_round_trip(runner, monkeypatch, forum_roots, tmp_path, pg_url):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)
    first = str(tmp_path / "first")
    _fill(runner, monkeypatch, first)
    before = _snapshot(runner, monkeypatch, first)
    # bob won the Zangetsu game: alice's stake moved to him
    assert before[0] == "player,card_id,count\nalice,ftcg-test-1,1\nalice,ftcg-test-12,1\nbob,ftcg-test-12,1\nbob,ftcg-test-3,4\n"
    out = run(runner, "db", "copy", "--from", first, "--to", pg_url)
    assert out.stdout.startswith("copied 4 owned card rows of 2 players and 2 games from ")
    assert _snapshot(runner, monkeypatch, pg_url) == before
    back = f"sqlite:///{tmp_path}/back.sqlite"
    run(runner, "db", "copy", "--from", pg_url, "--to", back)
    assert _snapshot(runner, monkeypatch, back) == before
    # the copy goes on: new games on PostgreSQL number after the copied ones
    monkeypatch.setenv("CARDLAB_DATA", pg_url)
    run(runner, "play", "new", "los-lobos", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--seed", "33" * 32)
    assert run(runner, "play", "list").stdout.splitlines()[0].startswith("#3 ")


def test_the_exact_export_survives_the_round_trip(runner, monkeypatch, forum_roots, tmp_path, pg_url):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)
    source = str(tmp_path / "src")
    monkeypatch.setenv("CARDLAB_DATA", source)
    run(runner, "collection", "add", "ftcg-test-12", "-n", "2", "-p", "zoé")
    run(runner, "collection", "add", "ftcg-test-2", "-p", "Zoe")
    run(runner, "collection", "add", "ftcg-test-10", "-p", "Zoe")
    expected = "player,card_id,count\nZoe,ftcg-test-10,1\nZoe,ftcg-test-2,1\nzoé,ftcg-test-12,2\n"  # byte order on both backends
    assert run(runner, "collection", "export", "--all-players").stdout == expected
    report = copy_database(source, pg_url)
    assert (report.rows, report.players, report.games, report.replaced) == (3, 2, 0, (0, 0))
    monkeypatch.setenv("CARDLAB_DATA", pg_url)
    assert run(runner, "collection", "export", "--all-players").stdout == expected


def test_a_target_with_data_is_refused_unless_overwrite(runner, monkeypatch, tmp_path, pg_url):
    source, target = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    owned.change(db.connect(source), "alice", [("add", "ftcg-test-1", 2)])
    owned.change(db.connect(pg_url), "bob", [("add", "ftcg-test-9", 1)])
    out = run(runner, "db", "copy", "--from", str(source), "--to", pg_url, code=2)
    assert "already holds 1 owned card row and 0 games; nothing was copied. Give --overwrite" in out.stderr
    assert owned.export_csv(db.connect(pg_url), None) == "player,card_id,count\nbob,ftcg-test-9,1\n"
    out = run(runner, "db", "copy", "--from", str(source), "--to", pg_url, "--overwrite")
    assert out.stdout.endswith("(replacing 1 row and 0 games)\n")
    assert owned.export_csv(db.connect(pg_url), None) == "player,card_id,count\nalice,ftcg-test-1,2\n"
    with pytest.raises(TargetNotEmptyError):
        copy_database(pg_url, source)
    copy_database(pg_url, target)
    assert owned.export_csv(db.connect(target), None) == "player,card_id,count\nalice,ftcg-test-1,2\n"


def test_copy_of_games_keeps_ids_seeds_and_results(tmp_path, pg_url):
    source = db.connect(tmp_path / "s.sqlite")
    owned.change(source, "alice", [("add", "ftcg-test-1", 1)])
    owned.change(source, "bob", [("add", "ftcg-test-2", 1)])
    setup = {
        "kind": "zangetsu",
        "players": ["alice", "bob"],
        "pool": [{"id": f"ftcg-test-{i}", "name": f"C{i}", "value": v, "faction": "neutral"} for i, v in ((1, 1), (2, 9))],
        "replacement": True,
    }
    store.create(source, setup, {"alice": "ftcg-test-1", "bob": "ftcg-test-2"}, seed=bytes(32))
    copy_database(tmp_path / "s.sqlite", pg_url)
    target = db.connect(pg_url)
    (a,), (b,) = store.games(source), store.games(target)
    assert (b.id, b.seed, b.result, b.moves, b.stakes, b.created) == (a.id, a.seed, a.result, a.moves, a.stakes, a.created)
    assert owned.export_csv(target, None) == owned.export_csv(source, None)


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("{tmp}/missing.sqlite", "{tmp}/t.sqlite", "no collection database at {tmp}/missing.sqlite"),
        ("{tmp}/text.sqlite", "{tmp}/t.sqlite", "{tmp}/text.sqlite is not a cardlab collection database"),
        ("{tmp}/s.sqlite", "sqlite:///{tmp}/s.sqlite", "--from and --to are the same database"),
        ("{tmp}/s.sqlite", "mysql://u@h/db", "not 'mysql'"),
        ("", "{tmp}/t.sqlite", "no database given (an empty name)"),
        ("{tmp}/s.sqlite", " ", "no database given (an empty name)"),
    ],
)
def test_copy_usage_errors(runner, tmp_path, source, target, message):
    db.connect(tmp_path / "s.sqlite")
    (tmp_path / "text.sqlite").write_text("player,card_id,count\n")
    fill = {"tmp": str(tmp_path)}
    out = run(runner, "db", "copy", "--from", source.format(**fill), "--to", target.format(**fill), code=2)
    assert message.format(**fill) in out.stderr


# --- a PostgreSQL that cannot be used: one clear message, exit 2 -----------------------------------


BAD = [
    (
        "no-server-socket",
        "postgresql+psycopg://postgres@/cards?host={tmp}/nothing-here",
        "cannot reach the PostgreSQL server at {tmp}/nothing-here",
    ),
    ("no-server-tcp", "postgresql+psycopg://postgres@127.0.0.1:9/cards", "cannot reach the PostgreSQL server at 127.0.0.1:9"),
    (
        "unknown-host",
        "postgresql+psycopg://postgres@no-such-host.invalid/cards",
        "cannot reach the PostgreSQL server at no-such-host.invalid",
    ),
    ("wrong-password", "postgresql+psycopg://alice_pw:wrong@/postgres?host={sock}", "refused the login of user 'alice_pw'"),
    ("no-password", "postgresql+psycopg://alice_pw@/postgres?host={sock}", "refused the login of user 'alice_pw'"),
    ("unknown-role", "postgresql+psycopg://nobody@/postgres?host={sock}", "refused the login of user 'nobody'"),
    ("missing-database", "postgresql+psycopg://postgres@/nosuchdb?host={sock}", "has no database 'nosuchdb'; create it (createdb nosuchdb"),
    (
        "no-rights",
        "postgresql+psycopg://limited@/postgres?host={sock}",
        "user 'limited' may not create or change cardlab's tables in the database 'postgres'",
    ),
]


COMMANDS = ["collection-add", "collection-list", "play-list", "db-copy-to", "db-copy-from"]
# every failure through every command; a name lookup (which a machine without DNS may answer slowly) once
CASES = [(*bad, command) for bad in BAD for command in (COMMANDS if bad[0] != "unknown-host" else COMMANDS[:1])]
# a source without collections is refused before anything is written to it (no rights needed)
CASES = [
    (kind, url, "is not a cardlab collection database: it holds no collections; nothing was read or written", command)
    if (kind, command) == ("no-rights", "db-copy-from")
    else (kind, url, message, command)
    for kind, url, message, command in CASES
]


@pytest.mark.parametrize(("kind", "url", "message", "command"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_an_unusable_server_is_one_clear_error(runner, monkeypatch, forum_roots, pg_server, tmp_path, kind, url, message, command):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)
    monkeypatch.setenv("PGPASSWORD", "")
    monkeypatch.delenv("PGPASSFILE", raising=False)
    url = url.format(tmp=tmp_path, sock=pg_server)
    args = {
        "collection-add": ["collection", "add", "ftcg-test-1"],
        "collection-list": ["collection", "list"],
        "play-list": ["play", "list"],
        "db-copy-to": ["db", "copy", "--from", str(tmp_path / "s.sqlite"), "--to", url],
        "db-copy-from": ["db", "copy", "--from", url, "--to", str(tmp_path / "t.sqlite")],
    }[command]
    if command.startswith("db-copy-to"):
        db.connect(tmp_path / "s.sqlite")
    else:
        monkeypatch.setenv("CARDLAB_DATA", url)
    out = run(runner, *args, code=2)
    assert message.format(tmp=tmp_path, sock=pg_server) in out.stderr
    assert out.stderr.count("\n") == 1 and out.stdout == ""
    assert ":wrong@" not in out.stderr  # never the password


def test_json_output_of_a_server_error(runner, monkeypatch, tmp_path, forum_roots):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)
    monkeypatch.setenv("CARDLAB_DATA", f"postgresql+psycopg://postgres@/cards?host={tmp_path}/none")
    out = run(runner, "collection", "list", "-O", "json", code=2)
    assert "cannot reach the PostgreSQL server" in out.stderr
    assert out.stdout == ""


def test_the_collection_commands_import_no_database_library():
    """Only a command that opens the collections database imports SQLAlchemy; Alembic and psycopg
    only when they are needed (a migration, a PostgreSQL URL)."""
    import subprocess
    import sys

    code = (
        "import sys, cardlab.cli.app, cardlab.cli.collection, cardlab.cli.play, cardlab.cli.db; "
        "print(sorted(m for m in ('sqlalchemy', 'alembic', 'psycopg') if m in sys.modules)); "
        "import cardlab.collection.db, cardlab.collection.owned, cardlab.play.store, cardlab.collection.copy; "
        "print(sorted(m for m in ('sqlalchemy', 'alembic', 'psycopg') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines() == ["[]", "['sqlalchemy']"], proc.stdout + proc.stderr


def test_db_copy_never_writes_into_a_foreign_source_or_target(runner, tmp_path):
    import sqlite3

    foreign = tmp_path / "notes.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = foreign.read_bytes()
    out = tmp_path / "out.sqlite"
    refused = runner.invoke(app, ["db", "copy", "--from", str(foreign), "--to", str(out)])
    assert refused.exit_code == 2
    assert "is not a cardlab collection database: it holds other tables (notes)" in refused.stderr
    assert foreign.read_bytes() == before and not out.exists()
    data = tmp_path / "data"
    assert runner.invoke(app, ["collection", "add", "base1-4", "-n", "2"], env={"CARDLAB_DATA": str(data)}).exit_code == 0
    into = runner.invoke(app, ["db", "copy", "--from", str(data), "--to", str(foreign)])
    assert into.exit_code == 2
    assert "holds tables that are not cardlab's (notes); nothing was copied" in into.stderr
    assert foreign.read_bytes() == before
