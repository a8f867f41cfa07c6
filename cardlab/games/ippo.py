"""Hajime no Ippo TCG (Kodansha, December 2001): searchable fields and display of its cards.

The facts come from two rule texts (``../shared/seeds``): seed 000 (French translation of the
booklet: card kinds, costs, power, Shut Off, Guard Break, Knock-down, Round UP, timings) and seed
003 (Japanese summary of the 10-round rules: attributes, blow/block types, the product line).
The card shape is ``schema/ippo.card.schema.json``.

Search fields (``facets``), one ``(field, folded text, number)`` row per value:

==========  ========================================================================================
field       rows
==========  ========================================================================================
``kind``    ``blow``, ``defense``, ``support`` or ``fight``, plus the kind's names as shown
            (:data:`KINDS`: ``coup``, ``ブロー``...).
``blow``    the blow type of a Blow card: ``straight``, ``hook``, ``upper``, ``special``, plus its
            names as shown (:data:`BLOW_TYPES`: ``uppercut``, ``direct``, ``crochet``, ``アッパー``...).
``blocks``  one row per blow type a Defense card blocks, with the same names as ``blow``.
``attr``    one row per attribute (``courage``, ``kan``, ``technique``, ``calm``) found in any cost
            or in the generated power, plus its English meaning and Japanese term
            (:data:`ATTRIBUTES`: ``intuition`` and ``カン`` for kan, ``勇気`` for courage...), plus
            ``generic`` when a generic amount above 0 appears.
``power``   blow power (number).
``def``     defense power (number).
``kw``      one row per ability keyword, written with a space (``shut off``, ``guard break``,
            ``knock down``, ``round up``: :func:`cardlab.core.text.norm_value` of the file's code),
            plus the Japanese term (``ノックダウン``). The query side normalizes the same way, so
            ``kw:"guard break"``, ``kw:guard-break`` and ``kw:ガードブレイク`` all match.
``timing``  one row per ability timing: ``placement``, ``fast``, ``boxing``, ``interval``, ``constant``,
            plus its names as shown (:data:`TIMINGS`: ``placement phase``, ``配置フェイズ``...).
``stars``   rarity in stars (number).
``cost``    total cost (number): a Blow card's start cost; for other kinds, the sum of its
            abilities' costs (a card with no cost gives 0). Attribute icons and generic amounts
            count; the tap symbol and costs in words do not.
==========  ========================================================================================

Numbers are given both as ``num`` and as text (``"4"``). Names are normalized like the query side
(:func:`cardlab.core.text.norm_value`), so ``blow:uppercut``, ``attr:intuition`` and ``attr:カン`` match.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.text import fold, norm_value, pick
from cardlab.games.base import CardSource, DetailRow, FieldSpec, Problem, Span, row

if TYPE_CHECKING:
    from cardlab.games.figures import Counted, DeckFigures

TITLE = "Ippo"
"""The game's name as people write it."""

FIELDS: dict[str, FieldSpec] = {
    "kind": FieldSpec("facet", "blow, defense, support or fight", closed=True),
    "blow": FieldSpec("facet", "blow type of a Blow card (straight, hook, upper, special)", closed=True),
    "blocks": FieldSpec("facet", "a blow type a Defense card blocks", closed=True),
    "attr": FieldSpec("facet", "attribute icon (courage, kan, technique, calm, generic)", closed=True),
    "power": FieldSpec("num", "blow power"),
    "def": FieldSpec("num", "defense power"),
    "kw": FieldSpec("facet", '"guard break", "shut off", knock-down, "round up"', closed=True, lead="keyword"),
    "timing": FieldSpec("facet", "ability timing (placement, fast, boxing, interval, constant)", closed=True),
    "stars": FieldSpec("num", "rarity in stars"),
    "cost": FieldSpec("num", "total cost"),
}
"""The query fields of Ippo cards (the module docstring lists their rows)."""

OPENING_HAND = 5
"""Seed 003: five cards in the opening hand."""

DECK_KINDS: tuple[str, tuple[str, ...]] | None = ("kind", ("blow", "defense", "support", "fight"))
"""The card field and the kinds ``deck stats --need`` names: the schema's card kinds."""

