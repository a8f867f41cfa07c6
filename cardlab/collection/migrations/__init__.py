"""Alembic migrations of the collections database (see :mod:`cardlab.collection.db`)."""
