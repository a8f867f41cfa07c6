"""The shipped Pokémon Base Set (base1) card files.

Spot checks always run. When the reference data sits beside the checkout
(../shared/data/pokemon-base1/), every fact of all 102 cards is checked against it.
"""
from __future__ import annotations

import difflib
import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SET_DIR = ROOT / "cards" / "pokemon" / "base1"
SCHEMA_DIR = ROOT / "schema"
SOURCE = ROOT.parent / "shared" / "data" / "pokemon-base1"
ENERGY_TYPES = ["Fighting", "Fire", "Grass", "Lightning", "Psychic", "Water"]


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@cache
def cards_by_number() -> dict[str, dict[str, Any]]:
    cards = {}
    for path in SET_DIR.glob("*.yaml"):
        if path.name != "set.yaml":
            card = _load(path)
            cards[card["number"]] = card
    return cards


def card(number: str) -> dict[str, Any]:
    return cards_by_number()[number]


def _slug(name: str) -> str:
    name = name.replace("♂", " m").replace("♀", " f")
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# --- spot checks (always run) -------------------------------------------------------------


def test_there_are_102_card_files_and_a_set_file():
    files = sorted(p.name for p in SET_DIR.glob("*.yaml"))
    assert "set.yaml" in files
    assert len(files) == 103
    assert sorted(cards_by_number(), key=int) == [str(n) for n in range(1, 103)]


def test_file_names_match_id_number_and_slug():
    for path in SET_DIR.glob("*.yaml"):
        if path.name == "set.yaml":
            continue
        data = _load(path)
        assert data["id"] == f"base1-{data['number']}", path.name
        assert path.name == f"{data['number']}-{_slug(data['name']['en'])}.yaml"


def test_charizard():
    c = card("4")
    assert c["id"] == "base1-4"
    assert c["name"]["en"] == "Charizard"
    assert c["supertype"] == "Pokémon"
    assert c["stage"] == "Stage 2"
    assert c["hp"] == 120
    assert c["types"] == ["Fire"]
    assert c["evolves_from"] == "Charmeleon"
    assert c["pokemon_power"]["name"]["en"] == "Energy Burn"
    (fire_spin,) = c["attacks"]
    assert fire_spin["name"]["en"] == "Fire Spin"
    assert fire_spin["cost"] == ["Fire"] * 4
    assert fire_spin["damage"] == "100"
    assert c["weaknesses"] == [{"type": "Water", "value": "×2"}]
    assert c["retreat_cost"] == 3


def test_charizard_is_dracaufeu_in_french():
    assert card("4")["name"]["fr"] == "Dracaufeu"


def test_double_colorless_energy_is_special():
    c = card("96")
    assert c["name"]["en"] == "Double Colorless Energy"
    assert c["supertype"] == "Energy"
    assert c["energy_type"] == "special"
    assert c["provides"] == ["Colorless", "Colorless"]
    assert c["text"]["en"]


def test_six_basic_energies_provide_their_type():
    basics = {c["name"]["en"]: c for c in cards_by_number().values()
              if c["supertype"] == "Energy" and c["energy_type"] == "basic"}
    assert sorted(basics) == [f"{t} Energy" for t in ENERGY_TYPES]
    for energy_type in ENERGY_TYPES:
        c = basics[f"{energy_type} Energy"]
        assert c["provides"] == [energy_type]
        assert "text" not in c


def test_set_manifest():
    s = _load(SET_DIR / "set.yaml")
    assert s["code"] == "base1"
    assert s["game"] == "pokemon"
    assert s["name"]["en"] == "Base Set"
    assert s["source_language"] == "en"
    assert s["release_date"] == "1999-01-09"
    assert s["printed_total"] == 102
    assert s["aliases"] == ["BS", "base"]


