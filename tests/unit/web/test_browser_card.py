"""Issue 30, items 1 and 4 in a real browser (Chromium, see conftest.py): reading a card, every page on a
390 px phone without horizontal scrolling and with a label on every control, keyboard-only navigation
from the search to a card.

Set CARDLAB_SCREENSHOTS=docs to rewrite the README's screenshots (docs/web-card.png, docs/web-card-phone.png,
docs/web-grid.png).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.unit.web.test_browser import SHOTS, shot

PHONE = {"width": 390, "height": 844}

UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea, button')]
  .filter(e => e.type !== 'hidden' && !e.hidden)
  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent.trim()))
  .map(e => e.outerHTML)"""
"""The form controls that have no label (a <label>, an aria-label, or a button's own text)."""

LOW_CONTRAST = """() => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  const low = [];
  for (const e of document.querySelectorAll('body *')) {
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) || !e.getClientRects().length) continue;
    const st = getComputedStyle(e); if (st.visibility === 'hidden' || e.closest('.skip')) continue;
    const [a, b] = [lum(rgb(st.color).slice(0, 3)), lum(background(e))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = parseFloat(st.fontSize) >= 24 || (parseFloat(st.fontSize) >= 18.66 && Number(st.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(`${e.tagName}.${e.className} ${ratio.toFixed(2)}: ${e.textContent.trim().slice(0, 30)}`);
  }
  return low;
}"""
"""Text below WCAG 2.1 AA contrast against its background (4.5:1, 3:1 for large text), as
``TAG.class ratio: text``."""


def fits(page: Page) -> tuple[int, int]:
    """The page's (scrollWidth, clientWidth): wider content means horizontal scrolling."""
    return page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")


def test_reading_a_card(page: Page, live_server):
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(live_server + "/card/base1-4")
    details = page.locator("#details")
    expect(details.locator("tr", has=page.locator("th", has_text=re.compile("^HP$"))).locator("td")).to_have_text("120")
    attack = details.locator("tr", has=page.locator("th", has_text="Attack"))
    expect(attack.get_by_role("img", name="Fire")).to_have_count(4)  # the cost, as symbols with their names
    expect(attack).to_contain_text("Fire Spin 100")
    expect(attack).to_contain_text("Using this attack requires discarding 2 Energy cards from this Pokémon.")
    weakness = details.locator("tr", has=page.locator("th", has_text="Weakness"))
    expect(weakness.get_by_role("img", name="Water")).to_have_count(1)
    expect(weakness.locator("td")).to_have_text("W ×2")
    expect(details.locator("tr", has=page.locator("th", has_text="Retreat")).get_by_role("img", name="Colorless")).to_have_count(3)
    expect(details).to_contain_text("Mitsuhiro Arita")
    face = page.get_by_role("img", name="Charizard, drawn as a proxy")
    expect(face).to_be_visible()
    assert face.evaluate("img => img.complete && img.naturalWidth") > 100  # the SVG loaded under the CSP
    expect(page.locator("#fields")).to_be_hidden()  # every field, folded
    page.get_by_text("Every field").click()
    expect(page.locator("#fields")).to_contain_text("national_pokedex_numbers")
    page.get_by_text("Every field").click()
    page.set_viewport_size({"width": 820, "height": 620})
    if SHOTS:  # the card itself, then the page on a phone
        page.locator(".sheet").screenshot(path=f"{SHOTS}/web-card.png")
        page.set_viewport_size(PHONE)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=f"{SHOTS}/web-card-phone.png")
    page.get_by_role("link", name="fr", exact=True).click()
    expect(page.locator("#card-name")).to_contain_text("Dracaufeu")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # the page's words follow ?lang=
    attaque = details.locator("tr", has=page.locator("th", has_text="Attaque"))
    expect(attaque).to_contain_text("Danseflamme")
    page.context.clear_cookies()  # ?lang=fr was kept in the lang cookie


def test_every_page_fits_a_phone_and_labels_every_control(page: Page, live_server, web_app, zap_text):
    """Every HTML page of the route table (the API and images aside) at 390 px: no horizontal
    scrolling, ``<html lang>`` set, a label on every form control, text at AA contrast; then pages with
    content."""
    from cardlab.web.routes import route_table

    plain = [
        r.path
        for r in route_table(web_app.app)
        if "GET" in (r.methods or ()) and not r.path.startswith(("/api", "/static")) and "{" not in r.path and r.path != "/"
    ]
    assert {"/search", "/search/help", "/sets", "/deck"} <= set(plain)
    pages = [
        *plain,
        "/search?q=type%3Afire",
        "/search?q=type%3Afire&view=grid",
        "/search?q=hp%3E%3E80",
        "/card/base1-4",
        "/nowhere",
        "/card/base1-4?lang=de",  # last: its language is kept in a cookie
    ]
    page.set_viewport_size(PHONE)
    for path in pages:
        page.goto(live_server + path)
        assert fits(page)[0] <= fits(page)[1], path
        assert page.evaluate("document.documentElement.lang") == ("de" if "lang=de" in path else "en"), path
        assert page.evaluate(UNLABELLED) == [], path
        assert page.evaluate(LOW_CONTRAST) == [], path
    page.context.clear_cookies()
    page.goto(live_server + "/deck")
    page.get_by_label("Paste a deck list").fill(zap_text)
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#verdicts")).to_contain_text("legal")
    assert fits(page)[0] <= fits(page)[1], "deck report"
    assert page.evaluate(UNLABELLED) == [], "deck report"
    assert page.evaluate(LOW_CONTRAST) == [], "deck report"
    page.goto(live_server + "/search?q=type%3Afire")
    row = page.locator("#results tbody tr").first  # a table becomes stacked rows: its cells one under another
    cells = row.locator("td")
    assert cells.nth(1).bounding_box()["y"] > cells.nth(0).bounding_box()["y"]
    page.goto(live_server + "/search?q=type%3Afire+hp%3E%3D80")
    page.get_by_role("link", name="card faces", exact=True).click()  # the grid, by a plain link
    faces = page.locator("#grid img")
    expect(faces).to_have_count(4)
    expect(page.get_by_role("img", name="Charizard")).to_be_visible()
    assert faces.first.evaluate("img => img.complete && img.naturalWidth") > 100
    assert fits(page)[0] <= fits(page)[1], "grid"
    page.set_viewport_size({"width": 800, "height": 600})
    shot(page, "web-grid.png")
    page.get_by_role("link", name="table", exact=True).click()
    expect(page.locator("#results tbody tr")).to_have_count(4)


def test_keyboard_alone_reaches_a_card(page: Page, live_server):
    page.set_viewport_size(PHONE)
    page.goto(live_server + "/sets")
    page.keyboard.press("Tab")  # the first stop of a page is the skip link
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # past the header, into the content
    assert page.evaluate("document.activeElement.closest('main') !== null")
    page.goto(live_server + "/search")
    assert page.evaluate("document.activeElement.id") == "q"  # the search box has the focus
    page.keyboard.type("charizard")
    page.keyboard.press("Enter")
    expect(page.locator("#count")).to_have_text(re.compile(r"^1 card"))
    for _ in range(40):
        page.keyboard.press("Tab")
        if "/card/" in (page.evaluate("document.activeElement.getAttribute('href')") or ""):
            break
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"  # focus is visible
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/card/base1-4$"))
    expect(page.locator("#card-name")).to_contain_text("Charizard")
