"""Collections over the web (:mod:`cardlab.web.routes.collection_api`, issue 14): the read endpoints,
the write endpoints behind ``--allow-writes`` and a token, hostile bodies and names. Each change is
read back through the library (:mod:`cardlab.collection.owned`)."""

from __future__ import annotations

import os

import pytest

from tests.unit.web.support import AUTH, TOKEN, error_of, give, owned_now

LOOK_ALIKE = "full-width and other compatibility characters would make two names look alike;"


ADD = "/api/collections/alice/cards"


HIDDEN = "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)"


REMOVE = "/api/collections/alice/cards/remove"


def test_writes_disabled_answer_403(client, tmp_path):
    for path in (ADD, REMOVE):
        err = error_of(client.post(path, json={"card": "base1-4"}, headers=AUTH), 403, "writes_disabled")
        assert "--allow-writes" in err["details"]
    assert not (tmp_path / "cardlab-data").exists()  # nothing was opened, let alone written


def test_no_token_and_wrong_tokens_answer_401(writable):
    for headers in ({}, {"authorization": "Bearer "}, {"authorization": f"Basic {TOKEN}"}, {"authorization": TOKEN}):
        resp = writable.post(ADD, json={"card": "base1-4"}, headers=headers)
        err = error_of(resp, 401, "unauthorized")
        assert err["details"] == "a collection write needs the server's token: Authorization: Bearer <token>"
        assert resp.headers["www-authenticate"] == 'Bearer realm="cardlab"'
    for wrong in (TOKEN[:-1], TOKEN + "x", TOKEN.upper(), "é" * 20):
        resp = writable.post(REMOVE, json={"card": "base1-4"}, headers={"authorization": f"Bearer {wrong}".encode()})
        assert error_of(resp, 401, "unauthorized")["details"] == "wrong token"
    assert owned_now() == {}


def test_right_token_adds_and_removes(writable, backend):
    resp = writable.post(ADD, json={"card": "base1-4", "count": 3}, headers=AUTH)
    assert resp.status_code == 200
    assert resp.json() == {"object": "collection_change", "collection": "alice", "action": "add", "card": "base1-4", "count": 3, "owned": 3}
    assert owned_now() == {"base1-4": 3}
    # a name, a set and number, a count inside the card text: as `cardlab collection add` takes them
    assert writable.post(ADD, json={"card": "Bill"}, headers=AUTH).json()["owned"] == 1
    assert writable.post(ADD, json={"card": "BS 91", "count": 2}, headers=AUTH).json()["owned"] == 3
    assert writable.post(ADD, json={"card": "2 Dracaufeu"}, headers=AUTH).json()["owned"] == 5
    assert owned_now() == {"base1-4": 5, "base1-91": 3}
    resp = writable.post(REMOVE, json={"card": "base1-4", "count": 4}, headers=AUTH)
    assert resp.json() == {
        "object": "collection_change",
        "collection": "alice",
        "action": "remove",
        "card": "base1-4",
        "count": 4,
        "owned": 1,
    }
    assert writable.post(REMOVE, json={"card": "base1-4"}, headers=AUTH).json()["owned"] == 0
    assert owned_now() == {"base1-91": 3}
    assert owned_now("bob") == {}


def test_removing_more_than_owned_changes_nothing(writable):
    give("alice", "base1-91", 2)
    err = error_of(writable.post(REMOVE, json={"card": "base1-91", "count": 3}, headers=AUTH), 409, "not_owned")
    assert err["details"] == "alice owns 2 of base1-91; cannot remove 3"
    error_of(writable.post(REMOVE, json={"card": "base1-4"}, headers=AUTH), 409, "not_owned")
    assert owned_now() == {"base1-91": 2}


def test_a_change_over_the_limit_is_rolled_back(writable):
    # the upsert adds first, then the count is found too large: the transaction leaves the old count
    give("alice", "base1-4", 999_999)
    err = error_of(writable.post(ADD, json={"card": "base1-4", "count": 2}, headers=AUTH), 400, "bad_count")
    assert err["details"] == "alice would own 1,000,001 of base1-4; at most 1,000,000"
    assert owned_now() == {"base1-4": 999_999}


