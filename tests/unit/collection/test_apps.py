"""Collections from other apps (issue 31 §1): each app's export (tests/fixtures/collections, written
from the apps' documented headers with real vintage cards) imported and exported back, the bad
inputs, and property tests for the separator sniffing and the number forms."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.catalog.validate import load_catalog
from cardlab.collection import db
from cardlab.collection.apps import APPS, export_app, import_export, normal_number, open_export, sniff_delimiter
from cardlab.collection.cards import CardResolver
from cardlab.collection.owned import BadCountsError, change, counts
from cardlab.core.errors import DataError, InputError, UsageError
from cardlab.core.paths import shipped_catalog

FIXTURES = Path(__file__).parents[2] / "fixtures" / "collections"

EXPECTED = {
    "moxfield.csv": ("moxfield", {"base1-4": 2, "base1-58": 2, "base1-91": 3}),
    "tcgplayer.csv": ("tcgplayer", {"base1-4": 1, "base4-4": 1, "base2-10": 2, "base1-91": 4}),
    "dragonshield-app.csv": ("dragonshield", {"base3-5": 1, "base1-58": 2, "base5-4": 1}),
    "dragonshield-web.csv": ("dragonshield-web", {"base1-4": 1, "base1-58": 2}),
    "collectr.csv": ("collectr", {"base1-4": 1, "gym1-1": 1}),
    "generic-tab.csv": ("generic", {"base1-4": 1, "base3-20": 2, "base4-4": 1}),
}


@pytest.fixture(scope="module")
def resolver():
    return CardResolver(load_catalog(shipped_catalog()))


@pytest.fixture
def con(tmp_path):
    return db.connect(tmp_path / "c.sqlite")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_apps_export_is_recognised_and_imported(con, resolver, name):
    app, expected = EXPECTED[name]
    report = import_export(con, FIXTURES / name, resolver, "alice")
    assert report.app == app
    assert counts(con, "alice") == expected


def test_collectr_skips_and_counts_other_games(con, resolver):
    report = import_export(con, FIXTURES / "collectr.csv", resolver, "alice")
    assert report.other_games == {"Magic: The Gathering": 1, "Lorcana": 1}
    assert report.not_kept == ["printing", "condition"]


@pytest.mark.parametrize("app", sorted(APPS))
def test_round_trip_through_each_app_keeps_every_count(tmp_path, resolver, app):
    source = db.connect(tmp_path / "a.sqlite")
    owned = {"base1-4": 1, "base4-4": 2, "base1-58": 3, "base3-5": 1, "base3-20": 4, "base5-4": 1, "gym1-1": 2, "basep-1": 1}
    change(source, "alice", [("add", c, n) for c, n in owned.items()])
    text = export_app(source, "alice", resolver.catalog, app)
    path = tmp_path / f"{app}.csv"
    path.write_text(text, encoding="utf-8")
    target = db.connect(tmp_path / "b.sqlite")
    report = import_export(target, path, resolver, "bob")
    assert report.app == app
    assert counts(target, "bob") == owned


def test_set_names_in_english_and_french_and_printed_numbers(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_text(
        "Quantity,Set Name,Card Number,Name\n1,Base Set 2,4/130,Charizard\n2,Set de Base,004/102,Dracaufeu\n1,Fossile,#5,Gengar\n"
    )
    import_export(con, path, resolver, "alice")
    assert counts(con, "alice") == {"base4-4": 1, "base1-4": 2, "base3-5": 1}


def test_semicolon_bom_and_spreadsheet_quotes(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_bytes('\ufeff"Quantity";"Name";"Set";"Number"\n"2";"Bill";"Base Set";"91/102"\n'.encode())
    report = import_export(con, path, resolver, "alice")
    assert (report.app, counts(con, "alice")) == ("generic", {"base1-91": 2})


@pytest.mark.parametrize(
    ("row", "column", "message", "error"),
    [
        ("0,Bill,Base Set,91", 1, "count 0 is not allowed", BadCountsError),
        ("-2,Bill,Base Set,91", 1, "count -2 is not allowed", BadCountsError),
        ("1.5,Bill,Base Set,91", 1, "count '1.5' is not a whole number", BadCountsError),
        ("1,Bill,Base Sett,91", 3, "unknown set 'Base Sett'", DataError),
        ("1,Bill,Base Set,191", 4, "no card 191 in Base set (ftcg-base) or Base Set (ippo1) or Base Set (base1)", DataError),
        ("1,Pikachu,Base Set,91", 2, 'no card base1 91 in the catalog ("Pikachu")', DataError),
    ],
)
def test_a_bad_row_is_named_by_row_and_column_and_nothing_is_written(tmp_path, con, resolver, row, column, message, error):
    path = tmp_path / "c.csv"
    path.write_text(f"Quantity,Name,Set,Number\n1,Pikachu,Base Set,58\n{row}\n")
    with pytest.raises(error) as info:
        import_export(con, path, resolver, "alice")
    problem = info.value.problems[0]
    assert (problem.pos.line, problem.pos.col) == (3, column)
    assert problem.message.startswith(message)
    assert counts(con, "alice") == {}


def test_skip_bad_writes_the_rest_and_lists_the_skipped_rows(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_text("Quantity,Name,Set,Number\n1,Pikachu,Base Set,58\nx,Bill,Base Set,91\n1,Bill,Nowhere,91\n")
    report = import_export(con, path, resolver, "alice", skip_bad=True)
    assert counts(con, "alice") == {"base1-58": 1}
    assert (report.skipped, report.skipped_text()) == (2, "lines 3, 4")


def test_replace_with_skip_bad_never_drops_a_skipped_rows_card(tmp_path, con, resolver):
    """Finding: a restore (--replace) with --skip-bad deleted the cards of the rows it skipped.
    Now refused whole: the collection is as it was."""
    change(con, "alice", [("add", "base1-4", 2), ("add", "base1-58", 5)])
    path = tmp_path / "backup.csv"
    path.write_text("player,card_id,count\nalice,base1-58,5\nalice,base1-4,2.0\n")
    with pytest.raises(UsageError, match=r"--replace restores whole collections, and 1 row\(s\) were not understood \(first at line 3\)"):
        import_export(con, path, resolver, "alice", replace=True, skip_bad=True)
    assert counts(con, "alice") == {"base1-4": 2, "base1-58": 5}


def test_unknown_condition_printing_and_language_are_problems(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_text(
        "Count,Tradelist Count,Name,Edition,Condition,Language,Foil,Collector Number\n1,0,Bill,base1,Chewed,Klingon,sparkly,91\n"
    )
    with pytest.raises(DataError) as info:
        import_export(con, path, resolver, "alice")
    assert [(p.pos.col, p.rule) for p in info.value.problems] == [(7, "printing"), (5, "condition"), (6, "language")]


def test_a_header_matching_nothing_names_every_app(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_text("Foo,Bar\n1,2\n")
    with pytest.raises(UsageError) as info:
        import_export(con, path, resolver, "alice")
    text = str(info.value)
    for app in APPS.values():
        assert ",".join(app.header) in text


def test_a_column_named_twice_is_refused(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_text("Quantity,Name,Set,Name\n1,Bill,Base Set,Bill\n")
    with pytest.raises(UsageError, match=r"c.csv:1:4: the column 'Name' is named twice \(columns 2 and 4\)"):
        import_export(con, path, resolver, "alice")


def test_from_names_an_app_whose_columns_are_missing(tmp_path, con, resolver):
    """One sentence: what the app named lacks, the file's columns once, and the app they belong to."""
    with pytest.raises(UsageError) as err:
        import_export(con, FIXTURES / "moxfield.csv", resolver, "alice", app="collectr")
    assert str(err.value) == (
        f"{FIXTURES / 'moxfield.csv'}:1: not a Collectr export (no column 'Portfolio Name', 'Category', 'Product Name', 'Quantity'); "
        "its columns 'Count', 'Tradelist Count', 'Name', 'Edition', 'Condition', 'Language', 'Foil', 'Tags', "
        "'Last Modified', 'Collector Number', 'Alter', 'Proxy', 'Purchase Price' are the columns of a Moxfield export: "
        "give --from moxfield"
    )


