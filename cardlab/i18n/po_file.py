"""Gettext PO files: export the catalog's translatable strings, import translations back.

One PO entry per translatable string (:func:`cardlab.i18n.strings.strings`):

- ``msgctxt``: ``<card id> <field path>`` (``base1-4 attacks[0].name``), or ``<set code> set.<path>``
  for a set manifest (``base1 set.name``); stable across exports;
- ``msgid``: the source-language text; ``msgstr``: the translation, or empty;
- ``#.``: the card's name and set, and the kind of text, for the translator;
- ``#:``: the YAML file, relative to its catalog root;
- the ``fuzzy`` flag on outdated translations (the source changed after they were made).

Importing never applies silently what it cannot apply safely: unknown or duplicate contexts, a
changed source (``msgid`` differs from the current source text), fuzzy and empty entries are
reported; a file is rewritten only when its new text validates (see :func:`cardlab.i18n.writeback.commit`).

This module holds the export and the helpers shared with the import half, :mod:`cardlab.i18n.po_import`
(:func:`read`, :func:`target_language`, :func:`plan`, :func:`import_po`, :class:`ImportReport`),
whose names are re-exported here, loaded on first use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardlab.catalog.model import Catalog
from cardlab.core.errors import Problem, SourcePos, UnreadableError
from cardlab.core.fs import atomic_write
from cardlab.core.inputs import split_lines
from cardlab.core.text import listify
from cardlab.core.words import count
from cardlab.i18n import strings as i18n

MAX_PO_BYTES = 50_000_000
"""A PO file larger than this (50 MB) is refused unread."""

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(\s+)(.*)$")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def export(catalog: Catalog, lang: str, sets: list[str] | None = None) -> Any:
    """Build the PO file of every translatable string of ``sets`` for ``lang``.

    Args:
        catalog: the loaded catalog.
        lang: the target language (``fr``); sets whose source language it is are left out.
        sets: set codes or aliases, or None for every set.

    Returns:
        A ``polib.POFile``: header ``Language: <lang>``, entries in catalog order
        (:func:`cardlab.i18n.strings.strings`), outdated translations flagged ``fuzzy``. No dates are
        written, so exporting twice gives the same bytes.

    Raises:
        UsageError: a set code is unknown.
    """

    sets = listify(sets) or None
    import polib  # lazy: polib (69 ms cold), only for PO files

    po = polib.POFile(wrapwidth=78)
    po.header = (
        "cardlab translations. Translate each msgstr; keep msgctxt as it is.\n"
        "msgctxt is '<card id> <field path>' or '<set code> set.<field path>'.\n"
        "A fuzzy entry's source changed after it was translated: review it, then clear the flag."
    )
    po.metadata = {
        "Project-Id-Version": f"cardlab {_version()}",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Generator": "cardlab i18n export",
    }
    for s in i18n.strings(catalog, lang, sets):
        comment = f"{s.label} · {i18n.KIND_LABELS[s.kind]} ({s.source_lang} → {lang})"
        flags = []
        if s.state == "outdated":
            flags.append("fuzzy")
            comment += "\nThe source text changed after this translation was made: review it."
        po.append(
            polib.POEntry(
                msgctxt=s.context,
                msgid=s.source,
                msgstr=s.translation or "",
                comment=comment,
                flags=flags,
                occurrences=[(_relative(s.file, catalog.roots), "")],
            )
        )
    return po


def _version() -> str:
    try:
        from importlib.metadata import version  # lazy: importlib.metadata (230 ms cold), only for a PO header

        return version("cardlab")
    except Exception:  # noqa: BLE001 - PackageNotFoundError or a broken install: the header is cosmetic
        return "0"


def export_summary(po: Any, lang: str) -> str:
    """Return ``339 strings for 'fr', 223 translated, 0 fuzzy`` for an exported PO file."""
    done = sum(1 for e in po if e.msgstr and not e.fuzzy)
    return f"{count(len(po), 'string')} for '{lang}', {done} translated, {sum(1 for e in po if e.fuzzy)} fuzzy"


def _relative(path: Path, roots: list[Path]) -> str:
    for root in roots:
        try:
            return path.resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def save(po: Any, path: Path, overwrite: bool = False, protected: Sequence[Path] = ()) -> Path:
    """Write a PO file atomically (:func:`cardlab.core.fs.atomic_write`: a temporary file beside it,
    then a rename; the mode a new file gets, ``0o666`` less the umask).

    Args:
        po: the ``polib.POFile`` to write; path: where; overwrite: replace an existing file (False:
            refuse it, even one created while writing); protected: the catalog roots (no YAML file
            is written inside them).

    Returns:
        The absolute path written.

    Raises:
        OutputPathError, OutputError: as :func:`cardlab.core.fs.check_output`, or the write failed.
    """

    text = str(po)
    if not text.endswith("\n"):
        text += "\n"
    return atomic_write(path, text, overwrite, example="fr.po", protected=protected)


_CHARSET = re.compile(rb'"Content-Type:[^"\r\n]*?charset=([A-Za-z0-9_.:+-]+)', re.IGNORECASE)
_ESCAPE = re.compile(r"\\(.?)", re.DOTALL)
ESCAPES = frozenset('\\"ntrvbf')
"""The escapes a PO string may hold (those polib reads: backslash, quote, n t r v b f)."""


def declared_charset(raw: bytes) -> tuple[str, int]:
    """Return the charset a PO file's ``Content-Type`` header names (``utf-8`` when none, or the
    template placeholder ``CHARSET``) and the line it is on (0 when none)."""
    m = _CHARSET.search(raw[:65536])
    if not m or m.group(1).upper() == b"CHARSET":
        return "utf-8", 0
    line = raw[: m.start()].count(b"\n") + 1 if b"\n" in raw[: m.start()] else raw[: m.start()].count(b"\r") + 1
    return m.group(1).decode("ascii"), line


def precheck(text: str, path: Path) -> None:
    """Raise UnreadableError (exit 2) at the first line polib would misread: stray text, an unclosed string, or an
    escape polib does not know (``\\q``, ``\\x41``, octal). Lines are counted as editors count them."""

    for number, line in enumerate(split_lines(text), 1):
        stripped = line.strip(" \t\f\v")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" \t\f\v"))
        m = _KEYWORD.match(stripped)
        if m:
            rest, col = m.group(3), indent + len(m.group(1)) + len(m.group(2)) + 1
        elif stripped.startswith('"'):
            rest, col = stripped, indent + 1
        else:
            word = stripped.split()[0] if stripped.split() else stripped
            raise UnreadableError(
                Problem(
                    SourcePos(path, number, indent + 1),
                    f"PO syntax: unexpected '{word}' (expected msgctxt, msgid, msgstr, a quoted string or a # comment)",
                    "po-syntax",
                )
            )
        if not _STRING.fullmatch(rest.rstrip(" \t")):
            raise UnreadableError(
                Problem(
                    SourcePos(path, number, col),
                    'PO syntax: a string must be one line in double quotes, with \\" for a quote inside it',
                    "po-syntax",
                )
            )
        for esc in _ESCAPE.finditer(rest, 1, len(rest.rstrip(" \t")) - 1):
            if esc.group(1) not in ESCAPES:
                shown = "\\" + esc.group(1)
                raise UnreadableError(
                    Problem(
                        SourcePos(path, number, col + esc.start()),
                        (
                            f"PO syntax: unknown escape '{shown}' (known: \\n \\t \\r \\\" \\\\ \\v \\b \\f); write the character "
                            "itself, or \\\\ for a backslash"
                        ),
                        "po-syntax",
                    )
                )