def test_unknown_card_404_with_suggestions(writable, web_app, runner):
    from cardlab.cli.whole import app

    err = error_of(writable.post(ADD, json={"card": "Charizzard"}, headers=AUTH), 404, "not_found")
    assert err["details"] == 'unknown card "Charizzard"; did you mean "Charizard"?; nothing was changed'
    for card in ("Charizzard", "base1-400", "Dracofeu"):
        details = error_of(writable.post(ADD, json={"card": card}, headers=AUTH), 404, "not_found")["details"]
        catalog = [a for root in web_app.site.roots for a in ("--catalog", str(root))]
        cli = runner.invoke(app, ["collection", "add", card, "--player", "alice", *catalog])
        assert (cli.exit_code, cli.stderr) == (1, f"error: {details}\n")  # the CLI's words, suggestions included
    assert owned_now() == {}


@pytest.mark.parametrize(
    ("count", "details"),
    [
        (0, "count 0 is not allowed: a count is a whole number from 1 to 1,000,000"),
        (-1, "count -1 is not allowed: a count is a whole number from 1 to 1,000,000"),
        (1_000_001, "count 1,000,001 is too large (at most 1,000,000 copies of a card)"),
        (10**30, "count 1,000,000,000,000,000,000,000,000,000,000 is too large (at most 1,000,000 copies of a card)"),
        # findings: text and null were taken though the OpenAPI description says integer
        (2.5, "count is a JSON integer from 1 to 1,000,000 (or absent: 1), not 2.5"),
        (True, "count is a JSON integer from 1 to 1,000,000 (or absent: 1), not true"),
        ([1], "count is a JSON integer from 1 to 1,000,000 (or absent: 1), not [1]"),
        ("x", 'count is a JSON integer from 1 to 1,000,000 (or absent: 1), not "x"'),
        ("3", 'count is a JSON integer from 1 to 1,000,000 (or absent: 1), not "3"'),
        (None, "count is a JSON integer from 1 to 1,000,000 (or absent: 1), not null"),
        ("é" * 50, 'count is a JSON integer from 1 to 1,000,000 (or absent: 1), not "' + "é" * 36 + "..."),
    ],
)
def test_bad_counts(writable, count, details):
    for path in (ADD, REMOVE):
        assert error_of(writable.post(path, json={"card": "base1-4", "count": count}, headers=AUTH), 400, "bad_count")["details"] == details
    assert owned_now() == {}


def test_an_ambiguous_name_is_400_with_the_choices(web_app, tmp_path_factory):
    """Finding: a name with several printings answered 404 ``not_found``; it is 400 ``ambiguous`` with
    the printings' ids, as a search's ambiguity is (here Charizard of Base Set and Base Set 2)."""
    import shutil

    from fastapi.testclient import TestClient

    from cardlab.core.paths import shipped_catalog
    from cardlab.web.app import create_app

    root = tmp_path_factory.mktemp("two-sets")
    for part in ("base1", "base2", "base3", "base4", "formats"):  # Base Set 2 reprints cards of Jungle and Fossil
        shutil.copytree(shipped_catalog() / "pokemon" / part, root / "pokemon" / part)
    app = create_app([root], root.parent / "two-sets.sqlite", allow_writes=True, token=TOKEN)
    with TestClient(app) as c:
        err = error_of(c.post(ADD, json={"card": "2 Charizard"}, headers=AUTH), 400, "ambiguous")
        assert err["choices"] == ["base1-4", "base4-4"]
        assert err["details"].startswith('"Charizard" has 2 printings: base1 4 (base1-4), base4 4 (base4-4);')
        assert err["details"].endswith("; nothing was changed")
        assert c.post(ADD, json={"card": "BS 4"}, headers=AUTH).json()["card"] == "base1-4"
        error_of(c.post(ADD, json={"card": "Charizzard"}, headers=AUTH), 404, "not_found")
    assert owned_now() == {"base1-4": 1}


def test_a_count_given_twice(writable):
    err = error_of(writable.post(ADD, json={"card": "2 Bill", "count": 3}, headers=AUTH), 400, "bad_count")
    assert err["details"] == "'2 Bill' holds a count and count gives one; give the count once"  # was "-n", a CLI flag
    err = error_of(writable.post(ADD, json={"card": "-1 Bill"}, headers=AUTH), 400, "bad_count")
    assert err["details"].startswith("'-1 Bill': count -1 is not allowed")


