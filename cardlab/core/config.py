"""User settings: the preferred languages for card text.

Where the language list comes from, first match wins:

1. the ``--lang`` option (``fr`` or a comma-separated list ``fr,de``);
2. the ``CARDLAB_LANG`` environment variable (same form);
3. the config file ``<user config dir>/cardlab/config.toml`` (``CARDLAB_CONFIG`` names another
   file), e.g. ``languages = ["fr", "en"]``;
4. nothing (``[]``): text is shown in each set's source language.

The fallback to the source language is not done here but by :func:`cardlab.core.text.pick`.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import platformdirs

from cardlab.core.errors import Problem, SourcePos, UsageError
from cardlab.core.fuzzy import suggest
from cardlab.core.inputs import LineIndex, LoadError, decode, read_bytes, split_lines
from cardlab.core.l10n import N_
from cardlab.core.text import LANG_RE

ENV_LANG = "CARDLAB_LANG"
ENV_CONFIG = "CARDLAB_CONFIG"


class ConfigError(UsageError):
    """The config file cannot be used: unreadable, not TOML, or a bad ``languages`` (exit 2).

    Its message is ``<path>:<line>:<col>: <what is wrong>``; ``problem`` holds the same as a
    :class:`~cardlab.core.errors.Problem` (rule ``config``).
    """

    def __init__(self, pos: SourcePos, message: str) -> None:
        super().__init__(f"{pos}: {message}")
        self.problem = Problem(pos, message, "config")


def config_path() -> Path:
    """Return the config file path: ``CARDLAB_CONFIG``, else ``<user config dir>/cardlab/config.toml``.

    The file need not exist.
    """
    override = os.environ.get(ENV_CONFIG)
    if override:
        return Path(override).expanduser()

    return Path(platformdirs.user_config_dir("cardlab", appauthor=False)) / "config.toml"


def normalize_lang(code: str) -> str:
    """Return a language code in the catalog's form: ``FR`` -> ``fr``, ``pt_br`` -> ``pt-BR``,
    ``sr@latin`` (gettext) -> ``sr-Latn``, ``sr_RS@latin`` -> ``sr-Latn-RS``.

    The primary subtag is lowercased, a two-letter region uppercased, a script title-cased, ``_`` becomes ``-``.

    Raises:
        UsageError: ``code`` is not a language code (``fr``, ``ja``, ``pt-BR``...).
    """
    base, _, modifier = code.strip().partition("@")
    parts = base.replace("_", "-").split("-")
    parts = [parts[0].lower()] + [p.upper() if len(p) == 2 else p.title() if len(p) == 4 and p.isalpha() else p for p in parts[1:]]
    if modifier:  # gettext's ll_CC@modifier: a script goes after the language, a variant at the end
        script = _SCRIPTS.get(modifier.lower())
        if script:
            parts.insert(1, script)
        else:
            parts.append(modifier.lower())
    norm = "-".join(parts)
    if not LANG_RE.fullmatch(norm):
        raise UsageError(f"'{code.strip()}' is not a language code (examples: fr, ja, pt-BR, sr@latin)")
    return norm


_SCRIPTS = {
    "latin": "Latn",
    "cyrillic": "Cyrl",
    "arabic": "Arab",
    "devanagari": "Deva",
    "hebrew": "Hebr",
    "greek": "Grek",
    "hans": "Hans",
    "hant": "Hant",
}
"""gettext locale modifiers that name a script, and its ISO 15924 code (``sr@latin`` is ``sr-Latn``)."""


def parse_languages(text: str) -> list[str]:
    """Split a comma-separated language list (``"fr, de"``) into normalized codes, duplicates dropped.

    Raises:
        UsageError: an item is not a language code.
    """
    out: list[str] = []
    for item in text.split(","):
        if item.strip():
            code = normalize_lang(item)
            if code not in out:
                out.append(code)
    return out


MAX_CONFIG_BYTES = 1_000_000
"""A config file larger than this is refused (read at most this + 1 byte, special files too)."""

KEYS = ("languages",)
"""The settings a config file may hold; any other key is reported (a typo would be ignored silently)."""


def _config_languages(path: Path) -> list[str]:

    if not path.exists() and not path.is_symlink():
        if os.environ.get(ENV_CONFIG):
            raise ConfigError(
                SourcePos(path), f"{ENV_CONFIG} names this config file, which does not exist; create it or unset {ENV_CONFIG}"
            )
        return []
    try:
        text = decode(read_bytes(path, MAX_CONFIG_BYTES, N_("the config file")), path)
    except LoadError as err:
        raise ConfigError(err.problem.pos, err.problem.message) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        if m:
            pos = SourcePos(path, int(m.group(1)), int(m.group(2)))
        else:  # "(at end of document)"
            pos = SourcePos(path, *LineIndex(text).line_col(len(text)))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(err)) or "invalid TOML"
        raise ConfigError(pos, f"TOML syntax: {message}") from None
    except (ValueError, RecursionError):  # an integer beyond Python's conversion limit, deep nesting
        raise ConfigError(SourcePos(path, 1, 1), "TOML: a number too long or values nested too deep to read") from None
    for key in data:
        if key not in KEYS:
            close = suggest(key, KEYS)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise ConfigError(
                SourcePos(path, *_key_pos(text, key)), f"unknown setting '{key}'; {hint}the config file knows: {', '.join(KEYS)}"
            )
    value = data.get("languages")
    if value is None:
        return []
    line = _key_pos(text, "languages")[0]
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise ConfigError(SourcePos(path, line), 'languages must be a list of language codes, e.g. languages = ["fr", "en"]')
    try:
        return parse_languages(",".join(items))
    except UsageError as err:
        raise ConfigError(SourcePos(path, line), str(err)) from None


def _key_pos(text: str, key: str) -> tuple[int, int]:
    """Where ``key`` is set (``key =``, ``"key" =`` or ``[key]``), lines counted as editors count them."""

    k = re.escape(key)
    pattern = re.compile(rf"""[ \t]*(?:\[[ \t]*)?(?:{k}|"{k}"|'{k}')[ \t]*[=.\]]""")
    for number, line in enumerate(split_lines(text), 1):
        m = pattern.match(line)
        if m:
            return number, len(line) - len(line.lstrip(" \t[")) + 1
    return 0, 0


def preferred_languages(option: str | None = None) -> list[str]:
    """Return the user's preferred languages for card text, most preferred first.

    Args:
        option: what ``--lang`` said (``"fr"``, ``"fr,de"``), or None when it was not given.

    Returns:
        Normalized language codes (``["fr", "de"]``), without duplicates; ``[]`` when nothing is
        configured (callers then show the source language).

    Raises:
        UsageError: ``option`` or ``CARDLAB_LANG`` holds something that is not a language code.
        ConfigError: (a UsageError) the config file is unreadable, not valid TOML, or its
            ``languages`` is malformed; the message starts with the file's path and line.
    """
    if option is not None and option.strip():
        return parse_languages(option)
    env = os.environ.get(ENV_LANG, "")
    if env.strip():
        try:
            return parse_languages(env)
        except UsageError as err:
            raise UsageError(f"{ENV_LANG}: {err}") from None
    return _config_languages(config_path())
