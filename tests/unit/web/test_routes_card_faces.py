"""Card faces (:mod:`cardlab.web.routes.card_faces`): ``/cards/<id>.svg``, the proxies' face as SVG, on
the card page and in the search grid; Ippo and Monpa cards read through their own rows."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardlab.web.routes.card_faces import card_face

REPO = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """Every text run of an SVG document, in drawing order."""
    return [t.text or "" for t in ET.fromstring(svg).iter(SVG + "text")]


def test_card_face_is_the_proxy_face_as_svg(client):
    resp = client.get("/cards/base1-4.svg")
    assert resp.status_code == 200 and resp.headers["content-type"] == "image/svg+xml"
    assert resp.headers["cache-control"] == "public, max-age=3600"
    root = ET.fromstring(resp.text)
    assert root.get("viewBox") == "0 0 178.58 249.45"  # 63 x 88 mm in points
    assert root.find(SVG + "title").text == "Charizard (proxy face)"
    runs = texts(resp.text)
    for run in ("Charizard", "120 HP", "Fire Spin", "100", "Weakness", "×2", "Resistance", "-30", "Retreat", "PROXY"):
        assert run in runs, run
    assert runs.count("R") == 5  # four Fire symbols of Fire Spin, one beside the HP
    assert "<script" not in resp.text and "style=" not in resp.text  # the CSP holds: no script, no style attribute
    assert len(resp.content) < 12_000


def test_card_face_in_the_players_language(client):
    runs = texts(client.get("/cards/base1-4.svg", params={"lang": "fr"}).text)
    assert {"Dracaufeu", "Danseflamme", "120 PV", "Faiblesse", "Retraite"} <= set(runs)


def test_card_face_refuses_bad_ids_and_languages(client):
    assert client.get("/cards/base1-999.svg").status_code == 404
    assert client.get("/cards/base1-4.svg", params={"lang": "zz"}).status_code == 400
    assert client.get("/cards/a.b.svg").status_code == 400


def test_card_face_is_the_named_route(web_app):
    from starlette.routing import Match

    from cardlab.web.routes import route_table

    scope = {"type": "http", "path": "/cards/base1-4.svg", "method": "GET", "root_path": "", "query_string": b"", "headers": []}
    assert [r.endpoint for r in route_table(web_app.app) if r.matches(scope)[0] == Match.FULL][:1] == [card_face]


def test_search_grid_shows_faces_and_toggles(client):
    table = client.get("/search", params={"q": "type:fire hp>=80"}).text
    assert '<a href="/search?q=type%3Afire+hp%3E%3D80&amp;sort=number&amp;page=1&amp;view=grid" id="view-grid">' in table
    grid = client.get("/search", params={"q": "type:fire hp>=80", "view": "grid", "lang": "fr"}).text
    assert grid.count('<img src="/cards/') == 4 and 'id="results"' not in grid
    assert '<img src="/cards/base1-4.svg?lang=fr" width="179" height="249" loading="lazy" alt="Dracaufeu">' in grid
    assert '<input type="hidden" name="view" value="grid">' in grid  # a new query keeps the grid
    assert 'href="/search?q=type%3Afire+hp%3E%3D80&amp;sort=number&amp;lang=fr&amp;page=1" id="view-table">' in grid
    assert client.get("/search", params={"q": "hp>80", "view": "list"}).status_code == 400


@pytest.fixture(scope="module")
def games_client(tmp_path_factory):
    """A TestClient over the test catalogs of Ippo and Monpa (fictional cards)."""
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    base = tmp_path_factory.mktemp("games-web")
    roots = [REPO / "tests" / "fixtures" / "catalog" / "ippo", REPO / "tests" / "fixtures" / "catalog" / "monpa"]
    with TestClient(create_app(roots, base / "index.sqlite")) as c:
        yield c


def test_ippo_and_monpa_cards_read_in_their_own_fields(games_client):
    import re

    ippo = games_client.get("/card/ippo-test-1").text
    labels = re.findall(r"<tr><th>([^<]+)</th>", ippo.split('id="details"')[1].split("</table>")[0])
    assert labels == ["Kind", "Blow type", "Start cost", "Blow power", "Rarity", "Attributes", "Set"]
    assert '<span class="sym style-red" role="img" aria-label="courage" title="courage">▲</span>' in ippo
    monpa = games_client.get("/card/monpa-test-1", params={"lang": "en"}).text
    labels = re.findall(r"<tr><th>([^<]+)</th>", monpa.split('id="details"')[1].split("</table>")[0])
    assert labels == ["Type", "Element", "Mana", "Effect", "Set"]
    assert "Once per turn, your servants get +1/+0 until end of turn." in monpa
    for card_id in ("ippo-test-1", "monpa-test-1"):
        face = games_client.get(f"/cards/{card_id}.svg")
        assert face.status_code == 200 and "PROXY" in texts(face.text)