@pytest.mark.parametrize(
    ("name", "details"),
    [
        ("%20", "bad player name ' ': give a non-empty name on one line"),
        ("a%01b", "bad player name 'a\\x01b': give a non-empty name on one line"),
        ("a" * 65, f"bad player name '{'a' * 65}': at most 64 characters (it has 65)"),
        ("a%5Cb", "bad player name 'a\\\\b': a name holds no '/' or '\\' and is not '.' or '..'"),
        ("..%5Cx", "bad player name '..\\\\x': a name holds no '/' or '\\' and is not '.' or '..'"),
        # findings: invalid UTF-8 (read as U+FFFD), NEL (stripped: %C2%85x wrote to "x"), U+2028,
        # zero-width and bidi-override look-alikes
        ("%FF%FE", f"bad player name '\ufffd\ufffd': {HIDDEN}"),
        ("%C2%85x", f"bad player name '\\x85x': {HIDDEN}"),
        ("a%E2%80%A8b", f"bad player name 'a\\u2028b': {HIDDEN}"),
        ("a%E2%80%A9", f"bad player name 'a\\u2029': {HIDDEN}"),
        ("ali%E2%80%8Bce", f"bad player name 'ali\\u200bce': {HIDDEN}"),
        ("%E2%80%AEecila", f"bad player name '\\u202eecila': {HIDDEN}"),
        ("alice%EF%BB%BF", f"bad player name 'alice\\ufeff': {HIDDEN}"),
        # a full-width look-alike of alice
        ("%EF%BD%81lice", f"bad player name '\uff41lice': {LOOK_ALIKE} write 'alice'"),
    ],
)
def test_bad_collection_names(writable, name, details):
    for resp in (
        writable.post(f"/api/collections/{name}/cards", json={"card": "base1-4"}, headers=AUTH),
        writable.post(f"/api/collections/{name}/cards/remove", json={"card": "base1-4"}, headers=AUTH),
        writable.get(f"/api/collections/{name}"),
        writable.post(f"/api/decks/have?collection={name}", content="4 Bill\n", headers={"content-type": "text/plain"}),
    ):
        assert error_of(resp, 400, "bad_name")["details"] == details
    assert not (os.environ.get("CARDLAB_DATA") and os.path.exists(os.environ["CARDLAB_DATA"]))


@pytest.mark.parametrize("path", ["/api/collections/..%2Fx/cards", "/api/collections//cards", "/api/collections/../x/cards"])
def test_names_that_are_not_one_path_segment(writable, path):
    # a slash never reaches a name: no route matches (Starlette decodes %2F before routing)
    error_of(writable.post(path, json={"card": "base1-4"}, headers=AUTH), 404, "not_found")
    assert owned_now() == {}


def test_dot_names(writable):
    from cardlab.collection.owned import check_player
    from cardlab.core.errors import UsageError

    for name in (".", ".."):
        with pytest.raises(UsageError, match="is not '.' or '..'"):
            check_player(name)
    assert check_player(" ...x ") == "...x"


def test_deep_json_and_lone_surrogates_are_400(writable):
    """Findings: ``[`` x 1000 raised RecursionError (500); ``{"card": "\\ud800"}`` raised
    UnicodeEncodeError building the reply (500). Both are 400 ``bad_json`` now, nothing written."""
    json_ctype = {**AUTH, "content-type": "application/json"}
    for deep in (b"[" * 1000, b'{"card": ' + b"[" * 2000 + b"]" * 2000 + b"}"):
        err = error_of(writable.post(ADD, content=deep, headers=json_ctype), 400, "bad_json")
        assert err["details"] == "the body is not JSON cardlab reads: arrays or objects nested too deep"
    hint = "a \\ud800 to \\udfff escape alone is not a character"
    err = error_of(writable.post(ADD, content=b'{"card": "\\ud800"}', headers=json_ctype), 400, "bad_json")
    assert err["details"] == f"card is not UTF-8 text at character 1; {hint}"
    err = error_of(writable.post(REMOVE, content=b'{"card": "Bill", "count": "1\\udc80"}', headers=json_ctype), 400, "bad_json")
    assert err["details"] == f"count is not UTF-8 text (byte 0x80) at character 2; {hint}"
    # a pair of surrogate escapes is one character: read as such (an unknown card here)
    error_of(writable.post(ADD, content=b'{"card": "\\ud83d\\ude00"}', headers=json_ctype), 404, "not_found")
    assert owned_now() == {}


