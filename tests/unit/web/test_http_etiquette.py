"""HTTP as a good citizen (issue 31, item 4): ETag, Cache-Control and 304 on catalog reads
(:mod:`cardlab.web.caching`), no-store on the rest, gzip for large bodies, and the per-client rate
limit on the API (:mod:`cardlab.web.ratelimit`) with its loopback exemption."""

from __future__ import annotations

import pytest

from tests.unit.web.support import error_of

CATALOG_READS = [
    "/api/cards/search?q=type%3Afire",
    "/api/cards/base1-4",
    "/api/cards/named?exact=Charizard",
    "/api/cards/base1/4",
    "/api/sets",
    "/api/sets/BS",
    "/api/openapi.json",
    "/search?q=charizard",
    "/card/base1-4",
    "/sets",
    "/static/style.css",
]


@pytest.mark.parametrize("path", CATALOG_READS)
def test_etag_and_304_round_trip(client, path):
    first = client.get(path)
    assert first.status_code == 200
    tag = first.headers["etag"]
    assert tag.startswith('W/"') and len(tag) == 36
    max_age = "3600" if path.startswith("/static/") else "300"
    assert first.headers["cache-control"] == f"public, max-age={max_age}"
    again = client.get(path, headers={"If-None-Match": tag})
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
    assert again.headers["cache-control"] == first.headers["cache-control"]
    assert again.headers["x-content-type-options"] == "nosniff"  # the Guard's headers on a 304 too
    listed = client.get(path, headers={"If-None-Match": f'"other", {tag.removeprefix("W/")}'})  # strong form, in a list
    assert listed.status_code == 304
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.get(path, headers={"If-None-Match": "*"}).status_code == 200


def test_304_runs_no_query(client, monkeypatch):
    from cardlab.search import engine

    tag = client.get("/api/cards/search", params={"q": "hp>=100"}).headers["etag"]

    def no_search(*_args, **_kwargs):
        raise AssertionError("the search ran")

    monkeypatch.setattr(engine, "search_page", no_search)
    assert client.get("/api/cards/search", params={"q": "hp>=100"}, headers={"If-None-Match": tag}).status_code == 304


def test_etag_follows_url_and_language_inputs(client):
    def tag(path, **headers):
        return client.get(path, headers=headers).headers["etag"]

    base = tag("/api/cards/base1-4")
    others = [
        tag("/api/cards/base1-4?lang=fr"),
        tag("/api/cards/base1-2"),
        tag("/api/cards/base1-4", **{"Accept-Language": "fr"}),
        tag("/api/cards/base1-4", cookie="lang=de"),
    ]
    assert len({base, *others}) == 5
    assert tag("/api/cards/base1-4", cookie="theme=dark") == base  # only the lang cookie counts
    assert tag("/api/cards/base1-4", **{"Accept-Encoding": "identity"}) == base  # gzip or not: one answer
    assert client.get("/api/cards/base1-4").headers["vary"] == "Accept-Encoding, Accept-Language, Cookie"


def test_changed_catalog_new_etag(test_set, tmp_path):
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    def etag() -> tuple[str, int]:
        with TestClient(create_app([test_set], tmp_path / "index.sqlite")) as c:
            resp = c.get("/api/cards/test1-1")
            return resp.headers["etag"], resp.json()["data"]["hp"]

    before, hp = etag()
    assert (etag(), hp) == ((before, 60), 60)  # the same catalog: the same ETag
    card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("hp: 60", "hp: 70"), encoding="utf-8")
    after = etag()
    assert after[1] == 70 and after[0] != before


def test_site_tag_parts():
    from cardlab.web.caching import site_tag

    tags = {
        site_tag("fp1", ["1.0", "False"]),
        site_tag("fp2", ["1.0", "False"]),
        site_tag("fp1", ["1.1", "False"]),
        site_tag("fp1", ["1.0", "True"]),
    }
    assert len(tags) == 4


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("GET", "/api/collections", {}),
        ("GET", "/api/collections/alice", {}),
        ("GET", "/deck", {}),
        ("POST", "/api/decks/validate", {"content": "4 Charizard", "headers": {"content-type": "text/plain"}}),
        ("GET", "/api/cards/base1-999", {}),  # an error of a catalog read
        ("GET", "/api/cards/search?q=hp%3E%3E1", {}),
    ],
)
def test_no_store_elsewhere(client, method, path, kwargs):
    resp = client.request(method, path, **kwargs)
    assert resp.headers["cache-control"] == "no-store"
    assert "etag" not in resp.headers


