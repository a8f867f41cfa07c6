"""cardlab.core.database: server_error (the rights a refused user needs depend on what was being built) and
parse_url (URLs read without SQLAlchemy, as SQLAlchemy reads them)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core.database import Address, DatabaseUnavailableError, locate, parse_url, server_error, shown_url


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


_PART = st.text(alphabet="aZ09_-. :/@?&=%#[]+;\\é東\x00\n", max_size=10)
"""A part of a URL: letters, what URLs give a meaning to, what they must escape."""


@st.composite
def typed_urls(draw: st.DrawFn) -> str:
    """URLs as people type them (and some as nobody should): any part escaped or not, left out or
    empty, an IPv6 host in brackets, a port that is or is not a number, repeated query names."""
    text = draw(st.sampled_from(["postgresql", "postgresql+psycopg", "postgres", "sqlite", "mysql", "a_b"])) + "://"
    if draw(st.booleans()):
        text += draw(st.one_of(_PART, _PART.map(quote)))
        if draw(st.booleans()):
            text += ":" + draw(st.one_of(_PART, _PART.map(lambda p: quote(p, safe=""))))
        text += "@"
    text += draw(st.sampled_from(["", "db.example", "127.0.0.1", "[::1]", "[fe80::1%eth0]", "h_st"]))
    if draw(st.booleans()):
        text += ":" + draw(st.sampled_from(["", "5432", "port", "0", " 1", "+7", "5_432"]))
    if draw(st.booleans()):
        text += "/" + draw(st.one_of(_PART, _PART.map(quote)))
    if draw(st.booleans()):
        names = st.sampled_from(["host", "password", "sslmode", "passfile", "x y", "host"])
        pairs = draw(st.lists(st.tuples(names, _PART), max_size=4))
        text += "?" + draw(st.sampled_from(["&", ";"])).join(f"{k}={v}" for k, v in pairs)
    return text


@settings(max_examples=150, deadline=None)
@given(typed_urls())
def test_parse_url_reads_every_url_as_sqlalchemy_does(text):
    """parse_url (standard library only, for a search on PostgreSQL) reads the parts SQLAlchemy's
    make_url reads (the collections' engine), renders the text it renders, and refuses what it refuses."""
    sa = pytest.importorskip("sqlalchemy")
    try:
        expected = sa.make_url(text)
    except (sa.exc.ArgumentError, ValueError):
        with pytest.raises(ValueError):
            parse_url(text)
        return
    got = parse_url(text)
    assert (got.drivername, got.username, got.password, got.host, got.port, got.database) == (
        expected.drivername,
        expected.username,
        expected.password,
        expected.host,
        expected.port,
        expected.database,
    )
    assert dict(got.query) == dict(expected.query)
    assert got.render(hide_password=False) == expected.render_as_string(hide_password=False)
    assert got.shown() == shown_url(expected)


def test_location_reads_a_server_url_without_sqlalchemy_and_gives_its_url_to_the_collections():
    where = locate("postgresql://bob:S3cret%40x@[::1]:5433/cards?sslmode=require&host=/run/pg&host=/tmp")
    assert where.address == Address(
        "postgresql+psycopg", "bob", "S3cret@x", "::1", 5433, "cards", (("sslmode", "require"), ("host", ("/run/pg", "/tmp")))
    )
    assert where.shown == "postgresql+psycopg://bob:***@[::1]:5433/cards?host=/run/pg&host=/tmp&sslmode=require"
    assert where.url.render_as_string(hide_password=False) == (
        "postgresql+psycopg://bob:S3cret%40x@[::1]:5433/cards?host=%2Frun%2Fpg&host=%2Ftmp&sslmode=require"
    )
    assert str(server_error(RuntimeError("connection refused"), where)) == (
        f"cannot reach the PostgreSQL server at /run/pg,/tmp:5433 ({where.shown}); start the server, or fix the host and port in the URL"
    )
