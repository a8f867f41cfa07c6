"""Naming cards in collection commands and CSV imports: a card id (``base1-4``), a set code or alias
and a collector number (``BS 4``), or a name in any language, through the deck-list matcher
(:class:`cardlab.decks.resolve.CardIndex`) of each game, with its "did you mean" suggestions."""

from __future__ import annotations

import re

from cardlab.catalog.model import Catalog
from cardlab.core.fuzzy import did_you_mean, did_you_mean_words, suggest
from cardlab.core.l10n import _, quote
from cardlab.decks.lines import split_count
from cardlab.decks.model import Entry
from cardlab.decks.resolve import CardIndex

_DECIMAL = r"[-+]?\d*[.,]\d+"
_DECIMAL_FIRST = re.compile(rf"^(?P<n>{_DECIMAL})\s*[x×]?\s+(?P<rest>\S.*)$", re.IGNORECASE)
_DECIMAL_LAST = re.compile(rf"^(?P<rest>\S.*?)\s+[x×]\s*(?P<n>{_DECIMAL})$", re.IGNORECASE)


def split_count_text(text: str) -> tuple[str | None, str]:
    """Split a card reference written as a deck line into its count and the card: ``2 Bill``,
    ``2x Bill``, ``Bill x2`` give ``("2", "Bill")``; so do the counts a collection refuses (``0 Bill``,
    ``-1 Bill``, ``1.5 Bill``), so that they are refused as counts, never looked up as names.
    ``(None, text)`` when the text has no count."""
    text = text.strip()
    for pattern in (_DECIMAL_FIRST, _DECIMAL_LAST):
        m = pattern.match(text)
        if m:
            return m["n"], m["rest"].strip()
    split = split_count(text)
    if split is not None:
        rest = split[1]
        head = text[: text.rfind(rest)] + text[text.rfind(rest) + len(rest) :]  # the count as written, not capped
        written = re.search(r"[-+]?\d+", head)
        return (written[0] if written else str(split[0])), rest
    return None, text


class CardResolver:
    """Resolve card references against every game of ``catalog`` (one :class:`CardIndex` per game,
    built on first use).

    Args:
        catalog: the card catalog; game: only this game's cards (None: every game).
    """

    def __init__(self, catalog: Catalog, game: str | None = None) -> None:
        self.catalog = catalog
        self.games = [game] if game else sorted({info.game for info in catalog.sets.values()})
        self._indexes: dict[str, CardIndex] = {}
        self._all_ids: list[str] | None = None

    def _index(self, game: str) -> CardIndex:
        if game not in self._indexes:
            self._indexes[game] = CardIndex(self.catalog, game)
        return self._indexes[game]

    def resolve(
        self, text: str = "", *, card_id: str | None = None, set_code: str | None = None, number: str | None = None, name: str | None = None
    ) -> tuple[str | None, str]:
        """Match one reference.

        Args:
            text: a card as written (id, ``SET NUMBER``, or a name); card_id, set_code + number,
                name: explicit parts (CSV columns), tried in that order.

        Returns:
            ``(card id, "")`` when matched, else ``(None, message)``; the message of an unknown name
            carries "did you mean" suggestions.
        """
        if card_id:
            card_id = card_id.strip()
            if card_id in self.catalog.cards and self.catalog.game_of(card_id) in self.games:
                return card_id, ""

            close = suggest(card_id, self._ids())
            hint = did_you_mean(close)
            return None, _("no card {card} in the catalog").format(card=card_id) + hint
        if set_code and number and name:
            entry = Entry(line=0, count=1, text=name.strip(), name=name.strip(), set_code=set_code.strip(), number=number.strip())
        elif set_code and number:
            entry = Entry(line=0, count=1, text=f"{set_code.strip()} {number.strip()}")
        else:
            entry = Entry(line=0, count=1, text=(name or text).strip())
        if not entry.text:
            return None, _("no card given")
        first = ""
        other = _(", not a {game} card").partition("{game}")[0]  # "a card of another game", in the reader's language
        for game in self.games:
            index = self._index(game)
            found, message, _rule = index.resolve(entry)
            if found:
                if entry.set_code is None and not _is_id(entry.text) and index.ids_of(entry.text):
                    return self._one_printing(found, entry.text)
                return found, ""
            message = message or ""
            # the most helpful of the games' answers: one with suggestions, else one that is not
            # "a card of another game" (a game without cards has neither)
            mean = did_you_mean_words()  # suggestions, in the reader's language
            if not first or (mean in message and mean not in first) or (other in first and other not in message):
                first = message
        return None, first or _("unknown card {name}").format(name=quote(entry.text))

    def resolve_counted(self, text: str) -> tuple[str | None, str, str | None]:
        """Match a reference that may carry a count, as a deck line does (``2 Bill``, ``Bill x2``).

        Returns:
            ``(card id or None, message, count as written or None)``: a text with a count
            (:func:`split_count_text`) is tried without it first, then whole (a name that starts
            with a number); the message is the one of the text without its count.
        """
        written, rest = split_count_text(text)
        if written is None:
            found, message = self.resolve(text)
            return found, message, None
        found, message = self.resolve(rest)
        if found is not None:
            return found, "", written
        whole, _ = self.resolve(text)
        if whole is not None:
            return whole, "", None
        return None, message, written

    def choices(self, text: str) -> list[str]:
        """Return the cards a reference that :meth:`resolve_counted` did not match could mean: every
        card (every printing) called ``text`` (a leading or trailing count aside) in any game, in
        print order, when there are several; ``[]`` when the name is unknown or names one card."""
        _written, rest = split_count_text(text)
        ids: list[str] = []
        for game in self.games:
            ids.extend(self.catalog.by_print_order(self._index(game).ids_of(rest)))
        return ids if len(ids) > 1 else []

    def _ids(self) -> list[str]:
        """Every card id of the resolver's games (what an unknown id is compared with for "did you
        mean"), read once: the ids and set codes alone (``catalog.card_set``), never the cards'
        data, so a catalog read from its index does not load 100,000 cards for one typo."""
        if self._all_ids is None:
            games = {code: info.game for code, info in self.catalog.sets.items()}
            self._all_ids = [c for c, code in self.catalog.card_set.items() if games.get(code) in self.games]
        return self._all_ids

    def _one_printing(self, card_id: str, name: str) -> tuple[str | None, str]:
        """A collection owns a printing: a name with several printings (Charizard in Base Set and
        Base Set 2, holo and plain Dark Charizard) is ambiguous; the message lists each printing
        as set and number."""
        # the index's printings on a catalog read from it (one query), not a table of every card
        printings = self.catalog.by_print_order(self.catalog.printings(card_id))
        if len(printings) == 1:
            return card_id, ""
        shown = ", ".join(f"{self.catalog.card_set[i]} {self.catalog.cards[i].get('number')} ({i})" for i in printings)
        first = printings[0]
        return None, (
            f'"{name}" has {len(printings)} printings: {shown}; a collection records one printing:'
            f' give its id or set and number, e.g. "{first}" or "{self.catalog.card_set[first]} {self.catalog.cards[first].get("number")}"'
        )


def _is_id(text: str) -> bool:
    return re.fullmatch(r"[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)*-[0-9a-z]+", text.strip()) is not None
