"""Web fixtures: one app over the shipped catalog per session (TestClient), and a live uvicorn server
on a free 127.0.0.1 port for the browser tests, with Playwright pointed at Debian's Chromium."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"


@pytest.fixture(scope="session")
def web_app(tmp_path_factory):
    """The ASGI app of ``cardlab serve`` over the shipped Base Set and the Pokémon formats (the
    figures the tests state are the Base Set's), with a private cache and index."""
    import shutil

    from cardlab.core.paths import shipped_catalog
    from cardlab.web.app import create_app

    base = tmp_path_factory.getbasetemp()
    mp = pytest.MonkeyPatch()
    mp.setenv("CARDLAB_CACHE_DIR", str(base / "cardlab-cache"))
    (base / "cardlab-cache").mkdir(exist_ok=True)
    root = base / "web-catalog"
    for part in ("base1", "formats"):
        shutil.copytree(shipped_catalog() / "pokemon" / part, root / "pokemon" / part, dirs_exist_ok=True)
    for game in ("ippo", "monpa"):
        shutil.copytree(shipped_catalog() / game, root / game, dirs_exist_ok=True)
    app = create_app([root], base / "web-index.sqlite")
    yield app
    mp.undo()


@pytest.fixture(scope="session")
def client(web_app):
    """A FastAPI TestClient on :func:`web_app` (base URL http://testserver)."""
    from fastapi.testclient import TestClient

    with TestClient(web_app) as c:
        yield c


@pytest.fixture(autouse=True)
def _no_language_cookie(request):
    """A page asked for with ``?lang=`` keeps the language in a cookie (cardlab.web.language): the
    session's client forgets it after each test, so no test speaks another's language."""
    yield
    if "client" in request.fixturenames:
        request.getfixturevalue("client").cookies.clear()


@pytest.fixture(scope="session")
def zap_text() -> str:
    """The Zap! theme deck (legal in pokemon-base) as text."""
    return ZAP.read_text(encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(app):  # noqa: ANN001, ANN201 - an ASGI app; yields the base URL
    """uvicorn serving ``app`` on a free 127.0.0.1 port in a thread, stopped on exit; yields the
    base URL (``http://127.0.0.1:PORT``)."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def live_server(web_app):
    """uvicorn serving :func:`web_app` on a free 127.0.0.1 port in a thread; yields the base URL."""
    with serving(web_app) as url:
        yield url


@pytest.fixture(scope="session")
def serve_app():
    """:func:`serving` for a test module's own app (``with serve_app(app) as url: ...``)."""
    return serving


def chromium_path() -> str | None:
    """The system Chromium (``CHROMIUM`` overrides), or None."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright launches Debian's Chromium (never a downloaded browser). Without one the
    browser tests fail (CI installs it, see .ci/run) unless CARDLAB_NO_BROWSER=1 skips them."""
    exe = chromium_path()
    if not exe:
        if os.environ.get("CARDLAB_NO_BROWSER") == "1":
            pytest.skip("no system chromium and CARDLAB_NO_BROWSER=1")
        pytest.fail("no system chromium: apt-get install chromium (or CARDLAB_NO_BROWSER=1 to skip the browser tests)")
    return {**browser_type_launch_args, "executable_path": exe, "args": ["--no-sandbox", "--disable-dev-shm-usage"]}


@pytest.fixture(scope="session")
def writable(web_app):
    """A TestClient on an app over the same catalog and index as :func:`web_app`, with writes on
    and the token :data:`~tests.unit.web.support.TOKEN` (as ``cardlab serve --allow-writes``)."""
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app
    from tests.unit.web.support import TOKEN

    app = create_app(web_app.site.roots, web_app.site.db, allow_writes=True, token=TOKEN)
    with TestClient(app) as c:
        yield c
