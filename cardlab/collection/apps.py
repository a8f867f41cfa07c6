"""Collections kept in other apps (issue 31 §1): the CSV exports of Moxfield, TCGplayer, Dragon
Shield (its app and its web site), Collectr, and a generic CSV (cardlab's own columns and the common
spellings), read and written.

The column mapping is data: :data:`APPS` gives each app's header line as it writes it and which of
its columns hold the count, the card name, the set (a code or a name in English or French), the
collector number (``4``, ``004``, ``4/102``), the printing, condition and language. A collection
holds counts per card id, so printing, condition and language are read and checked (a value not
understood is a problem at its row and column) but not kept.

Reading streams: :func:`open_export` sniffs the separator (``,`` ``;`` tab, or an Excel ``sep=``
line), drops a BOM and reads the rows one at a time; :func:`plan_export` checks every row (one
callback per row, for a progress bar) and holds only the counts per card and the first
:data:`MAX_PROBLEMS` problems, so a file of ten million rows is read in bounded memory.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, NamedTuple

from cardlab.catalog.model import Catalog
from cardlab.collection.cards import CardResolver
from cardlab.collection.db import Database
from cardlab.collection.owned import MAX_COUNT, BadCountsError, check_player, counts, parse_count, write_plan
from cardlab.core.errors import DataError, InputError, Problem, SourcePos, UsageError
from cardlab.core.text import clip, fold, line_list
from cardlab.games import GAMES, get

ROLES = ("count", "name", "set", "set_name", "number", "printing", "condition", "language", "category", "card_id", "player")
"""What a column can hold: ``set`` a set code or name, ``set_name`` a set name tried after ``set``;
``category`` the game (Collectr's mixed exports); ``card_id`` and ``player`` cardlab's own columns."""


@dataclass(frozen=True)
class App:
    """One app's export: ``title``, its ``header`` as the app writes it, ``columns`` (role ->
    column name, :data:`ROLES`), ``signature`` (the columns that tell it from the others),
    ``sep_line`` (it writes an Excel ``sep=,`` line first), ``fixed`` (column -> the value its
    export writes when cardlab has nothing to put there), ``source`` (where the header comes from)."""

    title: str
    header: tuple[str, ...]
    columns: dict[str, str]
    signature: tuple[str, ...]
    sep_line: bool = False
    fixed: dict[str, str] = field(default_factory=dict)
    source: str = ""


APPS: dict[str, App] = {
    "moxfield": App(
        "Moxfield",
        ("Count", "Tradelist Count", "Name", "Edition", "Condition", "Language", "Foil", "Tags", "Last Modified",
         "Collector Number", "Alter", "Proxy", "Purchase Price"),
        {"count": "Count", "name": "Name", "set": "Edition", "number": "Collector Number", "printing": "Foil",
         "condition": "Condition", "language": "Language"},
        ("Count", "Tradelist Count", "Name", "Edition"),
        fixed={"Tradelist Count": "0", "Alter": "False", "Proxy": "False"},
        source="Moxfield's collection export (moxfield.com, Collection > Export CSV)",
    ),
    "tcgplayer": App(
        "TCGplayer",
        ("Quantity", "Name", "Simple Name", "Set", "Card Number", "Set Code", "Printing", "Condition", "Language",
         "Rarity", "Product ID", "SKU"),
        {"count": "Quantity", "name": "Simple Name", "set": "Set Code", "set_name": "Set", "number": "Card Number",
         "printing": "Printing", "condition": "Condition", "language": "Language"},
        ("Quantity", "Simple Name", "Card Number"),
        source="the TCGplayer app's collection export",
    ),
    "dragonshield": App(
        "Dragon Shield (app)",
        ("Folder Name", "Quantity", "Trade Quantity", "Card Name", "Set Code", "Set Name", "Card Number", "Condition",
         "Printing", "Language", "Price Bought", "Date Bought", "LOW", "MID", "MARKET"),
        {"count": "Quantity", "name": "Card Name", "set": "Set Code", "set_name": "Set Name", "number": "Card Number",
         "printing": "Printing", "condition": "Condition", "language": "Language"},
        ("Folder Name", "Quantity", "Card Name", "MARKET"),
        sep_line=True,
        fixed={"Trade Quantity": "0"},
        source="the Dragon Shield Card Manager app's export (a sep=, line, then the header)",
    ),
    "dragonshield-web": App(
        "Dragon Shield (web)",
        ("Folder Name", "Quantity", "Trade Quantity", "Card Name", "Set Code", "Set Name", "Card Number", "Condition",
         "Printing", "Language", "Price Bought", "Date Bought"),
        {"count": "Quantity", "name": "Card Name", "set": "Set Code", "set_name": "Set Name", "number": "Card Number",
         "printing": "Printing", "condition": "Condition", "language": "Language"},
        ("Folder Name", "Quantity", "Card Name"),
        fixed={"Trade Quantity": "0"},
        source="the Dragon Shield web site's collection export and import file",
    ),
    "collectr": App(
        "Collectr",
        ("Portfolio Name", "Category", "Set", "Product Name", "Card Number", "Rarity", "Variance", "Grade",
         "Card Condition", "Average Cost Paid", "Quantity", "Market Price", "Price Override", "Watchlist", "Date Added",
         "Notes"),
        {"count": "Quantity", "name": "Product Name", "set": "Set", "number": "Card Number", "printing": "Variance",
         "condition": "Card Condition", "category": "Category"},
        ("Portfolio Name", "Category", "Product Name"),
        fixed={"Grade": "Ungraded", "Average Cost Paid": "0", "Price Override": "0", "Watchlist": "false"},
        source="Collectr's portfolio export (its Market Price column carries a date: 'Market Price (As of 2026-07-07)')",
    ),
    "generic": App(
        "generic CSV",
        ("player", "card_id", "set", "number", "name", "count"),
        {},
        (),
        source="cardlab's own columns (card_id,count; set,number,count; name,count; player optional) and the usual spellings",
    ),
}  # fmt: skip
"""Every app whose export cardlab reads and writes, by the name ``--from`` and ``--to`` take."""

GENERIC_COLUMNS: dict[str, tuple[str, ...]] = {
    "count": ("count", "quantity", "qty", "amount"),
    "name": ("name", "card name", "card", "product name", "simple name"),
    "set": ("set", "set code", "edition", "edition code", "expansion", "set_code"),
    "set_name": ("set name", "edition name", "expansion name", "set_name"),
    "number": ("number", "card number", "collector number", "cn", "collector_number", "card_number"),
    "printing": ("printing", "foil", "finish", "variance"),
    "condition": ("condition", "card condition"),
    "language": ("language", "lang"),
    "card_id": ("card_id", "id", "card id"),
    "player": ("player",),
}
"""The generic CSV's columns: role -> the header names that mean it (folded, any order)."""

