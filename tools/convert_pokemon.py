"""Conversion of a vintage Pokémon set's reference data into cardlab YAML files.

Reads ../shared/data/pokemon-<SET>/ (<SET>.json, set.json, names-multilingual.json) beside the
checkout, plus the rules texts written in our own words in tools/texts/<SET>.yaml, and writes
cards/pokemon/<SET>/set.yaml and one <number>-<slug>.yaml per card. Base Set 2 (base4) cards are
written as reprints (`reprint_of`, from ../shared/data/pokemon-vintage-reprints.md): only what the
printing changes. Afterwards the YAML files are the source of truth; the product never reads ../shared.

Texts file keys: collector number -> power (Pokémon Power/Poké-Body text), attacks (attack index ->
text), text (Trainer or special Energy rules), rule (a Pokémon's printed rule: the Baby rule, Unown's
deck limit), notes (where the sources disagree, for contributors).

Usage: python tools/convert_pokemon.py SET [--out DIR] [SOURCE_DIR]   (DIR defaults to cards/pokemon/SET)
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
SHARED = ROOT.parent / "shared" / "data"
SET_CODE = "base1"  # set by main()
RARITIES = ["Common", "Uncommon", "Rare", "Rare Holo", "Rare Secret", "Promo"]
SPECIAL_ENERGY = {
    "Double Colorless Energy": ["Colorless", "Colorless"],
    "Rainbow Energy": ["Any"],
    "Full Heal Energy": ["Colorless"],
    "Potion Energy": ["Colorless"],
}


def slug(name: str) -> str:
    """English card name -> file-name slug: `Nidoran ♂` -> `nidoran-m`, `Pokédex` -> `pokedex`,
    `_____'s Pikachu` -> `blank-s-pikachu` (the printed blank, a run of underscores, reads `blank`)."""
    name = re.sub(r"_+", "blank", name.replace("♂", " m").replace("♀", " f"))
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
    ml_name = dict(ml["name"])
    if out["id"] == "basep-24":
        # The multilingual names give "S Pikachu" as the German name of _____'s Pikachu: a data error
        # (the blank and the apostrophe are lost), not the printed name. Drop it; the card's notes say so.
        ml_name.pop("de", None)
    out["name"] = card_names(ml_name, card["name"])
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
        powers = card.get("abilities", [])
        assert len(powers) <= 1, number
        if powers:
            (ml_power,) = ml["abilities"]
            names = dict(ml_power["name"])
            names["en"] = powers[0]["name"]  # pokemon-tcg-data's spelling, as for card names
            power = CommentedMap({"name": localized(names)})
            if powers[0]["type"] != "Pokémon Power":
                power["kind"] = powers[0]["type"]
            power["text"] = en_text(own["power"])
            out["pokemon_power"] = power
        attacks = CommentedSeq()
        card_attacks = card.get("attacks", [])  # Ditto (Fossil) has a Pokémon Power and no attacks
        assert len(ml["attacks"]) == len(card_attacks), number
        own_attacks = own.get("attacks", {})
        for i, (atk, ml_atk) in enumerate(zip(card_attacks, ml["attacks"], strict=True)):
            a = CommentedMap()
            a["name"] = localized({**ml_atk["name"], "en": atk["name"]})
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
        if card.get("rules"):
            out["text"] = en_text(own["rule"])
    elif card["supertype"] == "Trainer":
        assert len(subtypes) <= 1, number
        if subtypes:
            out["trainer_type"] = subtypes[0]
        out["text"] = en_text(own["text"])
    elif card["supertype"] == "Energy":
        (kind,) = subtypes
        out["energy_type"] = kind.lower()
        if kind == "Basic":
            provides = [card["name"].removesuffix(" Energy")]
        elif card["name"] in SPECIAL_ENERGY:
            provides = SPECIAL_ENERGY[card["name"]]
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
    if own.get("notes"):
        out["notes"] = own["notes"]
    return out


def convert_reprint(card: dict[str, Any], ml: dict[str, Any], original: str, original_name: str, own: dict[str, Any]) -> CommentedMap:
    """A Base Set 2 printing: what the printing changes; every other field comes from `original`."""
    out = CommentedMap()
    out["id"] = f"{SET_CODE}-{card['number']}"
    out["number"] = Q(card["number"])
    out["name"] = card_names(ml["name"], original_name)
    if card["name"] != original_name:
        out["printed_name"] = flow_map({"en": card["name"]})
    out["reprint_of"] = original
    if card.get("rarity"):
        out["rarity"] = card["rarity"]
    out["illustrator"] = card["artist"]
    if own.get("notes"):
        out["notes"] = own["notes"]
    return out


def reprints() -> dict[str, str]:
    """base4 number -> the id of the card it reprints (the first one listed), from the reprints table."""
    table = (SHARED / "pokemon-vintage-reprints.md").read_text(encoding="utf-8")
    found = {}
    for m in re.finditer(r"^\| (\d+) \| [^|]+ \| [^|]+ \| [^|]* \| [^|]+ \| (base\d-\d+)", table, re.M):
        found[m.group(1)] = m.group(2)
    return found


ALIASES = {"base1": ["base"], "base2": ["jungle"], "base3": ["fossil"], "base5": ["rocket"], "basep": ["promo"]}


def convert_set(set_json: dict[str, Any], ml_set: dict[str, Any], rarities: set[str]) -> CommentedMap:
    out = CommentedMap()
    out["code"] = SET_CODE
    out["game"] = "pokemon"
    out["name"] = localized(ml_set["name"])
    out["source_language"] = "en"
    out["release_date"] = Q(set_json["releaseDate"].replace("/", "-"))
    out["printed_total"] = set_json["printedTotal"]
    if set_json["total"] != set_json["printedTotal"]:
        out["total"] = set_json["total"]
    out["rarities"] = flow_seq([r for r in RARITIES if r in rarities])
    out["publisher"] = "Wizards of the Coast"
    out["aliases"] = flow_seq([set_json["ptcgoCode"], *ALIASES.get(SET_CODE, [])])
    out["card_size_mm"] = flow_seq([63, 88])
    return out


def main(argv: list[str]) -> int:
    global SET_CODE
    if len(argv) < 2:
        print(__doc__)
        return 2
    args = argv[1:]
    out_dir = ROOT / "cards" / "pokemon" / args[0]
    if "--out" in args:
        i = args.index("--out")
        out_dir = Path(args[i + 1]).resolve()
        del args[i : i + 2]
    SET_CODE = args[0]
    source = Path(args[1]) if len(args) > 1 else SHARED / f"pokemon-{SET_CODE}"
    texts_path = ROOT / "tools" / "texts" / f"{SET_CODE}.yaml"
    cards = json.loads((source / f"{SET_CODE}.json").read_text(encoding="utf-8"))
    set_json = json.loads((source / "set.json").read_text(encoding="utf-8"))
    ml = json.loads((source / "names-multilingual.json").read_text(encoding="utf-8"))
    ml_cards = {c["number"]: c for c in ml["cards"]}
    texts = YAML(typ="safe").load(texts_path.read_text(encoding="utf-8")) if texts_path.exists() else {}
    texts = {str(k): v for k, v in (texts or {}).items()}
    reprint_of = reprints() if SET_CODE == "base4" else {}
    originals: dict[str, str] = {}
    for original in set(reprint_of.values()):
        code = original.split("-")[0]
        for c in json.loads((SHARED / f"pokemon-{code}" / f"{code}.json").read_text(encoding="utf-8")):
            originals[c["id"]] = c["name"]

    yaml = YAML()
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.allow_unicode = True

    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "set.yaml").open("w", encoding="utf-8", newline="\n") as f:
        yaml.dump(convert_set(set_json, ml["set"], {c.get("rarity") for c in cards}), f)
    for card in cards:
        if card["number"] in reprint_of:
            original = reprint_of[card["number"]]
            data = convert_reprint(card, ml_cards[card["number"]], original, originals[original], texts.get(card["number"], {}))
        else:
            data = convert_card(card, ml_cards[card["number"]], texts)
        path = out_dir / f"{card['number']}-{slug(card['name'])}.yaml"
        with path.open("w", encoding="utf-8", newline="\n") as f:
            yaml.dump(data, f)
    print(f"wrote {len(cards)} cards and set.yaml to {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
