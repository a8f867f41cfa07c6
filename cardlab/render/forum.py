"""Forum posts of a mini-game (issue 13 §3, "Forum output"): every draw, roll, hand class, score and
the result as plain text, Markdown, BBCode or JSON, ready to paste. Plain strings (no rich)."""

from __future__ import annotations

import json
from typing import Any

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

    return f"{c['name']} ({c['id']}, Value {c['value']}, {faction_label(c.get('faction'))})"


def _event(e: dict) -> str | None:
    t = e["type"]
    p = e.get("player", "")
    if t == "draw":
        if e.get("phase") == "replace":
            return f"{p} replaces card {e['slot']} ({e['replaced']['name']}) with {_card(e['card'])}"
        what = "tie-break draw" if e.get("phase") == "tie-break" else f"card {e['slot']}"
        return f"{p} draws {what}: {_card(e['card'])}"
    if t == "hand":
        return f"{p}: {e['text']} — Values {' '.join(str(v) for v in e['values'])}"
    if t == "roll":
        if e.get("burned"):
            return f"{p} rolls {e['die']}: burned card, rolls again"
        extra = ""
        if "factions" in e:
            extra = f" — new faction ({len(e['factions'])}/4)" if e.get("new_faction") else f" ({len(e['factions'])}/4 factions)"
            if e.get("extra_roll"):
                extra += " — Independent: extra roll"
        return f"{p} rolls {e['die']}: {_card(e['card'])}{extra}"
    if t == "round":
        if "rule" in e:
            return f"Round {e['round']} ({'higher' if e['rule'] == 'higher' else 'lower'} Value scores)"
        return e.get("text") or f"Round {e['round']}"
    if t == "score":
        if "sum" in e:
            return f"{p}: sum {e['sum']}"
        if e.get("winner"):
            return f"{e['winner']} scores: " + ", ".join(f"{k} {v}" for k, v in e["points"].items())
        return e.get("text", "")
    if t == "burn":
        return f"{p}'s card {e['die']} ({e['card']['name']}) is burned"
    if t == "note":
        return e.get("text", "")
    return None


def _lines(rec: Any, out: Any) -> list[tuple[str, str]]:
    setup = rec.setup
    title = f"{TITLES.get(rec.kind, rec.kind)} #{rec.id}: {' vs '.join(setup['players'])}"
    lines = [("title", title), ("meta", f"Seed commitment (SHA-256): {rec.commitment}")]
    if rec.revealed:
        lines.append(("meta", f"Seed: {rec.seed.hex()} (hmac-sha256-ctr-v1; check with 'cardlab play verify')"))
    if "pool" in setup:
        how = "with replacement" if setup.get("replacement", True) else "without replacement"
        lines.append(("meta", f"Draw pool: {len(setup['pool'])} Commons of {setup.get('set', '?')}, {how}"))
    for p, cards in (setup.get("lists") or {}).items():
        lines.append(
            ("meta", f"{p}'s list: " + "; ".join(f"{i}. {c['name']} ({c['value']}, {c.get('faction')})" for i, c in enumerate(cards, 1)))
        )
    opts = setup.get("options") or {}
    if opts:
        lines.append(("meta", "Options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(opts.items()))))
    for p, card in sorted(rec.stakes.items()):
        lines.append(("meta", f"Stake: {p} puts {card} in play"))
    lines.append(("section", "Play"))
    for e in out.events:
        if e["type"] == "result":
            continue
        text = _event(e)
        if text:
            lines.append(("item", text))
    if out.over:
        res = out.events[-1]
        verdict = f"{res['winner']} wins" if res["winner"] else "draw"
        lines.append(("result", f"Result: {verdict} ({res['reason']})"))
        for s in (rec.result or {}).get("stakes_moved", []):
            lines.append(("result", f"Stake: {s['card']} goes from {s['from']} to {s['to']}"))
        for s in (rec.result or {}).get("stakes_not_moved", []):
            lines.append(("result", f"Stake not moved: {s['why']}"))
    else:
        lines.append(("result", f"Waiting for: {', '.join(out.waiting)}"))
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
