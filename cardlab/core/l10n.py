"""The interface in the player's language: gettext catalogs, the current language, the known ones.

The interface's words (labels, field names, types, stages, rarities, verdict words, problem
sentences, format names) are English in the code, marked ``_("...")`` (said now) or ``N_("...")``
(only marked: translated where shown), and translated through the gettext catalogs
``cardlab/locale/<lang>/LC_MESSAGES/cardlab.mo`` (compiled from the ``.po`` beside them by
``tools/i18n_catalogs.py``; docs/TRANSLATING.md). A string missing from a catalog, or empty there,
stays English (string by string: gettext's own fallback).

The language of a command is set once at its edge (:func:`use`, from :func:`interface_language`):
``--lang``, then ``CARDLAB_LANG``, then the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``); the web
asks :mod:`cardlab.i18n.negotiate`. It is a context variable, so each web request has its own.
Standard library only (gettext reads a ``.mo`` in well under a millisecond).
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from cardlab.core.errors import UsageError

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are: ``<lang>/LC_MESSAGES/cardlab.po`` and its compiled ``cardlab.mo``."""

DOMAIN = "cardlab"
HELP_DOMAIN = "cardlab-help"
"""The command line's help texts (``--help``) and its framework's words: a catalog of their own,
loaded only when help or a usage error is shown (``cardlab-help.po`` beside ``cardlab.po``)."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "it": "Italiano",
    "es": "Español",
    "ja": "日本語",
}
"""The interface languages (code -> its own name): English, and one catalog for each other.
French, German and Italian cover the whole interface; Spanish and Japanese the labels and the
game's vocabulary (types, stages, rarities, field labels); what a catalog lacks is English."""

_current: ContextVar[str] = ContextVar("cardlab_interface_language", default="en")


def known_languages() -> str:
    """Return the interface languages as a message lists them: ``en (English), fr (Français), ...``."""
    return ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())


def base_of(code: str) -> str:
    """Return the primary subtag of a language code: ``fr-FR`` -> ``fr``, ``pt_BR`` -> ``pt``."""
    return re.split(r"[-_.@]", code.strip(), maxsplit=1)[0].lower()


def check_languages(langs: Sequence[str], origin: str = "--lang") -> None:
    """Refuse a language cardlab does not know (an interface language, or a region of one).

    Args:
        langs: normalized codes (``["fr", "de-AT"]``).
        origin: where they came from, named in the message (``--lang``, ``CARDLAB_LANG``).

    Raises:
        UsageError: (exit 2) the first unknown code, with the known ones listed.
    """
    for code in langs:
        if base_of(code) not in LANGUAGES:
            raise UsageError(f"{origin}: unknown language '{code}'; cardlab knows {known_languages()}")


def locale_language(environ: Mapping[str, str] | None = None) -> str | None:
    """Return the interface language the locale asks for (``LC_ALL``, then ``LC_MESSAGES``, then
    ``LANG``, the first that is set, as POSIX reads them), or None for ``C``, ``POSIX`` or a
    language cardlab has no catalog for (the locale is a wish, never an error)."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").strip()
        if value:
            base = base_of(value)
            return base if base in LANGUAGES else None
    return None


def interface_language(langs: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """Return the interface language for the preferred card languages ``langs`` (``--lang``, else
    ``CARDLAB_LANG`` or the config file): the first one cardlab has a catalog for, else the
    locale's (:func:`locale_language`), else English."""
    for code in langs:
        if base_of(code) in LANGUAGES:
            return base_of(code)
    return locale_language(environ) or "en"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Return the compiled catalog of ``lang`` (read once per process), or a pass-through one for
    English and for a language without a ``.mo``."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), [lang], fallback=True)


@cache
def help_translations(lang: str) -> gettext.NullTranslations:
    """Return the help catalog of ``lang`` (:data:`HELP_DOMAIN`) falling back to its interface
    catalog (:func:`translations`), then English; read once per process."""
    if lang == "en":
        return gettext.NullTranslations()
    found = gettext.translation(HELP_DOMAIN, str(LOCALE_DIR), [lang], fallback=True)
    found.add_fallback(translations(lang))
    return found


def help_gettext(message: str) -> str:
    """Return a help text (a paragraph of ``--help``) in the current interface language."""
    lang = _current.get()
    return message if lang == "en" or not message else help_translations(lang).gettext(message)


def use(lang: str) -> None:
    """Make ``lang`` (an interface language, or anything else: English) the language of this
    command or request (the context it runs in)."""
    _current.set(base_of(lang) if base_of(lang) in LANGUAGES else "en")


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Run a block in the interface language ``lang``, then restore the one before."""
    token = _current.set(base_of(lang) if base_of(lang) in LANGUAGES else "en")
    try:
        yield
    finally:
        _current.reset(token)


def current() -> str:
    """Return the interface language in effect (``en`` unless :func:`use` said otherwise)."""
    return _current.get()


def _(message: str) -> str:
    """Return ``message`` in the current interface language (English when its catalog lacks it)."""
    lang = _current.get()
    return message if lang == "en" or not message else translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Return the singular or plural form for ``n`` in the current interface language."""
    lang = _current.get()
    if lang == "en":
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Return ``message`` read in ``context`` (``msgctxt``: one English word, two meanings)."""
    lang = _current.get()
    return message if lang == "en" else translations(lang).pgettext(context, message)


def gettext_in(lang: str, message: str, context: str | None = None) -> str:
    """Return ``message`` in the language ``lang`` whatever the current one (a proxy face takes its
    card's language)."""
    t = translations(base_of(lang)) if base_of(lang) in LANGUAGES else translations("en")
    return t.pgettext(context, message) if context else t.gettext(message)


def quote(text: str) -> str:
    """Return ``text`` between the current language's quotation marks: ``"Pikachu"`` in English,
    « Pikachu » in French, „Pikachu“ in German, «Pikachu» in Italian (the catalog's ``quotation`` entry)."""
    return pgettext("quotation", '"{text}"').format(text=text)


def either(choices: Iterable[str]) -> str:
    """Return ``choices`` joined by the current language's "or" (``type:fire or type:water``)."""
    return (" " + _("or") + " ").join(choices)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark only"
    """Mark ``message`` for the catalogs without translating it (a table of English words the
    display translates later with :func:`_`)."""
    return message


def words(line: str, sep: str = " · ") -> str:
    """Return a stored display line (the index keeps them in English: ``Pokémon · Stage 2 · Fire``,
    ``120 HP · Power · 1 attack · retreat 3``) in the current language, piece by piece: a piece the
    catalog holds whole, else ``<number> <words>`` or ``<words> <number>`` through the catalog's
    ``{n} <words>`` or ``<words> {n}`` entry, else each word alone."""
    if _current.get() == "en" or not line:
        return line
    return sep.join(_piece(p) for p in line.split(sep))


_COUNTED = re.compile(r"(?P<n>[+-]?\d+)\s+(?P<w>\D.*)|(?P<w2>\D.*?)\s+(?P<n2>[+-]?\d+)")


def _piece(piece: str) -> str:
    done = _(piece)
    if done != piece:
        return done
    m = _COUNTED.fullmatch(piece)
    if not m:
        return piece
    n, word = (m.group("n"), m.group("w")) if m.group("n") is not None else (m.group("n2"), m.group("w2"))
    msgid = "{n} " + word if m.group("n") is not None else word + " {n}"
    template = _(msgid)
    if template != msgid:
        return template.replace("{n}", n)
    return f"{n} {_(word)}" if m.group("n") is not None else f"{_(word)} {n}"
