"""Text helpers: folding for matching, and picking a language from a localized map."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'",
                              "\u2010": "-", "\u2011": "-", "\u2013": "-", "\u2014": "-"})
_GENDER = [(re.compile(r"\s*\u2642"), " m"), (re.compile(r"\s*\u2640"), " f")]
LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Fold text for matching: NFKC, casefold, accents removed, curly apostrophes made straight,
    ``♂``/``♀`` written `` m``/`` f``, runs of spaces collapsed.

    ``fold("Farfetch’d") == fold("farfetch'd")``; ``fold("Pokémon") == "pokemon"``;
    ``fold("Nidoran♂") == fold("Nidoran M") == "nidoran m"``. Japanese text is kept (NFKC only).
    """
    if text.isascii() and "`" not in text:  # fast path: most names in Latin script
        return " ".join(text.lower().split())
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    for pattern, repl in _GENDER:
        text = pattern.sub(repl, text)
    # Drop Latin-style accents (U+0300-U+036F) only: Japanese dakuten (U+3099/U+309A) stay, so that
    # バ and ハ remain different letters.
    text = "".join(ch for ch in unicodedata.normalize("NFD", text.casefold()) if not "\u0300" <= ch <= "\u036f")
    return " ".join(unicodedata.normalize("NFC", text).split())


_LANG_KEYS: dict[str, bool] = {}


def _is_lang(key: object) -> bool:
    if not isinstance(key, str):
        return False
    known = _LANG_KEYS.get(key)
    if known is None:
        known = _LANG_KEYS[key] = bool(LANG_RE.fullmatch(key))
    return known


def is_localized(value: Any) -> bool:
    """True when ``value`` is a localized map: a non-empty dict whose keys are language codes
    (plus the optional ``_source`` hash map) and whose values are strings."""
    if not isinstance(value, dict):
        return False
    seen = False
    for k, v in value.items():
        if k == "_source":
            continue
        if not (isinstance(v, str) and _is_lang(k)):
            return False
        seen = True
    return seen


def pick(localized: dict | str | None, langs: Sequence[str] = (), source: str = "en") -> str:
    """Return the text of a localized map in the first of ``langs`` it has, else the source
    language, else any language. A plain string is returned as is; None gives ``""``."""
    if localized is None:
        return ""
    if isinstance(localized, str):
        return localized
    for lang in [*langs, source]:
        if lang in localized:
            return localized[lang]
        base = lang.split("-")[0]
        if base in localized:
            return localized[base]
    return next((v for k, v in localized.items() if k != "_source"), "")


def localized_fields(data: Any, path: str = "") -> Iterator[tuple[str, dict]]:
    """Yield ``(field path, localized map)`` for every localized map inside a card or set.

    Paths read like ``name``, ``attacks[0].name``, ``pokemon_power.text``; order is the file's.
    """
    if is_localized(data):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from localized_fields(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from localized_fields(value, f"{path}[{i}]")


def slug(text: str) -> str:
    """Return a file-name slug: ``"Mr. Mime"`` -> ``mr-mime``, ``"Nidoran♂"`` -> ``nidoran-m``."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text).replace("'", "")).strip("-") or "card"


@lru_cache(maxsize=65536)
def norm_value(text: str) -> str:
    """Normalize a field value for exact matching: :func:`fold`, then ``-`` and ``_`` as spaces
    (``Rare Holo``, ``rare-holo`` and ``rare_holo`` are one value)."""
    return " ".join(fold(text).replace("-", " ").replace("_", " ").split())


MAX_LINES_SHOWN = 10
"""Line numbers a message lists before "and N more" (a list of 99,000 lines stays one short line)."""


def line_list(lines: Iterable[int], most: int = MAX_LINES_SHOWN) -> str:
    """Return ``line 3``, ``lines 1, 2`` or ``lines 1, 2, ..., 10 and 98,990 more`` (at most ``most``
    numbers)."""
    lines = list(lines)
    if len(lines) == 1:
        return f"line {lines[0]}"
    shown = ", ".join(str(n) for n in lines[:most])
    more = f" and {len(lines) - most:,} more" if len(lines) > most else ""
    return f"lines {shown}{more}"
