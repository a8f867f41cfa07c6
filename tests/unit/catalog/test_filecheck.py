"""cardlab.catalog.filecheck value by value (issue 16): per-file problems with their positions, the
per-file cache (the wording of each schema error is tests/unit/core/test_schema_words.py's)."""

from __future__ import annotations

import datetime
import pickle
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardlab.catalog.filecheck import (
    _allowed_keys,
    _Cache,
    _own_cache_file,
    _plain_json,
    cached_data,
    check_text,
    store_run,
)
from cardlab.catalog.freshness import cached_run, catalog_key, validation_cache
from cardlab.core.errors import Problem, SourcePos


def test_plain_json():
    """Only text, integers, null, lists and maps are plain JSON."""
    assert _plain_json({"a": [1, "x", None, {"b": 2}]}) is True
    assert _plain_json({"a": [1.0]}) is False
    assert _plain_json({"a": {"b": datetime.date(2000, 1, 1)}}) is False
    assert _plain_json(True) is True  # a bool is an int


def _problems(text: str, kind: str = "card", game: str = "pokemon", src: str | None = None) -> list[tuple]:
    _data, problems = check_text(Path("zorb.yaml"), text, kind, game, src)
    return [(p.pos.line, p.pos.col, p.rule, p.message) for p in problems]


def test_top_level_not_a_map():
    """A file that is not a map of fields: one problem at 1:1 naming what was found."""
    assert _problems("- 1\n") == [(1, 1, "schema", "expected a map of fields (name: value), found [1] (a list)")]
    assert _problems("zorb\n") == [(1, 1, "schema", 'expected a map of fields (name: value), found "zorb" (text)')]


def test_yaml_syntax_error_is_the_only_problem():
    """Unparsable YAML: its own problem, no data."""
    data, problems = check_text(Path("zorb.yaml"), "a: [\n", "card", "pokemon")
    assert data is None
    assert [(p.pos.line, p.rule) for p in problems] == [(2, "yaml")]


def test_unknown_game_schema_is_left_to_the_set_check():
    """A card of a game without a schema gets no problem here (the set's own check reports it)."""
    assert _problems("id: zz1-1\n", game="zorbgame") == []


ZORB_CARD = """id: zz1-2
number: "2"
name: {en: Zorblax, ja: ゾルブラックス}
supertype: Pokémon
stage: Stage 1
hp: 90
types: [Fire]
evolves_from: Zorb
pokemon_power:
  name: {en: Zorb Aura}
  text: {en: Once during your turn you may draw a card.}
attacks:
  - name: {en: Double Zorb}
    cost: [Fire, Fire, Colorless]
    damage: "20×"
    text: {en: Flip 2 coins; 20 damage for each heads.}
resistances: [{type: Psychic, value: "-30"}]
retreat_cost: 2
rarity: Rare Holo
illustrator: Nobody Real
"""


def test_valid_card_has_no_problem():
    """The fictional card is valid, with or without its source language checked."""
    assert _problems(ZORB_CARD) == []
    assert _problems(ZORB_CARD, src="en") == []


def test_missing_source_language_at_each_map():
    """Each localized map without the set's source language, at its value."""
    assert _problems(ZORB_CARD, src="ja") == [
        (10, 9, "source-language", "missing the source language 'ja'"),
        (11, 9, "source-language", "missing the source language 'ja'"),
        (13, 11, "source-language", "missing the source language 'ja'"),
        (16, 11, "source-language", "missing the source language 'ja'"),
    ]


def test_two_schema_problems_each_once_in_order():
    """Two wrong values: each reported once, at its value, in file order."""
    text = ZORB_CARD.replace("hp: 90", "hp: ninety").replace("retreat_cost: 2", "retreat_cost: two")
    assert _problems(text) == [
        (6, 5, "schema", 'hp: expected an integer, found "ninety" (text)'),
        (18, 15, "schema", 'retreat_cost: expected an integer, found "two" (text)'),
    ]
    assert _problems(text, src="ja") == _problems(text)  # the source language is checked on valid cards only


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("hp: 90", "hp: 90\nzorb: 1", (7, 1, "schema", "unknown field 'zorb'")),
        (
            "supertype: Pokémon",
            "supertype: Pokemon",
            (4, 12, "schema", 'supertype: "Pokemon" is not one of "Pokémon", "Trainer", "Energy"'),
        ),
        (
            "illustrator: Nobody Real",
            "illustrator: Nobody Real\nnotes: 2000-01-01",
            (21, 8, "schema", 'notes: expected text, found 2000-01-01 (a YAML date): YAML reads this as a date; quote it: "2000-01-01"'),
        ),
        ('number: "2"', "number: 2", (2, 9, "schema", "number: expected text, found 2 (a YAML integer)")),
    ],
)
def test_one_schema_problem(old, new, problem):
    """An unknown field, a value outside its list (and not its consequences), a date, an integer for text."""
    assert _problems(ZORB_CARD.replace(old, new)) == [problem]


