"""Scryfall's lookups in the API (:mod:`cardlab.web.routes.lookup_api`): ``/api/cards/named``,
``/api/cards/autocomplete``, ``/api/cards/<set>/<number>``, ``/api/sets/<code>``; and the search
API's Scryfall parameters (``order``, ``dir``, ``unique``) and warnings for parameters it does not read."""

from __future__ import annotations

import shutil

import pytest

from tests.unit.web.support import error_of


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    """A TestClient on an app over Base Set, Jungle, Base Set 2 (reprints) and the Black Star promos
    (six cards named Pikachu)."""
    from fastapi.testclient import TestClient

    from cardlab.core.paths import shipped_catalog
    from cardlab.web.app import create_app

    root = tmp_path_factory.mktemp("wide") / "catalog"
    for part in ("base1", "base2", "base4", "basep", "formats"):
        shutil.copytree(shipped_catalog() / "pokemon" / part, root / "pokemon" / part)
    with TestClient(create_app([root], root.parent / "index.sqlite")) as c:
        yield c


@pytest.mark.parametrize(
    ("params", "card"),
    [
        ({"exact": "Charizard"}, "base1-4"),
        ({"exact": "charizard"}, "base1-4"),
        ({"exact": "DRACAUFEU"}, "base1-4"),  # any language, any case
        ({"fuzzy": "charzard"}, "base1-4"),
        ({"fuzzy": "farfetchd"}, "base1-27"),
        ({"exact": "Pikachu", "set": "BS"}, "base1-58"),
    ],
)
def test_named(client, params, card):
    body = client.get("/api/cards/named", params=params).json()
    assert (body["object"], body["id"]) == ("card", card)
    assert "warnings" not in body


def test_named_ambiguous_is_scryfalls_404(wide):
    err = error_of(wide.get("/api/cards/named", params={"exact": "Pikachu"}), 404, "ambiguous")
    assert err["choices"] == ["base1-58", "base2-60", "basep-1", "basep-4", "basep-26", "basep-27"]
    assert "set=" in err["details"]
    assert wide.get("/api/cards/named", params={"exact": "Pikachu", "set": "jungle"}).json()["id"] == "base2-60"
    assert wide.get("/api/cards/named", params={"fuzzy": "pikachu", "set": "basep"}).status_code == 404  # four in the promos


def test_named_not_found_suggests(client):
    err = error_of(client.get("/api/cards/named", params={"exact": "Charzard"}), 404, "not_found")
    assert err["suggestions"][0] == "Charizard"
    err = error_of(client.get("/api/cards/named", params={"fuzzy": "zqxwvy"}), 404, "not_found")
    assert err["suggestions"] == []
    error_of(client.get("/api/cards/named", params={"exact": "Charizard", "set": "nope"}), 404, "not_found")
    error_of(client.get("/api/cards/named"), 400, "bad_parameter")
    error_of(client.get("/api/cards/named", params={"exact": "a", "fuzzy": "b"}), 400, "bad_parameter")
    error_of(client.get("/api/cards/named", params={"exact": "x" * 201}), 400, "bad_parameter")
    error_of(client.get("/api/cards/named", params={"exact": " "}), 400, "bad_request")


def test_named_warns_of_unknown_parameters(client):
    body = client.get("/api/cards/named", params={"exact": "Charizard", "format": "json", "pretty": "1"}).json()
    assert body["id"] == "base1-4"
    assert [w.split("'")[1] for w in body["warnings"]] == ["format", "pretty"]


def test_card_by_id_warns_of_unknown_parameters(client):
    assert "warnings" not in client.get("/api/cards/base1-4", params={"lang": "fr"}).json()
    body = client.get("/api/cards/base1-4", params={"format": "image"}).json()
    assert (body["id"], body["warnings"]) == ("base1-4", ["unknown parameter 'format' was ignored; this endpoint reads: lang"])


def test_card_by_set_and_number(client):
    for path in ("/api/cards/base1/4", "/api/cards/BS/4", "/api/cards/bs/4"):
        assert client.get(path).json()["id"] == "base1-4"
    err = error_of(client.get("/api/cards/base1/103"), 404, "not_found")
    assert err["details"] == "no card 'base1 103'"
    err = error_of(client.get("/api/cards/bas1/4"), 404, "not_found")
    assert "base1" in err["suggestions"]


