"""A page's ``?lang=`` names its interface language (issue 32): every language cardlab speaks is
accepted on the pages, a region form as its language, card names falling back to the card's own
where none are known in it; an unknown one is a 400 said in the request's language. The API's
``lang`` still names card-name languages only."""

from __future__ import annotations

import re

import pytest

from cardlab.core import l10n
from cardlab.web.errors import WebError
from cardlab.web.forms import page_langs

KNOWN = ["de", "en", "fr", "it"]


def test_page_langs_accepts_every_interface_language_and_region_forms():
    assert page_langs("fr-FR", KNOWN) == ["fr"]
    assert page_langs("es", KNOWN) == []  # Spanish words, card names in the card's own language
    assert page_langs("ja,de-AT", KNOWN) == ["de"]
    assert page_langs("FR,fr-CA", KNOWN) == ["fr"]


def test_page_langs_refuses_an_unknown_language_naming_the_known_ones():
    with pytest.raises(WebError) as err:
        page_langs("xx", KNOWN)
    assert (err.value.status, err.value.code) == (400, "bad_parameter")
    assert err.value.details == (
        "lang: unknown language 'xx'; cardlab knows en (English), fr (Français), de (Deutsch), it (Italiano), es (Español), ja (日本語)"
    )
    with pytest.raises(WebError) as err:
        page_langs("fr,de;", KNOWN)  # a malformed list as the API says it
    assert err.value.details.startswith("lang: a language code or a comma-separated list")


@pytest.mark.parametrize("path", ["/search", "/search/help", "/card/base1-58", "/sets", "/cards/base1-58.svg", "/search?q=pikachu"])
@pytest.mark.parametrize("code", ["es", "ja", "fr-FR"])
def test_pages_accept_an_interface_language(client, path, code):
    r = client.get(path + ("&" if "?" in path else "?") + f"lang={code}")
    assert r.status_code == 200, r.text[:300]
    if path != "/cards/base1-58.svg":
        assert re.search(r'<html lang="([^"]+)"', r.text).group(1) == l10n.base_of(code)


def test_a_region_form_names_the_cards_in_its_language(client):
    r = client.get("/card/base1-4?lang=fr-FR")
    assert '<h1 id="card-name"><span lang="fr">Dracaufeu</span>' in r.text
    spanish = client.get("/card/base1-4?lang=es")
    assert '<h1 id="card-name"><span lang="en">Charizard</span>' in spanish.text  # no Spanish names: the card's own


def test_an_unknown_page_lang_is_refused_in_the_request_language(client):
    r = client.get("/search/help?lang=xx", headers={"Accept-Language": "fr"})
    assert r.status_code == 400
    assert re.search(r'<html lang="([^"]+)"', r.text).group(1) == "fr"
    # in French, the request's language
    assert "lang : langue inconnue &#39;xx&#39; ; cardlab connaît en (English), fr (Français)" in r.text


def test_the_api_lang_still_names_card_name_languages(client):
    r = client.get("/api/cards/base1-4", params={"lang": "es"})
    assert r.status_code == 400
    assert r.json()["details"] == "lang: no card name is known in es (languages: de, en, fr, it)"
