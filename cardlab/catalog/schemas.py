"""JSON Schemas: load them once, with a registry for the ``$ref``s between them.

The ``game`` of a set manifest and of a format file is one of the games whose card schema is in the
same folder (:func:`cardlab.games.discover`): :func:`load_all` fills that enum when it loads the
schemas, so a new game is registered by its card schema alone.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from cardlab.core.paths import schema_dir
from cardlab.core.stamps import sha1_hex
from cardlab.games import CARD_SCHEMA_SUFFIX, discover

GAME_ENUMS = ("set.schema.json", "format.schema.json")
"""The schemas whose ``properties.game`` :func:`load_all` closes to the folder's games."""


@cache
def load_all(directory: Path) -> dict[str, dict]:
    """Return every ``*.schema.json`` of ``directory`` by file name, parsed, with the ``game`` of
    :data:`GAME_ENUMS` an enum of the folder's games (:func:`cardlab.games.discover`, sorted).
    Cached: callers must not change what it returns.

    Raises:
        OSError, ValueError: a schema file cannot be read or is not JSON (a broken install).
    """
    schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.schema.json"))}
    games = list(discover(directory))
    for name in GAME_ENUMS:
        if name in schemas:  # the file says "type": "string" (other tools read it); the enum is stricter
            node = schemas[name]["properties"]["game"]
            node.pop("type", None)
            node["enum"] = games
    return schemas


def fingerprint(directory: Path | None = None) -> str:
    """Return a short hash of every schema's text (cached validation results depend on it)."""
    directory = directory or schema_dir()
    return sha1_hex(*(p.name.encode() + b"\0" + p.read_bytes() for p in sorted(directory.glob("*.schema.json"))))[:16]


@cache
def validator(name: str, directory: Path | None = None) -> Any:
    """Return a compiled draft 2020-12 validator for ``schema/<name>`` (e.g. ``set.schema.json``).

    Raises:
        KeyError: no such schema file.
    """
    from referencing import Registry, Resource  # lazy: referencing (176 ms cold), only with the explaining validator

    schemas = load_all(directory or schema_dir())
    registry = Registry().with_resources(
        (uri, Resource.from_contents(s)) for name_, s in schemas.items() for uri in (name_, s.get("$id", name_))
    )
    return _YamlValidator()(schemas[name], registry=registry)


@cache
def _YamlValidator() -> Any:  # noqa: N802 - a class factory
    """Draft 2020-12 with YAML 1.2's types: ``4.0`` is a number, not an integer (JSON Schema
    would accept it as one; the deck code would then count 4.0 copies)."""
    from jsonschema import Draft202012Validator, validators  # lazy: jsonschema (134 ms cold), only to explain a problem

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return validators.extend(Draft202012Validator, type_checker=checker)


_MISSING = object()


@cache
def fast_validator(name: str, directory: Path | None = None) -> Any:
    """Return a compiled jsonschema-rs validator for ``schema/<name>``, or None when jsonschema-rs
    is not installed. About 250 times faster than :func:`validator` (8 µs against 2 ms for a card);
    it only answers valid or not, so files it rejects are checked again with :func:`validator`
    for positioned messages.
    """
    try:
        import jsonschema_rs  # lazy: jsonschema-rs (141 ms cold), only when files are checked
    except ImportError:  # pragma: no cover - optional speed-up
        return None
    schemas = load_all(directory or schema_dir())

    def retrieve(uri: str) -> dict:
        return schemas[uri.rsplit("/", 1)[-1].split("#", 1)[0]]

    return jsonschema_rs.Draft202012Validator(schemas[name], retriever=retrieve)


def card_schema_name(game: str) -> str:
    """Return the schema file name for a game's cards (``pokemon.card.schema.json``)."""
    return f"{game}{CARD_SCHEMA_SUFFIX}"
