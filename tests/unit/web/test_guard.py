"""The ASGI guard (:mod:`cardlab.web.guard`): the body cap, security headers, redirects kept on this
site."""

from __future__ import annotations

from tests.unit.web.support import error_of


def test_a_10_mb_body(client):
    big = b"4 Bill\n" * (10 * 1024 * 1024 // 7)
    err = error_of(client.post("/api/decks/validate", content=big, headers={"content-type": "text/plain"}), 413, "too_large")
    assert "larger than" in err["details"]
    form = client.post("/deck", data={"text": big.decode()})
    assert form.status_code == 413

    def chunks():  # no content-length: the body is counted as it streams
        for _ in range(10):
            yield b"4 Bill\n" * 150_000

    error_of(client.post("/api/decks/validate", content=chunks(), headers={"content-type": "text/plain"}), 413, "too_large")


def test_security_headers(client):
    for resp in (client.get("/search"), client.get("/api/sets"), client.get("/nowhere"), client.get("/static/style.css")):
        assert "frame-ancestors 'none'" in resp.headers["content-security-policy"]
        assert "script-src 'self';" in resp.headers["content-security-policy"]  # static files only: no inline script, no CDN
        assert "unsafe" not in resp.headers["content-security-policy"]
        assert resp.headers["x-content-type-options"] == "nosniff"
    import re

    scripts = re.findall(r"<script[^>]*>[^<]*</script>", client.get("/search", params={"q": "pikachu"}).text)
    assert scripts == ['<script src="/static/builder.js" defer></script>']  # one static file, nothing inline


def test_redirects_stay_on_this_site(client):
    """Finding: ``/api/sets/`` answered 307 to ``http://evil.example/api/sets`` when the client sent
    ``Host: evil.example``. Every Location is relative now."""
    from cardlab.web.guard import relative_location

    resp = client.get("/api/sets/", headers={"host": "evil.example"}, follow_redirects=False)
    assert (resp.status_code, resp.headers["location"]) == (307, "/api/sets")
    resp = client.get("/search/?q=hp%3E80", headers={"host": "evil.example"}, follow_redirects=False)
    assert (resp.status_code, resp.headers["location"]) == (307, "/search?q=hp%3E80")
    assert relative_location(b"http://evil.example//evil.example/x?y#z") == b"/evil.example/x?y#z"
    assert relative_location(b"/card/base1-4?lang=fr") == b"/card/base1-4?lang=fr"
