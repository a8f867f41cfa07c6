"""Collection pages (:mod:`cardlab.web.routes.collection_pages`, issue 30 item 3): browsing with the
query language scoped to owned cards, have/need of a saved or pasted deck, changes and imports with
the write token (403 without it, nothing written). Changes are read back through the library."""

from __future__ import annotations

from cardlab.collection import db, saved
from tests.unit.web.support import TOKEN, give, owned_now


def test_collections_lists_the_players(client, backend):
    give("alice", "base1-7", 2)
    page = client.get("/collections")
    assert page.status_code == 200 and '<a href="/collection/alice">alice</a>' in page.text
    assert client.get("/collections/go", params={"name": "bob"}, follow_redirects=False).headers["location"] == "/collection/bob"


def test_collection_page_searches_the_owned_cards(client, backend):
    give("alice", "base1-7", 2)
    give("alice", "base1-91", 3)
    page = client.get("/collection/alice")
    assert "2 cards, 5 copies." in page.text
    assert 'data-id="base1-7"' in page.text and 'data-id="base1-91"' in page.text
    fighting = client.get("/collection/alice", params={"q": "type:fighting"})
    assert 'data-id="base1-7"' in fighting.text and 'data-id="base1-91"' not in fighting.text
    assert "1 card matching" in fighting.text


def test_a_bad_query_is_shown_with_its_message(client, backend):
    page = client.get("/collection/alice", params={"q": "hp>>"})
    assert page.status_code == 400 and 'id="query-error"' in page.text


def test_have_need_of_a_saved_and_a_pasted_deck(client, backend):
    give("alice", "base1-7", 2)
    deck = saved.save(db.connect(), "Format: pokemon-base\n4 Hitmonchan base1 7\n1 Bill base1 91\n")
    page = client.get("/collection/alice", params={"deck": deck.id})
    assert '<p id="have-total">2 of 5 cards owned, 3 missing.</p>' in page.text
    pasted = client.post("/collection/alice/have", data={"text": "2 Hitmonchan BS 7\n"})
    assert '<p id="have-total">2 of 2 cards owned: complete.</p>' in pasted.text


def test_changes_need_the_token(writable, backend):
    for token in ("", "wrong-wrong-wrong-wrong"):
        resp = writable.post("/collection/alice/change", data={"card": "base1-7", "count": "2", "token": token}, follow_redirects=False)
        assert resp.status_code == 403
    assert owned_now() == {}
    writable.cookies.clear()
    resp = writable.post("/collection/alice/change", data={"card": "Bill BS 91", "count": "2", "token": TOKEN}, follow_redirects=False)
    assert (resp.status_code, resp.headers["location"]) == (303, "/collection/alice?changed=base1-91")
    writable.post("/collection/alice/change", data={"card": "base1-91", "op": "remove"})  # the remembered token
    assert owned_now() == {"base1-91": 1}
    writable.cookies.clear()


def test_import_a_file_through_the_page(writable, backend):
    files = {"file": ("mine.csv", b"card_id,count\nbase1-7,3\nbase1-91,1\n")}
    assert writable.post("/collection/alice/import", files=files, data={"token": ""}).status_code == 403
    assert owned_now() == {}
    page = writable.post("/collection/alice/import", files=files, data={"token": TOKEN})
    assert page.status_code == 200 and "imported 2 rows: 2 cards, 4 copies." in page.text
    assert owned_now() == {"base1-7": 3, "base1-91": 1}
    bad = writable.post(
        "/collection/alice/import", files={"file": ("bad.csv", b"card_id,count\nbase1-7,3\nnosuch-1,1\n")}, data={"token": TOKEN}
    )
    assert bad.status_code == 400 and "not imported: bad.csv:3:1: no card nosuch-1 in the catalog" in bad.text
    assert owned_now() == {"base1-7": 3, "base1-91": 1}  # all or nothing
    writable.cookies.clear()
