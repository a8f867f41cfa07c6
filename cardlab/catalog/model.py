"""The card catalog: set manifests and card files found under one or more catalog roots.

Layout (docs/ARCHITECTURE.md): ``<root>/<game>/<set>/set.yaml`` and
``<root>/<game>/<set>/<number>-<slug>.yaml``; ``<root>/<game>/formats/*.yaml`` are deck formats.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.catalog.freshness import folders, yaml_names
from cardlab.core.errors import UsageError
from cardlab.core.fuzzy import did_you_mean, suggest
from cardlab.core.l10n import _
from cardlab.core.text import compact, fold, pick

SET_FILE = "set.yaml"

PRINTING_FIELDS = ("id", "number", "rarity", "illustrator", "notes", "printed_name")
"""The fields a reprint file keeps as its own (its printing); every other field comes from the
original card named by ``reprint_of`` (Base Set 2 reprints Base Set and Jungle)."""


def number_int(number: str) -> int | None:
    """The digits of a collector number read as one integer (``H12`` -> 12, ``4a`` -> 4), None when it
    has none: what sorts printings, checks a number against its set's total and a format's number
    ranges."""
    digits = "".join(ch for ch in number if ch.isdigit())
    return int(digits) if digits else None


@dataclass
class SetInfo:
    """One set: its manifest data and where it lives.

    Attributes:
        code: the set code (``base1``); card ids start with it.
        game: a code of :data:`cardlab.games.GAMES` (``pokemon``...).
        data: the manifest as plain data (schema/set.schema.json).
        path: the ``set.yaml`` file.
    """

    code: str
    game: str
    data: dict
    path: Path

    @property
    def source_language(self) -> str:
        """The language the set's cards are written in (``en``, ``ja``, ``fr``)."""
        return self.data.get("source_language", "en")

    @property
    def printed_total(self) -> int | None:
        """How many cards the set has as printed, or None when unknown."""
        return self.data.get("printed_total")

    @property
    def aliases(self) -> list[str]:
        """Other codes deck lists use for this set (``BS`` for ``base1``)."""
        return list(self.data.get("aliases") or [])

    @property
    def codes(self) -> dict[str, str]:
        """The set's code in the tools players use, by tool (:data:`CODE_KINDS`): ``{"ptcgo": "BS",
        "tcgone": "BS", ...}`` (schema/set.schema.json ``codes``)."""
        codes = self.data.get("codes")
        return {k: v for k, v in codes.items() if isinstance(v, str)} if isinstance(codes, dict) else {}

    def code_for(self, tool: str) -> str:
        """The code ``tool`` writes for this set: its own code of :attr:`codes`, else the PTCGO code
        (the one most tools took over), else the first alias, else the catalog code."""
        codes = self.codes
        return codes.get(tool) or codes.get("ptcgo") or next(iter(self.aliases), self.code)

    @property
    def lookup_names(self) -> list[str]:
        """Every name set lookup accepts: the code, the aliases, then each tool's code (no repeats,
        compared folded)."""
        seen: dict[str, str] = {}
        for name in (self.code, *self.aliases, *self.codes.values()):
            seen.setdefault(fold(name), name)
        return list(seen.values())

    def name(self, langs: Iterable[str] = ()) -> str:
        """The set's name in the first of ``langs`` known, else in the source language."""
        return pick(self.data.get("name"), list(langs), self.source_language)


