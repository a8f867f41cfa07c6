#!/usr/bin/env python3
"""Write a synthetic, clearly fictional Pokémon-schema catalog for benchmarks (issue 2, section 8).

    python benchmarks/gen_catalog.py OUT --cards 30000 [--seed 1]

writes ``OUT/pokemon/synth-NNN/set.yaml`` and ``OUT/pokemon/synth-NNN/<number>-<slug>.yaml``: sets of
300 cards (the last set holds the remainder), each card valid against
``schema/pokemon.card.schema.json`` so that ``cardlab validate --catalog OUT`` exits 0. Per set:
about 70 % Pokémon (Basic, Stage 1 and Stage 2 in evolution lines, ``evolves_from`` naming a
Pokémon of the same set), 20 % Trainers, 10 % Energy (the six basic types plus special Energy).
Names are built from syllables; about a third of the Pokémon carry French and German names and a
quarter a Japanese (katakana) name. Output is the same for the same ``--seed`` and ``--cards``.

Every card and set here is invented; nothing is copied from a real card.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
from pathlib import Path

import yaml

try:
    _Dumper = yaml.CSafeDumper
except AttributeError:  # pragma: no cover
    _Dumper = yaml.SafeDumper

SET_SIZE = 300
TYPES = ["Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Colorless"]
BASIC_ENERGY = {
    "Grass": ("Énergie Plante", "Pflanzenenergie"),
    "Fire": ("Énergie Feu", "Feuerenergie"),
    "Water": ("Énergie Eau", "Wasserenergie"),
    "Lightning": ("Énergie Électrique", "Elektroenergie"),
    "Psychic": ("Énergie Psy", "Psychoenergie"),
    "Fighting": ("Énergie Combat", "Kampfenergie"),
}
WEAK_OF = {
    "Grass": "Fire",
    "Fire": "Water",
    "Water": "Lightning",
    "Lightning": "Fighting",
    "Psychic": "Psychic",
    "Fighting": "Psychic",
    "Colorless": "Fighting",
}
RESIST_OF = {
    "Grass": None,
    "Fire": None,
    "Water": None,
    "Lightning": "Colorless",
    "Psychic": None,
    "Fighting": "Lightning",
    "Colorless": "Psychic",
}
RARITIES_POKEMON = ["Common"] * 10 + ["Uncommon"] * 5 + ["Rare"] * 2 + ["Rare Holo"]
RARITIES_TRAINER = ["Common"] * 6 + ["Uncommon"] * 4 + ["Rare"]

# Name parts. Romanized syllables, each with a katakana spelling, for Japanese names.
SYLLABLES = {
    "ka": "カ",
    "ki": "キ",
    "ku": "ク",
    "ko": "コ",
    "sa": "サ",
    "shi": "シ",
    "su": "ス",
    "so": "ソ",
    "ta": "タ",
    "to": "ト",
    "na": "ナ",
    "ni": "ニ",
    "no": "ノ",
    "ha": "ハ",
    "mi": "ミ",
    "mo": "モ",
    "ra": "ラ",
    "ri": "リ",
    "ru": "ル",
    "ro": "ロ",
    "za": "ザ",
    "zu": "ズ",
    "bo": "ボ",
    "pi": "ピ",
    "pu": "プ",
    "da": "ダ",
    "ga": "ガ",
    "go": "ゴ",
    "me": "メ",
    "ne": "ネ",
    "ya": "ヤ",
    "yu": "ユ",
}
ENDINGS_EN = ["", "", "", "on", "ix", "ar", "el", "ump", "ot", "ak", "ine", "ster", "ling", "ox"]
FR_SUFFIX = ["ou", "ette", "ard", "in", "eau", "ot"]
DE_SUFFIX = ["ling", "chen", "ax", "ork", "ian", "ulf"]
ATTACK_A = [
    "Ember",
    "Tidal",
    "Spark",
    "Leaf",
    "Mind",
    "Rock",
    "Iron",
    "Shadow",
    "Gust",
    "Frost",
    "Thunder",
    "Petal",
    "Mud",
    "Star",
    "Cinder",
    "Quake",
    "Bubble",
    "Vine",
    "Static",
    "Dream",
]
ATTACK_B = [
    "Blast",
    "Slam",
    "Bite",
    "Kick",
    "Wave",
    "Claw",
    "Beam",
    "Tackle",
    "Punch",
    "Storm",
    "Spin",
    "Crush",
    "Dance",
    "Ram",
    "Whip",
    "Burst",
]
ATTACK_A_FR = {
    "Ember": "Braise",
    "Tidal": "Marée",
    "Spark": "Étincelle",
    "Leaf": "Feuille",
    "Mind": "Esprit",
    "Rock": "Roche",
    "Iron": "Fer",
    "Shadow": "Ombre",
    "Gust": "Rafale",
    "Frost": "Givre",
    "Thunder": "Tonnerre",
    "Petal": "Pétale",
    "Mud": "Boue",
    "Star": "Étoile",
    "Cinder": "Cendre",
    "Quake": "Séisme",
    "Bubble": "Bulle",
    "Vine": "Liane",
    "Static": "Statique",
    "Dream": "Rêve",
}
ATTACK_FR = {
    "Blast": "Explosion",
    "Slam": "Plaquage",
    "Bite": "Morsure",
    "Kick": "Coup de Pied",
    "Wave": "Vague",
    "Claw": "Griffe",
    "Beam": "Rayon",
    "Tackle": "Charge",
    "Punch": "Poing",
    "Storm": "Tempête",
    "Spin": "Tourbillon",
    "Crush": "Broyage",
    "Dance": "Danse",
    "Ram": "Bélier",
    "Whip": "Fouet",
    "Burst": "Éclat",
}
EFFECTS = [
    "Flip a coin. If heads, the Defending Pokémon is now Paralyzed.",
    "Flip a coin. If tails, this attack does nothing.",
    "The Defending Pokémon is now Poisoned.",
    "The Defending Pokémon is now Asleep.",
    "The Defending Pokémon is now Confused.",
    "Discard 1 Energy card attached to this Pokémon in order to use this attack.",
    "This Pokémon does 10 damage to itself.",
    "Remove 2 damage counters from this Pokémon (all if it has fewer).",
    "Does 10 more damage for each Energy attached to this Pokémon but not used to pay for this attack.",
    "Flip 2 coins. This attack does 20 damage times the number of heads.",
    "Your opponent switches the Defending Pokémon with one of their Benched Pokémon, if any.",
    "Draw a card.",
]
EFFECTS_FR = {
    0: "Lancez une pièce. Si c'est face, le Pokémon Défenseur est maintenant Paralysé.",
    2: "Le Pokémon Défenseur est maintenant Empoisonné.",
    3: "Le Pokémon Défenseur est maintenant Endormi.",
    11: "Piochez une carte.",
}
POWER_NAMES = ["Soft Glow", "Quiet Aura", "Energy Echo", "Warm Shell", "Deep Roots", "Bright Mirror"]
POWER_TEXTS = [
    "Once during your turn, before you attack, you may move 1 damage counter from one of your Pokémon to another.",
    "As long as this Pokémon is your Active Pokémon, your opponent's attacks cost 1 more Colorless Energy.",
    "Once during your turn, you may look at the top card of your deck.",
    "Damage done to this Pokémon by attacks is reduced by 10.",
]
TRAINER_A = ["Field", "Pocket", "Lucky", "Pro", "Night", "Quick", "Old", "Super", "Mini", "Grand", "Secret"]
TRAINER_B = [
    "Kit",
    "Scanner",
    "Ticket",
    "Lantern",
    "Map",
    "Whistle",
    "Notebook",
    "Compass",
    "Gloves",
    "Scout",
    "Researcher",
    "Gardener",
    "Stadium",
    "Satchel",
    "Charm",
]
TRAINER_TEXTS = [
    "Draw 2 cards.",
    "Search your deck for a Basic Pokémon, show it to your opponent and put it into your hand. Shuffle your deck afterward.",
    "Remove up to 3 damage counters from one of your Pokémon.",
    "Put a card from your discard pile into your hand.",
    "Switch your Active Pokémon with one of your Benched Pokémon.",
    "Look at the top 5 cards of your deck and put them back in any order.",
    "Each player shuffles their hand into their deck and draws 5 cards.",
    "Choose 1 Energy card attached to one of your opponent's Pokémon and discard it.",
]
ILLUSTRATORS = [
    "Ada Quillfeather",
    "Bo Marchetti",
    "Chiyo Tanabe",
    "Dario Ventresca",
    "Elin Sørvik",
    "Farah Oduya",
    "Gus Whitlock",
    "Hana Kurosaki",
    "Ivo Brandt",
    "June Ocampo",
    "Kei Morimoto",
    "Lena Vasquez",
]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def slug(text: str) -> str:
    """ASCII file-name slug (same result as ``cardlab.core.text.slug`` for these names)."""
    import unicodedata

    t = "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", t.replace("'", "")).strip("-") or "card"


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.syl = list(SYLLABLES)

    def species(self) -> dict:
        """A Pokémon name in several languages: {en, fr?, de?, ja?}."""
        r = self.r
        parts = [r.choice(self.syl) for _ in range(r.choice([2, 2, 3]))]
        en = _cap("".join(parts) + r.choice(ENDINGS_EN))
        name = {"en": en}
        if r.random() < 0.35:
            name["fr"] = _cap("".join(parts[::-1]) + r.choice(FR_SUFFIX))
            name["de"] = _cap("".join(parts[:2]) + r.choice(DE_SUFFIX))
        if r.random() < 0.25:
            name["ja"] = "".join(SYLLABLES[p] for p in parts) + "ー"
        return name

    def attack(self, ptype: str, stage_i: int) -> dict:
        r = self.r
        a, b = r.choice(ATTACK_A), r.choice(ATTACK_B)
        name = {"en": f"{a} {b}"}
        if r.random() < 0.3:
            name["fr"] = f"{ATTACK_FR[b]} {ATTACK_A_FR[a]}"
        n = r.randint(0, 2 + stage_i)
        cost = [ptype] * max(0, n - r.randint(0, n)) if ptype != "Colorless" else []
        cost += ["Colorless"] * (n - len(cost))
        out: dict = {"name": name, "cost": cost}
        if r.random() < 0.85:
            dmg = 10 * r.randint(1, 3 + 3 * stage_i + n)
            out["damage"] = f"{dmg}{r.choice(['', '', '', '', '+', '×', '-'])}"
        if r.random() < 0.55 or "damage" not in out:
            k = r.randrange(len(EFFECTS))
            out["text"] = {"en": EFFECTS[k]}
            if k in EFFECTS_FR and r.random() < 0.5:
                out["text"]["fr"] = EFFECTS_FR[k]
        return out

    def pokemon(self, stage_i: int, name: dict, ptype: str, evolves: str | None, dex: int) -> dict:
        r = self.r
        card: dict = {
            "name": name,
            "supertype": "Pokémon",
            "stage": ["Basic", "Stage 1", "Stage 2"][stage_i],
            "level": r.randint(8 + 15 * stage_i, 25 + 20 * stage_i),
            "hp": 10 * r.randint(3 + 2 * stage_i, 7 + 3 * stage_i),
            "types": [ptype],
        }
        if evolves:
            card["evolves_from"] = evolves
        if r.random() < 0.12:
            card["pokemon_power"] = {"name": {"en": r.choice(POWER_NAMES)}, "text": {"en": r.choice(POWER_TEXTS)}}
        card["attacks"] = [self.attack(ptype, stage_i) for _ in range(r.choice([1, 1, 2, 2, 2]))]
        card["weaknesses"] = [{"type": WEAK_OF[ptype], "value": "×2"}]
        if RESIST_OF[ptype] and r.random() < 0.7:
            card["resistances"] = [{"type": RESIST_OF[ptype], "value": "-30"}]
        card["retreat_cost"] = min(4, r.randint(0, 2) + stage_i)
        card["rarity"] = r.choice(RARITIES_POKEMON) if stage_i == 0 else r.choice(["Uncommon", "Rare", "Rare Holo"])
        card["illustrator"] = r.choice(ILLUSTRATORS)
        card["national_pokedex_numbers"] = [dex]
        return card

    def trainer(self) -> dict:
        r = self.r
        a, b = r.choice(TRAINER_A), r.choice(TRAINER_B)
        card: dict = {"name": {"en": f"{a} {b}"}, "supertype": "Trainer"}
        if r.random() < 0.2:
            card["name"]["fr"] = f"{b} {a}"
        card["text"] = {"en": r.choice(TRAINER_TEXTS)}
        card["rarity"] = r.choice(RARITIES_TRAINER)
        card["illustrator"] = r.choice(ILLUSTRATORS)
        return card

    def energy(self, t: str | None) -> dict:
        r = self.r
        if t:  # basic
            fr, de = BASIC_ENERGY[t]
            return {
                "name": {"en": f"{t} Energy", "fr": fr, "de": de},
                "supertype": "Energy",
                "energy_type": "basic",
                "provides": [t],
                "illustrator": r.choice(ILLUSTRATORS),
            }
        a = r.choice(["Twin", "Prism", "Echo", "Heavy", "Wild", "Lucky"])
        provides = ["Colorless", "Colorless"] if a in ("Twin", "Heavy") else [r.choice(TYPES[:6])]
        return {
            "name": {"en": f"{a} Energy"},
            "supertype": "Energy",
            "energy_type": "special",
            "provides": provides,
            "text": {"en": f"Provides {' and '.join(provides)} Energy. This is not a basic Energy card."},
            "rarity": r.choice(["Uncommon", "Rare"]),
            "illustrator": r.choice(ILLUSTRATORS),
        }

    def set_cards(self, size: int, dex_start: int) -> list[dict]:
        """The cards of one set, in collector-number order (Pokémon, Trainers, Energy)."""
        r = self.r
        n_energy = max(7, size // 10) if size >= 30 else min(size, 1 + size // 10)
        n_trainer = size // 5
        n_pokemon = size - n_energy - n_trainer
        pokemon: list[dict] = []
        dex = dex_start
        while len(pokemon) < n_pokemon:
            ptype = r.choice(TYPES)
            line = r.choice([1, 2, 2, 3]) if n_pokemon - len(pokemon) >= 3 else 1
            prev = None
            for stage_i in range(line):
                name = self.species()
                pokemon.append(self.pokemon(stage_i, name, ptype, prev, dex))
                prev = name["en"]
                dex += 1
        pokemon = pokemon[:n_pokemon]
        # Holo-style ordering: evolved Pokémon first is not needed; keep lines together.
        trainers = [self.trainer() for _ in range(n_trainer)]
        energies = [self.energy(t) for t in list(BASIC_ENERGY)[: min(6, n_energy)]]
        energies += [self.energy(None) for _ in range(n_energy - len(energies))]
        return pokemon + trainers + energies


SET_COMMENT = (
    "# FICTIONAL synthetic set written by benchmarks/gen_catalog.py for benchmarks only.\n"
    "# None of these cards exist; names, art credits and texts are invented.\n"
)


def dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=200)


def generate(out: Path, cards: int = 30000, seed: int = 1, set_size: int = SET_SIZE) -> int:
    """Write the catalog under ``out`` (its ``pokemon/`` folder is replaced). Returns the card count."""
    g = Gen(seed)
    game_dir = out / "pokemon"
    if game_dir.exists():
        shutil.rmtree(game_dir)
    written = 0
    n_sets = (cards + set_size - 1) // set_size
    dex = 1
    for s in range(1, n_sets + 1):
        code = f"synth-{s:03d}"
        size = min(set_size, cards - written)
        set_dir = game_dir / code
        set_dir.mkdir(parents=True)
        manifest = {
            "code": code,
            "game": "pokemon",
            "name": {"en": f"Synthetic Set {s}", "fr": f"Extension synthétique {s}"},
            "source_language": "en",
            "release_date": f"{2001 + s // 12}-{s % 12 + 1:02d}-15",
            "printed_total": size,
            "publisher": "nobody (fictional benchmark data)",
            "aliases": [f"SY{s}"],
            "notes": "Fictional synthetic set for cardlab benchmarks.",
        }
        (set_dir / "set.yaml").write_text(SET_COMMENT + dump(manifest), encoding="utf-8")
        for i, card in enumerate(g.set_cards(size, dex), start=1):
            number = str(i)
            data = {"id": f"{code}-{number}", "number": number, **card}
            (set_dir / f"{number}-{slug(card['name']['en'])}.yaml").write_text(dump(data), encoding="utf-8")
            written += 1
        dex += size
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="catalog root to write (its pokemon/ folder is replaced)")
    ap.add_argument("--cards", type=int, default=30000, help="how many cards (default 30000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--set-size", type=int, default=SET_SIZE, help="cards per set (default 300)")
    args = ap.parse_args(argv)
    if args.cards < 1 or args.set_size < 1:
        ap.error("--cards and --set-size must be at least 1")
    n = generate(args.out, args.cards, args.seed, args.set_size)
    print(f"wrote {n} cards in {(n + args.set_size - 1) // args.set_size} sets under {args.out / 'pokemon'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
