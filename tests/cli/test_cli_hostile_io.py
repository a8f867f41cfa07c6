"""Issue 10, sections A, B, C and G on the command line: every example of the issue, with the exit
code the README promises and never a traceback."""

from __future__ import annotations

import errno
import os
import re
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from cardlab.cli.whole import app
from cardlab.core import paths
from cardlab.index import sqlite as index_mod
from tests.unit.i18n.test_strings import copy_base1

REPO = Path(__file__).resolve().parents[2]
CARD = REPO / "tests" / "fixtures" / "catalog" / "pokemon" / "test1" / "1-testmon.yaml"


def _clean(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def _search(runner, test_set, db, query="testmon"):
    return runner.invoke(app, ["search", query, "--catalog", str(test_set), "--db", str(db), "--format", "ids"])


# --- A. tracebacks on hostile input -----------------------------------------------------------


@pytest.mark.parametrize("query", ["t:\udcff", "\udcffpikachu", "name:\udce9"])
def test_search_with_invalid_utf8(query, runner, test_set, tmp_path):
    """Kind: text arguments that are not UTF-8 (lone surrogates reached SQLite): a usage error."""
    result = runner.invoke(app, ["search", query, "--catalog", str(test_set), "--db", str(tmp_path / "i.sqlite")])
    _clean(result)
    assert result.exit_code == 2 and "is not UTF-8 text" in result.stderr
    result = runner.invoke(app, ["show", query, "--catalog", str(test_set), "--db", str(tmp_path / "i.sqlite")])
    assert result.exit_code == 2 and "is not UTF-8 text" in result.stderr


CARD_CASES = [  # (old, new) in the fixture card, expected fragment; None: the file is valid
    (("hp: 60\n", "hp: 60\nnull: x\n"), "1-testmon.yaml:7:1: a key must be text, but 'null' is a YAML null"),
    (("hp: 60\n", "hp: 60\n? []\n: 1\n"), "1-testmon.yaml:7:3: a key must be text, not a list"),
    (("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {e,1}"), "1-testmon.yaml:3:10: a key must be text"),
    (("hp: 60", "hp: !!int x"), "1-testmon.yaml:6:5: !!int 'x' is not a YAML integer"),
    (("hp: 60", "hp: !!bool"), "1-testmon.yaml:6:5: !!bool '' is not a YAML boolean"),
    (("hp: 60", "hp: " + "[" * 250 + "]" * 250), "nested too deep"),
    (("hp: 60", "hp: " + "9" * 4000), "1-testmon.yaml:6:5: a number of 4,000 digits"),
    (("hp: 60\n", "hp: 60\t\ncolour: red\n"), "1-testmon.yaml:7:1: unknown field 'colour'"),
    (("fr: Testemon,", "fr: Testemon, no: Testmonen,"), None),
    (
        ("hp: 60", "hp: 1_00"),
        "1-testmon.yaml:6:5: '1_00': YAML 1.2 reads 1_00 as text (YAML 1.1 as a number); write 100, or quote it if it is text",
    ),
    (("hp: 60", "hp: yes"), '1-testmon.yaml:6:5: hp: expected an integer, found "yes" (text)'),
    (("hp: 60", "hp: true"), "1-testmon.yaml:6:5: hp: expected an integer, found true (a YAML boolean)"),
    (("illustrator: Nobody Real", "illustrator: 2000-01-01"), '(a YAML date): YAML reads this as a date; quote it: "2000-01-01"'),
]


@pytest.mark.parametrize(("change", "expected"), CARD_CASES)
def test_hostile_card_yaml(change, expected, runner, test_set):
    """Kind: hostile card YAML (the issue's examples): a positioned problem, exit 1; never a traceback."""
    path = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(test_set)])
    _clean(result)
    if expected is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1
    assert expected in result.stderr, result.stderr