@dataclass
class Catalog:
    """Sets and cards as plain data (one dict per card, as in its YAML file).

    Attributes:
        roots: the catalog roots read.
        sets: set code -> :class:`SetInfo`.
        cards: card id -> card data; ids are unique (a duplicate is a validation problem).
        paths: card id -> the card's file.
        card_set: card id -> set code.
        own: card id -> the data of its own file, for the reprints only (``cards`` holds them
            merged with their original: :func:`merge_reprint`); what translation tools edit.
        reprints: original card id -> the ids of its reprints, in catalog order.
    """

    roots: list[Path]
    sets: dict[str, SetInfo] = field(default_factory=dict)
    cards: dict[str, dict] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    card_set: dict[str, str] = field(default_factory=dict)
    own: dict[str, dict] = field(default_factory=dict)
    reprints: dict[str, list[str]] = field(default_factory=dict)
    _oracles: dict[str, str] | None = field(default=None, repr=False, compare=False)
    _printing_ids: dict[str, list[str]] | None = field(default=None, repr=False, compare=False)
    _set_keys: tuple[int, dict[str, SetInfo]] | None = field(default=None, repr=False, compare=False)
    _set_names: tuple[int, dict[str, list[SetInfo]]] | None = field(default=None, repr=False, compare=False)
    _named: dict[str, tuple[int, Mapping[str, set[str]]]] = field(default_factory=dict, repr=False, compare=False)

    def file_data(self, card_id: str) -> dict:
        """Return what the card's own file holds (a reprint without the original's fields)."""
        return self.own.get(card_id, self.cards[card_id])

    def original_of(self, card_id: str) -> str:
        """Return the id of the card a reprint reprints, or ``card_id`` itself for an original."""
        return self.cards[card_id].get("reprint_of", card_id) if card_id in self.own else card_id

    def oracle_of(self, card_id: str) -> str:
        """Return the id that stands for the card in play (Scryfall's "oracle" card): of the cards
        of the game with the same name and the same facts (:func:`play_key`: a reprint, the holo
        and plain printings of one set, the basic Energy of every set), the first original, in
        set release order. ``base4-4`` and ``base1-4`` give ``base1-4``; ``base2-26`` (plain
        Scyther) gives ``base2-10`` (holo)."""
        if self._oracles is None:
            self._oracles = self._compute_oracles()
        return self._oracles[card_id]

    def printings(self, card_id: str) -> list[str]:
        """Return every printing of a card (same :meth:`oracle_of`), the oracle card first, then
        in set release order: ``base1-4`` and ``base4-4`` for either id."""
        oracle = self.oracle_of(card_id)
        if self._printing_ids is None or len(self._oracles or ()) != len(self.cards):
            groups: dict[str, list[str]] = {}
            for i in self.cards:  # once: oracle -> its printings (a deck of bare names asks for many)
                groups.setdefault(self.oracle_of(i), []).append(i)
            self._printing_ids = groups
        return sorted(self._printing_ids.get(oracle, [card_id]), key=lambda i: (i != oracle, self.print_order(i)))

    def print_order(self, card_id: str) -> tuple:
        """Sort key of printings: originals before reprints, then set release date, set code and
        collector number."""
        info = self.set_of(card_id)
        number = str(self.cards[card_id].get("number", ""))
        return (card_id in self.own, str(info.data.get("release_date", "")), info.code, number_int(number) or 0, number)

    def by_print_order(self, ids: Iterable[str]) -> list[str]:
        """Return ``ids`` sorted by :meth:`print_order` (originals first, then set release date...)."""
        return sorted(ids, key=self.print_order)

    def _compute_oracles(self) -> dict[str, str]:
        groups: dict[tuple[str, str], list[str]] = {}
        for card_id, card in self.cards.items():
            groups.setdefault((self.game_of(card_id), play_key(card)), []).append(card_id)
        out: dict[str, str] = {}
        for ids in groups.values():
            first = min(ids, key=self.print_order)
            out.update((i, first) for i in ids)
        return out

    def set_sizes(self) -> dict[str, int]:
        """Return set code -> how many of its cards are recorded (cards with a collector number as
        text); a set without cards is absent. ``cardlab sets`` reads it (the index holds it per set:
        :meth:`cardlab.index.stored.StoredCatalog.set_sizes`)."""
        out: dict[str, int] = {}
        for card_id, code in self.card_set.items():
            if isinstance(self.cards[card_id].get("number"), str):
                out[code] = out.get(code, 0) + 1
        return out

    def set_numbers(self, code: str) -> list[str]:
        """Return the collector numbers (text) of the recorded cards of the set ``code``, in
        catalog order; empty for a set without cards."""
        found = [self.cards[i].get("number") for i, c in self.card_set.items() if c == code]
        return [n for n in found if isinstance(n, str)]

    def set_of(self, card_id: str) -> SetInfo:
        """Return the set of a card. Raises KeyError for an unknown id."""
        return self.sets[self.card_set[card_id]]

    def game_of(self, card_id: str) -> str:
        """Return the game of a card (``pokemon``...). Raises KeyError for an unknown id."""
        return self.set_of(card_id).game

    def name_of(self, card_id: str, langs: Iterable[str] = ()) -> str:
        """Return a card's name in the first of ``langs`` known, else the source language."""
        return pick(self.cards[card_id].get("name"), list(langs), self.set_of(card_id).source_language)

    def find_set(self, code: str) -> SetInfo | None:
        """Return the set whose code, alias or tool code (:attr:`SetInfo.codes`: ``WBSP``, ``BS2``)
        is ``code`` (folded as every name is: case, width; ``ＢＳ`` is ``BS``), or None. A dictionary
        lookup (built once, again when sets are added): a set's own code wins over another set's
        alias or tool code, then the first set in catalog order (:func:`set_code_collisions` reports
        such collisions when the catalog is validated)."""
        keys = self._set_keys
        if keys is None or keys[0] != len(self.sets):
            found: dict[str, SetInfo] = {fold(info.code): info for info in reversed(list(self.sets.values()))}
            for info in self.sets.values():
                for name in info.lookup_names:
                    found.setdefault(fold(name), info)
            keys = self._set_keys = (len(self.sets), found)
        return keys[1].get(fold(code))

    def sets_named(self, text: str) -> list[SetInfo]:
        """Return the sets ``text`` names: the set of that code, alias or tool code
        (:meth:`find_set`), else every set of that name in any language (``Base Set``, ``Set de
        Base``, ``Base Set 2``; folded), in catalog order: games share set names (the forum TCG's
        Base Set), so a caller tells them apart by what it knows (a game, a card number).
        ``[]`` when none. Collection exports (issue 31) write set names where deck lists write codes."""
        found = self.find_set(text)
        if found is not None:
            return [found]
        names = self._set_names
        if names is None or names[0] != len(self.sets):
            table: dict[str, list[SetInfo]] = {}
            for info in self.sets.values():
                for value in dict.fromkeys(fold(v) for v in (info.data.get("name") or {}).values() if isinstance(v, str)):
                    table.setdefault(value, []).append(info)
            names = self._set_names = (len(self.sets), table)
        return list(names[1].get(fold(text), []))

    def name_maps(self, game: str) -> tuple[Mapping[str, set[str]], Mapping[str, set[str]], Mapping[str, str]]:
        """The names deck lines are matched by, for the cards of ``game``: ``(folded name -> card
        ids, name without spaces or punctuation -> card ids, folded name of another game's card ->
        that game)``. Names in every language, each ``printed_name`` (a print variant's spelling)
        and each ``also_known_as`` (the name players and tools give the card: basep-24 ``_____'s
        Pikachu`` is ``Birthday Pikachu``); folded with :func:`cardlab.core.text.fold` and
        :func:`cardlab.core.text.compact`."""

        names: dict[str, set[str]] = {}
        squeezed: dict[str, set[str]] = {}
        other_games: dict[str, str] = {}
        for card_id, card in self.cards.items():
            card_game = self.game_of(card_id)
            for name in self.names_of(card_id, card):
                if card_game == game:
                    names.setdefault(fold(name), set()).add(card_id)
                    squeezed.setdefault(compact(name), set()).add(card_id)
                else:
                    other_games.setdefault(fold(name), card_game)
        return names, squeezed, other_games

    def named(self, game: str, name: str) -> list[str]:
        """Return the ids of the cards of ``game`` with a name (any language, a printed name, an
        ``also_known_as``: :meth:`name_maps`) folding as ``name`` does, in print order
        (:meth:`by_print_order`); ``[]`` when none. The name table is built once per game (again
        when cards are added); a catalog read from its index asks the index instead."""
        known = self._named.get(game)
        if known is None or known[0] != len(self.cards):
            known = self._named[game] = (len(self.cards), self.name_maps(game)[0])
        return self.by_print_order(known[1].get(fold(name), ()))

    def names_of(self, card_id: str, card: dict | None = None) -> list[str]:
        """Return :func:`card_names` of a card, then the names of the card it prints
        (:meth:`oracle_of`) in the languages it has none in: the Gym Heroes Fire Energy is
        « Énergie Feu » as base1-98 is (the index stores the same names, ``card_name``)."""
        card = self.cards[card_id] if card is None else card
        names = card_names(card)
        oracle = self.oracle_of(card_id)
        if oracle != card_id:
            own = card.get("name") or {}
            theirs = self.cards[oracle].get("name") or {}
            names += [n for k, n in theirs.items() if k != "_source" and k not in own and isinstance(n, str)]
        return names

    def require_set(self, code: str) -> SetInfo:
        """Return the set whose code or alias is ``code`` (case-insensitive), as :meth:`find_set`.

        Raises:
            UsageError: no such set; the message lists the known codes and the close ones (exit 2).
        """
        found = self.find_set(code)
        if found is None:
            known = ", ".join(sorted(self.sets)) or _("none")
            close = suggest(code, [n for s in self.sets.values() for n in s.lookup_names])
            hint = did_you_mean(close)
            raise UsageError(_("no set '{code}' in the catalog (known: {known})").format(code=code, known=known) + hint)
        return found


