"""Deck formats as data: ``<root>/<game>/formats/<name>.yaml``, checked by ``schema/format.schema.json``.

A format names its game, its sections (the main deck first, then e.g. Monpa's commander and
favor) and a list of rules; each rule names a rule kind of the registry in ``cardlab.decks.rules`` and
gives its parameters and the seed it comes from. Adding a format is adding a file.

Problems in a format file are :class:`~cardlab.core.errors.Problem` values with ``file:line:column``
(rule ids ``yaml``, ``schema``, ``format-name``, ``format-game``, ``unique-format``,
``format-section``, ``unknown-rule``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from cardlab.core.errors import Problem, SourcePos
from cardlab.core.inputs import LoadError
from cardlab.core.text import fold, pick


@dataclass(frozen=True)
class Section:
    """A deck section: ``id`` (``main``, ``commander``...), ``title``, and the folded header words
    that start it (``headers``) or name a group inside it (``groups``) in a text list."""

    id: str
    title: str
    headers: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleSpec:
    """One rule of a format: ``rule`` (registry id), its ``params`` (the YAML mapping without
    ``rule`` and ``source``), ``source`` (the seed it comes from) and ``pos`` (the format file)."""

    rule: str
    params: dict = field(hash=False, compare=False)
    source: str = ""
    pos: SourcePos | None = None


@dataclass
class Format:
    """A deck format (see the module docstring).

    Attributes:
        name: ``pokemon-base``...; game: a code of :data:`cardlab.games.GAMES` (``pokemon``...).
        title, description, source: human text.
        opening_hand: cards in the opening hand (statistics), or None.
        sections: the sections, main deck first.
        rules: the rules in file order.
        path: the format file.
    """

    name: str
    game: str
    title: str
    sections: list[Section]
    rules: list[RuleSpec]
    path: Path
    description: str = ""
    source: str = ""
    opening_hand: int | None = None

    @cached_property
    def allowed_sets(self) -> set[str] | None:
        """Set codes allowed by an ``allowed-sets`` rule, or None when any set is (computed once, as
        :meth:`header_words`: a format is not changed once read; callers do not change it)."""
        found = [set(r.params["sets"]) for r in self.rules if r.rule == "allowed-sets"]
        return set.intersection(*found) if found else None

    @cached_property
    def number_ranges(self) -> dict[str, tuple[int, int]]:
        """Set code -> ``(lowest, highest)`` collector number allowed, from ``number-range`` rules
        (computed once)."""
        return {r.params["set"]: (r.params["min"], r.params["max"]) for r in self.rules if r.rule == "number-range"}

    @cached_property
    def rule_keys(self) -> tuple:
        """Each rule's id and parameters as a hashable value (mappings and lists made tuples), in
        rule order: what makes two formats' rules the same (computed once)."""
        return tuple((r.rule, _hashable(r.params)) for r in self.rules)

    @cached_property
    def banned_cards(self) -> frozenset[str]:
        """Card ids a ``banned`` rule names (computed once)."""
        return frozenset(c for r in self.rules if r.rule == "banned" for c in r.params["cards"])

    def allows(self, card_id: str, set_code: str, number: int | None) -> bool:
        """True when a card may be played in the format by its printing alone: its set is allowed
        (``allowed-sets``), its collector number is in range (``number-range``; ``number`` is the
        number as an integer, None when it has none) and it is not banned (``banned``)."""
        allowed = self.allowed_sets
        if allowed is not None and set_code not in allowed:
            return False
        span = self.number_ranges.get(set_code)
        if span is not None and (number is None or not span[0] <= number <= span[1]):
            return False
        return card_id not in self.banned_cards

    def section(self, section_id: str) -> Section | None:
        """Return the section with this id, or None."""
        return next((s for s in self.sections if s.id == section_id), None)

    def header_words(self) -> dict[str, tuple[str, bool]]:
        """Return folded header word -> ``(section id, is a group)`` for text deck lists (computed
        once per format: every deck checked against it reads it; callers do not change it)."""
        return self._header_words

    @cached_property
    def _header_words(self) -> dict[str, tuple[str, bool]]:
        words: dict[str, tuple[str, bool]] = {}
        for s in self.sections:
            for w in s.groups:
                words.setdefault(w, (s.id, True))
            for w in (fold(s.id), *s.headers):
                words[w] = (s.id, False)
        return words


