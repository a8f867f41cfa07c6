"""``cardlab import csv FILE --set CODE``: a set's cards from a spreadsheet, one YAML file per card
(issue 13 §1: a forum that runs the seed-002 game loads its own list; works for any game whose
schema the columns can fill).

Columns are the card schema's fields (``schema/<game>.card.schema.json`` with the common part),
named as a path of dots (the column form, documented in CONTRIBUTING.md):

- a plain field (text, whole number, number, true/false, a choice from a list) by its name:
  ``stars``, ``blow_type``, ``mana`` (Monpa's ``X`` and ``?`` are text);
- a localized field (``name``, ``flavor``...) by its name (the set's source language) or
  ``name.<lang>`` (``name.en``);
- a field of a map by the map's name, a dot and the field: ``start_cost.generic``,
  ``start_cost.tap``, ``generates.attributes``;
- a list of plain values in one cell, items separated by commas: ``blocks`` = ``straight, hook``,
  ``start_cost.attributes`` = ``courage, courage`` (one entry per icon);
- a list of maps (Ippo's ``abilities``, Monpa's ``effects``, Pokémon's ``attacks``) one column per
  field of each item, numbered from 1: ``abilities.1.timing``, ``abilities.1.cost.generic``,
  ``abilities.1.keywords``, ``abilities.1.text.en``; ``abilities.2.…`` is the second.

``number`` is required; ``id`` may be left out (it is ``<set>-<number>``). An empty cell leaves the
field out (an item whose cells are all empty is left out; items are numbered without gaps).

Every cell is checked before anything is written: a whole number where the schema wants one, the
card's schema (jsonschema), the set manifest's ``rarities``, the number unique in the file and not
already in the set (unless ``overwrite``). Problems come as ``file:row:column`` with the row the
CSV line. Files are then written atomically (:func:`cardlab.core.fs.atomic_write`); if one write
fails, the files written before it are removed or restored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.catalog.filecheck import missing_source_language
from cardlab.catalog.model import Catalog, SetInfo
from cardlab.catalog.schemas import card_schema_name, load_all, validator
from cardlab.contrib.new_card import card_path, check_writable, existing_card, make_folder, write_folder
from cardlab.core.csvfile import CsvTable
from cardlab.core.errors import CardlabError, DataError, Problem, SourcePos, UsageError
from cardlab.core.fs import atomic_write
from cardlab.core.fuzzy import suggest
from cardlab.core.paths import schema_dir
from cardlab.core.schema_words import schema_message

LOCALIZED_REFS = ("common.schema.json#/$defs/localized", "common.schema.json#/$defs/localized_line")


@dataclass(frozen=True)
class Column:
    """A fillable field: ``field`` name, ``kind`` (``text``, ``integer``, ``number``, ``boolean``,
    ``integer-or-text``, ``localized``) and the schema's ``description``."""

    field: str
    kind: str
    description: str = ""


def _kind(spec: dict) -> str | None:
    ref = spec.get("$ref", "")
    if ref in LOCALIZED_REFS:
        return "localized"
    if ref.endswith("card_id") or ref.endswith("collector_number"):
        return "text"
    if ref.startswith("#/$defs/"):
        return None  # a game-local definition: resolved by the caller
    if "enum" in spec or "const" in spec:
        return "text"
    t = spec.get("type")
    types = set(t) if isinstance(t, list) else {t}
    if types == {"integer"}:
        return "integer"
    if types <= {"integer", "number"} and types:
        return "number"
    if types == {"integer", "string"}:
        return "integer-or-text"
    if types == {"string"}:
        return "text"
    if types == {"boolean"}:
        return "boolean"
    return None


def _follow(spec: Any, home: str, schemas: dict[str, dict]) -> tuple[dict, str]:
    """``spec`` with its ``$ref`` followed (``#/$defs/x`` in ``home``, ``common.schema.json#/$defs/x``),
    and the schema file it now lives in; a localized ref is kept (it is a leaf)."""
    while isinstance(spec, dict) and "$ref" in spec and spec["$ref"] not in LOCALIZED_REFS:
        ref = spec["$ref"]
        if ref in ("#/$defs/localized", "#/$defs/localized_line") and home == "common.schema.json":
            return {"$ref": "common.schema.json" + ref}, home
        file, _, pointer = ref.partition("#")
        home = file or home
        spec = schemas[home]
        for part in pointer.strip("/").split("/"):
            if part:
                spec = spec.get(part, {})
    return (spec if isinstance(spec, dict) else {}), home


