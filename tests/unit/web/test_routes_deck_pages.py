"""The deck page (:mod:`cardlab.web.routes.deck_pages`): the form, the check, uploads (an upload's
suffix picks the reader as the CLI's does), the exports and the proxies PDF."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.unit.web.support import give

COD = """<!-- saved by Cockatrice -->
<cockatrice_deck version="1">
    <deckname>Zap</deckname>
    <zone name="main">
        <card number="4" name="Bill"/>
        <card number="4" name="Pikachu"/>
        <card number="52" name="Lightning Energy"/>
    </zone>
    <zone name="side">
        <card number="2" name="Gust of Wind"/>
    </zone>
</cockatrice_deck>
"""


def _validate_cli(tmp_path: Path, name: str, text: str) -> tuple[int, dict]:
    from typer.testing import CliRunner

    from cardlab.cli.whole import app

    deck = tmp_path / name
    deck.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["deck", "validate", str(deck), "-f", "pokemon-base", "-O", "json"])
    return result.exit_code, json.loads(result.stdout)


def test_deck_form_routes_want_a_form(client):
    """Findings: a JSON body sent to /deck said "the file is empty" (it was read as an empty form), and
    an upload named only with ``filename*=`` answered the framework's "Expected UploadFile" words."""
    for path in ("/deck", "/deck/export.txt", "/deck/export.json", "/deck/proxies.pdf"):
        resp = client.post(path, json={"text": "4 Bill"})
        assert (
            resp.status_code,
            "send the deck form as multipart/form-data or application/x-www-form-urlencoded (got application/json)" in resp.text,
        ) == (415, True)
        resp = client.post(path, content=b"4 Bill", headers={"content-type": "text/plain"})
        assert resp.status_code == 415
    starred = b"--B\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''deck.txt\r\n\r\n4 Bill\r\n--B--\r\n"
    resp = client.post("/deck", content=starred, headers={"content-type": "multipart/form-data; boundary=B"})
    assert resp.status_code == 400
    assert (
        "file: not a file upload: send the file as multipart/form-data with filename=&#34;...&#34; (a filename*= alone is not read)"
        in resp.text
    )
    assert "Expected UploadFile" not in resp.text


def test_deck_text_is_inert(client):
    page = client.post("/deck", data={"text": "4 Bill\n1 <script>alert(1)</script>\n</textarea><b>x</b>"})
    assert "<script>alert" not in page.text and "</textarea><b>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_deck_page(client, zap_text):
    page = client.post("/deck", data={"text": zap_text.replace("2 Bill", "5 Bill"), "format": "pokemon-base"})
    assert page.status_code == 200
    assert 'id="line-10" class="bad"' in page.text and "copy-limit" in page.text
    assert page.text.count('<li><a href="/card/') == 7  # the sample hand
    assert "exact opening odds" in page.text
    again = client.post("/deck", data={"text": zap_text, "seed": 2})
    assert "seed 2" in again.text and "legal" in again.text
    bad = client.post("/deck", data={"text": "# nothing"})
    assert bad.status_code == 400 and "holds no cards" in bad.text


def test_deck_upload_and_hostile_file_name(client, zap_text):
    files = {"file": ('../../etc/"evil"\r\n.txt', io.BytesIO(zap_text.encode()), "text/plain")}
    page = client.post("/deck", data={"text": ""}, files=files)
    assert page.status_code == 200 and "pokemon-base" in page.text
    files = {"file": ("../../x.txt", io.BytesIO(zap_text.encode()), "text/plain")}
    exported = client.post("/deck/export.txt", data={"text": ""}, files=files)
    assert exported.headers["content-disposition"] == 'attachment; filename="x.txt"'
    binary = client.post("/deck", files={"file": ("deck.txt", io.BytesIO(b"\xff\xfe\x00"), "text/plain")})
    assert binary.status_code == 400 and "not UTF-8" in binary.text


def test_exports(client, zap_text):
    text = client.post("/deck/export.txt", data={"text": zap_text, "lang": "fr"})
    assert text.status_code == 200 and text.text.startswith("Format: pokemon-base\nDeck: 60\n")
    assert "Dracaufeu" not in text.text and "4 Pikachu base1 58" in text.text
    again = client.post(
        "/api/decks/validate", params={"format": "pokemon-base"}, content=text.text, headers={"content-type": "text/plain"}
    ).json()
    assert again["legal"] is True
    data = client.post("/deck/export.json", data={"text": zap_text}).json()
    assert data["format"] == "pokemon-base" and sum(c["count"] for c in data["main"]) == 60


