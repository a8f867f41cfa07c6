"""Collections (issue 13 §2): the database, counts, CSV import/export, crash safety, the index apart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.catalog.validate import load_catalog
from cardlab.collection import db, owned
from cardlab.collection.cards import CardResolver
from cardlab.core.csvfile import parse_csv
from cardlab.core.errors import CardlabError, DataError, UsageError


@pytest.fixture
def con(backend):
    """The collections database on each backend (SQLite file, PostgreSQL database)."""
    return db.connect()


@pytest.fixture
def sqlite_con():
    """The SQLite collections database in the test's data folder."""
    return db.connect()


@pytest.fixture
def resolver(forum_catalog):
    return CardResolver(load_catalog([forum_catalog]))


def test_database_lives_in_the_data_dir_not_the_cache(sqlite_con, tmp_path):
    from cardlab.core.paths import collection_db

    assert collection_db() == tmp_path / "cardlab-data" / "collection.sqlite"
    assert collection_db().exists()
    assert "cache" not in str(collection_db().parent.name)


def test_add_remove_set(con):
    assert owned.change(con, "alice", [("add", "ftcg-test-1", 2)]) == {"ftcg-test-1": 2}
    assert owned.change(con, "alice", [("add", "ftcg-test-1", 1), ("remove", "ftcg-test-1", 3)]) == {"ftcg-test-1": 0}
    assert owned.counts(con, "alice") == {}
    owned.change(con, "alice", [("set", "ftcg-test-2", 5)])
    assert owned.counts(con, "alice") == {"ftcg-test-2": 5}


def test_removing_more_than_owned_is_refused_and_changes_nothing(con):
    owned.change(con, "alice", [("add", "ftcg-test-1", 2)])
    with pytest.raises(owned.NotOwnedError, match="owns 2"):
        owned.change(con, "alice", [("add", "ftcg-test-2", 1), ("remove", "ftcg-test-1", 3)])
    assert owned.counts(con, "alice") == {"ftcg-test-1": 2}  # the add in the same transaction is rolled back


@pytest.mark.parametrize("text", ["-1", "1.5", "x", "", "٣", "10000000", "--1", "+-2"])
def test_bad_counts(text):
    with pytest.raises(UsageError):
        owned.parse_count(text)


def test_zero_count_only_where_allowed():
    assert owned.parse_count("0", allow_zero=True) == 0
    with pytest.raises(UsageError):
        owned.parse_count("0")


def test_resolver_names_ids_and_set_numbers(resolver):
    assert resolver.resolve("ftcg-test-3") == ("ftcg-test-3", "")
    assert resolver.resolve("FT 3")[0] == "ftcg-test-3"
    assert resolver.resolve("lame errante")[0] == "ftcg-test-1"
    found, message = resolver.resolve("Lame erante")
    assert found is None and '"Lame errante"' in message


def _table(text: str, tmp_path: Path):
    return parse_csv(text, tmp_path / "in.csv")


def test_csv_import_adds_and_replace_restores(con, resolver, tmp_path):
    owned.change(con, "alice", [("add", "ftcg-test-1", 1)])
    owned.import_csv(con, _table("card_id,count\nftcg-test-1,2\nftcg-test-2,1\nftcg-test-2,1\n", tmp_path), resolver, "alice")
    assert owned.counts(con, "alice") == {"ftcg-test-1": 3, "ftcg-test-2": 2}
    backup = owned.export_csv(con, None)
    owned.change(con, "alice", [("set", "ftcg-test-9", 7)])
    owned.import_csv(con, _table(backup, tmp_path), resolver, "alice", replace=True)
    assert owned.counts(con, "alice") == {"ftcg-test-1": 3, "ftcg-test-2": 2}


def test_csv_with_bad_rows_names_row_and_column_and_writes_nothing(con, resolver, tmp_path):
    text = "name,count\nLame errante,1\nLame erante,1\nBrume fendue,-2\n"
    with pytest.raises(DataError) as err:
        owned.import_csv(con, _table(text, tmp_path), resolver, "alice")
    where = [(p.pos.line, p.pos.col, p.rule) for p in err.value.problems]
    assert where == [(3, 1, "unknown-card"), (4, 2, "count")]
    assert "did you mean" in err.value.problems[0].message
    assert owned.counts(con, "alice") == {}