PRINTINGS = frozenset(
    fold(p).replace(" ", "")
    for p in (
        "", "normal", "non-foil", "nonfoil", "foil", "holo", "holofoil", "holo foil", "reverse holo", "reverse holofoil",
        "reverse", "1st edition", "1st edition holofoil", "1st edition normal", "first edition", "unlimited",
        "unlimited holofoil", "shadowless", "true", "false", "yes", "no", "etched", "cosmos holo", "cracked ice holo",
    )
)  # fmt: skip
"""Printing, foil and finish values understood (folded, without spaces); one count per card id holds none of them."""

CONDITIONS = frozenset(
    fold(c).replace(" ", "")
    for c in (
        "", "mint", "m", "near mint", "nm", "nm-m", "near mint foil", "excellent", "ex", "lightly played", "light played",
        "lp", "good", "gd", "good (lightly played)", "moderately played", "mp", "played", "pl", "heavily played", "hp",
        "poor", "damaged", "dmg", "d", "ungraded",
    )
)  # fmt: skip
"""Condition values understood (folded, without spaces: ``NearMint`` is ``Near Mint``)."""

LANGUAGES = {
    "en": ("english", "en"), "fr": ("french", "fr", "francais"), "de": ("german", "de", "deutsch"),
    "it": ("italian", "it", "italiano"), "es": ("spanish", "es", "espanol"), "pt": ("portuguese", "pt"),
    "nl": ("dutch", "nl"), "ja": ("japanese", "ja", "jp"), "ko": ("korean", "ko", "kr"),
    "zh": ("chinese", "zh", "zhs", "zht", "chinese (simplified)", "chinese (traditional)", "cs", "ct"),
    "ru": ("russian", "ru"), "pl": ("polish", "pl"),
}  # fmt: skip
"""Language codes -> the names and codes exports write for them (folded)."""
_LANGUAGE_OF = {name: code for code, names in LANGUAGES.items() for name in names}

