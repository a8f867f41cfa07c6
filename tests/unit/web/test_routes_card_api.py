"""The card and search APIs (:mod:`cardlab.web.routes.card_api`, :mod:`cardlab.web.routes.search_api`): ``/api/cards/search``, ``/api/cards/<id>``,
``/api/sets``, their error shapes and hostile inputs (a 10,000-character query, ../ in ids)."""

from __future__ import annotations

import json

import pytest

from tests.unit.web.support import error_of


def test_search_list_object(client):
    body = client.get("/api/cards/search", params={"q": "type:fire hp>=80"}).json()
    assert body["object"] == "list" and body["total_cards"] == 4 and body["has_more"] is False and body["next_page"] is None
    assert {c["name"] for c in body["data"]} == {"Charizard", "Ninetales", "Arcanine", "Charmeleon"}
    assert all(c["object"] == "card" for c in body["data"])


def test_search_pages(client):
    first = client.get("/api/cards/search", params={"q": "set:base1", "sort": "name"}).json()
    assert (first["total_cards"], first["total_cards_is_exact"], len(first["data"]), first["has_more"]) == (102, True, 50, True)
    assert first["next_page"].startswith("/api/cards/search?q=set%3Abase1&sort=name&cursor=")
    second = client.get(first["next_page"]).json()
    third = client.get("/api/cards/search", params={"q": "set:base1", "sort": "name", "page": 3}).json()
    assert (len(second["data"]), len(third["data"]), third["has_more"]) == (50, 2, False)
    ids = [c["id"] for page in (first, second, third) for c in page["data"]]
    assert len(set(ids)) == 102


@pytest.mark.parametrize("sort", ["number", "name", "hp"])
def test_search_pages_by_cursor_and_size(client, sort):
    """Issue 29: ``page_size`` and the cursor of ``next_page`` walk the whole result once."""
    ids: list[str] = []
    url = f"/api/cards/search?q=set%3Abase1&sort={sort}&page_size=30"
    while url:
        body = client.get(url).json()
        assert (body["total_cards"], body["total_cards_is_exact"]) == (102, True)
        ids += [c["id"] for c in body["data"]]
        url = body["next_page"]
    assert len(ids) == len(set(ids)) == 102
    numbered = client.get("/api/cards/search", params={"q": "set:base1", "sort": sort, "page_size": 30, "page": 4}).json()
    assert [c["id"] for c in numbered["data"]] == ids[90:]


def test_search_bad_sizes_and_cursors(client):
    body = error_of(client.get("/api/cards/search", params={"q": "x", "page_size": 10**9}), 400, "bad_parameter")
    assert body["details"] == "page_size: a number from 1 to 1000"
    error_of(client.get("/api/cards/search", params={"q": "x", "page_size": 0}), 400, "bad_parameter")
    error_of(client.get("/api/cards/search", params={"q": "x", "page": 10_001}), 400, "bad_parameter")
    nxt = client.get("/api/cards/search", params={"q": "set:base1"}).json()["next_page"]
    edited = nxt[:-3] + ("AAA" if not nxt.endswith("AAA") else "BBB")
    body = error_of(client.get(edited), 400, "bad_cursor")
    assert body["details"].startswith("cursor: not one this server gave for this search")
    error_of(client.get(nxt.replace("set%3Abase1", "set%3Abase1+type%3Awater")), 400, "bad_cursor")
    error_of(client.get(nxt + "&page=2"), 400, "bad_request")  # a cursor and a page number


def test_search_language(client):
    body = client.get("/api/cards/search", params={"q": "charizard", "lang": "fr"}).json()
    assert body["data"][0]["name"] == "Dracaufeu"


