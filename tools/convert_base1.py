"""One-off conversion of the Pokémon Base Set (base1) reference data into cardlab YAML files.

Reads ../shared/data/pokemon-base1/ (base1.json, set.json, names-multilingual.json) beside the
checkout, plus the rules texts written in our own words in tools/base1_texts.yaml, and writes
cards/pokemon/base1/set.yaml and one <number>-<slug>.yaml per card. Afterwards the YAML files are
the source of truth; the product never reads ../shared.

Usage: python tools/convert_base1.py [SOURCE_DIR]
"""
from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString as Q

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "pokemon-base1"
OUT = ROOT / "cards" / "pokemon" / "base1"
TEXTS = ROOT / "tools" / "base1_texts.yaml"
SET_CODE = "base1"


def slug(name: str) -> str:
    """English card name -> file-name slug: `Nidoran ♂` -> `nidoran-m`, `Pokédex` -> `pokedex`."""
    name = name.replace("♂", " m").replace("♀", " f")
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def flow_map(data: dict[str, Any]) -> CommentedMap:
    m = CommentedMap(data)
    m.fa.set_flow_style()
    return m


def flow_seq(items: list[Any]) -> CommentedSeq:
    s = CommentedSeq(items)
    s.fa.set_flow_style()
    return s


def localized(names: dict[str, str]) -> CommentedMap:
    """Names in en/fr/de/it order, surrounding whitespace trimmed (one Italian name has a stray space)."""
    order = ["en", "fr", "de", "it"]
    keys = [k for k in order if k in names] + [k for k in names if k not in order]
    return flow_map({k: names[k].strip() for k in keys if names[k].strip()})


def en_text(text: str) -> CommentedMap:
    return CommentedMap({"en": text})


def card_names(ml_name: dict[str, str], en_name: str) -> CommentedMap:
    # The English name comes from base1.json (TCGdex writes "Nidoran♂" where pokemontcg.io has "Nidoran ♂").
    return localized({**ml_name, "en": en_name})


def convert_card(card: dict[str, Any], ml: dict[str, Any], texts: dict[str, Any]) -> CommentedMap:
    number = card["number"]
    own = texts.get(number, {})
    out = CommentedMap()
    out["id"] = f"{SET_CODE}-{number}"
    out["number"] = Q(number)
    out["name"] = card_names(ml["name"], card["name"])
    out["supertype"] = card["supertype"]
    subtypes = card.get("subtypes") or []

    if card["supertype"] == "Trainer" and card.get("hp"):
        out["hp"] = int(card["hp"])  # Clefairy Doll plays as a 10 HP Pokémon
    if card["supertype"] == "Pokémon":
        (stage,) = subtypes
        out["stage"] = stage
        if card.get("level"):
            out["level"] = int(card["level"])
        out["hp"] = int(card["hp"])
        out["types"] = flow_seq(list(card["types"]))
        if card.get("evolvesFrom"):
            out["evolves_from"] = card["evolvesFrom"]
        powers = [a for a in card.get("abilities", []) if a["type"] == "Pokémon Power"]
        assert len(powers) == len(card.get("abilities", [])) <= 1, number
        if powers:
            (ml_power,) = ml["abilities"]
            assert ml_power["name"]["en"] == powers[0]["name"], number
            out["pokemon_power"] = CommentedMap(
                {"name": localized(ml_power["name"]), "text": en_text(own["power"])}
            )
        attacks = CommentedSeq()
        assert len(ml["attacks"]) == len(card["attacks"]), number
        own_attacks = own.get("attacks", {})
        for i, (atk, ml_atk) in enumerate(zip(card["attacks"], ml["attacks"])):
            assert ml_atk["name"]["en"] == atk["name"], (number, i)
            a = CommentedMap()
            a["name"] = localized(ml_atk["name"])
            a["cost"] = flow_seq(list(atk["cost"]))
            if atk.get("damage"):
                a["damage"] = Q(atk["damage"])
            if atk.get("text"):
                a["text"] = en_text(own_attacks[i])
            elif i in own_attacks:
                raise ValueError(f"{number}: attack {i} has no text in the source")
            attacks.append(a)
        out["attacks"] = attacks
        for key, field in (("weaknesses", "weaknesses"), ("resistances", "resistances")):
            if card.get(key):
                out[field] = flow_seq([flow_map({"type": w["type"], "value": Q(w["value"])}) for w in card[key]])
        out["retreat_cost"] = int(card.get("convertedRetreatCost") or 0)
    elif card["supertype"] == "Trainer":
        assert not subtypes, number
        out["text"] = en_text(own["text"])
    elif card["supertype"] == "Energy":
        (kind,) = subtypes
        out["energy_type"] = kind.lower()
        if kind == "Basic":
            provides = [card["name"].removesuffix(" Energy")]
        elif card["name"] == "Double Colorless Energy":
            provides = ["Colorless", "Colorless"]
        else:
            raise ValueError(f"{number}: unknown special Energy {card['name']}")
        out["provides"] = flow_seq(provides)
        if kind == "Special":
            out["text"] = en_text(own["text"])
    else:
        raise ValueError(f"{number}: unknown supertype {card['supertype']}")

    if card.get("rarity"):
        out["rarity"] = card["rarity"]
    out["illustrator"] = card["artist"]
    if card.get("nationalPokedexNumbers"):
        out["national_pokedex_numbers"] = flow_seq(list(card["nationalPokedexNumbers"]))
    return out


def convert_set(set_json: dict[str, Any], ml_set: dict[str, Any]) -> CommentedMap:
    out = CommentedMap()
    out["code"] = SET_CODE
    out["game"] = "pokemon"
    out["name"] = localized(ml_set["name"])
    out["source_language"] = "en"
    out["release_date"] = Q(set_json["releaseDate"].replace("/", "-"))
    out["printed_total"] = set_json["printedTotal"]
    out["publisher"] = "Wizards of the Coast"
    out["aliases"] = flow_seq([set_json["ptcgoCode"], "base"])
    out["card_size_mm"] = flow_seq([63, 88])
    return out


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    cards = json.loads((source / "base1.json").read_text(encoding="utf-8"))
    set_json = json.loads((source / "set.json").read_text(encoding="utf-8"))
    ml = json.loads((source / "names-multilingual.json").read_text(encoding="utf-8"))
    ml_cards = {c["number"]: c for c in ml["cards"]}
    texts = YAML(typ="safe").load(TEXTS.read_text(encoding="utf-8"))
    texts = {str(k): v for k, v in texts.items()}

    yaml = YAML()
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.allow_unicode = True

    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "set.yaml").open("w", encoding="utf-8", newline="\n") as f:
        yaml.dump(convert_set(set_json, ml["set"]), f)
    for card in cards:
        data = convert_card(card, ml_cards[card["number"]], texts)
        path = OUT / f"{card['number']}-{slug(card['name'])}.yaml"
        with path.open("w", encoding="utf-8", newline="\n") as f:
            yaml.dump(data, f)
    print(f"wrote {len(cards)} cards and set.yaml to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
