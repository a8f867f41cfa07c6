"""``cardlab import csv FILE --set CODE``: a set's cards from a spreadsheet, one YAML file per card
(issue 13 §1: a forum that runs the seed-002 game loads its own list; works for any game whose
schema the columns can fill).

Columns are the card schema's fields (``schema/<game>.card.schema.json`` with the common part):
plain fields only (text, whole numbers, numbers, true/false, a choice from a list). A localized
field (``name``, ``flavor``...) is filled by a column of that name (the set's source language) or
``name.<lang>`` (``name.en``). ``number`` is required; ``id`` may be left out (it is
``<set>-<number>``). An empty cell leaves the field out. Lists and nested objects (attacks,
effects) cannot come from a CSV: such a column is refused.

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

from cardlab.catalog.model import Catalog, SetInfo
from cardlab.catalog.schemas import card_schema_name, load_all, validator
from cardlab.contrib.new_card import card_path, check_writable, existing_card
from cardlab.core.csvfile import CsvTable
from cardlab.core.errors import CardlabError, DataError, Problem, SourcePos, UsageError
from cardlab.core.fs import atomic_write
from cardlab.core.fuzzy import suggest
from cardlab.core.paths import schema_dir

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
        out[name] = Column(name, kind, spec.get("description", "")) if kind else None
    return out


def _header(table: CsvTable, game: str, source: str) -> list[tuple[str, str | None]]:
    """Map each header cell to ``(field, language or None)``. Raises UsageError for unknown or
    unfillable columns and a missing ``number``."""

    cols = columns(game)
    fillable = sorted(k for k, v in cols.items() if v)
    mapped: list[tuple[str, str | None]] = []
    seen: set[tuple[str, str | None]] = set()
    for i, raw in enumerate(table.header, 1):
        name, _, lang = raw.partition(".")
        name = name.strip()
        where = f"{table.path}:1:{i}"
        if name not in cols:
            close = suggest(name, fillable)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UsageError(f"{where}: '{raw}' is not a field of {game} cards (fields: {', '.join(fillable)}){hint}")
        col = cols[name]
        if col is None:
            raise UsageError(
                f"{where}: '{name}' holds a list or an object; a CSV fills plain fields only "
                f"({', '.join(fillable)}); add it to the YAML files afterwards"
            )
        if col.kind == "localized":
            lang = lang.strip() or source
        elif lang:
            raise UsageError(f"{where}: '{raw}': only localized fields (name...) take a language after a dot")
        key = (name, lang or None)
        if key in seen:
            raise UsageError(f"{where}: column '{raw}' appears twice")
        seen.add(key)
        mapped.append(key)
    if not any(f == "number" for f, _ in mapped):
        raise UsageError(f"{table.path}:1: a 'number' column (the collector number) is required")
    return mapped


def _cell(kind: str, text: str) -> tuple[Any, str | None]:
    """Convert one cell: ``(value, None)`` or ``(None, problem message)``."""
    s = text.strip()
    whole = re.fullmatch(r"[+-]?[0-9]+", s) is not None
    if kind == "integer" or (kind == "integer-or-text" and whole):
        if not whole:
            return None, f"'{s}' is not a whole number"
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
    cols = columns(info.game)
    check = validator(card_schema_name(info.game))
    rarities = info.data.get("rarities") or []
    problems: list[Problem] = []
    numbers: dict[str, int] = {}
    cards: list[tuple[int, dict]] = []
    for row in table.rows:
        card: dict[str, Any] = {}
        where: dict[str, int] = {}
        bad = False
        for i, ((name, lang), text) in enumerate(zip(mapped, row.cells, strict=True), 1):
            if not text.strip():
                continue
            col = cols[name]
            assert col is not None
            if col.kind == "localized":
                card.setdefault(name, {})[lang] = text.strip()
                where.setdefault(name, i)
                continue
            value, message = _cell(col.kind, text)
            if message:
                problems.append(Problem(SourcePos(table.path, row.line, i), f"{name}: {message}", "cell"))
                bad = True
                continue
            card[name] = value
            where[name] = i
        number = str(card.get("number", "")).strip()
        if number and number in numbers:
            problems.append(
                Problem(
                    SourcePos(table.path, row.line, where.get("number", 0)),
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
                Problem(SourcePos(table.path, row.line, where["id"]), f"id '{card['id']}' is not {card_id} (<set>-<number>)", "cell")
            )
            continue
        ordered = {"id": card_id, **{k: v for k, v in card.items() if k != "id"}}
        errors = sorted(check.iter_errors(ordered), key=lambda e: [str(p) for p in e.absolute_path])
        if any(e.validator != "unevaluatedProperties" for e in errors):  # a failed allOf also reports every field
            errors = [e for e in errors if e.validator != "unevaluatedProperties"]
        for err in errors:
            field = err.absolute_path[0] if err.absolute_path else None
            col_no = where.get(str(field), 0) if field is not None else 0
            if field is None and err.validator == "required":
                missing = err.message.split(" is a required")[0].strip("'")
                column = next((i for i, (name, _lang) in enumerate(mapped, 1) if name == missing), 0)
                col_no = column
                message = f"{missing} is required: fill this cell" if column else f"{missing} is required: add a column for it"
            else:
                message = f"{field}: {err.message}" if field is not None else err.message
            problems.append(Problem(SourcePos(table.path, row.line, col_no), message, "schema"))
            bad = True
        if rarities and "rarity" in ordered and ordered["rarity"] not in rarities:
            problems.append(
                Problem(
                    SourcePos(table.path, row.line, where["rarity"]),
                    f"rarity '{ordered['rarity']}' is not one of the set's ({', '.join(rarities)}; set.yaml)",
                    "rarity",
                )
            )
            bad = True
        if not bad:
            cards.append((row.line, ordered))
    if problems:
        raise DataError(problems)
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

    Raises:
        UsageError: unknown set, installed catalog, bad header (exit 2); DataError: bad cells, or
        cards that already exist without ``overwrite`` (exit 1); CardlabError: a write failed (the
        files written before it are removed or restored).
    """

    info = catalog.require_set(set_code)
    check_writable(info)
    cards = plan_cards(table, info)
    targets: list[tuple[Path, str, bool]] = []
    problems = []
    for line, card in cards:
        found = existing_card(catalog, info, card["number"])
        if found is not None and not overwrite:
            problems.append(
                Problem(
                    SourcePos(table.path, line, 0), f"card {card['id']} already exists ({found}); use --overwrite to replace it", "exists"
                )
            )
            continue
        name = card["name"].get(info.source_language) or next(iter(card["name"].values()))
        path = found or card_path(info, card["number"], name if any(ch.isascii() and ch.isalnum() for ch in name) else None)
        targets.append((path, card_yaml(card), found is not None))
    if problems:
        raise DataError(problems)
    done: list[tuple[Path, bytes | None]] = []
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