@pytest.mark.parametrize(
    ("old", "new", "problems"),
    [
        # two unknown fields: each once, in file order
        ("hp: 90", "hp: 90\nzorb: 1\nzap: 2", [(7, 1, "schema", "unknown field 'zorb'"), (8, 1, "schema", "unknown field 'zap'")]),
        # a wrong value and an unknown field: both
        (
            "hp: 90",
            "hp: ninety\nzorb: 1",
            [(6, 5, "schema", 'hp: expected an integer, found "ninety" (text)'), (7, 1, "schema", "unknown field 'zorb'")],
        ),
        # a wrong common field (number): the other common fields are not called unknown
        (
            'number: "2"',
            "number: 2\nzorb: 1",
            [(2, 9, "schema", "number: expected text, found 2 (a YAML integer)"), (3, 1, "schema", "unknown field 'zorb'")],
        ),
        # an unknown field inside an attack: at its key
        ("  - name: {en: Double Zorb}", "  - name: {en: Double Zorb}\n    zorb: 1", [(14, 5, "schema", "unknown field 'zorb'")]),
    ],
)
def test_schema_problems_two_at_once(old, new, problems):
    """Two problems in one card: each reported once, in order; the common part's fields stay known."""
    assert _problems(ZORB_CARD.replace(old, new)) == problems


def _props_err(validator, instance, message="", schema=None):
    return SimpleNamespace(validator=validator, instance=instance, message=message, schema=schema or {})


def test_allowed_keys_of_additional_properties():
    """additionalProperties: the keys named in ``properties`` or matching a pattern (anywhere in the key)."""
    err = _props_err(
        "additionalProperties",
        {"a": 1, "x-b": 2, "yx-c": 3, "zz": 4},
        schema={"properties": {"a": {}}, "patternProperties": {"x-": {}}},
    )
    assert _allowed_keys(err) == {"a", "x-b", "yx-c"}
    assert _allowed_keys(_props_err("additionalProperties", {"a": 1})) == set()


def test_allowed_keys_of_unevaluated_properties():
    """unevaluatedProperties: every key but those named in the message's last parentheses."""
    instance = {"a": 1, "b": 2, "c": 3}
    message = "Unevaluated properties are not allowed ('b', 'c' were unexpected)"
    assert _allowed_keys(_props_err("unevaluatedProperties", instance, message)) == {"a"}
    message = "Unevaluated properties (here 'a') are not allowed ('b' was unexpected)"
    assert _allowed_keys(_props_err("unevaluatedProperties", instance, message)) == {"a", "c"}
    assert _allowed_keys(_props_err("unevaluatedProperties", instance, "no parentheses 'b'")) == {"a", "b", "c"}


def test_own_cache_file(tmp_path, monkeypatch):
    """cardlab's own validation cache files: a name of ``_CACHE_NAME`` in the cache folder only;
    False when the cache folder cannot be found."""
    from cardlab.catalog import filecheck

    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path))
    assert _own_cache_file(tmp_path / "validate-0123456789ab.sqlite") is True
    assert _own_cache_file(str(tmp_path / "validate-cache.sqlite")) is True
    assert _own_cache_file(tmp_path / "validate-zorb.sqlite") is False
    assert _own_cache_file(tmp_path / "sub" / "validate-cache.sqlite") is False

    def no_folder():
        raise PermissionError("zorb")

    monkeypatch.setattr(filecheck, "cache_dir", no_folder)  # the name _own_cache_file calls
    assert _own_cache_file(tmp_path / "validate-cache.sqlite") is False


def test_store_run_then_cached_run(tmp_path, monkeypatch):
    """A whole run's outcome comes back with each problem's path, position, wording and rule, for
    its key only."""
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CARDLAB_NO_CACHE", raising=False)
    roots = [tmp_path / "cards"]
    problem = Problem(SourcePos(tmp_path / "cards" / "zorb.yaml", 3, 7), "zörb is wrong", "schema")
    store_run(roots, "key-1", 12, [problem])
    assert cached_run(roots, "key-1") == (12, [problem])
    assert cached_run(roots, "key-2") is None


