"""``cardlab serve`` start-up: the address is checked before "serving on" is printed (an empty host,
one that does not resolve, a port in use are usage errors, exit 2), and an IPv6 address is shown in
brackets. uvicorn itself is replaced by a recorder: nothing listens."""

from __future__ import annotations

import socket

import pytest

from cardlab.cli.whole import app
from cardlab.core.errors import UsageError
from cardlab.core.listen import check_listen, server_url


@pytest.fixture
def ran(monkeypatch):
    """The calls made to ``uvicorn.run`` (replaced: it returns at once)."""
    import uvicorn

    calls: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    return calls


def busy_port() -> tuple[socket.socket, int]:
    """A socket listening on a free 127.0.0.1 port, and the port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


def test_server_url_brackets_ipv6():
    assert server_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert server_url("::1", 8793) == "http://[::1]:8793/"
    assert server_url("localhost", 80) == "http://localhost:80/"


@pytest.mark.parametrize("host", ["", " ", "\t"])
def test_blank_host_is_refused(runner, ran, host):
    result = runner.invoke(app, ["serve", "--host", host, "--port", "8791"])
    assert result.exit_code == 2
    assert "error: --host is empty; give an address: 127.0.0.1 (this machine only)" in result.output
    assert ("serving on" in result.output, ran) == (False, [])


def test_unresolvable_host_and_foreign_address(runner, ran):
    result = runner.invoke(app, ["serve", "--host", "no-such-host.invalid", "--port", "8791"])
    assert result.exit_code == 2
    assert "error: --host 'no-such-host.invalid': cannot resolve this address" in result.output
    with pytest.raises(UsageError, match=r"^--host '192\.0\.2\.1' is not an address of this machine$"):
        check_listen("192.0.2.1", 8791)  # TEST-NET-1: never this machine's
    assert ran == []


def test_port_in_use(runner, ran):
    sock, port = busy_port()
    with sock:
        result = runner.invoke(app, ["serve", "--host", "127.0.0.1", "--port", str(port)])
    assert result.exit_code == 2
    assert f"error: port {port} is already in use on 127.0.0.1; stop the other server or give another --port" in result.output
    assert ("serving on" in result.output, ran) == (False, [])


def test_ipv6_announced_in_brackets(runner, ran):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    try:
        with socket.socket(socket.AF_INET6) as six:
            six.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    result = runner.invoke(app, ["serve", "--host", "::1", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert f"cardlab: serving on http://[::1]:{port}/, read-only (Ctrl-C stops)" in result.output
    assert [(c["host"], c["port"]) for c in ran] == [("::1", port)]


def test_uvicorn_start_failure_is_a_usage_error(runner, monkeypatch):
    import uvicorn

    def fail(*args, **kwargs):
        raise SystemExit(3)

    monkeypatch.setattr(uvicorn, "run", fail)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"error: the server could not start on http://127.0.0.1:{port}/ (uvicorn's message above)" in result.output
