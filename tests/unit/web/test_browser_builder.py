"""The deck builder, saved decks and collection pages in a real browser (issue 30 items 2 and 3):
Playwright driving Debian's Chromium (see conftest.py) against uvicorn on 127.0.0.1, with writes on
(the token of tests/unit/web/support.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.unit.web.support import TOKEN
from tests.unit.web.test_browser import shot
from tests.unit.web.test_browser_card import PHONE, fits


@pytest.fixture(scope="module")
def writes_server(web_app, serve_app):
    """uvicorn serving an app over the session's catalog and index with writes on."""
    from cardlab.web.app import create_app

    app = create_app(web_app.site.roots, web_app.site.db, allow_writes=True, token=TOKEN)
    with serve_app(app) as url:
        yield url


def add_from_search(page: Page, base: str, query: str, card_id: str) -> None:
    page.goto(base + "/search")
    page.get_by_label("Search cards").fill(query)
    page.get_by_role("button", name="Search").click()
    page.locator(f'#results tr[data-id="{card_id}"]').get_by_role("button", name=re.compile("^add")).click()
    expect(page.locator("#builder-status")).to_contain_text("in the deck")  # the script kept the page


def test_build_a_legal_deck_from_search_save_share_and_export(page: Page, browser: Browser, writes_server):
    base = writes_server
    add_from_search(page, base, "hitmonchan", "base1-7")
    add_from_search(page, base, "fighting energy", "base1-97")
    page.goto(base + "/build")
    expect(page.locator("#deck-total")).to_have_text("2")
    for name, count in (("Hitmonchan", "4"), ("Fighting Energy", "56")):
        box = page.get_by_label(f"copies of {name}")
        box.fill(count)
        box.press("Enter")
    expect(page.locator("#deck-total")).to_have_text("60")
    page.get_by_label("Check against").select_option("pokemon-base")
    page.get_by_role("button", name="Check").click()
    expect(page.locator('#verdicts tr[data-format="pokemon-base"] td')).to_have_text("legal")
    expect(page.locator("#odds")).to_contain_text("%")
    shot(page, "web-builder.png")
    page.get_by_label("Name").fill("Punch and Power")
    page.get_by_label(re.compile("^Write token")).fill(TOKEN)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#deck-name")).to_have_text("Punch and Power")
    permalink = page.url
    assert re.fullmatch(re.escape(base) + r"/d/[A-Za-z0-9_-]{8}", permalink)
    # anyone with the link: a fresh context (no cookie, no token)
    other = browser.new_context()
    try:
        fresh = other.new_page()
        fresh.goto(permalink)
        expect(fresh.locator("#deck-name")).to_have_text("Punch and Power")
        expect(fresh.locator('#verdicts tr[data-format="pokemon-base"] td')).to_have_text("legal")
        expect(fresh.locator('#list tr[data-id="base1-97"] td.num')).to_have_text("56")
        with fresh.expect_download() as info:
            fresh.locator("#export-ptcgl").click()
        text = open(info.value.path(), encoding="utf-8").read()
        assert text.splitlines() == ["Pokémon: 1", "4 Hitmonchan BS 7", "", "Energy: 1", "56 Basic {F} Energy BS 97", "", "Total Cards: 60"]
        fresh.set_viewport_size(PHONE)
        assert fits(fresh)[0] <= fits(fresh)[1]  # the permalink on a phone: no horizontal scrolling
        fresh.get_by_role("button", name="Copy into the builder").click()
        expect(fresh.locator("#deck-total")).to_have_text("60")
        expect(fresh.locator("#editing")).to_have_count(0)  # a copy, not an edit
        assert fits(fresh)[0] <= fits(fresh)[1]  # the builder with a deck, on a phone
    finally:
        other.close()


def test_keyboard_only_deck_building(page: Page, writes_server):
    page.goto(writes_server + "/build")

    def tab_to(element_id: str) -> None:
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
                return
        raise AssertionError(f"Tab never reached #{element_id}")

    tab_to("add-card")
    page.keyboard.type("Hitmonchan BS 7")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-total")).to_have_text("1")
    tab_to("add-card")
    page.keyboard.type("Bill")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-total")).to_have_text("2")
    page.keyboard.press("Tab")
    for _ in range(60):  # on to Hitmonchan's count, then a new count and Enter
        if page.evaluate("document.activeElement.getAttribute('aria-label')") == "copies of Hitmonchan":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-total")).to_have_text("4")
    expect(page.locator('#list tr[data-id="base1-7"] input.count')).to_have_value("3")
    assert page.locator("#list tr[data-id]").evaluate_all("rows => rows.map(r => r.dataset.id)") == ["base1-7", "base1-91"]


def test_collection_page_with_have_and_need(page: Page, live_server):
    from cardlab.collection import db, owned, saved

    owned.change(db.connect(), "alice", [("add", "base1-7", 2), ("add", "base1-91", 5)])
    deck = saved.save(db.connect(), "Format: pokemon-base\n4 Hitmonchan base1 7\n1 Bill base1 91\n", "Punchy")
    page.goto(live_server + "/collections")
    page.get_by_role("link", name="alice").click()
    expect(page.locator("#collection-total")).to_have_text("2 cards, 7 copies.")
    page.get_by_label("Search the owned cards").fill("name:bill")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#owned tbody tr")).to_have_count(1)
    page.get_by_label("A saved deck").select_option(deck.id)
    page.get_by_role("button", name="Have / need").click()
    expect(page.locator("#have-total")).to_have_text("3 of 5 cards owned, 2 missing.")
    expect(page.locator('#have-cards tr[data-id="base1-7"] td')).to_have_text(["Hitmonchan", "4", "2", "2"])
    assert page.locator("#have-total").inner_text() == "3 of 5 cards owned, 2 missing."
    page.set_viewport_size(PHONE)
    assert fits(page)[0] <= fits(page)[1]  # on a phone: no horizontal scrolling
    shot(page, "web-collection.png")