def test_search_cards_kept_between_answers_keep_their_language(client):
    from cardlab.web import cards

    first = client.get("/api/cards/search", params={"q": "charizard", "lang": "fr"})
    assert any(key[1] == "base1-4" and key[2] == ("fr",) for key in cards._SHAPES)  # kept by index, id, languages
    again = client.get("/api/cards/search", params={"q": "charizard", "lang": "fr"})
    assert again.content == first.content  # the kept text, byte for byte
    english = client.get("/api/cards/search", params={"q": "charizard"}).json()
    assert (english["data"][0]["name"], english["data"][0]["names"]["fr"]) == ("Charizard", "Dracaufeu")
    assert first.json()["data"][0] == {**english["data"][0], "name": "Dracaufeu"}


def test_search_errors(client):
    err = error_of(client.get("/api/cards/search", params={"q": "hp>>80"}), 400, "bad_query")
    assert err["column"] == 4 and err["caret"] == "hp>>80\n   ^"
    error_of(client.get("/api/cards/search", params={"q": "x", "sort": "colour"}), 400, "bad_request")
    error_of(client.get("/api/cards/search", params={"q": "x", "page": "abc"}), 400, "bad_parameter")
    error_of(client.get("/api/cards/search", params={"q": "x", "page": 0}), 400, "bad_parameter")
    error_of(client.get("/api/cards/search", params={"q": "x", "lang": "<b>"}), 400, "bad_parameter")


def test_unknown_languages_are_refused(client, web_app):
    """Finding: ``lang=zz`` was taken silently (names fell back to the source language); it is refused
    as an unknown sort is, on every route that takes ``lang``."""
    known = ", ".join(web_app.site.languages)
    details = f"lang: no card name is known in zz (languages: {known})"
    for path in ("/api/cards/search?q=bill", "/api/cards/base1-91", "/api/sets"):
        assert error_of(client.get(path, params={"lang": "fr,zz"}), 400, "bad_parameter")["details"] == details
    for resp in (
        client.get("/search", params={"q": "bill", "lang": "zz"}),
        client.post("/deck", data={"text": "4 Bill\n", "lang": "zz"}),
        client.get("/search/help", params={"lang": "zz"}),
    ):  # a page's ?lang= names its interface language too: the message names those (tests/unit/web/test_page_lang.py)
        assert (resp.status_code, "lang: unknown language &#39;zz&#39;; cardlab knows en (English)" in resp.text) == (400, True)
    assert client.get("/api/cards/search", params={"q": "bill", "lang": "FR"}).status_code == 200
    assert client.get("/search/help", params={"lang": "fr"}).status_code == 200


def test_search_timeout(client, web_app, monkeypatch):
    monkeypatch.setattr(web_app.site, "search_timeout", 0)
    err = error_of(client.get("/api/cards/search", params={"q": "a or e or i or o or u"}), 400, "query_timeout")
    assert "cut off" in err["details"]
    page = client.get("/search", params={"q": "a or e or i or o or u"})
    assert page.status_code == 400 and "cut off" in page.text


def test_query_of_10000_characters(client):
    q = "a" * 10_000
    err = error_of(client.get("/api/cards/search", params={"q": q}), 400, "bad_query")
    assert err["column"] == 1001 and "too long" in err["details"]
    # the query is quoted back cut (finding: a 100 kB query was echoed whole)
    assert err["query"] == "a" * 200 + "…"
    assert err["caret"] == "…" + "a" * 200 + "…\n" + " " * 101 + "^"
    page = client.get("/search", params={"q": q})
    assert page.status_code == 400 and "too long" in page.text


def test_card(client, pokemon_formats):
    body = client.get("/api/cards/base1-4").json()
    assert body["object"] == "card" and body["name"] == "Charizard" and body["names"]["fr"] == "Dracaufeu"
    assert body["legalities"] == {name: "legal" for name in pokemon_formats}
    assert body["printings"] == [{"id": "base1-4", "set": "base1", "number": "4", "rarity": "Rare Holo"}]
    assert body["data"]["hp"] == 120 and body["set"]["code"] == "base1"
    assert client.get("/api/cards/BASE1-4").json()["id"] == "base1-4"


