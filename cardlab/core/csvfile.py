"""Reading CSV files the user gives (collection imports, card imports): one reader, positioned
errors (``file:row:column``, both 1-based; row = the file's line where the record starts).

A CSV file here is UTF-8 (a BOM is dropped), comma-separated, with a header row naming its columns;
fields may be quoted (``"a, b"``, ``""`` for a quote). Blank lines are skipped.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from cardlab.core.errors import InputError
from cardlab.core.inputs import LoadError, read_text

MAX_CSV_BYTES = 50_000_000
"""A CSV file larger than this (50 MB; 1,000,000 ``card_id,count`` rows take about 20 MB) is refused."""


@dataclass(frozen=True)
class CsvRow:
    """One record: ``line`` its first line in the file (1-based), ``cells`` the fields as read
    (no stripping), in header order."""

    line: int
    cells: list[str]


@dataclass
class CsvTable:
    """A read CSV file: ``path``, ``header`` (column names, stripped, as written) and ``rows``."""

    path: Path
    header: list[str]
    rows: list[CsvRow]

    def column(self, name: str) -> int | None:
        """Return the 0-based index of the column named ``name`` (case-insensitive), or None."""
        wanted = name.casefold()
        for i, h in enumerate(self.header):
            if h.casefold() == wanted:
                return i
        return None


def parse_csv(text: str, path: Path) -> CsvTable:
    """Parse CSV ``text`` (see the module docstring) read from ``path`` (for messages).

    Returns:
        A :class:`CsvTable`; rows shorter than the header are padded with ``""``.

    Raises:
        InputError: no header row, a NUL byte, a row with more cells than the header, an empty
            column name, or text the csv module cannot read (an unclosed quote); the message gives
            ``path:row:column`` (exit 2).
    """
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(f"{path}:{line}: a NUL byte: this is a binary file, not CSV text")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    rows: list[CsvRow] = []
    start = 1
    try:
        for record in reader:
            line = start
            start = reader.line_num + 1
            if not record or all(not c.strip() for c in record):
                continue
            if header is None:
                header = [c.strip() for c in record]
                for col, name in enumerate(header, 1):
                    if not name:
                        raise InputError(f"{path}:{line}:{col}: empty column name in the header row")
                continue
            if len(record) > len(header):
                raise InputError(f"{path}:{line}:{len(header) + 1}: {len(record)} cells but the header has {len(header)} columns")
            rows.append(CsvRow(line, record + [""] * (len(header) - len(record))))
    except csv.Error as err:
        raise InputError(f"{path}:{start}: cannot read this CSV row ({err}); check its quotes") from None
    if header is None:
        raise InputError(f"{path}: no header row; the first line names the columns, e.g. card_id,count")
    return CsvTable(path, header, rows)


def read_csv(path: Path) -> CsvTable:
    """Read and parse the CSV file at ``path`` (:func:`parse_csv`).

    Raises:
        InputError: the file is missing, too large, not UTF-8, binary, or not CSV (exit 2).
    """

    path = Path(path)
    try:
        text = read_text(path, max_bytes=MAX_CSV_BYTES)
    except LoadError as err:
        raise InputError(f"{err.problem.pos}: {err.problem.message}") from None
    return parse_csv(text, path)
