"""Fixtures of the conformance suite: each catalog indexed once per session in SQLite and on the
session's PostgreSQL server (one database per catalog, so that the tests of other modules, which
reset ``public`` of their own database, never touch these indexes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.core.errors import CardlabError

REPO = Path(__file__).resolve().parents[2]

CATALOGS = {
    "fixture": REPO / "tests" / "fixtures" / "catalog",
    "shipped": REPO / "cards",
    "vintage": REPO / "cards" / "pokemon",
}
"""The catalogs compared: the fictional test sets, every shipped card, the vintage Pokémon catalog."""

STAT_BOUNDS = {"shipped-bound3": ("shipped", 3)}
"""Catalogs indexed on PostgreSQL with ``word_stat`` and ``word_rows`` kept at another bound than
the engine's (the shipped cards have no word in more than 1,000 cards), ``word_rows`` in runs of 4
row ids: ``name -> (catalog, bound)``."""


class Pair:
    """One catalog's index on both backends: ``sqlite`` and ``pg`` connections, ``roots``, ``url``."""

    def __init__(self, roots: list[Path], sqlite_db: Path, url: str) -> None:
        from cardlab.index import postgres, sqlite

        sqlite.build_index(roots, sqlite_db)
        postgres.build(roots, url, force=True)
        self.roots, self.url = roots, url
        self.sqlite = sqlite.connect(sqlite_db)
        self.pg = postgres.open_fresh(roots, url)

    def close(self) -> None:
        self.sqlite.close()
        self.pg.close()


def search_answer(con, query: str, **options) -> tuple:
    """A search's ids in order, or the error it raised (type and message)."""
    from cardlab.search import engine

    try:
        return ("ok", [h.id for h in engine.search(con, query, **options)])
    except CardlabError as err:
        return ("error", type(err).__name__, str(err))


@pytest.fixture(scope="session")
def answer():
    """:func:`search_answer`: what a search on one backend gives, to compare with the other's."""
    return search_answer


@pytest.fixture(scope="session")
def indexed(pg_new_database, tmp_path_factory):
    """``indexed(name)`` -> the :class:`Pair` of the catalog ``name`` of :data:`CATALOGS`, built once."""
    pairs: dict[str, Pair] = {}

    def get(name: str) -> Pair:
        if name not in pairs:
            from unittest import mock

            from cardlab.index import postgres

            catalog, bound = STAT_BOUNDS.get(name, (name, postgres.WORD_STAT_BOUND))
            sqlite_db = tmp_path_factory.mktemp(f"conf-{name}") / "index.sqlite"
            run = 4 if name in STAT_BOUNDS else postgres.ROWS_RUN  # word_rows in many runs
            with mock.patch.object(postgres, "WORD_STAT_BOUND", bound), mock.patch.object(postgres, "ROWS_RUN", run):
                pairs[name] = Pair([CATALOGS[catalog]], sqlite_db, pg_new_database(f"conf_{name.replace('-', '_')}"))
        return pairs[name]

    yield get
    for pair in pairs.values():
        pair.close()
