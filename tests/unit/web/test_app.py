"""The app factory (:mod:`cardlab.web.app`): the OpenAPI description, writes only with a token, the
request threads per worker."""

from __future__ import annotations

import pytest

from tests.unit.web.support import TOKEN


def test_openapi(client):
    spec = client.get("/api/openapi.json").json()
    assert set(spec["paths"]) == {
        "/api/cards/named",
        "/api/cards/autocomplete",
        "/api/cards/{set_code}/{number}",
        "/api/sets/{code}",
        "/api/cards/search",
        "/api/cards/{card_id}",
        "/api/sets",
        "/api/decks/validate",
        "/api/decks/have",
        "/api/collections",
        "/api/collections/{name}",
        "/api/collections/{name}/cards",
        "/api/collections/{name}/cards/remove",
        "/api/saved-decks",
        "/api/saved-decks/{deck_id}",
    }
    assert "text/plain" in spec["paths"]["/api/decks/validate"]["post"]["requestBody"]["content"]
    assert client.get("/docs").status_code == 404  # no Swagger UI: it would load scripts from a CDN


def test_the_only_writes_are_the_collection_and_saved_deck_endpoints(client):
    spec = client.get("/api/openapi.json").json()
    methods = {m for ops in spec["paths"].values() for m in ops}
    assert methods == {"get", "post", "put"}
    secured = sorted((path, m) for path, ops in spec["paths"].items() for m, op in ops.items() if "security" in op)
    assert secured == [  # the other POSTs only read
        ("/api/collections/{name}/cards", "post"),
        ("/api/collections/{name}/cards/remove", "post"),
        ("/api/saved-decks", "post"),
        ("/api/saved-decks/{deck_id}", "put"),
    ]


def test_openapi_shows_the_collection_endpoints(client, writable):
    spec = client.get("/api/openapi.json").json()
    assert {"/api/collections", "/api/collections/{name}", "/api/collections/{name}/cards", "/api/collections/{name}/cards/remove"} <= set(
        spec["paths"]
    )
    add = spec["paths"]["/api/collections/{name}/cards"]["post"]
    assert add["security"] == [{"HTTPBearer": []}]
    assert add["requestBody"]["content"]["application/json"]["schema"]["required"] == ["card"]
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert "This server is read-only." in spec["info"]["description"]
    assert "This server takes writes." in writable.get("/api/openapi.json").json()["info"]["description"]


def test_writes_without_a_token_refused_at_build(web_app, monkeypatch):
    from cardlab.core.errors import UsageError
    from cardlab.web.app import create_app

    monkeypatch.delenv("CARDLAB_SERVE_TOKEN", raising=False)
    with pytest.raises(UsageError, match="writes are on but no token was given: set CARDLAB_SERVE_TOKEN"):
        create_app(web_app.site.roots, web_app.site.db, allow_writes=True)
    monkeypatch.setenv("CARDLAB_SERVE_WRITES", "1")
    with pytest.raises(UsageError, match="no token was given"):
        create_app(web_app.site.roots, web_app.site.db)
    monkeypatch.setenv("CARDLAB_SERVE_TOKEN", "short")
    with pytest.raises(UsageError, match="the token in CARDLAB_SERVE_TOKEN has 5 characters; give 16 to 4,096"):
        create_app(web_app.site.roots, web_app.site.db)
    monkeypatch.setenv("CARDLAB_SERVE_TOKEN", TOKEN)
    assert create_app(web_app.site.roots, web_app.site.db).site.token == TOKEN
    monkeypatch.setenv("CARDLAB_SERVE_WRITES", "0")
    assert create_app(web_app.site.roots, web_app.site.db).site.allow_writes is False


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


