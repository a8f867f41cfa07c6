"""Collections (issue 13, every game): how many copies of each card each player owns, kept in their
own SQLite database (:mod:`cardlab.collection.db`), apart from the rebuildable search index."""
