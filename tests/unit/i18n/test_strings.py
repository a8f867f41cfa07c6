"""cardlab.i18n.strings: source hashes, field paths, coverage, and YAML rewrites that keep the layout."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.core.errors import DataError
from cardlab.i18n import strings as i18n
from cardlab.i18n import writeback as i18n_write
from cardlab.i18n.strings import Edit

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "catalog"


_SOURCE_LINE = re.compile(r"^(\s+)_source: \{(.*)\}$")


def strip_translations(folder: Path) -> int:
    """Take out, in place, every translation that records its source (``_source``) from the card
    files under ``folder``, line by line (the official names, which have no ``_source``, stay).
    Returns how many files changed. ``benchmarks/bench_lang_index.py`` uses it too."""
    changed = 0
    for path in sorted(folder.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        out: list[str] = []
        for line in text.split("\n"):
            m = _SOURCE_LINE.match(line)
            if m is None:
                out.append(line)
                continue
            langs = [part.split(":")[0].strip() for part in m[2].split(",")]
            while out and any(out[-1].startswith(f"{m[1]}{lang}: ") for lang in langs):
                out.pop()
        if "\n".join(out) != text:
            path.write_text("\n".join(out), encoding="utf-8")
            changed += 1
    return changed


def copy_base1(tmp_path: Path) -> Path:
    """A private catalog root holding a copy of the shipped Base Set as it was before its rules text
    was translated (:func:`strip_translations`), so these tests keep a set to translate."""
    root = tmp_path / "catalog"
    shutil.copytree(REPO / "cards" / "pokemon" / "base1", root / "pokemon" / "base1")
    strip_translations(root / "pokemon" / "base1")
    return root


def copy_ippo(tmp_path: Path) -> Path:
    """A private catalog root holding a copy of the Ippo fixture set (source language ja)."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "ippo" / "ippo-test", root / "ippo" / "ippo-test")
    return root


# --- hashes and paths ------------------------------------------------------------------------


def test_source_hash_is_sha1_prefix_of_the_normalized_text():
    assert i18n.source_hash("Charizard") == hashlib.sha1(b"Charizard").hexdigest()[:8] == "f474e615"
    assert i18n.source_hash("  Fire\n  Spin ") == i18n.source_hash("Fire Spin")
    assert i18n.source_hash("Pok\u0065\u0301mon") == i18n.source_hash("Pokémon")  # NFD == NFC
    assert i18n.source_hash("Fire Spin") != i18n.source_hash("Fire spin")


@pytest.mark.parametrize(
    ("path", "keys"),
    [
        ("name", ["name"]),
        ("attacks[0].name", ["attacks", 0, "name"]),
        ("abilities[1].cost.other", ["abilities", 1, "cost", "other"]),
        ("products[10].name", ["products", 10, "name"]),
    ],
)
def test_parse_path(path, keys):
    assert i18n.parse_path(path) == keys


@pytest.mark.parametrize("bad", ["", "attacks[x].name", "a..b", "[", "name."])
def test_parse_path_rejects_malformed(bad):
    with pytest.raises(ValueError):
        i18n.parse_path(bad)


def test_field_kinds():
    assert i18n.field_kind("name") == "name"
    assert i18n.field_kind("attacks[0].name") == "attack"
    assert i18n.field_kind("pokemon_power.name") == "attack"
    assert i18n.field_kind("attacks[0].text") == "text"
    assert i18n.field_kind("abilities[0].cost.other") == "text"
    assert i18n.field_kind("name", in_set=True) == "set"


# --- strings and coverage --------------------------------------------------------------------


def test_base1_strings_for_french(tmp_path):
    cat = validate([copy_base1(tmp_path)], cache_path=None).catalog
    found = list(i18n.strings(cat, "fr"))
    assert [s.context for s in found[:5]] == [
        "base1 set.name",
        "base1-1 name",
        "base1-1 pokemon_power.name",
        "base1-1 pokemon_power.text",
        "base1-1 attacks[0].name",
    ]
    by_ctx = {s.context: s for s in found}
    fire_spin = by_ctx["base1-4 attacks[0].name"]
    assert (fire_spin.source, fire_spin.translation, fire_spin.state) == ("Fire Spin", "Danseflamme", "current")
    assert fire_spin.keys == ["attacks", 0, "name"]
    assert fire_spin.label == "Charizard (Dracaufeu) · Base Set (base1) #4"
    oak = by_ctx["base1-88 text"]
    assert (oak.source, oak.translation, oak.state) == ("Put your entire hand in the discard pile. Draw 7 cards.", None, "missing")
    assert by_ctx["base1 set.name"].keys == ["name"]
    assert list(i18n.strings(cat, "en")) == []  # English is the Base Set's source language


