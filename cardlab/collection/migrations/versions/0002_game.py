"""Mini-games (seed 002): setup, seed, moves, result (the hand-made schema version 2).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TEXT = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    """Create ``game``: one saved game, its JSON setup, moves, stakes and result as text."""
    op.create_table(
        "game",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", TEXT, nullable=False),
        sa.Column("created", TEXT, nullable=False),
        sa.Column("updated", TEXT, nullable=False),
        sa.Column("seed", sa.LargeBinary, nullable=False),
        sa.Column("commitment", TEXT, nullable=False),
        sa.Column("setup", TEXT, nullable=False),
        sa.Column("moves", TEXT, nullable=False, server_default="[]"),
        sa.Column("stakes", TEXT, nullable=False, server_default="{}"),
        sa.Column("status", TEXT, nullable=False, server_default="on"),
        sa.Column("result", TEXT),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    """Drop ``game``."""
    op.drop_table("game")
