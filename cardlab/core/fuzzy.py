"""The one "did you mean" helper: known names close to what was typed (rapidfuzz, well kept and fast).

Every suggestion in cardlab (unknown card in a deck list, in ``show``, in proxies, unknown set)
comes from :func:`suggest`, with one cut-off, so the same typo gets the same answer everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardlab.core.text import fold

SCORE_CUTOFF = 70
"""Least rapidfuzz WRatio score (0-100) for a name to be suggested: 60 suggested "Arcanine" for
"nope"; 75 missed "Pikachuu" -> "Pikachu" on short names. Compared on folded text (case, accents)."""


def suggest(text: str, choices: Iterable[str], limit: int | None = 3, cutoff: int = SCORE_CUTOFF) -> list[str]:
    """Return up to ``limit`` of ``choices`` close to ``text``, best first (ties keep ``choices``'
    order); compared folded (:func:`cardlab.core.text.fold`: case, accents, apostrophes).

    Args:
        text: what the user typed; choices: the known names (any iterable, read once);
        limit: most names returned (None: every close name); cutoff: least rapidfuzz WRatio score, 0-100.

    Returns:
        A list of names from ``choices`` (no duplicates), possibly empty.
    """
    from rapidfuzz import fuzz, process  # lazy: rapidfuzz (190 ms cold), only for a "did you mean"

    unique = list(dict.fromkeys(choices))
    found = process.extract(text, unique, scorer=fuzz.WRatio, limit=limit, score_cutoff=cutoff, processor=fold)
    return [name for name, _score, _i in found]