def test_base1_french_coverage(tmp_path):
    cat = validate([copy_base1(tmp_path)], cache_path=None).catalog
    cov = i18n.coverage(cat, ["fr"])
    rows = {r.kind: (r.total, r.translated, r.outdated) for r in cov.rows}
    assert rows == {"name": (102, 102, 0), "attack": (120, 120, 0), "text": (116, 0, 0), "set": (1, 1, 0)}
    total = cov.total("fr")
    assert (total.total, total.translated, total.missing) == (339, 223, 116)
    assert round(total.percent, 1) == 65.8
    assert cov.below(70) == ["fr"] and cov.below(65) == []
    assert cov.to_json()["languages"][0]["sets"][0]["kinds"][2] == {
        "lang": "fr",
        "set": "base1",
        "kind": "text",
        "total": 116,
        "translated": 0,
        "outdated": 0,
        "missing": 116,
        "percent": 0.0,
    }


def test_every_language_of_base1_is_found(tmp_path):
    cat = validate([copy_base1(tmp_path)], cache_path=None).catalog
    langs = i18n.languages(cat)
    assert {"fr", "de", "it"} <= set(langs) and "en" not in langs
    german = i18n.coverage(cat, ["de"]).total("de")
    assert (german.total, german.translated) == (339, 223)


def test_outdated_when_the_source_changes(tmp_path):
    root = copy_base1(tmp_path)
    path = root / "pokemon" / "base1" / "88-professor-oak.yaml"
    text = path.read_text(encoding="utf-8")
    old_source = "Put your entire hand in the discard pile. Draw 7 cards."
    h = i18n.source_hash(old_source)
    path.write_text(
        text.replace(
            f"  en: {old_source}\n", f"  en: {old_source}\n  fr: Défaussez votre main, puis piochez 7 cartes.\n  _source: {{fr: {h}}}\n"
        ),
        encoding="utf-8",
    )
    cov = i18n.coverage(validate([root], cache_path=None).catalog, ["fr"])
    assert [(r.kind, r.translated, r.outdated) for r in cov.rows if r.kind == "text"] == [("text", 1, 0)]
    path.write_text(path.read_text(encoding="utf-8").replace("Draw 7 cards.", "Then draw 7 cards."), encoding="utf-8")
    cov = i18n.coverage(validate([root], cache_path=None).catalog, ["fr"])
    text_row = next(r for r in cov.rows if r.kind == "text")
    assert (text_row.translated, text_row.outdated, text_row.current) == (1, 1, 0)


def test_japanese_source_coverage(tmp_path):
    cat = validate([copy_ippo(tmp_path)], cache_path=None).catalog
    assert i18n.languages(cat) == ["en", "fr"]
    assert list(i18n.strings(cat, "ja")) == []
    cov = i18n.coverage(cat)
    assert cov.langs == ["en", "fr"]
    fr = {r.kind: (r.total, r.translated) for r in cov.rows if r.lang == "fr"}
    assert fr == {"name": (16, 16), "text": (7, 5), "set": (2, 1)}
    assert (cov.total("en").total, cov.total("en").translated) == (25, 25)
    jab = next(s for s in i18n.strings(cat, "fr") if s.context == "ippo-test-1 name")
    assert (jab.source_lang, jab.source) == ("ja", "テストジャブ")


def test_unknown_set_is_a_usage_error(tmp_path):
    from cardlab.core.errors import UsageError

    cat = validate([copy_base1(tmp_path)], cache_path=None).catalog
    with pytest.raises(UsageError, match="no set 'nope' in the catalog"):
        i18n.coverage(cat, ["fr"], ["nope"])
    assert i18n.coverage(cat, ["fr"], ["BS"]).total("fr").total == 339  # an alias works


# --- rewriting YAML --------------------------------------------------------------------------

CHARIZARD = REPO / "cards" / "pokemon" / "base1" / "4-charizard.yaml"


def _changed_lines(old: str, new: str) -> list[tuple[str, str]]:
    import difflib

    return [(line[0], line[2:]) for line in difflib.ndiff(old.splitlines(), new.splitlines()) if line[:1] in "+-"]


def test_render_edits_flow_and_block_maps(tmp_path):
    charizard = copy_base1(tmp_path) / "pokemon" / "base1" / CHARIZARD.name  # its rules text untranslated
    old = charizard.read_text(encoding="utf-8")
    edits = [
        Edit(("attacks", 0, "name"), "fr", "Tourbillon de feu", "6b4a92e2"),
        Edit(("attacks", 0, "text"), "fr", "Défaussez 2 cartes Énergie de ce Pokémon pour utiliser cette attaque.", "a2f46104"),
    ]
    new = i18n.render_edits(charizard, old, edits)
    assert _changed_lines(old, new) == [
        ("-", "  - name: {en: Fire Spin, fr: Danseflamme, de: Feuerwirbel, it: Turbofuoco}"),
        ("+", "  - name: {en: Fire Spin, fr: Tourbillon de feu, de: Feuerwirbel, it: Turbofuoco, _source: {fr: 6b4a92e2}}"),
        ("+", "      fr: Défaussez 2 cartes Énergie de ce Pokémon pour utiliser cette attaque."),
        ("+", "      _source: {fr: a2f46104}"),
    ]


