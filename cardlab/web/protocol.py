"""The HTTP protocol ``cardlab serve`` runs under uvicorn: its own (h11) with the one answer it gives
before the app sees a request, a 400, in the app's JSON error shape.

uvicorn's HTTP parser refuses a request it cannot read (a malformed request line or header, or more
than :data:`MAX_HEAD` bytes of them: a 100 kB ``cursor`` in a URL) with a plain-text "Invalid HTTP
request received."; :class:`JSONErrorProtocol` says it as every other error is said
(``{"object": "error", "status": 400, "code": "bad_request", "details": ...}``, issue 32).
"""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEAD = 16 * 1024
"""Bytes of request line and headers uvicorn's h11 reads (its ``h11_max_incomplete_event_size``
default); a cursor or a query a page builds is a few hundred."""

UNREADABLE = (
    f"not an HTTP request this server reads: a malformed request line or header, or more than {MAX_HEAD // 1024} kB"
    " of them (a URL that long is none of this server's: use next_page as the answer gives it)"
)
"""The ``details`` of the 400 :class:`JSONErrorProtocol` answers."""


class JSONErrorProtocol(H11Protocol):
    """uvicorn's h11 protocol answering an unreadable request in the JSON error shape (see the module)."""

    def send_400_response(self, msg: str) -> None:
        """Answer 400 ``bad_request`` as JSON and close the connection (``msg`` is uvicorn's words: logged by it)."""
        body = json.dumps({"object": "error", "status": 400, "code": "bad_request", "details": UNREADABLE}).encode("utf-8")
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()
