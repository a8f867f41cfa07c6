"""Shared test fixtures: a private cache and index per session, the CLI runner, fixture paths, a
throwaway PostgreSQL server per session and the collections backends (SQLite, PostgreSQL)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path_factory, tmp_path):
    """Keep tests away from the user's cache, index, catalog, collections and language settings
    (each test gets its own empty collections folder, ``CARDLAB_DATA``)."""
    cache = tmp_path_factory.getbasetemp() / "cardlab-cache"
    cache.mkdir(exist_ok=True)
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(cache))
    monkeypatch.setenv("CARDLAB_DATA", str(tmp_path / "cardlab-data"))
    for var in (
        "CARDLAB_DB",
        "CARDLAB_CATALOG",
        "CARDLAB_LANG",
        "CARDLAB_CONFIG",
        "NO_COLOR",
        "CARDLAB_PLAYER",
        "CARDLAB_SERVE_WRITES",
        "CARDLAB_SERVE_TOKEN",
    ):
        monkeypatch.delenv(var, raising=False)
    # the interface speaks English unless a test asks otherwise (a French locale would translate it)
    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    from cardlab.core import l10n

    l10n.use("en")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "no-user-config"))
    monkeypatch.setenv("COLUMNS", "200")
    # Test files are copied just before they are read: do not treat them as "racy" (changed within
    # the file system's time tick, so re-read every time); tests of that rule set it back.
    from cardlab.core import stamps

    monkeypatch.setattr(stamps, "RACY_NS", 0)


@pytest.fixture
def runner() -> CliRunner:
    """typer's CliRunner (stderr captured apart from stdout)."""
    return CliRunner()


@pytest.fixture
def fixtures() -> Path:
    """The tests/fixtures folder."""
    return FIXTURES


@pytest.fixture
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture
def forum_catalog() -> Path:
    """The catalog root of the fictional forum TCG test set (tests/fixtures/forumtcg: set
    ``ftcg-test``, 25 Commons of Values 1-5, five of each)."""
    return FIXTURES / "forumtcg"


@pytest.fixture(scope="session")
def forum_roots(tmp_path_factory) -> str:
    """A catalog root (as ``CARDLAB_CATALOG``) with the forum test set and the shipped
    ``forumtcg-list`` format (copied once per session: no Pokémon cards to validate on every command)."""
    root = tmp_path_factory.mktemp("forum-catalog")
    shutil.copytree(FIXTURES / "forumtcg" / "forumtcg" / "ftcg-test", root / "forumtcg" / "ftcg-test")
    (root / "forumtcg" / "formats").mkdir()
    shutil.copy(REPO / "cards" / "forumtcg" / "formats" / "forumtcg-list.yaml", root / "forumtcg" / "formats")
    return str(root)


@pytest.fixture
def catalog_copy(tmp_path) -> Path:
    """A private copy of the shipped Base Set and the Pokémon formats, as a catalog root ``<tmp>/catalog``."""
    root = tmp_path / "catalog"
    shutil.copytree(REPO / "cards" / "pokemon" / "base1", root / "pokemon" / "base1")
    shutil.copytree(REPO / "cards" / "pokemon" / "formats", root / "pokemon" / "formats")
    return root


