"""Deck matching: resolve the lines of a parsed deck list (:mod:`cardlab.decks.check`) to cards of the
catalog, section by section, into a :class:`Deck` that the rules of a format (``cardlab.decks.rules``) check.

A line matches by card id (``base1-58``, also after a name: ``Pikachu base1-58``), by set code or
alias and collector number with or without a name (``Pikachu BS 58``, ``BS 58``), or by name
alone, case-, accent- and apostrophe-insensitively, in every language the catalog knows. A name
given with a set and number (or a card id) must agree with that card; the check is loose (Pokémon
TCG Live's ``Basic {L} Energy BS 100`` is Lightning Energy), but ``Bill BS 58`` is refused.

Problems found here (rule ids): ``unknown-card``, ``ambiguous-card``, ``unknown-section`` (a YAML
section the format lacks; a ``Sideboard:`` header in a text list), ``section-total``. Unknown names
get "did you mean" suggestions on the first :data:`MAX_SUGGESTED` unknown lines of a deck only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cardlab.catalog.model import card_names, number_int
from cardlab.core.errors import Problem, SourcePos
from cardlab.core.fuzzy import did_you_mean, suggest
from cardlab.core.l10n import _, ngettext, quote
from cardlab.core.text import compact, fold, line_list, pick
from cardlab.decks.lines import to_int
from cardlab.decks.model import Deck, DeckCard, Entry
from cardlab.decks.rules import deciding_facts

if TYPE_CHECKING:
    from cardlab.catalog.formats import Format
    from cardlab.catalog.model import Catalog, SetInfo
    from cardlab.decks.model import DeckList

_SET_NUMBER = re.compile(r"^(?P<name>.+?)\s+\(?(?P<set>[^\W\d][\w.\-]*)\)?\s+\(?#?(?P<num>\d+[a-z]?)\)?$")
_NUMBER_TOTAL = re.compile(r"^(?P<name>.+?)\s+\(?#?(?P<num>\d+[a-z]?)\s*/\s*(?P<total>\d+)\)?$")  # Pikachu 58/102
_CARD_ID = re.compile(r"^[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)*-[0-9a-z]+$")
_SET_ONLY = re.compile(r"^\(?(?P<set>[^\W\d][\w.\-]*)\s+#?(?P<num>\d+[a-z]?)\)?$")
_NAME_ID = re.compile(r"^(?P<name>.+?)\s+\(?(?P<id>[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)*-[0-9a-z]+)\)?$")
_ENERGY_SYMBOLS = {
    "g": "grass",
    "r": "fire",
    "w": "water",
    "l": "lightning",
    "p": "psychic",
    "f": "fighting",
    "c": "colorless",
    "d": "darkness",
    "m": "metal",
    "y": "fairy",
    "n": "dragon",
}
_SYMBOL = re.compile(r"\{([a-z])\}")
"""Energy symbols as deck-list exports write them (``{L}``: Pokémon TCG Online and Live); the letters
are the exports' own convention, so this is the one table kept by hand here."""
_PSEUDO_ENERGY = re.compile(r"^(?P<name>.+?)\s+energy\s+\d+$", re.IGNORECASE)
"""A basic Energy as Pokémon TCG Live exports it: the name, the pseudo set ``Energy`` and a number
(``Basic {L} Energy Energy 4``); the number is the client's own, not a printing of ours."""


