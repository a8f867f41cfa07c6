"""cardlab search / show / index on the shipped Base Set, the whole shipped catalog (printings,
``--unique``) and the fictional test set."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cardlab.cli.whole import app
from cardlab.index.sqlite import build_index, connect, ensure_index
from cardlab.search.engine import search
from cardlab.search.query.parse import parse
from cardlab.search.query.tree import QueryError

REPO = Path(__file__).resolve().parents[3]
BASE1 = REPO / "cards" / "pokemon" / "base1"


def ids(con, query, **kw):
    return [h.id for h in search(con, query, **kw)]


def _base_cards():
    for path in sorted(BASE1.glob("*.yaml")):
        if path.name != "set.yaml":
            yield yaml.safe_load(path.read_text(encoding="utf-8"))


def test_fire_pokemon_with_80_hp(base_con):
    expected = {c["id"] for c in _base_cards() if c["supertype"] == "Pokémon" and "Fire" in c["types"] and c["hp"] >= 80}
    assert {"base1-4", "base1-12"} <= expected  # Charizard, Ninetales
    assert set(ids(base_con, "type:fire hp>=80")) == expected


def test_set_base1_has_102_ids(runner):
    result = runner.invoke(app, ["search", "set:base1", "--output-format", "ids"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.split()
    assert len(lines) == 102 and lines[0] == "base1-1" and lines[-1] == "base1-102"


@pytest.mark.parametrize("query", ["dracaufeu", "Glurak", "CHARIZARD", "name:dracau", "name=charizard", 'attack:"fire spin"'])
def test_names_in_every_language(base_con, query):
    assert "base1-4" in ids(base_con, query)


def test_accents_fold(base_con):
    assert "base1-85" in ids(base_con, "pokemon center")
    assert "base1-85" in ids(base_con, '"pokémon center"')
    assert ids(base_con, "pokemon") == ids(base_con, "Pokémon")


@pytest.mark.parametrize(
    ("query", "same_as"),
    [
        ("farfetch'd", '"farfetch d"'),
        ("farfetch’d", '"farfetch d"'),
        ("mr. mime", '"mr mime"'),
        ("ho-oh", '"ho oh"'),
        ('"double colorless"', "double colorless"),
        ("it's", "it’s"),
        ("a.b-c", '"a b c"'),
    ],
)
def test_punctuation_never_reaches_fts(base_con, query, same_as):
    """Punctuation inside a word is a word break, as in the phrase of the parts: never FTS syntax."""
    assert ids(base_con, query) == ids(base_con, same_as)


def test_punctuation_finds_cards(base_con):
    assert ids(base_con, "farfetch'd") == ["base1-27"]
    assert ids(base_con, "farfetch’d") == ["base1-27"]
    assert ids(base_con, '"double colorless"') == ["base1-96"]
    assert ids(base_con, "double-edge") == ["base1-3"]  # Chansey's attack


def test_negation_or_parentheses(base_con):
    fire = set(ids(base_con, "type:fire supertype:pokemon"))
    water = set(ids(base_con, "type:water supertype:pokemon"))
    assert set(ids(base_con, "(type:fire or type:water) supertype:pokemon")) == fire | water
    assert set(ids(base_con, "supertype:pokemon -type:fire")) == set(ids(base_con, "supertype:pokemon")) - fire
    assert set(ids(base_con, "supertype:pokemon type!=fire")) == set(ids(base_con, "supertype:pokemon")) - fire


def test_numeric_fields(base_con):
    assert ids(base_con, "hp>=120 retreat>=3 type:fire") == ["base1-4"]
    assert "base1-2" in ids(base_con, "cost>=3 type:water")  # Blastoise's Hydro Pump
    assert ids(base_con, "number=4") == ["base1-4"]
    assert ids(base_con, "set:BS number:4") == ["base1-4"]


def test_rarity_and_artist(base_con):
    holo = ids(base_con, "rarity:rare-holo")
    assert len(holo) == 16 and "base1-4" in holo
    assert "base1-4" in ids(base_con, "artist:arita")


def test_energy_kind_comes_from_data(base_con):
    assert ids(base_con, "energy:special") == ["base1-96"]
    assert len(ids(base_con, "energy:basic")) == 6


def test_japanese_substring(fixture_con):
    assert ids(fixture_con, "モンス") == ["test1-1"]  # three characters (trigram index)
    assert ids(fixture_con, "テス") == ["test1-1", "test1-2"]  # two characters
    assert ids(fixture_con, "name:モンスター") == ["test1-1"]


def test_sort_and_limit(base_con):
    by_hp = search(base_con, "supertype:pokemon", sort="hp", reverse=True, limit=3)
    assert {h.id for h in by_hp[:2]} == {"base1-3", "base1-4"}  # Chansey and Charizard: 120 HP, the most
    assert "100 HP" in by_hp[2].stats  # next: the 100 HP Pokémon
    names = [h.name for h in search(base_con, "type:fire", sort="name")]
    assert names == sorted(names, key=str.casefold)


def test_lang_shows_french_names(base_con):
    [hit] = search(base_con, "charizard", langs=["fr"])
    assert hit.name == "Dracaufeu"
    [hit] = search(base_con, "charizard", langs=["xx"])
    assert hit.name == "Charizard"  # unknown language falls back to the source language


@pytest.mark.parametrize(
    "query,col,needle",
    [
        ("hp>>80", 3, "takes a number"),
        ("colour:red", 0, "unknown field 'colour'"),
        ("type>fire", 4, "is text"),
        ("(type:fire", 0, "never closed"),
        ("type:fire)", 9, "unmatched"),
        ('"double', 0, "never closed"),
        ("fire or", 5, "needs a term"),
    ],
)
def test_query_errors_point_at_the_character(query, col, needle):
    with pytest.raises(QueryError) as exc:
        parse(query)
    assert exc.value.pos == col
    assert needle in exc.value.reason


def test_query_error_caret_from_cli(runner):
    result = runner.invoke(app, ["search", "hp>>80"])
    assert result.exit_code == 2
    assert "hp>>80\n   ^" in result.stderr
    assert "Traceback" not in result.output


def test_formats(runner):
    js = json.loads(runner.invoke(app, ["search", "charizard", "-O", "json"]).stdout)
    assert js[0]["id"] == "base1-4" and js[0]["name"]["fr"] == "Dracaufeu" and js[0]["hp"] == 120
    csv = runner.invoke(app, ["search", "charizard", "--output-format", "csv"]).stdout.splitlines()
    assert csv[0].startswith("id,set,number,name") and csv[1].startswith("base1-4,base1,4,Charizard")
    table = runner.invoke(app, ["search", "charizard", "--lang", "fr"]).stdout
    assert "Dracaufeu" in table and "\x1b[" not in table  # no colour when not a terminal


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_failed_validation_leaves_index_untouched(runner, test_set, fixtures, tmp_path):
    db = tmp_path / "keep.sqlite"
    assert ensure_index([test_set], db) is not None
    before = _digest(db)
    shutil.copy(fixtures / "bad" / "pokemon" / "wrong-type.yaml", test_set / "pokemon" / "test1" / "5-x.yaml")
    result = runner.invoke(app, ["index", "--catalog", str(test_set), "--db", str(db)])
    assert result.exit_code == 1 and 'hp: expected an integer, found "lots" (text)' in result.stderr
    assert _digest(db) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    # searching still works on the previous index, with a warning
    found = runner.invoke(app, ["search", "testmon", "--catalog", str(test_set), "--db", str(db), "--output-format", "ids"])
    assert found.exit_code == 0 and found.stdout.split() == ["test1-1", "test1-2"]
    assert "searching the previous index" in found.stderr


def test_index_rebuilds_only_when_catalog_changes(test_set, tmp_path):
    db = tmp_path / "fresh.sqlite"
    assert ensure_index([test_set], db) is not None
    assert ensure_index([test_set], db) is None
    card = test_set / "pokemon" / "test1" / "4-test-gadget.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("Test Gadget", "Test Widget"), encoding="utf-8")
    assert ensure_index([test_set], db) is not None
    assert ids(connect(db), "widget") == ["test1-4"]


def test_search_as_a_real_process(tmp_path):
    env = {"CARDLAB_DB": str(tmp_path / "p.sqlite"), "CARDLAB_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [sys.executable, "-m", "cardlab", "search", "charizard", "--output-format", "ids"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    # Base Set Charizard, its Base Set 2 reprint, Team Rocket's two Dark Charizards
    assert proc.stdout.split() == ["base1-4", "base4-4", "base5-4", "base5-21", "gym2-2"]  # Blaine's Charizard too


def test_cli_import_stays_light():
    code = "import sys, cardlab.cli.app; bad = [m for m in ('sqlmodel', 'sqlalchemy', 'jsonschema', 'ruamel.yaml', 'pydantic') if m in sys.modules]; print(bad)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_every_command_has_help(runner):
    for args in (["--help"], ["search", "--help"], ["show", "--help"], ["validate", "--help"], ["index", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "Usage" in result.stdout
    assert "hp" in runner.invoke(app, ["search", "--help"]).stdout


def test_readme_documents_every_field(repo):
    from cardlab.search.fields import FIELDS

    readme = (repo / "README.md").read_text(encoding="utf-8")
    missing = [f for f in FIELDS if f"| `{f}` |" not in readme]
    assert missing == []


@pytest.mark.parametrize(
    "make,needle",
    [
        (lambda p: p.write_text("127.0.0.1 localhost\n"), "is not a cardlab index"),
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: None, "folder not found"),
    ],
)
def test_db_path_is_never_clobbered(make, needle, runner, test_set, tmp_path):
    target = tmp_path / "hosts"
    make(target)
    db = target if needle != "folder not found" else tmp_path / "nowhere" / "x.sqlite"
    before = target.read_bytes() if target.is_file() else None
    result = runner.invoke(app, ["search", "testmon", "--catalog", str(test_set), "--db", str(db)])
    assert result.exit_code == 2
    assert needle in result.stderr
    if before is not None:
        assert target.read_bytes() == before
    assert not (tmp_path / "nowhere").exists()


def test_killed_build_leaves_no_stale_temp(test_set, tmp_path):
    db = tmp_path / "i.sqlite"
    stale = tmp_path / ".i.sqlite.tmp-999999999"
    stale.write_bytes(b"half")
    build_index([test_set], db)
    assert not stale.exists()


def test_missing_catalog_folder_is_an_error(runner, tmp_path):
    result = runner.invoke(app, ["search", "x", "--catalog", str(tmp_path / "typo")])
    assert result.exit_code == 2 and "catalog folder not found" in result.stderr
    result = runner.invoke(app, ["validate", "--catalog", str(tmp_path / "typo")])
    assert result.exit_code == 2 and "catalog folder not found" in result.stderr


@pytest.mark.parametrize(
    "query,col,needle",
    [
        ("-", 0, "'-' needs a term"),
        ("fire -", 5, "'-' needs a term"),
        ("%", 0, "no letters or digits"),
        ('""', 0, "no letters or digits"),
        ('name:""', 6, "needs a value"),
        ("AND", 0, "'and' needs a term"),
        ("fire and", 5, "'and' needs a term"),
        (":fire", 0, "needs a field name"),
        ("(" * 20 + "fire" + ")" * 20, 16, "nested too deeply"),
        ("fire " * 100, 320, "too many terms"),
        ("x" * 2000, 1000, "too long"),
    ],
)
def test_hostile_queries_are_clear_errors(query, col, needle):
    with pytest.raises(QueryError) as exc:
        parse(query)
    assert exc.value.pos == col and needle in exc.value.reason


def test_caret_counts_wide_characters():
    with pytest.raises(QueryError) as exc:
        parse('name:"ジャブ" hp>>80')
    assert exc.value.caret().splitlines()[1] == " " * 17 + "^"  # 6 + 3 wide (6) + 2 + "hp>" (3)


def test_and_is_the_same_as_a_space(base_con):
    assert ids(base_con, "type:fire and hp>=80") == ids(base_con, "type:fire hp>=80")


def test_sort_puts_cards_without_the_value_last(base_con):
    up = search(base_con, "set:base1", sort="hp")
    down = search(base_con, "set:base1", sort="hp", reverse=True)
    assert up[0].id == "base1-70"  # Clefairy Doll: a Trainer with 10 HP
    assert down[0].id in {"base1-3", "base1-4"}  # 120 HP
    for hits in (up, down):
        assert hits[-1].type_line.startswith(("Trainer", "Energy")) and hits[-1].id != "base1-70"


def test_the_command_line_builds_only_the_command_it_runs():
    from cardlab.cli.app import _slim_app

    search_only = _slim_app(["search", "charizard"])
    assert [c.callback.__name__ for c in search_only.registered_commands] == ["search"]
    assert search_only.registered_groups == []
    deck_only = _slim_app(["deck", "validate", "x.txt"])
    assert [g.name for g in deck_only.registered_groups] == ["deck"] and deck_only.registered_commands == []
    assert _slim_app(["--help"]) is app and _slim_app(["nope"]) is app  # the whole app (cardlab.cli.whole)
    formats_only = _slim_app(["formats"])
    assert [c.name for c in formats_only.registered_commands] == ["formats"] and formats_only.registered_groups == []


def _tree(command) -> dict:  # noqa: ANN001 - a click command or group
    """A built command as nested names: a group -> {subcommand: its tree}, a command -> {}."""
    return {name: _tree(sub) for name, sub in sorted(getattr(command, "commands", {}).items())}


def test_the_group_map_says_which_modules_build_each_name():
    """``_GROUPS`` must name, for every top-level command and group, each cli module that mounts it
    or adds to it (``deck have`` comes from cli/collection.py): the app built for a name alone holds
    exactly the commands the whole app holds under that name."""
    import json
    import subprocess
    import sys

    import typer

    from cardlab.cli.app import _GROUPS, _MODULES, _command_name

    assert set(_GROUPS) | {"search", "show", "validate", "index"} == {_command_name(c) for c in app.registered_commands} | {
        g.name for g in app.registered_groups
    }
    whole = _tree(typer.main.get_command(app))
    assert whole["deck"]["have"] == {}  # cli/collection.py adds it to the deck group
    # each name's app built in a process of its own: a module's register() may add to another
    # module's group (here the whole app has run them all)
    script = (
        "import json, sys, typer\n"
        "from cardlab.cli.app import _slim_app\n"
        "def tree(c): return {n: tree(s) for n, s in sorted(getattr(c, 'commands', {}).items())}\n"
        "print(json.dumps(tree(typer.main.get_command(_slim_app([sys.argv[1], '--help'])))))\n"
    )
    for name in sorted(whole):
        done = subprocess.run([sys.executable, "-c", script, name], capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        alone = json.loads(done.stdout)
        assert alone == {name: whole[name]}, name
    assert {m for mods in _GROUPS.values() for m in mods} == set(_MODULES)
    names = [_command_name(c) for c in app.registered_commands] + [g.name for g in app.registered_groups]
    assert names == [
        "search",
        "show",
        "validate",
        "index",
        "formats",
        "sets",
        "proxies",
        "serve",
        "deck",
        "card",
        "i18n",
        "collection",
        "play",
        "odds",
        "import",
        "db",
    ]


def test_a_search_loads_no_other_command_module():
    """A real process: ``cardlab search`` imports the search command's code, not the deck, play or
    web commands' modules (and not the query language's help text until help is asked)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cardlab", "search", "--help"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and "Fields:" in done.stdout
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "cardlab.cli.app" in loaded
    assert {"cardlab.cli.deck", "cardlab.cli.play", "cardlab.cli.serve", "cardlab.cli.collection"} & loaded == set()


