"""Owned cards per player (the hand-made schema version 1).

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Byte order on both backends ("C" collation on PostgreSQL): sorted listings and exports are the same.
TEXT = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    """Create ``owned(player, card_id, count > 0)``, one row per player and card."""
    op.create_table(
        "owned",
        sa.Column("player", TEXT, nullable=False),
        sa.Column("card_id", TEXT, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.CheckConstraint("count > 0", name="owned_count_positive"),
        sa.PrimaryKeyConstraint("player", "card_id", name="owned_pkey"),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    """Drop ``owned``."""
    op.drop_table("owned")
