"""The web page in the player's language (issue 32, item 1): ``?lang=``, then the ``lang`` cookie,
then ``Accept-Language`` (cardlab.web.language), for the page's words, ``<html lang>`` and the
problem sentences; a choice by ``?lang=`` kept in the cookie; ``Vary`` on every answer. One page
in Chromium with a French browser."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

from cardlab.web.language import request_language


def html_lang(text: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', text)
    assert found is not None
    return found.group(1)


@pytest.fixture
def fresh(web_app):
    """A client with an empty cookie jar (the session client keeps cookies between tests)."""
    with TestClient(web_app) as c:
        yield c


def scope(query: bytes = b"", path: str = "/search", **headers: str) -> dict:
    pairs = [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    return {"type": "http", "path": path, "query_string": query, "headers": pairs}


@pytest.mark.parametrize(
    ("query", "headers", "expected"),
    [
        (b"", {}, ("en", False)),
        (b"", {"accept_language": "de-CH, fr;q=0.5"}, ("de", False)),
        (b"", {"accept_language": "pt-BR, it;q=0.2, fr;q=0.1"}, ("it", False)),
        (b"", {"cookie": "lang=fr", "accept_language": "de"}, ("fr", False)),
        (b"lang=it", {"cookie": "lang=fr", "accept_language": "de"}, ("it", True)),
        (b"lang=xx", {"accept_language": "de"}, ("de", False)),  # an unknown ?lang= is passed over
        (b"lang=fr", {"path": "/api/cards/search"}, ("fr", False)),  # the API keeps no cookie
        (b"", {"cookie": "lang=\x7f;;=", "accept_language": "fr"}, ("fr", False)),  # a broken cookie is no cookie
    ],
)
def test_request_language_order(query, headers, expected):
    assert request_language(scope(query, **headers)) == expected


def test_accept_language_gives_the_page_its_words(fresh):
    r = fresh.get("/card/base1-4", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert r.status_code == 200
    assert html_lang(r.text) == "fr"
    assert "<th>Faiblesse</th>" in r.text and "<th>Weakness</th>" not in r.text
    assert r.headers["vary"] == "Accept-Encoding, Accept-Language, Cookie"  # gzip (caching.VARY) too
    assert "set-cookie" not in r.headers  # the browser's language is not a choice to keep


def test_a_lang_parameter_is_kept_in_the_cookie(fresh):
    r = fresh.get("/search?q=charizard&lang=de")
    assert html_lang(r.text) == "de"
    assert r.headers["set-cookie"] == "lang=de; Path=/; Max-Age=31536000; SameSite=Lax"
    again = fresh.get("/sets")  # the cookie now speaks for the next page
    assert html_lang(again.text) == "de"
    assert ">Sets<" not in again.text


def test_problem_sentences_follow_the_page(fresh):
    def check(**headers: str) -> dict:
        plain = {"content-type": "text/plain", **headers}
        return fresh.post("/api/decks/validate", params={"format": "pokemon-base"}, content=b"4 Pikachu\n", headers=plain).json()

    english, french = check(), check(**{"Accept-Language": "fr"})
    assert [p["rule"] for p in french["problems"]] == [p["rule"] for p in english["problems"]] == ["deck-size"]
    assert french["problems"][0]["message"] == "le deck contient 4 cartes ; il en faut exactement 60"
    assert english["problems"][0]["message"] == "the deck holds 4 cards; exactly 60 needed"


def test_a_french_browser_reads_the_card_in_french(browser: Browser, live_server):
    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(live_server + "/card/base1-4")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        assert page.evaluate("document.documentElement.lang") == "fr"
        details = page.locator("#details")
        expect(details.locator("th", has_text="Faiblesse")).to_have_count(1)
        expect(details.locator("th", has_text="Rareté")).to_have_count(1)
        expect(page.locator("#details th", has_text=re.compile("^Weakness$"))).to_have_count(0)
    finally:
        context.close()


def test_the_page_language_names_the_cards_too(fresh):
    """Without ?lang=, a French browser reads the cards in French: the name, the card it evolves
    from (as ``cardlab show --lang fr`` names it), and a German browser's search results in German."""
    card = fresh.get("/card/base1-4", headers={"Accept-Language": "fr"}).text
    assert '<h1 id="card-name"><span lang="fr">Dracaufeu</span>' in card
    assert re.findall(r"<th>Évolue de</th><td[^>]*>([^<]*)</td>", card) == ["Reptincel"]
    names = re.findall(
        r'<td class="name" data-label="[^"]*">([^<]+)</td>',
        fresh.get("/search?q=set:base1+charizard", headers={"Accept-Language": "de"}).text,
    )
    assert names == ["Glurak"]
    english = re.findall(r'<td class="name" data-label="[^"]*">([^<]+)</td>', fresh.get("/search?q=set:base1+charizard").text)
    assert english == ["Charizard"]
