"""Proxy card faces: what each game's card shows (name, header, type line, body blocks, footer,
stat) and how one face is drawn into its cut rectangle.

Per-game builders (:func:`_pokemon`, :func:`_ippo`, :func:`_monpa`, registered in :data:`FACES`)
turn a card's data into a :class:`_Face`; :func:`draw_face` draws any face the same way with the
text engine of :mod:`cardlab.proxies.textengine`. Labels (:data:`FACE_WORDS`) are translated by the
interface catalogs (cardlab/locale, context ``proxy``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardlab.core.l10n import gettext_in
from cardlab.core.text import fold, pick
from cardlab.games.ippo import BLOW_TYPES, DAMAGE_EFFECT, KEYWORDS, TIMINGS
from cardlab.proxies.layout import MM, Rect
from cardlab.proxies.textengine import MUTED, NAME_PT, RGB, Block, Pen, Span, draw_body, draw_spans, spans_width

if TYPE_CHECKING:
    from cardlab.catalog.model import Catalog

FACE_WORDS: tuple[str, ...] = (
    "Weakness",
    "Resistance",
    "Retreat",
    "Pokémon Power",
    "Basic",
    "Stage 1",
    "Stage 2",
    "evolves from",
    "Trainer",
    "Energy",
    "basic Energy",
    "special Energy",
    "provides",
    "Level",
    "Grass",
    "Fire",
    "Water",
    "Lightning",
    "Psychic",
    "Fighting",
    "Darkness",
    "Metal",
    "Colorless",
    "blow",
    "defense",
    "support",
    "fight",
    "blocks",
    "Cost",
    "Start cost",
    "Power",
    "Defense",
    "Generates",
    "generic",
    "tap",
    "courage",
    "kan",
    "technique",
    "calm",
    "commander",
    "favor",
    "charm",
    "servant",
    "spell",
    "rapide",
    "upkeep",
    "prediction",
    "Token",
    "element",
    "free",
    "ATK",
    "DEF",
    "HP",
    "Common",
    "Uncommon",
    "Rare",
    "Rare Holo",
)
"""The words a proxy face prints (English), translated through the interface catalogs in the
context ``proxy`` (:func:`cardlab.core.l10n.gettext_in`): short printed forms (« Niv. », « PV ») and
each game's own terms, which may differ from the same English word elsewhere ("Power": an Ippo blow's
« Force »)."""

FACE_LANGUAGES = ("fr", "de", "it", "es")
"""The languages whose catalogs hold the face words; another language's faces print English."""


def _colours() -> dict:
    """``colours.json`` beside this module: the faces' colours as data (lists become RGB tuples)."""

    data = json.loads(Path(__file__).with_name("colours.json").read_text(encoding="utf-8"))
    return {
        key: {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()} if isinstance(value, dict) else tuple(value)
        for key, value in data.items()
        if key != "_about"
    }


_COLOURS = _colours()
POKEMON_COLORS: dict[str, RGB] = _COLOURS["pokemon_types"]
POKEMON_LETTER: dict[str, str] = _COLOURS["pokemon_letters"]
TRAINER_COLOR: RGB = _COLOURS["trainer"]
IPPO_COLORS: dict[str, RGB] = _COLOURS["ippo_kinds"]
IPPO_ATTR_COLORS: dict[str, RGB] = _COLOURS["ippo_attributes"]
MONPA_ELEMENTS: dict[str, RGB] = _COLOURS["monpa_elements"]
NEUTRAL = (0.5, 0.5, 0.55)


@dataclass
class _Face:
    """What a card face shows; drawn by :func:`draw_face` the same way for every game."""

    color: tuple[float, float, float]
    name: str
    header: list = field(default_factory=list)  # spans drawn right of the name
    type_spans: list = field(default_factory=list)
    body: list[Block] = field(default_factory=list)
    footer: list = field(default_factory=list)  # columns (label, spans) above the credit line
    stat: str = ""  # big text at the bottom right (atk/def, power)
    stat_label: str = ""  # small label above it
    credit: str = ""