KNOCKDOWN_FLIPS = 10
"""Cards a knocked-down boxer may turn up to get up (the ten count; seeds 000 and 003)."""

ATTRIBUTES: dict[str, tuple[str, str, str]] = {
    "courage": ("red", "勇気", "courage"),
    "kan": ("yellow", "カン", "intuition"),
    "technique": ("green", "技術", "technique"),
    "calm": ("blue", "冷静", "calm"),
}
"""Attribute code -> (rich colour, Japanese term, English meaning); seed 003 '属性について'."""

ATTRIBUTE_SYMBOLS: dict[str, str] = {"courage": "▲", "kan": "◆", "technique": "■", "calm": "●"}
"""Attribute code -> the symbol shown for one icon: a distinct shape per attribute, so a cost
still reads right without colour (piped output, NO_COLOR)."""

KINDS: dict[str, tuple[str, dict[str, str]]] = {
    "blow": ("red", {"en": "Blow", "fr": "Coup", "ja": "ブロー"}),
    "defense": ("blue", {"en": "Defense", "fr": "Défense", "ja": "ディフェンス"}),
    "support": ("purple", {"en": "Support", "fr": "Soutien", "ja": "サポート"}),
    "fight": ("green", {"en": "Fight", "fr": "Combat", "ja": "ファイト"}),
}
"""Card kind -> (card colour, name by language); seed 000 'Comprendre les cartes'."""


def _vocabulary() -> dict[str, dict[str, dict[str, str]]]:
    """The terms of ``ippo_vocabulary.json`` beside this module: table -> code -> {en, fr, ja: term}."""
    import json
    from pathlib import Path

    data = json.loads(Path(__file__).with_name("ippo_vocabulary.json").read_text(encoding="utf-8"))
    langs = data["languages"]
    return {
        table: {code: dict(zip(langs, names, strict=True)) for code, names in rows.items()}
        for table, rows in data.items()
        if isinstance(rows, dict)
    }


_VOCABULARY = _vocabulary()
BLOW_TYPES = _VOCABULARY["blow_types"]
"""Blow / block types (seed 003 'ブロータイプとディフェンスタイプについて')."""
TIMINGS = _VOCABULARY["timings"]
"""Ability timings (seed 000 'Quand utiliser les capacités')."""
KEYWORDS = _VOCABULARY["keywords"]
"""Ability keywords (seed 000 'Particularité de capacité', seed 003)."""

DAMAGE_EFFECT = {"en": "damage effect", "fr": "effet de dégâts", "ja": "ダメージ効果"}
TAP = {"en": "tap", "fr": "tapoter", "ja": "タップ"}

Row = tuple[str, str | None, float | None]


# --- search ----------------------------------------------------------------------------------


def _num(field: str, value: Any) -> Iterator[Row]:
    if isinstance(value, int) and not isinstance(value, bool):
        yield field, str(value), float(value)


def _costs(card: dict) -> list[dict]:
    """Every cost-like map of a card: start cost, generated power, each ability's cost."""
    found = [card.get("start_cost"), card.get("generates")]
    found += [a.get("cost") for a in card.get("abilities") or [] if isinstance(a, dict)]
    return [c for c in found if isinstance(c, dict)]


def cost_total(cost: dict | None) -> int:
    """Return the amount of a cost or power map: one per attribute icon plus the generic amount.

    Args:
        cost: ``{attributes: [...], generic: N, tap: bool, other: {...}}`` (any key may be absent).

    Returns:
        An integer >= 0 (tap and costs in words count 0).
    """
    if not isinstance(cost, dict):
        return 0
    generic = cost.get("generic")
    return len(cost.get("attributes") or []) + (generic if isinstance(generic, int) else 0)


def card_cost(card: dict) -> int:
    """Return the ``cost`` search value: a Blow card's start cost, else the sum of its abilities' costs."""
    if card.get("kind") == "blow":
        return cost_total(card.get("start_cost"))
    return sum(cost_total(a.get("cost")) for a in card.get("abilities") or [] if isinstance(a, dict))