def test_unquoted_release_date_gets_a_hint(runner, test_set):
    """Kind: dialect scalars: an unquoted date in a set manifest (release_date: 2000-01-01)."""
    path = test_set / "pokemon" / "test1" / "set.yaml"
    text = path.read_text(encoding="utf-8")
    m = re.search(r'release_date: "([0-9-]+)"', text)
    if m:
        text = text.replace(m.group(0), f"release_date: {m.group(1)}")
        value = m.group(1)
    else:
        text += "release_date: 2000-01-01\n"
        value = "2000-01-01"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(test_set)])
    _clean(result)
    assert result.exit_code == 1
    assert f'release_date: expected text, found {value} (a YAML date): YAML reads this as a date; quote it: "{value}"' in result.stderr


DECK_CASES = [
    ("main: [4 Pikachu]\nnull: x\n", "d.yaml:2:1: a key must be text"),
    ("main: [4 Pikachu]\n? []\n: 1\n", "d.yaml:2:3: a key must be text, not a list"),
    ("name: {e,1}\nmain: [4 Pikachu]\n", "d.yaml:1:10: a key must be text"),
    ("main: [{count: !!int x, name: Pikachu}]\n", "d.yaml:1:16: !!int 'x' is not a YAML integer"),
    ("main: [{count: !!bool, name: Pikachu}]\n", "d.yaml:1:16: !!bool '' is not a YAML boolean"),
    ("main: " + "[" * 250 + "]" * 250 + "\n", "nested too deep"),
    ("main: [{count: " + "9" * 4000 + ", name: Pikachu}]\n", "a number of 4,000 digits"),
]


@pytest.mark.parametrize(("text", "expected"), DECK_CASES)
def test_hostile_yaml_deck(text, expected, runner, tmp_path):
    """Kind: hostile deck YAML: an input error with its position, exit 2; never a traceback."""
    path = tmp_path / "d.yaml"
    path.write_text(text, encoding="utf-8")
    for command in ("validate", "stats", "list"):
        result = runner.invoke(app, ["deck", command, str(path), "-f", "pokemon-base"])
        _clean(result)
        assert result.exit_code == 2 and expected in result.stderr, (command, result.stderr)