MAX_PROBLEMS = 1000
"""Problems kept for the report; past this they are counted (a file of bad rows stays bounded)."""

SNIFF_BYTES = 65536
"""How much of the file the separator is sniffed from."""


def normal_number(text: str) -> str:
    """Return a collector number as the catalog writes it: ``4/102``, ``004``, ``#4``, ``4 / 102``
    give ``4``; letters are kept (``H12``, ``SH3``), leading zeros dropped from digits."""
    value = text.strip().lstrip("#").strip()
    if "/" in value:
        value = value.split("/", 1)[0].strip()
    if value.isdigit():
        value = value.lstrip("0") or "0"
    return value


def _key(name: str) -> str:
    return " ".join(fold(name).split())


def header_lines(sep: str = "; ") -> str:
    """Every known app and its header line, ``name: header`` each, joined by ``sep`` (the message
    of an unrecognised header: one line, as every error is)."""
    return sep.join(f"{name}: {','.join(app.header)}" for name, app in APPS.items())


@dataclass(frozen=True)
class Layout:
    """How one file's columns are read: ``app`` (a key of :data:`APPS`) and ``roles`` (role ->
    0-based column)."""

    app: str
    roles: dict[str, int]


def _wrong_app(spec: App, missing: list[str], header: list[str], path: Path) -> str:
    """The one sentence for a file given as ``--from`` an app whose columns it lacks: what is
    missing, the columns the file has, and the app whose export those columns are (else that none
    cardlab knows has them)."""
    try:
        other: str | None = detect(header, path).app
    except UsageError:
        other = None
    shown = ", ".join(f"'{clip(h, 40)}'" for h in header[:20]) + (f" and {len(header) - 20} more" if len(header) > 20 else "")
    if other == "generic":
        like = "cardlab's generic CSV columns: leave --from out (or give --from generic)"
    elif other is not None:
        like = f"the columns of a {APPS[other].title} export: give --from {other}"
    else:
        like = "those of no export cardlab knows (see 'cardlab collection import --help')"
    lacks = ", ".join(f"'{m}'" for m in missing)
    return f"{path}:1: not a {spec.title} export (no column {lacks}); its columns {shown} are {like}"


