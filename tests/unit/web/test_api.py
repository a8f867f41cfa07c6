"""The JSON API and the pages through FastAPI's TestClient: every endpoint, every error shape,
hostile inputs (a 10 MB body, a 10,000-character query, ../ in ids and file names, HTML in a query)."""

from __future__ import annotations

import io
import json

import pytest

API_ERROR_KEYS = {"object", "status", "code", "details"}


def error_of(resp, status: int, code: str) -> dict:
    """Assert ``resp`` is a JSON error object with this status and code; return it."""
    assert resp.status_code == status, resp.text[:300]
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert API_ERROR_KEYS <= set(body) and body["object"] == "error"
    assert (body["status"], body["code"]) == (status, code)
    return body


# --- search ------------------------------------------------------------------------------------


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
    for resp in (client.get("/search", params={"q": "bill", "lang": "zz"}), client.post("/deck", data={"text": "4 Bill\n", "lang": "zz"})):
        assert (resp.status_code, details in resp.text) == (400, True)
    assert client.get("/api/cards/search", params={"q": "bill", "lang": "FR"}).status_code == 200


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
    page = client.get("/search", params={"q": q})
    assert page.status_code == 400 and "too long" in page.text


def test_html_in_a_query_is_inert(client):
    q = '<script>alert(1)</script> "><img src=x onerror=alert(2)>'
    page = client.get("/search", params={"q": q})
    assert "<script>alert" not in page.text and "<img src=x" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    bad = client.get("/search", params={"q": "<b>x</b> hp>>"})
    assert bad.status_code == 400 and "<b>x</b>" not in bad.text and "&lt;b&gt;x&lt;/b&gt;" in bad.text
    # the API answers JSON, never HTML
    assert client.get("/api/cards/search", params={"q": q}).headers["content-type"] == "application/json"


def test_a_control_character_in_a_query_is_escaped_in_the_page_title(client):
    page = client.get("/search", params={"q": "pika\x00chu\x1b[31m"})
    assert page.status_code == 400
    assert "<title>pika\\x00chu\\x1b[31m · cardlab</title>" in page.text


# --- cards -------------------------------------------------------------------------------------


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