def test_csv_header_problems_are_usage_errors(resolver, tmp_path):
    with pytest.raises(UsageError, match="unknown column"):
        owned.plan_import(_table("card,count\nx,1\n", tmp_path), resolver, "alice")
    with pytest.raises(UsageError, match="needs a count column"):
        owned.plan_import(_table("card_id\nx\n", tmp_path), resolver, "alice")


def test_read_only_data_dir_is_a_clear_error(monkeypatch, tmp_path):
    target = tmp_path / "ro"
    target.mkdir()
    monkeypatch.setenv("CARDLAB_DATA", str(target))
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == target else real(p, mode, **kw))
    with pytest.raises(db.DataDirError, match="read-only"):
        db.connect()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_data_dir_for_real(monkeypatch, tmp_path):
    target = tmp_path / "ro"
    target.mkdir()
    target.chmod(0o500)
    monkeypatch.setenv("CARDLAB_DATA", str(target))
    with pytest.raises(db.DataDirError, match="read-only"):
        db.connect()


def test_index_rebuild_and_deletion_never_touch_the_collection(con, forum_catalog, tmp_path):
    from cardlab.index.sqlite import build_index

    owned.change(con, "alice", [("add", "ftcg-test-1", 2)])
    index = tmp_path / "index.sqlite"
    build_index([forum_catalog], index)  # a fresh build over an existing index
    index.unlink()
    assert owned.counts(db.connect(), "alice") == {"ftcg-test-1": 2}


KILLED_IMPORT = r"""
import sys, time
from pathlib import Path
from cardlab.catalog.validate import load_catalog
from cardlab.collection import db, owned
from cardlab.collection.cards import CardResolver
from cardlab.core.csvfile import read_csv

marker = Path(sys.argv[2])

def progress(i):
    if i >= 200:
        marker.write_text("inside the transaction")
        time.sleep(60)

owned.import_csv(db.connect(), read_csv(Path(sys.argv[1])), CardResolver(load_catalog([Path(sys.argv[3])])),
                 "alice", progress=progress)
"""


def test_kill_9_during_an_import_leaves_the_old_collection_whole(sqlite_con, forum_catalog, tmp_path):
    con = sqlite_con
    owned.change(con, "alice", [("add", "ftcg-test-1", 2)])
    rows = [f"p{p},ftcg-test-{n},1" for p in range(10) for n in range(1, 33)]
    csv_path = tmp_path / "big.csv"
    csv_path.write_text("player,card_id,count\n" + "\n".join(rows) + "\n")
    marker = tmp_path / "marker"
    proc = subprocess.Popen([sys.executable, "-c", KILLED_IMPORT, str(csv_path), str(marker), str(forum_catalog)])
    deadline = time.monotonic() + 30
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert marker.exists(), "the import never reached its transaction"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    after = db.connect()
    assert after.scalar("PRAGMA integrity_check") == "ok"
    assert owned.players(after) == ["alice"]
    assert owned.counts(after, "alice") == {"ftcg-test-1": 2}


def test_csv_player_column(con, resolver, tmp_path):
    text = 'player,card_id,count\nbob,ftcg-test-1,2\n,ftcg-test-2,1\n"bad\x01name",ftcg-test-3,1\n'
    with pytest.raises(DataError) as err:
        owned.import_csv(con, _table(text, tmp_path), resolver, "alice")
    assert [(p.pos.line, p.pos.col, p.rule) for p in err.value.problems] == [(4, 1, "player")]
    owned.import_csv(con, _table(text.rsplit("\n", 2)[0] + "\n", tmp_path), resolver, "alice")
    assert owned.counts(con, "bob") == {"ftcg-test-1": 2} and owned.counts(con, "alice") == {"ftcg-test-2": 1}