@pytest.mark.parametrize(
    ("header", "app", "tail"),
    [
        (
            "Folder Name,Quantity,Card Name,Set Code,Card Number\n",
            "tcgplayer",
            "a Dragon Shield (web) export: give --from dragonshield-web",
        ),
        ("set,number,count\n", "moxfield", "cardlab's generic CSV columns: leave --from out (or give --from generic)"),
        ("foo,bar\n", "tcgplayer", "those of no export cardlab knows (see 'cardlab collection import --help')"),
    ],
)
def test_from_the_wrong_app_names_the_app_the_file_looks_like(tmp_path, con, resolver, header, app, tail):
    path = tmp_path / "c.csv"
    path.write_text(header + "1,2,3,4,5\n"[: 2 * header.count(",") + 2] + "\n")
    with pytest.raises(UsageError) as err:
        import_export(con, path, resolver, "alice", app=app)
    message = str(err.value)
    assert message.endswith(tail)
    assert message.count("Simple Name") <= 1 and message.count("\n") == 0


def test_binary_and_non_utf8_files_are_refused(tmp_path, con, resolver):
    path = tmp_path / "c.csv"
    path.write_bytes(b"Quantity,Name\n1,\xff\xfe\n")
    with pytest.raises(InputError, match="not UTF-8"):
        import_export(con, path, resolver, "alice")
    path.write_bytes(b"Quantity,Name\x00\n")
    with pytest.raises(InputError, match="NUL byte"):
        import_export(con, path, resolver, "alice")