def test_card_page(client):
    page = client.get("/card/base1-4")
    assert page.status_code == 200
    for text in ("Charizard", "Dracaufeu", "Glurak", "pokemon-base", "Fire Spin", "Mitsuhiro Arita"):
        assert text in page.text
    moved = client.get("/card/Dracaufeu", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/card/base1-4"
    assert client.get("/card/base1-999").status_code == 404
    assert client.get("/card/...").status_code == 400


def test_card_page_shows_the_games_detail_rows(client):
    """The same neutral rows as ``cardlab show`` (games.base.DetailRow), spans as style classes."""
    page = client.get("/card/base1-4").text
    assert '<tr><th>Retreat</th><td><span class="style-white">C</span> <span class="style-white">C</span> ' in page
    assert '<tr><th>Weakness</th><td><span class="style-blue">W</span> ×2</td></tr>' in page
    assert '<span class="style-bold">Fire Spin</span>' in page


# --- sets --------------------------------------------------------------------------------------


def test_sets(client):
    body = client.get("/api/sets").json()
    by_code = {s["code"]: s for s in body["data"]}
    assert (by_code["ippo1"]["recorded"], by_code["ippo1"]["printed_total"], by_code["ippo1"]["missing"]) == (0, 162, "1-162")
    assert (by_code["base1"]["recorded"], by_code["base1"]["missing"]) == (102, "none missing")
    page = client.get("/sets").text
    assert "0/162" in page and "102/102" in page


# --- decks -------------------------------------------------------------------------------------


def test_validate_with_a_format(client, zap_text):
    body = client.post(
        "/api/decks/validate", params={"format": "pokemon-base"}, content=zap_text, headers={"content-type": "text/plain"}
    ).json()
    assert (body["object"], body["format"], body["legal"], body["cards"], body["problems"]) == ("deck_report", "pokemon-base", True, 60, [])


def test_validate_every_format(client, zap_text, pokemon_formats):
    text = zap_text.replace("2 Bill", "5 Bill")
    body = client.post("/api/decks/validate", content=text.encode(), headers={"content-type": "text/plain; charset=utf-8"}).json()
    assert body["object"] == "legality" and body["game"] == "pokemon" and body["legal_in"] == []
    assert [f["format"] for f in body["formats"]] == pokemon_formats
    for report in body["formats"]:
        limit = 3 if report["format"] == "pokemon-prop-15-3" else 4
        assert {"line": 10, "column": 0, "message": f'5 copies of "Bill" (limit {limit})', "rule": "copy-limit"} in report["problems"]
        assert "path" not in report["problems"][0]
    legal = client.post("/api/decks/validate", content=zap_text, headers={"content-type": "text/plain"}).json()
    # Zap! holds 4 of a card besides basic Energy, so Prop 15/3 (3 copies at most) refuses it
    assert legal["legal_in"] == [
        "pokemon-base",
        "pokemon-base-fossil",
        "pokemon-base-gym",
        "pokemon-base-jungle",
        "pokemon-base-rocket",
        "pokemon-unlimited",
    ]


def test_validate_errors(client, zap_text):
    plain = {"content-type": "text/plain"}
    error_of(client.post("/api/decks/validate", params={"format": "nope"}, content=zap_text, headers=plain), 400, "bad_request")
    error_of(client.post("/api/decks/validate", content="# nothing\n", headers=plain), 400, "bad_deck")
    error_of(client.post("/api/decks/validate", content=b"4 Bill\n\xff\xfe", headers=plain), 400, "bad_deck")
    error_of(client.post("/api/decks/validate", content="4 Bill\x00", headers=plain), 400, "bad_deck")
    error_of(client.post("/api/decks/validate", json={"deck": "4 Bill"}), 415, "unsupported_media_type")
    error_of(client.get("/api/decks/validate"), 405, "method_not_allowed")
    assert error_of(client.get("/api/nothing-here"), 404, "not_found")["status"] == 404


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


def test_deck_lists_over_128_kb(client):
    from cardlab.web.app import MAX_DECK_TEXT

    big = "4 Qwerty\n" * (MAX_DECK_TEXT // 9 + 10)  # within the body cap, over the deck cap
    assert MAX_DECK_TEXT < len(big) < MAX_DECK_TEXT + 16 * 1024
    error_of(client.post("/api/decks/validate", content=big, headers={"content-type": "text/plain"}), 413, "too_large")
    assert client.post("/deck", files={"file": ("big.txt", io.BytesIO(big.encode()), "text/plain")}).status_code == 413
    assert client.post("/deck", data={"text": big}).status_code == 413


def test_deck_lists_over_1000_lines(client):
    """Finding: 128 kB of short unknown names took 2.4 s on every deck route. The web checks at most
    MAX_DECK_LINES (1,000) lines, counted as the deck parser counts them."""
    from cardlab.web.app import MAX_DECK_LINES

    assert MAX_DECK_LINES == 1000
    over = "1 Qwerty\n" * 1000 + "1 Qwerty\r1 Qwerty"
    plain = {"content-type": "text/plain"}
    err = error_of(client.post("/api/decks/validate", content=over, headers=plain), 413, "too_large")
    assert err["details"] == "the deck list has 1,002 lines; the web checks at most 1,000"
    error_of(client.post("/api/decks/have", params={"collection": "alice"}, content=over, headers=plain), 413, "too_large")
    for path in ("/deck", "/deck/export.txt", "/deck/export.json", "/deck/proxies.pdf"):
        resp = client.post(path, data={"text": over})
        assert (resp.status_code, "the deck list has 1,002 lines" in resp.text) == (413, True)
    at_cap = "1 Qwerty\n" * 1000
    assert client.post("/api/decks/validate", content=at_cap, headers=plain).status_code == 200


def test_deck_exports_check_in_a_worker_thread(client, zap_text, monkeypatch):
    """Finding: the exports checked the deck inside the async handler, freezing every other request
    meanwhile. Every deck route now checks in the thread pool (no event loop in the checking thread)."""
    import asyncio

    from cardlab.web import app as web

    seen = []
    original = web.check_deck_text

    def spy(*args, **kwargs):
        try:
            asyncio.get_running_loop()
            seen.append("event loop")
        except RuntimeError:
            seen.append("worker thread")
        return original(*args, **kwargs)

    monkeypatch.setattr(web, "check_deck_text", spy)
    plain = {"content-type": "text/plain"}
    for path in ("/deck", "/deck/export.txt", "/deck/export.json", "/deck/proxies.pdf"):
        assert client.post(path, data={"text": zap_text}).status_code == 200
    assert client.post("/api/decks/validate", content=zap_text, headers=plain).status_code == 200
    assert seen == ["worker thread"] * 5


@pytest.mark.parametrize("space", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_deck_page_lines_are_the_parsers_lines(client, web_app, space):
    """Finding: the page split the text with str.splitlines (which breaks at \\f, \\v, NEL, U+2028...)
    while the parser reads those as spaces, so problems showed beside the wrong lines."""
    from cardlab.web.app import check_deck_text, lines_with_problems

    text = f"1 Qwerty{space}x\n4 Bill\n1 Zzzz\n"
    checked = check_deck_text(web_app.site, text, "deck.txt", "pokemon-base", [])
    rows, _loose = lines_with_problems(text, checked["reports"])
    assert [r["text"] for r in rows] == [f"1 Qwerty{space}x", "4 Bill", "1 Zzzz"]
    unknown = [[p.message for _f, p in r["problems"] if p.rule == "unknown-card"] for r in rows]
    assert [len(u) for u in unknown] == [1, 0, 1]
    assert "Zzzz" in unknown[2][0]
    page = client.post("/deck", data={"text": text, "format": "pokemon-base"}).text
    assert '<tr id="line-3" class="bad"><td class="num">3</td><td class="text"><code>1 Zzzz</code>' in page
    assert 'id="line-4"' not in page


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


def test_deck_form_routes_want_a_form(client):
    """Findings: a JSON body sent to /deck said "the file is empty" (it was read as an empty form), and
    an upload named only with ``filename*=`` answered the framework's "Expected UploadFile" words."""
    for path in ("/deck", "/deck/export.txt", "/deck/export.json", "/deck/proxies.pdf"):
        resp = client.post(path, json={"text": "4 Bill"})
        assert (
            resp.status_code,
            "send the deck form as multipart/form-data or application/x-www-form-urlencoded (got application/json)" in resp.text,
        ) == (415, True)
        resp = client.post(path, content=b"4 Bill", headers={"content-type": "text/plain"})
        assert resp.status_code == 415
    starred = b"--B\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''deck.txt\r\n\r\n4 Bill\r\n--B--\r\n"
    resp = client.post("/deck", content=starred, headers={"content-type": "multipart/form-data; boundary=B"})
    assert resp.status_code == 400
    assert (
        "file: not a file upload: send the file as multipart/form-data with filename=&#34;...&#34; (a filename*= alone is not read)"
        in resp.text
    )
    assert "Expected UploadFile" not in resp.text


def test_deck_text_is_inert(client):
    page = client.post("/deck", data={"text": "4 Bill\n1 <script>alert(1)</script>\n</textarea><b>x</b>"})
    assert "<script>alert" not in page.text and "</textarea><b>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_deck_page(client, zap_text):
    page = client.post("/deck", data={"text": zap_text.replace("2 Bill", "5 Bill"), "format": "pokemon-base"})
    assert page.status_code == 200
    assert 'id="line-10" class="bad"' in page.text and "copy-limit" in page.text
    assert page.text.count('<li><a href="/card/') == 7  # the sample hand
    assert "exact opening odds" in page.text
    again = client.post("/deck", data={"text": zap_text, "seed": 2})
    assert "seed 2" in again.text and "legal" in again.text
    bad = client.post("/deck", data={"text": "# nothing"})
    assert bad.status_code == 400 and "holds no cards" in bad.text


def test_deck_upload_and_hostile_file_name(client, zap_text):
    files = {"file": ('../../etc/"evil"\r\n.txt', io.BytesIO(zap_text.encode()), "text/plain")}
    page = client.post("/deck", data={"text": ""}, files=files)
    assert page.status_code == 200 and "pokemon-base" in page.text
    files = {"file": ("../../x.txt", io.BytesIO(zap_text.encode()), "text/plain")}
    exported = client.post("/deck/export.txt", data={"text": ""}, files=files)
    assert exported.headers["content-disposition"] == 'attachment; filename="x.txt"'
    binary = client.post("/deck", files={"file": ("deck.txt", io.BytesIO(b"\xff\xfe\x00"), "text/plain")})
    assert binary.status_code == 400 and "not UTF-8" in binary.text


def test_exports(client, zap_text):
    text = client.post("/deck/export.txt", data={"text": zap_text, "lang": "fr"})
    assert text.status_code == 200 and text.text.startswith("Format: pokemon-base\nDeck: 60\n")
    assert "Dracaufeu" not in text.text and "4 Pikachu base1 58" in text.text
    again = client.post(
        "/api/decks/validate", params={"format": "pokemon-base"}, content=text.text, headers={"content-type": "text/plain"}
    ).json()
    assert again["legal"] is True
    data = client.post("/deck/export.json", data={"text": zap_text}).json()
    assert data["format"] == "pokemon-base" and sum(c["count"] for c in data["main"]) == 60


def test_proxies_pdf(client, zap_text):
    from pypdf import PdfReader

    resp = client.post("/deck/proxies.pdf", data={"text": zap_text, "paper": "a4"})
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(resp.content)).pages) == 7
    bad = zap_text.replace("2 Bill", "5 Bill")
    assert client.post("/deck/proxies.pdf", data={"text": bad}).status_code == 400
    forced = client.post("/deck/proxies.pdf", data={"text": bad, "force": "true"})
    assert forced.status_code == 200 and forced.content.startswith(b"%PDF")
    assert client.post("/deck/proxies.pdf", data={"text": zap_text, "paper": "a0"}).status_code == 400


def test_proxies_pdf_caps_the_copies(client):
    """Finding: a forced list of 5,000 ``99 Bill`` lines made a 45 MB PDF in 34 s. The web prints at most
    MAX_PROXIES (600) proxies per request, forced or not; exactly 600 still prints."""
    from pypdf import PdfReader

    from cardlab.web.app import MAX_PROXIES

    assert MAX_PROXIES == 600
    over = client.post("/deck/proxies.pdf", data={"text": "99 Bill\n" * 1000, "force": "true"})
    assert over.status_code == 413
    assert "the deck asks for 99,000 proxies; the web prints at most 600 per request (cardlab proxies has no limit)" in over.text
    assert client.post("/deck/proxies.pdf", data={"text": "99 Bill\n" * 6 + "7 Bill\n", "force": "true"}).status_code == 413
    ok = client.post("/deck/proxies.pdf", data={"text": "99 Bill\n" * 6 + "6 Bill\n", "force": "true"})
    assert ok.status_code == 200
    assert len(PdfReader(io.BytesIO(ok.content)).pages) == 600 // 9 + 1


# --- the rest ----------------------------------------------------------------------------------


def test_pages_and_help(client):
    from cardlab.search.fields import FIELDS

    assert client.get("/", follow_redirects=False).headers["location"] == "/search"
    page = client.get("/search", params={"q": "type:fire hp>=80"})
    assert page.status_code == 200 and page.text.count('<tr data-id="') == 4
    bad = client.get("/search", params={"q": "hp>>80"})
    assert bad.status_code == 400 and "hp&gt;&gt;80\n   ^" in bad.text
    help_page = client.get("/search/help").text
    assert all(f"<code>{name}</code>" in help_page for name in FIELDS)
    assert client.get("/deck").status_code == 200
    assert client.get("/nowhere").status_code == 404


def test_a_search_page_past_the_last_says_so_and_links_to_the_last(client):
    import re

    def count_line(params: dict) -> str:
        resp = client.get("/search", params=params)
        assert resp.status_code == 200
        return re.search(r'<p id="count">(.*?)</p>', resp.text).group(1)

    fire = {"q": "type:fire hp>=80", "sort": "name", "lang": "fr"}
    assert count_line({**fire, "page": 2}) == (
        '4 cards; page 2 is past the last page (<a id="last-page" '
        'href="/search?q=type%3Afire+hp%3E%3D80&amp;sort=name&amp;lang=fr&amp;page=1">1</a>)'
    )
    assert count_line({**fire, "page": 1}) == "4 cards; 1–4 shown"
    base = client.get("/search", params={"q": "set:base1", "page": 9}).text
    assert re.search(r'<p id="count">(.*?)</p>', base).group(1) == (
        '102 cards; page 9 is past the last page (<a id="last-page" href="/search?q=set%3Abase1&amp;sort=number&amp;page=3">3</a>)'
    )
    assert '<a rel="prev" href="/search?q=set%3Abase1&amp;sort=number&amp;page=3">' in base  # not page 8
    assert count_line({"q": "set:base1", "page": 3}) == "102 cards; 101–102 shown"
    assert count_line({"q": "name:nosuchcardname"}) == "0 cards"


def test_security_headers(client):
    for resp in (client.get("/search"), client.get("/api/sets"), client.get("/nowhere"), client.get("/static/style.css")):
        assert "frame-ancestors 'none'" in resp.headers["content-security-policy"]
        assert "script-src" not in resp.headers["content-security-policy"]  # default-src 'none': no script at all
        assert resp.headers["x-content-type-options"] == "nosniff"
    assert "<script" not in client.get("/search", params={"q": "pikachu"}).text


def test_openapi(client):
    spec = client.get("/api/openapi.json").json()
    assert set(spec["paths"]) == {
        "/api/cards/search",
        "/api/cards/{card_id}",
        "/api/sets",
        "/api/decks/validate",
        "/api/decks/have",
        "/api/collections",
        "/api/collections/{name}",
        "/api/collections/{name}/cards",
        "/api/collections/{name}/cards/remove",
    }
    assert "text/plain" in spec["paths"]["/api/decks/validate"]["post"]["requestBody"]["content"]
    assert client.get("/docs").status_code == 404  # no Swagger UI: it would load scripts from a CDN


def test_the_only_writes_are_the_collection_endpoints(client):
    spec = client.get("/api/openapi.json").json()
    methods = {m for ops in spec["paths"].values() for m in ops}
    assert methods == {"get", "post"}
    secured = sorted(path for path, ops in spec["paths"].items() for op in ops.values() if "security" in op)
    assert secured == ["/api/collections/{name}/cards", "/api/collections/{name}/cards/remove"]  # the other POSTs only read


def test_json_is_utf8(client):
    body = client.get("/api/cards/search", params={"q": "set:ippo1"}).content
    assert json.loads(body)["total_cards"] == 0


@pytest.mark.parametrize(("value", "threads"), [("", 4), ("1", 1), (" 64 ", 64), ("8", 8)])
def test_request_threads_per_worker(monkeypatch, value, threads):
    from cardlab.web.app import web_threads

    monkeypatch.setenv("CARDLAB_WEB_THREADS", value)
    assert web_threads() == threads


@pytest.mark.parametrize("value", ["0", "65", "-1", "two", "1.5"])
def test_request_threads_out_of_range_are_refused(monkeypatch, value):
    from cardlab.core.errors import UsageError
    from cardlab.web.app import web_threads

    monkeypatch.setenv("CARDLAB_WEB_THREADS", value)
    with pytest.raises(UsageError, match=f"CARDLAB_WEB_THREADS: a whole number from 1 to 64, not '{value}'"):
        web_threads()
