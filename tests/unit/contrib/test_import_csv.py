"""``cardlab import csv`` (issue 13 §1) and the CSV reader, with property-based tests (hypothesis)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.catalog.validate import load_catalog, validate
from cardlab.cli.whole import app
from cardlab.contrib.import_csv import columns, import_cards, plan_cards
from cardlab.core.csvfile import parse_csv
from cardlab.core.errors import DataError, InputError, UsageError


@pytest.fixture
def forum_copy(tmp_path, repo):
    root = tmp_path / "catalog"
    shutil.copytree(repo / "cards" / "forumtcg" / "ftcg-base", root / "forumtcg" / "ftcg-base")
    return root


def _table(text, tmp_path=Path("/x")):
    return parse_csv(text, tmp_path / "cards.csv")


GOOD = "number,name,name.en,value,faction,rarity\n1,Lame pâle,Pale blade,3,gotei-13,Commune\n2,Brume,,4,acuerdo,Commune\n"


def test_import_writes_valid_cards_and_refuses_to_overwrite(forum_copy, tmp_path):
    result = import_cards(load_catalog([forum_copy]), _table(GOOD, tmp_path), "ftcg-base")
    assert [p.name for p in result.written] == ["1-lame-pale.yaml", "2-brume.yaml"]
    assert validate([forum_copy], cache_path=None).problems == []
    cat = load_catalog([forum_copy])
    assert cat.cards["ftcg-base-1"]["name"] == {"fr": "Lame pâle", "en": "Pale blade"}
    assert cat.cards["ftcg-base-2"]["value"] == 4
    with pytest.raises(DataError, match="already exists"):
        import_cards(cat, _table(GOOD, tmp_path), "ftcg-base")
    again = import_cards(cat, _table(GOOD.replace(",4,", ",5,"), tmp_path), "ftcg-base", overwrite=True)
    assert len(again.replaced) == 2 and load_catalog([forum_copy]).cards["ftcg-base-2"]["value"] == 5


def test_every_bad_cell_at_row_and_column_and_nothing_written(forum_copy, tmp_path):
    text = "number,name,value,faction,rarity\n1,A,x,gotei-13,Commune\n2,B,2,gotei,Commune\n3,C,2,neutral,Rare\n1,D,1,neutral,Commune\n"
    with pytest.raises(DataError) as err:
        import_cards(load_catalog([forum_copy]), _table(text, tmp_path), "ftcg-base")
    assert [(p.pos.line, p.pos.col, p.rule) for p in err.value.problems] == [
        (2, 3, "cell"),
        (3, 4, "schema"),
        (4, 5, "rarity"),
        (5, 1, "unique-id"),
    ]
    assert sorted(p.name for p in (forum_copy / "forumtcg" / "ftcg-base").iterdir()) == ["set.yaml"]


@pytest.mark.parametrize(
    ("header", "needle"),
    [
        ("numbr,name", "did you mean number"),
        ("number,attacks", "not a field"),
        ("name,value", "'number' column"),
        ("number,value.en", "only localized"),
        ("number,name,name", "twice"),
    ],
)
def test_bad_headers_are_usage_errors(forum_copy, tmp_path, header, needle):
    with pytest.raises(UsageError, match=needle):
        import_cards(load_catalog([forum_copy]), _table(header + "\n", tmp_path), "ftcg-base")


def test_other_games_columns():
    pokemon = columns("pokemon")
    assert pokemon["hp"].kind == "integer" and pokemon["attacks"] is None
    assert columns("monpa")["mana"].kind == "integer-or-text"


def test_import_into_a_pokemon_set(test_set, tmp_path):
    """A list of plain values is one cell, items separated by commas (issue 33); left empty, it is
    named once, at its cell."""
    text = "number,name,supertype,rarity,hp,types,stage\n90,Testmon,Pokémon,Common,40,,Basic\n"
    cat = load_catalog([test_set])
    with pytest.raises(DataError) as err:
        import_cards(cat, _table(text, tmp_path), "test1")
    assert [(p.pos.line, p.pos.col, p.message) for p in err.value.problems] == [
        (2, 6, "types is required: fill this cell"),
        (2, 0, "attacks is required: add a column for it"),
    ]


def test_cli_import_csv(runner, forum_copy, tmp_path):
    f = tmp_path / "cards.csv"
    f.write_text(GOOD)
    out = runner.invoke(app, ["import", "csv", str(f), "--set", "ftcg-base", "--catalog", str(forum_copy)])
    assert out.exit_code == 0 and "wrote 2 new card file(s)" in out.stdout
    out = runner.invoke(app, ["import", "csv", str(f), "--set", "ftcg-base", "--catalog", str(forum_copy)])
    assert out.exit_code == 1 and "--overwrite" in out.stderr
    out = runner.invoke(app, ["import", "csv", str(tmp_path / "nope.csv"), "--set", "ftcg-base", "--catalog", str(forum_copy)])
    assert out.exit_code == 2 and "Traceback" not in out.stderr


# --- the CSV reader: properties ----------------------------------------------------------------

cells = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


@given(st.lists(st.lists(cells, min_size=3, max_size=3), max_size=8))
@settings(max_examples=2000, deadline=None)
def test_written_rows_read_back(rows):
    buf = io.StringIO()
    w = csv.writer(buf)  # \r\n line ends: a \r or \n in a cell is quoted
    w.writerow(["a", "b", "c"])
    w.writerows(rows)
    table = parse_csv(buf.getvalue(), Path("t.csv"))
    kept = [r for r in rows if any(c.strip() for c in r)]
    assert table.header == ["a", "b", "c"]
    assert [r.cells for r in table.rows] == kept
    assert [r.line for r in table.rows] == sorted({r.line for r in table.rows})


@given(st.text(max_size=200))
@settings(max_examples=2000, deadline=None)
def test_any_text_reads_or_fails_cleanly(text):
    try:
        table = parse_csv(text, Path("t.csv"))
    except InputError as err:
        assert str(err).startswith("t.csv")
    else:
        assert all(len(r.cells) == len(table.header) for r in table.rows)


names = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd"), whitelist_characters=" '-"), min_size=1, max_size=20
).filter(lambda s: s.strip() and s == s.strip())
card_rows = st.lists(
    st.tuples(names, st.integers(-50, 50), st.sampled_from(["gotei-13", "acuerdo", "ultima-necat", "neutral", "independent"])),
    min_size=1,
    max_size=10,
)


@given(card_rows)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_generated_cards_plan_exactly(repo, rows):
    info = load_catalog([repo / "cards"]).require_set("ftcg-base")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["number", "name", "value", "faction", "rarity"])
    w.writerows([str(i), n, v, f, "Commune"] for i, (n, v, f) in enumerate(rows, 1))
    planned = [card for _line, card in plan_cards(parse_csv(buf.getvalue(), Path("g.csv")), info)]
    assert planned == [
        {"id": f"ftcg-base-{i}", "number": str(i), "name": {"fr": n}, "value": v, "faction": f, "rarity": "Commune"}
        for i, (n, v, f) in enumerate(rows, 1)
    ]


@pytest.fixture(scope="module")
def ftcg_base():
    return load_catalog([Path(__file__).resolve().parents[3] / "cards"]).require_set("ftcg-base")


@given(st.text(alphabet="0123456789-+.x eé٣", min_size=1, max_size=6))
@settings(max_examples=2000, deadline=None)
def test_value_cells_are_whole_numbers_or_a_positioned_problem(ftcg_base, cell):
    info = ftcg_base
    table = parse_csv(f"number,name,value,faction,rarity\n1,A,{cell},neutral,Commune\n", Path("v.csv"))
    try:
        ((_line, card),) = plan_cards(table, info)
    except DataError as err:
        assert [(p.pos.line, p.pos.col) for p in err.problems] == [(2, 3)]
    else:
        assert card["value"] == int(cell.strip()) if cell.strip() else "value" not in card
