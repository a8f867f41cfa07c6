"""cardlab: a data-driven trading-card database and deck builder.

The library API (every CLI command is a thin layer over these):

- :func:`cardlab.validate.validate` / :func:`cardlab.validate.load_catalog`: check and load cards.
- :func:`cardlab.index.ensure_index` / :func:`cardlab.index.build_index`: the SQLite index.
- :func:`cardlab.search.search` / :func:`cardlab.search.get_card`: queries and single cards.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