def card_names(card: dict) -> list[str]:
    """Every name a deck line or a search may give a card: its name in each language, each
    ``printed_name`` (a print variant's spelling) and each ``also_known_as`` (the community's name:
    ``Birthday Pikachu``), as written."""
    names = [n for k, n in (card.get("name") or {}).items() if k != "_source" and isinstance(n, str)]
    names += [n for k, n in (card.get("printed_name") or {}).items() if k != "_source" and isinstance(n, str)]
    names += [n for n in card.get("also_known_as") or () if isinstance(n, str)]
    return names


CODE_KINDS = ("ptcgo", "ptcgl", "limitless", "tcgone", "tcgdex", "pokemontcgio")
"""The tools whose set codes a set manifest may record (``codes``; schema/set.schema.json)."""


def set_code_collisions(sets: Iterable[tuple[str, dict]]) -> list[tuple[str, str, list[str], str, str]]:
    """The names two sets share: each code, alias or tool code of a set (``(code, manifest data)``
    pairs, in catalog order) that another set already uses, folded as lookup folds them; set lookup gives the name to the set that owns it as its code, else the first set.

    Returns ``(set code, name as written, where the set's manifest holds it (["aliases"], ["codes",
    "tcgone"]), the other set's code, how the other set uses it)``, one per shared name."""
    owner: dict[str, tuple[str, str]] = {}
    found: list[tuple[str, str, list[str], str, str]] = []
    for code, data in sets:
        codes, aliases = data.get("codes"), data.get("aliases")
        codes = codes if isinstance(codes, dict) else {}
        aliases = aliases if isinstance(aliases, list) else []
        names = [(code, "code", ["code"]), *((a, "alias", ["aliases"]) for a in aliases)]
        names += [(c, f"{k} code", ["codes", k]) for k, c in codes.items()]
        mine: set[str] = set()
        for name, how, where in names:
            if not isinstance(name, str):
                continue
            key = fold(name)
            if key in mine:
                continue
            mine.add(key)
            if key in owner and owner[key][0] != code:
                found.append((code, name, where, *owner[key]))
            else:
                owner.setdefault(key, (code, how))
    return found


