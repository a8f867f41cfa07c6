"""Naming cards in collection commands and CSV imports: a card id (``base1-4``), a set code or alias
and a collector number (``BS 4``), or a name in any language, through the deck-list matcher
(:class:`cardlab.decks.resolve.CardIndex`) of each game, with its "did you mean" suggestions."""

from __future__ import annotations

from cardlab.catalog.model import Catalog
from cardlab.decks.model import Entry
from cardlab.decks.resolve import CardIndex


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
            from cardlab.core.fuzzy import suggest

            close = suggest(card_id, [c for c in self.catalog.cards if self.catalog.game_of(c) in self.games])
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            return None, f"no card {card_id} in the catalog{hint}"
        if set_code and number and name:
            entry = Entry(line=0, count=1, text=name.strip(), name=name.strip(), set_code=set_code.strip(), number=number.strip())
        elif set_code and number:
            entry = Entry(line=0, count=1, text=f"{set_code.strip()} {number.strip()}")
        else:
            entry = Entry(line=0, count=1, text=(name or text).strip())
        if not entry.text:
            return None, "no card given"
        first = ""
        for game in self.games:
            found, message, _rule = self._index(game).resolve(entry)
            if found:
                return found, ""
            if not first or ("not a" in first and "not a" not in (message or "")):
                first = message or ""
        return None, first or f'unknown card "{entry.text}"'
