"""The pages in a real browser: Playwright driving Debian's Chromium (see conftest.py), one browser for
the session, against uvicorn on 127.0.0.1.

Set CARDLAB_SCREENSHOTS=docs to rewrite the README's screenshots (docs/web-search.png, docs/web-deck.png).
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("CARDLAB_SCREENSHOTS")


def shot(page: Page, name: str) -> None:
    """Save a screenshot when CARDLAB_SCREENSHOTS names a folder."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def test_search_language_card_and_errors(page: Page, live_server):
    page.goto(live_server + "/search")
    page.get_by_label("Search cards").fill("type:fire hp>=80")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#count")).to_have_text(re.compile(r"^4 cards"))
    expect(page.locator("#results tbody tr")).to_have_count(4)
    expect(page.locator("#results .name")).to_have_text(["Charizard", "Ninetales", "Arcanine", "Charmeleon"], ignore_case=False)
    assert "q=type%3Afire+hp%3E%3D80" in page.url  # a permalink
    page.set_viewport_size({"width": 1100, "height": 560})
    shot(page, "web-search.png")
    # switching to French
    page.get_by_role("link", name="fr", exact=True).first.click()
    expect(page.locator("#results .name").first).to_have_text("Dracaufeu")
    assert "lang=fr" in page.url
    # opening a card page
    page.get_by_role("link", name="base1-4").click()
    expect(page.locator("#card-name")).to_contain_text("Dracaufeu")
    expect(page.locator("#names")).to_contain_text("Glurak")
    expect(page.locator("#legality")).to_contain_text("pokemon-base")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # the words too, kept in the lang cookie
    page.context.clear_cookies()
    # a bad query shows the caret under the character
    page.goto(live_server + "/search")
    page.get_by_label("Search cards").fill("hp>>80")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#query-error")).to_contain_text("error:")
    assert page.locator("#query-error .caret").inner_text() == "hp>>80\n   ^"


def test_paging(page: Page, live_server):
    page.goto(live_server + "/search?q=set%3Abase1")
    expect(page.locator("#page")).to_have_text("page 1 of 3")
    expect(page.locator("#results tbody tr")).to_have_count(50)
    page.get_by_role("link", name="next →").click()
    expect(page.locator("#page")).to_have_text("page 2 of 3")
    expect(page.locator("#count")).to_contain_text("51–100 shown")
    page.get_by_role("link", name="next →").click()
    expect(page.locator("#results tbody tr")).to_have_count(2)
    page.get_by_role("link", name="← previous").click()
    expect(page.locator("#page")).to_have_text("page 2 of 3")
    assert "page=2" in page.url  # every page is a permalink


def test_deck_problem_hand_and_proxies(page: Page, live_server, zap_text):
    from pypdf import PdfReader

    page.goto(live_server + "/deck")
    page.get_by_label("Paste a deck list").fill(zap_text.replace("2 Bill", "5 Bill"))
    page.get_by_role("button", name="Check").click()
    line = page.locator("#line-10")
    expect(line).to_contain_text("5 Bill")
    expect(line.locator(".problem").first).to_contain_text('copy-limit: 5 copies of "Bill" (limit 4)')
    expect(page.locator("#verdicts")).to_contain_text("not legal")
    expect(page.locator("#hand li")).to_have_count(7)
    first_hand = page.locator("#hand").inner_text()
    page.get_by_role("button", name="Draw again").click()
    expect(page.locator("#sample h2")).to_contain_text("seed 2")
    expect(page.locator("#hand li")).to_have_count(7)
    assert page.locator("#hand").inner_text() != first_hand
    page.set_viewport_size({"width": 1100, "height": 900})
    shot(page, "web-deck.png")
    # a legal deck: its proxies download as a PDF
    page.goto(live_server + "/deck")
    page.get_by_label("Paste a deck list").fill(zap_text)
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("row", name="pokemon-base legal", exact=True)).to_be_visible()
    with page.expect_download() as info:
        page.get_by_role("button", name="proxies (PDF)").click()
    download = info.value
    assert download.suggested_filename == "deck-proxies.pdf"
    data = Path(download.path()).read_bytes()
    assert data.startswith(b"%PDF") and len(PdfReader(io.BytesIO(data)).pages) == 7


def test_deck_against_a_collection(page: Page, live_server, zap_text):
    from cardlab.collection import db, owned

    owned.change(db.connect(), "alice", [("add", "base1-58", 4), ("add", "base1-91", 1)])
    page.goto(live_server + "/deck")
    page.get_by_label("Paste a deck list").fill(zap_text)
    page.get_by_label("Compare with a collection").select_option("alice")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#have-total")).to_have_text("5 of 60 cards owned, 55 missing.")
    assert page.locator("#collection").input_value() == "alice"  # the form keeps the choice
    expect(page.locator('#have-cards tr[data-id="base1-91"] td')).to_have_text(["Bill", "2", "1", "1"])
    page.get_by_role("button", name="Draw again").click()  # the comparison stays with the deck
    expect(page.locator("#sample h2")).to_contain_text("seed 2")
    expect(page.locator("#have-total")).to_have_text("5 of 60 cards owned, 55 missing.")