@dataclass(frozen=True)
class SourceFile:
    """A file of the catalog: ``kind`` is ``set``, ``card`` or ``format``; ``set_dir`` the set's folder."""

    path: Path
    kind: str
    game: str
    set_dir: Path | None


def scan(roots: Iterable[Path]) -> list[SourceFile]:
    """List the catalog's files under ``roots``, sorted by path (set files first within a set).

    A root is a catalog root (``<game>/<set>/`` below it), a game folder (set folders below it) or
    a set folder (it holds YAML files itself); which one is seen from where the YAML files are.

    Raises:
        InputError: a root does not exist or is not a folder.
    """
    found: list[SourceFile] = []
    formats: list[SourceFile] = []
    for kind, folder, game in folders(roots):
        if kind == "formats":
            formats.extend(SourceFile(p, "format", game, None) for p in sorted(folder.glob("*.yaml")))
            continue
        names = yaml_names(folder)
        if SET_FILE in names:  # the manifest first
            names.remove(SET_FILE)
            names.insert(0, SET_FILE)
        found.extend(SourceFile(folder / name, "set" if name == SET_FILE else "card", game, folder) for name in names)
    return found + formats


def layered_dirs(files: list[SourceFile], data: dict[Path, Any]) -> dict[Path, Path]:
    """The folders of a personal catalog layered over another root (issue 33: a collector's own cards
    beside the shipped set, without copying it): ``{folder: the set folder its cards belong to}``.

    A folder belongs to another set when its ``set.yaml`` says ``extends: <set code>`` (the set of
    that code, in any root, of the folder's own game), or when it holds card files only and a set folder of the same game
    and folder name has a ``set.yaml`` (the first such, in the order of the roots). Shipped
    corrections then reach the personal catalog with no merge: it holds only its own cards.

    Args:
        files: the catalog's files (:func:`scan`); data: the set manifests' data by path (cards
            may be absent).
    """
    manifests = {f.set_dir: data.get(f.path) for f in files if f.kind == "set"}
    by_code: dict[str, Path] = {}
    by_name: dict[tuple[str, str], Path] = {}
    for f in files:
        d = manifests.get(f.set_dir) if f.kind == "set" else None
        if isinstance(d, dict) and isinstance(d.get("code"), str) and "extends" not in d and f.set_dir is not None:
            by_code.setdefault(d["code"], f.set_dir)
            by_name.setdefault((f.game, f.set_dir.name), f.set_dir)
    out: dict[Path, Path] = {}
    for f in files:
        if f.set_dir is None or f.set_dir in out:
            continue
        if f.set_dir in manifests:
            d = manifests[f.set_dir]
            target = by_code.get(d["extends"]) if isinstance(d, dict) and isinstance(d.get("extends"), str) else None
            if target is not None and (manifests.get(target) or {}).get("game") != f.game:
                target = None  # a set of another game: refused by name (catalog.validate, rule extends)
        else:
            target = by_name.get((f.game, f.set_dir.name))
        if target is not None and target != f.set_dir:
            out[f.set_dir] = target
    return out


