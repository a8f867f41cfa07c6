"""Numbers in messages: ``1 card``, ``2 cards``, ``0 entries``. No imports: the quick path of
``cardlab validate`` (:mod:`cardlab.cli.entry`) uses it too."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """Return ``n`` with its noun in the right number: ``1 file``, ``2 files``, ``0 entries``.

    Args:
        n: how many; noun: the singular; plural: the plural when it is not ``noun + "s"``.
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
