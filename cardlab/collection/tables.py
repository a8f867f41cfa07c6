"""The collections database's tables as SQLAlchemy Core objects, for the statements of
:mod:`cardlab.collection.owned`, :mod:`cardlab.collection.saved` and :mod:`cardlab.play.store` (the schema itself is made by the
Alembic migrations in ``cardlab/collection/migrations``; these mirror the latest revision)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

owned = sa.Table(
    "owned",
    metadata,
    sa.Column("player", sa.Text, primary_key=True),
    sa.Column("card_id", sa.Text, primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
)
"""How many copies of a card (``card_id``) a ``player`` owns; no row for none (``count > 0``)."""

game = sa.Table(
    "game",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("seed", sa.LargeBinary, nullable=False),
    sa.Column("commitment", sa.Text, nullable=False),
    sa.Column("setup", sa.Text, nullable=False),
    sa.Column("moves", sa.Text, nullable=False),
    sa.Column("stakes", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("result", sa.Text),
)
"""A saved mini-game: JSON text for setup, moves, stakes and result (see :mod:`cardlab.play.store`)."""

saved_deck = sa.Table(
    "saved_deck",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("format", sa.Text),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("cards", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
)
"""A saved deck (see :mod:`cardlab.collection.saved`): its list as cardlab text, a short id, an edit version."""

USER_TABLES = (owned, game)
"""Every table of user data, in the order a copy writes them (:mod:`cardlab.collection.copy`)."""