def _distinct(rows: Iterable[Row]) -> Iterator[Row]:
    seen: set[Row] = set()
    for item in rows:
        if item not in seen:
            seen.add(item)
            yield item


def facets(card: dict) -> Iterator[Row]:
    """Yield the card's searchable values as ``(field, folded text or None, number or None)``.

    Fields and their rows are listed in the module docstring. Missing or malformed fields give no
    rows (validation reports them).
    """
    yield from _distinct(_facets(card))


def _known(code: Any, table: dict) -> bool:
    """True if ``code`` is a key of ``table`` (a malformed list or map in a card is not)."""
    return isinstance(code, str) and code in table


def _names(field: str, code: Any, names: Iterable[str]) -> Iterator[Row]:
    """The row of a code, then one row per name it is shown with (in any language)."""
    yield field, fold(str(code)), None
    for name in names:
        yield field, norm_value(name), None


def _facets(card: dict) -> Iterator[Row]:
    kind = card.get("kind")
    if isinstance(kind, str):
        yield from _names("kind", kind, KINDS[kind][1].values() if kind in KINDS else ())
    if isinstance(card.get("blow_type"), str):
        yield from _names("blow", card["blow_type"], BLOW_TYPES.get(card["blow_type"], {}).values())
    for blocked in card.get("blocks") or []:
        yield from _names("blocks", blocked, BLOW_TYPES[blocked].values() if _known(blocked, BLOW_TYPES) else ())
    for cost in _costs(card):
        for attr in cost.get("attributes") or []:
            yield from _names("attr", attr, ATTRIBUTES[attr][1:] if _known(attr, ATTRIBUTES) else ())
        if isinstance(cost.get("generic"), int) and cost["generic"] > 0:
            yield "attr", "generic", None
    yield from _num("power", card.get("blow_power"))
    yield from _num("def", card.get("defense_power"))
    for ability in card.get("abilities") or []:
        if not isinstance(ability, dict):
            continue
        for kw in ability.get("keywords") or []:
            yield "kw", norm_value(str(kw)), None
            if kw in KEYWORDS:
                yield "kw", fold(KEYWORDS[kw]["ja"]), None
        if isinstance(ability.get("timing"), str):
            yield from _names("timing", ability["timing"], TIMINGS.get(ability["timing"], {}).values())
    yield from _num("stars", card.get("stars"))
    printed = rarity(card)
    if printed is not None:  # the common rarity field, for Ippo's stars (seed 000)
        yield "rarity", printed[0], None
        yield "rarity", str(printed[1]), None
        yield "rarity", "★" * printed[1], None  # as the card and `cardlab show` print it
    if kind in KINDS:
        yield from _num("cost", card_cost(card))


# --- display ---------------------------------------------------------------------------------


def _label(labels: dict[str, str], langs: Sequence[str]) -> str:
    return pick(labels, list(langs), "en")


def _both(labels: dict[str, str], langs: Sequence[str]) -> str:
    """``Boxing (ボクシング)``: the label in the reader's language, then the Japanese term."""
    label = _label(labels, langs)
    return label if label == labels["ja"] else f"{label} ({labels['ja']})"


Parts = list[str | Span]


def _symbol(attr: Any) -> str | Span:
    """One attribute icon: its shape in its colour, its meaning the ``alt`` (``Span("▲", "red", "courage")``);
    ``?`` unknown."""
    if not _known(attr, ATTRIBUTES):
        return "?"
    return Span(ATTRIBUTE_SYMBOLS[attr], ATTRIBUTES[attr][0], ATTRIBUTES[attr][2])


def _joined(groups: Iterable[Parts], sep: str) -> Parts:
    """The non-empty groups, with ``sep`` between them."""
    out: Parts = []
    for group in (g for g in groups if g):
        out += [sep, *group] if out else group
    return out