def _said(value: object) -> str:
    """A fact of :func:`cardlab.decks.rules.deciding_facts` in a message: yes/no for a condition."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return f'"{value}"'


_TYPE_WORDS = {"electric": "lightning", "steel": "metal"}
"""Type names of the video games and the anime that players write for the card game's Energy types
("Electric Energy" is Lightning Energy): suggested first, never matched silently."""

_ABBREVIATIONS = {"prof": "professor", "prof.": "professor"}
"""Words deck lists shorten (folded, as a name's words): "Prof. Oak" is Professor Oak. A name is
read with them written out when it names no card as written (:meth:`CardIndex.ids_of`)."""


def _written_out(folded: str) -> str:
    """A folded name with its abbreviated words written out (:data:`_ABBREVIATIONS`): ``prof. oak``
    -> ``professor oak``."""
    return " ".join(_ABBREVIATIONS.get(w, w) for w in folded.split())


MAX_CODES = 1024
"""Set codes as written, and set-and-number pairs, that a :class:`CardIndex` remembers
(:meth:`CardIndex.find_set`, :meth:`CardIndex._by_number`); a deck list of thousands of made-up
codes or numbers empties the memory instead of growing it."""

MAX_CHOSEN = 16384
"""Choices a :class:`CardIndex` remembers (:meth:`CardIndex.choose`: a name's cards under a format);
a server checking many lists under every format asks the same few thousand again and again."""

MAX_LINE_CHARS = 300
"""A card line longer than this (a name, a set code and a number take well under 100 characters)
names no card: it is reported without trying the line's patterns or suggestions on it."""

MAX_SUGGESTED = 50
"""Unknown lines of one deck that get "did you mean" suggestions; later ones get none (a hostile
list of thousands of unknown names stays fast)."""


def _loose(name: str) -> frozenset[str]:
    """Words of a folded name for the loose check: ``{L}`` -> lightning, ``basic`` dropped."""
    name = _SYMBOL.sub(lambda m: " " + _ENERGY_SYMBOLS.get(m[1], m[1]) + " ", name)
    return frozenset(w for w in re.split(r"[^\w']+", name) if w and w != "basic")


class CardIndex:
    """Names and numbers of one game's cards, for matching deck lines (build once, reuse).

    Args:
        catalog: the card catalog; game: a code of :data:`cardlab.games.GAMES` (``pokemon``...).
        langs: preferred languages for the names shown in messages (fallback: English, then the
            card's source language).
    """

    def __init__(self, catalog: Catalog, game: str, langs: Sequence[str] = ()) -> None:
        self.catalog = catalog
        self.game = game
        self.langs = [*langs, "en"]
        self._suggested: dict[str, list[str]] = {}
        self._shown: dict[str, str] = {}  # card id -> display_name (an index is reused across decks)
        self._same: dict[str, str] = {}  # card id -> same_name
        self._folded: dict[str, list[str]] = {}  # card id -> its names and printed names, folded (_agrees)
        self._facts: dict[str, tuple[dict, str, str, str, str]] = {}  # card id -> what a DeckCard holds (facts)
        self._codes: dict[str, SetInfo | None] = {}  # set code as written -> its set (find_set)
        self._numbers: dict[tuple[str, str], str | None] = {}  # (set code, number as written) -> card id (_by_number)
        self._ordered: dict[str, tuple[str, ...]] = {}  # name as written -> its cards in print order (named)
        self._chosen: dict[tuple[tuple[str, ...], str], tuple[str, tuple[str, ...], list[str], str]] = {}  # (cards, format) -> choose
        self._facts_of: dict[str, tuple] = {}  # format name -> (format, labels, facts) (_deciding)
        self._lookups: dict[tuple, tuple] = {}  # a line as written (and the sets preferred) -> lookup (lookups)
        self.names, self.compact, self.other_games = catalog.name_maps(game)
        self._choices: list[str] | None = None

    def display_name(self, card_id: str) -> str:
        """The card's name in the first preferred language it has (English when none is given),
        else its source-language name."""
        found = self._shown.get(card_id)
        if found is None:
            info = self.catalog.set_of(card_id)
            found = self._shown[card_id] = pick(self.catalog.cards[card_id].get("name"), self.langs, info.source_language)
        return found

    def same_name(self, card_id: str) -> str:
        """The folded name "same name" rules compare: the printed name, in the language of the
        card's set (``source_language``; English for the Pokémon TCG, French for Monpa), never a
        translation nor the preferred language, so that neither changes a verdict (seed 004,
        Monpa: at most 3 cards "de même nom", the name on the card; issue 33)."""
        found = self._same.get(card_id)
        if found is None:
            info = self.catalog.set_of(card_id)
            found = self._same[card_id] = fold(pick(self.catalog.cards[card_id].get("name"), [info.source_language], "en"))
        return found

    def find_set(self, code: str) -> SetInfo | None:
        """:meth:`Catalog.find_set`, remembered per code as written (a catalog has few sets and deck
        lines name the same few codes; at most :data:`MAX_CODES` are kept)."""
        if code in self._codes:
            return self._codes[code]
        if len(self._codes) >= MAX_CODES:
            self._codes.clear()
        found = self._codes[code] = self.catalog.find_set(code)
        return found

    def facts(self, card_id: str) -> tuple[dict, str, str, str, str]:
        """``(card data, set code, display name, same name, source language)`` of a card: what a
        :class:`DeckCard` holds besides its line, looked up once per card (an index is reused
        across decks)."""
        found = self._facts.get(card_id)
        if found is None:
            catalog = self.catalog
            found = self._facts[card_id] = (
                catalog.cards[card_id],
                catalog.card_set[card_id],
                self.display_name(card_id),
                self.same_name(card_id),
                catalog.set_of(card_id).source_language,
            )
        return found

    def suggestions(self, text: str, limit: int = 3, allowed_sets: set[str] | None = None) -> list[str]:
        """Return up to ``limit`` known names close to ``text`` (:func:`cardlab.core.fuzzy.suggest`),
        those with a card in ``allowed_sets`` only when there are such names; cached per folded
        text and sets."""
        key = fold(text)
        cache_key = f"{key}\x00{','.join(sorted(allowed_sets or ()))}"
        if cache_key in self._suggested:
            return self._suggested[cache_key][:limit]

        if self._choices is None:
            self._choices = sorted(self.names)
        found = suggest(_written_out(key), self._choices, limit=None)  # "prof. oka": Professor Oak first
        # names in the languages the list is read in first: "Bil" is close to the German
        # "Snobilikat", which would be shown as "Persian"
        spelled = {n: self._readable(n) for n in found}
        found = [n for n in found if spelled[n]] or found
        typed = " ".join(_TYPE_WORDS.get(w, w) for w in key.split())
        if typed != key and typed in self.names:
            found = [typed, *(n for n in found if n != typed)]
        if allowed_sets:
            found = [n for n in found if any(self.catalog.card_set[i] in allowed_sets for i in self.names[n])] or found
        firsts = [sorted(self.names[name])[0] for name in found]
        shown = [self.display_name(card_id) for card_id in firsts]
        # a community or print variant's name is shown as it matched ("Birthday Pikachu"), once a
        # card: "_____'s Pikachu" and "Birthday Pikachu" are one card, offered once
        shown = [s if fold(s) == n or not spelled.get(n) else spelled[n] or s for n, s in zip(found, shown, strict=True)]
        offered: dict[str, str] = {}
        for card_id, text in zip(firsts, shown, strict=True):
            if card_id not in offered and text not in offered.values():
                offered[card_id] = text
        names = list(offered.values())[:limit]
        self._suggested[cache_key] = names
        return names

    def _readable(self, folded: str) -> str | None:
        """The spelling of the folded name when it is a name of one of its cards in a preferred
        language (English when none is given) or the card's source language, a ``printed_name`` in
        one of those, or an ``also_known_as``: a name the reader of a suggestion knows the card
        by; else None."""
        for card_id in self.names.get(folded, ()):
            card = self.catalog.cards[card_id]
            langs = [*self.langs, self.catalog.set_of(card_id).source_language]
            spelled = [(card.get(field) or {}).get(lang) for field in ("name", "printed_name") for lang in langs]
            spelled += list(card.get("also_known_as") or ())
            for n in spelled:
                if isinstance(n, str) and fold(n) == folded:
                    return n
        return None

    def _agrees(self, card_id: str, name: str) -> bool:
        """True when ``name`` (as written) is a name of the card (or its ``printed_name``, a print
        variant's spelling, or a name of another printing of the card), loosely: in any language, or once
        energy symbols such as ``{L}`` are read as their type and ``Basic`` is ignored, every word
        of the card's name is in it (``Basic {L} Energy`` is Lightning Energy)."""
        names = self._folded.get(card_id)
        if names is None:
            names = self._folded[card_id] = [fold(n) for n in card_names(self.catalog.cards[card_id])]
        wanted = fold(name)
        if wanted in names:
            return True
        squeezed = compact(name)  # typed without spaces or punctuation: "Lt Surges Pikachu", "Farfetchd"
        if squeezed and any(compact(n) == squeezed for n in names):
            return True
        others = self.ids_of(name)  # a name of another printing of the card: "Imposter Professor Oak BS 73"
        if others and self.catalog.oracle_of(card_id) in {self.catalog.oracle_of(i) for i in others}:
            return True
        words = _loose(wanted)
        return any(_loose(n) and _loose(n) <= words for n in names)

    def ids_of(self, name: str) -> set[str]:
        """The cards called ``name`` in any language, folded (:func:`cardlab.core.text.fold`); else
        with energy symbols read as their type and ``Basic`` dropped (``{L} Energy``, ``Basic {L}
        Energy``: Lightning Energy); else with its abbreviations written out (``Prof. Oak``:
        Professor Oak, :data:`_ABBREVIATIONS`); else typed without spaces or punctuation (``farfetchd``)."""
        folded = fold(name)
        ids = self.names.get(folded)
        if ids:
            return ids
        words = " ".join(w for w in _SYMBOL.sub(lambda m: " " + _ENERGY_SYMBOLS.get(m[1], m[1]) + " ", folded).split())
        if words != folded or words.startswith("basic "):
            bare = words.removeprefix("basic ").strip()
            ids = self.names.get(bare) or self.names.get(words)
            if ids:
                return ids
        full = _written_out(folded)
        if full != folded and self.names.get(full):
            return self.names[full]
        key = compact(name)
        return self.compact.get(key, set()) if key else set()

    def _mismatch(self, where: str, card_id: str, name: str) -> str:
        return _("{where} is {card}, not {name}").format(where=where, card=quote(self.display_name(card_id)), name=quote(name))

    def _by_number(self, set_code: str, number: str, info: SetInfo | None = None) -> str | None:
        """The id of card ``number`` of the set whose code or alias is ``set_code`` (``info`` when
        the caller found that set already), or None when there is no such card of this game."""
        info = info or self.find_set(set_code)
        if info is None or info.game != self.game:
            return None
        key = (info.code, number)
        if key in self._numbers:
            return self._numbers[key]
        if len(self._numbers) >= MAX_CODES:
            self._numbers.clear()
        written = number if number.isascii() else unicodedata.normalize("NFKC", number)  # full-width digits: ５８ is 58
        card_id = f"{info.code}-{written.lstrip('0') or '0'}"
        found = self._numbers[key] = card_id if card_id in self.catalog.cards else None
        return found

    def _unknown_set(self, code: str, text: str) -> str:
        """The message for a known name followed by a set code that is no set of this game
        (``Charizard XYZ 4``), with "did you mean" over the game's set codes and aliases."""

        codes = [c for info in self.catalog.sets.values() if info.game == self.game for c in info.lookup_names]
        close = suggest(code, codes)
        hint = f"; did you mean {', '.join(close)}?" if close else f" (known: {', '.join(sorted(codes, key=str.casefold))})"
        return f'unknown set code "{code}" in "{text}"{hint}'

    def _allowed(self, card_id: str, allowed_sets: set[str] | None, ranges: dict[str, tuple[int, int]] | None) -> bool:
        code = self.catalog.card_set[card_id]
        if allowed_sets and code not in allowed_sets:
            return False
        if ranges and code in ranges:
            num = number_int(str(self.catalog.cards[card_id].get("number", "")))
            return num is not None and ranges[code][0] <= num <= ranges[code][1]
        return True

    def resolve(
        self, entry: Entry, allowed_sets: set[str] | None = None, suggest: bool = True, ranges: dict[str, tuple[int, int]] | None = None
    ) -> tuple[str | None, str | None, str]:
        """Match one card reference to one card, outside a deck (collections, stakes): a name that
        several different cards share is ``ambiguous-card`` here, as no format decides it (a deck
        line is judged by :func:`build_deck`, which assumes a printing the format allows).

        Tries what :meth:`lookup` tries; when a name matches several cards, those of
        ``allowed_sets`` (and within ``ranges``) are preferred; printings of one card
        (:meth:`Catalog.oracle_of`) are one card, the first printing among the allowed ones.

        Returns:
            ``(card id, None, "")`` when matched, else ``(None, message, rule)`` with rule
            ``unknown-card`` or ``ambiguous-card``.
        """
        found, message, rule = self.lookup(entry, allowed_sets, suggest)
        if len(found) <= 1:
            return (found[0] if found else None), message, rule
        ids = set(found)
        name = entry.name or entry.text
        if (allowed_sets or ranges) and len(ids) > 1:
            ids = {i for i in ids if self._allowed(i, allowed_sets, ranges)} or ids
        if len(ids) > 1:
            # printings of one card (a Base Set 2 reprint, holo and plain Scyther, the basic
            # Energy of every set) are the same card in play: the first printing of each stays
            firsts: dict[str, str] = {}
            for i in self.catalog.by_print_order(ids):
                firsts.setdefault(self.catalog.oracle_of(i), i)
            ids = set(firsts.values())
        if len(ids) > 1:
            choices = sorted(ids, key=lambda i: (self.catalog.card_set[i], i))
            return None, self._ambiguous(entry, name, choices, ""), "ambiguous-card"
        return next(iter(ids)), None, ""

    def _ambiguous(self, entry: Entry, name: str, choices: Sequence[str], why: str) -> str:
        """The ``ambiguous-card`` message: the cards a name could be, ``why`` the choice matters
        (empty outside a format), and a line to write instead."""
        shown = ", ".join(f"{self.display_name(i)} {self.catalog.card_set[i]} {self.catalog.cards[i]['number']} ({i})" for i in choices)
        first = choices[0]
        example = quote(f"{entry.count} {name} {self.catalog.card_set[first]} {self.catalog.cards[first]['number']}")
        return _("{name} matches {n} cards{why}: {cards}; add the set and number, e.g. {example}").format(
            name=quote(name), n=len(choices), why=why, cards=shown, example=example
        )

    def named(self, name: str) -> tuple[str, ...]:
        """Every printing of every card called ``name`` (:meth:`ids_of`; a name printed on one
        printing only, Base Set 2's "Imposter Professor Oak", names every printing of that card),
        in print order (remembered per name as written, at most :data:`MAX_CODES`)."""
        found = self._ordered.get(name)
        if found is None:
            if len(self._ordered) >= MAX_CODES:
                self._ordered.clear()
            found = self._ordered[name] = tuple(self.catalog.by_print_order(self.printings_of(self.ids_of(name))))
        return found

    def printings_of(self, ids: Iterable[str]) -> set[str]:
        """``ids`` and every other printing of the cards they are (:meth:`Catalog.printings`)."""
        catalog = self.catalog
        out: set[str] = set()
        for oracle in {catalog.oracle_of(i) for i in ids}:
            out.update(catalog.printings(oracle))
        return out

    def choose(self, found: tuple[str, ...], fmt: Format) -> tuple[str, tuple[str, ...], list[str], str]:
        """Phase two of matching a deck line, under one format: of the cards :meth:`lookup` found
        for a name alone, the one a judge assumes (issue 27).

        The candidates are the printings ``fmt`` allows (:meth:`Format.allows`: set, number range,
        not banned), in print order, a set's printings before promos (a promo set has one release
        date for cards printed over years); the first is assumed. When none is allowed, every printing
        is a candidate and the first is assumed, so the format's rules report the line.

        Returns:
            ``(assumed card id, candidates, disagreements, assumption)``: candidates empty when the
            line had one card; ``disagreements`` lists, in words, what the format's rules decide
            differently between the candidate cards (empty when they are the same to every rule:
            the line is then no problem, the assumption only a note); ``assumption`` is the note's
            text after the line's card as written (``: Base Set 20 assumed (also ...)``), empty
            when every candidate is a printing of the assumed card.
        """
        if len(found) == 1:
            return found[0], (), [], ""
        key = (found, fmt.name)
        known = self._chosen.get(key)
        if known is not None:
            return known
        catalog = self.catalog
        legal = tuple(i for i in found if fmt.allows(i, catalog.card_set[i], number_int(str(catalog.cards[i].get("number", "")))))
        # a set's printing before a promo's: a promo set carries one release date for cards printed
        # over years, so "Psyduck" in a Fossil-era list is Fossil's, not a promo of later
        pool = tuple(sorted(legal or found, key=lambda i: catalog.cards[i].get("rarity") == "Promo"))
        firsts: dict[str, str] = {}
        for i in pool:
            firsts.setdefault(catalog.oracle_of(i), i)
        why: list[str] = []
        if len(firsts) > 1:  # also when the format allows none: which card the line is still matters to the counts
            labels, facts = self._deciding(fmt)
            cards = list(firsts.values())
            rows = [facts(catalog.cards[i], self.same_name(i), i) for i in cards]
            for k, label in enumerate(labels):
                values = [r[k] for r in rows]
                if len(set(values)) > 1:
                    shown = ", ".join(f"{i} {_said(v)}" for i, v in zip(cards, values, strict=True))
                    why.append(f"{label}: {shown}")
        answer = (pool[0], pool, why, self._assumption(pool[0], pool) if legal else "")  # none allowed: the rules speak
        if len(self._chosen) >= MAX_CHOSEN:
            self._chosen.clear()
        self._chosen[key] = answer
        return answer

    def _deciding(self, fmt: Format) -> tuple[list[str], Callable[[dict, str, str], tuple]]:
        """:func:`cardlab.decks.rules.deciding_facts` of a format, made once per format."""
        found = self._facts_of.get(fmt.name)
        if found is None or found[0] is not fmt:
            found = self._facts_of[fmt.name] = (fmt, *deciding_facts(fmt))
        return found[1], found[2]

    def _assumption(self, assumed: str, candidates: tuple[str, ...]) -> str:
        """The note of a name-alone line whose candidates are several cards (not only printings of
        one), after the line's count and name: ``: Base Set 20 assumed (also Wizards Black Star
        Promos 2)``; empty when every candidate is a printing of the assumed card."""
        catalog = self.catalog
        others: dict[str, str] = {}
        mine = catalog.oracle_of(assumed)
        for i in candidates:
            oracle = catalog.oracle_of(i)
            if oracle != mine:
                others.setdefault(oracle, i)
        if not others:
            return ""
        also = ", ".join(self.printing_name(i) for i in others.values())
        return _(": {printing} assumed (also {others})").format(printing=self.printing_name(assumed), others=also)

    def printing_name(self, card_id: str) -> str:
        """A printing as players say it: the set's name and the collector number (``Base Set 20``)."""
        info = self.catalog.set_of(card_id)
        return (
            f"{pick(info.data.get('name'), self.langs, info.source_language) or info.code} {self.catalog.cards[card_id].get('number', '')}"
        )

    def lookup(self, entry: Entry, allowed_sets: set[str] | None = None, suggest: bool = True) -> tuple[tuple[str, ...], str | None, str]:
        """Phase one of matching a deck line: the cards it can be, whatever the format.

        Tries, in order: an explicit or written card id (``base1-58``); a name followed by a set code
        or alias and a collector number (``Pikachu BS 58``) or by a card id (``Pikachu base1-58``);
        the name alone, in any language; a set code and number alone (``BS 58``). A name given
        with a set and number or a card id must agree with that card (loosely, see
        :meth:`_agrees`). A name followed by Pokémon TCG Live's pseudo set ``Energy`` and a number
        (``Basic {L} Energy Energy 4``) is read as the name alone.

        Args:
            entry: the line; allowed_sets: the format's sets, or None (preferred in suggestions
                and among the cards a ``58/102`` line may be).
            suggest: give "did you mean" suggestions for an unknown name (costly on long lists).

        Returns:
            ``(cards, None, "")`` when matched: one card id for a line that names its printing,
            every card of the name in print order (:meth:`named`) for a name alone; else
            ``((), message, "unknown-card")``. :meth:`choose` picks among several under a format.
        """
        card_id, message, rule = self._lookup(entry, allowed_sets, suggest)
        if isinstance(card_id, tuple):
            return card_id, None, ""
        return ((card_id,) if card_id else ()), message, rule

    def _lookup(self, entry: Entry, allowed_sets: set[str] | None, suggest: bool) -> tuple[str | tuple[str, ...] | None, str | None, str]:
        """:meth:`lookup`, answering a name alone with its cards as a tuple."""
        if len(entry.text) > MAX_LINE_CHARS and entry.card_id is None:
            shown = entry.text[:40].rstrip()
            return None, f'unknown card "{shown}…" ({len(entry.text):,} characters; no card\'s name is so long)', "unknown-card"
        if entry.card_id is None and entry.name is None and entry.set_code is None:
            # most lines of a text list: "Pikachu BS 58", a name, a set and a number that agree
            # (never a card id: it has spaces); anything else takes the general path below
            m = _SET_NUMBER.match(entry.text)
            if m is not None:
                found_set = self.find_set(m[2])
                if found_set is not None:
                    card_id = self._by_number(m[2], m[3], found_set)
                    if card_id is not None and (self._agrees(card_id, m[1]) or _CARD_ID.match(m[1])):
                        return card_id, None, ""
        text = entry.card_id or entry.text
        if _CARD_ID.match(text) and self._is_ours(text):
            if entry.card_id:
                if entry.set_code and entry.number:
                    other = self._by_number(entry.set_code, entry.number)
                    if other != text:
                        where = f"{entry.set_code} {entry.number}"
                        shown = f'"{self.display_name(other)}" ({other})' if other else "no card of the catalog"
                        return None, f'card {text} is "{self.display_name(text)}" but {where} is {shown}', "unknown-card"
                if entry.name and not self._agrees(text, entry.name):
                    return None, self._mismatch(text, text, entry.name), "unknown-card"
            return text, None, ""
        if entry.card_id:
            if entry.card_id in self.catalog.cards:
                game = self.catalog.game_of(entry.card_id)
                return (
                    None,
                    _("{card} is a {other} card").format(card=entry.card_id, other=game) + _(", not a {game} card").format(game=self.game),
                    "unknown-card",
                )
            return None, _("no card {card} in the catalog").format(card=entry.card_id), "unknown-card"
        name, set_code, number = entry.name or entry.text, entry.set_code, entry.number
        info: SetInfo | None = None
        if set_code is None and entry.name is None:
            m = _SET_NUMBER.match(entry.text)
            info = self.find_set(m["set"]) if m else None
            total = None if info else _NUMBER_TOTAL.match(entry.text)
            if m and info:
                name, set_code, number = m["name"], m["set"], m["num"]
            elif (
                m
                and not self.ids_of(entry.text)
                and self.ids_of(m["name"])
                and not (fold(m["set"]) == "energy" and "energy" in fold(m["name"]))
            ):
                return None, self._unknown_set(m["set"], entry.text), "unknown-card"  # Charizard XYZ 4
            elif total and not self.ids_of(entry.text):
                return self._by_number_total(entry, total["name"], total["num"], to_int(total["total"]), allowed_sets)
            else:
                m = _NAME_ID.match(entry.text)
                if m and self._is_ours(m["id"]):
                    if not self._agrees(m["id"], m["name"]):
                        return None, self._mismatch(m["id"], m["id"], m["name"]), "unknown-card"
                    return m["id"], None, ""
        if set_code and number:
            card_id = self._by_number(set_code, number, info)
            if card_id is None:
                where = _("no card {card} in the catalog").format(card=f"{set_code} {number}")
                return None, f"{where} ({quote(entry.text)})", "unknown-card"
            if name and not _CARD_ID.match(name) and not self._agrees(card_id, name):
                return None, self._mismatch(f"{set_code} {number}", card_id, name), "unknown-card"
            return card_id, None, ""
        ids = self.ids_of(name)
        if not ids and entry.name is None:
            m = _PSEUDO_ENERGY.match(name)  # Pokémon TCG Live: "Basic {L} Energy Energy 4" (an Energy's name only)
            if m and "energy" in fold(m["name"]) and self.ids_of(m["name"]):
                name, ids = m["name"], self.ids_of(m["name"])
        if not ids:
            m = _SET_ONLY.match(name) if entry.name is None else None
            found_set = self.find_set(m["set"]) if m else None
            if m and found_set:
                card_id = self._by_number(m["set"], m["num"], found_set)
                if card_id is None:
                    return (
                        None,
                        _("no card {card} in the catalog ({line})").format(card=f"{m['set']} {m['num']}", line=quote(entry.text)),
                        "unknown-card",
                    )
                return card_id, None, ""
            other = self.other_games.get(fold(name))
            if other:
                return (
                    None,
                    _("{name} is a {game} card, not a {here} card").format(name=quote(name), game=other, here=self.game),
                    "unknown-card",
                )
            hint = self.suggestions(name, allowed_sets=allowed_sets) if suggest else []
            more = did_you_mean([quote(h) for h in hint])
            return None, _("unknown card {name}").format(name=quote(name)) + more, "unknown-card"
        found = self.named(name)
        return (found[0] if len(found) == 1 else found), None, ""

    def _by_number_total(
        self, entry: Entry, name: str, number: str, total: int, allowed_sets: set[str] | None
    ) -> tuple[str | None, str | None, str]:
        """``Pikachu 58/102``: the card numbered ``number`` in a set of ``total`` printed cards whose
        name agrees (the format's sets preferred when several agree; a card of another set whose name
        agrees is still that card, not a mismatch with the format's card of that number)."""
        found = []
        for info in self.catalog.sets.values():
            if info.game != self.game or (info.printed_total is not None and info.printed_total != total):
                continue
            card_id = self._by_number(info.code, number)
            if card_id is not None:
                found.append(card_id)
        agreeing = [i for i in found if self._agrees(i, name)]
        if allowed_sets and len(agreeing) > 1:
            agreeing = [i for i in agreeing if self.catalog.card_set[i] in allowed_sets] or agreeing
        if len(agreeing) == 1:
            return agreeing[0], None, ""
        if not agreeing:
            if found:
                shown = next((i for i in found if allowed_sets and self.catalog.card_set[i] in allowed_sets), found[0])
                return None, self._mismatch(f"{number}/{total}", shown, name), "unknown-card"
            return None, f'no card {number}/{total} in the catalog ("{entry.text}")', "unknown-card"
        shown = ", ".join(f"{i}" for i in sorted(agreeing))
        return None, f'"{entry.text}" matches {len(agreeing)} cards: {shown}; add the set code', "ambiguous-card"

    def _is_ours(self, card_id: str) -> bool:
        return card_id in self.catalog.cards and self.catalog.game_of(card_id) == self.game


def printing_named(catalog: Catalog, text: str) -> str | None:
    """The one printing a reference names as a deck line names it (:meth:`CardIndex.lookup`): a
    name with a set code or alias and a collector number (``Charizard BS 4``), with the collector
    number over the set's printed total (``Charizard 4/102``) or with a card id (``Charizard
    base1-4``), in any game of the catalog. For ``cardlab show`` and the other card references
    (:func:`cardlab.search.lookup.get_card`'s ``printing``).

    Returns:
        The card id, or None when the text names no printing, or several (a name alone names every
        printing of its card; ``4/102`` may be in two sets of that size).
    """
    entry = Entry(0, 1, text.strip())
    found: set[str] = set()
    for game in sorted({info.game for info in catalog.sets.values()}):
        cards, _message, _rule = CardIndex(catalog, game).lookup(entry, suggest=False)
        if len(cards) == 1:
            found.add(cards[0])
    return found.pop() if len(found) == 1 else None


Lookup = tuple[tuple[str, ...], "str | None", str]
"""What :meth:`CardIndex.lookup` answers for one line: ``(cards, message, rule)``."""


def lookups(
    deck_list: DeckList, index: CardIndex, allowed_sets: set[str] | None = None, suggest: bool = True, give_up: int | None = None
) -> list[Lookup]:
    """Phase one of matching for every card line of a list (:meth:`CardIndex.lookup`), in
    ``deck_list.entries`` order: made once and given to :func:`build_deck` under every format of
    the index's game (the no-format survey matches each line once, not once per format).
    "Did you mean" goes to the first :data:`MAX_SUGGESTED` unknown lines (to none when ``suggest`` is
    False: a survey first finds the list's game). With ``give_up``, the lookups stop once more
    than that many lines are unknown (the answer is then shorter than the list: a survey knows
    the game is not this one)."""
    out: list[Lookup] = []
    unknown = 0
    lookup, known = index.lookup, index._lookups
    sets = frozenset(allowed_sets) if allowed_sets else None
    for entry in deck_list.entries:
        asks = suggest and unknown < MAX_SUGGESTED
        key = (entry[2], *entry[5:], sets, asks)  # text, name, set code, number, card id: what lookup reads
        found = known.get(key)
        if found is None:
            found = lookup(entry, allowed_sets, asks)
            if len(known) >= MAX_CHOSEN:
                known.clear()
            known[key] = found
        unknown += not found[0]
        out.append(found)
        if give_up is not None and unknown > give_up:
            break
    return out


def build_deck(
    deck_list: DeckList,
    catalog: Catalog,
    fmt: Format,
    index: CardIndex | None = None,
    langs: Sequence[str] = (),
    found: list[Lookup] | None = None,
) -> Deck:
    """Place each line in a section of ``fmt`` and match it to a card of the catalog, as a judge of
    the format reads it (issue 27).

    A line that names its printing (set and number, card id) is that card. A line that names a
    card by name alone may be any card of that name the format allows (:meth:`CardIndex.choose`):
    the first in print order is assumed and the rest are kept as the line's candidates; when
    they are several different cards, the assumption is a note at the line (``Deck.notes``,
    ``4 Electabuzz: Base Set 20 assumed (also Wizards Black Star Promos 2)``), never a problem,
    unless the format's rules tell those cards apart (one is a Basic Pokémon, the other not):
    then the line is ``ambiguous-card``, saying what the choice changes. When the format allows
    none, the first printing is assumed and the format's rules report it.

    Lines under a ``Sideboard:`` header are not part of the deck: one ``unknown-section`` problem
    at the header names them, and they are not counted.

    Args:
        deck_list: the parsed file; catalog: the cards; fmt: the format (its game and sections).
        index: a :class:`CardIndex` for ``fmt.game`` to reuse across decks (built when None).
        langs: preferred languages for card names (used when ``index`` is None).
        found: :func:`lookups` of the list made with this index (made here when None).

    Returns:
        A :class:`Deck` whose ``problems`` hold the list's own problems plus ``unknown-card``,
        ``ambiguous-card``, ``unknown-section`` and ``section-total`` problems, and whose
        ``notes`` say which printings were assumed.
    """
    index = index or CardIndex(catalog, fmt.game, langs)
    path = deck_list.path
    deck = Deck(path=path, format=fmt, problems=list(deck_list.problems), name=deck_list.name)
    words = fmt.header_words()
    main = fmt.sections[0].id
    header_section: list[str | None] = []
    current: str | None = main
    section: str | None
    for h in deck_list.headers:
        section, _group = words.get(h.word, (main, True))
        if h.outside:
            current = None
        elif not h.is_total:
            current = section
            deck.section_lines.setdefault(current, h.line)
        header_section.append(current)
    allowed = fmt.allowed_sets
    known = {s.id for s in fmt.sections}
    outside: dict[int, list[Entry]] = {}
    if found is None:
        found = lookups(deck_list, index, allowed)
    choose, facts = index.choose, index.facts
    add_entry, add_section, add_card = deck.entries.append, deck._entry_sections.append, deck.cards.append
    for entry, (ids, message, rule) in zip(deck_list.entries, found, strict=True):
        section = entry.section or (header_section[entry.header] if entry.header is not None else main)
        if section is None:
            outside.setdefault(entry.header or 0, []).append(entry)
            continue
        if section not in known:
            deck.problems.append(
                Problem(
                    SourcePos(path, entry.line),
                    _("section '{section}' is not part of {format} (sections: {known})").format(
                        section=section, format=fmt.name, known=", ".join(sorted(known))
                    ),
                    "unknown-section",
                )
            )
            continue
        add_entry(entry)
        add_section(section)
        if not ids:
            deck.problems.append(Problem(SourcePos(path, entry.line), message or "", rule))
            continue
        card_id, candidates, why, assumption = choose(ids, fmt)
        if why:
            firsts = list(dict.fromkeys(catalog.oracle_of(i) for i in candidates))
            text = index._ambiguous(
                entry,
                entry.name or entry.text,
                [next(i for i in candidates if catalog.oracle_of(i) == o) for o in firsts],
                _(" that {format} tells apart ({why})").format(format=fmt.name, why="; ".join(why)),
            )
            deck.problems.append(Problem(SourcePos(path, entry.line), text, "ambiguous-card"))
            continue
        if assumption:
            note = f"{entry.count} {entry.name or entry.text}{assumption}"
            deck.notes.append(Problem(SourcePos(path, entry.line), note, "assumed-printing"))
        card, set_code, shown, same, language = facts(card_id)
        add_card(DeckCard(entry.line, entry.count, card_id, set_code, section, shown, same, card, language, candidates))
    for i, h in enumerate(deck_list.headers):
        if h.outside:
            lines = outside.get(i, [])
            held = sum(e.count for e in lines)
            what = (
                ngettext(" ({n} card on {lines}, not counted)", " ({n} cards on {lines}, not counted)", held).format(
                    n=held, lines=line_list([e.line for e in lines])
                )
                if lines
                else ""
            )
            message = _("sideboards are not part of {format}; remove these lines{what}").format(format=fmt.name, what=what)
            deck.problems.append(Problem(SourcePos(path, h.line), message, "unknown-section"))
    deck.problems.extend(_total_problems(deck_list, words, main, path))
    return deck


def _total_problems(deck_list: DeckList, words: dict[str, tuple[str, bool]], main: str, path: Path) -> list[Problem]:
    problems = []
    headers = deck_list.headers
    for i, h in enumerate(headers):
        if h.total is None or h.outside:
            continue
        lines = 0  # Pokémon TCG Live counts a section's lines ("Trainer: 17" over 17 lines), Limitless its cards
        if h.is_total:
            held = sum(e.count for e in deck_list.entries if e.header is None or not headers[e.header].outside)
        else:
            _section, is_group = words.get(h.word, (main, True))
            end = len(headers)
            for j in range(i + 1, len(headers)):
                if headers[j].is_total:
                    continue
                _s, g = words.get(headers[j].word, (main, True))
                if is_group or not g or headers[j].outside:
                    end = j
                    break
            inside = [e.count for e in deck_list.entries if e.header is not None and i <= e.header < end and h.line < e.line]
            held, lines = sum(inside), len(inside)
        if held != h.total and (lines != h.total or h.is_total):
            problems.append(
                Problem(
                    SourcePos(path, h.line),
                    _("{label} declares {total} cards but its lines hold {held}").format(label=quote(h.label), total=h.total, held=held),
                    "section-total",
                )
            )
    return problems
