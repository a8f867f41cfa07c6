"""Forum posts of a mini-game (issue 13 §3, "Forum output"): every draw, roll, hand class, score and
the result as plain text, Markdown, BBCode or JSON, ready to paste, in the interface language
(:mod:`cardlab.core.l10n`; JSON stays data). Plain strings (no rich)."""

from __future__ import annotations

import json
from typing import Any

from cardlab.core.l10n import _

FORMATS = ("text", "markdown", "bbcode", "json")
TITLES = {"los-lobos": "Los Lobos", "doll-house": "Doll House", "ryujin-jakka": "Ryūjin Jakka", "zangetsu": "Zangetsu"}


def game_json(rec: Any, out: Any) -> dict:
    """Return a game as a JSON-ready dict: id, kind, players, commitment, seed (once over, else
    None), setup, moves, stakes, events, status, waiting, result. ``cardlab play verify`` reads it."""
    return {
        "id": rec.id,
        "kind": rec.kind,
        "players": rec.setup["players"],
        "created": rec.created,
        "algorithm": "hmac-sha256-ctr-v1",
        "commitment": rec.commitment,
        "seed": rec.seed.hex() if rec.revealed else None,
        "setup": rec.setup,
        "moves": rec.moves,
        "stakes": rec.stakes,
        "events": out.events,
        "status": rec.status,
        "waiting": out.waiting,
        "scores": out.scores,
        "result": rec.result,
    }


def _card(c: dict) -> str:
    from cardlab.games.forumtcg import faction_label

    return _("{name} ({id}, Value {value}, {faction})").format(
        name=c["name"], id=c["id"], value=c["value"], faction=faction_label(c.get("faction"))
    )


def _event(e: dict) -> str | None:
    t = e["type"]
    p = e.get("player", "")
    if t == "draw":
        if e.get("phase") == "replace":
            return _("{player} replaces card {slot} ({old}) with {card}").format(
                player=p, slot=e["slot"], old=e["replaced"]["name"], card=_card(e["card"])
            )
        what = _("tie-break draw") if e.get("phase") == "tie-break" else _("card {slot}").format(slot=e["slot"])
        return _("{player} draws {what}: {card}").format(player=p, what=what, card=_card(e["card"]))
    if t == "hand":
        return f"{p}: {_(e['text'])} — " + _("Values {values}").format(values=" ".join(str(v) for v in e["values"]))
    if t == "roll":
        if e.get("burned"):
            return _("{player} rolls {die}: burned card, rolls again").format(player=p, die=e["die"])
        extra = ""
        if "factions" in e:
            n = len(e["factions"])
            extra = " — " + _("new faction ({n}/4)").format(n=n) if e.get("new_faction") else " (" + _("{n}/4 factions").format(n=n) + ")"
            if e.get("extra_roll"):
                extra += " — " + _("Independent: extra roll")
        return _("{player} rolls {die}: {card}").format(player=p, die=e["die"], card=_card(e["card"])) + extra
    if t == "round":
        if "rule" in e:
            rule = _("higher Value scores") if e["rule"] == "higher" else _("lower Value scores")
            return _("Round {n}").format(n=e["round"]) + f" ({rule})"
        return _(e["text"]) if e.get("text") else _("Round {n}").format(n=e["round"])
    if t == "score":
        if "sum" in e:
            return f"{p}: " + _("sum {n}").format(n=e["sum"])
        if e.get("winner"):
            return _("{player} scores: {points}").format(player=e["winner"], points=", ".join(f"{k} {v}" for k, v in e["points"].items()))
        return _(e.get("text", ""))
    if t == "burn":
        return _("{player}'s card {die} ({card}) is burned").format(player=p, die=e["die"], card=e["card"]["name"])
    if t == "note":
        return _(e.get("text", ""))
    return None


