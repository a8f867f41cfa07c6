"""cardlab: a data-driven trading-card database and deck builder.

The library API (every CLI command is a thin layer over these):

- :func:`cardlab.catalog.validate.validate` / :func:`cardlab.catalog.validate.load_catalog`: check and load cards.
- :func:`cardlab.search.index.ensure_index` / :func:`cardlab.search.index.build_index`: the SQLite index.
- :func:`cardlab.search.engine.search` / :func:`cardlab.search.engine.get_card`: queries and single cards.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