def test_render_edits_keeps_quoting_and_updates_the_hash(tmp_path):
    path = tmp_path / "1-x.yaml"
    old = "# a comment that stays\nid: t-1\nnumber: '1'\nname:\n  en: Zap  # trailing comment\n  fr: \"Zap!\"\n  _source: {fr: 00000000}\n"
    new = i18n.render_edits(path, old, [Edit(("name",), "fr", "Zip : zap", "0b1f2e3d")])
    assert new == (
        "# a comment that stays\nid: t-1\nnumber: '1'\nname:\n  en: Zap  # trailing comment\n"
        '  fr: "Zip : zap"\n  _source: {fr: 0b1f2e3d}\n'
    )


def test_render_edits_inserts_before_source_and_quotes_numeric_hashes(tmp_path):
    path = tmp_path / "1-x.yaml"
    old = "id: t-1\nname: {en: Zap, _source: {de: abcdef01}}\n"
    new = i18n.render_edits(path, old, [Edit(("name",), "fr", "Zap", "12345678")])
    assert new == "id: t-1\nname: {en: Zap, fr: Zap, _source: {de: abcdef01, fr: '12345678'}}\n"
    import yaml

    assert yaml.safe_load(new)["name"]["_source"]["fr"] == "12345678"


def test_render_edits_matches_sequence_indentation_of_the_file(tmp_path):
    root = copy_ippo(tmp_path)
    path = root / "ippo" / "ippo-test" / "13-test-cheering.yaml"
    old = path.read_text(encoding="utf-8")
    assert "\n- " in old  # this file writes block sequences without an offset
    new = i18n.render_edits(path, old, [Edit(("abilities", 0, "text"), "fr", "Vos cartes Coup gagnent 1 de force.", "9e1ae1ac")])
    assert _changed_lines(old, new) == [("+", "    fr: Vos cartes Coup gagnent 1 de force."), ("+", "    _source: {fr: 9e1ae1ac}")]
    assert new.startswith(old.rstrip("\n").rsplit("\n", 1)[0])


def test_render_edits_keeps_null_spelling(tmp_path):
    path = tmp_path / "set.yaml"
    old = "code: t\nname: {fr: Test}\nsource_language: fr\nprinted_total: null\n"
    new = i18n.render_edits(path, old, [Edit(("name",), "en", "Test", "abcdef01")])
    assert new == "code: t\nname: {fr: Test, en: Test, _source: {en: abcdef01}}\nsource_language: fr\nprinted_total: null\n"


def test_render_edits_refuses_a_layout_it_cannot_reproduce(tmp_path):
    path = tmp_path / "1-x.yaml"
    old = "id: t-1\nname:\n  en: a long plain scalar\n    folded over two lines\n"
    with pytest.raises(DataError) as err:
        i18n.render_edits(path, old, [Edit(("name",), "fr", "x", "abcdef01")])
    assert err.value.problems[0].rule == "yaml-layout"
    assert err.value.problems[0].pos.line == 3


def test_every_shipped_and_fixture_file_round_trips_byte_for_byte():
    files = [*(REPO / "cards").rglob("*.yaml"), *FIXTURES.rglob("*.yaml")]
    files = [f for f in files if f.parent.name != "formats"]
    assert len(files) > 100
    for f in files:
        text = f.read_text(encoding="utf-8")
        yml, tree = i18n_write._faithful_yaml(f, text)  # raises if ruamel would change a byte
        assert tree is not None


def test_commit_writes_only_valid_files_and_keeps_the_mode(tmp_path):
    root = copy_base1(tmp_path)
    good = root / "pokemon" / "base1" / "88-professor-oak.yaml"
    bad = root / "pokemon" / "base1" / "94-potion.yaml"
    good.chmod(0o640)
    good_old, bad_old = good.read_text(encoding="utf-8"), bad.read_text(encoding="utf-8")
    changes = [
        i18n.Change(good, "card", "pokemon", good_old, good_old.replace("Draw 7 cards.", "Draw 8 cards.")),
        i18n.Change(bad, "card", "pokemon", bad_old, bad_old.replace("supertype: Trainer", "supertype: Item")),
    ]
    written, problems = i18n.commit(changes)
    assert written == [good]
    assert "Draw 8 cards." in good.read_text(encoding="utf-8") and good.stat().st_mode & 0o777 == 0o640
    assert bad.read_text(encoding="utf-8") == bad_old
    assert [(p.pos.path, p.pos.line, p.rule) for p in problems] == [(bad, 4, "schema")]
    assert sorted(p.name for p in (root / "pokemon" / "base1").iterdir() if p.name.startswith(".")) == []