def _fields(spec: dict, home: str, schemas: dict[str, dict]) -> dict[str, tuple[dict, str]]:
    """Every field a map of ``spec`` may hold, whatever branch applies: its properties, with those
    of its allOf, anyOf, if/then/else parts (first definition kept)."""
    out: dict[str, tuple[dict, str]] = {}
    stack = [(spec, home)]
    while stack:
        part, where = stack.pop(0)
        part, where = _follow(part, where, schemas)
        for name, sub in part.get("properties", {}).items():
            if name not in out and sub is not False:
                out[name] = (sub, where)
        for key in ("allOf", "anyOf", "oneOf"):
            stack.extend((p, where) for p in part.get(key, []) if isinstance(p, dict))
        stack.extend((part[k], where) for k in ("then", "else") if isinstance(part.get(k), dict))
    return out


def _item_kind(spec: dict, home: str, schemas: dict[str, dict]) -> str | None:
    """The column kind of a list of plain values (``list:text``...), else None."""
    items, where = _follow(spec.get("items", {}), home, schemas)
    kind = _kind(items)
    return f"list:{kind}" if kind and kind != "localized" else None


def columns(game: str) -> dict[str, Column | None]:
    """Return every top-level card field of ``game``'s schema: a :class:`Column` when a CSV cell
    can fill it, None for lists and objects (not fillable)."""

    schemas = load_all(schema_dir())
    common_defs = schemas["common.schema.json"]["$defs"]
    common = {
        k: ({"$ref": "common.schema.json" + v["$ref"]} if v.get("$ref", "").startswith("#/") else v)
        for k, v in common_defs["card"]["properties"].items()
    }
    game_schema = schemas[card_schema_name(game)]
    props: dict[str, dict] = dict(common)
    props.update(game_schema.get("properties", {}))
    for branch in ("then", "else"):  # fields only some card kinds have (if/then/else)
        props.update({k: v for k, v in game_schema.get(branch, {}).get("properties", {}).items() if k not in props})
        inner = game_schema.get(branch, {}).get("then", {})
        props.update({k: v for k, v in inner.get("properties", {}).items() if k not in props})
    defs = game_schema.get("$defs", {})
    out: dict[str, Column | None] = {}
    for name, spec in props.items():
        if spec.get("$ref", "").startswith("#/$defs/"):
            spec = defs.get(spec["$ref"].rsplit("/", 1)[-1], {})
        kind = _kind(spec)
        if kind is None and spec.get("type") == "array":
            kind = _item_kind(spec, card_schema_name(game), schemas)
        out[name] = Column(name, kind, spec.get("description", "")) if kind else None
    return out


@dataclass(frozen=True)
class Slot:
    """Where one CSV column goes in a card: ``path`` (field names, and list positions from 0),
    ``kind`` (as :class:`Column`, or ``list:<kind>`` for a list of plain values in one cell) and
    ``lang`` for a localized field."""

    path: tuple[str | int, ...]
    kind: str
    lang: str | None = None

    @property
    def label(self) -> str:
        """The path as the column names it (list positions from 1)."""
        return ".".join(str(p + 1) if isinstance(p, int) else p for p in self.path)


