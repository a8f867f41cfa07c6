"""One deck checker behind every door (issue 27): every example and fixture deck list goes through each
door that checks a list, and each door gives the verdict, the notes and the counts of the library's
one checker (:func:`cardlab.decks.check.check_list`) on the same request.

Doors: ``cardlab deck validate -O json`` and ``deck stats -O json`` (CliRunner), ``POST
/api/decks/validate``, the deck page (``POST /deck``), proxies (:func:`cardlab.proxies.pdf.deck_cards`
with ``force``), ``deck have`` (:func:`cardlab.collection.listing.have`). A list that names its format
(a ``Format:`` line) is checked under it by every door; one that names none is surveyed by every door.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from cardlab.catalog.validate import load_formats, validate
from cardlab.cli.whole import app
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import check_list, header_words
from cardlab.decks.read import read_deck

REPO = Path(__file__).resolve().parents[2]
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog", REPO / "tests" / "fixtures" / "decks" / "catalog"]
LISTS = sorted(
    [
        *(REPO / "examples" / "decks").glob("*.txt"),
        *(REPO / "examples" / "decks" / "vintage").glob("*.txt"),
        *(REPO / "tests" / "fixtures" / "decks" / "pokemon").glob("*.txt"),
        *(REPO / "tests" / "fixtures" / "decks" / "vintage").glob("*.txt"),
        *(REPO / "tests" / "fixtures" / "decks" / "dialects").glob("*.txt"),
    ]
)
CATALOG_ARGS = [a for root in ROOTS for a in ("--catalog", str(root))]


def _id(path: Path) -> str:
    return str(path.relative_to(REPO))


@pytest.fixture(scope="module")
def catalog():
    return validate(ROOTS, cache_path=None).catalog


@pytest.fixture(scope="module")
def formats():
    return load_formats(ROOTS)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    mp = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("doors")
    mp.setenv("CARDLAB_CACHE_DIR", str(base / "cache"))
    with TestClient(create_app(ROOTS, base / "index.sqlite")) as c:
        yield c
    mp.undo()


def verdict(report) -> dict:
    """What every door must agree on: surveyed or not, the format shown, each format's verdict,
    problems (line, rule, message), the shown deck's notes and counts."""
    best = report.best
    return {
        "surveyed": report.surveyed,
        "shown": best.deck.format.name,
        "legal": report.legal,
        "formats": {r.format.name: r.legal for r in report.results},
        "problems": sorted((p.pos.line, p.rule, p.message) for p in best.problems),
        "notes": [(n.pos.line, n.message) for n in best.deck.notes],
        "cards": best.deck.size("main"),
        "ids": [(c.line, c.count, c.card_id) for c in best.deck.cards],
    }


@pytest.fixture(scope="module")
def library(catalog, formats):
    out = {}
    for path in LISTS:
        out[path] = check_list(read_deck(path, header_words(formats)), catalog, formats)
    return out


@pytest.mark.parametrize("path", LISTS, ids=_id)
def test_cli_validate(library, path):
    from typer.testing import CliRunner

    want = verdict(library[path])
    result = CliRunner().invoke(app, ["deck", "validate", str(path), "-O", "json", *CATALOG_ARGS])
    data = json.loads(result.stdout)
    assert result.exit_code == (0 if want["legal"] else 1)
    if want["surveyed"]:
        assert {f["format"]: f["legal"] for f in data["formats"]} == want["formats"]
        assert data["chosen"] == want["shown"]
        [shown] = [f for f in data["formats"] if f["format"] == want["shown"]]
        assert sorted((p["line"], p["rule"], p["message"]) for p in shown["problems"]) == want["problems"]
        assert [(n["line"], n["message"]) for n in shown["notes"]] == want["notes"]
    else:
        assert (data["format"], data["legal"], data["cards"]) == (want["shown"], want["legal"], want["cards"])
        assert sorted((p["line"], p["rule"], p["message"]) for p in data["problems"]) == want["problems"]
        assert [(n["line"], n["message"]) for n in data["notes"]] == want["notes"]
        assert [(c["line"], c["count"], c["id"]) for c in data["lines"]] == want["ids"]