@pytest.fixture
def test_set(tmp_path) -> Path:
    """A private copy of the fictional Pokémon test set (tests/fixtures/catalog/pokemon/test1),
    as a catalog root ``<tmp>/catalog`` holding ``pokemon/test1``."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "catalog" / "pokemon" / "test1", root / "pokemon" / "test1")
    return root


@pytest.fixture(scope="session")
def pokemon_formats() -> list[str]:
    """The shipped Pokémon formats, by name (the order every legality table lists them in)."""
    return [
        "pokemon-base",
        "pokemon-base-fossil",
        "pokemon-base-gym",
        "pokemon-base-jungle",
        "pokemon-base-rocket",
        "pokemon-prop-15-3",
        "pokemon-unlimited",
    ]


# --- PostgreSQL ------------------------------------------------------------------------------------

PG_PASSWORD_USER = ("alice_pw", "s3cret")
"""A role that must give its password (scram-sha-256), for the wrong-credentials tests."""

PG_LIMITED_USER = "limited"
"""A role that may log in (no password) but owns nothing, for the missing-rights tests."""


def _pg_bin() -> str | None:
    """The PostgreSQL server binaries' folder: ``$PG_BIN``, else the newest /usr/lib/postgresql/*/bin."""
    for folder in [os.environ.get("PG_BIN"), *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]:
        if folder and os.path.exists(os.path.join(folder, "initdb")):
            return folder
    return None


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the session: initdb in a temp folder (as the ``postgres``
    user when run as root), Unix socket only, fsync off; stopped and removed at the end.

    Yields the socket folder (the URL's ``host=``). Skips where no PostgreSQL binaries exist.
    """
    pgbin = _pg_bin()
    if pgbin is None:
        pytest.skip("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin or $PG_BIN): apt-get install postgresql-15")
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    tmp = tempfile.mkdtemp(prefix="cardlab-pg.")
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres", "postgres")
    data = os.path.join(tmp, "data")

    def run(*cmd: str) -> None:
        subprocess.run([*as_pg, *cmd], check=True, capture_output=True, cwd="/", timeout=60)

    run(f"{pgbin}/initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
    hba = Path(data) / "pg_hba.conf"
    hba.write_text(f"local all {PG_PASSWORD_USER[0]} scram-sha-256\nlocal all all trust\n")
    opts = f"-c listen_addresses='' -k {tmp} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    run(f"{pgbin}/pg_ctl", "-D", data, "-l", os.path.join(tmp, "server.log"), "-w", "-t", "30", "-o", opts, "start")
    try:
        import psycopg

        with psycopg.connect(host=tmp, user="postgres", dbname="postgres", autocommit=True) as admin:
            admin.execute(f"CREATE ROLE {PG_PASSWORD_USER[0]} LOGIN PASSWORD '{PG_PASSWORD_USER[1]}'")
            admin.execute(f"CREATE ROLE {PG_LIMITED_USER} LOGIN")
        yield tmp
    finally:
        run(f"{pgbin}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server) -> str:
    """The URL of an empty PostgreSQL database on the session's server: one database for the
    session, its ``public`` schema dropped and made again for each test (1 ms; a new database
    per test would cost 0.3 s)."""
    import psycopg

    with psycopg.connect(host=pg_server, user="postgres", dbname="postgres", autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = 'cardlab_tests'").fetchone() is None:
            admin.execute("CREATE DATABASE cardlab_tests")
    with psycopg.connect(host=pg_server, user="postgres", dbname="cardlab_tests", autocommit=True) as admin:
        admin.execute("DROP SCHEMA public CASCADE")
        admin.execute("CREATE SCHEMA public")
    return f"postgresql+psycopg://postgres@/cardlab_tests?host={pg_server}"


def pg_database(server: str, name: str) -> str:
    """Make the database ``name`` on the session's server anew (empty) and return its URL."""
    import psycopg

    with psycopg.connect(host=server, user="postgres", dbname="postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    return f"postgresql+psycopg://postgres@/{name}?host={server}"


@pytest.fixture(scope="session")
def pg_new_database(pg_server):
    """``pg_new_database(name)`` -> the URL of the database ``name`` on the session's server, made anew (empty)."""
    return lambda name: pg_database(pg_server, name)


@pytest.fixture
def pg_index_url(pg_server) -> str:
    """The URL of a new empty database for a PostgreSQL search index (the index lives in schemas of
    its own, which :func:`pg_url`'s reset of ``public`` would not remove)."""
    return pg_database(pg_server, "cardlab_index_tests")


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, monkeypatch) -> str:
    """Run the test on each collections backend: ``sqlite`` (the data folder's file, as set by
    ``_isolated_env``) and ``postgresql`` (``CARDLAB_DATA`` = a fresh database's URL). Returns the name."""
    if request.param == "postgresql":
        monkeypatch.setenv("CARDLAB_DATA", request.getfixturevalue("pg_url"))
    return request.param
