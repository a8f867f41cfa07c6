"""The search index on PostgreSQL (issue 15): cardlab index / search / show with a URL, freshness,
rebuilds swapped in without downtime, serialized builds, and one clear error per server problem."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cardlab.cli.whole import app
from cardlab.index import postgres
from cardlab.search import engine

REPO = Path(__file__).resolve().parents[3]
PG_PASSWORD_USER = "alice_pw"  # the roles tests/conftest.py's pg_server makes: one that must give a password,
PG_LIMITED_USER = "limited"  # and one that owns nothing


def _schemas(url: str) -> list[str]:
    import psycopg

    where = postgres.locate(url)
    with psycopg.connect(postgres._conninfo(where), autocommit=True) as con:
        rows = con.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'cardlab%' ORDER BY nspname").fetchall()
    return [r[0] for r in rows]


def _waiting_for_swap(url: str) -> bool:
    """True when a session waits for the swap lock (:data:`cardlab.index.postgres.SWAP_LOCK`)."""
    import psycopg

    with psycopg.connect(postgres._conninfo(postgres.locate(url)), autocommit=True) as con:
        row = con.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = %s AND objid = %s",
            postgres.SWAP_LOCK,
        ).fetchone()
    return row[0] > 0


def _ids(url: str, roots: list[Path], query: str) -> list[str]:
    con = postgres.open_fresh(roots, url)
    try:
        return [h.id for h in engine.search(con, query)]
    finally:
        con.close()


def test_index_search_show_through_the_cli(runner, test_set, pg_index_url):
    first = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", pg_index_url])
    assert first.exit_code == 0, first.output
    assert first.stdout.startswith("indexed 4 cards in 1 sets")
    assert "index: postgresql+psycopg://postgres@/cardlab_index_tests?host=" in first.stdout
    again = runner.invoke(app, ["index", "--catalog", str(test_set)], env={"CARDLAB_DB": pg_index_url})
    assert again.exit_code == 0, again.output
    assert again.stdout.startswith("index is up to date: postgresql+psycopg://")
    found = runner.invoke(app, ["search", "--catalog", str(test_set), "--db", pg_index_url, "-O", "ids", "testmon"])
    assert found.exit_code == 0, found.output
    assert found.stdout == "test1-1\ntest1-2\n"
    shown = runner.invoke(app, ["show", "--catalog", str(test_set), "-O", "json", "test1-1"], env={"CARDLAB_DB": pg_index_url})
    assert shown.exit_code == 0, shown.output
    assert '"name": {' in shown.stdout and '"Testmon"' in shown.stdout
    assert _schemas(pg_index_url) == ["cardlab_index"]


def test_no_index_yet_says_to_run_cardlab_index(runner, test_set, pg_index_url):
    result = runner.invoke(app, ["search", "--catalog", str(test_set), "--db", pg_index_url, "testmon"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: there is no search index on postgresql+psycopg://postgres@/cardlab_index_tests")
    assert "run 'cardlab index' with CARDLAB_DB=" in result.stderr
    assert "Traceback" not in result.output


def test_stale_index_is_refused_until_rebuilt(runner, test_set, pg_index_url):
    postgres.build([test_set], pg_index_url)
    card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon", "fr: Zorbmon", 1), encoding="utf-8")
    stale = runner.invoke(app, ["search", "--catalog", str(test_set), "--db", pg_index_url, "zorbmon"])
    assert stale.exit_code == 2
    assert "is out of date (the catalog changed since it was built); run 'cardlab index'" in stale.stderr
    rebuilt = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", pg_index_url])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert _ids(pg_index_url, [test_set], "zorbmon") == ["test1-1"]
    # a copy of the catalog elsewhere is another catalog: the message names the one indexed
    other = test_set.parent / "copy"
    shutil.copytree(test_set, other)
    elsewhere = runner.invoke(app, ["search", "--catalog", str(other), "--db", pg_index_url, "zorbmon"])
    assert elsewhere.exit_code == 2
    assert f"is out of date (it was built from another catalog: {test_set.resolve()}); run 'cardlab index'" in elsewhere.stderr


def test_a_failed_build_leaves_the_old_index_serving(test_set, pg_index_url, monkeypatch):
    postgres.build([test_set], pg_index_url)

    def broken(con, schema):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(postgres, "_swap", broken)
    with pytest.raises(RuntimeError, match="the disk is full"):
        postgres.build([test_set], pg_index_url, force=True)
    assert _schemas(pg_index_url) == ["cardlab_index"]  # the new schema was dropped
    assert _ids(pg_index_url, [test_set], "") == ["test1-1", "test1-2", "test1-3", "test1-4"]


def test_a_catalog_with_problems_is_not_indexed(runner, test_set, pg_index_url):
    (test_set / "pokemon" / "test1" / "9-broken.yaml").write_text("id: test1-9\nname: [oops\n", encoding="utf-8")
    result = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", pg_index_url])
    assert result.exit_code == 1
    assert "9-broken.yaml" in result.output
    assert _schemas(pg_index_url) == []


def test_builds_wait_for_each_other(test_set, pg_index_url):
    import psycopg

    holder = psycopg.connect(postgres._conninfo(postgres.locate(pg_index_url)), autocommit=True)
    holder.execute("SELECT pg_advisory_lock(%s, %s)", postgres.BUILD_LOCK)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(postgres.build([test_set], pg_index_url)))
    worker.start()
    time.sleep(1.5)
    assert worker.is_alive() and done == []
    assert _schemas(pg_index_url) == []
    holder.execute("SELECT pg_advisory_unlock(%s, %s)", postgres.BUILD_LOCK)
    worker.join(60)
    holder.close()
    assert done[0].cards == 4
    assert _schemas(pg_index_url) == ["cardlab_index"]


def test_leftover_schemas_of_killed_builds_are_dropped(test_set, pg_index_url):
    import psycopg

    with psycopg.connect(postgres._conninfo(postgres.locate(pg_index_url)), autocommit=True) as con:
        con.execute("CREATE SCHEMA cardlab_build_999999")
        con.execute("CREATE SCHEMA cardlab_old_999998")
    postgres.build([test_set], pg_index_url)
    assert _schemas(pg_index_url) == ["cardlab_index"]


def test_a_swap_whose_old_tables_a_reader_still_locks_succeeds_and_leaves_them_to_the_next_build(test_set, pg_index_url, monkeypatch):
    """The old schema's drop after a swap waits at most DROP_WAIT for a reader that still locks
    its tables (a reader planning again on them can deadlock with the drop: "deadlock detected",
    exit 1, though the new index was live); the build succeeds, the new index serves, and the next
    build drops the old schema."""
    import os

    import psycopg

    postgres.build([test_set], pg_index_url)
    monkeypatch.setattr(postgres, "DROP_WAIT", 0.2)
    with psycopg.connect(postgres._conninfo(postgres.locate(pg_index_url))) as reader:
        reader.execute(f"SELECT count(*) FROM {postgres.LIVE_SCHEMA}.card").fetchone()  # its lock held until it ends
        assert postgres.build([test_set], pg_index_url, force=True) is not None
        assert _schemas(pg_index_url) == ["cardlab_index", f"{postgres.OLD_PREFIX}{os.getpid()}"]
        reader.rollback()
    con = postgres.open_fresh([test_set], pg_index_url)
    try:
        assert [h.id for h in engine.search(con, "testemon")] == ["test1-1"]
    finally:
        con.close()
    postgres.build([test_set], pg_index_url, force=True)
    assert _schemas(pg_index_url) == ["cardlab_index"]


# --- errors --------------------------------------------------------------------------------------


def test_unreachable_server(runner, test_set, pg_server):
    url = f"postgresql+psycopg://postgres@/cardlab_tests?host={pg_server}&port=1"
    for command in (["index"], ["search", "x"]):
        result = runner.invoke(app, [*command, "--catalog", str(test_set), "--db", url])
        assert result.exit_code == 2
        assert result.stderr == (
            f"error: cannot reach the PostgreSQL server at {pg_server} ({url}); start the server, or fix the host and port in the URL\n"
        )


def test_wrong_credentials(runner, test_set, pg_server):
    url = f"postgresql+psycopg://{PG_PASSWORD_USER}:wrong@/postgres?host={pg_server}"
    result = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", url])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: the PostgreSQL server at {pg_server} refused the login of user '{PG_PASSWORD_USER}' (wrong user name or password);"
        " fix them in the URL (postgresql+psycopg://USER:PASSWORD@HOST/DATABASE) or in ~/.pgpass\n"
    )


def test_extension_the_user_may_not_create(runner, test_set, pg_index_url, pg_server):
    url = pg_index_url.replace("postgres@", f"{PG_LIMITED_USER}@")
    result = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", url])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: the search index needs the PostgreSQL extension pg_trgm, and this user may not create it in the database"
        " 'cardlab_index_tests'; ask the server's administrator to run: psql -d cardlab_index_tests -c 'CREATE EXTENSION pg_trgm'"
        " (once), then run 'cardlab index' again\n"
    )


def test_extension_missing_from_the_server(runner, test_set, pg_index_url, monkeypatch):
    monkeypatch.setattr(postgres, "REQUIRED_EXTENSIONS", ("cardlab_no_such_extension",))
    result = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", pg_index_url])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: the PostgreSQL server of postgresql+psycopg://postgres@/cardlab_index_tests"
    ) and result.stderr.endswith(
        "does not have the extension cardlab_no_such_extension, which the search index needs; install PostgreSQL's contrib"
        " modules on the server (Debian: apt-get install postgresql-contrib), then run 'cardlab index' again\n"
    )


def test_not_a_postgresql_url(runner, test_set):
    result = runner.invoke(app, ["search", "--catalog", str(test_set), "--db", "mysql://u@h/db", "x"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: the search index lives in a file or on a PostgreSQL server, not 'mysql'; give --db FILE or"
        " --db postgresql+psycopg://USER@HOST/DATABASE (or CARDLAB_DB)\n"
    )


# --- other commands with the index on a server ----------------------------------------------------


def test_web_app_searches_the_server(test_set, pg_index_url):
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    postgres.build([test_set], pg_index_url)
    client = TestClient(create_app([test_set], pg_index_url))
    body = client.get("/api/cards/search", params={"q": "testmon"}).json()
    assert body["total_cards"] == 2
    assert [c["id"] for c in body["data"]] == ["test1-1", "test1-2"]
    assert client.get("/api/cards/test1-1").json()["id"] == "test1-1"


def test_a_rebuild_elsewhere_changes_the_server_s_etags(test_set, pg_index_url, monkeypatch):
    """A search answer's ETag follows the index on the server: after a rebuild (by this process
    here; another's is seen by its notification, tested above), the old ETag no longer answers 304,
    and the new answer (the word now found) carries another."""
    from collections import OrderedDict

    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    postgres.build([test_set], pg_index_url)
    client = TestClient(create_app([test_set], pg_index_url))
    first = client.get("/api/cards/search", params={"q": "zorbmon"})
    assert first.json()["total_cards"] == 0
    old = first.headers["etag"]
    assert client.get("/api/cards/search", params={"q": "zorbmon"}, headers={"If-None-Match": old}).status_code == 304
    card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon", "fr: Zorbmon", 1), encoding="utf-8")
    assert postgres.build([test_set], pg_index_url) is not None
    again = client.get("/api/cards/search", params={"q": "zorbmon"}, headers={"If-None-Match": old})
    assert (again.status_code, again.json()["total_cards"]) == (200, 1)
    assert again.headers["etag"] != old


def test_deck_and_validate_commands_with_a_server_index(runner, pg_index_url, forum_roots):
    deck = Path(forum_roots) / "deck.txt"
    deck.write_text("4 ftcg-test-1\n", encoding="utf-8")
    env = {"CARDLAB_DB": pg_index_url, "CARDLAB_CATALOG": forum_roots}
    checked = runner.invoke(app, ["deck", "validate", str(deck), "--format", "forumtcg-list"], env=env)
    local = runner.invoke(app, ["deck", "validate", str(deck), "--format", "forumtcg-list"], env={"CARDLAB_CATALOG": forum_roots})
    assert (checked.exit_code, checked.stdout) == (local.exit_code, local.stdout)
    assert "Traceback" not in checked.output
    validated = runner.invoke(app, ["validate"], env=env)
    assert validated.exit_code == 0, validated.output


def test_collection_list_query_on_a_server_index(runner, forum_roots, pg_index_url):
    env = {"CARDLAB_DB": pg_index_url, "CARDLAB_CATALOG": forum_roots}
    assert runner.invoke(app, ["index"], env=env).exit_code == 0
    assert runner.invoke(app, ["collection", "add", "ftcg-test-1", "-n", "2"], env=env).exit_code == 0
    listed = runner.invoke(app, ["collection", "list", "value:1", "-O", "csv"], env=env)
    assert listed.exit_code == 0, listed.output
    assert listed.stdout.splitlines()[1].startswith("ftcg-test-1,2,")


# --- kill -9 during a rebuild --------------------------------------------------------------------


@pytest.mark.parametrize("delay", [0.2, 0.6, 1.0, 1.4, 1.8, 2.4])
def test_kill_during_rebuild_leaves_old_or_new_index(test_set, pg_index_url, delay, tmp_path):
    """``kill -9`` of ``cardlab index --force`` at some moment of its build or swap: the index
    serves the whole old catalog or the whole new one, and the next build succeeds."""
    postgres.build([test_set], pg_index_url)
    old = _ids(pg_index_url, [test_set], "testemon")
    assert old == ["test1-1"]
    copy = tmp_path / "new"
    shutil.copytree(test_set, copy)
    card = copy / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon", "fr: Zorbmon", 1), encoding="utf-8")
    env = {**os.environ, "CARDLAB_DB": pg_index_url, "CARDLAB_CATALOG": str(copy)}
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "index", "--force"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    # whichever index serves, it is a whole one: its own catalog's answers for every query
    con = postgres.connect(pg_index_url)
    try:
        names = engine.search(con, "")
        assert [h.id for h in names] == ["test1-1", "test1-2", "test1-3", "test1-4"]
        answer = [h.id for h in engine.search(con, "testemon")]
        assert answer in (old, [])
        assert [h.id for h in engine.search(con, "zorbmon")] == (["test1-1"] if answer == [] else [])
    finally:
        con.close()
    report = postgres.build([copy], pg_index_url, force=True)
    assert report is not None and report.cards == 4
    assert _schemas(pg_index_url) == ["cardlab_index"]
    assert _ids(pg_index_url, [copy], "zorbmon") == ["test1-1"]


def test_serve_refuses_a_server_without_the_index(runner, test_set, pg_index_url):
    result = runner.invoke(app, ["serve", "--catalog", str(test_set), "--db", pg_index_url, "--port", "1"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: there is no search index on postgresql+psycopg://postgres@/cardlab_index_tests")
    assert "serving" not in result.stderr


def test_cardlab_search_on_sqlite_imports_no_database_driver(tmp_path):
    """The PostgreSQL code loads only for a URL: a search on a fresh SQLite index imports neither psycopg nor SQLAlchemy."""
    code = (
        "import sys; from cardlab.cli.entry import main; sys.argv = ['cardlab', 'search', '-O', 'ids', 'set:test1'];\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print([m for m in ('psycopg', 'sqlalchemy', 'cardlab.index.postgres', 'cardlab.core.database') if m in sys.modules], file=sys.stderr)"
    )
    catalog = REPO / "tests" / "fixtures" / "catalog" / "pokemon"
    env = {**os.environ, "CARDLAB_CATALOG": str(catalog), "CARDLAB_DB": str(tmp_path / "i.sqlite"), "CARDLAB_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "cardlab", "index"], capture_output=True, env=env, check=True)  # a build uses SQLModel
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.splitlines()[0] == "test1-1"
    assert run.stderr.strip().splitlines()[-1] == "[]"


def test_cardlab_search_on_postgresql_imports_psycopg_without_sqlalchemy(test_set, pg_index_url, tmp_path):
    """A search on a server index reads its URL with the standard library (core.database.parse_url):
    psycopg is imported, SQLAlchemy (a second of a cold start) is not."""
    postgres.build([test_set], pg_index_url)
    code = (
        "import sys; from cardlab.cli.entry import main; sys.argv = ['cardlab', 'search', '-O', 'ids', 'testmon'];\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print([m for m in ('psycopg', 'sqlalchemy') if m in sys.modules], file=sys.stderr)"
    )
    env = {**os.environ, "CARDLAB_CATALOG": str(test_set), "CARDLAB_DB": pg_index_url, "CARDLAB_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=REPO)
    assert run.stdout.splitlines() == ["test1-1", "test1-2"]
    assert run.stderr.strip().splitlines()[-1] == "['psycopg']"


def test_a_swap_waits_for_the_search_in_progress(test_set, pg_index_url, tmp_path):
    """Within one search (its snapshot) every statement reads the same index: a rebuild's swap waits
    for it, and the next search reads the new index."""
    postgres.build([test_set], pg_index_url)
    copy = tmp_path / "new"
    shutil.copytree(test_set, copy)
    card = copy / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon", "fr: Zorbmon", 1), encoding="utf-8")
    con = postgres.connect(pg_index_url)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(postgres.build([copy], pg_index_url, force=True)))
    with con.snapshot():
        before = [h.id for h in engine.search(con, "testemon")]
        worker.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _waiting_for_swap(pg_index_url):
            time.sleep(0.05)
        assert _waiting_for_swap(pg_index_url)  # the build is copied, and its swap waits for this search
        during = [h.id for h in engine.search(con, "testemon")]
        assert worker.is_alive() and done == []
    worker.join(60)
    after = [h.id for h in engine.search(con, "zorbmon")]
    con.close()
    assert (before, during, after) == (["test1-1"], ["test1-1"], ["test1-1"])
    assert done[0].cards == 4
    assert _ids(pg_index_url, [copy], "testemon") == []


def test_an_index_path_given_as_text_is_still_a_file(test_set, tmp_path):
    import sqlite3

    from cardlab.index import sqlite

    db = tmp_path / "i.sqlite"
    sqlite.build_index([test_set], db)
    con = sqlite.connect(str(db))
    assert isinstance(con, sqlite3.Connection)
    assert con.execute("SELECT COUNT(*) FROM card").fetchone() == (4,)
    assert sqlite.ensure_index([test_set], str(db)) is None
    assert sqlite.stored_meta(str(db))["version"] == sqlite.INDEX_VERSION


def test_a_new_index_is_vacuumed_before_it_serves(catalog_copy, pg_index_url):
    """Every page of the facet tables is marked all-visible when the index is swapped in: index-only
    scans (every facet term) then never read the table."""
    import psycopg

    postgres.build([catalog_copy], pg_index_url)
    with psycopg.connect(postgres._conninfo(postgres.locate(pg_index_url)), autocommit=True) as con:
        rows = con.execute(
            "SELECT c.relname, c.relpages, c.relallvisible FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = %s AND c.relname IN ('facet_text', 'facet_num', 'card') ORDER BY c.relname",
            (postgres.LIVE_SCHEMA,),
        ).fetchall()
    assert [r[0] for r in rows] == ["card", "facet_num", "facet_text"]
    assert all(pages > 0 and visible == pages for _name, pages, visible in rows), rows


def test_a_whole_result_s_display_strings_are_read_in_the_search_on_postgresql(catalog_copy, pg_index_url):
    """Read later (as on SQLite), they could come from an index swapped in since."""
    postgres.build([catalog_copy], pg_index_url)
    con = postgres.connect(pg_index_url)
    try:
        hits = engine.search(con, "type:fire")
    finally:
        con.close()
    assert hits[0].display == ("Pokémon · Stage 2 · Fire", "120 HP · Power · 1 attack · retreat 3", "Rare Holo")
    assert [h.id for h in hits] == [f"base1-{n}" for n in (4, 12, 23, 24, 28, 36, 46, 60, 68, 98)]
    assert hits[-1].type_line == "Energy · basic · Fire"  # the connection is closed: nothing left to read


def _messages(con, action) -> list[str]:  # noqa: ANN001
    """The kinds of the messages ``action()`` sends to the server on ``con`` (a PgIndex), from
    libpq's protocol trace: ``Query`` (one text of statements), ``Parse``/``Bind`` (one statement
    with its values), ``Sync``."""
    import tempfile

    from psycopg.pq import Trace

    with tempfile.TemporaryFile("w+") as trace:
        con.con.pgconn.trace(trace.fileno())
        con.con.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
        try:
            action()
        finally:
            con.con.pgconn.untrace()
        trace.seek(0)
        return [line.split()[2] for line in trace if line.split()[:1] == ["F"]]


def test_a_one_statement_search_is_one_round_trip(test_set, pg_index_url):
    """BEGIN, the shared swap lock, the search and COMMIT travel in one message: no separate round
    trip for the transaction (four before)."""
    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    try:
        sent = _messages(con, lambda: engine.search_page(con, "testemon", limit=50))
        total, hits = engine.search_page(con, "testemon", limit=50)
        assert sent == ["Query"]
        assert (total, [h.id for h in hits]) == (1, ["test1-1"])
        # names in a chosen language are read in the same transaction: the names (with their ids as
        # values), the sets' source languages, then COMMIT
        sent = _messages(con, lambda: engine.search_page(con, "testemon", limit=50, langs=["fr"]))
        assert sent == ["Query", "Parse", "Bind", "Describe", "Execute", "Sync", "Query", "Query"]
        assert engine.search_page(con, "testemon", limit=50, langs=["fr"])[1][0].name == "Testemon"
        assert engine.search_page(con, "nothing-here-at-all", limit=50) == (0, [])
    finally:
        con.close()


def test_a_search_notices_new_stem_languages_after_a_rebuild(test_set, pg_index_url):
    """A connection remembers the index's stem languages; its next search checks them in the same
    round trip, and compiles the query again when a rebuild changed them."""
    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    try:
        assert engine.search(con, "münzen") == []
        assert con.stem_languages() == '["en", "fr"]'
        card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
        text = card.read_text(encoding="utf-8")
        card.write_text(
            text.replace(
                'text: {en: "Flip a coin; on tails, no damage."}', 'text: {en: "Flip a coin; on tails, no damage.", de: "Wirf eine Münze."}'
            ),
            encoding="utf-8",
        )
        assert postgres.build([test_set], pg_index_url) is not None
        assert [h.id for h in engine.search(con, "münzen")] == ["test1-1"]  # German stems: Münzen, Münze -> munz
        assert con.stem_languages() == '["de", "en", "fr"]'
    finally:
        con.close()


def test_a_bare_word_search_is_planned_once_and_follows_a_rebuild(test_set, pg_index_url):
    """One bare word: one prepared statement per connection, whatever the word, with one plan;
    after a rebuild's swap it reads the new index (PostgreSQL plans it again on the new tables)."""
    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)

    def prepared() -> list[str]:
        return [r[0] for r in con.con.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'cardlab_q%'").fetchall()]

    try:
        assert [h.id for h in engine.search_page(con, "testemon", limit=50)[1]] == ["test1-1"]
        assert [h.id for h in engine.search_page(con, "gadget", limit=50)[1]] == ["test1-4"]
        # a facet: planned with its values, not prepared
        assert [h.id for h in engine.search_page(con, "type:fire", limit=50)[1]] == ["test1-1", "test1-2", "test1-3"]
        assert prepared() == ["cardlab_q1"]
        card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
        card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon", "fr: Zorbmon", 1), encoding="utf-8")
        assert postgres.build([test_set], pg_index_url) is not None
        assert engine.search_page(con, "testemon", limit=50) == (0, [])
        assert [h.id for h in engine.search_page(con, "zorbmon", limit=50)[1]] == ["test1-1"]
        assert prepared() == ["cardlab_q1"]
    finally:
        con.close()


def test_find_page_of_a_bare_word_reuses_its_plans_and_commits_with_its_last_statement(test_set, pg_index_url, monkeypatch):
    """find_page of one bare word: its statements are prepared once per connection and run again
    for every other word with the one plan (each word counted in pg_prepared_statements' generic
    plans). The first view of the first word on an index, whose word_stat the process does not
    hold yet, is one message (BEGIN, the words counted, the page and its total read when the count
    is within the bound, word_stat's rows, COMMIT); the first view of any other word is one message
    too (BEGIN, its page and total gathered once, COMMIT), and so is a page whose total is known.
    A word past the bound reads its page after its count (two messages) while word_stat cannot
    tell (kept for another bound), in one message once it can."""
    from collections import OrderedDict
    from unittest import mock

    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    monkeypatch.setattr(engine, "_WORD_STATS", OrderedDict())
    try:
        pages = {word: engine.find_page(con, word) for word in ("testemon", "gadget", "qqqqzz")}
        assert {w: ([h.id for h in p.hits], p.total) for w, p in pages.items()} == {
            "testemon": (["test1-1"], 1),
            "gadget": (["test1-4"], 1),
            "qqqqzz": ([], 0),
        }
        plans = con.con.execute(
            "SELECT substring(statement FROM 'PREPARE ' || name || ' AS (\\S+ \\S+)'), generic_plans, custom_plans"
            " FROM pg_prepared_statements WHERE name LIKE 'cardlab_q%'"
        ).fetchall()
        # the first word: SELECT n, last (its words, counted or read from word_stat), SELECT * twice
        # (the page and the total, each behind the count's gate), SELECT col, lexeme (word_stat's
        # rows); the next two: WITH m (the page and its total from the matches gathered once)
        assert sorted(plans) == [("SELECT *", 1, 0), ("SELECT *", 1, 0), ("SELECT col,", 1, 0), ("SELECT n,", 1, 0), ("WITH m", 2, 0)]
        engine._TOTALS.clear()
        assert _messages(con, lambda: engine.find_page(con, "gadget")) == ["Query"]  # the first view
        assert _messages(con, lambda: engine.find_page(con, "gadget")) == ["Query"]  # its total known
        assert [h.id for h in engine.find_page(con, "gadget").hits] == ["test1-4"]
        monkeypatch.setattr(engine, "TOTAL_BOUND", 0)  # every word past the bound
        for _ in range(2):  # word_stat was kept for 1,000: its page is read after its count
            engine._TOTALS.clear()
            assert _messages(con, lambda: engine.find_page(con, "gadget")) == ["Query", "Query"]
        page = engine.find_page(con, "gadget")
        assert ([h.id for h in page.hits], page.total, page.total_is_exact) == (["test1-4"], 1, True)
        with mock.patch.object(postgres, "WORD_STAT_BOUND", 0):
            postgres.build([test_set], pg_index_url, force=True)
        engine._TOTALS.clear()  # the same fingerprint: word_stat kept for 0 now, read with the first view
        assert _messages(con, lambda: engine.find_page(con, "gadget")) == ["Query", "Query"]
        engine._TOTALS.clear()
        assert _messages(con, lambda: engine.find_page(con, "gadget")) == ["Query"]  # known past the bound
        assert engine._TOTALS.popitem()[1] == (1, True)  # its whole result was on the page
        page = engine.find_page(con, "gadget")
        assert ([h.id for h in page.hits], page.total, page.total_is_exact) == (["test1-4"], 1, True)
    finally:
        con.close()


def test_a_message_never_drops_a_prepared_statement_it_runs(test_set, pg_index_url, monkeypatch):
    """With few prepared statements kept per connection, first views in other orders (each runs
    several statements, prepared in one message) never drop one that their own message runs (the
    least recently used goes: "prepared statement does not exist" before), and each page is the
    start of the whole ordered result."""
    from collections import OrderedDict

    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    monkeypatch.setattr(engine, "_WORD_STATS", OrderedDict())
    monkeypatch.setattr(postgres, "PREPARED", 4)
    try:
        asked = [("energy", "rarity", False), ("fire", "set", True), ("fire", "rarity", True), ("fire", "rarity", False)]
        asked += [("zzzz", "rarity", False), ("testemon", "number", False), ("gadget", "hp", True), ("energy", "number", True)]
        for query, sort, reverse in asked:
            page = engine.find_page(con, query, page_size=2, sort=sort, reverse=reverse)
            whole = [h.id for h in engine.search(con, query, sort=sort, reverse=reverse)]
            assert ([h.id for h in page.hits], page.total) == (whole[:2], len(whole)), (query, sort, reverse)
        kept = con.con.execute("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'cardlab_q%'").fetchone()[0]
        assert kept == 4
    finally:
        con.close()


def test_a_word_known_to_match_nothing_is_answered_without_a_round_trip_until_a_swap(test_set, pg_index_url, monkeypatch):
    """find_page of a query whose total is known to be 0 for the index the session last read sends
    nothing; a swap by this process, or one announced on the swap channel by another, makes the
    next search read the index again (a word added by the rebuild is then found)."""
    import time
    from collections import OrderedDict

    import psycopg

    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    try:
        assert engine.find_page(con, "zorbmon").total == 0
        assert _messages(con, lambda: engine.find_page(con, "zorbmon")) == []
        assert _messages(con, lambda: engine.find_page(con, "zorbmon", page=3)) == []
        assert _messages(con, lambda: engine.find_page(con, "testemon")) == ["Query"]  # a word with cards is read
        card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
        card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon", "fr: Zorbmon", 1), encoding="utf-8")
        assert postgres.build([test_set], pg_index_url) is not None  # this process swaps
        page = engine.find_page(con, "zorbmon")
        assert ([h.id for h in page.hits], page.total) == (["test1-1"], 1)
        # another process's swap: known by its notification, read without waiting
        assert engine.find_page(con, "qqqqzz").total == 0
        assert _messages(con, lambda: engine.find_page(con, "qqqqzz")) == []
        with psycopg.connect(postgres._conninfo(postgres.locate(pg_index_url)), autocommit=True) as other:
            other.execute(f"NOTIFY {postgres.SWAP_CHANNEL}")
        deadline = time.monotonic() + 5
        while con.unchanged() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert con.unchanged() is False
        assert _messages(con, lambda: engine.find_page(con, "qqqqzz")) == ["Query"]
        assert _messages(con, lambda: engine.find_page(con, "qqqqzz")) == []  # read again: known anew
        # the session ended (a restart, a terminated backend): its FATAL notice, read while idle, is enough
        _kill_session(pg_index_url, con)
        deadline = time.monotonic() + 5
        while con.unchanged() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert con.unchanged() is False
        assert engine.find_page(con, "zorbmon").total == 1  # on a new session
        assert con.unchanged() is True
        # what no notification says: a last read older than TRUSTED_SECONDS answers for nothing
        monkeypatch.setattr(postgres, "TRUSTED_SECONDS", 0.0)
        assert _messages(con, lambda: engine.find_page(con, "qqqqzz")) == ["Query"]
    finally:
        con.close()


def test_searches_on_a_database_without_standard_conforming_strings(test_set, pg_index_url):
    """A database set to standard_conforming_strings = off: cardlab's sessions turn it on (its SQL
    writes ESCAPE '\\'), so name and artist searches still run, as on any other server."""
    import psycopg

    postgres.build([test_set], pg_index_url)
    with psycopg.connect(postgres._conninfo(postgres.locate(pg_index_url)), autocommit=True) as admin:
        name = admin.execute("SELECT current_database()").fetchone()[0]
        admin.execute(f'ALTER DATABASE "{name}" SET standard_conforming_strings = off')
        try:
            con = postgres.open_fresh([test_set], pg_index_url)
            try:
                assert con.con.info.parameter_status("standard_conforming_strings") == "on"
                assert [h.id for h in engine.search(con, "name:testem")] == ["test1-1"]
                assert sorted(h.id for h in engine.search(con, "illustrator:body")) == [
                    "test1-1",
                    "test1-2",
                    "test1-4",
                ]  # illustrator LIKE ... ESCAPE
            finally:
                con.close()
        finally:
            admin.execute(f'ALTER DATABASE "{name}" RESET standard_conforming_strings')


def test_common_lexemes_are_counted_at_build_and_a_first_page_reads_them(catalog_copy, pg_index_url, monkeypatch, tmp_path):
    """word_stat holds each lexeme of card_fts.names and .body and card_stem.stems in more than WORD_STAT_BOUND cards,
    with its count and the row id of its bound + 1-th card, as the stored tsvectors have them; the
    word count of a first page then reads it and never runs the count from the GIN index (its
    scan never executed), and the pages and totals are SQLite's."""
    import json
    from collections import OrderedDict

    from cardlab.index.sqlite import build_index, connect
    from cardlab.search import compile as compiler
    from cardlab.search.query.parse import parse

    monkeypatch.setattr(postgres, "WORD_STAT_BOUND", 3)
    postgres.build([catalog_copy], pg_index_url)
    con = postgres.open_fresh([catalog_copy], pg_index_url)
    lite = connect(build_index([catalog_copy], tmp_path / "index.sqlite").db)
    try:
        stat = con.con.execute(
            "SELECT col, lexeme, docs, reach FROM word_stat WHERE bound = 3 AND col NOT IN (%s, '') ORDER BY 1, 2", [postgres.WORD_UNION]
        ).fetchall()
        by_hand = con.con.execute(
            "SELECT col, lexeme, count(*), (array_agg(rowid ORDER BY rowid))[4] FROM ("
            " SELECT 'names' AS col, f.rowid, u.lexeme FROM card_fts f, unnest(f.names) u"
            " UNION ALL SELECT 'body', f.rowid, u.lexeme FROM card_fts f, unnest(f.body) u"
            " UNION ALL SELECT 'stems', s.rowid, u.lexeme FROM card_stem s, unnest(s.stems) u"
            ") AS x GROUP BY col, lexeme HAVING count(*) > 3 ORDER BY 1, 2"
        ).fetchall()
        assert stat == by_hand
        assert {("body", "energy"), ("stems", "en_energi")} <= {(c, w) for c, w, _n, _r in stat}
        # a bare word's whole arm: the cards with a name lexeme it begins or with it in their text
        cards: dict[str, list[int]] = {}
        for rowid, names, body in con.con.execute(
            "SELECT rowid, tsvector_to_array(names), tsvector_to_array(body) FROM card_fts ORDER BY rowid"
        ).fetchall():
            for word in {lexeme[:k] for lexeme in names for k in range(1, len(lexeme) + 1)} | set(body):
                cards.setdefault(word, []).append(rowid)
        union = con.con.execute(
            "SELECT lexeme, docs, reach FROM word_stat WHERE bound = 3 AND col = %s ORDER BY 1", [postgres.WORD_UNION]
        ).fetchall()
        assert union == sorted((w, len(r), r[3]) for w, r in cards.items() if len(r) > 3)
        assert ("energy", len(cards["energy"]), cards["energy"][3]) in union
        sql, params = compiler.word_count_statement(parse("energy"), ("en", "fr"), "postgresql", 3)
        assert params[:2] == [postgres.WORD_UNION, "energy"]  # the bare word's row
        plan = con.con.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + postgres._pg_sql(sql), params).fetchone()[0]
        text = json.dumps(plan)
        assert '"Relation Name": "word_stat"' in text
        matching = [
            n for n in _plan_nodes(plan[0]["Plan"]) if "@@" in n.get("Recheck Cond", "") + n.get("Filter", "") + n.get("Index Cond", "")
        ]
        assert matching and {n["Actual Loops"] for n in matching} == {0}  # the word's matches: never read
        # a bare word with no row is within the bound (word_stat was built for it): 0, not counted
        marker = "SELECT docs, reach FROM word_stat WHERE bound = 3 AND col = '' AND lexeme = ''"
        assert con.con.execute(marker).fetchall() == [(postgres.ROWS_RUN, 0)]
        sql, params = compiler.word_count_statement(parse("zzzz"), ("en", "fr"), "postgresql", 3)
        assert con.con.execute(postgres._pg_sql(sql), params).fetchone()[:2] == (0, None)
        plan = con.con.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + postgres._pg_sql(sql), params).fetchone()[0]
        assert {n["Actual Loops"] for n in _plan_nodes(plan[0]["Plan"]) if "@@" in _conds(n)} == {0}
        sql, params = compiler.word_count_statement(parse("zzzz"), ("en", "fr"), "postgresql", 2)  # built for another bound: counted
        assert con.con.execute(postgres._pg_sql(sql), params).fetchone()[:2] == (0, None)
        plan = con.con.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + postgres._pg_sql(sql), params).fetchone()[0]
        assert 1 in {n["Actual Loops"] for n in _plan_nodes(plan[0]["Plan"]) if "@@" in _conds(n)}
        monkeypatch.setattr(engine, "TOTAL_BOUND", 3)
        for word in ("energy", "damage", "coin", "charizard", "zzzz"):
            monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
            pages = [engine.find_page(c, word, page_size=5) for c in (con, lite)]
            assert [[h.id for h in p.hits] for p in pages] == [[h.id for h in pages[1].hits]] * 2
            assert {(p.total, p.total_is_exact) for p in pages} == {(pages[1].total, pages[1].total_is_exact)}
    finally:
        con.close()
        lite.close()