class Context:
    """Catalog, languages and label translation for drawing faces."""

    def __init__(self, catalog: Catalog, langs: tuple[str, ...]) -> None:
        self.catalog, self.langs = catalog, langs
        self._wanted = next((lang.split("-")[0] for lang in langs if lang.split("-")[0] in (*FACE_LANGUAGES, "en")), None)
        self.labels = False  # the face words are translated (else English, capitalized)
        self.lang = "en"  # the language of the face words
        self._names: dict[str, str] = {}  # English Pokémon name (folded) -> its name in langs

    def start(self, card_id: str) -> None:
        """Pick the label language for a card: the first preferred language cardlab has labels in,
        else the card's source language when it has, else English."""
        lang = self._wanted or self.catalog.set_of(card_id).source_language.split("-")[0]
        self.labels = lang in FACE_LANGUAGES
        self.lang = lang if self.labels else "en"

    def tr(self, card_id: str, loc: dict | str | None) -> str:

        return pick(loc, self.langs, self.catalog.set_of(card_id).source_language)

    def label(self, key: str) -> str:
        return gettext_in(self.lang, key, "proxy") if self.labels else key

    def pokemon_name(self, english: str) -> str:
        """The name, in the preferred language, of the Pokémon whose English name is ``english``
        (its first printing's: :meth:`cardlab.catalog.model.Catalog.named`, one indexed query on a
        catalog read from its index, never a pass over every card); ``english`` when no Pokémon
        card has that English name."""

        key = fold(english)
        found = self._names.get(key)
        if found is None:
            cards = self.catalog.cards

            def same(card_id: str) -> bool:
                names = cards[card_id].get("name")
                return cards[card_id].get("supertype") == "Pokémon" and isinstance(names, dict) and fold(str(names.get("en", ""))) == key

            first = next((i for i in self.catalog.named("pokemon", english) if same(i)), None)
            found = self._names[key] = english if first is None else self.tr(first, cards[first]["name"])
        return found


def _sym(label: str, color: tuple[float, float, float]) -> Span:
    return ("@sym", label, color)


def _energy(t: str) -> Span:
    return _sym(POKEMON_LETTER.get(t, t[:1]), POKEMON_COLORS.get(t, NEUTRAL))


def _credit(ctx: Context, card_id: str, card: dict, extra: str = "") -> str:
    info = ctx.catalog.set_of(card_id)
    number = f"{card['number']}/{info.printed_total}" if info.printed_total else card["number"]
    return " · ".join(p for p in (info.code, number, extra or ctx.label(card.get("rarity") or "")) if p)


def _pokemon(ctx: Context, card_id: str, card: dict) -> _Face:
    L = ctx.label
    sup = card.get("supertype")
    types = card.get("types") or card.get("provides") or []
    color = POKEMON_COLORS.get(types[0], NEUTRAL) if types and sup != "Trainer" else TRAINER_COLOR
    face = _Face(color, ctx.tr(card_id, card["name"]), credit=_credit(ctx, card_id, card))
    body = face.body
    if sup == "Pokémon":
        face.header = [(f"{card['hp']} {L('HP')}", "bold", (0.75, 0.1, 0.1)), *(_energy(t) for t in types)]
        stage = card.get("stage", "Basic")
        face.type_spans = [
            (
                f"{L(stage)} Pokémon" if stage == "Basic" and not ctx.labels else (f"Pokémon {L(stage)}" if stage == "Basic" else L(stage)),
                "bold",
                None,
            )
        ]
        if card.get("evolves_from"):
            face.type_spans.append((f"· {L('evolves from')} {ctx.pokemon_name(card['evolves_from'])}", "regular", None))
        if card.get("level"):
            face.type_spans.append((f"· {L('Level')} {card['level']}", "regular", MUTED))
        power = card.get("pokemon_power")
        if power:
            body.append(Block("para", [(f"{L('Pokémon Power')}: {ctx.tr(card_id, power['name'])}", "bold", (0.7, 0.1, 0.1))], gap=0.1))
            body.append(Block("para", [(ctx.tr(card_id, power["text"]), "regular", None)]))
            body.append(Block("rule"))
        for attack in card.get("attacks") or []:
            cost = [_energy(t) for t in attack.get("cost") or []] or [("(" + L("free") + ")", "italic", MUTED)]
            body.append(
                Block(
                    "row",
                    [*cost, (ctx.tr(card_id, attack["name"]), "bold", None)],
                    right=attack.get("damage", ""),
                    scale=1.12,
                    gap=0.05 if attack.get("text") else 0.45,
                )
            )
            if attack.get("text"):
                body.append(Block("para", [(ctx.tr(card_id, attack["text"]), "regular", None)], gap=0.5))
        for label, key in (("Weakness", "weaknesses"), ("Resistance", "resistances")):
            spans = [s for m in card.get(key) or [] for s in (_energy(m["type"]), (m["value"], "bold", None))]
            face.footer.append((L(label), spans or [("–", "bold", None)]))
        face.footer.append((L("Retreat"), [_energy("Colorless")] * card.get("retreat_cost", 0) or [("0", "bold", None)]))
    elif sup == "Energy":
        basic = card.get("energy_type") == "basic"
        face.type_spans = [(L("basic Energy") if basic else L("special Energy"), "bold", None)]
        face.header = [_energy(t) for t in types]
        if card.get("text"):
            body.append(Block("para", [(ctx.tr(card_id, card["text"]), "regular", None)], scale=1.1))
        body.append(Block("para", [(L("provides") + ":", "regular", MUTED), *(_energy(t) for t in types)], scale=1.2))
        if basic and types:
            body.append(Block("big", [(POKEMON_LETTER.get(types[0], "?"), POKEMON_COLORS.get(types[0], NEUTRAL))]))
    else:
        face.type_spans = [(L("Trainer"), "bold", None)]
        if card.get("trainer_type"):
            face.type_spans.append((f"· {card['trainer_type']}", "regular", None))
        body.append(Block("para", [(ctx.tr(card_id, card.get("text")), "regular", None)], scale=1.1))
    return face


