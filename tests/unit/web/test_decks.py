"""The deck work of the web (:mod:`cardlab.web.decks`): every check in a worker thread, lines as the
parser splits them (with :func:`cardlab.web.views.lines_with_problems`)."""

from __future__ import annotations

import pytest

from cardlab.core import l10n


def test_deck_exports_check_in_a_worker_thread(client, zap_text, monkeypatch):
    """Finding: the exports checked the deck inside the async handler, freezing every other request
    meanwhile. Every deck route now checks in the thread pool (no event loop in the checking thread)."""
    import asyncio

    from cardlab.web import decks as web

    seen = []
    original = web.check_deck_text

    def spy(*args, **kwargs):
        try:
            asyncio.get_running_loop()
            seen.append("event loop")
        except RuntimeError:
            seen.append("worker thread")
        return original(*args, **kwargs)

    monkeypatch.setattr(web, "check_deck_text", spy)
    plain = {"content-type": "text/plain"}
    for path in ("/deck", "/deck/export.txt", "/deck/export.json", "/deck/proxies.pdf"):
        assert client.post(path, data={"text": zap_text}).status_code == 200
    assert client.post("/api/decks/validate", content=zap_text, headers=plain).status_code == 200
    assert seen == ["worker thread"] * 5


@pytest.mark.parametrize("space", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_deck_page_lines_are_the_parsers_lines(client, web_app, space):
    """Finding: the page split the text with str.splitlines (which breaks at \\f, \\v, NEL, U+2028...)
    while the parser reads those as spaces, so problems showed beside the wrong lines."""
    from cardlab.web.decks import check_deck_text
    from cardlab.web.views import lines_with_problems

    text = f"1 Qwerty{space}x\n4 Bill\n1 Zzzz\n"
    checked = check_deck_text(web_app.site, text, "deck.txt", "pokemon-base", [])
    rows, _loose = lines_with_problems(text, checked["reports"])
    assert [r["text"] for r in rows] == [f"1 Qwerty{space}x", "4 Bill", "1 Zzzz"]
    unknown = [[p.message for _f, p in r["problems"] if p.rule == "unknown-card"] for r in rows]
    assert [len(u) for u in unknown] == [1, 0, 1]
    assert "Zzzz" in unknown[2][0]
    page = client.post("/deck", data={"text": text, "format": "pokemon-base"}).text
    assert '<tr id="line-3" class="bad"><td class="num">3</td><td class="text"><code>1 Zzzz</code>' in page
    assert 'id="line-4"' not in page


def test_an_unknown_card_with_each_formats_suggestions_is_one_problem():
    """Each format suggests among its own cards, so an unknown line's "did you mean" differs from
    format to format; the page still shows it once for every format (the first format's words)."""
    from pathlib import Path
    from types import SimpleNamespace

    from cardlab.core.errors import Problem, SourcePos
    from cardlab.web.views import lines_with_problems

    def report(name: str, message: str) -> SimpleNamespace:
        problem = Problem(SourcePos(Path("deck.txt"), 1, 1), message, rule="unknown-card")
        return SimpleNamespace(deck=SimpleNamespace(format=SimpleNamespace(name=name)), problems=[problem])

    base = report("base", 'unknown card "Pikachoo"; did you mean "Pikachu"?')
    promos = report("promos", 'unknown card "Pikachoo"; did you mean "Pikachu", "Surfing Pikachu"?')
    rows, loose = lines_with_problems("4 Pikachoo\n", [base, promos])
    assert [(where, p.message) for where, p in rows[0]["problems"]] == [("all", 'unknown card "Pikachoo"; did you mean "Pikachu"?')]
    assert loose == []
    with l10n.speaking("fr"):  # the suggestions set apart in the page's language
        base = report("base", "carte inconnue « Pikachoo » ; vouliez-vous dire « Pikachu » ?")
        promos = report("promos", "carte inconnue « Pikachoo » ; vouliez-vous dire « Pikachu », « Pikachu surfeur » ?")
        rows, _loose = lines_with_problems("4 Pikachoo\n", [base, promos])
    assert [where for where, _p in rows[0]["problems"]] == ["all"]
