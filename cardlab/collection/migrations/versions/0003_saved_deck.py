"""Saved decks (issue 30): a deck list with a short permalink id and a version for edits.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TEXT = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    """Create ``saved_deck``: one deck list (cardlab's text dialect) per short id, with its name,
    format, card count and an edit ``version`` (1 when saved, one more per accepted edit)."""
    op.create_table(
        "saved_deck",
        sa.Column("id", TEXT, primary_key=True),
        sa.Column("name", TEXT, nullable=False, server_default=""),
        sa.Column("format", TEXT),
        sa.Column("text", TEXT, nullable=False),
        sa.Column("cards", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", TEXT, nullable=False),
        sa.Column("updated", TEXT, nullable=False),
        sa.CheckConstraint("version > 0", name="saved_deck_version_positive"),
    )


def downgrade() -> None:
    """Drop ``saved_deck``."""
    op.drop_table("saved_deck")
