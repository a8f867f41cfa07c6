"""cardlab.core.database.server_error: the rights a refused user needs depend on what was being built."""

from __future__ import annotations

import pytest

from cardlab.core.database import DatabaseUnavailableError, locate, server_error


@pytest.mark.parametrize(
    ("what", "grant"),
    [
        ("the search index", 'GRANT CREATE ON DATABASE "cards" TO "reader"'),  # the index makes schemas of its own
        ("the collection database", 'GRANT CREATE, USAGE ON SCHEMA public TO "reader"'),
    ],
)
def test_permission_denied_names_the_grant_that_helps(what, grant):
    where = locate("postgresql+psycopg://reader:secret@db.example:5433/cards")
    err = server_error(RuntimeError("permission denied for database cards"), where, what)
    assert isinstance(err, DatabaseUnavailableError)
    assert str(err) == (
        "user 'reader' may not create or change cardlab's tables in the database 'cards' on db.example:5433; "
        f'make the user its owner (ALTER DATABASE "cards" OWNER TO "reader") or grant it the rights ({grant})'
    )
