"""The deck builder and the saved decks for the web: the deck being built (a :class:`Draft`, kept in a
cookie so building works without JavaScript and without an account), its check and figures through
:func:`cardlab.web.decks.deck_view` (the one deck checker), its exports in every dialect
(:func:`cardlab.decks.dialects.write_deck`), and saving it through :mod:`cardlab.collection.saved`
(the same saved decks as ``cardlab deck save``), with the write token and the version check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi.responses import Response

from cardlab.core.errors import CardlabError
from cardlab.web.collections import check_write_access, open_collections, write_database
from cardlab.web.decks import check_deck_text
from cardlab.web.errors import WebError, web_error

if TYPE_CHECKING:
    from cardlab.collection.saved import SavedDeck
    from cardlab.web.state import Site

COOKIE = "cardlab_build"
"""The cookie that holds the deck being built (:meth:`Draft.cookie`)."""
TOKEN_COOKIE = "cardlab_token"
"""The cookie that remembers the write token once a page write was accepted with it (HttpOnly, SameSite=Strict)."""
MAX_DRAFT_CARDS = 150
"""Most different cards the builder holds: each takes up to 70 bytes of its cookie, which browsers cap
at 4 kB (a 60-card deck has a few dozen different cards)."""
MAX_COPIES = 999
"""Most copies of one card (the deck parser's cap for one line)."""
DIALECTS = {"ptcgl": "txt", "limitless": "txt", "tcgone": "txt", "cardlab": "txt", "json": "json"}
"""The builder's downloads: dialect -> file suffix (``cardlab`` is cardlab's own text list)."""
_ENTRY = re.compile(r"([A-Za-z0-9][A-Za-z0-9_-]{0,63})\*([1-9][0-9]{0,2})")
_HEAD = re.compile(r"!([A-Za-z0-9_-]{8})\.([1-9][0-9]{0,8})")


@dataclass
class Draft:
    """The deck being built: ``cards`` (card id -> copies, in the order first added) and, when it is
    an edit of a saved deck, that deck's ``deck_id`` and the ``version`` it was opened at."""

    cards: dict[str, int] = field(default_factory=dict)
    deck_id: str | None = None
    version: int = 0

    @property
    def total(self) -> int:
        """Copies in the deck."""
        return sum(self.cards.values())

    def text(self) -> str:
        """The deck as a list the deck parser reads (``4 base1-58`` a line)."""
        return "".join(f"{n} {cid}\n" for cid, n in self.cards.items())

    def cookie(self) -> str:
        """The cookie value (only characters a cookie takes unquoted): ``!ID.VERSION~`` for an edit, then ``id*copies`` joined by ``~``."""
        head = [f"!{self.deck_id}.{self.version}"] if self.deck_id else []
        return "~".join(head + [f"{cid}*{n}" for cid, n in self.cards.items()])

    @classmethod
    def from_cookie(cls, value: str | None) -> Draft:
        """Read :meth:`cookie`'s value; a malformed part is dropped (a cookie is the client's to change)."""
        draft = cls()
        for part in (value or "").strip('"').split("~")[: MAX_DRAFT_CARDS + 1]:
            if (m := _ENTRY.fullmatch(part)) and (m[1] in draft.cards or len(draft.cards) < MAX_DRAFT_CARDS):
                draft.cards[m[1]] = int(m[2])
            elif (m := _HEAD.fullmatch(part)) and draft.deck_id is None:
                draft.deck_id, draft.version = m[1], int(m[2])
        return draft

    def set(self, card_id: str, copies: int) -> None:
        """Set a card's copies (0 removes it).

        Raises:
            WebError: 400 ``bad_count`` outside 0 to :data:`MAX_COPIES`; 413 ``too_large`` past
                :data:`MAX_DRAFT_CARDS` different cards or :data:`cardlab.collection.saved.MAX_CARDS` copies.
        """
        from cardlab.collection.saved import MAX_CARDS

        if not 0 <= copies <= MAX_COPIES:
            raise WebError(400, "bad_count", f"a count is a whole number from 0 to {MAX_COPIES}, not {copies}")
        if copies == 0:
            self.cards.pop(card_id, None)
            return
        if card_id not in self.cards and len(self.cards) >= MAX_DRAFT_CARDS:
            raise WebError(413, "too_large", f"the builder holds at most {MAX_DRAFT_CARDS} different cards")
        total = self.total - self.cards.get(card_id, 0) + copies
        if total > MAX_CARDS:
            raise WebError(413, "too_large", f"the deck would have {total:,} cards; the builder holds at most {MAX_CARDS:,}")
        self.cards[card_id] = copies


def builder_view(
    site: Site, draft: Draft, format_name: str | None, langs: Sequence[str], seed: int, collection: str | None = None
) -> dict | None:
    """Everything the builder page shows of ``draft`` (:func:`cardlab.web.decks.deck_view`: verdicts for
    the format or every format, the list by section, statistics and exact odds, a sample hand, and
    the have/need against ``collection``); None for an empty draft."""
    from cardlab.web.decks import deck_view

    if not draft.cards:
        return None
    return deck_view(site, draft.text(), "deck.txt", format_name, langs, seed, collection)


def import_list(site: Site, text: str, format_name: str | None, langs: Sequence[str]) -> tuple[Draft, list[str]]:
    """Read a pasted list into a new draft: each line matched as the deck check matches it (the
    printing it names, or the one the format assumes for a name alone).

    Returns:
        ``(draft, messages)``: the messages say which lines matched no card (left out).

    Raises:
        WebError: as :func:`cardlab.web.decks.check_deck_text` (a list over 1,000 lines, not a deck),
            or :meth:`Draft.set` (too many cards, with the size).
    """
    from cardlab.collection.listing import unmatched_lines
    from cardlab.collection.saved import DeckTooLargeError, check_size
    from cardlab.core.inputs import split_lines

    try:
        check_size(len(split_lines(text)), 0)
        deck = check_deck_text(site, text, "deck.txt", format_name, langs)["deck"]
        check_size(0, deck.size(None))
    except DeckTooLargeError as err:
        raise WebError(413, "too_large", str(err)) from None
    draft = Draft()
    for c in deck.cards:
        draft.set(c.card_id, min(MAX_COPIES, draft.cards.get(c.card_id, 0) + c.count))
    return draft, [f"line {p.pos.line}: {p.message}" for p in unmatched_lines(deck)]


def export(site: Site, text: str, dialect: str, format_name: str | None, langs: Sequence[str]) -> tuple[str, str]:
    """Return ``(body, suffix)``: a deck list (the builder's or a saved one) in ``dialect``
    (:data:`DIALECTS`; :func:`cardlab.decks.dialects.write_deck`, as ``cardlab deck list -O``).

    Raises:
        WebError: 404 for an unknown dialect; 400 for a Pokémon tool's dialect of another game's deck.
    """
    from cardlab.decks.dialects import write_deck

    if dialect not in DIALECTS:
        raise WebError(404, "not_found", f"export as one of {', '.join(DIALECTS)}")
    deck = check_deck_text(site, text, "deck.txt", format_name, langs)["deck"]
    try:
        body = write_deck(deck, "text" if dialect == "cardlab" else dialect, langs, site.catalog.sets)
    except CardlabError as err:
        raise web_error(err) from None
    return body, DIALECTS[dialect]


def page_write_access(site: Site, token: str | None) -> None:
    """The write check of a page's form (:func:`cardlab.web.collections.check_write_access`, the same
    token as the collection API): a form cannot answer a Bearer challenge, so a missing or wrong
    token is 403 ``forbidden`` here (nothing written), as is a read-only server.

    Raises:
        WebError: 403.
    """
    try:
        check_write_access(site, token or None)
    except WebError as err:
        if err.status == 401:
            raise WebError(
                403, "forbidden", "saving needs the server's write token (the one cardlab serve --allow-writes was given)"
            ) from None
        raise


def save_draft(site: Site, draft: Draft, name: str | None, format_name: str | None, langs: Sequence[str]) -> SavedDeck:
    """Save the draft (:func:`cardlab.collection.saved.save`), or, when it is an edit, write it over
    the saved deck at the version it was opened at (:func:`cardlab.collection.saved.update`). What is
    saved is the list as matched, in cardlab's text dialect (:func:`cardlab.decks.check.export_text`).

    Raises:
        WebError: 400 for an empty draft; 404 ``not_found`` for an edit of a deck that is gone; 409
            ``version_conflict`` when someone saved the deck since (nothing written; the message says
            which version is current); 503 when the database cannot be written.
    """
    from cardlab.collection import saved
    from cardlab.decks.check import export_text

    if not draft.cards:
        raise WebError(400, "empty_deck", "the deck is empty: add cards before saving")
    deck = check_deck_text(site, draft.text(), "deck.txt", format_name, langs)["deck"]
    text = export_text(deck, langs, site.source_of)
    database = write_database()
    try:
        if draft.deck_id:
            return saved.update(database, draft.deck_id, text, draft.version, name)
        return saved.save(database, text, name)
    except saved.VersionConflictError as err:
        raise WebError(409, "version_conflict", str(err), current_version=err.current.version) from None
    except saved.SavedDeckNotFoundError as err:
        raise WebError(404, "not_found", str(err)) from None
    except CardlabError as err:
        raise web_error(err) from None


def saved_deck(deck_id: str) -> SavedDeck:
    """Return the saved deck ``deck_id`` (read-only; anyone with the link).

    Raises:
        WebError: 404 ``not_found`` (no such deck, a malformed id, no database yet); 503 when it cannot be read.
    """
    from cardlab.collection import saved

    database = open_collections()
    try:
        return saved.get(database, deck_id)
    except saved.SavedDeckNotFoundError:
        raise WebError(404, "not_found", f"no saved deck {deck_id!r}") from None
    finally:
        if database is not None:
            database.close()


def draft_of(site: Site, record: SavedDeck, keep_id: bool) -> Draft:
    """A draft holding a saved deck's cards: an edit of it (``keep_id``: its id and version) or a copy."""
    draft, _ = import_list(site, record.text, record.format, ())
    if keep_id:
        draft.deck_id, draft.version = record.id, record.version
    return draft


def saved_view(site: Site, record: SavedDeck, format_name: str | None, langs: Sequence[str], seed: int) -> dict[str, Any]:
    """The saved deck page's contents: :func:`cardlab.web.decks.deck_view` of its list."""
    from cardlab.web.decks import deck_view

    return deck_view(site, record.text, "deck.txt", format_name, langs, seed)


def with_draft(response: Response, draft: Draft) -> Response:
    """Set (or, for an empty deck, delete) the builder's cookie on ``response``."""
    if draft.cards or draft.deck_id:
        response.set_cookie(COOKIE, draft.cookie(), max_age=90 * 86400, httponly=True, samesite="lax", path="/")
    else:
        response.delete_cookie(COOKIE, path="/")
    return response


def download(body: str, filename: str) -> Response:
    """A text or JSON download named ``filename``."""
    media = "application/json" if filename.endswith(".json") else "text/plain; charset=utf-8"
    return Response(body, media_type=media, headers={"content-disposition": f'attachment; filename="{filename}"'})