def test_gzip_for_large_bodies(client):
    big = client.get("/api/cards/search", params={"q": "set:base1"}, headers={"Accept-Encoding": "gzip"})
    assert big.headers["content-encoding"] == "gzip" and len(big.json()["data"]) == 50
    plain = client.get("/api/cards/search", params={"q": "set:base1"}, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == big.json()
    small = client.get("/api/cards/autocomplete", params={"q": "char"}, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers  # under GZIP_MIN bytes


class Clock:
    """A clock the test moves (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limited(web_app, clock: Clock, *addresses: str, **options):
    """TestClients from ``addresses`` on one :class:`RateLimit` (1 request a second, bursts of 2) over the app."""
    from fastapi.testclient import TestClient

    from cardlab.web.ratelimit import RateLimit

    middleware = RateLimit(web_app, rate=1.0, burst=2.0, clock=clock, **options)
    clients = [TestClient(middleware, client=(address, 40000)) for address in addresses]
    return clients[0] if len(clients) == 1 else clients


def test_rate_limit_429_with_retry_after(web_app):
    clock = Clock()
    c, other = limited(web_app, clock, "203.0.113.7", "203.0.113.8")
    assert [c.get("/api/cards/base1-4").status_code for _ in range(2)] == [200, 200]  # the burst
    refused = c.get("/api/cards/base1-4")
    err = error_of(refused, 429, "rate_limited")
    assert refused.headers["retry-after"] == "1" and err["retry_after"] == 1 and refused.headers["cache-control"] == "no-store"
    assert c.get("/search?q=charizard").status_code == 200  # pages are not limited
    assert other.get("/api/cards/base1-4").status_code == 200  # another address: its own bucket
    clock.now += 0.5
    assert c.get("/api/sets").status_code == 429  # half a token
    clock.now += 0.5
    assert c.get("/api/sets").status_code == 200  # one token again
    clock.now += 3.5
    assert c.get("/api/cards/base1-4", headers={"If-None-Match": "x"}).status_code == 200
    assert c.get("/api/sets").status_code == 200
    assert c.get("/api/sets").status_code == 429  # a 3.5 s rest refills two tokens, not more


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1", "testclient"])
def test_loopback_and_addressless_clients_are_not_limited(web_app, address):
    c = limited(web_app, Clock(), address)
    assert {c.get("/api/sets").status_code for _ in range(5)} == {200}


def test_loopback_limited_when_asked(web_app):
    c = limited(web_app, Clock(), "127.0.0.1", limit_loopback=True)
    assert [c.get("/api/sets").status_code for _ in range(3)] == [200, 200, 429]


def test_create_app_rate_limit(web_app, monkeypatch):
    from fastapi.testclient import TestClient

    from cardlab.core.errors import UsageError
    from cardlab.web.app import create_app, rate_limit_of

    monkeypatch.delenv("CARDLAB_RATE_LIMIT", raising=False)
    assert (rate_limit_of(None), rate_limit_of(2.5), rate_limit_of(0)) == (10.0, 2.5, 0)
    monkeypatch.setenv("CARDLAB_RATE_LIMIT", "4")
    assert rate_limit_of(None) == 4.0
    for bad in ("-1", "many", "nan"):
        monkeypatch.setenv("CARDLAB_RATE_LIMIT", bad)
        with pytest.raises(UsageError):
            rate_limit_of(None)
    app = create_app(web_app.site.roots, web_app.site.db, rate_limit=0.01)  # a bucket of one request
    with TestClient(app, client=("198.51.100.4", 40000)) as c:
        assert [c.get("/api/sets").status_code for _ in range(2)] == [200, 429]
        assert c.get("/api/sets").headers["retry-after"] == "100"
    with TestClient(create_app(web_app.site.roots, web_app.site.db, rate_limit=0), client=("198.51.100.4", 40000)) as c:
        assert {c.get("/api/sets").status_code for _ in range(25)} == {200}


def test_serve_passes_the_rate_limit(runner, monkeypatch):
    import os

    import uvicorn

    from cardlab.cli.whole import app

    seen = {}
    monkeypatch.setenv("CARDLAB_RATE_LIMIT", "unset")  # restored after the test: serve sets it for the app
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: seen.setdefault("rate", os.environ["CARDLAB_RATE_LIMIT"]))
    result = runner.invoke(app, ["serve", "--port", "8795", "--rate-limit", "2.5"])
    assert result.exit_code == 0, result.output
    assert seen == {"rate": "2.5"}
    result = runner.invoke(app, ["serve", "--port", "8795", "--rate-limit", "-1"])
    assert result.exit_code == 2


def test_a_page_that_sets_the_lang_cookie_is_private(client):
    chosen = client.get("/search", params={"q": "charizard", "lang": "fr"})
    assert "lang=fr" in chosen.headers["set-cookie"]
    assert chosen.headers["cache-control"] == "private, max-age=300"  # a shared cache keeps no one's cookie
    client.cookies.clear()
    face = client.get("/cards/base1-4.svg")
    assert (face.headers["cache-control"], face.headers["etag"][:3]) == ("public, max-age=3600", 'W/"')  # the route's own
