"""The contract every game module keeps (:class:`Game`), and the neutral shapes it answers in.

A game is a module, ``cardlab.games.<game>``, registered in :data:`cardlab.games.GAMES`; the module
itself implements :class:`Game` (PEP 544: a module may implement a protocol, and mypy checks it
where :func:`cardlab.games.get` returns one). A module rather than a class instance because a game
has no state: its vocabulary is constants, its behaviour pure functions, and the modules that read
one table of it (``proxies.faces`` reads Ippo's ``KEYWORDS``, ``play`` the forum TCG's ``FACTIONS``)
keep importing that table by name.

What a game says, in neutral data (no rich markup, no HTML, no ReportLab):

- **search**: :data:`Game.FIELDS` (query field -> :class:`FieldSpec`: kind, help, closed vocabulary)
  and :meth:`Game.facets` (the index rows of a card); ``cardlab.games.search_fields`` assembles
  every game's fields into the query language's field table.
- **display**: :meth:`Game.type_line`, :meth:`Game.key_stats` (plain text) and :meth:`Game.details`
  (:class:`DetailRow`: a label and :class:`Span` parts with a style tag, and for a symbol its words,
  that ``render.cards`` turns into terminal markup and ``web/templates/card.html`` into HTML), then
  :func:`common_rows` (set, rarity, illustrator) for every game.
- **checks**: :meth:`Game.check`, cross-card problems over a catalog (:class:`CardSource`).
- **templates**: :data:`Game.SKELETON_KINDS` and :meth:`Game.skeleton`, the ``cardlab card new`` YAML.
- **deck statistics**: :data:`Game.OPENING_HAND`, :data:`Game.DECK_KINDS` and
  :meth:`Game.deck_figures` (counts, cost curve and opening odds; :mod:`cardlab.games.figures`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from cardlab.core.l10n import _
from cardlab.core.text import pick

if TYPE_CHECKING:
    from cardlab.games.figures import Counted, DeckFigures

Row = tuple[str, str | None, float | None]
"""One searchable value of a card: ``(field, folded text or None, number or None)``."""

Problem = tuple[str, list, str, str]
"""One cross-card problem: ``(card id, data path, message, rule id)``."""

STYLES = frozenset(
    {"bold", "italic", "dim", "red", "green", "blue", "yellow", "magenta", "purple", "dark_orange", "bright_black", "grey70", "white"}
)
"""The style tags a :class:`Span` may carry: the terminal uses them as rich styles, the web as CSS
classes (``style-<tag>``). A test holds every game's spans to this set."""


class Span(NamedTuple):
    """One run of text in a detail row: ``text`` (plain, never markup), ``style``: a tag of
    :data:`STYLES`, or None for plain text, and ``alt``: for a symbol, what it stands for in words
    (``Span("R", "red", "Fire")``), the text alternative the web page gives it (the terminal shows
    ``text`` alone); None for words."""

    text: str
    style: str | None = None
    alt: str | None = None


class DetailRow(NamedTuple):
    """One labelled line of ``cardlab show`` and of the web card page: ``label`` (plain) and
    ``spans`` (the value, in order; a ``\\n`` inside a span breaks the line)."""

    label: str
    spans: tuple[Span, ...]

    @property
    def text(self) -> str:
        """The value as plain text (every span's text joined)."""
        return "".join(s.text for s in self.spans)


def row(label: str, *parts: str | Span) -> DetailRow:
    """Return a :class:`DetailRow` from plain strings and spans (empty strings dropped)."""
    return DetailRow(label, tuple(p if isinstance(p, Span) else Span(p) for p in parts if p))


def common_rows(card: Mapping[str, Any], set_data: Mapping[str, Any], langs: Sequence[str] = (), source: str = "en") -> list[DetailRow]:
    """Return the rows every game's card shows after its own :meth:`Game.details`: the set symbol
    text (``Base Set (base1) · 4/102``: set name in ``langs``, code, number over the printed total),
    the rarity, the illustrator and the printed name when the card has them, and a card whose
    rules text is not yet transcribed from the card (``transcribed: false``). ``cardlab show`` and the
    web card page both show these rows.

    Args:
        card: the card's data as in its file; set_data: its set's data (``name``, ``code``,
            ``printed_total``); langs: preferred languages; source: the set's source language.
    """
    number = str(card.get("number", ""))
    if set_data.get("printed_total"):
        number = f"{number}/{set_data['printed_total']}"
    rows = [row(_("Set"), f"{pick(set_data.get('name'), list(langs), source)} ({set_data.get('code', '')}) · {number}")]
    for label, key in ((_("Rarity"), "rarity"), (_("Illustrator"), "illustrator")):
        if card.get(key):
            rows.append(row(label, _(str(card[key])) if key == "rarity" else str(card[key])))
    if card.get("printed_name"):
        rows.append(row(_("Printed as"), pick(card["printed_name"], list(langs), source)))
    if card.get("transcribed") is False:
        note = _("not yet: the rules text is recorded in another language, not from the card ({lang})")
        rows.append(row(_("Transcribed"), note.format(lang=source)))
    return rows


