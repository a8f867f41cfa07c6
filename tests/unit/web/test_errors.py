"""The error shapes (:mod:`cardlab.web.errors`): 405 with every allowed method, undecodable text never
a 500, an unusable collections database told to the log and not the client."""

from __future__ import annotations

import pytest

from tests.unit.web.support import error_of


def test_head_and_allow(client):
    """Findings: HEAD on the GET routes answered 405, and 405 answers had no Allow header."""
    for path in ("/api/sets", "/search?q=hp>80", "/card/base1-4", "/api/cards/base1-4", "/deck", "/static/style.css"):
        head, get = client.head(path), client.get(path)
        assert (head.status_code, head.content) == (200, b"")
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.headers["content-length"] == get.headers["content-length"]
    assert client.head("/no-such-page").status_code == 404
    resp = client.get("/api/decks/validate")
    error_of(resp, 405, "method_not_allowed")
    assert resp.headers["allow"] == "POST"
    page = client.delete("/deck")
    assert (page.status_code, page.headers["allow"]) == (405, "GET, HEAD, POST")
    assert (client.head("/deck/export.txt").status_code, client.head("/deck/export.txt").headers["allow"]) == (405, "POST")


def test_undecodable_form_and_query_text_is_never_a_500(client):
    """Forms and query strings cannot carry a lone surrogate (Starlette reads undecodable form bytes
    as Latin-1 or U+FFFD): every deck route and search answers, never with a 500."""
    bad = b'--B\r\nContent-Disposition: form-data; name="text"\r\n\r\n\xed\xa0\x80 Bill\r\n--B--\r\n'
    statuses = {
        path: client.post(path, content=bad, headers={"content-type": "multipart/form-data; boundary=B"}).status_code
        for path in ("/deck", "/deck/export.txt", "/deck/export.json", "/deck/proxies.pdf")
    }
    assert statuses == {"/deck": 200, "/deck/export.txt": 200, "/deck/export.json": 200, "/deck/proxies.pdf": 400}
    form = {"content-type": "application/x-www-form-urlencoded"}
    assert client.post("/deck", content=b"text=%ED%A0%80&format=%ED%A0%80", headers=form).status_code == 400
    error_of(client.post("/api/decks/validate", content=b"4 Bill\n\xed\xa0\x80", headers={"content-type": "text/plain"}), 400, "bad_deck")
    error_of(client.get("/api/cards/search?q=%ED%A0%80"), 400, "bad_query")


def test_unreadable_collections_503(client, tmp_path, monkeypatch):
    (tmp_path / "afile").write_text("x")
    monkeypatch.setenv("CARDLAB_DATA", str(tmp_path / "afile" / "sub"))
    err = error_of(client.get("/api/collections"), 503, "collection_unavailable")
    assert err["details"] == "the collections database cannot be used; see the server log"
    error_of(client.get("/api/collections/alice"), 503, "collection_unavailable")
    # the deck page still checks decks, and says why it offers no collection
    form = client.get("/deck")
    assert form.status_code == 200 and 'id="collection"' not in form.text
    assert (
        '<p class="note" id="collections-error">Collections cannot be read: the collections database cannot be used; see the server log</p>'
        in form.text
    )
    assert client.post("/deck", data={"text": "4 Bill\n"}).status_code == 200
    assert client.post("/deck", data={"text": "4 Bill\n", "collection": "alice"}).status_code == 503


LEAKY_URL = "postgresql://cluser:S3cretPW%40x@127.0.0.1:1/clcards?password=QueryPW123"
"""A collections database no server answers at (port 1), with a password in the user part and in the query."""


@pytest.mark.parametrize("data", [LEAKY_URL, "folder"])
def test_unavailable_collections_tell_the_log_not_the_client(client, tmp_path, monkeypatch, caplog, data):
    """Finding: a 503 named the database user, host, port, name and ?password= value (or the server's
    paths) to anonymous clients. Now every answer has the generic words; the reason is in the log."""
    if data == "folder":
        (tmp_path / "afile").write_text("x")
        data = str(tmp_path / "afile" / "sub")
    monkeypatch.setenv("CARDLAB_DATA", data)
    secrets = ("cluser", "S3cretPW", "QueryPW123", "127.0.0.1", "clcards", str(tmp_path))
    plain = {"content-type": "text/plain"}
    answers = [
        client.get("/api/collections"),
        client.get("/api/collections/alice"),
        client.post("/api/decks/have", params={"collection": "alice"}, content="4 Bill\n", headers=plain),
    ]
    for resp in answers:
        assert error_of(resp, 503, "collection_unavailable")["details"] == "the collections database cannot be used; see the server log"
    pages = [client.get("/deck"), client.post("/deck", data={"text": "4 Bill\n", "collection": "alice"})]
    assert [p.status_code for p in pages] == [200, 503]
    for text in [r.text for r in answers] + [p.text for p in pages]:
        assert [s for s in secrets if s in text] == []
        assert "see the server log" in text
    logged = [r.getMessage() for r in caplog.records if r.name == "cardlab.web"]
    assert logged and all(m.startswith("collections database unavailable: ") for m in logged)
    assert "QueryPW123" not in " ".join(logged) and "S3cretPW" not in " ".join(logged)