def test_piped_table_is_plain_aligned_text(runner):
    out = runner.invoke(app, ["search", "set:base1 type:fire hp>=80"]).stdout.splitlines()
    assert out[0].split() == ["Id", "Name", "Type", "Stats", "Rarity"]
    assert out[1].startswith("base1-4   Charizard   Pokémon · Stage 2 · Fire  120 HP")
    assert out[-1] == "4 cards" and len(out) == 6  # one line a card: no wrapping when piped


# --- printings (Base Set 2 reprints) ---------------------------------------------------------


def test_unique_prints_is_the_default_and_cards_collapses_printings(full_con):
    assert ids(full_con, "name=charizard") == ["base1-4", "base4-4"]
    assert ids(full_con, "name=charizard", unique="prints") == ["base1-4", "base4-4"]
    assert ids(full_con, "name=charizard", unique="cards") == ["base1-4"]
    assert ids(full_con, 'name:"dark charizard"') == ["base5-4", "base5-21"]
    assert ids(full_con, 'name:"dark charizard"', unique="cards") == ["base5-4"]  # holo and plain: one card
    # different cards of one name stay apart
    assert ids(full_con, "name=pikachu", unique="cards") == ["base1-58", "base2-60", "basep-1", "basep-4", "basep-26", "basep-27"]
    # a reprint stands for its card when the original does not match
    assert ids(full_con, "set:base4 name=charizard", unique="cards") == ["base4-4"]
    # Jungle's holo and plain Scyther and their Base Set 2 reprint are one card; the promo is another
    assert ids(full_con, "name=scyther") == ["base2-10", "base2-26", "basep-45", "base4-17"]
    assert ids(full_con, "name=scyther", unique="cards") == ["base2-10", "basep-45"]
    assert ids(full_con, "name=scyther", unique="cards", limit=1) == ["base2-10"]


def test_unique_counts_on_the_whole_catalog(full_con):
    every = ids(full_con, "")
    assert len(every) == 758
    # Base Set 2's 130 reprints, the plain printings of holo cards (Gym Challenge's four Gym Leader
    # Trainers too), the basic Energy of later sets
    assert len(ids(full_con, "", unique="cards")) == 559


def test_unique_cli(runner):
    result = runner.invoke(app, ["search", "name=charizard", "--unique", "cards", "--format", "ids"])
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == ["base1-4"]
    result = runner.invoke(app, ["search", "name=charizard", "--format", "ids"])
    assert result.stdout.split() == ["base1-4", "base4-4"]
    result = runner.invoke(app, ["search", "charizard", "--unique", "nope"])
    assert result.exit_code == 2 and "--unique" in result.stderr


def test_vintage_searches(full_con):
    jungle_fighting = ids(full_con, "set:jungle t:fighting")
    assert jungle_fighting and all(i.startswith("base2-") for i in jungle_fighting)
    assert ids(full_con, "t:metal") == ["basep-33"]  # promo Scizor
