"""``cardlab serve``: the command starts uvicorn on 127.0.0.1 and the pages answer; a broken catalog
stops it before it listens; the CLI still imports no web framework at start-up."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from cardlab.cli.app import app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_help(runner):
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "127.0.0.1" in result.output and "8000" in result.output and "--workers" in result.output
    assert "--format" not in result.output and "-o" not in result.output.split()


def test_serve_starts_and_answers(tmp_path):
    port = _free_port()
    env = {**os.environ, "CARDLAB_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        body = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/search?q=charizard", timeout=2) as resp:
                    body = resp.read().decode()
                    headers = resp.headers
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        assert body is not None, proc.stderr.read().decode() if proc.poll() is not None else "no answer"
        assert "base1-4" in body and "Charizard" in body
        assert headers["x-content-type-options"] == "nosniff" and "server" not in headers
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert f"serving on http://127.0.0.1:{port}/" in proc.stderr.read().decode()


def test_serve_refuses_a_broken_catalog(runner, test_set, fixtures):
    shutil.copy(fixtures / "bad" / "pokemon" / "wrong-type.yaml", test_set / "pokemon" / "test1" / "5-x.yaml")
    result = runner.invoke(app, ["serve", "--catalog", str(test_set), "--port", str(_free_port())])
    assert result.exit_code == 1
    assert "5-x.yaml" in result.stderr and "serving" not in result.stderr


def test_cli_start_up_imports_no_web_framework():
    code = (
        "import sys, cardlab.cli.app; print([m for m in ('fastapi', 'starlette', 'uvicorn', 'jinja2', 'cardlab.web') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