def test_word_rows_hold_each_common_word_s_cards_in_runs_of_row_ids(catalog_copy, pg_index_url, monkeypatch):
    """word_rows holds, for each bare word and each stem of word_stat, every card it matches by
    row id, in runs of ROWS_RUN ascending (the run's last row id beside it), as the stored
    tsvectors have them; nothing for a word within the bound."""
    monkeypatch.setattr(postgres, "WORD_STAT_BOUND", 3)
    monkeypatch.setattr(postgres, "ROWS_RUN", 4)
    postgres.build([catalog_copy], pg_index_url)
    con = postgres.open_fresh([catalog_copy], pg_index_url)
    try:
        runs: dict[tuple[str, str], list[list[int]]] = {}
        for col, lexeme, last, rowids in con.con.execute(
            "SELECT col, lexeme, last, rowids FROM word_rows WHERE bound = 3 ORDER BY col, lexeme, last"
        ).fetchall():
            assert last == rowids[-1] and rowids == sorted(set(rowids))
            runs.setdefault((col, lexeme), []).append(rowids)
        assert {len(r) for parts in runs.values() for r in parts[:-1]} == {4}
        stats = {
            (col, lexeme): docs
            for col, lexeme, docs in con.con.execute(
                "SELECT col, lexeme, docs FROM word_stat WHERE bound = 3 AND col IN (%s, 'stems')", [postgres.WORD_UNION]
            )
        }
        assert set(runs) == set(stats)
        cards: dict[tuple[str, str], list[int]] = {}
        for rowid, names, body, stems in con.con.execute(
            "SELECT f.rowid, tsvector_to_array(names), tsvector_to_array(body), tsvector_to_array(stems)"
            " FROM card_fts f JOIN card_stem s ON s.rowid = f.rowid ORDER BY f.rowid"
        ).fetchall():
            words = {lexeme[:k] for lexeme in names for k in range(1, len(lexeme) + 1)} | set(body)
            for key in [(postgres.WORD_UNION, w) for w in words] + [("stems", w) for w in stems]:
                cards.setdefault(key, []).append(rowid)
        assert {key: [r for part in parts for r in part] for key, parts in runs.items()} == {key: cards[key] for key in stats}
        assert all(len(cards[key]) == docs for key, docs in stats.items())
        assert (postgres.WORD_UNION, "energy") in runs and ("stems", "en_energi") in runs
    finally:
        con.close()