def _slot(raw: str, where: str, game: str, source: str) -> Slot:
    """Read one header cell as a :class:`Slot` (the column form of the module docstring).

    Raises:
        UsageError: a name that is no field, a map or list not split into its fields, an index
            that is not a number from 1, a language after a field that is not localized.
    """
    schemas = load_all(schema_dir())
    home = card_schema_name(game)
    spec: dict = {"allOf": [{"$ref": "common.schema.json#/$defs/card"}, schemas[home]]}
    parts = [p.strip() for p in raw.split(".")]
    path: list[str | int] = []
    i = 0
    while True:
        fields = _fields(spec, home, schemas)
        name = parts[i]
        if name not in fields:
            if not path:
                fillable = sorted(k for k, v in columns(game).items() if v)
                close = suggest(name, fillable)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise UsageError(f"{where}: '{raw}' is not a field of {game} cards (fields: {', '.join(fillable)}){hint}")
            label = Slot(tuple(path), "").label
            raise UsageError(f"{where}: '{raw}': {label} has no field '{name}' (fields: {', '.join(sorted(fields))})")
        path.append(name)
        i += 1
        sub, home = _follow(*fields[name], schemas)
        kind = _kind(sub)
        if kind == "localized":
            if len(parts) > i + 1:
                raise UsageError(f"{where}: '{raw}': a localized field takes one language after it ({'.'.join(parts[:i])}.en)")
            return Slot(tuple(path), kind, parts[i] if i < len(parts) else source)
        if kind is not None or sub.get("type") not in ("array", "object"):
            if i < len(parts):
                raise UsageError(f"{where}: '{raw}': only localized fields (name...) take a language after a dot")
            return Slot(tuple(path), kind or "text")
        if sub.get("type") == "array":
            listed = _item_kind(sub, home, schemas)
            if listed:
                if i < len(parts):
                    raise UsageError(f"{where}: '{raw}': {'.'.join(parts[:i])} is a list in one cell, items separated by commas")
                return Slot(tuple(path), listed)
            example = f"{'.'.join(parts[:i])}.1.<field>"
            if i == len(parts) or not parts[i].isdigit() or int(parts[i]) < 1:
                raise UsageError(f"{where}: '{raw}' holds a list of maps: one column per field of each item, numbered from 1 ({example})")
            path.append(int(parts[i]) - 1)
            i += 1
            spec = sub.get("items", {})
        else:
            spec = sub
        if i == len(parts):
            raise UsageError(f"{where}: '{raw}' holds a map: one column per field ({raw}.<field>)")


def _header(table: CsvTable, game: str, source: str) -> list[Slot]:
    """Map each header cell to its :class:`Slot`. Raises UsageError for unknown or unfillable
    columns, a column named twice and a missing ``number``."""
    mapped: list[Slot] = []
    seen: dict[tuple, int] = {}
    for i, raw in enumerate(table.header, 1):
        slot = _slot(raw, f"{table.path}:1:{i}", game, source)
        key = (slot.path, slot.lang)
        if key in seen:
            raise UsageError(f"{table.path}:1:{i}: column '{raw}' appears twice (also column {seen[key]})")
        seen[key] = i
        mapped.append(slot)
    if not any(slot.path == ("number",) for slot in mapped):
        raise UsageError(f"{table.path}:1: a 'number' column (the collector number) is required")
    return mapped


def _put(card: dict, path: tuple, value: Any) -> None:
    """Set ``value`` at ``path`` in ``card``, making the maps on the way (list positions are map
    keys until :func:`_listed` turns them into lists)."""
    node = card
    for part in path[:-1]:
        node = node.setdefault(part, {})
    node[path[-1]] = value


def _listed(value: Any, path: tuple = ()) -> tuple[Any, tuple | None]:
    """``value`` with every map keyed by list positions turned into a list; also the path of the
    first missing position (``abilities.2`` given, ``abilities.1`` not), or None."""
    if not isinstance(value, dict):
        return value, None
    gap = None
    out = {}
    for k, v in value.items():
        out[k], inner = _listed(v, (*path, k))
        gap = gap or inner
    if out and all(isinstance(k, int) for k in out):
        keys = sorted(out)
        if keys != list(range(len(keys))):
            missing = next(i for i in range(len(keys) + 1) if i not in out)
            return [out[k] for k in keys], gap or (*path, missing)
        return [out[k] for k in keys], gap
    return out, gap


