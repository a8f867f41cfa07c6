"""Ippo and Monpa: schemas against good and bad fixtures, search facets, display, and the
contributor commands (``cardlab sets``, ``cardlab card new``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cardlab.catalog.validate import validate
from cardlab.cli.whole import app
from cardlab.contrib import new_card as contrib
from cardlab.games import ippo, monpa
from cardlab.games.base import DetailRow, Span
from cardlab.render.cards import markup

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures"
GOOD = FIXTURES / "catalog"
BAD = FIXTURES / "bad"

# bad fixture set (tests/fixtures/bad/<game>/<case>) -> expected "file:line:col: message" fragment
BAD_CASES = {
    "ippo/number-0": '0-bad-test.yaml:2:9: number: "0" does not have the expected form (a whole number from 1 to 162',
    "ippo/number-163": '163-bad-test.yaml:2:9: number: "163" does not have the expected form (a whole number from 1 to 162',
    "ippo/unknown-attribute": '1-bad-test.yaml:8:25: start_cost.attributes.1: "fire" is not one of "courage", "kan", "technique", "calm"',
    "ippo/unknown-timing": '1-bad-test.yaml:11:13: abilities.0.timing: "always" is not one of "placement", "fast", "boxing"',
    "ippo/blow-without-type": "1-bad-test.yaml:1:1: missing field 'blow_type'",
    "ippo/defense-with-blow-power": "1-bad-test.yaml:8:1: unknown field 'blow_power'",
    # issue 33: a misspelt blow type hides nothing else; keywords tied to card kinds (seed 000)
    "ippo/blow-type-misspelt": '1-bad-test.yaml:6:12: blow_type: "stright" is not one of "straight", "hook", "upper", "special"',
    "ippo/shut-off-on-blow": '1-bad-test.yaml:10:13: abilities.0.keywords: ["shut-off"]: shut-off belongs to Defense cards (seed 000',
    "ippo/knock-down-on-defense": 'abilities.0.keywords: ["knock-down"]: guard-break and knock-down belong to Blow cards (seed 000',
    "ippo/knock-down-without-damage": "1-bad-test.yaml:10:3: abilities.0: missing field 'damage_effect': knock-down is a damage effect",
    "ippo/fight-without-timing": "1-bad-test.yaml:7:3: abilities.0: missing field 'timing': a Fight card's ability is printed with its timing (seed 000, 'Carte de combat'",
    "monpa/servant-without-attack": "1-bad-test.yaml:1:1: missing field 'attack'",
    "monpa/commander-with-mana": "1-bad-test.yaml:6:1: unknown field 'mana'",
    "monpa/mana-negative": "1-bad-test.yaml:6:7: mana: -1 is out of range: must be at least 0",
}


def _card(game: str, number: int) -> dict:
    folder = GOOD / game / f"{game}-test"
    path = next(folder.glob(f"{number}-*.yaml"))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _rows(card: dict, game_module) -> set[tuple]:  # noqa: ANN001
    return set(game_module.facets(card))


# --- data ------------------------------------------------------------------------------------


def test_fixture_catalogs_are_valid():
    result = validate([GOOD / "ippo", GOOD / "monpa"], cache_path=None)
    assert result.problems == []
    ids = sorted(result.catalog.cards)
    assert len([i for i in ids if i.startswith("ippo-test-")]) == 16
    assert len([i for i in ids if i.startswith("monpa-test-")]) == 16


def test_fixtures_cover_every_kind():
    ippo_kinds = {_card("ippo", n)["kind"] for n in range(1, 17)}
    monpa_types = {_card("monpa", n)["type"] for n in range(1, 17)}
    assert ippo_kinds == set(ippo.SKELETON_KINDS)
    assert monpa_types == set(monpa.SKELETON_KINDS)
    assert _card("ippo", 1)["name"] == {"ja": "テストジャブ", "fr": "Jab de test", "en": "Test Jab"}


def test_shipped_sets_record_no_invented_card():
    for game, code, total in (("ippo", "ippo1", 162), ("monpa", "monpa-beta", None)):
        folder = REPO / "cards" / game
        assert sorted(p.name for p in folder.rglob("*.yaml") if "formats" not in p.parts) == ["set.yaml"]
        data = yaml.safe_load((folder / code / "set.yaml").read_text(encoding="utf-8"))
        assert data["printed_total"] == total
        assert "0 cards are recorded" in data["recorded"]


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_fixture_fails_with_position(case):
    result = validate([BAD / case], cache_path=None)
    assert result.problems, case
    assert all(p.rule in ("schema", "number-range") for p in result.problems)
    texts = [str(p) for p in result.problems]
    assert any(BAD_CASES[case] in t for t in texts), texts


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_cli_validate_bad_fixture(runner, case):
    result = runner.invoke(app, ["validate", str(BAD / case)])
    assert result.exit_code == 1
    assert BAD_CASES[case] in result.stderr
    assert "(schema)" in result.stderr


def test_tap_only_cost_is_not_a_localized_map(tmp_path):
    """{T} alone ({tap: true}) is a cost, not text in a language called 'tap'."""
    root = tmp_path / "catalog"
    shutil.copytree(GOOD / "monpa" / "monpa-test", root / "monpa" / "monpa-test")
    card = root / "monpa" / "monpa-test" / "3-charme-test.yaml"
    data = yaml.safe_load(card.read_text(encoding="utf-8"))
    data["effects"][0]["cost"] = {"tap": True}
    card.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert validate([root], cache_path=None).problems == []


# --- facets and display ----------------------------------------------------------------------


def test_ippo_blow_facets():
    rows = _rows(_card("ippo", 5), ippo)  # Test Finisher: special, calm calm courage + 2, power 6
    assert {
        ("kind", "blow", None),
        ("blow", "special", None),
        ("attr", "calm", None),
        ("attr", "courage", None),
        ("attr", "generic", None),
        ("power", "6", 6.0),
        ("stars", "4", 4.0),
        ("cost", "5", 5.0),
        ("kw", "knock down", None),
        ("kw", "guard break", None),
        ("kw", "ノックダウン", None),
    } <= rows
    assert not any(f in ("def", "blocks", "timing") for f, _, _ in rows)


def test_ippo_defense_support_fight_facets():
    weave = _rows(_card("ippo", 9), ippo)
    assert {
        ("kind", "defense", None),
        ("blocks", "hook", None),
        ("blocks", "upper", None),
        ("def", "4", 4.0),
        ("kw", "shut off", None),
        ("timing", "boxing", None),
        ("attr", "generic", None),
        ("cost", "0", 0.0),
    } <= weave
    assert not any(f in ("power", "blow") for f, _, _ in weave)
    talk = _rows(_card("ippo", 12), ippo)
    assert {("kind", "support", None), ("timing", "placement", None), ("cost", "1", 1.0)} <= talk
    bell = _rows(_card("ippo", 15), ippo)
    assert {("kind", "fight", None), ("kw", "round up", None), ("attr", "calm", None)} <= bell


def test_monpa_facets():
    spell = _rows(_card("monpa", 5), monpa)  # Sort Test: X mana, Rapide, Prédiction 2
    assert {
        ("type", "spell", None),
        ("type", "sort", None),
        ("element", "eau", None),
        ("mana", "x", None),
        ("kw", "rapide", None),
        ("kw", "fast", None),
        ("kw", "prediction", 2.0),
    } <= spell
    assert not any(f == "mana" and n is not None for f, _, n in spell)
    commander = _rows(_card("monpa", 1), monpa)
    assert not any(f in ("mana", "atk", "def") for f, _, _ in commander)
    mystery = _rows(_card("monpa", 6), monpa)
    assert {("atk", "?", None), ("def", "1", 1.0), ("mana", "?", None)} <= mystery
    guardian = _rows(_card("monpa", 7), monpa)
    assert {("kw", "upkeep", None), ("kw", "entretien", None), ("atk", "1", 1.0)} <= guardian


def test_ippo_display():
    jab = _card("ippo", 1)
    assert ippo.type_line(jab) == "Blow · Straight"
    assert ippo.type_line(jab, ["ja"]) == "ブロー · ストレート"
    assert ippo.key_stats(jab) == "power 2 · cost 1 · ★"
    detail = {r.label: markup(r.spans) for r in ippo.details(_card("ippo", 5), ["en"], "ja")}
    assert detail["Start cost"] == "[blue]●[/][blue]●[/][red]▲[/] ②"
    assert "勇気" in detail["Attributes"] and "[red]▲[/]" in detail["Attributes"]
    assert "Knock-down (ノックダウン)" in detail["Ability"]
    assert ippo.key_stats(_card("ippo", 7)) == "def 3 · power +1 · ★"


def test_monpa_display():
    assert monpa.type_line(_card("monpa", 4)) == "Serviteur · feu"
    assert monpa.key_stats(_card("monpa", 4)) == "{3} · 3/2"
    assert monpa.key_stats(_card("monpa", 1)) == "no cost"
    detail = [(r.label, markup(r.spans)) for r in monpa.details(_card("monpa", 5), ["fr"], "fr")]
    assert ("Mana", "{X}") in detail
    assert ("Effect 2", "[italic]Prédiction 2[/]") in detail
    assert DetailRow("Mana", (Span("no mana cost", "dim"),)) in monpa.details(_card("monpa", 2))
    assert DetailRow("Effect", (Span("{T}, {1} : Créez un jeton Petit Test."),)) in monpa.details(_card("monpa", 8))


def test_every_fixture_card_renders():
    for game, module in (("ippo", ippo), ("monpa", monpa)):
        for n in range(1, 17):
            card = _card(game, n)
            assert module.type_line(card, ["en"]) and module.key_stats(card)
            assert module.details(card, ["en"], "ja" if game == "ippo" else "fr")
            assert list(module.check(None)) == []


# --- contributor workflow --------------------------------------------------------------------


def test_compact_ranges():
    assert contrib.compact_ranges([]) == ""
    assert contrib.compact_ranges(list(range(1, 163))) == "1-162"
    assert contrib.compact_ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"


def test_sets_command_shipped(runner):
    result = runner.invoke(app, ["sets"])
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.stdout.splitlines() if " ippo1 " in ln)
    assert "0/162" in line
    assert "0/?" in next(ln for ln in result.stdout.splitlines() if "monpa-beta" in ln)
    missing = runner.invoke(app, ["sets", "ippo1", "--missing"])
    assert missing.exit_code == 0
    assert missing.stdout.strip() == "ippo1: 1-162"


def test_sets_command_fixtures(runner):
    result = runner.invoke(app, ["sets", "--missing", "--catalog", str(GOOD)])
    assert "ippo-test: 17-162" in result.stdout
    assert "monpa-test: printed total unknown" in result.stdout
    unknown = runner.invoke(app, ["sets", "nope", "--catalog", str(GOOD)])
    assert unknown.exit_code == 2
    assert "no set 'nope'" in unknown.stderr


@pytest.fixture
def catalog_copy(tmp_path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(GOOD / "ippo", root / "ippo")
    shutil.copytree(GOOD / "monpa", root / "monpa")
    return root


def _fill(path: Path, **values) -> None:
    """Edit a new card as a contributor would: set values, keep the comments (ruamel round trip)."""
    from ruamel.yaml import YAML

    yml = YAML()
    data = yml.load(path.read_text(encoding="utf-8"))
    for dotted, value in values.items():
        node = data
        *parents, last = dotted.split(".")
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value
    with path.open("w", encoding="utf-8") as out:
        yml.dump(data, out)


def test_card_new_edit_validate_round_trip(runner, catalog_copy):
    args = [
        "card",
        "new",
        "--catalog",
        str(catalog_copy),
        "--set",
        "ippo-test",
        "--number",
        "20",
        "--kind",
        "defense",
        "--slug",
        "test-wall",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    path = catalog_copy / "ippo" / "ippo-test" / "20-test-wall.yaml"
    text = path.read_text(encoding="utf-8")
    assert "id: ippo-test-20" in text and 'number: "20"' in text and "# " in text
    assert not list(path.parent.glob(".*.tmp"))
    before = runner.invoke(app, ["validate", "--catalog", str(catalog_copy), str(path)])
    assert before.exit_code == 1  # the skeleton's nulls must be filled in
    assert "20-test-wall.yaml:9:7: name.ja: " in before.stderr  # the empty "" placeholder
    _fill(
        path,
        **{
            "name.ja": "テストウォール",
            "notes": "fictional test card",
            "stars": 2,
            "blocks": ["straight"],
            "defense_power": 3,
            "generates.attributes": ["calm"],
        },
    )
    after = runner.invoke(app, ["validate", "--catalog", str(catalog_copy), str(path)])
    assert after.exit_code == 0, after.output
    again = runner.invoke(app, args)
    assert again.exit_code == 1
    assert "already exists" in again.stderr
    assert path.read_text(encoding="utf-8") != text  # the edited file was not overwritten
    counts = runner.invoke(app, ["sets", "ippo-test", "--catalog", str(catalog_copy)])
    assert "17/162" in counts.stdout


@pytest.mark.parametrize("kind", ["servant", "spell", "charm", "commander", "favor"])
def test_monpa_skeleton_round_trip(catalog_copy, kind):
    cat = contrib.load([catalog_copy])
    path = contrib.new_card(cat, "monpa-test", "30", name="Carte Neuve", kind=kind)
    assert path.name == "30-carte-neuve.yaml"
    values = {"notes": "fictional", "element": "feu", "effects.0.text.fr": "Piochez une carte."}
    if kind not in ("commander", "favor"):
        values["mana"] = "X"
    if kind == "servant":
        values |= {"attack": 2, "defense": "?"}
    _fill(path, **values)
    assert validate([catalog_copy], cache_path=None).problems == []


@pytest.mark.parametrize("kind", ippo.SKELETON_KINDS)
def test_ippo_skeleton_parses_and_names_every_field(kind):
    text = contrib.skeleton("ippo", kind, card_id="ippo1-7", number="7", source="ja", name="Liver Blow", lang="en")
    data = yaml.safe_load(text)
    assert data["kind"] == kind and data["name"] == {"en": "Liver Blow", "ja": ""}
    fields = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    uncommented = [ln for ln in fields if "#" not in ln]
    assert uncommented == ['  en: "Liver Blow"']  # every field but the name given says what goes there


def test_card_new_refuses_bad_input(catalog_copy):
    cat = contrib.load([catalog_copy])
    from cardlab.core.errors import CardlabError, UsageError

    with pytest.raises(UsageError, match="from 1 to 162"):
        contrib.new_card(cat, "ippo-test", "163")
    with pytest.raises(UsageError, match="unknown kind"):
        contrib.new_card(cat, "ippo-test", "30", kind="servant")
    with pytest.raises(UsageError, match="no set"):
        contrib.new_card(cat, "nope", "1")
    with pytest.raises(CardlabError, match="already exists"):
        contrib.new_card(cat, "ippo-test", "1")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('kw:"guard break"', ["ippo-test-3", "ippo-test-5"]),
        ("kw:knock-down", ["ippo-test-4", "ippo-test-5"]),
        ("attr:courage power>=4", ["ippo-test-2", "ippo-test-4", "ippo-test-5"]),
        ("blocks:upper", ["ippo-test-9", "ippo-test-10"]),
        ("ジャブ", ["ippo-test-1"]),
        ("type:serviteur atk>=3", ["monpa-test-4", "monpa-test-11", "monpa-test-16"]),
        ("mana=0", ["monpa-test-12"]),
        ("kw:entretien", ["monpa-test-7", "monpa-test-16"]),
    ],
)
def test_search_by_game_fields(runner, tmp_path, query, expected):
    db = tmp_path / "index.sqlite"
    result = runner.invoke(app, ["search", query, "--catalog", str(GOOD), "--db", str(db), "--output-format", "ids"])
    assert result.exit_code == 0, result.output
    assert sorted(result.stdout.split()) == sorted(expected)
