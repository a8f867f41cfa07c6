"""The search query language: :mod:`.tokens` (text → tokens, with limits), :mod:`.parse` (tokens →
tree), :mod:`.tree` (the tree's nodes, its walks and the query error). The tree is compiled to SQL
by :mod:`cardlab.search.compile`."""