def test_cached_data_skips_a_damaged_row(tmp_path, monkeypatch):
    """The cached data of the paths asked, by path; a damaged row is left out, the rows after it are
    read; no cache (``CARDLAB_NO_CACHE``) gives nothing."""
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CARDLAB_NO_CACHE", raising=False)
    roots = [tmp_path / "cards"]
    cache = _Cache(validation_cache(roots))
    rows = [
        ("a.yaml", "s", "f", pickle.dumps({"id": "zz1-1"}), "[]", pickle.dumps({"id": "zz1-1", "s": 1})),
        ("b.yaml", "s", "f", b"zorb", "[]", b"zorb"),
        ("c.yaml", "s", "f", pickle.dumps({"id": "zz1-3"}), "[]", pickle.dumps({"id": "zz1-3", "s": 1})),
        ("d.yaml", "s", "f", pickle.dumps({"id": "zz1-4"}), "[]", pickle.dumps({"id": "zz1-4", "s": 1})),
    ]
    cache.put(rows)
    assert cache.db is not None
    cache.db.close()
    assert cached_data(roots, ["a.yaml", "b.yaml", "c.yaml", "zz.yaml"]) == {"a.yaml": {"id": "zz1-1"}, "c.yaml": {"id": "zz1-3"}}
    monkeypatch.setenv("CARDLAB_NO_CACHE", "1")
    assert cached_data(roots, ["a.yaml"]) == {}


def test_check_file_reads_then_checks(tmp_path):
    """``check_file`` is ``check_text`` of the file's text; a missing file is its read problem, no data."""
    from cardlab.catalog.filecheck import check_file

    path = tmp_path / "2-zorblax.yaml"
    path.write_text(ZORB_CARD, encoding="utf-8")
    data, problems = check_file(path, "card", "pokemon", "en")
    assert (data["id"], data["name"], problems) == ("zz1-2", {"en": "Zorblax", "ja": "ゾルブラックス"}, [])
    data, problems = check_file(tmp_path / "zorb.yaml", "card", "pokemon")
    assert data is None
    assert [(p.pos.path, p.rule) for p in problems] == [(tmp_path / "zorb.yaml", "file")]


def test_catalog_key_of_a_symlink_loop_keeps_the_spelling(tmp_path):
    """A root that cannot be resolved (a symlink loop) keys the cache by the path as given."""
    from cardlab.core.paths import roots_key

    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert catalog_key([tmp_path / "a"]) == roots_key([tmp_path / "a"])
    assert catalog_key([str(tmp_path / "a")]) == roots_key([tmp_path / "a"])


def test_prune_caches_at_the_age_limit(tmp_path, monkeypatch):
    """A cache file exactly ``max_age_days`` old stays, one a second older goes with its journal,
    WAL and shared-memory files; a cache name that cannot be removed (a folder) does not stop the
    files after it; other names stay."""
    import os

    from cardlab.catalog.filecheck import prune_caches

    now = 1_000_000_000.0
    keep = tmp_path / "validate-aaaaaaaaaaaa.sqlite"
    keep.write_bytes(b"")
    (tmp_path / "validate-000000000000.sqlite").mkdir()  # listed first below: cannot be unlinked
    old = tmp_path / "validate-111111111111.sqlite"
    edge = tmp_path / "validate-222222222222.sqlite"
    for path in (old, edge, tmp_path / "zorb.sqlite"):
        path.write_bytes(b"")
    for suffix in ("-journal", "-wal", "-shm"):
        (tmp_path / (old.name + suffix)).write_bytes(b"")
    os.utime(tmp_path / "validate-000000000000.sqlite", (0, 0))
    os.utime(old, (now - 2 * 86400 - 1, now - 2 * 86400 - 1))
    os.utime(edge, (now - 2 * 86400, now - 2 * 86400))
    os.utime(tmp_path / "zorb.sqlite", (0, 0))
    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda folder: sorted(real_scandir(folder), key=lambda e: e.name))
    assert prune_caches(keep, now=now, max_age_days=2) == [old]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "validate-000000000000.sqlite",
        "validate-222222222222.sqlite",
        "validate-aaaaaaaaaaaa.sqlite",
        "zorb.sqlite",
    ]
    assert keep.stat().st_mtime == now


