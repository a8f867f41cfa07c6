"""The reading pages (:mod:`cardlab.web.routes.pages`): search, help, card and sets pages, HTML in a
query kept inert, result pages past the last."""

from __future__ import annotations


def test_html_in_a_query_is_inert(client):
    q = '<script>alert(1)</script> "><img src=x onerror=alert(2)>'
    page = client.get("/search", params={"q": q})
    assert "<script>alert" not in page.text and "<img src=x" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    bad = client.get("/search", params={"q": "<b>x</b> hp>>"})
    assert bad.status_code == 400 and "<b>x</b>" not in bad.text and "&lt;b&gt;x&lt;/b&gt;" in bad.text
    # the API answers JSON, never HTML
    assert client.get("/api/cards/search", params={"q": q}).headers["content-type"] == "application/json"


def test_a_control_character_in_a_query_is_escaped_in_the_page_title(client):
    page = client.get("/search", params={"q": "pika\x00chu\x1b[31m"})
    assert page.status_code == 400
    assert "<title>pika\\x00chu\\x1b[31m · cardlab</title>" in page.text


def test_card_page(client):
    page = client.get("/card/base1-4")
    assert page.status_code == 200
    for text in ("Charizard", "Dracaufeu", "Glurak", "pokemon-base", "Fire Spin", "Mitsuhiro Arita"):
        assert text in page.text
    moved = client.get("/card/Dracaufeu", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/card/base1-4"
    assert client.get("/card/base1-999").status_code == 404
    assert client.get("/card/...").status_code == 400


def test_card_page_shows_the_games_detail_rows(client):
    """The same neutral rows as ``cardlab show`` (games.base.DetailRow), spans as style classes, a
    symbol with its name as the text alternative (Span.alt); then set, rarity and illustrator."""
    page = client.get("/card/base1-4").text
    colorless = '<span class="sym style-white" role="img" aria-label="Colorless" title="Colorless">C</span>'
    assert f'<tr><th>Retreat</th><td lang="en">{colorless} {colorless} {colorless}</td></tr>' in page
    water = '<span class="sym style-blue" role="img" aria-label="Water" title="Water">W</span>'
    assert f'<tr><th>Weakness</th><td lang="en">{water} ×2</td></tr>' in page
    assert '<span class="style-bold">Fire Spin</span>' in page
    assert page.count('aria-label="Fire"') == 4  # Fire Spin's cost
    for label, value in (("HP", "120"), ("Set", "Base Set (base1) · 4/102"), ("Rarity", "Rare Holo"), ("Illustrator", "Mitsuhiro Arita")):
        assert f'<tr><th>{label}</th><td lang="en">{value}</td></tr>' in page


def test_card_page_reads_as_a_card(client):
    """The face as an image, the printings as links, names and text in the player's language (the
    page's words too: ``?lang=fr``), every field folded."""
    page = client.get("/card/base1-4", params={"lang": "fr"}).text
    assert '<img class="face" src="/cards/base1-4.svg?lang=fr" width="179" height="249" alt="Dracaufeu, dessinée en proxy">' in page
    assert '<p id="printings">Pokémon · impressions :\n<strong aria-current="page">base1 4</strong></p>' in page  # Base Set alone here
    assert '<h1 id="card-name"><span lang="fr">Dracaufeu</span>' in page
    assert "Danseflamme" in page and "Pour utiliser cette attaque" in page
    assert '<details id="every-field"><summary>Tous les champs</summary>' in page  # the page speaks French too


def test_pages_and_help(client):
    from cardlab.search.fields import FIELDS

    assert client.get("/", follow_redirects=False).headers["location"] == "/search"
    page = client.get("/search", params={"q": "type:fire hp>=80"})
    assert page.status_code == 200 and page.text.count('<tr data-id="') == 4
    bad = client.get("/search", params={"q": "hp>>80"})
    assert bad.status_code == 400 and "hp&gt;&gt;80\n   ^" in bad.text
    help_page = client.get("/search/help").text
    assert all(f"<code>{name}</code>" in help_page for name in FIELDS)
    assert client.get("/deck").status_code == 200
    assert client.get("/nowhere").status_code == 404


def test_a_search_page_past_the_last_says_so_and_links_to_the_last(client):
    import re

    def count_line(params: dict) -> str:
        resp = client.get("/search", params=params)
        assert resp.status_code == 200
        return re.search(r'<p id="count">(.*?)</p>', resp.text).group(1)

    fire = {"q": "type:fire hp>=80", "sort": "name", "lang": "fr"}  # ?lang=fr: the page speaks French too
    assert count_line({**fire, "page": 2}) == (
        '4 cartes; la page 2 est après la dernière page (<a id="last-page" '
        'href="/search?q=type%3Afire+hp%3E%3D80&amp;sort=name&amp;lang=fr&amp;page=1">1</a>)'
    )
    assert count_line({**fire, "page": 1}) == "4 cartes; 1–4 affichées"
    client.cookies.clear()  # ?lang=fr was kept in the lang cookie
    base = client.get("/search", params={"q": "set:base1", "page": 9}).text
    assert re.search(r'<p id="count">(.*?)</p>', base).group(1) == (
        '102 cards; page 9 is past the last page (<a id="last-page" href="/search?q=set%3Abase1&amp;sort=number&amp;page=3">3</a>)'
    )
    assert '<a rel="prev" href="/search?q=set%3Abase1&amp;sort=number&amp;page=3">' in base  # not page 8
    assert count_line({"q": "set:base1", "page": 3}) == "102 cards; 101–102 shown"
    assert count_line({"q": "name:nosuchcardname"}) == "0 cards"


def test_a_search_page_past_a_bounded_total_says_more_than_and_pages_on(client, monkeypatch):
    import re
    from collections import OrderedDict

    from cardlab.search import engine

    # the page reads find_page's bounded total: with the bound at 40, set:base1's 102 cards are "more than 40"
    monkeypatch.setattr(engine, "TOTAL_BOUND", 40)
    monkeypatch.setattr(engine, "_TOTALS", OrderedDict())
    first = client.get("/search", params={"q": "set:base1"}).text
    assert re.search(r'<p id="count">(.*?)</p>', first).group(1) == "more than 40 cards; 1–50 shown"
    assert '<span id="page">page 1</span>' in first  # no last page to name
    assert '<a rel="next" href="/search?q=set%3Abase1&amp;sort=number&amp;page=2">' in first
    assert first.count('<tr data-id="') == 50
    last = client.get("/search", params={"q": "set:base1", "page": 3}).text
    assert re.search(r'<p id="count">(.*?)</p>', last).group(1) == "102 cards; 101–102 shown"  # its end in hand: exact
    assert 'rel="next"' not in last
