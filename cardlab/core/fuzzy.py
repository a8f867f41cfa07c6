"""The one "did you mean" helper: known names close to what was typed (rapidfuzz, well kept and fast).

Every suggestion in cardlab (unknown card in a deck list, in ``show``, in proxies, unknown set)
comes from :func:`suggest`, with one cut-off, so the same typo gets the same answer everywhere,
and is said by :func:`did_you_mean`, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from cardlab.core.l10n import _
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


BEST_MARGIN = 5
"""Least lead, in rapidfuzz WRatio points, of the closest name over the next one for
:func:`best_match` to call it the one meant: ``charzard`` scores 94 against Charizard and 85
against Dark Charizard; two names a point apart are a coin toss, answered with suggestions."""


def best_match(
    text: str, choices: Iterable[str], cutoff: int = SCORE_CUTOFF, margin: int = BEST_MARGIN, folded: bool = False
) -> str | None:
    """Return the one name of ``choices`` closest to ``text`` (Scryfall's ``fuzzy`` lookup), or None
    when none scores ``cutoff`` or two are within ``margin`` of each other; compared folded, as
    :func:`suggest` (names that fold alike count once: the first given).

    Args:
        text: what the user typed; choices: the known names; cutoff, margin: rapidfuzz WRatio points (0-100);
        folded: ``choices`` are folded already (an index's folded names: folding 50,000 names takes
            a fifth of a second), and the folded name is returned.
    """
    from rapidfuzz import fuzz, process  # lazy: rapidfuzz (190 ms cold), only for a "did you mean"

    if folded:
        found = process.extract(fold(text), list(dict.fromkeys(choices)), scorer=fuzz.WRatio, limit=2, score_cutoff=cutoff)
    else:
        seen: dict[str, str] = {}
        for name in choices:
            seen.setdefault(fold(name), name)
        found = process.extract(text, list(seen.values()), scorer=fuzz.WRatio, limit=2, score_cutoff=cutoff, processor=fold)
    if not found or (len(found) == 2 and found[0][1] - found[1][1] < margin):
        return None
    return found[0][0]


def did_you_mean(names: Sequence[str], join: Callable[[Iterable[str]], str] = ", ".join) -> str:
    """Return the end of a message offering ``names`` (``'; did you mean "Pikachu", "Raichu"?'``,
    in the current language), or ``""`` when there are none.

    Args:
        names: the suggestions as they are to be shown (already quoted where they need it);
            join: how they are joined (``", "``; :func:`cardlab.core.l10n.either` for alternatives).
    """
    return _("; did you mean {names}?").format(names=join(names)) if names else ""


def did_you_mean_words() -> str:
    """Return the words :func:`did_you_mean` puts before its names, in the current language: how a
    message carrying suggestions is recognised (and cut before them)."""
    return _("; did you mean {names}?").partition("{names}")[0]