def build_catalog(roots: list[Path], files: list[SourceFile], data: dict[Path, Any]) -> Catalog:
    """Assemble a :class:`Catalog` from already loaded file data (``path -> data``).

    Files whose data is missing or not a mapping are skipped (validation reports them). A duplicate
    card id keeps the first file's card.
    """
    cat = Catalog(roots=list(roots))
    by_dir: dict[Path | None, str] = {}
    for f in files:
        d = data.get(f.path)
        if f.kind == "set" and isinstance(d, dict) and isinstance(d.get("code"), str):
            code = d["code"]
            if code not in cat.sets:
                cat.sets[code] = SetInfo(code=code, game=str(d.get("game", f.game)), data=d, path=f.path)
            by_dir[f.set_dir] = code
    for folder, target in layered_dirs(files, data).items():
        if target in by_dir:
            by_dir[folder] = by_dir[target]
    for f in files:
        d = data.get(f.path)
        if f.kind != "card" or not isinstance(d, dict) or f.set_dir not in by_dir:
            continue
        card_id = d.get("id")
        if not isinstance(card_id, str) or card_id in cat.cards:
            continue
        cat.cards[card_id] = d
        cat.paths[card_id] = f.path
        cat.card_set[card_id] = by_dir[f.set_dir]
    for card_id, d in list(cat.cards.items()):
        original = cat.cards.get(d.get("reprint_of"))  # type: ignore[arg-type]
        if original is None or "reprint_of" in original:
            continue  # validation reports it (rule reprint-of); the card stays as its file holds it
        cat.own[card_id] = d
        cat.cards[card_id] = merge_reprint(d, original)
        cat.reprints.setdefault(d["reprint_of"], []).append(card_id)
    return cat


def play_key(card: dict) -> str:
    """Return what makes two cards the same card in play: every field but the printing fields
    (:data:`PRINTING_FIELDS`, ``reprint_of``) and the rules texts (written in our own words, so two
    files may word them differently), with each localized map reduced to its English (else first)
    text. Two cards with equal keys are printings of one card."""

    skip = {*PRINTING_FIELDS, "reprint_of", "text"}
    return json.dumps(_play_value({k: v for k, v in card.items() if k not in skip}), sort_keys=True, ensure_ascii=False, default=str)


def _play_value(value: Any) -> Any:
    """:func:`play_key`'s reading of one value: a localized map as its English (else first) text,
    rules texts left out. (A function of the module, not a closure: a recursive closure is a
    reference cycle a card, kept until the garbage collector runs, which an index build pauses.)"""
    if isinstance(value, dict):
        keys = [k for k in value if k != "_source"]
        if keys and all(isinstance(k, str) and len(k) == 2 and k.islower() and isinstance(value[k], str) for k in keys):
            return value.get("en", value[sorted(keys)[0]])
        return {k: _play_value(v) for k, v in value.items() if k != "text"}
    if isinstance(value, list):
        return [_play_value(v) for v in value]
    return value


def merge_reprint(reprint: dict, original: dict) -> dict:
    """Return the full card of a reprint: every field of ``original`` but the printing fields
    (:data:`PRINTING_FIELDS`), then the reprint's own printing fields and ``reprint_of``. The name
    is the original's (``printed_name`` keeps a print variant's spelling)."""
    card = {k: v for k, v in original.items() if k not in PRINTING_FIELDS}
    card.update({k: reprint[k] for k in PRINTING_FIELDS if k in reprint})
    card["reprint_of"] = reprint["reprint_of"]
    return card
