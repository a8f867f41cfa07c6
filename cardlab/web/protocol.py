"""The HTTP protocol ``cardlab serve`` runs under uvicorn: its own (httptools, the parser uvicorn picks
when installed: it is the faster; h11 otherwise) with the one answer it gives before the app sees a
request, a 400, in the app's JSON error shape.

uvicorn's HTTP parser refuses a request it cannot read (a malformed request line or header, or one
too long: a 100 kB ``cursor`` in a URL) with a plain-text "Invalid HTTP request received.";
:class:`JSONErrorProtocol` says it as every other error is said
(``{"object": "error", "status": 400, "code": "bad_request", "details": ...}``, issue 32).
"""

from __future__ import annotations

import json

try:  # uvicorn's fast parser when installed (uvicorn[standard]), as its "auto" picks; else h11
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as BaseProtocol
except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
    from uvicorn.protocols.http.h11_impl import H11Protocol as BaseProtocol  # type: ignore[assignment]

UNREADABLE = (
    "not an HTTP request this server reads: a malformed request line or header, or one too long"
    " (a URL that long is none of this server's: use next_page as the answer gives it)"
)
"""The ``details`` of the 400 :class:`JSONErrorProtocol` answers."""


class JSONErrorProtocol(BaseProtocol):
    """uvicorn's HTTP protocol (httptools, as uvicorn's "auto" picks, else h11) answering an
    unreadable request in the JSON error shape (see the module)."""

    def send_400_response(self, msg: str) -> None:
        """Answer 400 ``bad_request`` as JSON and close the connection (``msg`` is uvicorn's words: logged by it)."""
        body = json.dumps({"object": "error", "status": 400, "code": "bad_request", "details": UNREADABLE}).encode("utf-8")
        head = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
        self.transport.write(head % len(body) + body)
        self.transport.close()
