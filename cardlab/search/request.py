"""What a search asks for: one frozen :class:`SearchRequest` that the engine
(:mod:`cardlab.search.engine`) passes to the compiler (:mod:`cardlab.search.compile`) and to the
assembly of hits (:mod:`cardlab.search.hits`), instead of ten positional parameters."""

from __future__ import annotations

from dataclasses import dataclass

UNIQUE = ("prints", "cards")
"""``--unique`` choices: every printing, or one hit per card (its printings collapsed)."""


@dataclass(frozen=True)
class SearchRequest:
    """One search: the options of :func:`cardlab.search.engine.search`, and whether the total is asked.

    Attributes:
        query: a query in the language of :mod:`cardlab.search.query`.
        langs: preferred languages for names, first first (a list is kept as a tuple).
        sort: a key of :data:`cardlab.search.compile.SORTS`; ``reverse`` reverses it.
        limit: the most hits, or None for all; ``offset``: hits skipped first (paging).
        timeout: seconds the statements may run, or None for no limit.
        unique: one of :data:`UNIQUE`.
        with_total: the total number of matches is wanted too (:func:`cardlab.search.engine.search_page`).
    """

    query: str
    langs: tuple[str, ...] = ()
    sort: str = "number"
    reverse: bool = False
    limit: int | None = None
    offset: int = 0
    timeout: float | None = None
    unique: str = "prints"
    with_total: bool = False

    def __post_init__(self) -> None:
        """Keep ``langs`` as a tuple (a request is frozen and hashable)."""
        if not isinstance(self.langs, tuple):
            object.__setattr__(self, "langs", tuple(self.langs))