def test_the_postgresql_layout_is_pinned_to_the_index_version():
    """The PostgreSQL index's tables, indexes and server-side statistics are those of this index
    version: a change to them without a new INDEX_VERSION (which the fingerprint holds) would let
    an index of the old layout pass as fresh (an index without word_rows failed every common
    word's page, "relation word_rows does not exist"). Change both together."""
    import hashlib
    import json

    from cardlab.index import sqlite

    layout = json.dumps([postgres.TABLES, postgres.INDEXES, postgres.WORD_UNION_SQL, postgres.ROWS_RUN], sort_keys=True)
    assert (sqlite.INDEX_VERSION, hashlib.sha256(layout.encode()).hexdigest()[:16]) == ("23", "537f69fc8c5a2958")


def test_word_stat_is_kept_at_the_bound_of_the_engine_s_totals():
    """word_stat's lexemes pass the bound a page's total is counted to (else every search counts)."""
    from cardlab.search.paging import TOTAL_BOUND

    assert postgres.WORD_STAT_BOUND == TOTAL_BOUND == 1000


def _conds(node: dict) -> str:
    """The conditions an EXPLAIN (FORMAT JSON) plan node tests, as one text."""
    return node.get("Recheck Cond", "") + node.get("Filter", "") + node.get("Index Cond", "")


