"""The English-word detector of the language tests (issue 32): the words of the English interface
(the catalog template's messages) a French page or run must not show, less the words the French
catalog itself uses and the proper names a test allows. Shared by the CLI's and the web's tests."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from cardlab.core import l10n
from cardlab.decks.rules import RULES

REPO_LOCALE = l10n.LOCALE_DIR

ALLOWED = {
    # proper names: card and set names the catalog holds in English only, game and source names
    "blaine's",
    "charizard",
    "team",
    "rocket",
    "gym",
    "heroes",
    "challenge",
    "wizards",
    "black",
    "star",
    "promos",
    "jungle",
    "limitless",
    "pojo",
    "bellecon",
    "klaczynski",
    "ptcglegends",
    "wotc",
    "east",
    "coast",
    "sts",
    "neo",
    "genesis",
    "mitsuhiro",
    "arita",
    "hajime",
    "ippo",
    "monpa",
    "ocg",
    "forum",
    "tcg",
    "doll",
    "house",
}
"""Words of the English interface a French run may still print: names (the test fails on any other)."""


FIELD_MEANINGS = "cardlab/search/fields.py"
"""Where the catalog's field meanings come from: left out on both sides, as their text and its
translations hold the query's values (``pokemon``, ``basic``, ``retreat<=1``), which are syntax."""


def english_words() -> set[str]:
    """Every word of the English interface (the catalog template's messages), less the words the
    French catalog itself uses (« Format », « Type », « Rare », « Set de Base »: words of both languages)."""
    with (REPO_LOCALE / "cardlab.pot").open("rb") as f:
        template = read_po(f)
    with (REPO_LOCALE / "fr" / "LC_MESSAGES" / "cardlab.po").open("rb") as f:
        french = read_po(f, locale="fr")
    english = {
        w
        for m in template
        if m.id and not any(path == FIELD_MEANINGS for path, _line in m.locations)
        for w in words(m.id if isinstance(m.id, str) else m.id[0])
    }
    both = {
        w
        for m in french
        if m.id and m.string and not any(path == FIELD_MEANINGS for path, _line in m.locations)
        for w in words(m.string if isinstance(m.string, str) else m.string[0])
    }
    return english - both


def words(text: str) -> set[str]:
    """The lower-case words of ``text``, less addresses, placeholders, markup, rule ids, language codes and identifiers."""
    text = re.sub(r"https?://\S+|\{\w+\}|\[/?[a-z ]*\]", " ", text)  # addresses, placeholders, markup
    text = re.sub(r"[\w.~-]+/[\w./-]*", " ", text)  # paths: examples/decks/zap-theme-deck.txt
    text = re.sub(rf"\b(?:{'|'.join(RULES)}):|\b(?:{'|'.join(l10n.LANGUAGES)}): ", " ", text)  # rule ids, language codes
    text = re.sub(r"\b[\w.]+(?:-[\w.]+)+\b", " ", text)  # identifiers: base1-4, pokemon-base, copy-limit
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']{2,}", text)}


ENGLISH = english_words()


def leftover(text: str, allowed: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """The English words of ``text`` but :data:`ALLOWED` and ``allowed`` (more proper names)."""
    return (words(text) & ENGLISH) - ALLOWED - set(allowed)


def help_english_words(lang: str = "fr") -> set[str]:
    """:func:`english_words` for ``--help``: the words of both templates (the interface's and the
    help's, ``cardlab-help.pot``), less the words ``lang``'s two catalogs use themselves."""
    english, both = set(), set()
    for domain in ("cardlab", "cardlab-help"):
        with (REPO_LOCALE / f"{domain}.pot").open("rb") as f:
            english |= {w for m in read_po(f) if m.id for w in words(m.id if isinstance(m.id, str) else m.id[0])}
        with (REPO_LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            both |= {
                w
                for m in read_po(f, locale=lang)
                if m.id and m.string
                for w in words(m.string if isinstance(m.string, str) else m.string[0])
            }
    return english - both
