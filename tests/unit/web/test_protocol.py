"""An unreadable request (a 100 kB cursor in the URL: more than uvicorn's parser reads of a request line and
headers) is answered by ``cardlab serve``'s protocol in the JSON error shape, not uvicorn's plain
text; a request it reads reaches the app as before."""

from __future__ import annotations

import json
import socket
import threading
import time

import uvicorn

from cardlab.web.protocol import UNREADABLE, JSONErrorProtocol


def _serve(app, **config):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    return server, thread, port


def _raw(port: int, request: bytes) -> bytes:
    """What the server answers to ``request`` (sent as is), read until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_a_100_kb_cursor_is_answered_in_json(web_app):
    server, thread, port = _serve(web_app, http="cardlab.web.protocol:JSONErrorProtocol")
    try:
        # a whole request with a 100 kB cursor: past what the HTTP parser reads
        answer = _raw(port, b"GET /api/cards/search?q=bill&cursor=" + b"A" * 102_400 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        head, _sep, body = answer.partition(b"\r\n\r\n")
        assert head.split(b"\r\n")[0] == b"HTTP/1.1 400 Bad Request"
        assert b"content-type: application/json" in head.lower()
        assert json.loads(body) == {"object": "error", "status": 400, "code": "bad_request", "details": UNREADABLE}
        good = _raw(port, b"GET /api/cards/search?q=bill&cursor=abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert json.loads(good.partition(b"\r\n\r\n")[2])["code"] == "bad_cursor"  # read by the app as before
    finally:
        server.should_exit = True
        thread.join(timeout=5)
    assert issubclass(JSONErrorProtocol, uvicorn.protocols.http.httptools_impl.HttpToolsProtocol)  # the fast parser kept