def icons(cost: dict | None, langs: Sequence[str] = (), source: str = "ja") -> Parts:
    """Return a cost or power map as spans: one coloured symbol per attribute icon
    (:data:`ATTRIBUTE_SYMBOLS`: red ▲ courage, yellow ◆ kan, green ■ technique, blue ● calm: the
    shape alone tells them apart without colour), the generic amount as a circled number (``②``),
    then ``tap`` (bold) and any cost in words, joined by `` + ``. An empty or missing cost gives ``—``."""
    if not isinstance(cost, dict):
        return ["—"]
    dots: Parts = [_symbol(a) for a in cost.get("attributes") or []]
    generic = cost.get("generic")
    amount = _circled(generic) if isinstance(generic, int) and (generic > 0 or not dots) else ""
    groups: list[Parts] = [_joined([dots, [amount] if amount else []], " ")]
    if cost.get("tap"):
        groups.append([Span(_label(TAP, langs), "bold")])
    if cost.get("other"):
        groups.append([pick(cost["other"], list(langs), source)])
    return _joined(groups, " + ") or ["—"]


def _circled(n: int) -> str:
    if n == 0:
        return "⓪"
    if 1 <= n <= 20:
        return chr(0x2460 + n - 1)
    return f"({n})"


def legend(card: dict) -> Parts:
    """Return the attribute icons used by a card with their names and Japanese terms:
    ``▲ courage 勇気 · ● calm 冷静`` (each shape in its colour); empty when it uses none."""
    used = []
    for cost in _costs(card):
        for attr in cost.get("attributes") or []:
            if attr in ATTRIBUTES and attr not in used:
                used.append(attr)
    return _joined(([_symbol(a), f" {ATTRIBUTES[a][2]} {ATTRIBUTES[a][1]}"] for a in used), " · ")


def type_line(card: dict, langs: Sequence[str] = ()) -> str:
    """Return e.g. ``Blow · Straight``, ``Defense · Straight, Hook``, ``Support`` (in the first of
    ``langs`` among en/fr/ja, else English)."""
    kind = card.get("kind")
    if kind not in KINDS:
        return "?"
    line = _label(KINDS[kind][1], langs)
    if kind == "blow" and card.get("blow_type") in BLOW_TYPES:
        line += " · " + _label(BLOW_TYPES[card["blow_type"]], langs)
    elif kind == "defense":
        blocked = [_label(BLOW_TYPES[b], langs) for b in card.get("blocks") or [] if b in BLOW_TYPES]
        if blocked:
            line += " · " + ", ".join(blocked)
    return line


def rarity(card: dict) -> tuple[str, int] | None:
    """A card's rarity as printed, its stars (seed 000, 'Numéro de série et rareté': the more stars,
    the rarer): ``("3-star", 3)``, searched as ``rarity:3-star``, ``rarity:3`` or ``rarity:★★★`` and sorted by
    ``--sort rarity`` (commonest first); None when ``stars`` is not a whole number."""
    stars = card.get("stars")
    if isinstance(stars, int) and not isinstance(stars, bool) and 0 < stars < 100:
        return f"{stars}-star", stars
    return None


def key_stats(card: dict) -> str:
    """Return short plain stats for a search table: ``power 4 · cost 3 · ★★``,
    ``def 3 · power +2 · ★``, ``cost 1 · ★★``."""
    parts = []
    if card.get("kind") == "blow":
        parts += [f"power {card.get('blow_power', '?')}", f"cost {card_cost(card)}"]
    elif card.get("kind") == "defense":
        parts += [f"def {card.get('defense_power', '?')}", f"power +{cost_total(card.get('generates'))}"]
    else:
        parts.append(f"cost {card_cost(card)}")
    if isinstance(card.get("stars"), int):
        parts.append("★" * card["stars"])
    return " · ".join(parts)


def _ability_line(ability: dict, langs: Sequence[str], source: str) -> Parts:
    groups: list[Parts] = []
    if ability.get("timing") in TIMINGS:
        groups.append([Span(_both(TIMINGS[ability["timing"]], langs), "bold")])
    if ability.get("cost"):
        groups.append(icons(ability["cost"], langs, source))
    for kw in ability.get("keywords") or []:
        groups.append([Span(_both(KEYWORDS.get(kw, {"en": kw, "ja": kw}), langs), "italic")])
    if ability.get("damage_effect"):
        groups.append([_both(DAMAGE_EFFECT, langs)])
    if ability.get("text"):
        groups.append([pick(ability["text"], list(langs), source)])
    return _joined(groups, " · ")