def test_set_by_code(client):
    for code in ("base1", "BS", "base", "bs"):
        body = client.get(f"/api/sets/{code}").json()
        assert (body["object"], body["code"], body["name"], body["printed_total"], body["recorded"]) == (
            "set",
            "base1",
            "Base Set",
            102,
            102,
        )
    assert client.get("/api/sets/BS", params={"lang": "fr"}).json()["name"] == "Set de Base"
    assert client.get("/api/sets/BS").json()["aliases"] == ["BS", "base"]
    err = error_of(client.get("/api/sets/bse1"), 404, "not_found")
    assert "base1" in err["suggestions"]
    assert err["details"].startswith("no set 'bse1'; did you mean ")
    # in the request's language, as the card lookup's message
    err = error_of(client.get("/api/sets/bse1", headers={"Accept-Language": "fr"}), 404, "not_found")
    assert err["details"].startswith("aucune extension « bse1 » ; vouliez-vous dire ")
    assert "base1" in err["details"]


def test_autocomplete_catalog(client):
    body = client.get("/api/cards/autocomplete", params={"q": "char"}).json()
    assert body == {"object": "catalog", "total_values": 3, "data": ["Charizard", "Charmander", "Charmeleon"]}
    assert client.get("/api/cards/autocomplete", params={"q": "c"}).json() == {"object": "catalog", "total_values": 0, "data": []}
    assert client.get("/api/cards/autocomplete", params={"q": "dracau"}).json()["data"] == ["Dracaufeu"]
    assert (
        client.get("/api/cards/autocomplete", params={"q": "char", "limit": "3"})
        .json()["warnings"][0]
        .startswith("unknown parameter 'limit'")
    )


def test_search_scryfall_parameters(client):
    def ids(**params):
        return [c["id"] for c in client.get("/api/cards/search", params={"q": "type:fire hp>=80", **params}).json()["data"]]

    by_hp = ids(order="hp")
    assert by_hp == ids(sort="hp") and by_hp[0] in {"base1-12", "base1-23", "base1-24"}  # 80 HP first
    assert ids(order="hp", dir="desc") == ids(sort="hp", reverse="true")
    assert ids(order="hp", dir="desc")[0] == "base1-4"  # Charizard, 120 HP
    assert ids(order="hp", dir="auto") == by_hp == ids(order="hp", dir="asc")
    assert ids(unique="cards") == ids(unique="prints")  # Base Set alone: every card has one printing here


def test_search_parameter_errors_and_warnings(client):
    error_of(client.get("/api/cards/search", params={"q": "x", "dir": "up"}), 400, "bad_parameter")
    err = error_of(client.get("/api/cards/search", params={"q": "x", "unique": "art"}), 400, "bad_parameter")
    assert "unique=prints" in err["details"]
    error_of(client.get("/api/cards/search", params={"q": "x", "order": "hp", "sort": "name"}), 400, "bad_parameter")
    error_of(client.get("/api/cards/search", params={"q": "x", "dir": "asc", "reverse": "true"}), 400, "bad_parameter")
    error_of(client.get("/api/cards/search", params={"q": "x", "order": "usd"}), 400, "bad_request")  # the engine's unknown sort key
    body = client.get("/api/cards/search", params={"q": "charizard", "include_extras": "true", "format": "csv"}).json()
    assert [c["id"] for c in body["data"]] == ["base1-4"]
    assert body["warnings"] == [
        "unknown parameter 'include_extras' was ignored; this endpoint reads: q, sort, order, dir, reverse, unique, lang, page, page_size, cursor",
        "unknown parameter 'format' was ignored; this endpoint reads: q, sort, order, dir, reverse, unique, lang, page, page_size, cursor",
    ]
    assert "warnings" not in client.get("/api/cards/search", params={"q": "charizard"}).json()
    assert client.get("/api/sets", params={"page": "2"}).json()["warnings"][0].startswith("unknown parameter 'page'")


def test_search_unique_cards_collapses_printings(wide):
    def ids(**params):
        return [c["id"] for c in wide.get("/api/cards/search", params={"q": "charizard", **params}).json()["data"]]

    assert ids() == ids(unique="prints") == ["base1-4", "base4-4"]  # Base Set's and Base Set 2's
    assert ids(unique="cards") == ["base1-4"]
    assert wide.get("/api/cards/named", params={"exact": "Charizard"}).json()["id"] == "base1-4"  # the first printing
