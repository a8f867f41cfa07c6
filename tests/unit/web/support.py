"""Helpers the web tests share: the JSON error object's check, the write token of the ``writable``
client (conftest), the collections as the library reads and writes them."""

from __future__ import annotations

API_ERROR_KEYS = {"object", "status", "code", "details"}


def error_of(resp, status: int, code: str) -> dict:
    """Assert ``resp`` is a JSON error object with this status and code; return it."""
    assert resp.status_code == status, resp.text[:300]
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert API_ERROR_KEYS <= set(body) and body["object"] == "error"
    assert (body["status"], body["code"]) == (status, code)
    return body


TOKEN = "test-token-0123456789abcdef"
"""The write token of :func:`writable`."""


AUTH = {"authorization": f"Bearer {TOKEN}"}


def owned_now(player: str = "alice") -> dict[str, int]:
    """The collection of ``player`` as the library reads it (``CARDLAB_DATA``)."""
    from cardlab.collection.owned import counts, open_readonly

    con = open_readonly()
    return {} if con is None else counts(con, player)


def give(player: str, card_id: str, n: int) -> None:
    """Add ``n`` copies through the library, as ``cardlab collection add`` does."""
    from cardlab.collection import db, owned

    owned.change(db.connect(), player, [("add", card_id, n)])
