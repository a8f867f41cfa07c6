"""Saved decks over the web (:mod:`cardlab.web.routes.saved_decks`, issue 30 item 2): the permalink page
for anyone, its downloads, copy and edit into the builder, the 404 page with a search, and the JSON
API with the token and the version check (409)."""

from __future__ import annotations

import pytest

from cardlab.collection import db, saved
from cardlab.web.saved import COOKIE, Draft
from tests.unit.web.support import AUTH, error_of

ZAP_SAVED = "Format: pokemon-base\nDeck: 5\n4 Hitmonchan base1 7\n1 Bill base1 91\n"


@pytest.fixture
def deck(backend):
    return saved.save(db.connect(), ZAP_SAVED, "Punchy")


def test_saved_page_shows_the_deck_to_anyone(client, deck):
    page = client.get(f"/d/{deck.id}")
    assert page.status_code == 200
    assert '<h1 id="deck-name">Punchy</h1>' in page.text
    assert 'data-id="base1-7"><td class="num">4</td>' in page.text
    assert 'data-format="pokemon-base"' in page.text and "not legal" in page.text


def test_an_unknown_permalink_is_a_404_page_with_a_search(client, backend):
    for deck_id in ("AAAAAAAA", "short", "..%2F..%2Fetc"):
        page = client.get(f"/d/{deck_id}")
        assert page.status_code == 404
        assert 'action="/search"' in page.text and 'id="error-q"' in page.text


def test_saved_export_in_every_dialect(client, deck):
    assert client.get(f"/d/{deck.id}/export.ptcgl").text.splitlines()[:2] == ["Pokémon: 1", "4 Hitmonchan BS 7"]
    assert "\nTotal Cards - 5\n" in client.get(f"/d/{deck.id}/export.tcgone").text
    assert client.get(f"/d/{deck.id}/export.json").json()["main"][0] == {"count": 4, "card": "base1-7", "name": "Hitmonchan"}
    assert client.get(f"/d/{deck.id}/export.cardlab").text == ZAP_SAVED
    assert client.get(f"/d/{deck.id}/export.doc").status_code == 404


def test_saved_proxies(client, deck):
    resp = client.get(f"/d/{deck.id}/proxies.pdf", params={"force": "true"})
    assert resp.status_code == 200 and resp.content.startswith(b"%PDF")


def test_copy_and_edit_into_the_builder(client, deck):
    client.cookies.clear()
    resp = client.post(f"/d/{deck.id}/copy", data={"x": "1"}, follow_redirects=False)
    assert (resp.status_code, resp.headers["location"]) == (303, "/build?format=pokemon-base")
    copied = Draft.from_cookie(client.cookies.get(COOKIE))
    assert (copied.cards, copied.deck_id) == ({"base1-7": 4, "base1-91": 1}, None)
    client.post(f"/d/{deck.id}/edit", data={"x": "1"})
    edit = Draft.from_cookie(client.cookies.get(COOKIE))
    assert (edit.deck_id, edit.version) == (deck.id, 1)
    client.cookies.clear()


def test_decks_lists_the_saved_decks(client, deck):
    assert f'<a href="/d/{deck.id}">Punchy</a>' in client.get("/decks").text


def test_api_saved_deck(client, deck):
    data = client.get(f"/api/saved-decks/{deck.id}").json()
    assert (data["object"], data["id"], data["version"], data["cards"], data["text"]) == ("saved_deck", deck.id, 1, 5, ZAP_SAVED)
    error_of(client.get("/api/saved-decks/AAAAAAAA"), 404, "not_found")


def test_api_writes_need_the_token(client, writable, backend):
    error_of(client.post("/api/saved-decks", json={"text": ZAP_SAVED}, headers=AUTH), 403, "writes_disabled")
    error_of(writable.post("/api/saved-decks", json={"text": ZAP_SAVED}), 401, "unauthorized")
    assert saved.saved(db.connect()) == []


def test_api_save_and_edit_with_the_version_check(writable, backend):
    made = writable.post("/api/saved-decks", json={"text": ZAP_SAVED, "name": "Punchy"}, headers=AUTH)
    assert made.status_code == 201
    deck_id = made.json()["id"]
    first = writable.put(f"/api/saved-decks/{deck_id}", json={"text": ZAP_SAVED.replace("1 Bill", "2 Bill"), "version": 1}, headers=AUTH)
    assert (first.status_code, first.json()["version"], first.json()["cards"]) == (200, 2, 6)
    lost = writable.put(f"/api/saved-decks/{deck_id}", json={"text": ZAP_SAVED, "version": 1}, headers=AUTH)
    body = error_of(lost, 409, "version_conflict")
    assert body["current_version"] == 2
    assert saved.get(db.connect(), deck_id).cards == 6  # no lost update
    error_of(writable.put(f"/api/saved-decks/{deck_id}", json={"text": ZAP_SAVED}, headers=AUTH), 400, "bad_body")
    error_of(writable.put("/api/saved-decks/AAAAAAAA", json={"text": ZAP_SAVED, "version": 1}, headers=AUTH), 404, "not_found")


def test_api_refuses_huge_decks_with_their_size(writable, backend):
    body = error_of(writable.post("/api/saved-decks", json={"text": "1 Bill\n" * 1000}, headers=AUTH), 413, "too_large")
    assert body["details"] == "the deck list has 1,000 lines; a saved deck holds at most 500"
    body = error_of(writable.post("/api/saved-decks", json={"text": "99 Bill\n" * 100 + "100 Bill\n"}, headers=AUTH), 413, "too_large")
    assert "10,000 cards" in body["details"]
    assert saved.saved(db.connect()) == []
