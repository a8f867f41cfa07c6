"""The deck builder's routes (:mod:`cardlab.web.routes.builder`, issue 30 item 2), through a TestClient:
the deck being built in its cookie, adding, editing counts, removing, importing, saving (token, 403)
and the downloads. Saved decks are read back through the library."""

from __future__ import annotations

import json

import pytest

from cardlab.collection import saved
from cardlab.web.routes import builder as routes
from cardlab.web.saved import COOKIE, Draft
from tests.unit.web.support import TOKEN


@pytest.fixture
def web(writable):
    writable.cookies.clear()
    yield writable
    writable.cookies.clear()


def add(client, card, count=1, **headers):
    return client.post(
        "/build/add", data={"card": card, "count": str(count), "back": "/search?q=bill"}, headers=headers, follow_redirects=False
    )


def draft_of(client) -> Draft:
    return Draft.from_cookie(client.cookies.get(COOKIE))


def all_saved():
    from cardlab.collection.owned import open_readonly

    return saved.saved(open_readonly())


def test_build_add_keeps_the_card_in_the_cookie_and_goes_back(web):
    resp = add(web, "base1-91", 2)
    assert (resp.status_code, resp.headers["location"]) == (303, "/search?q=bill")
    assert add(web, "Hitmonchan BS 7").status_code == 303  # a reference as collection add takes it
    assert draft_of(web).cards == {"base1-91": 2, "base1-7": 1}


def test_build_add_answers_json_to_the_script(web):
    add(web, "base1-91")
    resp = add(web, "base1-91", 3, accept="application/json")
    assert resp.json() == {"card": "base1-91", "name": "Bill", "count": 4, "total": 4}


def test_build_add_never_redirects_off_the_site(web):
    resp = web.post("/build/add", data={"card": "base1-91", "back": "//evil.example/x"}, follow_redirects=False)
    assert resp.headers["location"] == "/build"
    assert routes.local_path("https://evil.example") == "/build"
    assert routes.local_path("/card/base1-4?lang=fr") == "/card/base1-4?lang=fr"


def test_build_add_an_unknown_card_is_404_with_suggestions(web):
    resp = add(web, "Hitmonchen")
    assert resp.status_code == 404 and "did you mean" in resp.text
    assert draft_of(web).cards == {}


def test_build_page_shows_the_list_verdicts_and_odds(web):
    add(web, "base1-7", 4)
    page = web.get("/build", params={"format": "pokemon-base"})
    assert page.status_code == 200
    assert 'data-id="base1-7"' in page.text and 'value="4"' in page.text
    assert 'data-format="pokemon-base"' in page.text and "not legal" in page.text  # 4 cards, not 60
    assert 'id="odds"' in page.text and 'id="hand"' in page.text


def test_build_set_edits_and_removes(web):
    add(web, "base1-7", 4)
    add(web, "base1-91", 1)
    assert web.post("/build/set", data={"card": "base1-7", "count": "2"}, follow_redirects=False).status_code == 303
    web.post("/build/set", data={"card": "base1-91", "count": "0"})
    assert draft_of(web).cards == {"base1-7": 2}
    assert web.post("/build/set", data={"card": "base1-7", "count": "1000"}).status_code == 400


def test_build_clear_empties_the_deck(web):
    add(web, "base1-7", 4)
    web.post("/build/clear")
    assert draft_of(web).cards == {}
    assert '<span id="deck-total">0</span> cards, 0 different' in web.get("/build").text


def test_build_import_a_pasted_list(web, zap_text):
    resp = web.post("/build/import", data={"text": zap_text + "2 Nosuchcard\n"})
    assert resp.status_code == 200
    draft = draft_of(web)
    assert draft.total == 60 and draft.cards["base1-58"] == 4
    assert "Nosuchcard" in resp.text and "import-note" in resp.text  # the line left out, said


def test_build_import_of_a_thousand_lines_is_refused_with_its_size(web):
    resp = web.post("/build/import", data={"text": "1 Bill\n" * 1000})
    assert resp.status_code == 413 and "1,000 lines; a saved deck holds at most 500" in resp.text
    assert draft_of(web).cards == {}