def detect(header: list[str], path: Path, app: str | None = None) -> Layout:
    """Choose the app of a header (or check ``app``, ``--from``) and map its columns.

    Raises:
        UsageError: a column named twice; ``app`` unknown; a header matching no app (the message
            names every app and its header line); for the generic CSV, a column it does not know
            or no count or card column (exit 2).
    """
    keys = [_key(h) for h in header]
    seen: dict[str, int] = {}
    for i, k in enumerate(keys):
        if k in seen:
            raise UsageError(
                f"{path}:1:{i + 1}: the column '{header[i]}' is named twice (columns {seen[k] + 1} and {i + 1}); give each column one name"
            )
        seen[k] = i
    if app is not None and app not in APPS:
        raise UsageError(f"unknown app '{app}'; choose one of: {', '.join(APPS)}")

    def column(name: str) -> int | None:
        want = _key(name)
        if want == _key("Market Price"):  # Collectr dates it: Market Price (As of 2026-07-07)
            return next((i for i, k in enumerate(keys) if k.startswith(want)), None)
        return seen.get(want)

    names = [app] if app is not None else [n for n in APPS if n != "generic"]
    for name in names:
        spec = APPS[name]
        if name == "generic":
            break
        missing = [c for c in (*spec.signature, spec.columns["count"], spec.columns["name"]) if column(c) is None]
        if missing and app is None:
            continue
        if missing:
            raise UsageError(_wrong_app(spec, list(dict.fromkeys(missing)), header, path))
        found: dict[str, int] = {}
        for role, col in spec.columns.items():
            at = column(col)
            if at is not None:
                found[role] = at
        return Layout(name, found)
    roles: dict[str, int] = {}
    unknown = []
    for i, k in enumerate(keys):
        meaning = next((r for r, spellings in GENERIC_COLUMNS.items() if k in spellings), None)
        if meaning is None or meaning in roles:
            unknown.append((i, header[i]))
            continue
        roles[meaning] = i
    has_card = "card_id" in roles or "name" in roles or "number" in roles
    if "count" in roles and has_card and not unknown:
        return Layout("generic", roles)
    if "count" in roles and has_card:
        i, name = unknown[0]
        raise UsageError(
            f"{path}:1:{i + 1}: unknown column(s) {', '.join(n for _, n in unknown)}; a generic collection CSV has a count "
            "column (count, quantity), a card (card_id; set and number; or name) and optionally printing, condition, language, player"
        )
    raise UsageError(
        f"{path}:1: this header matches no collection export cardlab knows; give --from APP, or write one of these header lines: "
        + header_lines()
    )


class ExportRow(NamedTuple):
    """One record of an export: ``line`` (1-based, where it starts) and its ``cells`` (a named
    tuple: a hundred thousand are made per import)."""

    line: int
    cells: list[str]


@dataclass
class ExportFile:
    """An export opened for reading: ``path``, ``delimiter`` (sniffed), ``header`` and ``layout``;
    iterate it for the :class:`ExportRow` s (once)."""

    path: Path
    delimiter: str
    header: list[str]
    layout: Layout
    _stream: IO[str]
    _reader: Iterator[list[str]]

    def __iter__(self) -> Iterator[ExportRow]:
        reader = self._reader
        start = reader.line_num + 1  # type: ignore[attr-defined]
        width = len(self.header)
        try:
            for record in reader:
                line = start
                start = reader.line_num + 1  # type: ignore[attr-defined]
                if len(record) != width:
                    if not "".join(record).strip():
                        continue  # a blank line
                    if len(record) > width and "".join(record[width:]).strip():
                        raise InputError(f"{self.path}:{line}:{width + 1}: {len(record)} cells but the header has {width} columns")
                    record = (record + [""] * width)[:width]
                elif not "".join(record).strip():
                    continue
                yield ExportRow(line, record)
        except csv.Error as err:
            raise InputError(f"{self.path}:{start}: cannot read this CSV row ({err}); check its quotes") from None
        except UnicodeDecodeError:
            raise InputError(f"{self.path}:{start}: not UTF-8 text; save the export as UTF-8 CSV") from None
        finally:
            self._stream.close()


def sniff_delimiter(sample: str) -> str:
    """The separator of a CSV ``sample`` (its first lines): an Excel ``sep=X`` line says it; else
    :class:`csv.Sniffer` among ``,`` ``;`` and tab, checked against the header line (the character
    of the three that occurs most in it outside quotes, ``,`` on a tie, when the sniffer's choice
    does not split it)."""
    first = sample.split("\n", 1)[0].strip().strip('"')
    if first.lower().startswith("sep=") and len(first) == 5:
        return first[4]
    header = re.sub(r'"[^"]*"', "", first)
    counted = max((header.count(d), -i, d) for i, d in enumerate(",;\t"))
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        sniffed = ""
    if sniffed and header.count(sniffed) >= counted[0]:
        return sniffed
    return counted[2]


