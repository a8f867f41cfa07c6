"""Alembic environment of the collections database: always run from cardlab
(:func:`cardlab.collection.db.migrate`) on a connection it opened, inside its transaction."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, transaction_per_migration=False)
with context.begin_transaction():
    context.run_migrations()
