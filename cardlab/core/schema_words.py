"""JSON Schema errors in YAML's words, for the author of a YAML (or CSV) file: ``expected an
integer, found true (a YAML boolean)``, ``"Fighting" is not one of "Fire", "Water"...``, a game
rule's own words (``x-rule``: Ippo's keywords tied to card kinds, with their seed and section).

Takes :class:`jsonschema.ValidationError` objects (any object with ``validator``,
``validator_value``, ``instance`` and ``schema``); imports neither jsonschema nor PyYAML until a
message needs it.
"""

from __future__ import annotations

import json
import re
from typing import Any


def _yaml_text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return ".nan"
        if value in (float("inf"), float("-inf")):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, int):
        digits = str(abs(value)) if value.bit_length() < 3000 else "9" * 60
        return ("-" if value < 0 else "") + digits
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_yaml_text(k)}: {_yaml_text(v)}" for k, v in list(value.items())[:6]) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_text(v) for v in value[:6]) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _show(value: Any) -> str:
    """A value as the YAML author wrote it (null, true, 2000-01-01, "text"), cut to 60 characters."""
    text = _yaml_text(value)
    return text if len(text) <= 60 else text[:57] + "..."


_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a map of fields",
    "null": "null",
}


def found_words(value: Any, text_ok: bool = True) -> str:
    """``true (a YAML boolean)``; a date gets the hint to quote it when text is what is wanted
    (``text_ok``: an integer field is not helped by quoting)."""
    from cardlab.core.yamlio import describe  # lazy: PyYAML (17 ms), only for a file with problems

    what = describe(value)
    if what == "a YAML date" and text_ok:
        return f'{_show(value)} (a YAML date): YAML reads this as a date; quote it: "{value.isoformat()}"'
    return f"{_show(value)} ({what})"


def schema_message(err: Any) -> str:
    """A jsonschema error in YAML's words: ``expected an integer, found true (a YAML boolean)``.

    A schema rule that carries an ``x-rule`` (the game's rule in words, with its seed and section:
    Ippo's keywords tied to card kinds) is said in those words after what was found."""
    rule = err.schema.get("x-rule") if isinstance(err.schema, dict) else None
    if rule:
        if err.validator == "not" and isinstance(err.instance, list):
            return f"{_show(err.instance)}: {rule}"
        return f"{_plain_message(err)}: {rule}"
    return _plain_message(err)


def _plain_message(err: Any) -> str:
    if err.validator == "enum":
        options = ", ".join(_show(v) for v in err.validator_value)
        shown = _show(err.instance) if isinstance(err.instance, str) else found_words(err.instance)
        return f"{shown} is not one of {options}"
    if err.validator == "const":
        return f"expected {_show(err.validator_value)}, found {found_words(err.instance)}"
    if err.validator == "type":
        wanted = [err.validator_value] if isinstance(err.validator_value, str) else list(err.validator_value)
        return f"expected {' or '.join(_TYPE_WORDS.get(w, w) for w in wanted)}, found {found_words(err.instance, 'string' in wanted)}"
    if err.validator == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        return f"missing field{'s' if len(missing) > 1 else ''} {', '.join(repr(k) for k in missing) or '?'}"
    if err.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[
            err.validator
        ]
        return f"{_show(err.instance)} is out of range: must be {word} {_show(err.validator_value)}"
    if err.validator in ("minItems", "maxItems"):
        word = "at least" if err.validator == "minItems" else "at most"
        return f"a list of {len(err.instance)} item(s); it must have {word} {err.validator_value}"
    if err.validator == "multipleOf":
        return f"{_show(err.instance)} is not a multiple of {_show(err.validator_value)}"
    if err.validator == "uniqueItems":
        return "the list holds the same item twice"
    if err.validator in ("maxLength", "maxProperties"):
        return f"too long (at most {err.validator_value})"
    if err.validator == "not" and isinstance(err.instance, dict):
        banned = [k for sub in err.validator_value.get("anyOf", []) for k in sub.get("required", []) if k in err.instance]
        if banned:
            return f"not allowed on this kind of card: {', '.join(banned)}"
        return "this combination of fields is not allowed"
    if err.validator in ("minLength", "minProperties") and not err.instance:
        return "must not be empty"
    if err.validator == "pattern":
        what = re.sub(r"\s*\((?:see )?seeds? [^)]*\)", "", err.schema.get("description") or "") or err.validator_value
        return f"{_show(err.instance)} does not have the expected form ({what})"
    if err.validator in ("minLength", "minProperties"):
        return f"too short (at least {err.validator_value})"
    if err.validator == "false" or err.validator is None:
        return "this field is not allowed here"
    return f"does not fit the schema ({err.validator})"