def _hashable(value: object) -> object:
    """``value`` with mappings and lists made (sorted) tuples, so that it can key a dict."""
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


def build_format(path: Path, game: str | None, data: dict) -> tuple[Format | None, list[Problem]]:
    """Turn a format file's data, already checked against ``schema/format.schema.json``, into a
    :class:`Format`, checking what the schema cannot: the name is the file name, the game is the
    folder, the first section is ``main``, and section ids are unique and known to every rule. Rule ids
    are checked by the schema's enum (a test keeps it equal to :data:`cardlab.decks.rules.RULES`).

    Returns:
        ``(format, problems)``; the format is None when any problem was found.
    """
    found: list[tuple[list, str, str]] = []  # (data path, message, rule); positioned below if any
    if data["name"] != path.stem:
        found.append((["name"], f"name '{data['name']}' should be the file name '{path.stem}'", "format-name"))
    if game is not None and data["game"] != game:
        found.append((["game"], f"game '{data['game']}' does not match the folder '{game}'", "format-game"))
    sections = [
        Section(s["id"], s.get("title", s["id"]), tuple(fold(w) for w in s.get("headers", ())), tuple(fold(w) for w in s.get("groups", ())))
        for s in data["sections"]
    ]
    ids = [s.id for s in sections]
    if ids[0] != "main":
        found.append((["sections", 0, "id"], "the first section is the main deck: id 'main'", "format-section"))
    for i, sid in enumerate(ids):
        if sid in ids[:i]:
            found.append((["sections", i, "id"], f"section '{sid}' is defined twice", "format-section"))
    specs = []
    for i, r in enumerate(data["rules"]):
        if "section" in r and r["section"] not in ids:
            found.append(
                (["rules", i, "section"], f"no section '{r['section']}' in this format (sections: {', '.join(ids)})", "format-section")
            )
        for j, sid in enumerate(r.get("sections", ())):
            if sid not in ids:
                found.append(
                    (["rules", i, "sections", j], f"no section '{sid}' in this format (sections: {', '.join(ids)})", "format-section")
                )
        specs.append((i, r["rule"], {k: v for k, v in r.items() if k not in ("rule", "source")}, r.get("source", "")))
    if found:
        from cardlab.core.yamlio import load_positions, position  # lazy: PyYAML (17 ms), only for a format with problems

        try:
            tree = load_positions(path)
        except LoadError:  # changed since it was read: positions unknown
            tree = None
        return None, [Problem(position(tree, keys, path), message, rule) for keys, message, rule in found]
    rules = [RuleSpec(rule, params, source, SourcePos(path)) for _i, rule, params, source in specs]
    title = data["title"] if isinstance(data["title"], str) else pick(data["title"], ["en"])
    return Format(
        name=data["name"],
        game=data["game"],
        title=title,
        sections=sections,
        rules=rules,
        path=path,
        description=data.get("description", ""),
        source=data.get("source", ""),
        opening_hand=data.get("opening_hand"),
    ), []


def collect_formats(files: Iterable[tuple[Path, str]], data: dict[Path, Any], bad: set[Path]) -> tuple[dict[str, Format], list[Problem]]:
    """Build the formats of ``files`` (``(path, game folder)``) from loaded ``data``, skipping the
    files in ``bad`` (they already have problems). Returns ``(name -> Format, problems)``."""
    found: dict[str, Format] = {}
    problems: list[Problem] = []
    for path, game in files:
        d = data.get(path)
        if path in bad or not isinstance(d, dict):
            continue
        fmt, probs = build_format(path, game, d)
        problems.extend(probs)
        if fmt is None:
            continue
        if fmt.name in found:
            problems.append(
                Problem(SourcePos(path, 1, 1), f"format '{fmt.name}' is also defined in {found[fmt.name].path}", "unique-format")
            )
            continue
        found[fmt.name] = fmt
    return found, problems