def details(card: dict, langs: Sequence[str] = (), source: str = "ja") -> list[DetailRow]:
    """Return the labelled lines of ``cardlab show`` and the web card page.

    The kind in its card colour; attribute icons as coloured shapes, one per attribute so that they
    survive without colour (▲ courage 勇気 red, ◆ kan カン yellow, ■ technique 技術 green, ● calm 冷静
    blue); an ``Attributes`` line names the ones the card uses, with the Japanese term.
    """
    lines: list[DetailRow] = []
    kind = card.get("kind")
    if kind in KINDS:
        colour, names = KINDS[kind]
        lines.append(row("Kind", Span(_both(names, langs), colour)))
    if kind == "blow":
        lines += [
            row("Blow type", _both(BLOW_TYPES.get(str(card.get("blow_type")), {"en": "?", "ja": "?"}), langs)),
            row("Start cost", *icons(card.get("start_cost"), langs, source)),
            row("Blow power", str(card.get("blow_power", "?"))),
        ]
    elif kind == "defense":
        blocked = [BLOW_TYPES[b] for b in card.get("blocks") or [] if b in BLOW_TYPES]
        lines += [
            row("Blocks", ", ".join(_both(b, langs) for b in blocked)),
            row("Defense power", str(card.get("defense_power", "?"))),
            row("Generates", *icons(card.get("generates"), langs, source)),
        ]
    for i, ability in enumerate(card.get("abilities") or [], 1):
        if isinstance(ability, dict):
            lines.append(row(f"Ability {i}" if len(card["abilities"]) > 1 else "Ability", *_ability_line(ability, langs, source)))
    if card.get("flavor"):
        lines.append(row("Flavor", Span(pick(card["flavor"], list(langs), source), "italic")))
    if isinstance(card.get("stars"), int):
        lines.append(row("Rarity", "★" * card["stars"]))
    used = legend(card)
    if used:
        lines.append(row("Attributes", *used))
    return lines


# --- cross-file rules ------------------------------------------------------------------------


def check(catalog: CardSource) -> Iterator[Problem]:
    """Cross-file rules for Ippo cards: none so far.

    Collector numbers 1..162 are enforced by the schema (``number`` pattern) and by the generic
    ``number-range`` rule; fields that belong to another card kind by the schema's if/then.

    Yields:
        ``(card id, data path, message, rule)``; nothing today.
    """
    return iter(())


# --- skeletons for ``cardlab card new`` ------------------------------------------------------

SKELETON_KINDS = ("blow", "defense", "support", "fight")
"""Kinds ``cardlab card new --kind`` offers for Ippo cards (the first is the default)."""

_ABILITY = """\
  - timing: null  # placement 配置フェイズ | fast ファスト | boxing ボクシング | interval インターバル | constant 常動
    cost:  # the usage cost printed above the ability (an empty map {} when free)
      attributes: []  # one entry per icon: courage 勇気 (red) | kan カン (yellow) | technique 技術 (green) | calm 冷静 (blue)
      generic: 0  # the circled number (generic power, 無属性)
      tap: false  # true when the tap symbol (タップ) is printed
      # other: {SRC: ""}  # any other cost (discard a card...), in your own words
    # keywords: [round-up]  # shut-off シャットオフ | guard-break ガードブレイク | knock-down ノックダウン | round-up ラウンドUP
    text: {SRC: ""}  # what the ability does, in your own words
"""