def _lines(rec: Any, out: Any) -> list[tuple[str, str]]:
    setup = rec.setup
    versus = " " + _("vs") + " "
    title = f"{TITLES.get(rec.kind, rec.kind)} #{rec.id}: {versus.join(setup['players'])}"
    lines = [("title", title), ("meta", _("Seed commitment (SHA-256): {hash}").format(hash=rec.commitment))]
    if rec.revealed:
        lines.append(("meta", _("Seed: {seed} (hmac-sha256-ctr-v1; check with 'cardlab play verify')").format(seed=rec.seed.hex())))
    if "pool" in setup:
        how = _("with replacement") if setup.get("replacement", True) else _("without replacement")
        lines.append(("meta", _("Draw pool: {n} Commons of {set}, {how}").format(n=len(setup["pool"]), set=setup.get("set", "?"), how=how)))
    for p, cards in (setup.get("lists") or {}).items():
        listed = "; ".join(f"{i}. {c['name']} ({c['value']}, {c.get('faction')})" for i, c in enumerate(cards, 1))
        lines.append(("meta", _("{player}'s list: {cards}").format(player=p, cards=listed)))
    opts = setup.get("options") or {}
    if opts:
        lines.append(("meta", _("Options: {options}").format(options=", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(opts.items())))))
    for p, card in sorted(rec.stakes.items()):
        lines.append(("meta", _("Stake: {player} puts {card} in play").format(player=p, card=card)))
    lines.append(("section", _("Play")))
    for e in out.events:
        if e["type"] == "result":
            continue
        text = _event(e)
        if text:
            lines.append(("item", text))
    if out.over:
        res = out.events[-1]
        verdict = _("{player} wins").format(player=res["winner"]) if res["winner"] else _("draw")
        lines.append(("result", _("Result: {verdict} ({reason})").format(verdict=verdict, reason=_(res["reason"]))))
        for s in (rec.result or {}).get("stakes_moved", []):
            lines.append(("result", _("Stake: {card} goes from {giver} to {taker}").format(card=s["card"], giver=s["from"], taker=s["to"])))
        for s in (rec.result or {}).get("stakes_not_moved", []):
            lines.append(("result", _("Stake not moved: {why}").format(why=_(s["why"]))))
    else:
        lines.append(("result", _("Waiting for: {players}").format(players=", ".join(out.waiting))))
    return lines


def render(rec: Any, out: Any, fmt: str = "text") -> str:
    """Return a game (:class:`cardlab.play.store.GameRecord` and its replayed
    :class:`cardlab.play.engine.Outcome`) as a forum post in ``fmt``: ``text``, ``markdown``,
    ``bbcode`` or ``json`` (:func:`game_json`). Raises ValueError for another format."""
    if fmt == "json":
        return json.dumps(game_json(rec, out), ensure_ascii=False, indent=2) + "\n"
    if fmt not in FORMATS:
        raise ValueError(fmt)
    rows: list[str] = []
    in_list = False
    for kind, text in _lines(rec, out):
        if fmt == "bbcode":
            text = text.replace("[", "(").replace("]", ")")
        if kind != "item" and in_list:
            rows.append("[/list]" if fmt == "bbcode" else "")
            in_list = False
        if kind == "title":
            rows.append(
                {"text": text + "\n" + "=" * len(text), "markdown": f"### {text}", "bbcode": f"[size=150][b]{text}[/b][/size]"}[fmt]
            )
        elif kind == "meta":
            rows.append({"text": text, "markdown": f"{text}  ", "bbcode": f"[i]{text}[/i]"}[fmt])
        elif kind == "section":
            rows.append({"text": f"\n{text}:", "markdown": f"\n**{text}**\n", "bbcode": f"\n[b]{text}[/b]"}[fmt])
        elif kind == "item":
            if not in_list and fmt == "bbcode":
                rows.append("[list]")
            in_list = True
            rows.append({"text": f"  - {text}", "markdown": f"- {text}", "bbcode": f"[*]{text}"}[fmt])
        else:
            rows.append({"text": text, "markdown": f"**{text}**  ", "bbcode": f"[b]{text}[/b]"}[fmt])
    if in_list and fmt == "bbcode":
        rows.append("[/list]")
    return "\n".join(rows).rstrip() + "\n"