def test_yaml_deck_float_count(runner, tmp_path):
    """Kind: JSON Schema's 4.0-is-an-integer: `count: 4.0` is a schema problem; deck stats does not crash."""
    path = tmp_path / "d.yaml"
    path.write_text("format: pokemon-base\nmain:\n  - {count: 4.0, name: Pikachu}\n  - 56 Fire Energy\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path)])
    _clean(result)
    assert (
        result.exit_code == 1
        and "d.yaml:3:13: schema: main.0.count: expected an integer, found 4.0 (a YAML number)" in result.stdout + result.stderr
    )
    result = runner.invoke(app, ["deck", "stats", str(path)])
    _clean(result)
    assert "56" in result.stdout


@pytest.mark.parametrize("line", ["9" * 5000 + " Pikachu", "Pikachu x" + "9" * 5000, "Pokémon: " + "9" * 5000])
def test_deck_counts_of_5000_digits(line, runner, tmp_path):
    """Kind: numbers beyond Python's int-conversion limit in deck counts and header totals."""
    path = tmp_path / "d.txt"
    path.write_text(f"{line}\n4 Pikachu\n56 Fire Energy\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path), "-f", "pokemon-base"])
    _clean(result)
    assert result.exit_code == 1 and "d.txt:1:" in result.stdout + result.stderr


def _fifo(path: Path) -> Path:
    os.mkfifo(path)

    def feed():
        try:
            with open(path, "wb") as fh:
                while True:
                    fh.write(b"4 Pikachu\n" * 10000)
        except OSError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    return path


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_special_files_as_inputs(special, runner, tmp_path, test_set):
    """Kind: reading without limit: /dev/zero or an endless FIFO as a deck, PO or catalog file is
    refused after the size limit + 1 byte (exit 2; a catalog file is a problem, exit 1)."""

    def source(name):
        return special if special == "/dev/zero" else str(_fifo(tmp_path / name))

    result = runner.invoke(app, ["deck", "validate", source("deck.txt"), "-f", "pokemon-base"])
    _clean(result)
    assert result.exit_code == 2 and "more than 1,000,000 bytes" in result.stderr
    result = runner.invoke(app, ["i18n", "import", source("fr.po"), "--lang", "fr", "--catalog", str(test_set), "--dry-run"])
    _clean(result)
    assert result.exit_code == 2 and "more than 50,000,000 bytes" in result.stderr
    card = test_set / "pokemon" / "test1" / "5-x.yaml"
    if special == "/dev/zero":
        card.symlink_to("/dev/zero")
    else:
        _fifo(card)
    result = runner.invoke(app, ["validate", str(test_set)])
    _clean(result)
    assert result.exit_code == 1 and "5-x.yaml:1:1: file is more than 1,000,000 bytes" in result.stderr


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_index_write_failure_uses_the_existing_index(code, runner, test_set, tmp_path, monkeypatch):
    """Kind: index writes that fail (full disk, read-only folder): the existing index is used with
    a warning, as README promises; with no index, a clear error (exit 1)."""
    db = tmp_path / "i.sqlite"
    assert _search(runner, test_set, db).exit_code == 0

    def fail(*_args, **_kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(index_mod, "_write", fail)
    card = test_set / "pokemon" / "test1" / "4-test-gadget.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("Test Gadget", "Test Widget"), encoding="utf-8")
    result = _search(runner, test_set, db)
    _clean(result)
    assert result.exit_code == 0 and result.stdout.split() == ["test1-1", "test1-2"]
    assert os.strerror(code) in result.stderr and "searching the previous index" in result.stderr
    result = _search(runner, test_set, tmp_path / "new.sqlite")
    _clean(result)
    assert result.exit_code == 1 and f"cannot write the search index {tmp_path / 'new.sqlite'}: {os.strerror(code)}" in result.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty-tables", "pages"])
def test_damaged_index_in_own_cache_is_rebuilt(damage, runner, test_set, tmp_path, monkeypatch):
    """Kind: a damaged index file: in cardlab's own cache dir it is rebuilt; elsewhere it is never replaced."""
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    args = ["search", "testmon", "--catalog", str(test_set), "--format", "ids"]
    assert runner.invoke(app, args).exit_code == 0
    [db] = (tmp_path / "cache").glob("index-*.sqlite")
    data = db.read_bytes()
    if damage == "garbage":
        db.write_bytes(b"\x00garbage" * 100)
    elif damage == "truncated":
        db.write_bytes(data[: len(data) // 2])
    elif damage == "pages":  # the header and the meta table intact, later pages overwritten
        db.write_bytes(data[: 4096 * 2] + b"\xde\xad" * ((len(data) - 4096 * 2) // 2) + data[len(data) - (len(data) - 4096 * 2) % 2 :])
        assert len(db.read_bytes()) == len(data)
    else:
        con = sqlite3.connect(db)
        con.execute("DELETE FROM meta")
        con.commit()
        con.close()
    result = runner.invoke(app, args)
    _clean(result)
    assert result.exit_code == 0 and result.stdout.split() == ["test1-1", "test1-2"], result.output
    # the same damage in a file named with --db is never replaced
    other = tmp_path / "mine.sqlite"
    other.write_bytes(data[: len(data) // 2])
    result = runner.invoke(app, [*args, "--db", str(other)])
    assert result.exit_code == 2 and "is not a cardlab index" in result.stderr
    assert other.read_bytes() == data[: len(data) // 2]


def test_leftover_journal_files_are_cleaned(test_set, tmp_path):
    """Kind: leftovers of killed builds: the temporary file and its -journal (whose name the
    cleanup misread) are removed when their process is gone; a live build's are kept."""
    db = tmp_path / "i.sqlite"
    dead = 2**22 + 7  # above Linux's pid_max: no such process
    stale = [tmp_path / f".i.sqlite.tmp-{dead}", tmp_path / f".i.sqlite.tmp-{dead}-journal", tmp_path / f".i.sqlite.tmp-{dead}-wal"]
    live = tmp_path / f".i.sqlite.tmp-{os.getppid()}-journal"
    for p in [*stale, live]:
        p.write_bytes(b"half")
    index_mod.build_index([test_set], db)
    assert [p for p in stale if p.exists()] == []
    assert live.exists()


def _same_size_edit(path: Path, old: str, new: str) -> None:
    """Edit a file keeping its size and modification time (as cp -p or rsync -t leave it)."""
    assert len(old.encode()) == len(new.encode())
    st = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns and path.stat().st_size == st.st_size


def test_same_size_edit_keeping_mtime_is_noticed(runner, test_set, tmp_path, monkeypatch):
    """Kind: change detection by size and mtime only: a same-size edit that keeps the mtime is
    seen by the validation cache and the index (ctime and inode; a file changed within the file
    system's time tick is checked again, as git does for "racy" files)."""
    from cardlab.core import stamps

    monkeypatch.setattr(stamps, "RACY_NS", 2_000_000_000)
    card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    assert runner.invoke(app, ["validate", str(test_set)]).exit_code == 0
    _same_size_edit(card, "hp: 60", "hp: 6x")
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1 and "1-testmon.yaml:6:5: hp: expected an integer" in result.stderr
    _same_size_edit(card, "hp: 6x", "hp: 60")
    db = tmp_path / "i.sqlite"
    assert _search(runner, test_set, db, "testmon").stdout.split() == ["test1-1", "test1-2"]
    assert _search(runner, test_set, db, "attack:zest").stdout.split() == []
    _same_size_edit(card, "en: Test Flame,", "en: Zest Flame,")
    assert _search(runner, test_set, db, "attack:zest").stdout.split() == ["test1-1"]


def test_same_size_replacement_by_rename_is_noticed(test_set, tmp_path):
    """Kind: change detection: a file replaced by another of the same size and mtime (rsync -t
    renames a new file into place) has a new inode."""
    from cardlab.index.sqlite import fingerprint

    card = test_set / "pokemon" / "test1" / "1-testmon.yaml"
    before = fingerprint([test_set])
    st = card.stat()
    new = tmp_path / "new.yaml"
    new.write_text(card.read_text(encoding="utf-8").replace("hp: 60", "hp: 70"), encoding="utf-8")
    os.utime(new, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(new, card)
    assert fingerprint([test_set]) != before


# --- G. files and caches ----------------------------------------------------------------------


def test_i18n_import_refuses_the_installed_package(runner, tmp_path, monkeypatch):
    """Kind: writing into an installed package: i18n import refuses it as card new does."""
    shipped = tmp_path / "site-packages" / "cardlab" / "_data" / "cards"
    shutil.copytree(copy_base1(tmp_path / "untranslated") / "pokemon" / "base1", shipped / "pokemon" / "base1")
    monkeypatch.setattr(paths, "shipped_catalog_folder", lambda: str(shipped))
    po_path = tmp_path / "fr.po"
    assert runner.invoke(app, ["i18n", "export", "--lang", "fr", "-o", str(po_path)]).exit_code == 0
    text = po_path.read_text(encoding="utf-8")
    i = text.index('msgctxt "base1-88 text"')
    j = text.index('msgstr ""', i)
    po_path.write_text(text[:j] + 'msgstr "Défaussez votre main."' + text[j + len('msgstr ""') :], encoding="utf-8")
    before = {p: p.read_bytes() for p in shipped.rglob("*.yaml")}
    result = runner.invoke(app, ["i18n", "import", str(po_path)])
    _clean(result)
    assert result.exit_code == 2 and "installed with the cardlab package" in result.stderr
    assert {p: p.read_bytes() for p in shipped.rglob("*.yaml")} == before
    result = runner.invoke(app, ["i18n", "import", str(po_path), "--dry-run"])
    assert result.exit_code == 0 and "Défaussez votre main." in result.stdout


@pytest.mark.parametrize("value", [":", "::", " : ", ""])
def test_empty_catalog_env_does_not_scan_the_current_folder(value, runner, tmp_path, monkeypatch):
    """Kind: an environment list that names nothing is not the current folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stray.yaml").write_text("a: 1\n", encoding="utf-8")
    monkeypatch.setenv("CARDLAB_CATALOG", value)
    result = runner.invoke(app, ["validate"])
    _clean(result)
    if not value:  # unset-like: the shipped cards
        assert result.exit_code == 0 and "stray.yaml" not in result.output
        return
    assert result.exit_code == 2 and "CARDLAB_CATALOG names no folder" in result.stderr


def test_config_problems_on_the_command_line(runner, tmp_path, monkeypatch):
    """Kind: config settings ignored silently: unknown keys and a missing CARDLAB_CONFIG file are
    reported (exit 2) by any command that reads the languages."""
    monkeypatch.setenv("CARDLAB_CONFIG", str(tmp_path / "absent.toml"))
    result = runner.invoke(app, ["search", "pikachu", "--format", "ids"])
    assert result.exit_code == 2 and "CARDLAB_CONFIG names this config file, which does not exist" in result.stderr
    cfg = tmp_path / "config.toml"
    cfg.write_text('languages = ["fr"]\nlanguage = "de"\n', encoding="utf-8")
    monkeypatch.setenv("CARDLAB_CONFIG", str(cfg))
    result = runner.invoke(app, ["search", "pikachu", "--format", "ids"])
    assert result.exit_code == 2 and f"{cfg}:2:1: unknown setting 'language'; did you mean 'languages'?" in result.stderr


def test_cache_folder_that_cannot_be_created(runner, test_set, tmp_path, monkeypatch):
    """Kind: cache writes that fail: a cache folder that cannot be created (a file in the way)
    leaves validation uncached and the index says why it cannot be written (exit 2); never a traceback."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(blocker / "cache"))
    result = runner.invoke(app, ["validate", str(test_set)])
    _clean(result)
    assert result.exit_code == 0
    result = runner.invoke(app, ["search", "testmon", "--catalog", str(test_set)])
    _clean(result)
    assert result.exit_code == 2 and "cardlab's cache folder cannot be created" in result.stderr


def test_damaged_validation_cache_is_started_again(runner, test_set, tmp_path, monkeypatch):
    """Kind: a damaged cache file in cardlab's own cache dir: the validation cache is started
    again (a damaged row is checked again), never a traceback or a cache left unused."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(cache))
    assert runner.invoke(app, ["validate", str(test_set)]).exit_code == 0
    (db,) = cache.glob("validate-*.sqlite")  # the one catalog validated: one cache file
    con = sqlite3.connect(db)
    con.execute("UPDATE files4 SET data = x'00ff'")
    con.commit()
    con.close()
    result = runner.invoke(app, ["validate", str(test_set)])
    _clean(result)
    assert result.exit_code == 0
    db.write_bytes(b"not a database " * 100)
    result = runner.invoke(app, ["validate", str(test_set)])
    _clean(result)
    assert result.exit_code == 0
    assert sqlite3.connect(db).execute("SELECT count(*) FROM files4").fetchone()[0] == 5


@pytest.mark.parametrize("where", ["rename", "sqlite-full", "temp-file"])
def test_full_disk_at_each_step_of_a_rebuild_keeps_the_old_index(where, runner, test_set, tmp_path, monkeypatch):
    """Issue 33: a full disk (ENOSPC) at any step of an index rebuild, not only before the write:
    the rename into place, SQLite's own "database or disk is full", the temporary file's creation.
    The old index answers, with a warning naming the cause; no temporary file is left."""
    db = tmp_path / "i.sqlite"
    assert _search(runner, test_set, db).exit_code == 0
    before = db.read_bytes()
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if where == "rename":

        def replace(*_args, **_kwargs):
            raise full

        monkeypatch.setattr(index_mod.os, "replace", replace)
    elif where == "sqlite-full":
        real_write = index_mod._write

        def write(cat, path, *args, **kwargs):
            real_write(cat, path, *args, **kwargs)
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(index_mod, "_write", write)
    else:

        def clean(*_args, **_kwargs):
            raise full

        monkeypatch.setattr(index_mod, "_clean_stale_temp", clean)
    card = test_set / "pokemon" / "test1" / "4-test-gadget.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("Test Gadget", "Test Widget"), encoding="utf-8")
    result = _search(runner, test_set, db)
    _clean(result)
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == ["test1-1", "test1-2"]
    assert "searching the previous index" in result.stderr
    reason = "database or disk is full" if where == "sqlite-full" else os.strerror(errno.ENOSPC)
    assert reason in result.stderr
    assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_control_characters_in_a_query_caret_are_escaped(runner, test_set, tmp_path):
    """Issue 33: a terminal escape typed in a query was echoed raw on the caret line."""
    result = runner.invoke(app, ["search", "name:\x1b[2Jx", "--catalog", str(test_set), "--db", str(tmp_path / "i.sqlite")])
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr
    assert result.stderr.splitlines()[-2:] == ["name:\\x1b[2Jx", "     ^"]


@pytest.fixture
def giant_number_catalog(tmp_path) -> Path:
    """The Ippo test set and formats with one card holding a 5,000-digit hexadecimal number."""
    root = tmp_path / "catalog"
    shutil.copytree(REPO / "tests" / "fixtures" / "catalog" / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    shutil.copytree(REPO / "cards" / "ippo" / "formats", root / "ippo" / "formats")
    card = root / "ippo" / "ippo-test" / "1-test-jab.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("blow_power: 2", "blow_power: 0x" + "f" * 5000), encoding="utf-8")
    return root


GIANT = "1-test-jab.yaml:9:13: a number of 5,002 digits (at most 1,000); quote it if it is text"


def test_one_bad_card_file_does_not_stop_the_others(runner, giant_number_catalog, tmp_path):
    """Issue 33: a card file with a giant number ended search, show, index and deck validate in a
    traceback, and with no older index no search answered at all. Now the other cards are indexed
    and each command warns with the file's position."""
    roots = ["--catalog", str(giant_number_catalog), "--db", str(tmp_path / "i.sqlite")]
    found = runner.invoke(app, ["search", "kind:blow", "-O", "ids", *roots])
    assert found.exit_code == 0, found.output
    assert found.stdout.split() == ["ippo-test-2", "ippo-test-3", "ippo-test-4", "ippo-test-5", "ippo-test-6"]
    assert GIANT in found.stderr and "searching the other cards" in found.stderr
    again = runner.invoke(app, ["search", "kind:blow", "-O", "ids", *roots])  # the warning stays until the file is fixed
    assert again.exit_code == 0 and GIANT in again.stderr
    shown = runner.invoke(app, ["show", "ippo-test-3", *roots])
    assert shown.exit_code == 0 and "Test Hook" in shown.stdout
    indexed = runner.invoke(app, ["index", *roots])
    assert indexed.exit_code == 1 and GIANT in indexed.stderr and "Traceback" not in indexed.output
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Test Hook\n", encoding="utf-8")
    checked = runner.invoke(app, ["deck", "validate", str(deck), "-f", "ippo-4-rounds", *roots[:2]])
    assert checked.exit_code == 1
    assert "deck-size: the deck holds 4 cards; exactly 40 needed" in checked.stdout + checked.stderr
    assert "a number of 5,002 digits" in checked.stderr
