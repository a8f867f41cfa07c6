"""Deck legality rules: pure functions in a registry keyed by rule id.

Each format (``cards/<game>/formats/*.yaml``) lists rules by id with parameters; each id below is
implemented once. A rule takes a matched :class:`~cardlab.decks.check.Deck` and the rule's parameters and
returns ``(line, message)`` pairs; :func:`check_deck` turns them into
:class:`~cardlab.core.errors.Problem` values whose ``rule`` is the id. The docstring of each rule is its
user documentation (``cardlab formats`` shows :func:`describe`).

Conditions (``where``, ``exempt``, ``allow``, ``deny``) are mappings of card fields: every field
must match; a list of values matches any; a card field holding a list matches when one item does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from cardlab.catalog.model import number_int
from cardlab.core.errors import Problem, SourcePos
from cardlab.core.l10n import N_, _, quote
from cardlab.core.text import line_list

if TYPE_CHECKING:
    from cardlab.catalog.formats import Format, RuleSpec
    from cardlab.decks.model import Deck, DeckCard

RuleCheck = Callable[["Deck", dict], Iterable[tuple[int, str]]]


def matches(card: dict, condition: dict[str, Any]) -> bool:
    """True when ``card`` matches every field of ``condition`` (module docstring).

    ``matches({"supertype": "Pokémon", "stage": "Basic"}, {"stage": "Basic"}) is True``;
    ``matches(card, {"type": ["commander", "favor"]})`` is True for a commander.
    """
    for key, wanted in condition.items():
        value = card.get(key)
        if isinstance(value, list):
            if not (any(v in wanted for v in value) if isinstance(wanted, list) else wanted in value):
                return False
        elif not (value in wanted if isinstance(wanted, list) else value == wanted):
            return False
    return True


def condition_test(condition: dict[str, Any]) -> Callable[[dict], bool]:
    """:func:`matches` made once for many cards: ``condition_test(condition)(card) ==
    matches(card, condition)`` for every card (a test holds them equal); a rule checking a deck
    builds it once and calls it per card, about twice as fast as :func:`matches`.

    Takes a condition (module docstring); returns a function of a card's data giving True or False.
    """
    pairs = tuple(condition.items())
    if any(isinstance(wanted, list) for _key, wanted in pairs):
        return lambda card: matches(card, condition)  # a list of values: rare, the general reading
    if len(pairs) == 1:
        ((key, wanted),) = pairs

        def one(card: dict) -> bool:
            value = card.get(key)
            return value == wanted or (isinstance(value, list) and wanted in value)

        return one

    def every(card: dict) -> bool:
        get = card.get
        for key, wanted in pairs:
            value = get(key)
            if value != wanted and not (isinstance(value, list) and wanted in value):
                return False
        return True

    return every


def deciding_facts(fmt: Format) -> tuple[list[str], Callable[[dict, str, str], tuple]]:
    """What the rules of ``fmt`` decide about one card beyond its printing, for a deck line that
    names a card by name alone (issue 27: a judge asks which card is meant only when the choice
    changes the verdict).

    Takes a format; returns ``(labels, facts)``: ``facts(card data, same name, card id)`` is a tuple
    with one item per label (``labels[i]`` says in words what item ``i`` is: "Basic Pokémon",
    "the card counted by the copy limit"...). Two cards with equal tuples are the same to every
    rule of the format but ``allowed-sets``, ``number-range`` and ``banned``, which look at the
    printing itself (:meth:`cardlab.catalog.formats.Format.allows`).
    """
    labels: list[str] = []
    tests: list[Callable[[dict, str, str], Any]] = []

    def condition(label: str, cond: dict[str, Any]) -> None:
        test = condition_test(cond)
        labels.append(label)
        tests.append(lambda card, _same, _cid: test(card))

    for spec in fmt.rules:
        p = spec.params
        if spec.rule == "copy-limit":
            if p["same"] == "name":
                labels.append("the name the copy limit counts")
                tests.append(lambda _card, same, _cid: same)
            else:
                labels.append("the card number the copy limit counts")
                tests.append(lambda _card, _same, cid: cid)
            for cond in p.get("exempt", []):
                condition(f"free of the copy limit ({_condition_text(cond)})", cond)
        elif spec.rule in ("require", "max-cards"):
            condition(p["label"], p["where"])
        elif spec.rule == "section-cards":
            for key in ("allow", "deny"):
                if p.get(key):
                    condition(p.get("label") or _condition_text(p[key]), p[key])
    return labels, lambda card, same, cid: tuple(t(card, same, cid) for t in tests)


CONDITION_WORDS = (N_("supertype"), N_("stage"), N_("energy_type"), N_("type"), N_("main"))
"""The card fields format conditions name and the main section's id, as messages say them
(translated where they are said, :mod:`cardlab.core.l10n`)."""


def _condition_text(condition: dict[str, Any]) -> str:
    either = " " + _("or") + " "
    return ", ".join(f"{_(k)} {either.join(_(str(x)) for x in v) if isinstance(v, list) else _(str(v))}" for k, v in condition.items())


def _title(deck: Deck, section: str) -> str:
    s = deck.format.section(section)
    return s.title if s else section


def _where(deck: Deck, section: str) -> str:
    """The one name of a section in messages: "the deck" for the main section (whatever the
    format calls it), else "the <title> section"."""
    return _("the deck") if section == "main" else _("the {section} section").format(section=_(_title(deck, section)))


def _section_line(deck: Deck, section: str | None) -> int:
    if section in deck.section_lines:
        return deck.section_lines[section]
    lines = [c.line for c in deck.cards if section is None or c.section == section]
    return min(lines) if lines else (min(e.line for e in deck.entries) if deck.entries else 1)


def _first_over(cards: Sequence[DeckCard], limit: int) -> DeckCard:
    """The line at which the running count of ``cards`` (in deck order) first passes ``limit``:
    where a limit rule reports (the last card when the total does not pass it)."""
    running = 0
    for c in cards:
        running += c.count
        if running > limit:
            return c
    return cards[-1]


def check_size(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``deck-size`` / ``section-size``: a section holds exactly ``size`` cards (``section``,
    default ``main``). Lines that match no card still count. Reported at the section's header
    line, else at its first card line."""
    section = params.get("section", "main")
    held, size = deck.size(section), params["size"]
    if held != size:
        yield (
            _section_line(deck, section),
            (
                _("{where} holds {n} card; exactly {size} needed") if held == 1 else _("{where} holds {n} cards; exactly {size} needed")
            ).format(where=_where(deck, section), n=held, size=size),
        )


