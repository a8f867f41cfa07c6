"""The vintage Pokémon catalog: reprints merged with their original, the reprint-of rule, Metal and
Darkness energy, Trainers played as Basic Pokémon in evolves_from, the sets players' codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.catalog.model import PRINTING_FIELDS, merge_reprint, play_key
from cardlab.catalog.validate import validate
from cardlab.cli.whole import app
from cardlab.core.paths import shipped_catalog
from cardlab.i18n.strings import strings

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def catalog():
    return validate([shipped_catalog()], cache_path=None).catalog


def _write(test_set: Path, name: str, text: str) -> Path:
    path = test_set / "pokemon" / "test1" / name
    path.write_text(text, encoding="utf-8")
    return path


def test_sets_and_counts(catalog):
    counts = {}
    for code in catalog.card_set.values():
        if catalog.sets[code].game == "pokemon":
            counts[code] = counts.get(code, 0) + 1
    assert counts == {"base1": 102, "base2": 64, "base3": 62, "base4": 130, "base5": 83, "basep": 53, "gym1": 132, "gym2": 132}


def test_reprint_takes_every_field_of_the_original(catalog):
    oak = catalog.cards["base4-102"]
    original = catalog.cards["base1-73"]
    assert oak["id"] == "base4-102" and oak["number"] == "102" and oak["reprint_of"] == "base1-73"
    assert oak["name"] == original["name"] and oak["name"]["en"] == "Impostor Professor Oak"
    assert oak["printed_name"] == {"en": "Imposter Professor Oak"}
    assert oak["supertype"] == "Trainer" and oak["text"] == original["text"]
    assert (oak["rarity"], oak["illustrator"]) == ("Rare", "Ken Sugimori")
    assert catalog.file_data("base4-102") == {
        "id": "base4-102",
        "number": "102",
        "name": {"en": "Impostor Professor Oak"},
        "printed_name": {"en": "Imposter Professor Oak"},
        "reprint_of": "base1-73",
        "rarity": "Rare",
        "illustrator": "Ken Sugimori",
    }
    zard = catalog.cards["base4-4"]
    assert (zard["hp"], zard["evolves_from"], zard["name"]["fr"]) == (120, "Charmeleon", "Dracaufeu")
    assert zard["attacks"] == catalog.cards["base1-4"]["attacks"]
    assert len(catalog.own) == 130 and sum(len(v) for v in catalog.reprints.values()) == 130
    assert catalog.reprints["base1-4"] == ["base4-4"]
    assert catalog.printings("base4-4") == ["base1-4", "base4-4"]


def test_merge_keeps_only_the_reprints_printing_fields():
    original = {
        "id": "a-1",
        "number": "1",
        "name": {"en": "X"},
        "hp": 50,
        "rarity": "Rare",
        "notes": "about a-1",
        "illustrator": "A",
        "printed_name": {"en": "Xx"},
    }
    reprint = {"id": "b-9", "number": "9", "name": {"en": "X"}, "reprint_of": "a-1", "rarity": "Common"}
    assert merge_reprint(reprint, original) == {
        "id": "b-9",
        "number": "9",
        "name": {"en": "X"},
        "hp": 50,
        "rarity": "Common",
        "reprint_of": "a-1",
    }
    assert set(PRINTING_FIELDS) == {"id", "number", "rarity", "illustrator", "notes", "printed_name"}


def test_play_key_ignores_printing_and_translations(catalog):
    assert play_key(catalog.cards["base2-10"]) == play_key(catalog.cards["base2-26"])  # holo and plain Scyther
    assert play_key(catalog.cards["base1-99"]) == play_key(catalog.cards["gym1-129"])  # Grass Energy
    assert play_key(catalog.cards["base1-58"]) != play_key(catalog.cards["base2-60"])  # two Pikachu
    assert catalog.oracle_of("base4-17") == "base2-10" and catalog.oracle_of("gym1-129") == "base1-99"


def test_reprint_of_a_missing_card_is_positioned(runner, test_set):
    path = _write(test_set, "5-ghost.yaml", 'id: test1-5\nnumber: "5"\nname: {en: Ghostmon}\nreprint_of: test1-9\n')
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1
    assert f"{path}:4:13: reprint_of 'test1-9' names no card of the catalog (reprint-of)" in result.stderr


def test_reprint_of_a_reprint_is_positioned(runner, test_set):
    _write(test_set, "5-testmon.yaml", 'id: test1-5\nnumber: "5"\nname: {en: Testmon}\nreprint_of: test1-1\n')
    path = _write(test_set, "6-testmon.yaml", 'id: test1-6\nnumber: "6"\nname: {en: Testmon}\nreprint_of: test1-5\n')
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1
    assert f"{path}:4:13: reprint_of 'test1-5' names a reprint (of test1-1); name the original card (reprint-of)" in result.stderr
    assert "5-testmon.yaml" not in result.stderr
    cat = validate([test_set], cache_path=None).catalog
    assert cat.cards["test1-5"]["hp"] == 60 and "hp" not in cat.cards["test1-6"]


def test_evolves_from_a_trainer_played_as_a_basic_pokemon(runner, test_set):
    _write(
        test_set,
        "5-odd-fossil.yaml",
        'id: test1-5\nnumber: "5"\nname: {en: Odd Fossil}\nsupertype: Trainer\nhp: 10\ntext: {en: Play this card as a Basic Pokémon.}\n',
    )
    _write(
        test_set,
        "6-fossilmon.yaml",
        'id: test1-6\nnumber: "6"\nname: {en: Fossilmon}\nsupertype: Pokémon\n'
        "stage: Stage 1\nhp: 60\ntypes: [Fighting]\nevolves_from: Odd Fossil\nattacks: []\n",
    )
    assert runner.invoke(app, ["validate", str(test_set)]).exit_code == 0
    _write(
        test_set, "5-odd-fossil.yaml", 'id: test1-5\nnumber: "5"\nname: {en: Odd Fossil}\nsupertype: Trainer\ntext: {en: Just a Trainer.}\n'
    )
    result = runner.invoke(app, ["validate", str(test_set)])
    assert result.exit_code == 1
    assert "6-fossilmon.yaml:8:15: evolves_from 'Odd Fossil' names no Pokémon in the catalog (evolves-from)" in result.stderr


def test_fossil_evolutions_are_valid(catalog):
    assert catalog.cards["base3-1"]["evolves_from"] == "Mysterious Fossil"
    assert catalog.cards["base3-62"]["hp"] == 10 and catalog.cards["base3-62"]["supertype"] == "Trainer"


def test_metal_and_darkness_types(runner, catalog, test_set):
    assert catalog.cards["basep-33"]["types"] == ["Metal"]
    _write(
        test_set,
        "5-darkmon.yaml",
        'id: test1-5\nnumber: "5"\nname: {en: Darkmon}\nsupertype: Pokémon\nstage: Basic\n'
        "hp: 50\ntypes: [Darkness]\nattacks:\n  - name: {en: Bite}\n    cost: [Darkness, Metal]\n"
        '    damage: "20"\n',
    )
    assert runner.invoke(app, ["validate", str(test_set)]).exit_code == 0


def test_translations_of_a_reprint_stay_with_its_original(catalog):
    found = [s for s in strings(catalog, "fr", ["base4"])]
    assert [s.owner for s in found if s.owner.startswith("base4-")] == ["base4-102"]  # only the print variant's spelling
    [oak] = [s for s in found if s.owner == "base4-102"]
    assert (oak.path, oak.source, oak.file) == ("printed_name", "Imposter Professor Oak", catalog.paths["base4-102"])
    assert oak.label == "Impostor Professor Oak (Faux Professeur Chen) · Base Set 2 (base4) #102"
    zard = [s for s in strings(catalog, "fr", ["base1"]) if s.owner == "base1-4" and s.path == "name"]
    assert zard[0].translation == "Dracaufeu"  # translated once, on the original


@pytest.mark.parametrize(
    ("alias", "code"),
    [("BS", "base1"), ("JU", "base2"), ("FO", "base3"), ("B2", "base4"), ("TR", "base5"), ("PR", "basep"), ("G1", "gym1")],
)
def test_ptcgo_codes(catalog, alias, code):
    assert catalog.find_set(alias).code == code
    assert catalog.find_set(alias.lower()).code == code


@pytest.mark.parametrize(
    "target", ["cards/pokemon/base4", "cards/pokemon/base2", "cards/pokemon/base4/1-alakazam.yaml", "cards/pokemon/base3/1-aerodactyl.yaml"]
)
def test_a_set_or_file_of_the_catalog_is_checked_with_the_whole_catalog(runner, target):
    # a reprint's original and an evolution's Pokémon are in other sets
    result = runner.invoke(app, ["validate", str(REPO / target), "--catalog", str(REPO / "cards")])
    assert result.exit_code == 0, result.output
    shown = "131 files" if target.endswith("base4") else "65 files" if target.endswith("base2") else "1 file"
    assert result.stdout.strip() == f"ok: {shown}, no problems"


def test_a_problem_elsewhere_is_not_reported_for_the_named_set(runner, test_set):
    _write(test_set, "5-ghost.yaml", 'id: test1-5\nnumber: "5"\nname: {en: Ghostmon}\nreprint_of: test1-9\n')
    result = runner.invoke(app, ["validate", str(test_set / "pokemon" / "test1" / "1-testmon.yaml"), "--catalog", str(test_set)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["validate", str(test_set / "pokemon" / "test1" / "5-ghost.yaml"), "--catalog", str(test_set)])
    assert result.exit_code == 1 and "reprint_of 'test1-9' names no card" in result.stderr


def test_proxies_print_a_reprint_whole_and_metal_energy(catalog):
    import io

    from pypdf import PdfReader

    from cardlab.proxies import pdf as px

    data, _ = px.render_pdf(catalog, ["base4-4", "basep-33", "base4-102"], px.ProxyOptions())
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages)
    for part in (
        "Charizard",
        "120 HP",
        "Energy Burn",
        "Fire Spin",
        "base4 · 4/130 · Rare Holo",
        "Scizor",
        "Metal",
        "Impostor Professor Oak",
    ):
        assert part in text, part
