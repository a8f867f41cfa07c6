"""Every page in the player's language (issue 32, item 1): each page a French reader opens (search,
card, deck check of a pasted list, builder, saved deck, collections, a collection, sets, syntax, a
404) leaves no English word but proper names; a German spot check. The detector is the CLI test's
(tests/english_words.py): the words of the English interface's catalog, less those French shares."""

from __future__ import annotations

import html
import re

import pytest

from cardlab.collection import db, owned, saved
from tests.english_words import leftover

FR = {"Accept-Language": "fr"}

NAMES = {
    # proper names a page shows: cards of the lists below, the player, the saved deck, export dialects
    "hitmonchan",
    "bill",
    "pikachu",
    "alice",
    "punchy",
    "live",
    "one",
    "json",
    "pdf",
    "yaml",
    "csv",
    "it",  # the language code of Italian among the language links
    "jab",  # Hitmonchan's attacks: the card's text in its own language (no ?lang=)
    "special",
    "punch",
}
"""Words of the pages below that are names, not English (on top of tests/english_words.py's)."""

DECK = "4 Hitmonchan BS 7\n2 Bill\n"


def visible(page: str) -> str:
    """The words a reader meets on ``page``: text, titles, labels, placeholders, alternative texts
    (attribute values a reader sees or hears), never scripts, URLs, ids, classes or form values."""
    body = re.sub(r"<(script|style|code|pre)\b.*?</\1>", " ", page, flags=re.S)  # code: the query syntax
    seen = re.findall(r'\b(?:aria-label|title|placeholder|alt|data-label|data-added)="([^"]*)"', body)
    text = re.sub(r"<[^>]*>", " ", body)
    text = html.unescape(" ".join([text, *seen]))
    return re.sub(r"\b\w+[:=<>!]+[^\s,]+", " ", text)  # query examples: type:fire hp>=80


MEANING = re.compile(r'<td data-label="(?:meaning|sens|Bedeutung)">(.*?)</td>', re.S)
"""A field's meaning on the syntax page (English, French, German)."""


def without_data(name: str, page: str) -> str:
    """``page`` less what is data, not interface: a card's record as stored (``#fields``, every key
    and value as the YAML holds it) and the syntax page's field meanings, whose examples are query
    values (``basic``, ``blow``; :func:`test_every_field_meaning_is_translated` checks them)."""
    if name == "card":
        return re.sub(r'<div id="fields">.*?</details>', " ", page, flags=re.S)
    if name == "help":
        return MEANING.sub(" ", page)
    return page


@pytest.fixture
def deck_id():
    return saved.save(db.connect(), "Format: pokemon-base\n4 Hitmonchan base1 7\n1 Bill base1 91\n", "Punchy").id


@pytest.fixture
def alice():
    owned.change(db.connect(), "alice", [("add", "base1-7", 2), ("add", "base1-91", 5)])


def french_pages(client, deck_id: str) -> dict[str, str]:
    pages = {
        "search": client.get("/search", params={"q": "type:fire hp>=80"}, headers=FR),
        "search form": client.get("/search", headers=FR),
        "search grid": client.get("/search", params={"q": "hitmonchan", "view": "grid"}, headers=FR),
        "card": client.get("/card/base1-7", headers=FR),
        "deck form": client.get("/deck", headers=FR),
        "deck check": client.post("/deck", data={"text": DECK + "3 Pikachoo\n", "format": "pokemon-base"}, headers=FR),
        "deck check, every format": client.post("/deck", data={"text": DECK, "collection": "alice"}, headers=FR),
        "saved deck": client.get(f"/d/{deck_id}", headers=FR),
        "saved decks": client.get("/decks", headers=FR),
        "collections": client.get("/collections", headers=FR),
        "collection": client.get("/collection/alice", headers=FR),
        "collection have": client.post("/collection/alice/have", data={"text": DECK}, headers=FR),
        "sets": client.get("/sets", headers=FR),
        "help": client.get("/search/help", headers=FR),
        "404": client.get("/card/base1-999", headers=FR),
    }
    client.post("/build/add", data={"card": "base1-7", "back": "/build"}, headers=FR)
    client.post("/build/add", data={"card": "base1-91", "back": "/build"}, headers=FR)
    pages["builder"] = client.get("/build", params={"format": "pokemon-base"}, headers=FR)
    client.post(f"/d/{deck_id}/edit", data={"x": "1"}, headers=FR)
    pages["builder, editing"] = client.get("/build", headers=FR)
    client.cookies.clear()
    pages["builder, empty"] = client.get("/build", headers=FR)
    return {name: r.text for name, r in pages.items() if r.status_code in (200, 400, 404) or pytest.fail(f"{name}: {r.status_code}")}