def check_copies(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``copy-limit``: at most ``max`` copies of the same card, where the same card means the same
    name (``same: name``; any set or art; ``3 Pokémon Breeder`` + ``2 Pokemon Breeder`` are five)
    or the same card number (``same: number``). Cards matching an ``exempt`` condition (basic
    Energy, by the card's data) have no limit. ``sections`` limits the count to those sections.
    Reported at the line where the limit is passed."""
    sections = params.get("sections")
    exempt = [condition_test(cond) for cond in params.get("exempt", [])]
    groups: dict[str, list[DeckCard]] = {}
    totals: dict[str, int] = {}
    by_name = params["same"] == "name"
    for card in deck.cards:
        if sections and card.section not in sections:
            continue
        for test in exempt:
            if test(card.card):
                break
        else:
            key = card.same_name if by_name else card.card_id
            if key in totals:
                totals[key] += card.count
                groups[key].append(card)
            else:
                totals[key] = card.count
                groups[key] = [card]
    limit = params["max"]
    for key, cards in groups.items():
        total = totals[key]
        if total <= limit:
            continue
        at = _first_over(cards, limit)
        label = quote(cards[0].name) if params["same"] == "name" else f"{quote(cards[0].name)} ({cards[0].card_id})"
        lines = f"; {line_list([c.line for c in cards])}" if len(cards) > 1 else ""
        yield at.line, _("{total} copies of {card} (limit {limit}{lines})").format(total=total, card=label, limit=limit, lines=lines)


def check_require(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``require``: the section (default ``main``) holds at least ``min`` cards matching ``where``
    (e.g. one Basic Pokémon). Reported at the section's header or first line."""
    section = params.get("section", "main")
    test = condition_test(params["where"])
    held = sum([c.count for c in deck.in_section(section) if test(c.card)])
    need, label = params["min"], params["label"]
    if held < need:
        what = _("no {label}").format(label=_(label)) if held == 0 else _("only {n} {label}").format(n=held, label=_(label))
        yield (
            _section_line(deck, section),
            _("{where} holds {what}; at least {need} needed").format(where=_where(deck, section), what=what, need=need),
        )


def check_sets(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``allowed-sets``: every card comes from one of ``sets`` (set codes). Reported at each line
    holding a card of another set."""
    allowed = params["sets"]
    for card in deck.cards:
        if card.set_code not in allowed:
            if len(card.candidates) > 1:  # a name alone whose every printing is out of the format
                sets = ", ".join(dict.fromkeys(c.rsplit("-", 1)[0] for c in card.candidates))
                printed = _('"{card}" is printed only in {sets} ({ids})').format(card=card.name, sets=sets, ids=", ".join(card.candidates))
            else:
                printed = _('"{card}" ({id}) is from set {set}').format(card=card.name, id=card.card_id, set=card.set_code)
            yield card.line, printed + "; " + _("{format} allows only {sets}").format(format=_(deck.format.name), sets=", ".join(allowed))


def check_section_cards(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``section-cards``: which cards may sit in a section. With ``allow``, only cards matching it;
    with ``deny``, no card matching it (Monpa: no commander or favor in the main deck). Reported at
    each offending line."""
    section = params["section"]
    where = _where(deck, section)
    for card in deck.in_section(section):
        allow, deny = params.get("allow"), params.get("deny")
        kind = ", ".join(str(card.card.get(k)) for k in (allow or deny or {}))
        if deny and matches(card.card, deny):
            label = _(params["label"]) if params.get("label") else _condition_text(deny)
            yield (
                card.line,
                _("{card} ({kind}) is in {where}; {label} may not be in {where}").format(
                    card=quote(card.name), kind=kind, where=where, label=label
                ),
            )
        elif allow and not matches(card.card, allow):
            label = _(params["label"]) if params.get("label") else _condition_text(allow)
            yield (
                card.line,
                _("{card} ({kind}) is in {where}, which holds only {label}").format(
                    card=quote(card.name), kind=kind, where=where, label=label
                ),
            )


def check_max_cards(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``max-cards``: the section (default ``main``) holds at most ``max`` cards matching
    ``where``, called ``label`` in messages (Prop 15/3: at most 15 Trainer cards). Reported at the
    line where the count passes the cap, naming every line that counts when there are several."""
    section = params.get("section", "main")
    test = condition_test(params["where"])
    cards = [c for c in deck.in_section(section) if test(c.card)]
    total, limit = sum(c.count for c in cards), params["max"]
    if total <= limit:
        return
    at = _first_over(cards, limit)
    yield (
        at.line,
        _("{where} holds {total} {label}; at most {limit} ({lines})").format(
            where=_where(deck, section), total=total, label=_(params["label"]), limit=limit, lines=line_list([c.line for c in cards])
        ),
    )


def check_banned(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``banned``: the cards of ``cards`` (card ids, e.g. ``basep-24``) may not be played in the
    format; ``why`` (optional) says so in the message. Reported at each line holding one, under the
    name players know the card by when it has one (``also_known_as``: "Birthday Pikachu")."""
    banned = set(params["cards"])
    why = f" ({_(params['why'])})" if params.get("why") else ""
    for card in deck.cards:
        if card.card_id in banned:
            known = card.card.get("also_known_as")  # the name players know it by: "Birthday Pikachu"
            label = f"{quote(known[0])} ({quote(card.name)}, {card.card_id})" if known else f"{quote(card.name)} ({card.card_id})"
            yield card.line, _("{card} is banned in {format}").format(card=label, format=_(deck.format.name)) + why


def check_number_range(deck: Deck, params: dict) -> Iterator[tuple[int, str]]:
    """``number-range``: the cards of set ``set`` are allowed only when their collector number is
    from ``min`` to ``max`` (Base–Fossil: Wizards Black Star Promos 1 to 9). A card of another set
    is not concerned (``allowed-sets`` decides on the set). Reported at each line out of the range."""
    code, low, high = params["set"], params["min"], params["max"]
    for card in deck.cards:
        if card.set_code != code:
            continue
        num = number_int(str(card.card.get("number", "")))
        if num is None or not low <= num <= high:
            yield (
                card.line,
                _('"{card}" ({id}) is {set} number {number}; {format} allows only {set} {low} to {high}').format(
                    card=card.name,
                    id=card.card_id,
                    set=code,
                    number=card.card.get("number"),
                    format=_(deck.format.name),
                    low=low,
                    high=high,
                ),
            )


RULES: dict[str, RuleCheck] = {
    "deck-size": check_size,
    "section-size": check_size,
    "copy-limit": check_copies,
    "require": check_require,
    "allowed-sets": check_sets,
    "section-cards": check_section_cards,
    "max-cards": check_max_cards,
    "banned": check_banned,
    "number-range": check_number_range,
}
"""Rule id -> check function. Format files may only name these ids (``schema/format.schema.json``)."""


NAMES_FORMAT = frozenset({"allowed-sets", "banned", "number-range"})
"""Rules whose messages name the format: their results are never shared between formats."""


def check_deck(deck: Deck, memo: dict | None = None) -> list[Problem]:
    """Check a matched deck against its format.

    Args:
        deck: from :func:`cardlab.decks.check.build_deck` (its own problems are included).
        memo: results of rules kept between decks built from one list under several formats (the
            no-format survey): a rule with the same parameters, over the same cards, lines and
            sections, gives the same lines and messages, so it runs once; None: no sharing.

    Returns:
        Every problem, sorted by line, then the list's own problems (``count``, ``unknown-card``...)
        before the format's rules in the format's order; each with its rule id. Empty when legal.
    """
    ranked = [(p.pos, 0, p) for p in deck.problems]
    shape: tuple | None = None
    for order, spec in enumerate(deck.format.rules, start=1):
        if memo is not None and spec.rule not in NAMES_FORMAT:
            if shape is None:
                shape = (
                    tuple((c.line, c.count, c.card_id, c.section) for c in deck.cards),
                    tuple(deck._entry_sections),
                    tuple(e.count for e in deck.entries),
                    tuple(sorted(deck.section_lines.items())),
                    tuple((sec.id, sec.title) for sec in deck.format.sections),
                )
            key = (deck.format.rule_keys[order - 1], shape)
            found = memo.get(key)
            if found is None:
                found = memo[key] = list(RULES[spec.rule](deck, spec.params))
        else:
            found = RULES[spec.rule](deck, spec.params)
        for line, message in found:
            ranked.append((SourcePos(deck.path, line), order, Problem(SourcePos(deck.path, line), message, spec.rule)))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return list(dict.fromkeys(p for _pos, _order, p in ranked))


def describe(spec: RuleSpec) -> str:
    """Return one line of text for a rule of a format (``cardlab formats``)."""
    p = spec.params
    if spec.rule in ("deck-size", "section-size"):
        return (_("exactly {n} card in {section}") if p["size"] == 1 else _("exactly {n} cards in {section}")).format(
            n=p["size"], section=_(p.get("section", "main"))
        )
    if spec.rule == "copy-limit":
        by = _("by name") if p["same"] == "name" else _("by card number")
        text = _("at most {n} copies of a card {by}").format(n=p["max"], by=by)
        if p.get("sections"):
            text += " " + _("in {sections}").format(sections=", ".join(_(s) for s in p["sections"]))
        if p.get("exempt"):
            text += "; " + _("no limit for {what}").format(what=" / ".join(_condition_text(c) for c in p["exempt"]))
        return text
    if spec.rule == "require":
        return _("at least {n} {label} ({where})").format(n=p["min"], label=_(p["label"]), where=_condition_text(p["where"]))
    if spec.rule == "allowed-sets":
        return _("only cards of the sets {sets}").format(sets=", ".join(p["sets"]))
    if spec.rule == "section-cards":
        key = "deny" if p.get("deny") else "allow"
        label = _(p["label"]) if p.get("label") else _condition_text(p[key])
        template = _("no {label} in {section} ({where})") if key == "deny" else _("only {label} in {section} ({where})")
        return template.format(label=label, section=_(p["section"]), where=_condition_text(p[key]))
    if spec.rule == "max-cards":
        return _("at most {n} {label} ({where}) in {section}").format(
            n=p["max"], label=_(p["label"]), where=_condition_text(p["where"]), section=_(p.get("section", "main"))
        )
    if spec.rule == "banned":
        return _("not legal: {cards}").format(cards=", ".join(p["cards"])) + (f" ({_(p['why'])})" if p.get("why") else "")
    if spec.rule == "number-range":
        return _("{set} cards only numbered {low} to {high}").format(set=p["set"], low=p["min"], high=p["max"])
    return spec.rule


def card_legality(set_code: str, formats: Iterable[Format]) -> list[tuple[Format, bool, str]]:
    """Say whether a card of the set ``set_code`` may be played in each format (its ``allowed-sets``
    rules; a format without one takes every set of its game).

    Args:
        set_code: the card's set code; formats: the formats to answer for (usually its game's).

    Returns:
        ``(format, legal, reason)`` per format, in the order given; ``reason`` is ``""`` when legal,
        else ``"only the sets base1"``.
    """
    out = []
    for fmt in formats:
        allowed = fmt.allowed_sets
        if allowed is None or set_code in allowed:
            out.append((fmt, True, ""))
        else:
            out.append((fmt, False, _("only the sets {sets}").format(sets=", ".join(sorted(allowed)))))
    return out