def _cell(kind: str, text: str) -> tuple[Any, str | None]:
    """Convert one cell: ``(value, None)`` or ``(None, problem message)``; a ``list:<kind>`` cell
    holds items separated by commas."""
    s = text.strip()
    if kind.startswith("list:"):
        values = []
        for item in (p.strip() for p in s.split(",")):
            if not item:
                return None, f"'{s}' has an empty item (items are separated by commas)"
            value, message = _cell(kind[5:], item)
            if message:
                return None, message
            values.append(value)
        return values, None
    whole = re.fullmatch(r"[+-]?[0-9]+", s) is not None
    if kind == "integer" or (kind == "integer-or-text" and whole):
        if not whole:
            return None, f"'{s}' is not a whole number"
        if len(s) > 1000:  # Python's int-string limit is past this; no card holds such a number
            return None, f"a number of {len(s):,} digits (at most 1,000)"
        return int(s), None
    if kind == "number":
        try:
            f = float(s)
        except ValueError:
            return None, f"'{s}' is not a number"
        return (int(f) if f.is_integer() else f), None
    if kind == "boolean":
        low = s.casefold()
        if low in ("true", "yes", "1", "oui", "vrai"):
            return True, None
        if low in ("false", "no", "0", "non", "faux"):
            return False, None
        return None, f"'{s}' is not true or false"
    return s, None


def plan_cards(table: CsvTable, info: SetInfo) -> list[tuple[int, dict]]:
    """Read every row of ``table`` into a card of set ``info``, checked against the game's schema
    and the manifest's rarities (module docstring).

    Returns:
        ``(CSV line, card data)`` in file order.

    Raises:
        UsageError: a bad header (exit 2); DataError: every bad cell, as file:row:column (exit 1).
    """

    mapped = _header(table, info.game, info.source_language)
    check = validator(card_schema_name(info.game))
    rarities = info.data.get("rarities") or []
    problems: list[Problem] = []
    numbers: dict[str, int] = {}
    cards: list[tuple[int, dict]] = []
    for row in table.rows:
        card: dict[str, Any] = {}
        where: dict[tuple, int] = {}
        bad = False
        for i, (slot, text) in enumerate(zip(mapped, row.cells, strict=True), 1):
            if not text.strip():
                continue
            if slot.kind == "localized":
                _put(card, (*slot.path, slot.lang), text.strip())
                where.setdefault(slot.path, i)
                where[(*slot.path, slot.lang)] = i
                continue
            value, message = _cell(slot.kind, text)
            if message:
                problems.append(Problem(SourcePos(table.path, row.line, i), f"{slot.label}: {message}", "cell"))
                bad = True
                continue
            _put(card, slot.path, value)
            where[slot.path] = i
        card, gap = _listed(card)
        if gap is not None:
            label = Slot(gap, "").label
            first = min(c for p, c in where.items() if p[: len(gap) - 1] == gap[:-1])
            problems.append(
                Problem(SourcePos(table.path, row.line, first), f"{label} is empty: number the items from 1, without gaps", "cell")
            )
            bad = True
        number = str(card.get("number", "")).strip()
        if number and number in numbers:
            problems.append(
                Problem(
                    SourcePos(table.path, row.line, where.get(("number",), 0)),
                    f"number {number} is also on line {numbers[number]}",
                    "unique-id",
                )
            )
            bad = True
        numbers.setdefault(number, row.line)
        if bad:
            continue
        card_id = f"{info.code}-{number}"
        if "id" in card and card["id"] != card_id:
            problems.append(
                Problem(SourcePos(table.path, row.line, where[("id",)]), f"id '{card['id']}' is not {card_id} (<set>-<number>)", "cell")
            )
            continue
        ordered = {"id": card_id, **{k: v for k, v in card.items() if k != "id"}}
        errors = sorted(check.iter_errors(ordered), key=lambda e: [str(p) for p in e.absolute_path])
        if any(e.validator != "unevaluatedProperties" for e in errors):  # a failed allOf also reports every field
            errors = [e for e in errors if e.validator != "unevaluatedProperties"]
        for err in errors:
            at = tuple(err.absolute_path)
            label = Slot(at, "").label
            if err.validator == "required":
                for missing in [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]:
                    field = (*at, missing)
                    column = next((i for i, slot in enumerate(mapped, 1) if slot.path == field), 0)
                    name = Slot(field, "").label
                    rule = err.schema.get("x-rule") if isinstance(err.schema, dict) else None
                    message = f"{name} is required: fill this cell" if column else f"{name} is required: add a column for it"
                    problem = Problem(SourcePos(table.path, row.line, column), message + (f" ({rule})" if rule else ""), "schema")
                    if problem not in problems:  # one field required by two branches: one message
                        problems.append(problem)
                bad = True
                continue
            col_no = next((where[at[:n]] for n in range(len(at), 0, -1) if at[:n] in where), 0)
            message = f"{label}: {schema_message(err)}" if label else schema_message(err)
            problems.append(Problem(SourcePos(table.path, row.line, col_no), message, "schema"))
            bad = True
        if not bad:
            for keys in missing_source_language(ordered, info.source_language):
                at = tuple(keys)
                col_no = next((where[at[:n]] for n in range(len(at), 0, -1) if at[:n] in where), 0)
                problems.append(
                    Problem(
                        SourcePos(table.path, row.line, col_no),
                        f"{Slot(at, '').label}: missing the source language '{info.source_language}' (a column"
                        f" {Slot(at, '').label}.{info.source_language}; or transcribed: false while the text is a translation)",
                        "source-language",
                    )
                )
                bad = True
        if rarities and "rarity" in ordered and ordered["rarity"] not in rarities:
            problems.append(
                Problem(
                    SourcePos(table.path, row.line, where[("rarity",)]),
                    f"rarity '{ordered['rarity']}' is not one of the set's ({', '.join(rarities)}; set.yaml)",
                    "rarity",
                )
            )
            bad = True
        if not bad:
            cards.append((row.line, ordered))
    if problems:
        raise DataError(sorted(problems, key=lambda p: (p.pos.line, p.pos.col or 10**9)))  # by cell, row-wide last
    return cards