def open_export(path: Path, app: str | None = None) -> ExportFile:
    """Open a collection export for reading: separator sniffed (:func:`sniff_delimiter`), a BOM and
    an Excel ``sep=`` line dropped, its header read and its app chosen (:func:`detect`).

    Raises:
        InputError: no such file, not UTF-8, binary, no header (exit 2); UsageError: as :func:`detect`.
    """
    path = Path(path)
    try:
        stream = open(path, encoding="utf-8-sig", newline="")  # noqa: SIM115 - closed by ExportFile's iteration
    except OSError as err:
        raise InputError(f"{path}: cannot read this file ({err.strerror or err})") from None
    try:
        sample = stream.read(SNIFF_BYTES)
    except UnicodeDecodeError:
        stream.close()
        raise InputError(f"{path}: not UTF-8 text; save the export as UTF-8 CSV") from None
    if "\x00" in sample:
        stream.close()
        raise InputError(f"{path}: a NUL byte: this is a binary file, not CSV text")
    delimiter = sniff_delimiter(sample)
    stream.seek(0)
    if stream.read(1) != "\ufeff":
        stream.seek(0)
    reader = csv.reader(stream, delimiter=delimiter, strict=True)
    line = 1
    header: list[str] | None = None
    try:
        for record in reader:
            here = line
            line = reader.line_num + 1
            cells = [c.strip() for c in record]
            if not any(cells):
                continue
            if len(cells) <= 2 and delimiter.join(cells).lower().startswith("sep="):
                continue
            header = cells
            for col, name in enumerate(header, 1):
                if not name:
                    raise UsageError(f"{path}:{here}:{col}: empty column name in the header row")
            break
    except csv.Error as err:
        stream.close()
        raise InputError(f"{path}:{line}: cannot read the header row ({err})") from None
    if header is None:
        stream.close()
        raise InputError(f"{path}: no header row; the first line names the columns, e.g. card_id,count")
    try:
        layout = detect(header, path, app)
    except UsageError:
        stream.close()
        raise
    return ExportFile(path, delimiter, header, layout, stream, reader)


@dataclass
class ImportPlan:
    """What :func:`plan_export` read: ``counts`` (``(player, card id) -> count``), ``rows`` read,
    ``other_games`` (rows skipped as another game's, by category), ``problems`` (the first
    :data:`MAX_PROBLEMS`), ``bad_rows`` (how many rows had a problem) and their first ``bad_lines``,
    ``not_kept`` (the roles read but not kept: printing, condition, language)."""

    app: str
    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    rows: int = 0
    other_games: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    bad_rows: int = 0
    bad_lines: list[int] = field(default_factory=list)
    not_kept: list[str] = field(default_factory=list)


def _games_by_title() -> dict[str, str]:
    return {_key(get(g).TITLE): g for g in GAMES} | {g: g for g in GAMES}


_Verdict = tuple[str | None, str, str | None, int | None, tuple[tuple[int, str, str], ...]]
"""What a row's cells mean: ``(category skipped or None, player or "", card id, count, problems as
(column, message, rule))``; the same cells always mean the same, so verdicts are cached."""

MAX_VERDICTS = 200_000
"""Distinct rows whose verdict is kept (a file of ten million distinct rows stays bounded)."""


