"""Translations: which strings exist, which are translated or outdated, and writing them back.

Every text a person reads is a localized map (``{en: Charizard, fr: Dracaufeu}``). A map may carry
``_source: {fr: 1a2b3c4d}``: the :func:`source_hash` of the source text the French translation was
made from. A translation is

- *missing* when the map has no key for the language;
- *outdated* when its ``_source`` hash differs from the hash of the current source text;
- *current* otherwise, including when no hash is stored (the official names carried from
  reference data have none: they were not translated from our source text).

Writing translations back (:func:`render_edits`, :func:`commit`) lives in :mod:`cardlab.i18n.writeback`
and is re-exported here: ruamel.yaml's round-trip mode keeps comments, key order, flow maps and
quoting of untouched lines as they are; a file is replaced atomically, and only when the new text
still validates. See docs/TRANSLATING.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardlab.catalog.model import Catalog, number_int
from cardlab.core.text import localized_fields, pick, source_hash
from cardlab.i18n.writeback import Change, Edit, check_change, commit, render_edits

__all__ = [
    "KINDS",
    "KIND_LABELS",
    "SET_PREFIX",
    "Coverage",
    "CoverageRow",
    "TString",
    "coverage",
    "field_kind",
    "languages",
    "parse_path",
    "source_hash",
    "strings",
    # from cardlab.core.text (every layer reads it: the outdated mark), re-exported
    # writing (cardlab.i18n.writeback), re-exported
    "Change",
    "Edit",
    "check_change",
    "commit",
    "render_edits",
]

KINDS = ("name", "attack", "text", "set")
"""Field kinds, in report order: card names, attack/ability/power names, rules text, set names."""

KIND_LABELS = {"name": "card name", "attack": "attack name", "text": "rules text", "set": "set name"}
"""Short labels of :data:`KINDS` (``attack`` covers attack, ability and power names)."""

SET_PREFIX = "set."
"""Field paths of a set manifest start with this in contexts: ``base1 set.name``."""

_PATH_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(path: str) -> list[str | int]:
    """Turn a field path into data keys: ``attacks[0].name`` -> ``["attacks", 0, "name"]``.

    Raises:
        ValueError: ``path`` is empty or malformed.
    """
    keys: list[str | int] = []
    pos = 0
    while pos < len(path):
        if path[pos] == "." and keys and pos + 1 < len(path):
            pos += 1
        m = _PATH_TOKEN.match(path, pos)
        if not m:
            raise ValueError(f"malformed field path {path!r}")
        keys.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not keys:
        raise ValueError("empty field path")
    return keys


def field_kind(path: str, in_set: bool = False) -> str:
    """Return the kind of a translatable field (one of :data:`KINDS`).

    ``name`` (or ``printed_name``, a reprint's print variant) is a card's name; another path ending
    in ``name`` (``attacks[0].name``,
    ``pokemon_power.name``) an ``attack``; a set manifest's fields are ``set``; the rest ``text``.
    """
    if in_set:
        return "set"
    if path in ("name", "printed_name"):
        return "name"
    if path.endswith(".name"):
        return "attack"
    return "text"


@dataclass(frozen=True)
class TString:
    """One translatable string of the catalog, for one target language.

    Attributes:
        owner: the card id (``base1-4``) or, for a set manifest, the set code (``base1``).
        path: the field path in contexts: ``attacks[0].name``; ``set.name`` for a set's fields.
        kind: one of :data:`KINDS`.
        set_code: the set the string belongs to.
        file: the YAML file holding it.
        source_lang: the set's source language; ``source``: the source text.
        lang: the target language; ``translation``: its text, or None when missing.
        stored_hash: the ``_source`` hash recorded for ``lang``, or None.
        label: a short human description (``Charizard (Dracaufeu) · Base Set``) for translators.
    """

    owner: str
    path: str
    kind: str
    set_code: str
    file: Path
    source_lang: str
    source: str
    lang: str
    translation: str | None
    stored_hash: str | None
    label: str = ""

    @property
    def context(self) -> str:
        """The PO ``msgctxt``: ``<card id or set code> <field path>``."""
        return f"{self.owner} {self.path}"

    @property
    def keys(self) -> list[str | int]:
        """The data keys of the localized map inside its file."""
        return parse_path(self.path.removeprefix(SET_PREFIX) if self.kind == "set" else self.path)

    @property
    def state(self) -> str:
        """``missing``, ``outdated`` or ``current`` (module docstring)."""
        if self.translation is None:
            return "missing"
        if self.stored_hash is not None and self.stored_hash != source_hash(self.source):
            return "outdated"
        return "current"


def _selected_sets(catalog: Catalog, sets: Iterable[str] | None) -> list[str]:
    """Return the set codes to work on (all, sorted, when ``sets`` is empty); aliases accepted.

    Raises:
        UsageError: a code names no set.
    """
    if not sets:
        return sorted(catalog.sets)
    out = []
    for code in sets:
        info = catalog.require_set(code)
        if info.code not in out:
            out.append(info.code)
    return out


def _number_key(card_id: str, card: dict) -> tuple:
    number = str(card.get("number", ""))
    num = number_int(number)
    return (num if num is not None else 1 << 30, number, card_id)


def strings(catalog: Catalog, lang: str, sets: Iterable[str] | None = None) -> Iterator[TString]:
    """Yield every translatable string of the selected sets for target language ``lang``.

    Order: sets by code; in a set, its manifest first, then cards by collector number, fields in
    file order. Sets whose source language is ``lang`` are skipped (nothing to translate), and so
    are maps that lack the source language (a validation problem).

    Args:
        catalog: the loaded catalog.
        lang: the target language (``fr``).
        sets: set codes or aliases to keep, or None for all.

    Raises:
        UsageError: a set code is unknown.
    """
    codes = _selected_sets(catalog, sets)
    cards_by_set: dict[str, list[str]] = {}
    for card_id, code in catalog.card_set.items():
        cards_by_set.setdefault(code, []).append(card_id)
    for code in codes:
        info = catalog.sets[code]
        src = info.source_language
        if src == lang:
            continue
        set_label = f"{info.name()} ({code})"
        for path, loc in localized_fields(info.data):
            if src not in loc:
                continue
            yield _tstring(code, SET_PREFIX + path, "set", code, info.path, src, loc, lang, f"set {set_label}")
        for card_id in sorted(cards_by_set.get(code, []), key=lambda c: _number_key(c, catalog.cards[c])):
            card = catalog.cards[card_id]  # a reprint merged: its name and texts are its original's
            name = pick(card.get("name"), (), src)
            translated = pick(card.get("name"), (lang,), src)
            shown = name if translated == name else f"{name} ({translated})"
            label = f"{shown} · {set_label} #{card.get('number', '?')}"
            own = catalog.file_data(card_id)
            if card_id in catalog.own:  # a reprint: only a print variant's spelling is its own to translate
                own = {k: v for k, v in own.items() if k == "printed_name"}
            for path, loc in localized_fields(own):
                if src not in loc:
                    continue  # a validation problem (source-language): nothing to translate from
                yield _tstring(card_id, path, field_kind(path), code, catalog.paths[card_id], src, loc, lang, label)


def _tstring(owner: str, path: str, kind: str, code: str, file: Path, src: str, loc: dict, lang: str, label: str) -> TString:
    source_hashes = loc.get("_source")
    stored: dict = source_hashes if isinstance(source_hashes, dict) else {}
    h = stored.get(lang)
    text = loc.get(lang)
    return TString(
        owner=owner,
        path=path,
        kind=kind,
        set_code=code,
        file=file,
        source_lang=src,
        source=str(loc.get(src, "")),
        lang=lang,
        translation=text if isinstance(text, str) else None,
        stored_hash=str(h) if h is not None else None,
        label=label,
    )


def languages(catalog: Catalog, sets: Iterable[str] | None = None) -> list[str]:
    """Return every target language present in the selected sets (source languages excluded), sorted."""
    found: set[str] = set()
    for code in _selected_sets(catalog, sets):
        info = catalog.sets[code]
        datas = [info.data, *(catalog.file_data(c) for c, s in catalog.card_set.items() if s == code)]
        for data in datas:
            for _path, loc in localized_fields(data):
                found.update(k for k in loc if k not in ("_source", info.source_language))
    return sorted(found)


# --- coverage --------------------------------------------------------------------------------


@dataclass
class CoverageRow:
    """Counts for one (language, set, field kind).

    Attributes:
        total: strings in the source language; ``translated``: those with a translation (current or
        outdated); ``outdated``: translations made from an older source text.
    """

    lang: str
    set_code: str
    kind: str
    total: int = 0
    translated: int = 0
    outdated: int = 0

    @property
    def current(self) -> int:
        """Translated and not outdated."""
        return self.translated - self.outdated

    @property
    def missing(self) -> int:
        """Not translated at all."""
        return self.total - self.translated

    @property
    def percent(self) -> float:
        """Current translations as a percentage of ``total`` (100.0 when there is nothing to translate)."""
        return 100.0 * self.current / self.total if self.total else 100.0

    def to_json(self) -> dict:
        """Return a JSON-ready dict of the counts and the percentage (rounded to 0.1)."""
        return {
            "lang": self.lang,
            "set": self.set_code,
            "kind": self.kind,
            "total": self.total,
            "translated": self.translated,
            "outdated": self.outdated,
            "missing": self.missing,
            "percent": round(self.percent, 1),
        }


@dataclass
class Coverage:
    """Translation coverage: one :class:`CoverageRow` per (language, set, kind) with strings."""

    langs: list[str]
    rows: list[CoverageRow] = field(default_factory=list)

    def total(self, lang: str, set_code: str | None = None) -> CoverageRow:
        """Return the sum of the rows of ``lang`` (and of ``set_code`` when given), kind ``all``."""
        out = CoverageRow(lang, set_code or "all", "all")
        for r in self.rows:
            if r.lang == lang and (set_code is None or r.set_code == set_code):
                out.total += r.total
                out.translated += r.translated
                out.outdated += r.outdated
        return out

    def below(self, percent: float) -> list[str]:
        """Return the languages whose overall coverage is under ``percent``."""
        return [lang for lang in self.langs if self.total(lang).percent < percent]

    def to_json(self) -> dict:
        """Return ``{"languages": [{lang, total..., "sets": [{set, total..., "kinds": [row...]}]}]}``."""
        out = []
        for lang in self.langs:
            sets = []
            for code in dict.fromkeys(r.set_code for r in self.rows if r.lang == lang):
                kinds = [r.to_json() for r in self.rows if r.lang == lang and r.set_code == code]
                sets.append({**self.total(lang, code).to_json(), "kinds": kinds})
            out.append({**self.total(lang).to_json(), "sets": sets})
        return {"languages": out}


def coverage(catalog: Catalog, langs: Sequence[str] | None = None, sets: Iterable[str] | None = None) -> Coverage:
    """Count source strings, translations and outdated translations per language, set and kind.

    Args:
        catalog: the loaded catalog.
        langs: target languages; None or empty: every language present (:func:`languages`), each
            counted only over the sets that hold at least one string in it.
        sets: set codes or aliases, or None for all.

    Returns:
        A :class:`Coverage`; rows are ordered by language, set code, then :data:`KINDS`.

    Raises:
        UsageError: a set code is unknown.
    """
    sets = list(sets) if sets else None
    present_only = not langs
    langs = list(langs) if langs else languages(catalog, sets)
    result = Coverage(langs=langs)
    for lang in langs:
        rows: dict[tuple[str, str], CoverageRow] = {}
        for s in strings(catalog, lang, sets):
            row = rows.setdefault((s.set_code, s.kind), CoverageRow(lang, s.set_code, s.kind))
            row.total += 1
            state = s.state
            row.translated += state != "missing"
            row.outdated += state == "outdated"
        if present_only:
            used = {code for (code, _kind), r in rows.items() if r.translated}
            rows = {key: r for key, r in rows.items() if key[0] in used}
        result.rows.extend(sorted(rows.values(), key=lambda r: (r.set_code, KINDS.index(r.kind))))
    return result