def _plan_nodes(node: dict) -> list[dict]:
    """``node`` of an EXPLAIN (FORMAT JSON) plan and every node under it."""
    return [node, *(n for child in node.get("Plans", []) for n in _plan_nodes(child))]


def test_statements_sent_together_are_read_without_a_cursor_and_fail_as_one_did(test_set, pg_index_url):
    """fetch_many reads each statement's rows from libpq's results (PgIndex._results): rows as
    tuples, a command as no row; a statement the server refuses raises as a cursor did (its
    first line), and the session serves the next call."""
    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    try:
        with engine.snapshot(con):
            assert con.fetch_many([("SELECT 1, 'a'", [], False), ("SELECT id FROM card WHERE id = ?", ["test1-1"], False)], last=True) == [
                [(1, "a")],
                [("test1-1",)],
            ]
        with pytest.raises(ValueError, match="^division by zero$"), engine.snapshot(con):
            con.fetch_many([("SELECT 1", [], False), ("SELECT 1 / 0", [], False)])
        assert [h.id for h in engine.find_page(con, "testemon").hits] == ["test1-1"]
    finally:
        con.close()


def _kill_session(url: str, con) -> None:  # noqa: ANN001
    """End ``con``'s server session from another one, as a server restart does."""
    import psycopg

    pid = con.con.info.backend_pid
    with psycopg.connect(postgres._conninfo(postgres.locate(url)), autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)