def _ippo_cost(ctx: Context, cost: dict | None, card_id: str) -> list:
    if not cost:
        return [(ctx.label("free"), "italic", MUTED)]
    spans: list = []
    counts: dict[str, int] = {}
    for a in cost.get("attributes") or []:
        counts[a] = counts.get(a, 0) + 1
    for a, n in counts.items():
        spans.append((f"{n}× {ctx.label(a)}" if n > 1 else ctx.label(a), "bold", IPPO_ATTR_COLORS.get(a)))
    if cost.get("generic"):
        spans.append((f"{cost['generic']} {ctx.label('generic')}", "bold", None))
    if cost.get("tap"):
        spans.append((ctx.label("tap"), "bold", None))
    if cost.get("other"):
        spans.append((ctx.tr(card_id, cost["other"]), "regular", None))
    out: list = []
    for i, span in enumerate(spans):
        out.append(span if i == len(spans) - 1 else (span[0] + ",", span[1], span[2]))
    return out or [(ctx.label("free"), "italic", MUTED)]


def _ippo_keyword(ctx: Context, keyword: str) -> str:
    """A keyword's printed name in the label language, from :data:`cardlab.games.ippo.KEYWORDS`.

    The French rules (seed 000, "Particularité de capacité") use the English terms: Shut Off,
    Guard Break, Knock-down, Round UP; so the French labels are those terms, not translations.
    """

    names = KEYWORDS.get(keyword)
    if not names:
        return keyword.replace("-", " ")
    return names.get(ctx.lang) or names["en"]


def _word(ctx: Context, names: dict[str, str]) -> str:
    """A word of a game's vocabulary (``cardlab.games.<game>``) in the label language, else English."""
    return names.get(ctx.lang) or names["en"]


def _ippo(ctx: Context, card_id: str, card: dict) -> _Face:

    L = ctx.label
    kind = card["kind"]
    face = _Face(
        IPPO_COLORS.get(kind, NEUTRAL), ctx.tr(card_id, card["name"]), credit=_credit(ctx, card_id, card, "★" * int(card.get("stars", 0)))
    )
    kind_label = L(kind) if ctx.labels else f"{kind.capitalize()} card"
    face.type_spans = [(kind_label, "bold", IPPO_COLORS.get(kind))]
    face.header = [("★" * int(card.get("stars", 0)), "bold", (0.75, 0.55, 0.0))]
    body = face.body
    if kind == "blow":
        face.type_spans.append((f"· {_word(ctx, BLOW_TYPES[card['blow_type']])}", "bold", None))
        body.append(
            Block("para", [(L("Start cost") + ":", "regular", MUTED), *_ippo_cost(ctx, card.get("start_cost"), card_id)], scale=1.1)
        )
        face.stat = f"{L('Power')} {card['blow_power']}"
    elif kind == "defense":
        face.type_spans.append((f"· {L('blocks')} " + ", ".join(_word(ctx, BLOW_TYPES[b]) for b in card.get("blocks", [])), "bold", None))
        gen = card.get("generates") or {}
        body.append(Block("para", [(L("Generates") + ":", "regular", MUTED), *_ippo_cost(ctx, gen, card_id)], scale=1.1))
        face.stat = f"{L('Defense')} {card['defense_power']}"
    for ability in card.get("abilities") or []:
        body.append(Block("rule"))
        head: list = []
        if ability.get("timing"):
            head.append((f"[{_word(ctx, TIMINGS[ability['timing']])}]", "bold", IPPO_COLORS.get(kind)))
        if "cost" in ability:
            head += [(L("Cost") + ":", "regular", MUTED), *_ippo_cost(ctx, ability["cost"], card_id)]
        if ability.get("keywords"):
            head.append(("— " + ", ".join(_ippo_keyword(ctx, k) for k in ability["keywords"]), "bold", None))
        if ability.get("damage_effect"):
            head.append((f"({_word(ctx, DAMAGE_EFFECT)})", "italic", MUTED))
        if head:
            body.append(Block("para", head, gap=0.1))
        if ability.get("text"):
            body.append(Block("para", [(ctx.tr(card_id, ability["text"]), "regular", None)]))
    if card.get("flavor"):
        body.append(Block("para", [(ctx.tr(card_id, card["flavor"]), "italic", MUTED)], scale=0.9))
    return face


