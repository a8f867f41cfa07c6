"""``cardlab serve``: the command starts uvicorn on 127.0.0.1 and the pages answer; a broken catalog
stops it before it listens; ``--allow-writes`` without a usable token stops it with exit 2; the CLI
still imports no web framework at start-up."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from cardlab.cli.whole import app

TOKEN = "serve-token-0123456789"


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


def test_allow_writes_without_a_token_exits_2(runner, tmp_path):
    result = runner.invoke(app, ["serve", "--allow-writes", "--port", str(_free_port())])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: --allow-writes needs a token: set CARDLAB_SERVE_TOKEN or give --token-file PATH (cardlab makes none up; make one with:"
    )
    assert "serving" not in result.stderr
    assert not (tmp_path / "cardlab-data").exists()


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("", "the token in CARDLAB_SERVE_TOKEN is empty"),
        ("   ", "the token in CARDLAB_SERVE_TOKEN is empty"),
        ("short", "the token in CARDLAB_SERVE_TOKEN has 5 characters; give 16 to 4,096"),
        ("a token with spaces inside", "the token in CARDLAB_SERVE_TOKEN holds spaces or characters other than visible ASCII"),
        ("é" * 20, "the token in CARDLAB_SERVE_TOKEN holds spaces or characters other than visible ASCII"),
    ],
)
def test_allow_writes_with_a_bad_token_exits_2(runner, monkeypatch, token, message):
    monkeypatch.setenv("CARDLAB_SERVE_TOKEN", token)
    result = runner.invoke(app, ["serve", "--allow-writes", "--port", str(_free_port())])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {message}")


def test_token_file_errors_exit_2(runner, tmp_path):
    missing = tmp_path / "no-token"
    result = runner.invoke(app, ["serve", "--allow-writes", "--token-file", str(missing)])
    assert result.exit_code == 2 and "cannot read the token file" in result.stderr
    short = tmp_path / "short"
    short.write_text("abc\n")
    result = runner.invoke(app, ["serve", "--allow-writes", "--token-file", str(short)])
    assert result.exit_code == 2 and f"the token in {short} has 3 characters" in result.stderr
    good = tmp_path / "good"
    good.write_text(TOKEN + "\n")
    result = runner.invoke(app, ["serve", "--token-file", str(good)])
    assert result.exit_code == 2
    assert "--token-file is for --allow-writes" in result.stderr


def test_allow_writes_hands_the_token_to_the_app(runner, monkeypatch, tmp_path):
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda target, **kw: seen.update(target=target, env=dict(os.environ), **kw))
    monkeypatch.setenv("CARDLAB_SERVE_TOKEN", "env-token-that-loses-0123")
    (tmp_path / "token").write_text(f"  {TOKEN}\n")
    result = runner.invoke(app, ["serve", "--allow-writes", "--token-file", str(tmp_path / "token"), "--port", "8123"])
    assert result.exit_code == 0, result.stderr
    assert (seen["target"], seen["factory"], seen["port"], seen["host"]) == ("cardlab.web.app:create_app", True, 8123, "127.0.0.1")
    assert seen["http"] == "cardlab.web.protocol:JSONErrorProtocol"  # tests/unit/web/test_protocol.py
    assert (seen["env"]["CARDLAB_SERVE_WRITES"], seen["env"]["CARDLAB_SERVE_TOKEN"]) == ("1", TOKEN)  # the file wins
    assert "collection writes on (Bearer token)" in result.stderr
    assert (tmp_path / "cardlab-data" / "collection.sqlite").exists()  # opened (and made) before listening
    seen.clear()
    result = runner.invoke(app, ["serve", "--port", "8124"])
    assert result.exit_code == 0 and seen["env"]["CARDLAB_SERVE_WRITES"] == "0" and "read-only" in result.stderr


def test_serve_with_writes_over_http(tmp_path):
    port = _free_port()
    data = tmp_path / "data"
    env = {**os.environ, "CARDLAB_CACHE_DIR": str(tmp_path / "cache"), "CARDLAB_DATA": str(data), "CARDLAB_SERVE_TOKEN": TOKEN}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "serve", "--port", str(port), "--workers", "2", "--allow-writes"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def post(token: str) -> tuple[int, dict]:
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/collections/alice/cards",
            data=json.dumps({"card": "base1-4", "count": 2}).encode(),
            headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    try:
        deadline = time.monotonic() + 60
        answer = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                answer = post("wrong-token-0123456789")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        assert answer is not None, proc.stderr.read().decode() if proc.poll() is not None else "no answer"
        assert answer == (401, {"object": "error", "status": 401, "code": "unauthorized", "details": "wrong token"})
        # both workers know the token
        assert [post(TOKEN)[1]["owned"] for _ in range(4)] == [2, 4, 6, 8]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    from cardlab.collection.owned import counts, open_readonly

    assert counts(open_readonly(data), "alice") == {"base1-4": 8}