def test_a_connection_whose_session_ended_opens_a_new_one(test_set, pg_index_url):
    """The server restarted (or the session was ended) between two searches: the next search runs
    on a new session; one that loses its session after reading part of its answer fails with one
    clear error (exit 2), and the one after it works."""
    from cardlab.core.database import DatabaseUnavailableError

    postgres.build([test_set], pg_index_url)
    con = postgres.open_fresh([test_set], pg_index_url)
    try:
        assert [h.id for h in engine.search_page(con, "testemon", limit=50)[1]] == ["test1-1"]
        first = con.con.info.backend_pid
        _kill_session(pg_index_url, con)
        assert [h.id for h in engine.search_page(con, "testemon", limit=50)[1]] == ["test1-1"]
        assert con.con.info.backend_pid != first
        assert [h.id for h in engine.search_page(con, "type:fire", limit=50)[1]] == ["test1-1", "test1-2", "test1-3"]
        with pytest.raises(DatabaseUnavailableError) as err, con.snapshot():
            engine.search(con, "testemon")  # the snapshot's transaction is open: the session holds it
            _kill_session(pg_index_url, con)
            engine.search(con, "gadget")
        assert err.value.exit_code == 2
        assert [h.id for h in engine.search_page(con, "gadget", limit=50)[1]] == ["test1-4"]
    finally:
        con.close()