@pytest.mark.parametrize("path", LISTS, ids=_id)
def test_cli_stats_counts_the_same_deck(library, path):
    from typer.testing import CliRunner

    want = verdict(library[path])
    result = CliRunner().invoke(app, ["deck", "stats", str(path), "-O", "json", *CATALOG_ARGS])
    data = json.loads(result.stdout)
    assert (data["format"], data["size"]) == (want["shown"], want["cards"])
    assert [(n["line"], n["message"]) for n in data["notes"]] == want["notes"]
    assert result.exit_code == (0 if not want["problems"] else 1)


@pytest.mark.parametrize("path", LISTS, ids=_id)
def test_api(client, library, path):
    want = verdict(library[path])
    response = client.post("/api/decks/validate", content=path.read_text(encoding="utf-8").encode("utf-8"))
    assert response.status_code == 200, response.text
    data = response.json()
    if want["surveyed"]:
        assert data["object"] == "legality"
        assert {f["format"]: f["legal"] for f in data["formats"]} == want["formats"]
        [shown] = [f for f in data["formats"] if f["format"] == want["shown"]]
        assert sorted((p["line"], p["rule"], p["message"]) for p in shown["problems"]) == want["problems"]
        assert [(n["line"], n["message"]) for n in shown["notes"]] == want["notes"]
    else:  # the list's own Format: line, as the CLI reads it (the API surveyed it before)
        assert data["object"] == "deck_report"
        assert (data["format"], data["legal"], data["cards"]) == (want["shown"], want["legal"], want["cards"])
        assert sorted((p["line"], p["rule"], p["message"]) for p in data["problems"]) == want["problems"]
        assert [(n["line"], n["message"]) for n in data["notes"]] == want["notes"]


@pytest.mark.parametrize("path", LISTS, ids=_id)
def test_page(client, library, path):
    want = verdict(library[path])
    response = client.post("/deck", data={"text": path.read_text(encoding="utf-8")})
    assert response.status_code == 200, response.text
    page = response.text
    rows = dict(re.findall(r'<tr data-format="([^"]+)"><th>[^<]*</th>\s*<td class="(legal|not-legal)"', page))
    assert {name: state == "legal" for name, state in rows.items()} == want["formats"]
    notes = [html.unescape(m) for m in re.findall(r'<div class="note" data-rule="assumed-printing">note: ([^<]*)</div>', page)]
    assert notes == [m for _line, m in want["notes"]]
    shown_problems = {
        html.unescape(m)
        for m in re.findall(r'<div class="problem" data-rule="[^"]+" data-formats="[^"]*">(?:[^<:]*: )?[^:<]+: ([^<]*)</div>', page)
    }
    assert {m for _line, _rule, m in want["problems"] if _line > 0} <= shown_problems


@pytest.mark.parametrize("path", LISTS, ids=_id)
def test_proxies(catalog, library, path):
    from cardlab.proxies.pdf import deck_cards

    want = verdict(library[path])
    selection = deck_cards(path, catalog, ROOTS, None, force=True)
    assert selection.report.deck.format.name == want["shown"]
    assert sorted((p.pos.line, p.rule, p.message) for p in selection.report.problems) == want["problems"]
    assert [n for n in selection.notes if "assumed" in n] == [m for _line, m in want["notes"]]
    assert len(selection.card_ids) == sum(c for _line, c, _id in want["ids"])


@pytest.mark.parametrize("path", LISTS, ids=_id)
def test_have(catalog, library, path):
    from cardlab.collection.listing import have

    report = library[path]
    rows = have(report.best.deck, {}, catalog)
    assert sum(r.need for r in rows) == sum(c.count for c in report.best.deck.cards)
    assert {r.card_id for r in rows} == {c.card_id for c in report.best.deck.cards}  # nothing owned: the assumed printings
