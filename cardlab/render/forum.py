"""Forum posts of a mini-game (issue 13 §3, issue 33 §1): the thread of a game
(:func:`cardlab.play.thread.play`'s posts: the start, each acceptance, move and claim, the result
with the revealed seed) as plain text, Markdown, BBCode or JSON, ready to paste. Every post reads
back through :func:`cardlab.play.thread.clean`, so ``cardlab play verify`` checks the pasted text.
Plain strings (no rich)."""

from __future__ import annotations

import json
from typing import Any

from cardlab.play.rng import ALGORITHM

FORMATS = ("text", "markdown", "bbcode", "json")


def game_json(rec: Any, played: Any) -> dict:
    """Return a game as a JSON-ready dict: id, kind, players, created, commitment, seed (once over,
    else None), setup, moves (the log), stakes, events, status, waiting, scores, result, posts
    (each as its lines of text). ``cardlab play verify`` reads it."""
    out = played.outcome
    return {
        "id": rec.id,
        "kind": rec.kind,
        "players": rec.setup["players"],
        "created": rec.created,
        "algorithm": ALGORITHM,
        "commitment": rec.commitment,
        "seed": rec.seed.hex() if rec.revealed else None,
        "setup": rec.setup,
        "moves": rec.moves,
        "stakes": rec.stakes,
        "events": out.events,
        "status": played.status,
        "waiting": out.waiting,
        "scores": out.scores,
        "result": rec.result,
        "posts": [[post.title, *(text for _, text in post.lines)] for post in played.posts],
    }


def render_post(post: Any, fmt: str = "text") -> str:
    """Return one post (:class:`cardlab.play.thread.Post`) in ``fmt`` (``text``, ``markdown``,
    ``bbcode``). Raises ValueError for another format."""
    if fmt not in FORMATS or fmt == "json":
        raise ValueError(fmt)
    rows = [{"text": post.title, "markdown": f"**{post.title}**  ", "bbcode": f"[b]{post.title}[/b]"}[fmt]]
    in_list = False
    for style, text in post.lines:
        if style != "item" and in_list:
            rows.append("[/list]" if fmt == "bbcode" else "")
            in_list = False
        if style == "item":
            if not in_list and fmt == "bbcode":
                rows.append("[list]")
            in_list = True
            rows.append({"text": f"  - {text}", "markdown": f"- {text}", "bbcode": f"[*]{text}"}[fmt])
        elif style == "result":
            rows.append({"text": text, "markdown": f"**{text}**  ", "bbcode": f"[b]{text}[/b]"}[fmt])
        elif style == "end":
            rows.append({"text": text, "markdown": f"{text}  ", "bbcode": f"[size=85]{text}[/size]"}[fmt])
        else:
            rows.append({"text": text, "markdown": f"{text}  ", "bbcode": f"[i]{text}[/i]" if fmt == "bbcode" else text}[fmt])
    return "\n".join(r for r in rows if r is not None).rstrip() + "\n"


def render(rec: Any, played: Any, fmt: str = "text", posts: list[int] | None = None) -> str:
    """Return a game (:class:`cardlab.play.store.GameRecord` and its
    :class:`cardlab.play.thread.Played`) as forum posts in ``fmt`` (``text``, ``markdown``,
    ``bbcode``; ``json``: :func:`game_json`), one blank line between posts; ``posts``: only these
    post numbers (None: the whole thread). Raises ValueError for another format."""
    if fmt == "json":
        return json.dumps(game_json(rec, played), ensure_ascii=False, indent=2) + "\n"
    if fmt not in FORMATS:
        raise ValueError(fmt)
    chosen = [p for p in played.posts if posts is None or p.number in posts]
    return "\n".join(render_post(p, fmt) for p in chosen)