def test_bodies(writable):
    json_ctype = {**AUTH, "content-type": "application/json"}
    big = b'{"card": "base1-4", "pad": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    assert "larger than 147,456 bytes" in error_of(writable.post(ADD, content=big, headers=json_ctype), 413, "too_large")["details"]
    # under the server's cap, over a collection write's
    medium = b'{"card": "' + b"x" * 5000 + b'"}'
    assert error_of(writable.post(ADD, content=medium, headers=json_ctype), 413, "too_large")["details"] == (
        "the request body is larger than 4,096 bytes"
    )
    assert error_of(writable.post(ADD, content=b"card=base1-4", headers=json_ctype), 400, "bad_json")["details"].startswith(
        "the body is not JSON: Expecting value"
    )
    error_of(writable.post(ADD, content=b'{"card": "base1-4"', headers=json_ctype), 400, "bad_json")
    error_of(writable.post(ADD, content=b'{"card": "\xff"}', headers=json_ctype), 400, "bad_json")
    err = error_of(writable.post(ADD, content="base1-4", headers={**AUTH, "content-type": "text/plain"}), 415, "unsupported_media_type")
    assert err["details"] == "send a JSON object as application/json (got text/plain)"
    error_of(writable.post(ADD, content=b'{"card": "base1-4"}', headers=AUTH), 415, "unsupported_media_type")
    for body in ([], ["base1-4"], {"count": 1}, {"card": 4}, {"card": "base1-4", "player": "bob"}, "base1-4"):
        err = error_of(writable.post(ADD, json=body, headers=AUTH), 400, "bad_body")
        assert err["details"] == 'send {"card": "<id, set and number, or name>", "count": N} (count optional, default 1)'
    assert owned_now() == {}


def test_write_methods(writable):
    for resp in (writable.get(ADD), writable.delete(ADD), writable.put("/api/collections/alice", json={})):
        assert error_of(resp, 405, "method_not_allowed")["details"] == "Method Not Allowed"


def test_list_and_read_collections(client):
    assert client.get("/api/collections").json() == {"object": "list", "has_more": False, "total": 0, "data": []}
    give("alice", "base1-4", 2)
    give("alice", "base1-91", 1)
    give("bob", "base1-58", 4)
    body = client.get("/api/collections").json()
    assert body["data"] == [{"object": "collection", "name": "alice"}, {"object": "collection", "name": "bob"}]
    body = client.get("/api/collections/alice").json()
    assert {k: body[k] for k in ("object", "collection", "total_cards", "total_copies", "has_more", "next_page")} == {
        "object": "list",
        "collection": "alice",
        "total_cards": 2,
        "total_copies": 3,
        "has_more": False,
        "next_page": None,
    }
    assert [(c["object"], c["id"], c["count"], c["name"], c["in_catalog"]) for c in body["data"]] == [
        ("owned_card", "base1-4", 2, "Charizard", True),
        ("owned_card", "base1-91", 1, "Bill", True),
    ]
    only = client.get("/api/collections/alice", params={"q": "type:fire"}).json()
    assert [c["id"] for c in only["data"]] == ["base1-4"]
    assert client.get("/api/collections/nobody").json()["total_cards"] == 0  # as `collection list --player nobody`
    err = error_of(client.get("/api/collections/alice", params={"q": "hp>>1"}), 400, "bad_query")
    assert err["column"] == 4
    error_of(client.get("/api/collections/alice", params={"page": 0}), 400, "bad_parameter")


def test_collection_pages(client):
    from cardlab.collection import db, owned

    owned.change(db.connect(), "carol", [("add", f"base1-{i}", 1) for i in range(1, 61)])
    first = client.get("/api/collections/carol").json()
    assert (first["total_cards"], len(first["data"]), first["has_more"]) == (60, 50, True)
    assert first["next_page"] == "/api/collections/carol?page=2"
    second = client.get("/api/collections/carol", params={"page": 2}).json()
    assert (len(second["data"]), second["has_more"], second["data"][-1]["id"]) == (10, False, "base1-60")


def test_next_page_encodes_the_name_and_ignores_the_host_header(client):
    """Findings: next_page held the name unencoded (``a?b#c``) and was built from the client's Host
    header (``Host: evil.example``). It is now relative, the name one percent-encoded segment."""
    from cardlab.collection import db, owned

    owned.change(db.connect(), "a?b#c %", [("add", f"base1-{i}", 1) for i in range(1, 61)])
    first = client.get("/api/collections/a%3Fb%23c%20%25", params={"q": "set:base1"}, headers={"host": "evil.example"}).json()
    assert first["next_page"] == "/api/collections/a%3Fb%23c%20%25?q=set%3Abase1&page=2"
    second = client.get(first["next_page"]).json()
    assert (second["collection"], len(second["data"]), second["has_more"]) == ("a?b#c %", 10, False)
    search = client.get("/api/cards/search", params={"q": "set:base1"}, headers={"host": "evil.example"}).json()
    assert search["next_page"].startswith("/api/cards/search?q=set%3Abase1&cursor=")  # relative, a cursor (issue 29)
    assert client.get(search["next_page"]).json()["data"][0]["id"] == "base1-51"
