"""The site's catalog (:class:`cardlab.web.state.Site`, issue 29): opened from a fresh index
(:func:`cardlab.index.stored.open_catalog`), never validated in memory; a stale index rebuilt, then
opened; a catalog with problems still refused; shared safely by the worker threads; and no route
loads every card."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from cardlab.core.errors import CatalogError
from cardlab.index.sqlite import connect, data_decoder, stored_meta
from cardlab.index.stored import StoredCatalog
from cardlab.web.state import Site


def _no_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every whole-catalog validation in memory fail the test."""
    import cardlab.catalog.validate
    import cardlab.index.stored

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the catalog was validated in memory")

    monkeypatch.setattr(cardlab.catalog.validate, "validate", refuse)
    monkeypatch.setattr(cardlab.index.stored, "validate", refuse)


def test_a_fresh_index_is_opened_without_validating(web_app, monkeypatch):
    _no_validation(monkeypatch)
    site = Site(web_app.site.roots, web_app.site.db)
    assert isinstance(site.catalog, StoredCatalog)
    assert site.catalog.name_of("base1-4", ["fr"]) == "Dracaufeu"
    assert list(site.formats) == list(web_app.site.formats)
    assert "pokemon-base" in site.formats
    assert dict.__len__(site.catalog.cards) == 1  # the card asked for, none other


def test_a_stale_index_is_rebuilt_then_opened(test_set, tmp_path):
    db = tmp_path / "index.sqlite"
    first = Site([test_set], db)
    assert first.catalog.name_of("test1-1", ["fr"]) == "Testemon"
    built = stored_meta(db)["fingerprint"]
    card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("fr: Testemon,", "fr: Testemonne,"), encoding="utf-8")
    site = Site([test_set], db)
    assert stored_meta(db)["fingerprint"] != built
    assert isinstance(site.catalog, StoredCatalog)
    assert site.catalog.name_of("test1-1", ["fr"]) == "Testemonne"
    assert site.catalog.set_sizes() == {"test1": 4}


def test_a_catalog_with_problems_is_refused(test_set, tmp_path):
    bad = test_set / "pokemon" / "test1" / "9-draft.yaml"
    bad.write_text('id: test1-9\nnumber: "9"\nname: {en: Draftmon}\n', encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        Site([test_set], tmp_path / "index.sqlite")
    assert sorted({p.pos.path.name for p in err.value.problems}) == ["9-draft.yaml"]


def test_threads_share_the_catalog(web_app):
    site = Site(web_app.site.roots, web_app.site.db)
    con = connect(web_app.site.db)
    decode = data_decoder(con)
    expected = {cid: (decode(data), code) for cid, data, code in con.execute("SELECT id, data, set_code FROM card ORDER BY pos")}
    con.close()
    ids = list(expected) * 4  # each card asked for by several threads at once

    def read(card_id: str) -> tuple[dict, str, str]:
        catalog = site.catalog
        return catalog.cards[card_id], catalog.card_set[card_id], catalog.oracle_of(card_id)

    with ThreadPoolExecutor(max_workers=16) as pool:
        got = list(pool.map(read, ids))
    assert len(expected) == 102  # the Base Set
    assert [(card, code) for card, code, _oracle in got] == [expected[i] for i in ids]
    assert all(oracle in expected for _card, _code, oracle in got)


def test_no_route_loads_every_card(web_app, zap_text):
    """The pages and API answers of one card, a set, every set, a deck and a face read the cards
    they show, never the whole catalog (at 100,000 cards, seconds and hundreds of MiB a request)."""
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app
    from tests.unit.web.support import AUTH, TOKEN

    app = create_app(web_app.site.roots, web_app.site.db, allow_writes=True, token=TOKEN)
    catalog = app.site.catalog
    with TestClient(app) as client:
        for path in (
            "/api/sets",
            "/sets",
            "/api/sets/BS",
            "/api/cards/base1-4",
            "/card/base1-4",
            "/search?q=t:pokemon",
            "/cards/base1-24.svg",
        ):
            assert client.get(path, params={"lang": "fr"}).status_code == 200, path
        assert client.get("/api/cards/named", params={"fuzzy": "charizard"}).json()["id"] == "base1-4"
        report = client.post("/api/decks/validate", content=zap_text, headers={"content-type": "text/plain"}).json()
        assert "pokemon-base" in report["legal_in"]
        assert client.post("/api/collections/alice/cards", json={"card": "base1-4", "count": 1}, headers=AUTH).status_code == 200
        typo = client.post("/api/collections/alice/cards", json={"card": "base1-4x"}, headers=AUTH)
        assert typo.status_code == 404 and "base1-4" in typo.json()["details"]
        assert client.post("/build/add", data={"card": "Charizard"}, headers={"accept": "application/json"}).json()["card"] == "base1-4"
    for part in (catalog.cards, catalog.paths, catalog.own, catalog.reprints):
        assert part._whole is False
    assert 0 < dict.__len__(catalog.cards) < 60  # of 124 cards


def test_every_sets_numbers_are_read_once(web_app, monkeypatch):
    """``/api/sets`` and ``/sets`` list the numbers still missing in every set: read from the index
    on the first answer, kept for the next ones (every card's number: 0.2 s at 100,000 cards)."""
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    app = create_app(web_app.site.roots, web_app.site.db)
    catalog = app.site.catalog
    asked: list[str] = []
    read = catalog.set_numbers
    monkeypatch.setattr(catalog, "set_numbers", lambda code: asked.append(code) or read(code))
    with TestClient(app) as client:
        first = client.get("/api/sets").json()["data"]
        assert client.get("/sets").status_code == 200
        again = client.get("/api/sets", params={"lang": "fr"}).json()["data"]
    base = next(s for s in first if s["code"] == "base1")
    assert (base["recorded"], base["printed_total"], base["missing"]) == (102, 102, "none missing")
    assert [s["code"] for s in again] == [s["code"] for s in first]
    assert sorted(asked) == sorted({s["code"] for s in first if s["printed_total"] is not None})
