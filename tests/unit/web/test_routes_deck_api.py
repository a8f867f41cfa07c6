"""The deck API (:mod:`cardlab.web.routes.deck_api`): ``POST /api/decks/validate`` and
``POST /api/decks/have``, the deck size caps (:mod:`cardlab.web.limits`)."""

from __future__ import annotations

import io

from tests.unit.web.support import error_of, give


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


def test_deck_lists_over_128_kb(client):
    from cardlab.web.limits import MAX_DECK_TEXT

    big = "4 Qwerty\n" * (MAX_DECK_TEXT // 9 + 10)  # within the body cap, over the deck cap
    assert MAX_DECK_TEXT < len(big) < MAX_DECK_TEXT + 16 * 1024
    error_of(client.post("/api/decks/validate", content=big, headers={"content-type": "text/plain"}), 413, "too_large")
    assert client.post("/deck", files={"file": ("big.txt", io.BytesIO(big.encode()), "text/plain")}).status_code == 413
    assert client.post("/deck", data={"text": big}).status_code == 413


def test_deck_lists_over_1000_lines(client):
    """Finding: 128 kB of short unknown names took 2.4 s on every deck route. The web checks at most
    MAX_DECK_LINES (1,000) lines, counted as the deck parser counts them."""
    from cardlab.web.limits import MAX_DECK_LINES

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


def test_deck_have_api(client, zap_text):
    give("alice", "base1-58", 4)
    give("alice", "base1-91", 1)
    plain = {"content-type": "text/plain"}
    body = client.post("/api/decks/have", params={"collection": "alice", "format": "pokemon-base"}, content=zap_text, headers=plain).json()
    assert (body["object"], body["player"], body["need"], body["missing"], body["complete"]) == ("deck_have", "alice", 60, 55, False)
    rows = {c["id"]: (c["need"], c["own"], c["missing"]) for c in body["cards"]}
    assert rows["base1-58"] == (4, 4, 0) and rows["base1-91"] == (2, 1, 1)
    error_of(client.post("/api/decks/have", content=zap_text, headers=plain), 400, "bad_parameter")
    error_of(client.post("/api/decks/have", params={"collection": "alice"}, json={"x": 1}), 415, "unsupported_media_type")
    error_of(client.post("/api/decks/have", params={"collection": "alice"}, content="# nothing\n", headers=plain), 400, "bad_deck")