def test_check_files_defaults(tmp_path, monkeypatch):
    """Called with the files only: the catalog's own cache file in the cache folder, named by the
    folder holding every file, and cards served from it in full (not as summaries)."""
    import shutil

    from cardlab.catalog.filecheck import check_file, check_files
    from cardlab.catalog.model import scan

    root = tmp_path / "cards"
    shutil.copytree(Path(__file__).resolve().parents[2] / "fixtures" / "catalog" / "pokemon", root / "pokemon")
    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDLAB_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    files = scan([root])
    first, problems, reread = check_files(files)
    assert (problems, reread) == ([], len(files))
    set_dir = files[0].path.parent
    assert sorted(p.name for p in (tmp_path / "cache").iterdir() if p.suffix == ".sqlite") == [f"validate-{catalog_key([set_dir])}.sqlite"]
    again, problems, reread = check_files(files)
    assert (problems, reread) == ([], 0)
    card = next(f.path for f in files if f.kind == "card")
    whole = check_file(card, "card", "pokemon")[0]
    assert (first[card], again[card]) == (whole, whole)  # whole cards, not summaries
    assert again == first


FIXTURE_POKEMON = Path(__file__).resolve().parents[2] / "fixtures" / "catalog" / "pokemon" / "test1"
FIXTURE_IPPO = Path(__file__).resolve().parents[2] / "fixtures" / "catalog" / "ippo" / "ippo-test"


def _rules_by_file(problems):
    return sorted({(p.pos.path.name, p.rule) for p in problems})


def test_check_files_schema_of_a_card_comes_from_its_set(tmp_path):
    """The ``game`` of a set's manifest chooses the schema of the cards beside it, whatever the
    folder says; a card with no manifest beside it is checked with its folder's game."""
    from cardlab.catalog.filecheck import check_files
    from cardlab.catalog.model import SourceFile

    odd = tmp_path / "pokemon" / "odd"  # an Ippo set in a Pokémon folder
    odd.mkdir(parents=True)
    (odd / "set.yaml").write_bytes((FIXTURE_IPPO / "set.yaml").read_bytes())
    (odd / "1-testmon.yaml").write_bytes((FIXTURE_POKEMON / "1-testmon.yaml").read_bytes())
    bare = tmp_path / "pokemon" / "bare"  # no set.yaml: the folder's game
    bare.mkdir()
    (bare / "1-jab.yaml").write_bytes((FIXTURE_IPPO / "1-test-jab.yaml").read_bytes())
    files = [
        SourceFile(odd / "set.yaml", "set", "pokemon", odd),
        SourceFile(odd / "1-testmon.yaml", "card", "pokemon", odd),
        SourceFile(bare / "1-jab.yaml", "card", "pokemon", bare),
    ]
    data, problems, reread = check_files(files, cache_path=None)
    assert (sorted(p.name for p in data), reread) == (["1-jab.yaml", "1-testmon.yaml", "set.yaml"], 3)
    assert _rules_by_file(problems) == [("1-jab.yaml", "schema"), ("1-testmon.yaml", "schema")]


def test_check_files_of_relative_and_absolute_paths(tmp_path, monkeypatch):
    """Files named by relative and absolute paths have no common folder: checked all the same."""
    from cardlab.catalog.filecheck import check_files
    from cardlab.catalog.model import SourceFile

    monkeypatch.chdir(tmp_path)
    (tmp_path / "1-testmon.yaml").write_bytes((FIXTURE_POKEMON / "1-testmon.yaml").read_bytes())
    files = [
        SourceFile(Path("1-testmon.yaml"), "card", "pokemon", None),
        SourceFile(FIXTURE_POKEMON / "2-testmon-ex.yaml", "card", "pokemon", None),
        SourceFile(Path("gone.yaml"), "card", "pokemon", None),  # missing: its read problem
    ]
    data, problems, reread = check_files(files, cache_path=None)
    assert ([str(p) for p in data], reread) == (["1-testmon.yaml", str(FIXTURE_POKEMON / "2-testmon-ex.yaml"), "gone.yaml"], 3)
    assert [(str(p.pos.path), p.rule) for p in problems] == [("gone.yaml", "file")]


