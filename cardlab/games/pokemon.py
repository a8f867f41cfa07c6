"""The Pokémon TCG (Base Set era): searchable fields, display, and cross-card checks.

Rules source: seed 001 (Pokémon TCG Base Set rulebook, French): Basic / Stage 1 / Stage 2 Pokémon,
Energy types, weakness, resistance, retreat cost, Trainer and Energy cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from cardlab.core import words
from cardlab.core.text import fold, pick

ENERGY_SYMBOL = {
    "Grass": "[green]G[/]",
    "Fire": "[red]R[/]",
    "Water": "[blue]W[/]",
    "Lightning": "[yellow]L[/]",
    "Psychic": "[magenta]P[/]",
    "Fighting": "[dark_orange]F[/]",
    "Darkness": "[bright_black]D[/]",
    "Metal": "[grey70]M[/]",
    "Colorless": "[white]C[/]",
}


def facets(card: dict) -> Iterator[tuple[str, str | None, float | None]]:
    """Yield the searchable values of a Pokémon card as ``(field, folded text, number)``.

    Fields: supertype, stage, type (Pokémon types, or what an Energy provides), hp, retreat,
    weakness, resistance, attack (attack and Pokémon Power names, every language), cost (converted
    Energy cost of each attack), damage (base damage of each attack), energy (basic/special),
    evolves (the name it evolves from), level, dex (national Pokédex numbers).
    """
    yield "supertype", fold(card["supertype"]), None
    if "stage" in card:
        yield "stage", fold(card["stage"]), None
    for t in card.get("types") or card.get("provides") or []:
        yield "type", fold(t), None
    for name in ("hp", "level"):
        if name in card:
            yield name, None, float(card[name])
    if card.get("supertype") == "Pokémon":
        yield "retreat", None, float(card.get("retreat_cost", 0))
    for w in card.get("weaknesses") or []:
        yield "weakness", fold(w["type"]), None
    for r in card.get("resistances") or []:
        yield "resistance", fold(r["type"]), None
    if "evolves_from" in card:
        yield "evolves", fold(card["evolves_from"]), None
    if "energy_type" in card:
        yield "energy", card["energy_type"], None
    for n in card.get("national_pokedex_numbers") or []:
        yield "dex", None, float(n)
    power = card.get("pokemon_power")
    if power:
        for lang, text in power["name"].items():
            if lang != "_source":
                yield "attack", fold(text), None
    for attack in card.get("attacks") or []:
        for lang, text in attack["name"].items():
            if lang != "_source":
                yield "attack", fold(text), None
        yield "cost", None, float(len(attack.get("cost") or []))
        digits = "".join(ch for ch in attack.get("damage", "") if ch.isdigit())
        if digits:
            yield "damage", None, float(digits)


def type_line(card: dict, langs: Sequence[str] = ()) -> str:
    """Return e.g. ``Pokémon · Stage 2 · Fire``, ``Trainer``, ``Energy · basic · Fire``."""
    parts = [card["supertype"]]
    if "stage" in card:
        parts.append(card["stage"])
    if "energy_type" in card:
        parts.append(card["energy_type"])
    parts.extend(card.get("types") or card.get("provides") or [])
    return " · ".join(dict.fromkeys(parts))


def key_stats(card: dict) -> str:
    """Return short stats for a table row: ``120 HP · 1 attack · retreat 3``."""
    if card.get("supertype") != "Pokémon":
        return ""
    n = len(card.get("attacks") or [])
    parts = [f"{card['hp']} HP", words.count(n, "attack"), f"retreat {card.get('retreat_cost', 0)}"]
    if card.get("pokemon_power"):
        parts.insert(1, "Power")
    return " · ".join(parts)


def cost_symbols(cost: Iterable[str]) -> str:
    """Return Energy costs as coloured one-letter symbols (rich markup); ``-`` for a free cost."""
    cost = list(cost)
    return " ".join(ENERGY_SYMBOL.get(c, c) for c in cost) if cost else "-"


def detail(card: dict, langs: Sequence[str] = (), source: str = "en") -> list[tuple[str, str]]:
    """Return labelled lines for ``cardlab show``: stats, Pokémon Power, attacks, weakness...

    Values may hold rich markup (Energy symbols).
    """

    def tr(loc: dict | None) -> str:
        return pick(loc, langs, source)

    lines: list[tuple[str, str]] = [("Type", type_line(card, langs))]
    if "hp" in card:
        lines.append(("HP", str(card["hp"])))
    if "level" in card:
        lines.append(("Level", str(card["level"])))
    if "evolves_from" in card:
        lines.append(("Evolves from", card["evolves_from"]))
    power = card.get("pokemon_power")
    if power:
        lines.append(("Pokémon Power", f"[bold]{tr(power['name'])}[/]: {tr(power['text'])}"))
    for attack in card.get("attacks") or []:
        dmg = f" [bold]{attack['damage']}[/]" if attack.get("damage") else ""
        text = f"\n{tr(attack['text'])}" if attack.get("text") else ""
        lines.append(("Attack", f"{cost_symbols(attack.get('cost', []))}  [bold]{tr(attack['name'])}[/]{dmg}{text}"))
    if card.get("text"):
        lines.append(("Text", tr(card["text"])))
    if card.get("provides"):
        lines.append(("Provides", cost_symbols(card["provides"])))
    for label, key in (("Weakness", "weaknesses"), ("Resistance", "resistances")):
        if card.get(key):
            lines.append((label, ", ".join(f"{ENERGY_SYMBOL.get(m['type'], m['type'])} {m['value']}" for m in card[key])))
    if card.get("supertype") == "Pokémon":
        lines.append(("Retreat", cost_symbols(["Colorless"] * card.get("retreat_cost", 0))))
    return lines


def plays_as_pokemon(card: dict) -> bool:
    """True for a Pokémon card, and for a Trainer that is played as a Basic Pokémon: one that
    carries ``hp`` (Mysterious Fossil, Clefairy Doll)."""
    return card.get("supertype") == "Pokémon" or (card.get("supertype") == "Trainer" and "hp" in card)


def check(catalog) -> Iterator[tuple[str, list, str, str]]:  # noqa: ANN001 - a cardlab.catalog.model.Catalog
    """Cross-card rule ``evolves-from``: an evolution names a Pokémon present in the catalog
    (any set of the game; matched on the folded English/source name), or a Trainer that plays as a
    Basic Pokémon (:func:`plays_as_pokemon`: Fossil's Aerodactyl evolves from Mysterious Fossil). Yields problems as
    ``(card id, data path, message, rule)``."""
    names: set[str] = set()
    for card_id, card in catalog.cards.items():
        if catalog.card_set.get(card_id) and catalog.set_of(card_id).game == "pokemon" and plays_as_pokemon(card):
            names.update(fold(n) for k, n in card["name"].items() if k != "_source")
    for card_id, card in catalog.cards.items():
        if catalog.set_of(card_id).game != "pokemon":
            continue
        evo = card.get("evolves_from")
        if isinstance(evo, str) and fold(evo) not in names:
            yield card_id, ["evolves_from"], f"evolves_from '{evo}' names no Pokémon in the catalog", "evolves-from"
        if card.get("stage") in ("Stage 1", "Stage 2") and not evo:
            yield card_id, ["stage"], f"a {card['stage']} Pokémon needs evolves_from", "evolves-from"
