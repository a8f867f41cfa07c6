"""YAML deck files: parse ``schema/deck.schema.json`` decks into a :class:`cardlab.decks.check.DeckList`.

``name``, ``format`` and one list per section (``main``, ``commander``, ``favor``), each item
``"4 Pikachu"`` or ``{count: 4, name: Pikachu}``; see the :mod:`cardlab.decks.check` docstring. The
entry types and count helpers it shares with the plain-text parser stay in :mod:`cardlab.decks.check`,
imported when :func:`parse_yaml` runs (so the two modules do not import each other at load time);
:mod:`cardlab.decks.check` re-exports :func:`parse_yaml`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cardlab.catalog.filecheck import schema_errors
from cardlab.core.errors import InputError, Problem, SourcePos
from cardlab.core.l10n import _
from cardlab.core.schema_words import schema_message
from cardlab.decks.lines import count_problem, no_count_message, split_count
from cardlab.decks.model import DeckList, Entry

if TYPE_CHECKING:
    from cardlab.decks.model import DeckList

__all__ = ["parse_yaml"]

_YAML_FIELDS = frozenset({"name", "format", "author", "source", "notes"})
_YAML_SECTION = re.compile(r"^[a-z][a-z0-9_-]*$")


def parse_yaml(text: str, path: Path, header_words: Iterable[str] = ()) -> DeckList:
    """Parse a YAML deck file (``schema/deck.schema.json``).

    An item that breaks the schema is a ``schema`` problem at its line and is left out; the other
    items are still read. A ``format`` that is not a format name is a ``schema`` problem (the
    deck then names no format).

    Returns:
        A :class:`DeckList` whose entries carry their section; schema problems have positions. A
        file with no card at all gets only an ``empty`` problem (:func:`read_deck` refuses it).

    Raises:
        InputError: the YAML does not parse, or its top level is not a mapping (exit code 2).
    """
    from cardlab.core.yamlio import LoadError, load, position  # lazy: PyYAML (17 ms), only for a YAML deck

    path = Path(path)
    deck = DeckList(path=path)
    tree = None
    try:
        data, tree = load(path, text)
    except LoadError as err:
        if err.problem.message == "empty file":
            data = None
        else:
            raise InputError(str(err.problem)) from None
    if data is None:
        deck.problems.append(Problem(SourcePos(path, 1), _("the file is empty: the deck list holds no cards"), "empty"))
        return deck
    if not isinstance(data, dict):
        kinds: dict[type, str] = {list: "a list", str: "a single text"}
        what = kinds.get(type(data), "a single value")
        raise InputError(
            f"{SourcePos(path, 1)}: a YAML deck is a mapping (name:, format:, main: [...]) but this file "
            f"holds {what} at its top level; see schema/deck.schema.json"
        )
    lists = {k: v for k, v in data.items() if k not in _YAML_FIELDS}
    if "format" in data:
        deck.format_line = position(tree, ["format"], path).line
        if isinstance(data["format"], str):
            deck.format = data["format"]
    if isinstance(data.get("name"), str):
        deck.name = data["name"]
    if not any(lists.values()):
        deck.problems.append(Problem(SourcePos(path, 1), _("the deck list holds no cards"), "empty"))
        return deck
    from jsonschema.exceptions import best_match  # lazy: jsonschema (134 ms cold), only to explain a problem

    bad_items: set[tuple[str, int]] = set()
    for error in schema_errors(data, "deck.schema.json"):
        keys = list(error.absolute_path)
        if len(keys) >= 2 and isinstance(lists.get(keys[0]), list) and isinstance(keys[1], int):
            bad_items.add((keys[0], keys[1]))
        if error.context:  # anyOf: skip the branches whose type does not fit at all
            fitting = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
            error = best_match(fitting or error.context) or error
            keys = list(error.absolute_path)
        if error.validator == "additionalProperties" and not keys:
            for key in data:
                if key not in _YAML_FIELDS and not _YAML_SECTION.fullmatch(str(key)):
                    deck.problems.append(
                        Problem(
                            position(tree, [key], path),
                            _("'{key}' is not a deck field nor a section (sections are lower-case lists such as main:)").format(key=key),
                            "schema",
                        )
                    )
            continue
        where = ".".join(str(k) for k in keys)
        deck.problems.append(Problem(position(tree, keys, path), f"{where + ': ' if where else ''}{schema_message(error)}", "schema"))
    for section, items in lists.items():
        if not isinstance(items, list) or not _YAML_SECTION.fullmatch(str(section)):
            continue
        for i, item in enumerate(items):
            if (section, i) in bad_items:
                continue
            line = position(tree, [section, i], path).line
            if isinstance(item, str):
                split = split_count(" ".join(item.split()))
                if split is None:
                    deck.problems.append(Problem(SourcePos(path, line), no_count_message(item.strip()), "no-count"))
                    continue
                n, card_text = split
                entry = Entry(line, n, card_text, section=section)
            else:
                n = item["count"]
                parts = [item.get("name") or item.get("card") or "", item.get("set") or "", item.get("number") or ""]
                entry = Entry(
                    line,
                    n,
                    " ".join(p for p in parts if p),
                    section=section,
                    name=item.get("name"),
                    set_code=item.get("set"),
                    number=item.get("number"),
                    card_id=item.get("card"),
                )
            problem = count_problem(path, line, n, entry.text)
            if problem:
                deck.problems.append(problem)
            else:
                deck.entries.append(entry)
    deck.problems.sort(key=lambda p: p.pos)
    return deck