def card_yaml(card: dict) -> str:
    """Return one card as YAML: its fields in order, localized maps on one line (``{fr: Nom}``)."""
    import yaml

    return yaml.safe_dump(card, allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)


@dataclass
class ImportResult:
    """What ``import csv`` wrote: ``written`` new files, ``replaced`` existing ones."""

    written: list[Path]
    replaced: list[Path]


def import_cards(catalog: Catalog, table: CsvTable, set_code: str, overwrite: bool = False) -> ImportResult:
    """Write one YAML file per CSV row into set ``set_code`` (module docstring); all or nothing.

    The files go to the set's folder, or with a personal catalog layered over the set's root (the
    last of several roots) to that catalog's folder for the set
    (:func:`cardlab.contrib.new_card.write_folder`; issue 33 item 5).

    Raises:
        UsageError: unknown set, installed catalog, bad header (exit 2); DataError: bad cells, or
        cards that already exist without ``overwrite`` (exit 1); CardlabError: a write failed (the
        files written before it are removed or restored).
    """

    info = catalog.require_set(set_code)
    folder = write_folder(catalog, info)
    check_writable(info, folder)
    cards = plan_cards(table, info)
    targets: list[tuple[Path, str, bool]] = []
    problems = []
    for line, card in cards:
        found = existing_card(catalog, info, card["number"], folder)
        if found is not None and not overwrite:
            problems.append(
                Problem(
                    SourcePos(table.path, line, 0), f"card {card['id']} already exists ({found}); use --overwrite to replace it", "exists"
                )
            )
            continue
        names = [card["name"].get(info.source_language), *card["name"].values()]
        latin = next((n for n in names if isinstance(n, str) and any(ch.isascii() and ch.isalnum() for ch in n)), None)
        path = found or card_path(info, card["number"], latin, folder=folder)  # a Japanese name: its translation names the file
        targets.append((path, card_yaml(card), found is not None))
    if problems:
        raise DataError(problems)
    done: list[tuple[Path, bytes | None]] = []
    if targets:
        make_folder(folder)
    try:
        for path, text, replacing in targets:
            old = path.read_bytes() if replacing else None
            atomic_write(path, text, overwrite=replacing, example="1-name.yaml")
            done.append((path, old))
    except CardlabError:
        for path, old in reversed(done):
            try:
                if old is None:
                    path.unlink()
                else:
                    atomic_write(path, old, overwrite=True)
            except (OSError, CardlabError):
                pass
        raise
    return ImportResult([p for p, o in done if o is None], [p for p, o in done if o is not None])
