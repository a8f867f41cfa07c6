"""The deck form keeps an upload's suffix when the deck reader knows it: a Cockatrice ``.cod`` or a
``.json`` deck document is read as the CLI reads the same file, never as a text list."""

from __future__ import annotations

import io
import json
from pathlib import Path

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
