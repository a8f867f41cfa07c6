"""Importing a gettext PO file: reading and checking it, then applying its translations.

:func:`read` parses a PO file (syntax errors positioned at their line), :func:`target_language`
checks its ``Language`` header, :func:`plan` matches its entries to the catalog and computes the
YAML edits, :func:`import_po` does all of it and writes the files that validate. The entry format,
the export and the helpers both halves share are in :mod:`cardlab.i18n.po_file`, which re-exports these names.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.catalog.model import Catalog
from cardlab.catalog.validate import validate
from cardlab.core.config import normalize_lang
from cardlab.core.errors import CardlabError, DataError, InputError, Problem, SourcePos, UnreadableError, UsageError
from cardlab.core.inputs import LoadError, decode, line_col, read_bytes, read_text, split_lines
from cardlab.core.l10n import check_languages
from cardlab.core.paths import installed_catalog_holding
from cardlab.core.words import count
from cardlab.i18n import po_file as _po
from cardlab.i18n import strings as i18n
from cardlab.i18n import writeback as i18n_write
from cardlab.i18n.po_file import MAX_PO_BYTES
from cardlab.i18n.strings import TString
from cardlab.i18n.writeback import Change, Edit


def read(path: Path) -> tuple[Any, str]:
    """Read and parse a PO file: at most :data:`MAX_PO_BYTES` (special files too), decoded by the
    charset its header declares (UTF-8 when none), lines split as editors split them.

    Returns:
        ``(polib.POFile, text)``.

    Raises:
        InputError: the file is missing, unreadable or too large.
        UnreadableError: (a DataError, exit 2) the file is binary, is not in its charset, names an
            unknown charset, or has a syntax error (rule ``po-syntax``, with its line and column).
    """

    path = Path(path)
    try:
        raw = read_bytes(path, MAX_PO_BYTES, "PO file")
    except LoadError as err:
        raise InputError(str(err.problem)) from None
    return parse(raw, path)


def parse(raw: bytes, path: Path) -> tuple[Any, str]:
    """Parse the bytes of a PO file (see :func:`read`); ``path`` names it in messages."""
    import polib  # lazy: polib (69 ms cold), only for PO files

    nul = raw.find(b"\x00")
    if nul >= 0 and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        before = raw[:nul].decode("utf-8", "replace")
        line, col = line_col(before, len(before))
        raise UnreadableError(Problem(SourcePos(path, line, col), "a NUL byte: this is a binary file, not a PO file", "encoding"))
    try:
        charset, charset_line = _po.declared_charset(raw)
        text = decode(raw, path, charset, hint="save the file in the charset its Content-Type header names")
    except LoadError as err:
        if err.problem.rule == "file":
            raise InputError(str(err.problem)) from None
        raise UnreadableError(err.problem) from None
    except LookupError as err:
        raise UnreadableError(Problem(SourcePos(path, charset_line), f"PO header: {err}", "po-syntax")) from None
    _po.precheck(text, path)
    try:
        # polib's own reader splits lines with str.splitlines (U+2028, NEL, form feed... would end
        # lines) and would open ``text`` as a file name if one existed: give it the lines.
        parser = polib._POFileParser("", encoding="utf-8")  # noqa: SLF001 - see above
        parser.fhandle = split_lines(text)
        po = parser.parse()
        po.wrapwidth = 78
    except (OSError, ValueError, IndexError, KeyError, TypeError) as err:
        m = re.search(r"\(line (\d+)\)(?::\s*(.*))?", str(err))
        line = int(m.group(1)) if m else 0
        what = m.group(2) if m and m.group(2) else "invalid PO file"
        raise UnreadableError(Problem(SourcePos(path, line), f"PO syntax: {what}", "po-syntax")) from None
    return po, text


def _header_line(text: str, key: str) -> int:

    for number, line in enumerate(split_lines(text), 1):
        if line.lstrip().startswith(f'"{key}:'):
            return number
    return 0


def target_language(po: Any, text: str, path: Path, lang: str | None) -> str:
    """Return the language to import into, checking the PO ``Language`` header against ``lang``.

    ``fr_FR`` in the header matches ``--lang fr-FR`` and also ``--lang fr`` (the region is dropped
    when the user asks for the bare language).

    Raises:
        UsageError: no ``lang`` and no ``Language`` header, or a malformed code.
        DataError: the header names another language than ``lang`` (rule ``po-language``).
    """

    header = (po.metadata.get("Language") or "").strip()
    wanted = normalize_lang(lang) if lang else None
    if not header:
        if wanted is None:
            raise UsageError(f"{path}: the PO file has no Language header; say which language it is with --lang")
        return wanted
    try:
        found = normalize_lang(header)
    except UsageError:
        raise DataError(
            Problem(SourcePos(path, _header_line(text, "Language")), f"Language header '{header}' is not a language code", "po-language")
        ) from None
    if wanted is None:
        return found
    if found != wanted and found.split("-")[0] != wanted:
        raise DataError(
            Problem(
                SourcePos(path, _header_line(text, "Language")),
                f"this PO file is for '{header}', not '{wanted}' (its Language header); pass --lang {found} or use the file for '{wanted}'",
                "po-language",
            )
        )
    return wanted


@dataclass
class ImportReport:
    """What an import did or, in a dry run, would do.

    Attributes:
        lang: the language imported.
        entries: PO entries read (obsolete ones excluded).
        applied: contexts whose translation was written (would be, in a dry run).
        unchanged: entries equal to the current translation.
        empty: contexts with an empty ``msgstr`` (not translated yet), left alone.
        warnings: fuzzy entries, left alone until a reviewer clears the flag.
        problems: entries that could not be applied (unknown or duplicate context, changed source,
            a file that would not validate...), positioned in the PO or YAML file.
        changes: the file rewrites planned (that validate); ``written``: the files replaced.
    """

    lang: str
    dry_run: bool = False
    entries: int = 0
    applied: list[str] = field(default_factory=list)
    unchanged: int = 0
    empty: list[str] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    held_back: int = 0
    """Entries that could have been applied but were not, because others would replace translations."""
    entry_lines: dict[Path, list[tuple[str, int]]] = field(default_factory=dict, repr=False)
    """Per file to change: (context, PO line) of the entries that change it."""

    @property
    def ok(self) -> bool:
        """True when nothing was refused (fuzzy and empty entries are not failures)."""
        return not self.problems

    def summary(self) -> str:
        """Return a one-line account: ``fr: imported 3 translations into 3 files; 221 unchanged, ...``."""
        verb = "would import" if self.dry_run else "imported"
        files = len(self.changes) if self.dry_run else len(self.written)
        return (
            f"{self.lang}: {verb} {count(len(self.applied), 'translation')} into {count(files, 'file')}; "
            f"{self.unchanged} unchanged, {len(self.empty)} empty (untranslated), {len(self.warnings)} fuzzy, "
            f"{count(len(self.problems), 'problem')}" + (" (dry run: nothing written)" if self.dry_run else "")
        )

    def diff(self, roots: Sequence[Path] = ()) -> str:
        """Return the unified diff of every planned change (paths relative to their catalog root)."""
        return "".join(c.diff(roots) for c in self.changes)

    def to_json(self) -> dict:
        """Return a JSON-ready summary with every problem and warning."""
        return {
            "lang": self.lang,
            "dry_run": self.dry_run,
            "entries": self.entries,
            "applied": len(self.applied),
            "unchanged": self.unchanged,
            "empty": len(self.empty),
            "fuzzy": len(self.warnings),
            "held_back": self.held_back,
            "files": [str(c.path) for c in self.changes],
            "written": [str(p) for p in self.written],
            "problems": [p.to_json() for p in self.problems],
            "warnings": [p.to_json() for p in self.warnings],
        }


def _explain_unknown(catalog: Catalog, context: str, lang: str) -> tuple[str, str]:
    owner, _, path = context.partition(" ")
    if owner in catalog.cards:
        if catalog.set_of(owner).source_language == lang:
            return f"'{lang}' is the source language of {owner}'s set; edit the source in its YAML file", "source-language"
        return f"card {owner} has no translatable text at '{path}'", "unknown-context"
    if owner in catalog.sets:
        if catalog.sets[owner].source_language == lang:
            return f"'{lang}' is the source language of set {owner}; edit the source in its YAML file", "source-language"
        return f"set {owner} has no translatable text at '{path}'", "unknown-context"
    if not path:
        return f"context '{context}' is not '<card id> <field path>'", "unknown-context"
    return f"no card or set '{owner}' in the catalog", "unknown-context"


def plan(catalog: Catalog, po: Any, po_path: Path, lang: str, replace: bool = False) -> ImportReport:
    """Match PO entries to the catalog and compute the file changes, without writing anything.

    A ``msgstr`` gets its surrounding white space removed when the ``msgid`` has none (editors
    often leave a trailing space or newline); an entry equal to the current translation changes
    nothing, unless that translation was outdated: then un-fuzzying it confirms it and records the
    new source hash.

    An entry that would replace a current translation with a different text (an official name, or
    a translation imported before) is refused unless ``replace`` is True (rule ``would-replace``),
    and then nothing at all is imported: such entries usually mean the file is for another language
    than its header says. (The other refused entries are left out of the plan alone;
    :func:`import_po` then imports nothing: :func:`hold_back`.) Outdated translations may be
    replaced: updating them is the point of the ``fuzzy`` flag. A PO file without entries is a problem too (``empty-po``).

    Args:
        catalog: the loaded catalog.
        po: the parsed PO file.
        po_path: its path (for positions).
        lang: the target language (:func:`target_language`).
        replace: allow replacing current translations with different text.

    Returns:
        An :class:`ImportReport` with ``changes`` (files whose YAML would change) and every
        problem and warning; ``applied`` lists the contexts of the planned changes.
    """

    report = ImportReport(lang=lang)
    known: dict[str, TString] = {s.context: s for s in i18n.strings(catalog, lang)}
    entries = [e for e in po if not e.obsolete]
    report.entries = len(entries)
    if not entries:
        obsolete = len(po) - len(entries)
        extra = f" ({count(obsolete, 'obsolete entry', 'obsolete entries')}, ignored)" if obsolete else ""
        report.problems.append(Problem(SourcePos(po_path), f"the PO file has no entries{extra}; nothing to import", "empty-po"))
        return report
    counts = Counter(e.msgctxt for e in entries if e.msgctxt)
    lines: dict[str, list[int]] = {}
    for e in entries:
        lines.setdefault(e.msgctxt, []).append(e.linenum)
    edits: dict[Path, list[tuple[Edit, TString, int]]] = {}
    replacing: list[Problem] = []
    for e in entries:
        pos = SourcePos(po_path, e.linenum)
        ctx = e.msgctxt
        if not ctx:
            report.problems.append(
                Problem(pos, f"entry '{_short(e.msgid)}' has no msgctxt; cardlab needs '<card id> <field path>'", "no-context")
            )
            continue
        if counts[ctx] > 1:
            others = [str(n) for n in lines[ctx] if n != e.linenum]
            also = f"also line{'s' if len(others) > 1 else ''} {', '.join(others)}"
            report.problems.append(Problem(pos, f"context '{ctx}' appears {counts[ctx]} times ({also}); none applied", "duplicate-context"))
            continue
        if e.msgid_plural:
            report.problems.append(Problem(pos, f"'{ctx}': plural entries are not used by cardlab", "unknown-context"))
            continue
        s = known.get(ctx)
        if s is None:
            message, rule = _explain_unknown(catalog, ctx, lang)
            report.problems.append(Problem(pos, f"'{ctx}': {message}", rule))
            continue
        if e.msgid != s.source:
            report.problems.append(
                Problem(
                    pos,
                    f"'{ctx}': the source text changed since the export (was '{_short(e.msgid)}', now "
                    f"'{_short(s.source)}'); export again and translate the new text",
                    "changed-source",
                )
            )
            continue
        if e.fuzzy:
            report.warnings.append(Problem(pos, f"'{ctx}': fuzzy, not imported; review it and clear the fuzzy flag", "fuzzy"))
            continue
        if e.msgstr == "":
            report.empty.append(ctx)
            continue
        text = e.msgstr.strip() if e.msgid == e.msgid.strip() else e.msgstr
        hidden = hidden_character(text, s.kind, e.msgid)
        if hidden is not None:
            report.problems.append(Problem(pos, f"'{ctx}': the translation of '{_short(e.msgid)}' {hidden}", "hidden-character"))
            continue
        if text == s.translation and s.state != "outdated":
            report.unchanged += 1
            continue
        if s.translation is not None and text != s.translation and s.state == "current" and not replace:
            replacing.append(Problem(pos, f"'{ctx}': would replace '{_short(s.translation)}' with '{_short(text)}'", "would-replace"))
            continue
        edit = Edit(tuple(s.keys), lang, text, i18n.source_hash(s.source))
        edits.setdefault(s.file, []).append((edit, s, e.linenum))
    if replacing:
        report.problems.extend(replacing)
        report.held_back = sum(len(items) for items in edits.values())
        report.problems.append(
            Problem(
                SourcePos(po_path),
                (
                    f"nothing imported: {count(len(replacing), 'entry', 'entries')} would replace an existing '{lang}' translation "
                    f"with a different text (listed with their lines); check that this file really is in '{lang}', "
                    "then run again with --replace to replace them"
                ),
                "would-replace",
            )
        )
        edits = {}
    for path, items in edits.items():
        s0 = items[0][1]
        try:
            old = read_text(path)
            new = i18n_write.render_edits(path, old, [edit for edit, _s, _n in items])
        except DataError as err:
            report.problems.extend(err.problems)
            report.problems.extend(
                Problem(SourcePos(po_path, n), f"'{s.context}': not imported, {path.name} cannot be rewritten", "not-applied")
                for _e, s, n in items
            )
            continue
        except (LoadError, OSError) as err:
            report.problems.append(err.problem if isinstance(err, LoadError) else Problem(SourcePos(path), str(err), "file"))
            continue
        if new == old:
            report.unchanged += len(items)
            continue
        differ = i18n_write.read_back_differs(path, new, [edit for edit, _s, _n in items])
        if differ:  # issue 33: a text written must read back as the msgstr gave it, or not be written
            report.problems.extend(
                Problem(
                    SourcePos(po_path, n),
                    f"'{s.context}': not imported: written to {path.name} it would read back differently"
                    f" ({differ[edit][:60]!r} instead of {edit.text[:60]!r}); write it without that character",
                    "round-trip",
                )
                for edit, s, n in items
                if edit in differ
            )
            continue
        kind = "set" if s0.kind == "set" else "card"
        report.changes.append(Change(path, kind, catalog.sets[s0.set_code].game, old, new))
        report.applied.extend(s.context for _e, s, _n in items)
    report.entry_lines = {p: [(s.context, n) for _e, s, n in items] for p, items in edits.items()}
    return report


def hold_back(report: ImportReport, po_path: Path) -> None:
    """Import a PO file whole or not at all: when ``report`` (a :func:`plan`) refused any entry (no or
    unknown context, changed source, a hidden character, a file that cannot be rewritten, a text that
    would not read back), drop its planned changes and say so (rule ``refused-entry``, after the
    entries' own problems), as a ``would-replace`` plan does. Issue 32: a refused write writes nothing."""
    if not (report.problems and report.changes):
        return
    report.held_back = len(report.applied)
    refused = len({p.pos.line for p in report.problems if p.pos.path == po_path and p.pos.line})
    report.problems.append(
        Problem(
            SourcePos(po_path),
            f"nothing imported: {count(refused or len(report.problems), 'entry', 'entries')} could not be imported (listed"
            f" with their lines), so neither were the other {count(report.held_back, 'translation')}; fix or remove"
            " those entries and run again",
            "refused-entry",
        )
    )
    report.changes, report.applied, report.entry_lines = [], [], {}


def _refuse_installed(report: ImportReport) -> None:
    """Refuse to write translations into the catalog installed with the cardlab package, as
    ``card new`` refuses new cards there (:func:`cardlab.core.paths.installed_catalog_holding`).

    Raises:
        UsageError: a planned change lies in the installed package (nothing is written).
    """

    for change in report.changes:
        shipped = installed_catalog_holding(change.path)
        if shipped is not None:
            raise UsageError(
                f"{change.path} is in the catalog installed with the cardlab package ({shipped}); translations "
                "are not written there (an upgrade would lose them). Pass --catalog with the cards/ folder of your "
                "cardlab checkout (git clone the repository first), e.g. --catalog ~/cardlab/cards; --dry-run shows the diff"
            )


_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What a card text may not hold: C0 and C1 control characters (and DEL), the Unicode line and
paragraph separators, bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069)."""
_ONE_LINE = ("name", "attack", "set")
"""The kinds of string that are one line: no line feed or tab either."""


def hidden_character(text: str, kind: str, source: str = "") -> str | None:
    """Say why ``text`` (a translation of ``source``, a string of ``kind``) cannot go into a card
    file, or None.

    Refused: :data:`_HIDDEN`'s characters (invisible in an editor, or moving the text's direction
    or lines where a reader does not see it), unless ``source`` holds the same one; a line feed or
    tab is white space a rules text may hold, but not a name (:data:`_ONE_LINE`).

    Returns:
        ``holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 7; ...`` naming the first such
        character and its place (1-based), or None.
    """
    for i, ch in enumerate(text):
        if not _HIDDEN.match(ch) or ch in source or (ch in "\n\t" and kind not in _ONE_LINE):
            continue
        name = unicodedata.name(ch, "") or _CONTROL_NAMES.get(ch, "a control character")
        why = "a name is one line" if ch in "\n\t" else "card text holds no control, line-separator or bidi character"
        return f"holds U+{ord(ch):04X} ({name}) at character {i + 1}; {why}: remove it"
    return None


_CONTROL_NAMES = {
    "\n": "LINE FEED",
    "\t": "CHARACTER TABULATION",
    "\r": "CARRIAGE RETURN",
    "\x85": "NEXT LINE",
    "\x0c": "FORM FEED",
    "\x1b": "ESCAPE",
}
"""Names of the controls people meet (unicodedata has none for category Cc)."""


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def import_po(
    roots: list[Path],
    po_path: Path,
    lang: str | None = None,
    dry_run: bool = False,
    cache_path: Path | None | str = "default",
    replace: bool = False,
) -> ImportReport:
    """Import the translations of a PO file into the catalog's YAML files.

    Args:
        roots: catalog roots (:func:`cardlab.core.paths.catalog_roots`).
        po_path: the PO file.
        lang: the target language; None takes the PO file's ``Language`` header.
        dry_run: plan and validate only; :meth:`ImportReport.diff` shows what would change.
        cache_path: the validation cache (see :func:`cardlab.catalog.validate.validate`).
        replace: let entries replace current translations with a different text (see :func:`plan`).

    Returns:
        An :class:`ImportReport`. Files whose new text would not validate are reported (rule of
        the schema check, plus ``not-applied`` at each of their PO entries) and no file is written
        (:func:`hold_back`). When any entry is refused (:func:`hold_back`), one would replace a
        translation (``would-replace``) or the file has no entries (``empty-po``), nothing is written.

    Raises:
        InputError: the PO file is missing.
        DataError: PO syntax error (``po-syntax``) or Language mismatch (``po-language``).
        UsageError: no language known, or a malformed one, or ``lang`` naming a language cardlab does
            not know (checked before the file's); the files to change are in the catalog
            installed with the cardlab package (nothing is written).
        CardlabError: writing a file failed (each file is still either old or new).
    """

    po_path = Path(po_path)
    po, text = read(po_path)
    if lang:  # an unknown --lang is a usage error (exit 2) before it is compared with the file's
        check_languages([normalize_lang(lang)], "--lang")
    target = target_language(po, text, po_path, lang)
    check_languages([target], "--lang" if lang else f"{po_path}: the PO file's language")  # exit 2, the known ones named
    catalog = validate(roots, cache_path=cache_path).catalog
    report = plan(catalog, po, po_path, target, replace)
    hold_back(report, po_path)
    report.dry_run = dry_run
    if not dry_run:
        _refuse_installed(report)
    lines = report.entry_lines
    if dry_run:
        bad_problems = [p for c in report.changes for p in i18n_write.check_change(c)]
    else:
        try:
            report.written, bad_problems = i18n_write.commit(report.changes, whole=True)
        except OSError as err:
            raise CardlabError(
                f"writing the card files failed: {err.strerror or err}"
                f"{' (' + str(err.filename) + ')' if err.filename else ''}; every file is either as it was"
                " or fully updated: fix the cause and run the import again"
            ) from err
    if bad_problems:
        bad = {p.pos.path for p in bad_problems}
        report.problems.extend(bad_problems)
        for path in sorted(bad):
            for ctx, n in lines.get(path, []):
                report.problems.append(
                    Problem(SourcePos(po_path, n), f"'{ctx}': not imported, {path.name} would not validate", "not-applied")
                )
        refused = {ctx for p in bad for ctx, _n in lines.get(p, [])}
        report.applied = [ctx for ctx in report.applied if ctx not in refused]
        report.changes = [c for c in report.changes if c.path not in bad]
        hold_back(report, po_path)  # the files that would validate are not written either
    report.problems.sort()
    return report