def _mana(value: int | str) -> str:
    return "{" + str(value) + "}"


def _monpa(ctx: Context, card_id: str, card: dict) -> _Face:
    L = ctx.label
    element = card.get("element", "")
    color = MONPA_ELEMENTS.get(element.casefold(), NEUTRAL)
    face = _Face(color, ctx.tr(card_id, card["name"]), credit=_credit(ctx, card_id, card))
    if "mana" in card:
        face.header = [_sym(str(card["mana"]), (0.9, 0.9, 0.88))]
    face.type_spans = [(L(card["type"]) if ctx.labels else card["type"].capitalize(), "bold", None), (f"· {element}", "bold", color)]
    for effect in card.get("effects") or []:
        spans: list = []
        kw = effect.get("keyword")
        cost = effect.get("cost") or {}
        cost_parts = (["{T}"] if cost.get("tap") else []) + ([_mana(cost["mana"])] if "mana" in cost else [])
        if cost.get("other"):
            cost_parts.append(ctx.tr(card_id, cost["other"]))
        if kw:
            label = L(kw) if ctx.labels else kw.capitalize()
            if kw == "prediction":
                label += f" {effect['n']}"
            if kw == "upkeep" and cost_parts:
                label += " — " + ", ".join(cost_parts)
                cost_parts = []
            spans.append((label, "bold", None))
        if cost_parts:
            spans.append((", ".join(cost_parts) + " :", "bold", None))
        if effect.get("text"):
            spans.append((ctx.tr(card_id, effect["text"]), "regular", None))
        face.body.append(Block("para", spans, scale=1.05))
    for token in card.get("tokens") or []:
        stats = f" {token['attack']}/{token['defense']}" if "attack" in token else ""
        spans = [
            (f"{L('Token')}: {ctx.tr(card_id, token['name'])}", "bold", None),
            (f"({L(token['type']).lower()}{stats})", "regular", MUTED),
        ]
        if token.get("text"):
            spans.append((ctx.tr(card_id, token["text"]), "regular", None))
        face.body.append(Block("para", spans))
    if card.get("flavor"):
        face.body.append(Block("para", [(ctx.tr(card_id, card["flavor"]), "italic", MUTED)], scale=0.9))
    if "attack" in card:
        face.stat = f"{card['attack']} / {card['defense']}"
        face.stat_label = f"{L('ATK')} / {L('DEF')}"
    return face


def _generic(ctx: Context, card_id: str, card: dict) -> _Face:
    return _Face(NEUTRAL, ctx.tr(card_id, card.get("name")), credit=_credit(ctx, card_id, card))


FACES = {"pokemon": _pokemon, "ippo": _ippo, "monpa": _monpa}
"""Game -> function building the :class:`_Face` of a card."""


def _tint(color: tuple[float, float, float], amount: float) -> tuple[float, float, float]:
    return tuple(1 - (1 - c) * amount for c in color)  # type: ignore[return-value]


