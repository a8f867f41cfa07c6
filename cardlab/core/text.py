"""Text helpers: folding for matching, and picking a language from a localized map."""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Protocol

from cardlab.core.l10n import _

# The sexes of Nidoran: anyascii spells them ":male_sign:"/":female_sign:"; deck-list exports and
# players write "Nidoran M" / "Nidoran F", so these two signs are the one table kept by hand.
_GENDER = [(re.compile(r"\s*\u2642\ufe0f?"), " m"), (re.compile(r"\s*\u2640\ufe0f?"), " f")]
LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
_NOT_WORD = re.compile(r"[\W_]+")
_CJK_CLASS = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af\U00020000-\U0003ffff]"


@lru_cache(maxsize=1)
def _cjk() -> re.Pattern[str]:
    return re.compile(_CJK_CLASS)  # about 5 ms to compile (its BMP ranges are mapped char by char): once, when needed


def has_cjk(text: str) -> bool:
    """True when ``text`` holds a Japanese kana, a CJK ideograph (or compatibility ideograph),
    half-width katakana, a Hangul syllable or an ideograph of the supplementary planes: text written
    without spaces between words, searched by substring (trigrams). Folding (:func:`fold`) keeps
    such a character one (NFKC maps half-width kana and compatibility ideographs into these ranges).
    ASCII text answers at once; the pattern is compiled on the first other text."""
    return not text.isascii() and _cjk().search(text) is not None


def _is_cjk(ch: str) -> bool:
    """True for kana, kanji, hangul and their punctuation (East Asian wide or half-width letters):
    these are kept as letters, never transliterated (anyascii would turn カ into "ka")."""
    return unicodedata.east_asian_width(ch) in ("W", "F", "H")