def test_list_shows_cards_the_catalog_lost(con, forum_catalog, tmp_path):
    from cardlab.collection.listing import list_owned, plain
    from cardlab.search.engine import open_index

    owned.change(con, "alice", [("add", "ftcg-test-1", 1), ("add", "gone-7", 2)])
    rows = list_owned(open_index([forum_catalog], tmp_path / "i.sqlite"), owned.counts(con, "alice"))
    assert [(r.card_id, r.copies, r.known) for r in rows] == [("ftcg-test-1", 1, True), ("gone-7", 2, False)]
    assert "(not in the catalog)" in plain(rows) and plain(rows).endswith("2 cards, 3 copies\n")


# --- kind: a card reference carrying a count, and a name with several printings -----------------

COUNTED = [  # text, (count as written, card text)
    ("2 Bill", ("2", "Bill")),
    ("2x Bill", ("2", "Bill")),
    ("2 x Bill", ("2", "Bill")),
    ("x2 Bill", ("2", "Bill")),
    ("Bill x2", ("2", "Bill")),
    ("Bill ×2", ("2", "Bill")),
    ("0 Bill", ("0", "Bill")),
    ("-1 Bill", ("-1", "Bill")),
    ("+3 Bill", ("+3", "Bill")),
    ("1.5 Bill", ("1.5", "Bill")),
    ("1,5 Bill", ("1,5", "Bill")),
    (".5 Bill", (".5", "Bill")),
    ("Bill x0.5", ("0.5", "Bill")),
    ("99999999999999999999999 Bill", ("99999999999999999999999", "Bill")),
    ("Bill", (None, "Bill")),
    ("BS 91", (None, "BS 91")),
    ("base1-91", (None, "base1-91")),
    ("Pikachu 58/102", (None, "Pikachu 58/102")),
]


@pytest.mark.parametrize(("text", "expected"), COUNTED)
def test_split_count_text(text, expected):
    """Kind: every count a deck line may carry is read as a count (never as part of a name), as
    written, so a collection can refuse 0, negative, fractional and huge counts."""
    from cardlab.collection.cards import split_count_text

    assert split_count_text(text) == expected


@pytest.fixture(scope="module")
def shipped_resolver():
    from cardlab.core.paths import shipped_catalog

    return CardResolver(load_catalog([shipped_catalog()]))


PRINTINGS = [  # reference, card id (None: refused), start of the message
    ("Dark Charizard", None, '"Dark Charizard" has 2 printings: base5 4 (base5-4), base5 21 (base5-21); a collection records one'),
    ("Charizard", None, '"Charizard" has 2 printings: base1 4 (base1-4), base4 4 (base4-4); a collection records one'),
    ("dracaufeu", None, '"dracaufeu" has 2 printings: base1 4 (base1-4), base4 4 (base4-4)'),
    ("Bill", None, '"Bill" has 2 printings: base1 91 (base1-91), base4 118 (base4-118)'),
    ("Dark Charizard base5 21", "base5-21", ""),
    ("TR 4", "base5-4", ""),
    ("base4-4", "base4-4", ""),
    ("Charizard BS 4", "base1-4", ""),
    ("Dark Charmeleon", "base5-32", ""),  # one printing: taken
    ("Electrode", None, '"Electrode" matches'),  # different cards: the deck matcher's ambiguity
    ("Gust of Wind", None, '"Gust of Wind" has 2 printings: base1 93 (base1-93), base4 120 (base4-120)'),
    ("Clefable", None, '"Clefable" has 3 printings: base2 1 (base2-1), base2 17 (base2-17), base4 5 (base4-5)'),
    ("Dark Dragonite", None, '"Dark Dragonite" has 2 printings: base5 5 (base5-5), base5 22 (base5-22)'),
]


@pytest.mark.parametrize(("ref", "card_id", "message"), PRINTINGS)
def test_a_collection_records_one_printing(shipped_resolver, ref, card_id, message):
    """Kind: a collection owns a printing; a name alone takes a card only when it has one printing,
    else it is refused with every printing as set and number (a deck line takes the first)."""
    found, got = shipped_resolver.resolve(ref)
    assert found == card_id
    assert got.startswith(message)