def _kill_other_sessions(url: str) -> int:
    """End every other session on the index's database (the web workers'), as a server restart
    does; return how many."""
    import psycopg

    with psycopg.connect(postgres._conninfo(postgres.locate(url)), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return sum(1 for (ok,) in rows if ok)


def test_the_web_api_serves_again_after_the_index_server_restarts(test_set, pg_index_url, monkeypatch, caplog):
    """A worker whose session ended (the server restarted) answers the next request on a new one;
    a request that cannot be answered is a 503 ``index_unavailable`` in generic words (the URL and
    socket go to the server log only), never a bare 500."""
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app
    from cardlab.web.errors import INDEX_UNAVAILABLE

    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(test_set.parent / "cache"))
    postgres.build([test_set], pg_index_url)
    app = create_app([test_set], pg_index_url)
    with TestClient(app) as client:
        first = client.get("/api/cards/search", params={"q": "testemon"})
        assert first.status_code == 200 and [c["id"] for c in first.json()["data"]] == ["test1-1"]
        assert _kill_other_sessions(pg_index_url) >= 1
        again = client.get("/api/cards/search", params={"q": "testemon"})
        assert again.status_code == 200 and [c["id"] for c in again.json()["data"]] == ["test1-1"]

        def gone(*_args, **_kwargs):
            import psycopg

            raise psycopg.OperationalError("server closed the connection unexpectedly")

        monkeypatch.setattr(postgres, "server_connection", gone)
        assert _kill_other_sessions(pg_index_url) >= 1
        down = client.get("/api/cards/search", params={"q": "testemon"})
        assert down.status_code == 503
        assert down.json() == {"object": "error", "status": 503, "code": "index_unavailable", "details": INDEX_UNAVAILABLE}
        assert "host=" not in down.text
        assert "lost the connection to the PostgreSQL server" in caplog.text


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ("&sslmode=bogus", 'invalid sslmode value: "bogus"'),
        ("&port=99999", 'invalid port number: "99999"'),
    ],
)
def test_a_url_the_driver_refuses_is_a_usage_error(runner, test_set, pg_index_url, extra, said):
    result = runner.invoke(app, ["search", "--catalog", str(test_set), "--db", pg_index_url + extra, "x"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot connect with postgresql+psycopg://postgres@/cardlab_index_tests?host=")
    assert said in result.stderr
    assert result.stderr.endswith("; fix the URL (postgresql+psycopg://USER@HOST/DATABASE)\n")


def test_a_nul_in_the_url_is_shown_escaped(runner, test_set, pg_index_url):
    url = pg_index_url.replace("/cardlab_index_tests?", "/card%00lab?")
    result = runner.invoke(app, ["search", "--catalog", str(test_set), "--db", url, "x"])
    assert result.exit_code == 2
    assert "\x00" not in result.stderr
    assert "card\\x00lab" in result.stderr
    assert "Traceback" not in result.output