class FieldSpec(NamedTuple):
    """One query field as a game defines it.

    Attributes:
        kind: how the query language compares it: ``facet`` (exact folded text), ``like`` (substring
            of a facet), ``num`` (number), ``name``, ``text``, ``number``, ``set``.
        help: what it means for this game, with an example (``hit points (hp>=80)``).
        closed: the values form a closed vocabulary (those the catalog holds): another value is a
            query error with "did you mean", never an empty result.
        lead: words put before the per-game helps when several games share the field
            (``keyword (Ippo: ...; Monpa: ...)``); empty: ``Ippo: ...; Monpa: ...``.
    """

    kind: str
    help: str
    closed: bool = False
    lead: str = ""


class CardSource(Protocol):
    """What a game's cross-card checks read of a catalog (``catalog.model.Catalog`` has it), so that
    ``games`` never imports ``catalog``."""

    @property
    def cards(self) -> Mapping[str, dict]:
        """Card id -> card data."""
        ...

    @property
    def card_set(self) -> Mapping[str, Any]:
        """Card id -> its set code."""
        ...

    def set_of(self, card_id: str) -> Any:
        """The set of a card (``.game`` is its game)."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game module's contract (see the module docstring). Every member is required; the
    upper-case ones are module constants (read-only properties here, so a module's ``dict`` or
    ``tuple`` fits the ``Mapping`` or ``Sequence`` asked for)."""

    @property
    def TITLE(self) -> str:  # noqa: N802 - a module constant in every game
        """The game's name as people write it (``Pokémon``, ``forum TCG``)."""
        ...

    @property
    def FIELDS(self) -> Mapping[str, FieldSpec]:  # noqa: N802
        """The game's own query fields, in the order ``search --help`` lists them."""
        ...

    @property
    def SKELETON_KINDS(self) -> Sequence[str]:  # noqa: N802
        """The kinds ``cardlab card new --kind`` offers (the first is the default)."""
        ...

    @property
    def OPENING_HAND(self) -> int:  # noqa: N802
        """Cards in the opening hand when a format gives no ``opening_hand``."""
        ...

    @property
    def DECK_KINDS(self) -> tuple[str, tuple[str, ...]] | None:  # noqa: N802
        """(card field, the kinds ``deck stats --need`` may name), or None: no deck statistics."""
        ...

    def facets(self, card: dict) -> Iterable[Row]:
        """The card's searchable values."""
        ...

    def type_line(self, card: dict, langs: Sequence[str] = ()) -> str:
        """A short type line (``Pokémon · Stage 2 · Fire``)."""
        ...

    def rarity(self, card: dict) -> tuple[str, int] | None:
        """The rarity of a card whose game prints it in a field of its own (Ippo's stars), as
        ``(text shown and searched, rank: commoner first)``; None when the common ``rarity`` field
        (ranked by the set's ``rarities`` list) says it."""
        ...

    def key_stats(self, card: dict) -> str:
        """Short plain stats for a search table row."""
        ...

    def details(self, card: dict, langs: Sequence[str] = (), source: str = "en") -> list[DetailRow]:
        """The labelled lines of ``cardlab show`` and the web card page."""
        ...

    def check(self, catalog: CardSource) -> Iterator[Problem]:
        """Cross-card problems of this game's cards."""
        ...

    def skeleton(self, kind: str, source: str = "en") -> str:
        """The game's own YAML lines of a new card of ``kind``."""
        ...

    def deck_figures(self, figures: DeckFigures, cards: Sequence[Counted], need: Sequence[str]) -> None:
        """Fill in a deck's counts, curve and opening odds."""
        ...
