"""The shipped Pokémon card files: every set under cards/pokemon.

Spot checks of the Base Set always run. When the reference data sits beside the checkout
(../shared/data/pokemon-<set>/), every fact of every card of every set is checked against it: a
Base Set 2 reprint after the merge with its original (``printed_name`` gives its printed name), so
the reprint's reference entry checks the original's facts too.
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
POKEMON = ROOT / "cards" / "pokemon"
SHARED = ROOT.parent / "shared" / "data"
SOURCE = SHARED / "pokemon-base1"
SETS = sorted(p.parent.name for p in POKEMON.glob("*/set.yaml"))
ENERGY_TYPES = ["Fighting", "Fire", "Grass", "Lightning", "Psychic", "Water"]


def _load(path: Path) -> Any:
    # libyaml, as cardlab reads cards: pure-Python PyYAML rejects a plain " ?" inside a flow
    # mapping ({fr: On joue ?}), which YAML 1.2, libyaml and ruamel.yaml accept
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


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
    name = re.sub(r"_+", "blank", name.replace("♂", " m").replace("♀", " f"))
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
    basics = {c["name"]["en"]: c for c in cards_by_number().values() if c["supertype"] == "Energy" and c["energy_type"] == "basic"}
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
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    card_schema = Draft202012Validator(schemas["pokemon.card.schema.json"], registry=registry)
    set_schema = Draft202012Validator(schemas["set.schema.json"], registry=registry)
    problems = []
    for path in sorted(SET_DIR.glob("*.yaml")):
        validator = set_schema if path.name == "set.yaml" else card_schema
        problems += [f"{path.name}: {list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(_load(path))]
    assert problems == []


# --- every fact of every set against the reference data (only beside ../shared) -----------------

TEXT = "<own words>"
SPECIAL_ENERGY = {
    "Double Colorless Energy": ["Colorless", "Colorless"],
    "Rainbow Energy": ["Any"],
    "Full Heal Energy": ["Colorless"],
    "Potion Energy": ["Colorless"],
}
"""What each special Energy of the era provides (printed on the card; not a field of the reference data)."""


@cache
def catalog():
    from cardlab.catalog.validate import validate

    return validate([ROOT / "cards"], cache_path=None).catalog


@cache
def reference(code: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """``(cards by number, multilingual names by number, names file, set.json)`` of a set."""
    folder = SHARED / f"pokemon-{code}"
    if not (folder / f"{code}.json").exists():
        pytest.skip(f"reference data ../shared/data/pokemon-{code} is not beside the checkout")
    cards = json.loads((folder / f"{code}.json").read_text(encoding="utf-8"))
    names = json.loads((folder / "names-multilingual.json").read_text(encoding="utf-8"))
    set_json = json.loads((folder / "set.json").read_text(encoding="utf-8"))
    return ({c["number"]: c for c in cards}, {c["number"]: c for c in names["cards"]}, names, set_json)


def source() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    return reference("base1")


def _names(ml: dict[str, str], en: str | None = None) -> dict[str, str]:
    out = {lang: text.strip() for lang, text in ml.items() if text.strip()}
    if en is not None:  # the English name is pokemon-tcg-data's (TCGdex writes "Nidoran♂")
        out["en"] = en
    return out


# Multilingual card names that are data errors, which the converter leaves out (card id -> language):
# basep-24's German name "S Pikachu" lost the blank and the apostrophe of "_____'s Pikachu".
BAD_ML_NAMES = {"basep-24": "de"}

# Names the reference data has wrong, corrected in our cards from a second source (issue 32, item 5;
# each card's notes say which): (card id, the name's place, language) -> the name we ship.
CORRECTED_NAMES = {
    ("basep-3", "name", "fr"): "Mewtwo",  # the reference: "Deuxmiaou"
    ("basep-5", "name", "de"): "Dragoran",  # the reference: "Dragoran (Dragonit)", an editor's remark
    ("basep-38", "attack 0", "fr"): "Puissance Cachée",  # the reference: "Puis Cachee", cut short
    ("base3-15", "name", "fr"): "Électhor",  # the reference: "Élector"
    ("base3-30", "name", "fr"): "Électhor",
}


def _corrected(card_id: str, where: str, names: dict[str, str]) -> dict[str, str]:
    """``names`` with the corrections of :data:`CORRECTED_NAMES` for that card and place."""
    return {lang: CORRECTED_NAMES.get((card_id, where, lang), text) for lang, text in names.items()}


def _expected(code: str, src: dict[str, Any], ml: dict[str, Any], reprint: bool = False) -> dict[str, Any]:
    """The card as cardlab should hold it, rules texts replaced by a placeholder. For a reprint
    only the English names are compared (the other languages are the original's)."""

    def names(ml_names: dict[str, str], en: str) -> dict[str, str]:
        return {"en": en} if reprint else _names(ml_names, en)

    number = src["number"]
    card_names = dict(ml["name"])
    if f"{code}-{number}" in BAD_ML_NAMES:
        card_names.pop(BAD_ML_NAMES[f"{code}-{number}"])
    exp: dict[str, Any] = {
        "id": f"{code}-{number}",
        "number": number,
        "name": _corrected(f"{code}-{number}", "name", names(card_names, src["name"])),
        "supertype": src["supertype"],
    }
    subtypes = src.get("subtypes") or []
    if src["supertype"] == "Pokémon":
        exp["stage"] = subtypes[0]
        if src.get("level"):
            exp["level"] = int(src["level"])
        exp["hp"] = int(src["hp"])
        exp["types"] = src["types"]
        if src.get("evolvesFrom"):
            exp["evolves_from"] = src["evolvesFrom"]
        if src.get("abilities"):
            (power,) = src["abilities"]
            (ml_power,) = ml["abilities"]
            exp["pokemon_power"] = {"name": names(ml_power["name"], power["name"]), "text": TEXT}
            if power["type"] != "Pokémon Power":
                exp["pokemon_power"]["kind"] = power["type"]
        exp["attacks"] = []
        attacks = src.get("attacks", [])
        assert len(ml["attacks"]) == len(attacks)
        for k, (atk, ml_atk) in enumerate(zip(attacks, ml["attacks"], strict=True)):
            a = {"name": _corrected(f"{code}-{number}", f"attack {k}", names(ml_atk["name"], atk["name"])), "cost": atk["cost"]}
            if atk["damage"]:
                a["damage"] = atk["damage"]
            if atk.get("text"):
                a["text"] = TEXT
            exp["attacks"].append(a)
        for key in ("weaknesses", "resistances"):
            if src.get(key):
                exp[key] = src[key]
        exp["retreat_cost"] = src.get("convertedRetreatCost", 0)
        if src.get("rules"):
            exp["text"] = TEXT  # the Baby rule, Unown's deck limit
    elif src["supertype"] == "Trainer":
        if src.get("hp"):
            exp["hp"] = int(src["hp"])  # Clefairy Doll, Mysterious Fossil play as Pokémon
        if subtypes:
            exp["trainer_type"] = subtypes[0]
        exp["text"] = TEXT
    else:
        kind = subtypes[0]
        exp["energy_type"] = kind.lower()
        exp["provides"] = [src["name"].removesuffix(" Energy")] if kind == "Basic" else SPECIAL_ENERGY[src["name"]]
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


def _actual(card: dict[str, Any], reprint: bool) -> dict[str, Any]:
    """A catalog card ready to compare: the printed name for a reprint's name, notes (where the
    sources disagree, for contributors), the community's names (also_known_as: not in the
    reference data) and the reprint link left out."""
    data = {k: v for k, v in card.items() if k not in ("notes", "reprint_of", "printed_name", "also_known_as")}
    if reprint:
        printed = (card.get("printed_name") or card["name"])["en"]
        data["name"] = {"en": printed}
        power = data.get("pokemon_power")
        if power:
            data["pokemon_power"] = {**power, "name": {"en": power["name"]["en"]}}
        data["attacks"] = [{**a, "name": {"en": a["name"]["en"]}} for a in data.get("attacks", [])] or data.get("attacks")
        if data["attacks"] is None:
            del data["attacks"]
    return _placeholder_texts(data)


def _card_ids() -> list[str]:
    ids = []
    for code in SETS:
        for path in (POKEMON / code).glob("*.yaml"):
            if path.name != "set.yaml":
                ids.append(f"{code}-{path.name.split('-', 1)[0]}")
    return sorted(ids, key=lambda i: (i.rsplit("-", 1)[0], int(re.sub(r"\D", "", i.rsplit("-", 1)[1]) or 0)))


@pytest.mark.parametrize("card_id", _card_ids())
def test_card_facts_match_reference_data(card_id):
    code, number = card_id.rsplit("-", 1)
    src_cards, ml_cards, _, _ = reference(code)
    src = src_cards[number]
    path = POKEMON / code / f"{number}-{_slug(src['name'])}.yaml"
    assert path.exists(), path.name
    card = catalog().cards[card_id]
    reprint = "reprint_of" in card
    assert _actual(card, reprint) == _expected(code, src, ml_cards[number], reprint)


@pytest.mark.parametrize("code", SETS)
def test_every_reference_card_has_a_file(code):
    src_cards, _, _, _ = reference(code)
    files = {p.name.split("-", 1)[0] for p in (POKEMON / code).glob("*.yaml") if p.name != "set.yaml"}
    assert sorted(files, key=int) == sorted(src_cards, key=int)


@pytest.mark.parametrize("code", SETS)
def test_set_manifest_matches_reference_data(code):
    _, _, names, set_json = reference(code)
    s = _load(POKEMON / code / "set.yaml")
    assert s["code"] == code and s["game"] == "pokemon"
    assert s["name"] == {k: v.strip() for k, v in names["set"]["name"].items() if v.strip()}
    assert s["release_date"] == set_json["releaseDate"].replace("/", "-")
    assert s["printed_total"] == set_json["printedTotal"]
    assert s.get("total", s["printed_total"]) == set_json["total"]
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


@pytest.mark.parametrize("code", SETS)
def test_rules_texts_are_our_own_words(code):
    src_cards, _, _, _ = reference(code)
    norm = lambda s: re.sub(r"\s+", " ", s.strip().lower())  # noqa: E731
    sentences = [
        norm(t)
        for c in src_cards.values()
        for t in [x.get("text") for x in c.get("attacks", []) + c.get("abilities", [])] + c.get("rules", [])
        if t
    ]
    copied = []
    for path in sorted((POKEMON / code).glob("*.yaml")):
        if path.name == "set.yaml":
            continue
        for text in _own_texts(_load(path)):
            for sentence in sentences:
                matcher = difflib.SequenceMatcher(None, norm(text), sentence)
                if matcher.quick_ratio() >= 0.85 and matcher.ratio() >= 0.85:
                    copied.append((path.name, text))
                    break
    assert copied == []