def test_proxies_pdf(client, zap_text):
    from pypdf import PdfReader

    resp = client.post("/deck/proxies.pdf", data={"text": zap_text, "paper": "a4"})
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(resp.content)).pages) == 7
    bad = zap_text.replace("2 Bill", "5 Bill")
    assert client.post("/deck/proxies.pdf", data={"text": bad}).status_code == 400
    forced = client.post("/deck/proxies.pdf", data={"text": bad, "force": "true"})
    assert forced.status_code == 200 and forced.content.startswith(b"%PDF")
    assert client.post("/deck/proxies.pdf", data={"text": zap_text, "paper": "a0"}).status_code == 400


def test_proxies_pdf_caps_the_copies(client):
    """Finding: a forced list of 5,000 ``99 Bill`` lines made a 45 MB PDF in 34 s. The web prints at most
    MAX_PROXIES (600) proxies per request, forced or not; exactly 600 still prints."""
    from pypdf import PdfReader

    from cardlab.web.limits import MAX_PROXIES

    assert MAX_PROXIES == 600
    over = client.post("/deck/proxies.pdf", data={"text": "99 Bill\n" * 1000, "force": "true"})
    assert over.status_code == 413
    assert "the deck asks for 99,000 proxies; the web prints at most 600 per request (cardlab proxies has no limit)" in over.text
    assert client.post("/deck/proxies.pdf", data={"text": "99 Bill\n" * 6 + "7 Bill\n", "force": "true"}).status_code == 413
    ok = client.post("/deck/proxies.pdf", data={"text": "99 Bill\n" * 6 + "6 Bill\n", "force": "true"})
    assert ok.status_code == 200
    assert len(PdfReader(io.BytesIO(ok.content)).pages) == 600 // 9 + 1


def test_deck_page_against_a_collection(client, zap_text):
    assert 'id="collection"' not in client.get("/deck").text  # no collection yet: no field
    give("alice", "base1-58", 4)
    form = client.get("/deck").text
    assert '<option value="alice">alice</option>' in form
    page = client.post("/deck", data={"text": zap_text, "collection": "alice"})
    assert page.status_code == 200
    assert '<p id="have-total">4 of 60 cards owned, 56 missing.</p>' in page.text
    assert (
        '<tr data-id="base1-58" class=""><td><a href="/card/base1-58">Pikachu</a></td><td class="num">4</td><td class="num">4</td>'
        in page.text
    )
    assert '<input type="hidden" name="collection" value="alice">' in page.text  # "draw again" keeps it
    bad = client.post("/deck", data={"text": zap_text, "collection": "a/b"})
    assert bad.status_code == 400 and "bad player name" in bad.text


def test_cod_upload_read_as_cockatrice_like_cli(client, tmp_path):
    page = client.post(
        "/deck",
        data={"format": "pokemon-base"},
        files={"file": ("zap.cod", io.BytesIO(COD.encode()), "application/xml")},
    ).text
    assert "no-count" not in page
    assert "sideboards are not part of pokemon-base; remove these lines (2 cards on line 10, not counted)" in page
    code, report = _validate_cli(tmp_path, "zap.cod", COD)
    assert code == 1
    assert [(p["line"], p["rule"]) for p in report["problems"]] == [(9, "unknown-section")]
    assert report["problems"][0]["message"] in page


def test_json_upload_read_as_deck_document(client):
    doc = json.dumps({"format": "pokemon-base", "main": ["4 Bill", "4 Pikachu", "52 Lightning Energy"]}, indent=1)
    page = client.post("/deck", files={"file": ("zap.json", io.BytesIO(doc.encode()), "application/json")}).text
    assert "no-count" not in page
    assert "60 cards" in page


def test_unknown_suffix_read_as_text(client):
    upload = ("zap.dek", io.BytesIO(b"4 Bill\n4 Pikachu\n52 Lightning Energy\n"), "text/plain")
    page = client.post("/deck", data={"format": "pokemon-base"}, files={"file": upload}).text
    assert "60 cards" in page