@pytest.mark.parametrize(
    ("count", "error"),
    [
        ("0", None),
        ("1", None),
        ("-1", owned.BadCountsError),
        ("1.5", owned.BadCountsError),
        ("x", owned.BadCountsError),
        ("9" * 5000, owned.BadCountsError),
    ],
)
def test_csv_counts_are_checked_as_the_text_form(con, resolver, count, error):
    """Kind: every collection input form reads counts one way: a negative, fractional, non-numeric
    or huge count in a CSV row is a usage error (exit 2), nothing written; 0 adds nothing."""
    table = parse_csv(f"card_id,count\nftcg-test-1,{count}\n", Path("c.csv"))
    if error is None:
        owned.import_csv(con, table, resolver, "alice")
        assert owned.counts(con, "alice") == ({"ftcg-test-1": 1} if count == "1" else {})
    else:
        with pytest.raises(error) as info:
            owned.import_csv(con, table, resolver, "alice")
        assert info.value.exit_code == 2
        assert [p.pos.line for p in info.value.problems] == [2]
        assert owned.counts(con, "alice") == {}


_CELLS = {
    "count": st.one_of(st.sampled_from(["0", "1", "4", "-1", "1.5", "x", "", " 2 ", "1000001", "9" * 30, "+3", "٣"]), st.text(max_size=4)),
    "card_id": st.one_of(st.sampled_from(["ftcg-test-1", "ftcg-test-12", "ftcg-test-99", "base1-4", ""]), st.text(max_size=6)),
    "name": st.one_of(st.sampled_from(["Lame errante", "lame errante", "Lame", "2 Lame errante", ""]), st.text(max_size=6)),
    "set": st.sampled_from(["ftcg-test", "FT", "xyz", ""]),
    "number": st.sampled_from(["1", "12", "99", "", "x"]),
    "player": st.one_of(st.sampled_from(["", "bob", "al\x07ice"]), st.text(max_size=4)),
}


@st.composite
def _collection_csv(draw):
    columns = draw(st.lists(st.sampled_from(sorted(_CELLS)), min_size=1, max_size=4, unique=True))
    rows = draw(st.lists(st.tuples(*(_CELLS[c] for c in columns)), max_size=5))
    return columns, rows


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_collection_csv())
def test_any_collection_csv_imports_or_is_refused_whole(con, resolver, case):
    """Kind: any collection CSV (columns, counts, names, players) is imported whole or refused with
    the project's own errors (usage: exit 2, unknown cards: exit 1), positioned, nothing written."""
    import csv
    import io

    columns, rows = case
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    writer.writerows(rows)
    before = owned.counts(con, "alice")
    try:
        table = parse_csv(out.getvalue(), Path("c.csv"))
        owned.import_csv(con, table, resolver, "alice")
    except (UsageError, DataError) as err:
        assert err.exit_code in (1, 2)
        assert owned.counts(con, "alice") == before
        if isinstance(err, owned.BadCountsError):
            assert any(p.rule == "count" for p in err.problems)
    except CardlabError as err:
        assert type(err).__name__ in ("InputError", "UnknownCardError")
        assert owned.counts(con, "alice") == before


def test_list_owned_reads_only_the_owned_rows_in_set_order(tmp_path, forum_catalog, monkeypatch):
    """More owned cards than one batch of ids (:data:`listing.OWNED_BATCH`, made 4): every one
    listed, in set and number order, ids the index lacks last."""
    from cardlab.collection import listing
    from cardlab.index.sqlite import build_index, connect

    monkeypatch.setattr(listing, "OWNED_BATCH", 4)
    build_index([forum_catalog], tmp_path / "i.sqlite")
    con = connect(tmp_path / "i.sqlite")
    owned = {f"ftcg-test-{n}": n for n in range(1, 26)} | {"lost-1": 1}
    rows = listing.list_owned(con, owned)
    assert [r.card_id for r in rows] == [f"ftcg-test-{n}" for n in range(1, 26)] + ["lost-1"]
    assert (rows[-1].known, rows[0].copies) == (False, 1)
    assert [r.card_id for r in listing.list_owned(con, {"ftcg-test-3": 1, "ftcg-test-2": 1}, "number>=3")] == ["ftcg-test-3"]