def cell_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: East Asian wide and full-width characters take two
    (Unicode's East Asian Width property, UAX #11), every other character one."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _other_script(ch: str) -> bool:
    """A letter, mark or digit of a script other than Latin: kept as it is (only Latin letters
    that do not decompose, like œ and ø, and modifier letters such as ``ʼ`` are spelled in ASCII)."""
    cat = unicodedata.category(ch)
    return cat[0] in "LMN" and cat != "Lm" and not unicodedata.name(ch, "").startswith("LATIN")


@lru_cache(maxsize=65536)
def _ascii_of(ch: str) -> str:
    from anyascii import anyascii  # lazy: anyascii (128 ms cold), only for a non-ASCII letter

    return anyascii(ch)


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Fold text for matching, the one way every path uses (names in the index, queries, deck lines,
    suggestions): Unicode NFKC (full-width ``Ｐｉｋａｃｈｕ`` is ``pikachu``), case folding, accents
    removed, letters that do not decompose spelled in ASCII by ``anyascii`` (``Cœur`` is ``coeur``,
    ``ø`` is ``o``), typographic apostrophes, quotes and dashes made ASCII (``’`` is ``'``),
    ``♂``/``♀`` written `` m``/`` f``, hiragana written as katakana (``jaconv``), runs of spaces
    collapsed.

    ``fold("Farfetch’d") == fold("farfetch'd")``; ``fold("Pokémon") == "pokemon"``;
    ``fold("Nidoran♂") == fold("Nidoran M") == "nidoran m"``; ``fold("ぴかちゅう") == "ピカチュウ"``.
    Japanese, Chinese and Korean letters stay letters (dakuten too: バ and ハ remain different).
    """
    if text.isascii():  # fast path: most names in Latin script
        return " ".join(text.lower().replace("`", "'").split())
    text = unicodedata.normalize("NFKC", text).casefold()
    for pattern, repl in _GENDER:
        text = pattern.sub(repl, text)
    if any("\u3041" <= ch <= "\u309f" for ch in text):
        import jaconv  # lazy: jaconv (78 ms cold), only for kana

        text = jaconv.hira2kata(text)
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if ch.isascii():
            out.append("'" if ch == "`" else ch)
        elif unicodedata.combining(ch) and ch not in "\u3099\u309a":
            continue  # accents; Japanese (han)dakuten stay
        elif _is_cjk(ch) or ch in "\u3099\u309a" or _other_script(ch):
            out.append(ch)  # other scripts stay letters (kana, kanji, hangul, Greek, Cyrillic...)
        elif unicodedata.category(ch).startswith("Z"):
            out.append(" ")
        else:
            out.append(_ascii_of(ch).lower().replace("`", "'") or ch)
    return " ".join(unicodedata.normalize("NFC", "".join(out)).split())


def compact(text: str) -> str:
    """:func:`fold`, then only letters and digits: ``Farfetch'd`` -> ``farfetchd``, ``Item Finder`` ->
    ``itemfinder``, ``PlusPower`` -> ``pluspower``; names typed without spaces or punctuation match."""
    return _NOT_WORD.sub("", fold(text))


def is_quote(ch: str) -> bool:
    """True for a double quotation mark in any typography (``"``, ``“``, ``”``, ``„``, ``＂``): a
    query reads each as a phrase quote."""
    return ch == '"' or (not ch.isascii() and _ascii_of(unicodedata.normalize("NFKC", ch)) == '"')


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


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def visible(text: str, lines: bool = False) -> str:
    """``text`` with its control characters (C0, DEL, C1) written as escapes (``\\x00``): a message
    or a page title never carries a NUL byte or moves the terminal's cursor. ``lines``: line feeds
    stay (a message of several lines, as "names 6 cards; give an id:" and its list); a carriage
    return, an escape and every other control is still written as its escape."""
    return _CONTROL.sub(lambda m: m.group() if lines and m.group() == "\n" else f"\\x{ord(m.group()):02x}", text)


ECHO_CHARS = 200
"""Most characters of a user's input a message quotes back (a query, a card reference)."""


def clip(text: str, most: int = ECHO_CHARS) -> str:
    """``text`` as a message quotes it: whole up to ``most`` characters, else its first ``most``
    and ``…`` (a 100 kB query is not echoed whole in an error)."""
    return text if len(text) <= most else text[:most] + "…"


def slug(text: str) -> str:
    """Return a file-name slug: ``"Mr. Mime"`` -> ``mr-mime``, ``"Nidoran♂"`` -> ``nidoran-m``."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text).replace("'", "")).strip("-") or "card"


@lru_cache(maxsize=65536)
def norm_value(text: str) -> str:
    """Normalize a field value for exact matching: :func:`fold`, then ``-`` and ``_`` as spaces
    (``Rare Holo``, ``rare-holo`` and ``rare_holo`` are one value)."""
    return " ".join(fold(text).replace("-", " ").replace("_", " ").split())


def forget() -> None:
    """Empty the caches of :func:`fold` and :func:`norm_value`. A loop over many cards (the index
    build) calls it between batches: each card's own names and texts would otherwise stay cached,
    up to 65,536 of each (about 30 MB at 100,000 cards), though no later card asks for them."""
    fold.cache_clear()
    norm_value.cache_clear()


MAX_LINES_SHOWN = 10
"""Line numbers a message lists before "and N more" (a list of 99,000 lines stays one short line)."""


def line_list(lines: Iterable[int], most: int = MAX_LINES_SHOWN) -> str:
    """Return ``line 3``, ``lines 1, 2`` or ``lines 1, 2, ..., 10 and 98,990 more`` (at most ``most``
    numbers)."""
    lines = list(lines)
    if len(lines) == 1:
        return _("line {n}").format(n=lines[0])
    shown = ", ".join(str(n) for n in lines[:most])
    more = _(" and {n} more").format(n=f"{len(lines) - most:,}") if len(lines) > most else ""
    return _("lines {lines}{more}").format(lines=shown, more=more)


def listify(value: Any) -> list:
    """One or many, as a list: a string or path alone becomes a one-item list (never a list of its
    letters); None becomes ``[]``; any other iterable is listed. For library entry points that take
    ``roots``, ``sets`` or ``need`` and are handed a single value."""

    if value is None:
        return []
    if isinstance(value, (str, bytes, os.PathLike)):
        return [value]
    return list(value)


# Stemming: snowballstemmer's API, run by PyStemmer's C build of the same algorithms when installed
# (a dependency: about 70 us per card instead of 3 ms).
# snowballstemmer names its algorithms by English language name and has no lookup by language code,
# so this one table maps the codes of localized maps (ISO 639-1) to those names. A language without
# a stemmer (Japanese: no spaces between words, matched by trigrams) is not stemmed.
_STEMMER_OF = {
    "ar": "arabic",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "en": "english",
    "es": "spanish",
    "eu": "basque",
    "fi": "finnish",
    "fr": "french",
    "hu": "hungarian",
    "hy": "armenian",
    "id": "indonesian",
    "it": "italian",
    "lt": "lithuanian",
    "nb": "norwegian",
    "nl": "dutch",
    "nn": "norwegian",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
}
_WORD = re.compile(r"\w+")


class _Stemmer(Protocol):
    """What :func:`stem_words` uses of a snowballstemmer stemmer."""

    def stemWords(self, words: list[str]) -> list[str]: ...


@lru_cache(maxsize=64)
def _stemmer(lang: str) -> _Stemmer | None:
    name = _STEMMER_OF.get(lang.split("-")[0].lower())
    if name is None:
        return None
    import snowballstemmer  # lazy: snowballstemmer (11 ms), only for rules text

    return snowballstemmer.stemmer(name)


def stemmer_languages() -> list[str]:
    """The language codes that have a stemmer (:func:`stem_words`)."""
    return sorted(_STEMMER_OF)


def stem_words(text: str, lang: str) -> list[str]:
    """Return the words of ``text`` (folded, :func:`fold`) reduced to their stems by the Snowball
    stemmer of ``lang`` (``paralyzed`` and ``Paralyzes`` both give ``paralyz`` in English), in
    order; ``[]`` for a language without a stemmer. Index and query stem with this one function."""
    stemmer = _stemmer(lang)
    if stemmer is None:
        return []
    return stemmer.stemWords(_WORD.findall(fold(text)))


def source_hash(text: str) -> str:
    """Return the short hash recorded in ``_source``: 8 hex digits of the SHA-1 of the source text.

    The text is NFC-normalized and its runs of white space are collapsed to one space (leading and
    trailing space dropped) first, so re-wrapping a YAML scalar does not make translations outdated.

    >>> source_hash("Charizard")
    'f474e615'
    """
    norm = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha1(norm.encode("utf-8")).hexdigest()[:8]


def outdated_mark(localized: dict | str | None, langs: Sequence[str] = (), source: str = "en") -> str:
    """Return the mark shown after a translated text that :func:`pick` chose when its English (the
    source) changed since it was translated: its ``_source`` hash (:func:`source_hash`) differs
    from the source text's. ``" [may be outdated]"`` in the interface language, else ``""`` (the
    source text itself, a text without a recorded hash, a plain string)."""
    if not isinstance(localized, dict):
        return ""
    stored = localized.get("_source")
    if not isinstance(stored, dict) or source not in localized:
        return ""
    for lang in langs:
        for code in (lang, lang.split("-")[0]):
            if code in localized:
                if code == source or code not in stored or str(stored[code]) == source_hash(localized[source]):
                    return ""
                return " " + _("[may be outdated]")
    return ""
