"""Decks for the web: a pasted or uploaded list checked (:func:`cardlab.decks.check.check_list`, the one
deck checker, as the CLI), everything the deck page shows, a deck against a collection, and the
proxies PDF. The size caps of :mod:`cardlab.web.limits` bound each request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardlabError
from cardlab.web.collections import collection_counts
from cardlab.web.errors import WebError, web_error
from cardlab.web.limits import MAX_DECK_LINES, MAX_DECK_TEXT, MAX_PROXIES
from cardlab.web.views import lines_with_problems

if TYPE_CHECKING:
    from cardlab.decks.model import Deck
    from cardlab.web.state import Site


def check_deck_text(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str]) -> dict[str, Any]:
    """Check a pasted deck list (:func:`cardlab.decks.check.check_list`, the one deck checker, as
    the CLI): against ``format_name``, else the list's own ``Format:`` line, else against every
    format of its game.

    Args:
        site: the loaded catalog and formats; text: the deck list; name: its file name (``.yaml``
            reads it as YAML); format_name: a format or None; langs: languages of card names.

    Returns:
        ``{"deck": the matched Deck (the named format's, else the best fit's), "reports": [DeckReport, ...],
        "notes": [...], "list": the DeckList, "check": the LegalityReport}``.

    Raises:
        WebError: the text cannot be read as a deck (400 ``bad_deck``), an unknown format (400 ``bad_request``),
            a list over :data:`~cardlab.web.limits.MAX_DECK_TEXT` bytes or
            :data:`~cardlab.web.limits.MAX_DECK_LINES` lines (413 ``too_large``).
    """
    from cardlab.core.inputs import split_lines
    from cardlab.decks import check as decks
    from cardlab.decks.read import parse_deck_text

    if len(text.encode("utf-8", "surrogatepass")) > MAX_DECK_TEXT:
        raise WebError(413, "too_large", f"the deck list is larger than {MAX_DECK_TEXT:,} bytes")
    lines = len(split_lines(text))
    if lines > MAX_DECK_LINES:
        raise WebError(413, "too_large", f"the deck list has {lines:,} lines; the web checks at most {MAX_DECK_LINES:,}")
    try:
        deck_list = parse_deck_text(text, name, site.header_words)
        check = decks.check_list(deck_list, site.catalog, site.formats, format_name or None, langs, site.indexes)
    except CardlabError as err:
        raise web_error(err) from None
    reports = [decks.DeckReport(r.deck, r.problems) for r in check.results]
    return {"deck": check.best.deck, "reports": reports, "notes": check.notes, "list": deck_list, "check": check}


def deck_have(site: Site, deck: Deck, name: str) -> dict[str, Any]:
    """Return a matched deck against a collection, as ``cardlab deck have -O json`` gives it
    (:func:`cardlab.collection.listing.have`, :func:`~cardlab.collection.listing.have_json`): player,
    cards (id, name, need, own, missing), totals, ``complete``.

    Raises:
        WebError: a bad collection name (400), a database that cannot be read (503).
    """
    from cardlab.collection import listing

    who, owned = collection_counts(name)
    return listing.have_json(listing.have(deck, owned, site.catalog), who, listing.unmatched_lines(deck))


def deck_view(
    site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str], seed: int, collection: str | None = None
) -> dict[str, Any]:
    """Everything the deck page shows: the check (:func:`check_deck_text`), lines with their problems,
    statistics with exact odds, a sample hand for ``seed``, the deck list as matched, and with
    ``collection`` the cards that collection has and needs (:func:`deck_have`).

    Raises:
        WebError: as :func:`check_deck_text` and :func:`deck_have`.
    """
    from cardlab.decks.check import deck_list
    from cardlab.decks.stats import deck_stats, sample_hand

    checked = check_deck_text(site, text, name, format_name, langs)
    deck = checked["deck"]
    rows, loose = lines_with_problems(text, checked["reports"])
    for note in deck.notes:  # the printings the shown deck (the format's, else the best fit) assumed
        if 1 <= note.pos.line <= len(rows):
            rows[note.pos.line - 1]["notes"].append(note)
    try:
        stats = deck_stats(deck)
    except CardlabError:
        stats = None
    hand = [(c, site.catalog.name_of(c.card_id, langs)) for c in sample_hand(deck, seed)]
    return {
        **checked,
        "rows": rows,
        "loose": loose,
        "stats": stats,
        "hand": hand,
        "seed": seed,
        "listing": deck_list(deck, langs, site.source_of),
        "have": deck_have(site, deck, collection) if collection else None,
    }


def proxies_pdf(site: Site, text: str, name: str, format_name: str | None, langs: Sequence[str], paper: str, force: bool) -> bytes:
    """Return the proxies PDF of a pasted deck (:func:`cardlab.proxies.pdf.render_pdf`), one card per copy.

    Raises:
        WebError: the deck cannot be read, asks for more than :data:`~cardlab.web.limits.MAX_PROXIES`
            copies (413 ``too_large``, even with ``force``), has problems and ``force`` is False (400
            ``deck_problems``), or a bad paper name.
    """
    from cardlab.proxies import pdf as px

    checked = check_deck_text(site, text, name, format_name, langs)
    deck = checked["deck"]
    copies = sum(c.count for c in deck.cards)
    if copies > MAX_PROXIES:
        raise WebError(
            413,
            "too_large",
            f"the deck asks for {copies:,} proxies; the web prints at most {MAX_PROXIES:,} per request (cardlab proxies has no limit)",
        )
    report = next(r for r in checked["reports"] if r.deck is deck) if checked["reports"] else None
    if report is not None and report.problems and not force:
        raise WebError(
            400,
            "deck_problems",
            f"the deck has {len(report.problems)} problem(s) under {deck.format.name}; fix them or tick 'print anyway'",
        )
    if paper not in px.PAPERS:
        raise WebError(400, "bad_parameter", f"paper: one of {', '.join(px.PAPERS)}")
    try:
        data, _report = px.render_pdf(
            site.catalog,
            px.expand((c.card_id, c.count) for c in deck.cards),
            px.ProxyOptions(paper=paper, langs=tuple(langs)),
            title=deck.name or "cardlab proxies",
        )
    except CardlabError as err:
        raise web_error(err) from None
    return data