def draw_face(pen: Pen, ctx: Context, card_id: str, rect: Rect) -> tuple[tuple[float, float, float], str | None]:
    """Draw one card face in ``rect`` (the cut size); return its frame colour (for the bleed) and an
    overflow message or None."""
    card = ctx.catalog.cards[card_id]
    ctx.start(card_id)
    face = FACES.get(ctx.catalog.game_of(card_id), _generic)(ctx, card_id, card)
    c = pen.canvas
    x, y, w, h = rect.pt
    c.saveState()
    c.setFillColorRGB(*face.color)
    c.rect(x, y, w, h, stroke=0, fill=1)
    frame = 2.2 * MM
    px, py, pw, ph = x + frame, y + frame, w - 2 * frame, h - 2 * frame
    c.setFillColorRGB(1, 1, 1)
    c.roundRect(px, py, pw, ph, 1.5 * MM, stroke=0, fill=1)
    pad = 1.8 * MM
    # header band: name + right-hand spans (HP and types, stars, mana)
    head_h = 8.5 * MM
    c.setFillColorRGB(*_tint(face.color, 0.28))
    c.roundRect(px, py + ph - head_h, pw, head_h, 1.5 * MM, stroke=0, fill=1)
    c.rect(px, py + ph - head_h, pw, head_h / 2, stroke=0, fill=1)
    base = py + ph - head_h + 2.6 * MM
    right_w = spans_width(pen, face.header, 10.5) if face.header else 0.0
    name_w = pw - 2 * pad - (right_w + 3 if right_w else 0)
    size, name, cut = pen.fit(face.name, name_w, NAME_PT)
    overflow = [f"name cut to fit: {face.name}"] if cut else []
    with pen.line():
        pen.draw(px + pad, base, name, size, "bold")
        if face.header:
            draw_spans(pen, px + pw - pad - right_w, base, face.header, 10.5)
    if right_w > pw - 2 * pad:
        overflow.append("header too wide for the card")
    # type line
    top = py + ph - head_h - 1.2 * MM
    if face.type_spans:
        tsize = 7.5
        while tsize > 6 and spans_width(pen, face.type_spans, tsize) > pw - 2 * pad:
            tsize -= 0.25
        if spans_width(pen, face.type_spans, tsize) > pw - 2 * pad:
            overflow.append(f"type line too long at {tsize:g} pt; it runs past the card edge")
        draw_spans(pen, px + pad, top - tsize, face.type_spans, tsize)
        top -= tsize * 1.5
        c.setStrokeColorRGB(*_tint(face.color, 0.6))
        c.setLineWidth(0.6)
        c.line(px + pad, top, px + pw - pad, top)
        top -= 1.2 * MM
    # footer: credit line, then stats line
    credit_size = 6.0
    tag = "PROXY"
    tag_w = pen.width(tag, credit_size, "bold")
    with pen.line():
        pen.draw(px + pad, py + 1.4 * MM, face.credit, credit_size, "regular", MUTED)
        pen.draw(px + pw - pad - tag_w, py + 1.4 * MM, tag, credit_size, "bold", MUTED)
    if pen.width(face.credit, credit_size) > pw - 2 * pad - tag_w - 2:
        overflow.append("set and number line too long; it runs into the PROXY mark")
    bottom = py + 1.4 * MM + credit_size * 1.3
    if face.footer or face.stat:
        line_y = bottom + 1.2 * MM
        if face.stat:
            ssize = 13.0
            sw = pen.width(face.stat, ssize, "bold")
            pen.draw(px + pw - pad - sw, line_y + 0.6 * MM, face.stat, ssize, "bold")
            line_top = line_y + ssize * 1.1
            if face.stat_label:
                lw = pen.width(face.stat_label, 5.5)
                pen.draw(px + pw - pad - lw, line_top, face.stat_label, 5.5, "regular", MUTED)
                line_top += 5.5
        else:
            line_top = line_y
        if face.footer:
            col_w = (pw - 2 * pad) / len(face.footer)
            fsize = 8.0
            while fsize > 6 and max(spans_width(pen, sp, fsize) for _, sp in face.footer) > col_w - 2:
                fsize -= 0.25
            if max(spans_width(pen, sp, fsize) for _, sp in face.footer) > col_w - 2:
                overflow.append(f"weakness/resistance/retreat line too long at {fsize:g} pt")
            with pen.line():
                for i, (_, spans) in enumerate(face.footer):
                    draw_spans(pen, px + pad + i * col_w, line_y + 0.4 * MM, spans, fsize)
            with pen.line():
                for i, (label, _) in enumerate(face.footer):
                    pen.draw(px + pad + i * col_w, line_y + 0.4 * MM + fsize * 1.25, label, 5.5, "regular", MUTED)
            line_top = max(line_top, line_y + 0.4 * MM + fsize * 1.25 + 5.5)
        c.setStrokeColorRGB(*_tint(face.color, 0.6))
        c.setLineWidth(0.6)
        c.line(px + pad, line_top + 0.8 * MM, px + pw - pad, line_top + 0.8 * MM)
        bottom = line_top + 1.6 * MM
    message = draw_body(pen, (px + pad, bottom, pw - 2 * pad, top - bottom), face.body)
    if message:
        overflow.append(message)
    c.restoreState()
    return face.color, "; ".join(overflow) or None