def test_every_route_is_a_module_function_named_in_the_route_table(web_app):
    """Issue 30, item 5: every route is a module-level function of a router module, importable by name,
    and the app's route table sends each URL and method to it, in this order."""
    from cardlab.web.routes import builder, collection_pages, route_table, saved_decks
    from cardlab.web.routes.card_api import api_card, api_sets
    from cardlab.web.routes.card_faces import card_face
    from cardlab.web.routes.collection_api import api_collection, api_collection_add, api_collection_remove, api_collections
    from cardlab.web.routes.deck_api import api_deck_have, api_validate
    from cardlab.web.routes.deck_pages import deck_export, deck_form, deck_page, deck_proxies
    from cardlab.web.routes.lookup_api import api_autocomplete, api_card_by_number, api_named, api_set
    from cardlab.web.routes.pages import card_page, home, search_help, search_page, sets_page
    from cardlab.web.routes.search_api import api_search

    expected = [
        ("/api/cards/search", "GET", api_search),  # first: the busiest route
        ("/", "GET", home),
        ("/search", "GET", search_page),
        ("/search/help", "GET", search_help),
        ("/card/{card_id}", "GET", card_page),
        ("/sets", "GET", sets_page),
        ("/cards/{card_id}.svg", "GET", card_face),
        ("/deck", "GET", deck_form),
        ("/deck", "POST", deck_page),
        ("/deck/export.{kind}", "POST", deck_export),
        ("/deck/proxies.pdf", "POST", deck_proxies),
        ("/api/cards/named", "GET", api_named),
        ("/api/cards/autocomplete", "GET", api_autocomplete),
        ("/api/cards/{set_code}/{number}", "GET", api_card_by_number),
        ("/api/sets/{code}", "GET", api_set),
        ("/api/cards/{card_id}", "GET", api_card),
        ("/api/sets", "GET", api_sets),
        ("/api/decks/validate", "POST", api_validate),
        ("/api/decks/have", "POST", api_deck_have),
        ("/api/collections", "GET", api_collections),
        ("/api/collections/{name}", "GET", api_collection),
        ("/api/collections/{name}/cards", "POST", api_collection_add),
        ("/api/collections/{name}/cards/remove", "POST", api_collection_remove),
        ("/build", "GET", builder.build_page),
        ("/build/add", "POST", builder.build_add),
        ("/build/set", "POST", builder.build_set),
        ("/build/clear", "POST", builder.build_clear),
        ("/build/import", "POST", builder.build_import),
        ("/build/save", "POST", builder.build_save),
        ("/build/export.{dialect}", "GET", builder.build_export),
        ("/build/proxies.pdf", "GET", builder.build_proxies),
        ("/d/{deck_id}", "GET", saved_decks.saved_page),
        ("/d/{deck_id}/export.{dialect}", "GET", saved_decks.saved_export),
        ("/d/{deck_id}/proxies.pdf", "GET", saved_decks.saved_proxies),
        ("/d/{deck_id}/copy", "POST", saved_decks.saved_copy),
        ("/d/{deck_id}/edit", "POST", saved_decks.saved_edit),
        ("/decks", "GET", saved_decks.saved_list),
        ("/api/saved-decks/{deck_id}", "GET", saved_decks.api_saved_deck),
        ("/api/saved-decks", "POST", saved_decks.api_save_deck),
        ("/api/saved-decks/{deck_id}", "PUT", saved_decks.api_edit_deck),
        ("/collections", "GET", collection_pages.collections_page),
        ("/collections/go", "GET", collection_pages.collection_go),
        ("/collection/{name}", "GET", collection_pages.collection_page),
        ("/collection/{name}/have", "POST", collection_pages.collection_have),
        ("/collection/{name}/change", "POST", collection_pages.collection_change_page),
        ("/collection/{name}/import", "POST", collection_pages.collection_import_page),
    ]
    table = [(r.path, m, r.endpoint) for r in route_table(web_app.app) if r.endpoint is not None and r.methods for m in sorted(r.methods)]
    ours = [row for row in table if row[2].__module__.startswith("cardlab.web.routes.")]
    assert ours == expected
    for _path, _method, endpoint in ours:  # importable by its own name from its own module
        module = __import__(endpoint.__module__, fromlist=[endpoint.__name__])
        assert getattr(module, endpoint.__name__) is endpoint and "<locals>" not in endpoint.__qualname__


def test_every_route_module_is_included(web_app):
    """A router module listed in routes.ROUTERS is in the app: each module's routes reach the table."""
    import importlib

    from cardlab.web.routes import ROUTERS, route_table

    served = {r.endpoint.__module__ for r in route_table(web_app.app) if getattr(r, "endpoint", None) is not None}
    assert served >= set(ROUTERS)
    for name in ROUTERS:
        assert importlib.import_module(name).router.routes, name


@pytest.mark.parametrize(
    ("path", "method", "name"),
    [
        ("/api/cards/base1-4", "GET", "api_card"),
        ("/api/cards/named", "GET", "api_named"),
        ("/api/cards/autocomplete", "GET", "api_autocomplete"),
        ("/api/cards/base1/4", "GET", "api_card_by_number"),
        ("/deck", "POST", "deck_page"),
        ("/card/base1-4", "GET", "card_page"),
    ],
)
def test_a_request_reaches_the_named_route(web_app, path, method, name):
    """The route table matches a concrete URL to the function of that name (path parameters filled)."""
    from starlette.routing import Match

    from cardlab.web.routes import route_table

    scope = {"type": "http", "path": path, "method": method, "root_path": "", "query_string": b"", "headers": []}
    full = [r for r in route_table(web_app.app) if r.matches(scope)[0] == Match.FULL]
    assert [r.endpoint.__name__ for r in full[:1]] == [name]