def test_every_page_in_french_leaves_no_english_word_but_names(client, deck_id, alice):
    pages = french_pages(client, deck_id)
    assert pages["404"].count('<html lang="fr">') == 1
    left = {name: leftover(visible(without_data(name, text)), NAMES) for name, text in pages.items()}
    assert {name: found for name, found in left.items() if found} == {}


def test_the_detector_catches_the_english_pages(client, deck_id, alice):
    # the same pages in English leave many English words: the test above can fail
    english = {
        "builder": client.get("/build", params={"format": "pokemon-base"}),
        "collection": client.get("/collection/alice"),
        "saved deck": client.get(f"/d/{deck_id}"),
        "help": client.get("/search/help"),
    }
    left = {name: leftover(visible(r.text), NAMES) for name, r in english.items()}
    assert {"import", "list", "paste"} <= left["builder"]
    assert {"search", "owned", "copies", "apply"} <= left["collection"]
    assert {"copy", "into", "builder", "legality"} <= left["saved deck"]
    assert {"same", "query", "language", "fields"} <= left["help"]


def test_french_page_words(client, deck_id, alice):
    check = client.post("/deck", data={"text": DECK, "format": "pokemon-base"}, headers=FR).text
    assert "<h1>Vérifier un deck</h1>" in check and "<h2>Main de départ d’exemple" in check
    assert '<label for="text">Collez une liste de deck</label>' in check
    collection = client.get("/collection/alice", headers=FR).text
    assert '<h1 id="collection-name">Collection de alice</h1>' in collection
    assert "<title>alice · collection · cardlab</title>" in collection
    saved_page = client.get(f"/d/{deck_id}", headers=FR).text
    assert '<button type="submit" id="copy">Copier dans le constructeur</button>' in saved_page
    assert "<title>Punchy · cardlab</title>" in saved_page
    syntax = client.get("/search/help", headers=FR).text
    assert "<title>Syntaxe de recherche · cardlab</title>" in syntax
    assert '<td data-label="sens">Pokémon : points de vie (hp&gt;=80)</td>' in syntax  # a game's field meaning


def test_german_spot_check(client, deck_id, alice):
    de = {"Accept-Language": "de"}
    check = client.post("/deck", data={"text": DECK, "format": "pokemon-base"}, headers=de).text
    assert '<html lang="de">' in check and "<h1>Deck prüfen</h1>" in check and "Beispiel-Starthand" in check
    collection = client.get("/collection/alice", headers=de).text
    assert "Sammlung von alice" in collection and '<button type="submit" id="change-button">Ausführen</button>' in collection
    assert "<title>Gespeicherte Decks · cardlab</title>" in client.get("/decks", headers=de).text
    italian = client.get("/build", headers={"Accept-Language": "it"}).text
    assert "<h1>Costruttore di mazzi</h1>" in italian and "Importa una lista" in italian


def test_every_field_meaning_is_translated(client):
    english = MEANING.findall(client.get("/search/help").text)
    for lang in ("fr", "de"):
        said = MEANING.findall(client.get("/search/help", headers={"Accept-Language": lang}).text)
        assert len(said) == len(english) == 41
        same = [] if lang == "fr" else ["Pokémon: basic, &#34;stage 1&#34;, &#34;stage 2&#34;"]  # values only: German reads alike
        assert [m for m in said if m in english] == same, lang  # every other one in the page's language


def test_a_query_error_and_an_unknown_card_in_french(client):
    page = client.get("/search", params={"q": "hp>abc"}, headers=FR)
    assert page.status_code == 400
    assert "<p>erreur: &#39;hp&#39; prend un nombre, pas &#39;abc&#39;</p>" in page.text
    assert leftover(visible(page.text), NAMES | {"hp", "abc"}) == set()
    api = client.get("/api/cards/search", params={"q": "hp>abc"}, headers=FR).json()
    assert api["details"] == "'hp' prend un nombre, pas 'abc'"
    card = client.get("/card/hitmonchen", headers=FR)
    assert card.status_code == 404
    assert '<p class="error" id="error">aucune carte « hitmonchen »</p>' in card.text  # the suggestions once: as links
    assert card.text.count(">Hitmonchan</a>") == 1 and "vouliez-vous dire : Hitmonchan" not in card.text
    assert leftover(visible(card.text), NAMES | {"hitmonchen"}) == set()
