"""The deck page in a real browser (Chromium through Playwright, see conftest.py) over the whole shipped
catalog: a real list pasted bare gets the judge's verdict in every format, the printing it assumed as
a note beside its line, and a problem that every format reports shown once (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.data.test_bare_lists import bare

REPO = Path(__file__).resolve().parents[3]
HAYMAKER = REPO / "examples" / "decks" / "vintage" / "1999-10-berkeley-the-better-haymaker.txt"


@pytest.fixture(scope="module")
def full_server(tmp_path_factory, serve_app):
    """``cardlab serve``'s app over the whole shipped catalog, served on a free port."""
    from cardlab.core.paths import shipped_catalog
    from cardlab.web.app import create_app

    base = tmp_path_factory.mktemp("full-web")
    mp = pytest.MonkeyPatch()
    mp.setenv("CARDLAB_CACHE_DIR", str(base / "cache"))
    with serve_app(create_app([shipped_catalog()], base / "index.sqlite")) as url:
        yield url
    mp.undo()


def test_bare_haymaker_in_every_format(page: Page, full_server):
    page.goto(full_server + "/deck")
    page.get_by_label("Paste a deck list").fill(bare(HAYMAKER))
    page.get_by_role("button", name="Check").click()
    for name in ("pokemon-base-fossil", "pokemon-base-jungle", "pokemon-base-rocket", "pokemon-base-gym", "pokemon-unlimited"):
        expect(page.locator(f'#verdicts tr[data-format="{name}"] td')).to_have_text("legal")
    expect(page.locator('#verdicts tr[data-format="pokemon-base"] td')).to_have_text("not legal: 1 problem")
    # the best fit is the narrowest format the list fits: Base–Jungle, where Electabuzz is Base Set's only
    expect(page.locator("#line-2 .note")).to_have_count(0)
    # Base Set alone has no Lickitung: that format's problem, at its line, naming the format
    expect(page.locator("#line-3 .problem")).to_have_count(1)
    expect(page.locator("#line-3 .problem")).to_contain_text('pokemon-base: allowed-sets: "Lickitung" is printed only in base2, base4')
    # under Base–Fossil, which allows promos 1 to 9, the assumption is a note beside its line
    page.get_by_label("Format").select_option("pokemon-base-fossil")
    page.get_by_role("button", name="Check").click()
    expect(page.locator('#verdicts tr[data-format="pokemon-base-fossil"] td')).to_have_text("legal")
    expect(page.locator("#line-2 .note")).to_have_text("note: 4 Electabuzz: Base Set 20 assumed (also Wizards Black Star Promos 2)")
    assert page.locator("#verdicts tr").count() == 1  # one format asked for: one verdict


def test_a_problem_every_format_reports_is_shown_once(page: Page, full_server):
    page.goto(full_server + "/deck")
    page.get_by_label("Paste a deck list").fill(bare(HAYMAKER).replace("4 Bill", "4 Pikachoo"))
    page.get_by_role("button", name="Check").click()
    line = page.locator("#line-5")
    expect(line.locator(".problem")).to_have_count(1)
    expect(line.locator(".problem")).to_have_attribute("data-formats", "all")
    expect(line.locator(".problem")).to_contain_text('every format: unknown-card: unknown card "Pikachoo"')
    assert page.locator("#verdicts tr").count() == 7  # surveyed: the seven Pokémon formats, the problem shown once
