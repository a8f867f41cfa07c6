"""cardlab: a data-driven trading-card database and deck builder.

The public library API: every ``cardlab`` command is a thin layer over these. Each name is
imported on first use (PEP 562 module ``__getattr__``, the one sanctioned in the package), so
``import cardlab`` and ``import cardlab.cli.app`` stay light (no sqlmodel, jsonschema, ruamel.yaml,
pydantic or reportlab until a command needs them).

Catalog:
    :func:`validate` (roots) -> Validation (catalog + every problem);
    :func:`load_catalog` (roots) -> Catalog, raises CatalogError when anything is wrong.
Search (``search_cards``, not ``search``: ``cardlab.search`` is the subpackage):
    :func:`open_index` (roots, db) -> sqlite3.Connection, (re)building the index when cards changed;
    :func:`search_cards` (con, query, langs=, sort=, reverse=, limit=) -> list[Hit];
    :func:`get_card` (con, "base1-4" | "BS 4" | "Dracaufeu") -> CardView.
Decks:
    :func:`check_deck_file` (path, roots, format_name=None) -> DeckReport (``legal``, ``problems``);
    :func:`open_deck` (path, roots, format_name=None) -> Deck; :func:`deck_stats` (deck, need=()) -> DeckStats.
Translations:
    :func:`export_po` (catalog, lang, sets=None) -> polib.POFile;
    :func:`import_po` (roots, po_path, lang=None, dry_run=False) -> ImportReport.
Proxies:
    :func:`select_proxies` (roots, db, deck=None, queries=(), cards=()) -> Selection;
    :func:`make_proxies` (catalog, card_ids, out, options) -> ProxyReport; :class:`ProxyOptions`.
Errors:
    :class:`CardlabError` (root of every error a user can fix; ``exit_code`` is an
    :class:`ExitStatus`: OK 0, CHECK_FAILED 1, USAGE 2).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 5 ms at every start)
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_API: dict[str, tuple[str, str]] = {
    "catalog_roots": ("cardlab.core.paths", "catalog_roots"),
    "validate": ("cardlab.catalog.validate", "validate"),
    "load_catalog": ("cardlab.catalog.validate", "load_catalog"),
    "open_index": ("cardlab.search.engine", "open_index"),
    "search_cards": ("cardlab.search.engine", "search"),
    "get_card": ("cardlab.search.lookup", "get_card"),
    "check_deck_file": ("cardlab.decks.check", "check_file"),
    "open_deck": ("cardlab.decks.check", "open_deck"),
    "deck_stats": ("cardlab.decks.stats", "deck_stats"),
    "export_po": ("cardlab.i18n.po_file", "export"),
    "import_po": ("cardlab.i18n.po_import", "import_po"),
    "select_proxies": ("cardlab.proxies.pdf", "select"),
    "make_proxies": ("cardlab.proxies.pdf", "make_proxies"),
    "ProxyOptions": ("cardlab.proxies.pdf", "ProxyOptions"),
    "CardlabError": ("cardlab.core.errors", "CardlabError"),
    "ExitStatus": ("cardlab.core.errors", "ExitStatus"),
}
"""Public name -> (module, attribute in it)."""

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    """Import a public name of :data:`__all__` on first use (PEP 562) and keep it in the module.

    Raises:
        AttributeError: ``name`` is not public.
    """
    if name not in _API:
        raise AttributeError(f"module 'cardlab' has no attribute {name!r}")
    from importlib import import_module

    module, attr = _API[name]
    value = getattr(import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