def test_check_files_with_its_own_cache_leaves_the_cache_folder_alone(tmp_path, monkeypatch):
    """A cache file given by path: the other catalogs' cache files in the cache folder are not pruned."""
    import os

    from cardlab.catalog.filecheck import check_files
    from cardlab.catalog.model import SourceFile

    monkeypatch.setenv("CARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDLAB_NO_CACHE", raising=False)
    (tmp_path / "cache").mkdir()
    old = tmp_path / "cache" / "validate-0123456789ab.sqlite"
    old.write_bytes(b"")
    os.utime(old, (0, 0))
    files = [SourceFile(FIXTURE_POKEMON / "1-testmon.yaml", "card", "pokemon", None)]
    _data, problems, reread = check_files(files, cache_path=tmp_path / "own.sqlite")
    assert (problems, reread, old.exists(), (tmp_path / "own.sqlite").exists()) == ([], 1, True, True)


def test_check_files_reads_again_when_the_schemas_change(tmp_path, monkeypatch):
    """Cached rows are for the schemas they were checked with: new schemas, every file read again."""
    from cardlab.catalog import filecheck
    from cardlab.catalog.filecheck import check_files
    from cardlab.catalog.model import SourceFile

    files = [SourceFile(FIXTURE_POKEMON / "1-testmon.yaml", "card", "pokemon", None)]
    cache = tmp_path / "own.sqlite"
    assert check_files(files, cache_path=cache)[1:] == ([], 1)
    assert check_files(files, cache_path=cache)[1:] == ([], 0)
    monkeypatch.setattr(filecheck, "fingerprint", lambda: "zorb-schemas")  # the name check_files calls
    assert check_files(files, cache_path=cache)[1:] == ([], 1)


def test_check_files_reads_again_a_file_changed_too_recently(tmp_path, monkeypatch):
    """A file whose stamp cannot be trusted yet (changed within the last tick) is read again on the
    next run; a trusted one is served from the cache with its problems as they were."""
    from cardlab.catalog import filecheck
    from cardlab.catalog.filecheck import check_files
    from cardlab.catalog.model import SourceFile

    card = tmp_path / "1-testmon.yaml"
    card.write_text((FIXTURE_POKEMON / "1-testmon.yaml").read_text(encoding="utf-8").replace("hp: ", "hp: x"), encoding="utf-8")
    files = [SourceFile(card, "card", "pokemon", None)]
    cache = tmp_path / "own.sqlite"
    monkeypatch.setattr(filecheck, "is_racy", lambda st, now=None: False)
    first = check_files(files, cache_path=cache)
    assert ([(p.pos.line, p.rule) for p in first[1]], first[2]) == ([(6, "schema")], 1)
    again = check_files(files, cache_path=cache)
    assert (again[1], again[2]) == (first[1], 0)
    monkeypatch.setattr(filecheck, "is_racy", lambda st, now=None: True)
    assert check_files(files, cache_path=cache)[2] == 1
    assert check_files(files, cache_path=cache)[2] == 1  # still too recent: read again


def test_check_files_reads_again_a_damaged_cache_row(tmp_path, monkeypatch):
    """A cache row whose data cannot be read back: the file is checked again, with the same answer."""
    import sqlite3

    from cardlab.catalog import filecheck
    from cardlab.catalog.filecheck import check_files
    from cardlab.catalog.model import SourceFile

    monkeypatch.setattr(filecheck, "is_racy", lambda st, now=None: False)
    files = [SourceFile(FIXTURE_POKEMON / "1-testmon.yaml", "card", "pokemon", None)]
    cache = tmp_path / "own.sqlite"
    first = check_files(files, cache_path=cache)
    con = sqlite3.connect(cache)
    with con:
        con.execute("UPDATE files4 SET data = x'00'")
    con.close()
    again = check_files(files, cache_path=cache)
    assert (again[0], again[1], again[2]) == (first[0], [], 1)


def test_check_files_summaries_of_cards_read_again(tmp_path):
    """``full=False``: a card read again comes back as its summary fields; a set file whole."""
    from cardlab.catalog.filecheck import SUMMARY_FIELDS, check_file, check_files
    from cardlab.catalog.model import SourceFile

    card, manifest = FIXTURE_POKEMON / "1-testmon.yaml", FIXTURE_POKEMON / "set.yaml"
    files = [SourceFile(manifest, "set", "pokemon", FIXTURE_POKEMON), SourceFile(card, "card", "pokemon", FIXTURE_POKEMON)]
    data, problems, reread = check_files(files, cache_path=None, full=False)
    whole = check_file(card, "card", "pokemon")[0]
    assert (data[card], data[manifest], problems, reread) == (
        {k: whole[k] for k in SUMMARY_FIELDS if k in whole},
        check_file(manifest, "set", "pokemon")[0],
        [],
        2,
    )
    assert sorted(data[card]) == ["hp", "id", "name", "number", "stage", "supertype"]
