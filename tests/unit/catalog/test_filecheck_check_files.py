"""cardlab.catalog.filecheck.check_files: the values that survivors of the sixth mutation run changed
(issue 16): the process pool's answer equal to the serial one, and what a set manifest gives the cards
beside it (its game, its source language) when it is not a map, names no game or no language."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cardlab.catalog import filecheck
from cardlab.catalog.filecheck import check_files, check_text
from cardlab.catalog.model import SourceFile, scan

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "catalog"
TEST1 = FIXTURES / "pokemon" / "test1"
SET = (TEST1 / "set.yaml").read_text(encoding="utf-8")
CARD = (TEST1 / "1-testmon.yaml").read_text(encoding="utf-8")


def _found(problems) -> list[tuple]:
    return [(p.pos.path.name, p.pos.line, p.pos.col, p.rule, p.message) for p in problems]


def test_the_process_pool_answers_as_the_serial_check(tmp_path, monkeypatch):
    """From ``PARALLEL_THRESHOLD`` files to read on (exactly), one pool of ``os.cpu_count()`` forked
    workers checks them; the data and the problems (in order) are those of the serial check, card
    schemas chosen by each set's game. Fewer files (the set manifests here) are checked in-process."""
    import concurrent.futures

    root = tmp_path / "cards"
    shutil.copytree(FIXTURES, root)
    odd = root / "pokemon" / "test1" / "9-jab.yaml"  # an Ippo card in a Pokémon set: schema problems
    odd.write_bytes((FIXTURES / "ippo" / "ippo-test" / "1-test-jab.yaml").read_bytes())
    files = scan([root])
    cards = [f for f in files if f.kind != "set"]
    serial = check_files(files, cache_path=None)
    pools: list[int | None] = []
    mapped: list[int] = []

    class Recording(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

        def map(self, fn, *iterables, **kwargs):
            jobs = list(iterables[0])
            mapped.append(len(jobs))
            return super().map(fn, jobs, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(filecheck, "PARALLEL_THRESHOLD", len(cards))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pooled = check_files(files, cache_path=None)
    assert (pools, mapped) == ([2], [len(cards)])
    assert pooled[2] == serial[2] == len(files)
    assert pooled[0] == serial[0]
    assert _found(pooled[1]) == _found(serial[1])
    assert ("9-jab.yaml", 4, 1, "schema", "unknown field 'kind'") in _found(pooled[1])


def _check(tmp_path: Path, set_text: str, card_text: str) -> tuple[dict, list[tuple]]:
    folder = tmp_path / "pokemon" / "test1"
    folder.mkdir(parents=True)
    (folder / "set.yaml").write_text(set_text, encoding="utf-8")
    (folder / "1-testmon.yaml").write_text(card_text, encoding="utf-8")
    files = [SourceFile(folder / "set.yaml", "set", "pokemon", folder), SourceFile(folder / "1-testmon.yaml", "card", "pokemon", folder)]
    data, problems, reread = check_files(files, cache_path=None)
    assert reread == 2
    return {p.name: d for p, d in data.items()}, _found(problems)


def test_a_manifest_that_is_not_a_map_leaves_the_cards_to_their_folder(tmp_path):
    """A set manifest that is a list: its own problem, and the card beside it is checked as its
    folder's game, against English (no crash reading the list as a map)."""
    data, problems = _check(tmp_path, "- a\n- b\n", CARD)
    assert data["set.yaml"] is None
    assert data["1-testmon.yaml"]["id"] == "test1-1"
    assert problems == [("set.yaml", 1, 1, "schema", 'expected a map of fields (name: value), found ["a", "b"] (a list)')]


def test_a_manifest_whose_game_is_no_text_leaves_the_cards_to_their_folder(tmp_path):
    """``game: 5``: the manifest's problem, and the Ippo card beside it is checked as a Pokémon card
    (its folder's game): its Ippo fields and the missing Pokémon fields, each problem once (the four
    fields a Pokémon needs are four schema errors of one message)."""
    ippo_card = (FIXTURES / "ippo" / "ippo-test" / "1-test-jab.yaml").read_text(encoding="utf-8")
    _data, problems = _check(tmp_path, SET.replace("game: pokemon", "game: 5"), ippo_card)
    assert problems == [
        ("set.yaml", 3, 7, "schema", 'game: 5 (a YAML integer) is not one of "forumtcg", "ippo", "monpa", "pokemon"'),
        ("1-testmon.yaml", 4, 1, "schema", "unknown field 'kind'"),
        ("1-testmon.yaml", 5, 1, "schema", "unknown field 'stars'"),
        ("1-testmon.yaml", 6, 1, "schema", "unknown field 'blow_type'"),
        ("1-testmon.yaml", 7, 1, "schema", "unknown field 'start_cost'"),
        ("1-testmon.yaml", 9, 1, "schema", "unknown field 'blow_power'"),
        ("1-testmon.yaml", 1, 1, "schema", "missing field 'supertype'"),
        ("1-testmon.yaml", 1, 1, "schema", "missing fields 'stage', 'hp', 'types', 'attacks'"),
    ]


@pytest.mark.parametrize(
    ("set_text", "card_text", "problems"),
    [
        # no source_language in the manifest: English, which the card's name lacks
        (
            SET.replace("source_language: en\n", ""),
            CARD.replace("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {fr: Testemon}"),
            [
                ("set.yaml", 2, 1, "schema", "missing field 'source_language'"),
                ("1-testmon.yaml", 3, 7, "source-language", "missing the source language 'en'"),
            ],
        ),
        # a card written in French only, its set's language English: each map is reported
        (
            SET,
            CARD.replace("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {fr: Testemon}")
            .replace("name: {en: Test Flame, fr: Flamme de test}", "name: {fr: Flamme de test}")
            .replace('text: {en: "Flip a coin; on tails, no damage."}', 'text: {fr: "Pile ou face."}'),
            [
                ("1-testmon.yaml", 3, 7, "source-language", "missing the source language 'en'"),
                ("1-testmon.yaml", 9, 11, "source-language", "missing the source language 'en'"),
                ("1-testmon.yaml", 12, 11, "source-language", "missing the source language 'en'"),
            ],
        ),
        # source_language: fr, a card written in French only: nothing missing
        (
            SET.replace("source_language: en", "source_language: fr"),
            CARD.replace("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {fr: Testemon}")
            .replace("name: {en: Test Flame, fr: Flamme de test}", "name: {fr: Flamme de test}")
            .replace('text: {en: "Flip a coin; on tails, no damage."}', 'text: {fr: "Pile ou face."}'),
            [],
        ),
    ],
)
def test_the_cards_source_language_is_their_sets(tmp_path, set_text, card_text, problems):
    """Each card must hold its set's source language (English when the manifest names none)."""
    assert _check(tmp_path, set_text, card_text)[1] == problems


@pytest.mark.parametrize("cpus", [1, None])
def test_one_cpu_or_an_unknown_count_checks_in_process(tmp_path, monkeypatch, cpus):
    """``os.cpu_count()`` of 1, or None (unknown): no pool, however many files."""
    import concurrent.futures

    root = tmp_path / "cards"
    shutil.copytree(FIXTURES / "pokemon", root / "pokemon")
    files = scan([root])
    pools: list[int | None] = []

    class Recording(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(filecheck, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: cpus)
    data, problems, reread = check_files(files, cache_path=None)
    assert (pools, problems, reread, len(data)) == ([], [], len(files), len(files))


def test_cache_that_cannot_be_opened_is_no_cache(tmp_path):
    """A cache path that is a folder: no cache (nothing read, nothing stored), no error."""
    cache = filecheck._Cache(tmp_path)
    assert (cache.db, cache.get_many(["a"]), cache.put([("a", "s", "f", b"", "[]", b"")])) == (None, {}, 0)


def test_a_damaged_file_that_is_not_cardlabs_cache_is_left_alone(tmp_path, monkeypatch):
    """Only cardlab's own cache files (``validate-*.sqlite`` in the cache folder) are replaced when
    damaged; any other file is not touched, and no cache is used."""
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    mine = tmp_path / "mine.sqlite"
    mine.write_bytes(b"not a database, " * 512)
    cache = filecheck._Cache(mine)
    assert (cache.db, mine.read_bytes()) == (None, b"not a database, " * 512)


def _rows(*paths: str) -> list[tuple]:
    return [(p, f"stamp-{p}", "fp", f"data-{p}".encode(), "[]", f"summary-{p}".encode()) for p in paths]


def test_cache_get_many_whole_data_by_default_and_any_number_of_paths(tmp_path):
    """``get_many`` gives ``(stamp, fp, data, problems)`` (the summary when ``full=False``) of the
    paths asked, however many: 1, past 500 (read 500 at a time) and past 5,000 (one scan)."""
    cache = filecheck._Cache(tmp_path / "c.sqlite")
    cache.put(_rows("/c/a.yaml", "/c/b.yaml"))
    assert cache.get_many(["/c/a.yaml"]) == {"/c/a.yaml": ("stamp-/c/a.yaml", "fp", b"data-/c/a.yaml", "[]")}
    assert cache.get_many(["/c/a.yaml"], full=False) == {"/c/a.yaml": ("stamp-/c/a.yaml", "fp", b"summary-/c/a.yaml", "[]")}
    for n in (501, 1200, 5001):
        asked = [f"/other/{i}.yaml" for i in range(n - 1)]
        asked.insert(500 if n == 501 else n - 1, "/c/b.yaml")
        assert cache.get_many(asked) == {"/c/b.yaml": ("stamp-/c/b.yaml", "fp", b"data-/c/b.yaml", "[]")}, n


def test_cache_put_deletes_the_rows_of_files_gone_and_counts_them(tmp_path):
    """``put`` returns how many rows it deleted: none without ``current`` or prefixes, none while the
    cache holds no more rows than ``current`` has paths; else the rows under the prefixes that are
    not current (another catalog's rows stay)."""
    cache = filecheck._Cache(tmp_path / "c.sqlite")
    assert cache.put(_rows("/c/a.yaml", "/c/b.yaml", "/d/x.yaml")) == 0
    assert cache.put([], None, ("/c/",)) == 0
    assert cache.put([], {"/c/a.yaml"}, ()) == 0
    assert cache.put([], {"/c/a.yaml", "/c/new.yaml", "/d/x.yaml"}, ("/c/",)) == 0  # 3 rows, 3 current paths: not listed
    assert cache.put([], {"/c/a.yaml"}, ("/c/",)) == 1
    assert sorted(cache.get_many(["/c/a.yaml", "/c/b.yaml", "/d/x.yaml"])) == ["/c/a.yaml", "/d/x.yaml"]
    cache.db.close()  # an error of the cache: nothing deleted, no error
    assert cache.put([], {"/c/a.yaml"}, ("/c/",)) == 0


def test_check_files_drops_the_rows_of_its_own_files_gone_only(tmp_path, monkeypatch):
    """A cache shared by ``cards`` and ``cards2``: checking ``cards`` keeps every row of ``cards2``
    (its prefix ends with the separator); a file gone from a catalog named by a relative path loses
    its row."""
    import sqlite3

    for name in ("cards", "cards2"):
        shutil.copytree(FIXTURES / "pokemon", tmp_path / name / "pokemon")
    monkeypatch.chdir(tmp_path)
    shared = tmp_path / "shared.sqlite"
    first, second = [Path("cards")], [Path("cards2")]
    assert check_files(scan(second), cache_path=shared, roots=second)[2] == len(scan(second))
    assert check_files(scan(first), cache_path=shared, roots=first)[2] == len(scan(first))
    assert check_files(scan(second), cache_path=shared, roots=second)[2] == 0
    gone = Path("cards") / "pokemon" / "test1" / "1-testmon.yaml"
    gone.unlink()
    check_files(scan(first), cache_path=shared, roots=first)
    with sqlite3.connect(shared) as db:
        stored = {p for (p,) in db.execute("SELECT path FROM files4")}
    assert str(gone) not in stored
    assert stored == {str(f.path) for f in scan(first) + scan(second)}


def test_check_files_named_through_a_symlink_drops_the_rows_stored_under_the_real_path(tmp_path):
    """A catalog checked under its real path, then through a symlink to it: the rows of the real
    paths are another spelling of the same files, dropped (the resolved root, ending with the
    separator, is a prefix too); the rows of ``real2`` beside it stay."""
    import sqlite3

    real, real2 = tmp_path / "real", tmp_path / "real2"
    for root in (real, real2):
        shutil.copytree(FIXTURES / "pokemon", root / "pokemon")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    shared = tmp_path / "shared.sqlite"
    check_files(scan([real2]), cache_path=shared, roots=[real2])
    check_files(scan([real]), cache_path=shared, roots=[real])
    check_files(scan([link]), cache_path=shared, roots=[link])
    with sqlite3.connect(shared) as db:
        stored = {p for (p,) in db.execute("SELECT path FROM files4")}
    assert stored == {str(f.path) for f in scan([link]) + scan([real2])}


ENERGY = (TEST1 / "3-test-fire-energy.yaml").read_text(encoding="utf-8")
X = Path("x.yaml")


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("id: [\n", [(2, 1, "yaml", "YAML syntax: did not find expected node content")]),
        ("- a\n", [(1, 1, "schema", 'expected a map of fields (name: value), found ["a"] (a list)')]),
        (CARD + "zorb: 1\n", [(17, 1, "schema", "unknown field 'zorb'")]),
        (
            CARD.replace("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {fr: Testemon}"),
            [(3, 7, "source-language", "missing the source language 'en'")],
        ),
        # a value that fits none of the choices (anyOf): the closest choice's words
        (
            ENERGY.replace("provides: [Fire]", "provides: [Bogus]"),
            [
                (
                    6,
                    12,
                    "schema",
                    'provides.0: "Bogus" is not one of "Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Darkness", "Metal", "Colorless"',
                )
            ],
        ),
        # a top-level field of the wrong type does not hide the fields a Pokémon needs
        (
            CARD.replace("hp: 60", "hp: sixty").replace("stage: Basic\n", ""),
            [(5, 5, "schema", 'hp: expected an integer, found "sixty" (text)'), (1, 1, "schema", "missing field 'stage'")],
        ),
        # an unknown field and a missing one: both
        (
            CARD.replace("stage: Basic\n", "") + "zorb: 1\n",
            [(16, 1, "schema", "unknown field 'zorb'"), (1, 1, "schema", "missing field 'stage'")],
        ),
        # a supertype outside its list: that field only, not the branches that depend on it...
        (
            CARD.replace("supertype: Pokémon", "supertype: Pokemon") + "reprint_of: base1-4\n",
            [(4, 12, "schema", 'supertype: "Pokemon" is not one of "Pokémon", "Trainer", "Energy"')],
        ),
        # ... but the problems after those branches still
        (
            CARD.replace("supertype: Pokémon", "supertype: Pokemon") + "zorb: 1\n",
            [
                (4, 12, "schema", 'supertype: "Pokemon" is not one of "Pokémon", "Trainer", "Energy"'),
                (17, 1, "schema", "unknown field 'zorb'"),
            ],
        ),
    ],
)
def test_check_text_problems_in_the_file_given(text, problems):
    """``check_text`` on a card's text: each problem at its place in the file named, in order."""
    _data, found = check_text(X, text, "card", "pokemon", "en")
    assert [p.pos.path for p in found] == [X] * len(problems)
    assert [(p.pos.line, p.pos.col, p.rule, p.message) for p in found] == problems


def test_a_new_wording_of_the_problems_is_never_served_from_an_older_cache(tmp_path, monkeypatch):
    """The cache is keyed by the schemas' text and the problems' wording: after an upgrade that words
    a problem anew (issue 33: a card without kind), the files are checked again, not read from the cache."""
    from cardlab.catalog import filecheck

    shutil.copytree(FIXTURES / "pokemon", tmp_path / "cards" / "pokemon")
    roots = [tmp_path / "cards"]
    cache = tmp_path / "cache.sqlite"
    assert check_files(scan(roots), cache_path=cache, roots=roots)[2] == len(scan(roots))
    assert check_files(scan(roots), cache_path=cache, roots=roots)[2] == 0
    monkeypatch.setattr(filecheck, "MESSAGES_VERSION", filecheck.MESSAGES_VERSION + "-next")
    assert check_files(scan(roots), cache_path=cache, roots=roots)[2] == len(scan(roots))
