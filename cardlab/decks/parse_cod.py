"""Cockatrice deck files (``.cod``): the XML the Cockatrice client saves, read into the same
:class:`~cardlab.decks.model.DeckList` as a plain-text list.

A deck is ``<cockatrice_deck version="1">`` holding ``<deckname>``, ``<comments>`` and ``<zone
name="main">`` / ``<zone name="side">`` elements of ``<card number="4" name="Pikachu"/>``. Each card
element is one line of the list, at the element's line in the file: ``number`` is the count,
``name`` the card as written (with ``setShortName`` and ``collectorNumber`` when Cockatrice wrote
them: ``Pikachu BS 58``). The cards of the ``side`` zone are sideboard lines (a ``Sideboard``
header at the zone's line); a ``tokens`` zone holds no deck card and is skipped. A count or name
that is missing or not a number is a problem at its line, as a text line's would be.

Every other card element is reported at its line (``unknown-section``, as a text list's sideboard
lines are), never dropped nor counted in the main deck: a ``<card>`` outside any zone, in a zone
that is not ``main``/``side``/``tokens`` (``maybeboard``), in a zone nested inside another zone, or
not directly inside its zone; a zone nested inside another is reported at its own line too.

The XML is read with :mod:`defusedxml` (no entity expansion, no external DTD or entity: a deck file
from the internet cannot make cardlab read a local file or fill the memory). Input that is not
well-formed XML, or XML that is not a Cockatrice deck, is refused whole with one
:class:`~cardlab.core.errors.InputError` (exit 2) naming the file, line and column, never as one
problem per line.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import InputError, Problem, SourcePos
from cardlab.core.l10n import _, quote
from cardlab.decks.lines import count_problem, to_int
from cardlab.decks.model import DeckList, Entry, Header

if TYPE_CHECKING:
    from xml.sax.xmlreader import AttributesImpl, Locator

ROOT = "cockatrice_deck"
"""The root element of a Cockatrice deck file."""
SIDE_ZONES = frozenset({"side"})
"""Zones whose cards are beside the deck (a sideboard)."""
SKIPPED_ZONES = frozenset({"tokens"})
"""Zones that hold no card of the deck (Cockatrice's token list)."""
COUNTED_ZONES = frozenset({"main"}) | SIDE_ZONES
"""Zones whose cards are read (``main``, the deck, and the sideboard): a card in any other zone is
reported."""


def looks_like_cod(text: str) -> bool:
    """True when a pasted list or standard input is a Cockatrice deck rather than a text list: it
    starts (after blanks and a BOM) with an XML declaration or the ``<cockatrice_deck`` element."""
    head = text.lstrip("\ufeff \t\r\n")[:200]
    return head.startswith("<?xml") or head.startswith("<" + ROOT)


@cache
def _handler_class() -> Any:
    """Return the SAX handler class, a ContentHandler subclass made on first use (typed Any: xml.sax
    costs 8 ms to import, and a text list never pays it)."""
    from xml.sax.handler import ContentHandler  # lazy: xml.sax (8 ms) only for a Cockatrice deck

    class _Handler(ContentHandler):
        """Collects the deck's lines as the parser meets the elements (line numbers from the locator)."""

        def __init__(self, deck: DeckList) -> None:
            super().__init__()
            self.deck = deck
            self.locator: Locator | None = None
            self.depth = 0
            self.root_seen = False
            self.zone: str | None = None
            self.zone_header: int | None = None
            self.text: list[str] | None = None  # the text of <deckname> while inside it
            self.parents: list[str] = []  # the open elements below the root
            self.nested = 0  # how many zones inside a zone are open

        def setDocumentLocator(self, locator: Locator) -> None:  # noqa: N802 - the SAX interface
            self.locator = locator

        def _line(self) -> int:
            return (self.locator.getLineNumber() or 1) if self.locator is not None else 1

        def startElement(self, name: str, attrs: AttributesImpl) -> None:  # noqa: N802 - the SAX interface
            self.depth += 1
            if self.depth == 1:
                if name != ROOT:
                    raise _NotADeck(
                        _("the root element is {found}, not {root}").format(found=f"<{name}>", root=f"<{ROOT}>"),
                        self._line(),
                        self._column(),
                    )
                self.root_seen = True
                return
            if name == "deckname" and self.depth == 2:
                self.text = []
            elif name == "zone" and self.depth == 2:
                self.zone = attrs.get("name", "main")
                self.zone_header = None
                if self.zone in SIDE_ZONES:
                    self.deck.headers.append(Header(self._line(), f'zone "{self.zone}"', "sideboard", None, False, True))
                    self.zone_header = len(self.deck.headers) - 1
            elif name == "zone":
                where = _("the zone {zone}").format(zone=quote(self.zone)) if self.zone is not None else f"<{self.parent}>"
                zone = f'<zone name="{attrs.get("name", "main")}">'
                self._report(_("a {zone} inside {where}; zones are not nested: its cards are not counted").format(zone=zone, where=where))
                self.nested += 1
            elif name == "card":
                self._place(attrs)
            self.parents.append(name)

        @property
        def parent(self) -> str:
            return self.parents[-1] if self.parents else ROOT

        def _report(self, message: str) -> None:
            self.deck.problems.append(Problem(SourcePos(self.deck.path, self._line()), message, "unknown-section"))

        def _place(self, attrs: AttributesImpl) -> None:
            """Count a card element of a zone, or report it where it cannot be counted."""
            what = f'<card name="{(attrs.get("name") or "").strip()}">'
            if self.nested:
                self._report(
                    _("{card} is in a zone inside another zone; not counted (a deck's zones hold its cards directly)").format(card=what)
                )
            elif self.zone is None:
                self._report(_("{card} is outside any zone; not counted (put it in {zone})").format(card=what, zone='<zone name="main">'))
            elif self.zone in SKIPPED_ZONES:
                return
            elif self.zone not in COUNTED_ZONES:
                self._report(
                    _("{card} is in the zone {zone}, which is not part of the deck (zones: main, side); not counted").format(
                        card=what, zone=quote(self.zone)
                    )
                )
            elif self.depth != 3:
                self._report(
                    _("{card} is inside {parent}, not directly in its zone; not counted").format(card=what, parent=f"<{self.parent}>")
                )
            else:
                self._card(attrs)

        def _column(self) -> int:
            return (self.locator.getColumnNumber() or 0) + 1 if self.locator is not None else 1

        def _card(self, attrs: AttributesImpl) -> None:
            line, deck = self._line(), self.deck
            card_name = (attrs.get("name") or "").strip()
            number = (attrs.get("number") or "").strip()
            if not card_name:
                deck.problems.append(
                    Problem(
                        SourcePos(deck.path, line),
                        _("a {card} without a name: write {fix}").format(card="<card>", fix='name="Pikachu"'),
                        "no-count",
                    )
                )
                return
            set_code, collector = (attrs.get("setShortName") or "").strip(), (attrs.get("collectorNumber") or "").strip()
            text = f"{card_name} {set_code} {collector}" if set_code and collector else card_name
            if not number.lstrip("+-").isdecimal():
                shown = f'number="{number}"' if number else _("no number")
                message = _("cannot read a count for {card} ({number}); a card element looks like {example}").format(
                    card=quote(text), number=shown, example=f'<card number="4" name="{card_name}"/>'
                )
                deck.problems.append(Problem(SourcePos(deck.path, line), message, "no-count"))
                return
            n = to_int(number)
            problem = count_problem(deck.path, line, n, text)
            if problem:
                deck.problems.append(problem)
            else:
                deck.entries.append(Entry(line, n, text, self.zone_header))

        def characters(self, content: str) -> None:
            if self.text is not None:
                self.text.append(content)

        def endElement(self, name: str) -> None:  # noqa: N802 - the SAX interface
            if name == "deckname" and self.text is not None:
                value = " ".join("".join(self.text).split())
                if value:
                    self.deck.name = value
                self.text = None
            elif name == "zone" and self.depth == 2:
                self.zone = None
                self.zone_header = None
            elif name == "zone":
                self.nested -= 1
            if self.depth > 1:
                self.parents.pop()
            self.depth -= 1

    return _Handler


class _NotADeck(Exception):
    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line, self.column = line, column


def parse_cod(text: str, path: Path) -> DeckList:
    """Read a Cockatrice deck (module docstring) into a :class:`DeckList`.

    Args:
        text: the file's text; path: the deck file, for positions.

    Returns:
        The deck's lines (problems inside); a deck with no card gets an ``empty`` problem at line 1.

    Raises:
        InputError: not well-formed XML, an entity or DTD the safe reader refuses, or XML whose root
            is not ``<cockatrice_deck>`` (one sentence, exit code 2).
    """
    from xml.sax import SAXParseException  # lazy: xml.sax (8 ms) only for a Cockatrice deck

    import defusedxml.sax  # lazy: defusedxml.sax (300 ms cold), only for a Cockatrice deck
    from defusedxml import DefusedXmlException  # lazy: defusedxml.sax (300 ms cold), only for a Cockatrice deck

    deck = DeckList(path=path)
    handler = _handler_class()(deck)
    try:
        defusedxml.sax.parseString(text.removeprefix("\ufeff").encode("utf-8"), handler, forbid_dtd=True)
    except SAXParseException as err:
        where = SourcePos(path, err.getLineNumber() or 1, (err.getColumnNumber() or 0) + 1)
        raise InputError(
            f"{where}: "
            + _("not a well-formed Cockatrice deck file ({error}); a .cod file is XML saved by Cockatrice").format(error=err.getMessage())
        ) from None
    except _NotADeck as err:
        raise InputError(f"{SourcePos(path, err.line, err.column)}: " + _("not a Cockatrice deck: {why}").format(why=err)) from None
    except DefusedXmlException:
        raise InputError(
            f"{SourcePos(path, 1)}: " + _("this XML file declares a DTD or an entity, which a Cockatrice deck never holds; it is not read")
        ) from None
    if not deck.entries and not deck.problems:
        deck.problems.append(Problem(SourcePos(path, 1), _("the deck list holds no cards"), "empty"))
    return deck