class _RowReader:
    """Checks one row at a time against the catalog; the verdict of each distinct row (its cells of
    the known roles) is cached, so a card listed on many rows is looked up once."""

    def __init__(self, export: ExportFile, resolver: CardResolver) -> None:
        self.export, self.resolver = export, resolver
        self.catalog: Catalog = resolver.catalog
        self.games = _games_by_title()
        self.roles = list(export.layout.roles)
        self.cols = {role: i + 1 for role, i in export.layout.roles.items()}
        self.indices = [export.layout.roles[r] for r in self.roles]
        self.verdicts: dict[tuple[str, ...], _Verdict] = {}

    def read(self, row: ExportRow) -> tuple[str | None, str, str | None, int | None, list[Problem]]:
        """``(category skipped or None, player or "", card id, count, problems)`` of one row."""
        cells = row.cells
        key = tuple([cells[i] for i in self.indices])
        verdict = self.verdicts.get(key)
        if verdict is None:
            verdict = self._verdict(dict(zip(self.roles, (c.strip() for c in key), strict=True)))
            if len(self.verdicts) < MAX_VERDICTS:
                self.verdicts[key] = verdict
        skipped, who, card_id, n, specs = verdict
        problems = [Problem(SourcePos(self.export.path, row.line, col or 1), message, rule) for col, message, rule in specs]
        return skipped, who, card_id, n, problems

    def _verdict(self, values: dict[str, str]) -> _Verdict:
        problems: list[tuple[int, str, str]] = []
        cols = self.cols
        category = values.get("category", "")
        game = None
        if category:
            game = self.games.get(_key(category))
            if game is None:
                return category, "", None, None, ()
        who = values.get("player", "")
        if who:
            try:
                who = check_player(who)
            except UsageError as err:
                problems.append((cols["player"], str(err), "player"))
        n: int | None = None
        try:
            n = parse_count(values.get("count", ""))
        except UsageError as err:
            problems.append((cols.get("count", 0), str(err), "count"))
        for role, known in (("printing", PRINTINGS), ("condition", CONDITIONS)):
            value = values.get(role)
            if value is not None and fold(value).replace(" ", "") not in known:
                problems.append((cols[role], f"unknown {role} '{value}'", role))
        lang = values.get("language", "")
        if lang and _key(lang) not in _LANGUAGE_OF:
            known_langs = ", ".join(names[0] for names in LANGUAGES.values())
            problems.append((cols["language"], f"unknown language '{lang}' (known: {known_langs})", "language"))
        card_id, message, col = self._card(values, game)
        if card_id is None:
            problems.append((col, message, "unknown-card"))
        return None, who, card_id, n, tuple(problems)

    def _card(self, values: dict[str, str], game: str | None) -> tuple[str | None, str, int]:
        """``(card id or None, message, column)`` of a row's card cells: a card id, else a set (code
        or name, of ``game`` when the row names it) and number, else a name."""
        cols = self.cols
        cid, cid_col = values.get("card_id", ""), cols.get("card_id", 0)
        set_cell = (values.get("set", ""), cols.get("set", 0))
        set_name_cell = (values.get("set_name", ""), cols.get("set_name", 0))
        number, number_col = values.get("number", ""), cols.get("number", 0)
        name, name_col = values.get("name", ""), cols.get("name", 0)
        if cid:
            found, message = self.resolver.resolve(card_id=cid)
            return found, message, cid_col
        sets = [(t, c) for t, c in (set_cell, set_name_cell) if t]
        infos = [s for t, _ in sets for s in self.catalog.sets_named(t) if game is None or s.game == game]
        if sets and not infos:
            text, col = sets[0]
            return None, f"unknown set '{text}' (neither a set code nor a set name of the catalog)", col
        num = normal_number(number) if number else ""
        if infos and num:
            wrong_name = ""
            codes = list(dict.fromkeys(i.code for i in infos))
            for code in codes:  # one name, several games' sets: the one holding this card
                found, message = self.resolver.resolve(set_code=code, number=num, name=name or None)
                if found is not None:
                    return found, "", number_col
                if not wrong_name and self.resolver.resolve(set_code=code, number=num)[0] is not None:
                    wrong_name = message  # a card of that number, of another name
            if wrong_name:
                return None, wrong_name, name_col
            shown = " or ".join(f"{self.catalog.sets[c].name(['en'])} ({c})" for c in codes)
            return None, f"no card {num} in {shown}", number_col
        if not name:
            return None, "no card on this row: give a name, or a set and a number", name_col or number_col or 1
        found, message = self.resolver.resolve(name=name)
        if found is None and infos:
            named = {info.code for info in infos}
            in_set = [i for i in self.resolver.choices(name) if self.catalog.card_set[i] in named]
            if len(in_set) == 1:
                return in_set[0], "", name_col
        return found, message, name_col