def test_build_import_of_ten_thousand_cards_is_refused_with_its_size(web):
    resp = web.post("/build/import", data={"text": "99 Bill\n" * 100 + "100 Bill\n"})
    assert resp.status_code == 413 and "10,000 cards" in resp.text


def test_build_save_without_the_token_is_403_and_writes_nothing(web):
    add(web, "base1-7", 4)
    for token in ("", "wrong-token-wrong-token"):
        resp = web.post("/build/save", data={"name": "x", "token": token}, follow_redirects=False)
        assert resp.status_code == 403 and "write token" in resp.text
    assert all_saved() == []


def test_build_save_on_a_read_only_server_is_403(client):
    client.cookies.clear()
    client.cookies.set(COOKIE, "base1-7*4")
    assert client.post("/build/save", data={"token": TOKEN}).status_code == 403
    client.cookies.clear()


def test_build_save_then_edit_with_the_version_check(web, zap_text):
    web.post("/build/import", data={"text": zap_text})
    resp = web.post("/build/save", data={"name": "Zap", "token": TOKEN, "format": "pokemon-base"}, follow_redirects=False)
    assert resp.status_code == 303
    deck_id = resp.headers["location"].removeprefix("/d/")
    record = saved.get(saved_db(), deck_id)
    assert (record.name, record.cards, record.version, record.format) == ("Zap", 60, 1, "pokemon-base")
    assert draft_of(web).deck_id == deck_id  # the builder now edits the saved deck
    web.post("/build/set", data={"card": "base1-58", "count": "3"})
    assert web.post("/build/save", data={"name": "Zap"}, follow_redirects=False).status_code == 303  # the remembered token
    assert saved.get(saved_db(), deck_id).version == 2
    stale = draft_of(web)
    stale.version = 1  # a second tab opened at version 1
    web.cookies.set(COOKIE, stale.cookie())
    resp = web.post("/build/save", data={"name": "other"})
    assert resp.status_code == 409 and "changed by someone else since version 1" in resp.text
    assert saved.get(saved_db(), deck_id).name == "Zap"  # the loser wrote nothing


def saved_db():
    from cardlab.collection import db

    return db.connect()


@pytest.mark.parametrize(("dialect", "first"), [("ptcgl", "Pokémon: 1"), ("limitless", "Pokémon: 4"), ("cardlab", "Format: pokemon-base")])
def test_build_export_every_dialect(web, dialect, first):
    add(web, "base1-7", 4)
    resp = web.get(f"/build/export.{dialect}", params={"format": "pokemon-base"})
    assert resp.status_code == 200 and resp.text.splitlines()[0] == first
    assert "attachment" in resp.headers["content-disposition"]


def test_build_export_json_and_unknown(web):
    add(web, "base1-7", 4)
    assert json.loads(web.get("/build/export.json").text)["main"] == [{"count": 4, "card": "base1-7", "name": "Hitmonchan"}]
    assert web.get("/build/export.mtga").status_code == 404


def test_build_proxies_pdf(web):
    add(web, "base1-7", 4)
    resp = web.get("/build/proxies.pdf", params={"force": "true"})
    assert resp.status_code == 200 and resp.content.startswith(b"%PDF")


def test_a_tampered_cookie_is_read_safely():
    draft = Draft.from_cookie("!AAAAAAAA.3~base1-7*4~../etc*2~base1-91*0~x*9999~" + "a*1~" * 500)
    assert (draft.deck_id, draft.version) == ("AAAAAAAA", 3)
    assert draft.cards["base1-7"] == 4 and "../etc" not in draft.cards and "base1-91" not in draft.cards


def test_the_builder_caps_the_cards_it_holds(web):
    web.cookies.set(COOKIE, "~".join(f"fake-{i}*1" for i in range(150)))
    resp = add(web, "base1-7")
    assert resp.status_code == 413 and "at most 150 different cards" in resp.text