def test_card_errors(client):
    err = error_of(client.get("/api/cards/base1-999"), 404, "not_found")
    assert "suggestions" in err
    error_of(client.get("/api/cards/Dracaufeu"), 404, "not_found")  # the API takes ids only
    for bad in ("...", "..%2E", "base1.4", "a" * 65, "%00", "base1-4%0A", "%3Cscript%3E"):
        error_of(client.get(f"/api/cards/{bad}"), 400, "bad_id")


@pytest.mark.parametrize(
    "path",
    [
        "/api/cards/..",
        "/api/cards/..%2F..%2Fetc%2Fpasswd",
        "/api/cards/..%2Fapp.py",
        "/card/..%2F..%2Fetc%2Fpasswd",
        "/static/..%2Fapp.py",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
    ],
)
def test_dot_dot_in_paths(client, path):
    resp = client.get(path)
    assert resp.status_code in (400, 404)
    assert "create_app" not in resp.text and "root:" not in resp.text


def test_sets(client):
    body = client.get("/api/sets").json()
    by_code = {s["code"]: s for s in body["data"]}
    assert (by_code["ippo1"]["recorded"], by_code["ippo1"]["printed_total"], by_code["ippo1"]["missing"]) == (0, 162, "1-162")
    assert (by_code["base1"]["recorded"], by_code["base1"]["missing"]) == (102, "none missing")
    page = client.get("/sets").text
    assert "0/162" in page and "102/102" in page


def test_json_is_utf8(client):
    body = client.get("/api/cards/search", params={"q": "set:ippo1"}).content
    assert json.loads(body)["total_cards"] == 0


@pytest.mark.parametrize(
    ("params", "details"),
    [
        ({"q": "fire", "page_size": "1.5"}, "page_size: a number from 1 to 1000"),
        ({"q": "fire", "page_size": "9" * 30}, "page_size: a number from 1 to 1000"),
        ({"q": "fire", "reverse": "maybe"}, "reverse: true or false, not 'maybe'"),
    ],
)
def test_search_parameters_read_by_the_route_say_what_is_wrong(client, params, details):
    """The search route reads its parameters itself (lighter than FastAPI's typed parameters at 50
    clients): a bad one is still a 400 bad_parameter naming it."""
    answer = client.get("/api/cards/search", params=params)
    assert (answer.status_code, answer.json()["code"], answer.json()["details"]) == (400, "bad_parameter", details)


def test_search_parameters_read_as_before(client):
    """Booleans in FastAPI's words, numbers with their sign, and the OpenAPI description keeps the seven parameters."""
    ids = lambda **p: [c["id"] for c in client.get("/api/cards/search", params={"q": "t:fire", **p}).json()["data"]]  # noqa: E731
    assert ids(reverse="YES", page_size="+3") == ids(reverse="true", page_size="3") == ids(reverse="1")[:3]
    assert ids(reverse="off", page_size="3") == ids()[:3] != ids(reverse="on", page_size="3")
    spec = client.get("/api/openapi.json").json()["paths"]["/api/cards/search"]["get"]
    assert [p["name"] for p in spec["parameters"]] == ["q", "sort", "reverse", "lang", "page", "page_size", "cursor"]


@pytest.mark.parametrize(
    ("params", "details"),
    [
        ({"page_size": "abc"}, "page_size: a number from 1 to 1000"),
        ({"page_size": "0"}, "page_size: a number from 1 to 1000"),  # the range check's own words: the same
        ({"page": "abc"}, "page: a number from 1 to 10000"),
        ({"page": "2.5"}, "page: a number from 1 to 10000"),
        ({"page": "abc", "page_size": "x"}, "page: a number from 1 to 10000"),  # the first one found
    ],
)
def test_a_number_that_is_not_one_is_said_in_the_projects_words(client, params, details):
    body = error_of(client.get("/api/cards/search", params={"q": "bill", **params}), 400, "bad_parameter")
    assert body["details"] == details