def plan_export(
    export: ExportFile, resolver: CardResolver, player: str, *, on_row: Callable[[ExportRow], None] | None = None
) -> ImportPlan:
    """Check every row of an export (streamed) and add up the counts per player and card.

    Args:
        export: :func:`open_export`'s file; resolver: the catalog's cards; player: whose
            collection (a ``player`` column overrides it per row);
        on_row: called with each row as it is read (a progress bar).

    Returns:
        An :class:`ImportPlan`; rows of a game cardlab does not know (Collectr's ``Category``) are
        counted in ``other_games``, never problems.
    """
    player = check_player(player)
    plan = ImportPlan(export.layout.app)
    plan.not_kept = [r for r in ("printing", "condition", "language") if r in export.layout.roles]
    reader = _RowReader(export, resolver)
    for row in export:
        plan.rows += 1
        if on_row is not None:
            on_row(row)
        skipped, who, card_id, n, problems = reader.read(row)
        if skipped is not None:
            plan.other_games[skipped] += 1
            continue
        if not problems and card_id is not None and n is not None:
            key = (who or player, card_id)
            total = plan.counts.get(key, 0) + n
            if total > MAX_COUNT:
                problems.append(
                    Problem(
                        SourcePos(export.path, row.line, reader.cols.get("count", 1)),
                        f"{card_id}: {total:,} copies in all; at most {MAX_COUNT:,}",
                        "count",
                    )
                )
            else:
                plan.counts[key] = total
        if problems:
            plan.bad_rows += 1
            if len(plan.bad_lines) < MAX_PROBLEMS:
                plan.bad_lines.append(row.line)
            room = MAX_PROBLEMS - len(plan.problems)
            plan.problems.extend(problems[: max(room, 0)])
    return plan


def refuse(plan: ImportPlan, path: Path) -> None:
    """Raise the plan's problems (nothing is written): :class:`BadCountsError` (exit 2) when a count
    is bad, else :class:`DataError` (exit 1); past :data:`MAX_PROBLEMS` the rest are counted."""
    if not plan.problems:
        return
    problems = list(plan.problems)
    if plan.bad_rows > len(plan.bad_lines):
        problems.append(Problem(SourcePos(path, 0, 0), f"and {plan.bad_rows - len(plan.bad_lines):,} more rows with problems", "more"))
    bad_count = any(p.rule == "count" for p in problems)
    raise (BadCountsError if bad_count else DataError)(problems)


@dataclass
class AppImportReport:
    """What :func:`import_export` did: the ``app`` read, ``rows``, ``cards`` (player, card) pairs,
    ``copies``, ``players``, rows of ``other_games`` skipped (by category), rows ``skipped`` as
    bad (``--skip-bad``) with their first lines and problems, the roles ``not_kept``."""

    app: str
    rows: int
    cards: int
    copies: int
    players: list[str]
    other_games: dict[str, int]
    skipped: int
    skipped_lines: list[int]
    problems: list[Problem]
    not_kept: list[str]

    def skipped_text(self) -> str:
        """``lines 3, 7`` of the rows skipped (``--skip-bad``)."""
        more = self.skipped - len(self.skipped_lines)
        text = line_list(self.skipped_lines)
        return text + (f" and {more:,} more" if more > 0 else "")


def import_export(
    con: Database,
    path: Path,
    resolver: CardResolver,
    player: str,
    *,
    app: str | None = None,
    replace: bool = False,
    skip_bad: bool = False,
    on_row: Callable[[ExportRow], None] | None = None,
) -> AppImportReport:
    """Import another app's collection export (or a generic CSV) in one transaction, all or nothing
    (with ``skip_bad``: every good row, the bad ones listed in the report).

    Args:
        con: the collections database; path: the CSV file; resolver: the catalog's cards;
        player: the collection (default of a ``player`` column); app: a key of :data:`APPS`
        (``--from``), None to recognise it by its header; replace: the file's counts replace each
        player's collection; on_row: :func:`plan_export`'s per-row callback.

    Raises:
        InputError, UsageError: an unreadable file, a header matching no app, a column named twice
        (exit 2); BadCountsError (exit 2), DataError (exit 1): rows not understood, each at its row
        and column (without ``skip_bad``); UsageError: ``replace`` with ``skip_bad`` and a row not
        understood (a restore that would drop that row's card); nothing is written then.
    """
    export = open_export(path, app)
    plan = plan_export(export, resolver, player, on_row=on_row)
    if not skip_bad:
        refuse(plan, export.path)
    elif replace and plan.bad_rows:
        # a restore gives each player exactly the file's counts: a skipped row would drop its card
        raise UsageError(
            f"{export.path}: --replace restores whole collections, and {plan.bad_rows:,} row(s) were not understood "
            f"(first at line {plan.bad_lines[0] if plan.bad_lines else '?'}); fix them, or import without --replace; nothing written"
        )
    players = write_plan(con, plan.counts, check_player(player), replace=replace)
    return AppImportReport(
        app=plan.app,
        rows=plan.rows,
        cards=len(plan.counts),
        copies=sum(plan.counts.values()),
        players=players,
        other_games=dict(plan.other_games),
        skipped=plan.bad_rows,
        skipped_lines=plan.bad_lines,
        problems=plan.problems,
        not_kept=plan.not_kept,
    )