def test_rows_are_read_one_at_a_time_with_their_lines(tmp_path):
    path = tmp_path / "c.csv"
    shutil.copy(FIXTURES / "dragonshield-app.csv", path)
    export = open_export(path)
    assert (export.layout.app, export.delimiter) == ("dragonshield", ",")
    assert [row.line for row in export] == [3, 4, 5]


def test_on_row_is_called_for_each_row(tmp_path, con, resolver):
    seen: list[int] = []
    import_export(con, FIXTURES / "tcgplayer.csv", resolver, "alice", on_row=lambda row: seen.append(row.line))
    assert seen == [2, 3, 4, 5]


_CELL = st.text(alphabet="abcXYZ019 éß,;\t\"'/", min_size=1, max_size=8).filter(lambda s: s.strip() == s)
"""A cell as spreadsheets write them: letters, digits, spaces, and the separators and quotes that make them quote it."""


@settings(max_examples=2000, deadline=None)
@given(
    delimiter=st.sampled_from([",", ";", "\t"]),
    header=st.lists(
        st.sampled_from(["Quantity", "Name", "Set", "Card Number", "Condition", "Language", "Notes"]), min_size=2, max_size=7, unique=True
    ),
    rows=st.lists(st.lists(_CELL, min_size=7, max_size=7), min_size=0, max_size=5),
)
def test_sniffing_finds_the_separator_the_file_was_written_with(delimiter, header, rows):
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows(r[: len(header)] for r in rows)
    assert sniff_delimiter(buf.getvalue()) == delimiter


@settings(max_examples=2000, deadline=None)
@given(number=st.integers(1, 999), total=st.integers(1, 999), zeros=st.integers(0, 2), spaces=st.booleans(), hash_=st.booleans())
def test_number_forms_name_the_same_number(number, total, zeros, spaces, hash_):
    sep = " / " if spaces else "/"
    written = ("#" if hash_ else "") + "0" * zeros + str(number)
    assert normal_number(written) == str(number)
    assert normal_number(f"{written}{sep}{total}") == str(number)


@pytest.mark.parametrize(("written", "number"), [("H12", "H12"), ("SH3/SH3", "SH3"), (" 0 ", "0"), ("a12/110", "a12")])
def test_number_forms_with_letters(written, number):
    assert normal_number(written) == number