def test_every_file_matches_its_schema():
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMA_DIR.glob("*.schema.json")}
    registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas.values()
    )
    card_schema = Draft202012Validator(schemas["pokemon.card.schema.json"], registry=registry)
    set_schema = Draft202012Validator(schemas["set.schema.json"], registry=registry)
    problems = []
    for path in sorted(SET_DIR.glob("*.yaml")):
        validator = set_schema if path.name == "set.yaml" else card_schema
        problems += [f"{path.name}: {list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(_load(path))]
    assert problems == []


# --- every fact against the reference data (only beside ../shared) -----------------------------

TEXT = "<own words>"


@cache
def source() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    if not (SOURCE / "base1.json").exists():
        pytest.skip("reference data ../shared/data/pokemon-base1 is not beside the checkout")
    cards = json.loads((SOURCE / "base1.json").read_text(encoding="utf-8"))
    names = json.loads((SOURCE / "names-multilingual.json").read_text(encoding="utf-8"))
    set_json = json.loads((SOURCE / "set.json").read_text(encoding="utf-8"))
    return ({c["number"]: c for c in cards}, {c["number"]: c for c in names["cards"]}, names, set_json)


def _names(ml: dict[str, str], en: str | None = None) -> dict[str, str]:
    out = {lang: text.strip() for lang, text in ml.items()}
    if en is not None:  # the English card name is base1.json's (TCGdex writes "Nidoran♂")
        out["en"] = en
    return out


def _expected(src: dict[str, Any], ml: dict[str, Any]) -> dict[str, Any]:
    """The card as cardlab should store it, rules texts replaced by a placeholder."""
    number = src["number"]
    exp: dict[str, Any] = {"id": f"base1-{number}", "number": number, "name": _names(ml["name"], src["name"]),
                           "supertype": src["supertype"]}
    if src["supertype"] == "Pokémon":
        exp["stage"] = src["subtypes"][0]
        exp["level"] = int(src["level"])
        exp["hp"] = int(src["hp"])
        exp["types"] = src["types"]
        if "evolvesFrom" in src:
            exp["evolves_from"] = src["evolvesFrom"]
        if src.get("abilities"):
            (power,) = src["abilities"]
            (ml_power,) = ml["abilities"]
            assert power["type"] == "Pokémon Power" and ml_power["name"]["en"] == power["name"]
            exp["pokemon_power"] = {"name": _names(ml_power["name"]), "text": TEXT}
        exp["attacks"] = []
        assert [a["name"]["en"] for a in ml["attacks"]] == [a["name"] for a in src["attacks"]]
        for atk, ml_atk in zip(src["attacks"], ml["attacks"], strict=True):
            a = {"name": _names(ml_atk["name"]), "cost": atk["cost"]}
            if atk["damage"]:
                a["damage"] = atk["damage"]
            if atk.get("text"):
                a["text"] = TEXT
            exp["attacks"].append(a)
        for key in ("weaknesses", "resistances"):
            if src.get(key):
                exp[key] = src[key]
        exp["retreat_cost"] = src.get("convertedRetreatCost", 0)
    elif src["supertype"] == "Trainer":
        if src.get("hp"):
            exp["hp"] = int(src["hp"])  # Clefairy Doll plays as a 10 HP Pokémon
        exp["text"] = TEXT
    else:
        kind = src["subtypes"][0]
        exp["energy_type"] = kind.lower()
        exp["provides"] = ([src["name"].removesuffix(" Energy")] if kind == "Basic" else ["Colorless", "Colorless"])
        if kind != "Basic":
            exp["text"] = TEXT
    if "rarity" in src:
        exp["rarity"] = src["rarity"]
    exp["illustrator"] = src["artist"]
    if "nationalPokedexNumbers" in src:
        exp["national_pokedex_numbers"] = src["nationalPokedexNumbers"]
    return exp


def _placeholder_texts(data: Any) -> Any:
    """Replace each `text: {en: ...}` by the placeholder, after checking it holds English text."""
    if isinstance(data, list):
        return [_placeholder_texts(x) for x in data]
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key == "text":
                assert isinstance(value, dict) and isinstance(value.get("en"), str) and value["en"].strip()
                out[key] = TEXT
            else:
                out[key] = _placeholder_texts(value)
        return out
    return data


@pytest.mark.parametrize("number", [str(n) for n in range(1, 103)])
def test_card_facts_match_reference_data(number):
    src_cards, ml_cards, _, _ = source()
    src = src_cards[number]
    path = SET_DIR / f"{number}-{_slug(src['name'])}.yaml"
    assert path.exists(), path.name
    actual = _placeholder_texts(_load(path))
    assert actual == _expected(src, ml_cards[number])


def test_set_manifest_matches_reference_data():
    _, _, names, set_json = source()
    s = _load(SET_DIR / "set.yaml")
    assert s["name"] == names["set"]["name"]
    assert s["release_date"] == set_json["releaseDate"].replace("/", "-")
    assert s["printed_total"] == set_json["printedTotal"]
    assert set_json["ptcgoCode"] in s["aliases"]


def _own_texts(data: Any):
    if isinstance(data, list):
        for x in data:
            yield from _own_texts(x)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key == "text":
                yield from (v for k, v in value.items() if k != "_source")
            else:
                yield from _own_texts(value)


def test_rules_texts_are_our_own_words():
    src_cards, _, _, _ = source()
    norm = lambda s: re.sub(r"\s+", " ", s.strip().lower())  # noqa: E731
    sentences = [norm(t) for c in src_cards.values()
                 for t in [x.get("text") for x in c.get("attacks", []) + c.get("abilities", [])] + c.get("rules", [])
                 if t]
    copied = []
    for number, c in cards_by_number().items():
        for text in _own_texts(c):
            for sentence in sentences:
                matcher = difflib.SequenceMatcher(None, norm(text), sentence)
                if matcher.quick_ratio() >= 0.85 and matcher.ratio() >= 0.85:
                    copied.append((number, text))
                    break
    assert copied == []