def _printing(card: dict, app: str) -> str:
    holo = "holo" in fold(str(card.get("rarity", "")))
    if app == "moxfield":
        return ""
    if app.startswith("dragonshield"):
        return "Foil" if holo else "Normal"
    return "Holofoil" if holo else "Normal"


def export_rows(owned: dict[str, int], catalog: Catalog, app: str, player: str) -> Iterator[list[str]]:
    """The rows of a collection (``card id -> count``) as ``app`` (a key of :data:`APPS`) writes
    them, header first: names in English, set codes (the PTCGO code most apps took over) and names,
    numbers as printed (``4/102``) where the app writes them so, condition Near Mint, language English."""
    spec = APPS[app]
    if app == "generic":
        yield ["card_id", "count"]
        for card_id in sorted(owned):
            yield [card_id, str(owned[card_id])]
        return
    header = list(spec.header)
    if app == "collectr":
        header[header.index("Market Price")] = "Market Price (As of 1970-01-01)"
    yield header
    where = {col: i for i, col in enumerate(spec.header)}
    for card_id in catalog.by_print_order(c for c in owned if c in catalog.cards):
        card = catalog.cards[card_id]
        info = catalog.set_of(card_id)
        number = str(card.get("number", ""))
        total = info.printed_total
        cells = [""] * len(header)
        for col, value in spec.fixed.items():
            cells[where[col]] = value
        values = {
            "count": str(owned[card_id]),
            "name": catalog.name_of(card_id, ["en"]),
            "set": info.code if app == "moxfield" else info.code_for("ptcgo"),
            "set_name": info.name(["en"]),
            "number": f"{number}/{total}" if total and number.isdigit() and app in ("tcgplayer", "collectr") else number,
            "printing": _printing(card, app),
            "condition": "NearMint" if app.startswith("dragonshield") else "Near Mint",
            "language": "English",
            "category": get(info.game).TITLE,
        }
        if app == "collectr":
            values["set"] = info.name(["en"])
        for role, col in spec.columns.items():
            cells[where[col]] = values[role]
        if app == "tcgplayer":
            cells[where["Name"]] = values["name"]
            cells[where["Rarity"]] = str(card.get("rarity", ""))
        if app == "collectr":
            cells[where["Portfolio Name"]] = player
            cells[where["Rarity"]] = str(card.get("rarity", ""))
        if app.startswith("dragonshield"):
            cells[where["Folder Name"]] = player
        yield cells


def export_app(con: Database | None, player: str, catalog: Catalog, app: str) -> str:
    """Return ``player``'s collection as ``app``'s CSV export (:func:`export_rows`); the Dragon
    Shield app's starts with its ``sep=,`` line.

    Raises:
        UsageError: an unknown app (exit 2).
    """
    if app not in APPS:
        raise UsageError(f"unknown app '{app}'; choose one of: {', '.join(APPS)}")
    owned = counts(con, player) if con is not None else {}
    buf = io.StringIO()
    if APPS[app].sep_line:
        buf.write('"sep=,"\n')
    csv.writer(buf, lineterminator="\n").writerows(export_rows(owned, catalog, app, player))
    return buf.getvalue()
