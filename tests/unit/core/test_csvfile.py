"""core.csvfile, the one CSV reader (collection imports, card imports): property tests over
generated files (issue 10: at least 2,000 generated inputs per parser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core.csvfile import parse_csv
from cardlab.core.errors import CardlabError, InputError

P = Path("c.csv")

_PLAIN = st.text(st.sampled_from("ab é1-x_ \u2028\x85\x0c\u00a0テ"), max_size=6)
_QUOTED = st.text(st.sampled_from('ab ,"é\n\r\u2028'), max_size=6)


def _quote(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"'


@st.composite
def _files(draw):
    """A well-formed CSV file: a header and records whose cells are plain or quoted (quoted cells
    may hold commas, quotes and line breaks), each line ended by \\n, \\r\\n or \\r."""
    width = draw(st.integers(1, 4))
    header = [f"h{i}" for i in range(width)]
    records = draw(
        st.lists(
            st.lists(st.one_of(_PLAIN.map(lambda c: (c, c)), _QUOTED.map(lambda c: (c, _quote(c)))), min_size=width, max_size=width),
            max_size=8,
        )
    )
    eols = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(records) + 1, max_size=len(records) + 1))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    text = bom + ",".join(header) + eols[0]
    expected = []
    for record, eol in zip(records, eols[1:], strict=True):
        line = len(re.split(r"\r\n|\r|\n", text))  # the editor's line where this record starts
        written = ",".join(w for _, w in record)
        text += written + eol
        cells = [c for c, _ in record]
        if all(not c.strip() for c in cells):
            continue  # a blank record is skipped
        expected.append((line, cells))
    return text, header, expected


@settings(max_examples=2000, deadline=None)
@given(_files())
def test_well_formed_csv_reads_back_at_editor_lines(case):
    """Kind: every well-formed file reads back cell for cell, each record at the editor's line
    where it starts (\\n, \\r\\n and \\r end lines; U+2028, NEL and form feed do not)."""
    text, header, expected = case
    table = parse_csv(text, P)
    assert table.header == header
    assert [(r.line, r.cells) for r in table.rows] == expected


@settings(max_examples=2000, deadline=None)
@given(st.text(st.sampled_from('a1,"\n\r \x00\ufeff\u2028é'), max_size=40))
def test_any_text_reads_or_is_a_positioned_usage_error(text):
    """Kind: hostile CSV text is a table or an InputError (exit 2) naming the file and line;
    never another exception."""
    try:
        table = parse_csv(text, P)
    except InputError as err:
        assert err.exit_code == 2
        assert re.match(r"c\.csv(:\d+(:\d+)?)?: ", str(err))
    except CardlabError as err:  # pragma: no cover - the reader raises only InputError
        pytest.fail(f"unexpected {type(err).__name__}: {err}")
    else:
        lines = len(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")))
        assert all(1 <= r.line <= lines for r in table.rows)
        assert all(len(r.cells) == len(table.header) for r in table.rows)