_BODIES = {
    "blow": """\
stars: null  # rarity: how many ★ are printed
kind: blow  # a Blow card (red)
blow_type: null  # printed at the top: straight ストレート | hook フック | upper アッパー | special スペシャル
start_cost:  # paid each time the blow is thrown
  attributes: null  # one entry per icon, e.g. [courage, courage]; [] when none
  generic: 0  # the circled number (generic, 無属性); 0 when none
blow_power: null  # the damage printed on the card
# abilities:  # the special ability, if any
#   - cost: {generic: 1}  # its extra cost, on top of the start cost
#     keywords: [knock-down]  # shut-off | guard-break ガードブレイク | knock-down ノックダウン | round-up
#     damage_effect: true  # ダメージ効果: applies only when the blow deals damage
#     text: {SRC: ""}  # what it does, in your own words
""",
    "defense": """\
stars: null  # rarity: how many ★ are printed
kind: defense  # a Defense card (blue)
blocks: null  # blow types shown at the top, e.g. [straight, hook] (straight | hook | upper | special)
defense_power: null  # the defense power printed on the card
generates:  # the power the card generates
  attributes: null  # one entry per icon, e.g. [calm, calm]; [] when none
  generic: 0  # the circled number; 0 when none
# abilities:  # a special ability, if any
"""
    + "\n".join("# " + line for line in _ABILITY.splitlines())
    + "\n",
    "support": "stars: null  # rarity: how many ★ are printed\nkind: support  # a Support card (purple)\n"
    "abilities:  # one entry per ability, in the card's order\n" + _ABILITY,
    "fight": "stars: null  # rarity: how many ★ are printed\nkind: fight  # a Fight card (green)\n"
    "abilities:  # one entry per ability, in the card's order\n" + _ABILITY,
}


def skeleton(kind: str, source: str = "ja") -> str:
    """Return the Ippo-specific YAML lines of a new card of ``kind`` (one of :data:`SKELETON_KINDS`),
    with a comment on each field and ``null`` (``""`` for a text) for every fact to read from the card.

    Raises:
        KeyError: unknown kind.
    """
    return _BODIES[kind].replace("SRC", source)


# --- deck statistics -------------------------------------------------------------------------


def _start_cost(card: dict) -> list[int]:
    if card.get("kind") != "blow":
        return []
    cost = card.get("start_cost") or {}
    return [len(cost.get("attributes", [])) + int(cost.get("generic", 0))]


def deck_figures(figures: DeckFigures, cards: Sequence[Counted], need: Sequence[str]) -> None:
    """Fill in an Ippo deck's figures (seeds 000, 003): cards by kind and by attribute; Blow cards by
    start cost; the chance of a mulligan (the opening hand holds no Defense card or only Defense
    cards) and of getting up from a knock-down within :data:`KNOCKDOWN_FLIPS` cards turned up (a
    Blow card gets the boxer up); with ``need`` (kinds), the chance of one of each in the hand."""
    # lazy: figures and odds load fractions and decimal (6-17 ms cold), kept off `cardlab search`
    from cardlab.games import odds
    from cardlab.games.figures import Odds, count_by, curve_of, each_kind, held, too_small

    figures.by_type = count_by(cards, lambda card: [card["kind"]])
    figures.energy_label = "cards by attribute (start cost or power generated)"
    figures.by_energy = count_by(
        cards, lambda card: [*(card.get("start_cost") or {}).get("attributes", []), *(card.get("generates") or {}).get("attributes", [])]
    )
    figures.curve_label = "Blow cards by start cost (attribute + generic)"
    figures.curve = curve_of(cards, _start_cost)
    if too_small(figures):
        return
    n, hand = figures.size, figures.hand
    defense = held(cards, lambda card: card.get("kind") == "defense")
    blows = held(cards, lambda card: card.get("kind") == "blow")
    figures.odds.append(
        Odds(
            "mulligan",
            f"mulligan: the {hand}-card hand holds no Defense card or only Defense cards",
            odds.p_none_or_all(defense, n, hand),
            f"(C({n - defense},{hand}) + C({defense},{hand}))/C({n},{hand}) with {defense} Defense cards in {n}",
        )
    )
    flips = min(KNOCKDOWN_FLIPS, n)
    figures.odds.append(
        Odds(
            "get-up",
            f"getting up from a knock-down within {KNOCKDOWN_FLIPS} cards turned up (a Blow card)",
            odds.p_hit_within(blows, n, KNOCKDOWN_FLIPS),
            f"1 - C({n - blows},{flips})/C({n},{flips}) with {blows} Blow cards in {n}",
        )
    )
    if need:
        each_kind(figures, cards, "kind", need)


if TYPE_CHECKING:  # mypy holds this module to the Game protocol (nothing runs)
    from cardlab.games import ippo as _this
    from cardlab.games.base import Game

    _CONTRACT: Game = _this
