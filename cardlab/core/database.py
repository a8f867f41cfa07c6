"""Where a database is and what went wrong reaching it: one home for both users of a database
server, the search index (:mod:`cardlab.index.postgres`) and the collections
(:mod:`cardlab.collection.db`).

:func:`locate` turns a URL, file or folder into a :class:`Location`; :func:`server_error` turns a
driver's failure (unreachable server, refused login, missing database, missing rights) into one
clear error with what to do. URLs are read here with the standard library (:class:`Address`, read
as SQLAlchemy's ``make_url`` reads them): a search on a PostgreSQL index connects with psycopg
alone, and SQLAlchemy is imported only by the collections, which ask for :attr:`Location.url`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, quote, quote_plus, unquote

from cardlab.core.errors import CardlabError, ExitStatus, UsageError
from cardlab.core.paths import collection_location, is_database_url
from cardlab.core.text import visible

if TYPE_CHECKING:
    import sqlalchemy as sa

_USERINFO_PASSWORD = re.compile(r"(://[^/?#@\s:]*:)[^/?#@\s]*@")
_QUERY_PASSWORD = re.compile(r"(?i)([?&;\s][^=&;?#\s]*pass[^=&;?#\s]*=)[^&;#\s]*")


def hide_secrets(text: str) -> str:
    """Return ``text`` (a database URL as typed, or a message quoting one) with every password
    masked as ``***``: the one in ``user:password@`` and the value of any query parameter whose
    name holds ``pass`` (libpq's ``?password=``). Host, port, user and database stay: the user
    typed them and needs them to fix the URL."""
    return _QUERY_PASSWORD.sub(r"\1***", _USERINFO_PASSWORD.sub(r"\1***@", text))


def shown_url(url: sa.URL) -> str:
    """Return ``url`` (SQLAlchemy's) as messages show it: SQLAlchemy's rendering with
    ``hide_password``, then every query parameter naming a password (``?password=``) masked as
    ``***``, percent-escapes decoded (:meth:`Address.shown` without SQLAlchemy)."""

    masked = url.update_query_dict({k: "***" for k in url.query if "pass" in k.lower()})
    return hide_secrets(unquote(masked.render_as_string(hide_password=True)))


_URL = re.compile(
    r"""
    (?P<scheme>[\w+]+)://
    (?: (?P<username>[^:/]*) (?: : (?P<password>[^@]*) )? @ )?
    (?: (?: \[ (?P<ipv6>[^/?]+) \] | (?P<host>[^/:?]+) )? (?: : (?P<port>[^/?]*) )? )?
    (?: / (?P<database>[^?]*) )?
    (?: \? (?P<query>.*) )?
    """,
    re.X,
)
"""A database URL's parts: ``scheme://user:password@host:port/database?query`` (the host in
brackets when it is an IPv6 address), each part optional after the scheme, as RFC 1738 and
SQLAlchemy's ``make_url`` have them."""


@dataclass(frozen=True)
class Address:
    """A database URL's parts, without its text's escapes: what :func:`parse_url` reads, the same
    values as SQLAlchemy's ``URL`` (``drivername``, ``username``, ``password``, ``host``, ``port``,
    ``database``, ``query``: ``(name, value)`` pairs in the URL's order, a repeated name's values
    as one tuple)."""

    drivername: str
    username: str | None = None
    password: str | None = None
    host: str | None = None
    port: int | None = None
    database: str | None = None
    query: tuple[tuple[str, str | tuple[str, ...]], ...] = ()

    def param(self, name: str) -> str | tuple[str, ...] | None:
        """The value of the query parameter ``name`` (a tuple when it is repeated), or None."""
        return dict(self.query).get(name)

    def render(self, hide_password: bool = True) -> str:
        """The URL as text, escapes put back, the query's names sorted (as SQLAlchemy's
        ``render_as_string``): libpq reads it with the password (``hide_password`` False)."""
        text = self.drivername + "://"
        if self.username is not None:
            text += quote(self.username, safe=" +")
            if self.password is not None:
                text += ":" + ("***" if hide_password else quote(self.password, safe=" +"))
            text += "@"
        if self.host is not None:
            text += f"[{self.host}]" if ":" in self.host else self.host
        if self.port is not None:
            text += f":{self.port}"
        if self.database is not None:
            text += "/" + quote(self.database, safe=" +/")
        if self.query:
            values = {k: (v,) if isinstance(v, str) else v for k, v in self.query}
            text += "?" + "&".join(f"{quote_plus(k)}={quote_plus(v)}" for k in sorted(values) for v in values[k])
        return text

    def shown(self) -> str:
        """The URL as messages show it: every password masked as ``***`` (the user part's and
        any query parameter naming one), percent-escapes decoded."""
        masked = replace(self, query=tuple((k, "***" if "pass" in k.lower() else v) for k, v in self.query))
        return hide_secrets(unquote(masked.render(hide_password=True)))


def parse_url(text: str) -> Address:
    """Read a database URL (``postgresql+psycopg://user:pw@host:5432/db?sslmode=require``) into its
    parts, as SQLAlchemy's ``make_url`` reads it (the user name, password and database name
    unescaped; query parameters with no value left out): standard library only, so that a search
    on a PostgreSQL index never imports SQLAlchemy.

    Raises:
        ValueError: not a URL (no ``scheme://``), or a port that is not a number.
    """
    m = _URL.match(text)
    if m is None:
        raise ValueError(f"not a database URL: {text!r}")
    query: dict[str, str | tuple[str, ...]] = {}
    for key, value in parse_qsl(m["query"] or ""):
        old = query.get(key)
        query[key] = value if old is None else (*((old,) if isinstance(old, str) else old), value)
    return Address(
        m["scheme"],
        None if m["username"] is None else unquote(m["username"]),
        None if m["password"] is None else unquote(m["password"]),
        m["host"] or m["ipv6"],
        None if m["port"] is None else int(m["port"]),  # "host:" too is refused
        None if m["database"] is None else unquote(m["database"]),
        tuple(query.items()),
    )


class DataDirError(CardlabError):
    """The data folder or database cannot be used (read-only folder, not a database, written by a
    newer cardlab...): exit 1."""


class DatabaseUnavailableError(CardlabError):
    """The database server cannot be used as configured (unreachable, login refused, no such
    database, no driver, a URL cardlab does not know): exit 2, with what to do."""

    exit_code = ExitStatus.USAGE


@dataclass(frozen=True)
class Location:
    """Where a database is: ``address`` (its URL's parts, password included), ``path`` (the SQLite
    file, None for a server), ``shown`` (for messages: the URL without its password)."""

    address: Address
    path: Path | None
    shown: str

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return "sqlite" if self.path is not None else "postgresql"

    @property
    def url(self) -> sa.URL:
        """The SQLAlchemy URL of :attr:`address` (the collections' engine and migrations)."""
        import sqlalchemy as sa  # lazy: SQLAlchemy (1 s cold) only for the collections; an index search reads the address

        a = self.address
        return sa.URL.create(a.drivername, a.username, a.password, a.host, a.port, a.database, dict(a.query))


def locate(where: str | Path | Location | None = None) -> Location:
    """Return where a collections database (or a PostgreSQL search index) is.

    Args:
        where: a database URL (``postgresql+psycopg://user:pw@host:port/db``, ``postgresql://``
            meaning the same, ``sqlite:///path/file.sqlite``; read by :func:`parse_url`), a SQLite
            file, a folder (its ``collection.sqlite``), or None for
            :func:`cardlab.core.paths.collection_location`; a :class:`Location` is returned as it is.

    Raises:
        UsageError: an empty text, or a URL that is not one cardlab can use (another database or
            driver, no path).
    """

    if isinstance(where, Location):
        return where
    if where is None:
        where = collection_location()
    if isinstance(where, str) and not where.strip():
        raise UsageError("no database given (an empty name); give a SQLite file, a data folder or postgresql+psycopg://USER@HOST/DATABASE")
    if isinstance(where, str) and not is_database_url(where):
        where = Path(where).expanduser()
    if isinstance(where, Path):
        path = where / "collection.sqlite" if where.is_dir() else where
        return Location(Address("sqlite", database=str(path)), path, str(path))
    try:
        url = parse_url(where.strip())
    except ValueError:  # no scheme cardlab knows, a port that is not a number
        raise UsageError(
            f"'{hide_secrets(where)}' is not a database URL; give postgresql+psycopg://USER@HOST/DATABASE or sqlite:///FILE"
        ) from None
    shown = url.shown()
    if url.drivername in ("sqlite", "sqlite+pysqlite"):
        if not url.database or url.database == ":memory:":
            raise UsageError(f"{shown} names no file; give sqlite:///PATH/collection.sqlite")
        return locate(Path(url.database))
    if url.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        if not url.database:
            raise UsageError(f"{shown} names no database; give postgresql+psycopg://USER@HOST/DATABASE")
        url = replace(url, drivername="postgresql+psycopg")
        return Location(url, None, url.shown())
    raise UsageError(
        f"cardlab keeps collections in SQLite or PostgreSQL, not '{url.drivername}'; "
        "give postgresql+psycopg://USER@HOST/DATABASE or sqlite:///FILE"
    )


def _server(url: Address) -> str:
    host = url.param("host") or url.host or "the local socket"
    if isinstance(host, tuple):
        host = ",".join(host)
    return f"{host}:{url.port}" if url.port else str(host)


def server_error(err: BaseException, where: Location, what: str = "the collection database", connecting: bool = False) -> CardlabError:
    """Return the one clear error for a failure to reach or use a PostgreSQL database.

    Args:
        err: the driver's or SQLAlchemy's exception (psycopg ``OperationalError`` and the like).
        where: the database that was being opened.
        what: how the last message names it (``the search index``, default ``the collection database``).
        connecting: the error came from opening the connection: whatever it says, the URL could
            not be used (a bad ``sslmode``, port or option): exit 2.

    Returns:
        A :class:`DatabaseUnavailableError` (exit 2) saying what went wrong and what to do:
        unreachable server, refused login, missing database, no right to create or change the
        tables; any other driver error as
        :class:`DataDirError` (exit 1) with its first line.
    """
    url = where.address
    shown, database = visible(where.shown), visible(str(url.database))  # a NUL typed in the URL stays visible
    text = str(getattr(err, "orig", None) or err)
    low = text.lower()
    server = _server(url)
    user = url.username or os.environ.get("PGUSER") or "your login name"
    if "database" in low and "does not exist" in low:
        return DatabaseUnavailableError(
            f"the PostgreSQL server at {server} has no database '{database}'; create it "
            f'(createdb {database}, or CREATE DATABASE "{database}" OWNER "{user}") or fix the database name in {shown}'
        )
    if (
        "password authentication failed" in low
        or "no password supplied" in low
        or ("role" in low and "does not exist" in low)
        or "authentication failed" in low
        or "pg_hba.conf" in low
    ):
        return DatabaseUnavailableError(
            f"the PostgreSQL server at {server} refused the login of user '{user}' (wrong user name or password); "
            "fix them in the URL (postgresql+psycopg://USER:PASSWORD@HOST/DATABASE) or in ~/.pgpass"
        )
    if "permission denied" in low:
        # the index builds in schemas of its own (CREATE on the database); collections use public
        grant = (
            f'GRANT CREATE ON DATABASE "{database}" TO "{user}"'
            if what == "the search index"
            else f'GRANT CREATE, USAGE ON SCHEMA public TO "{user}"'
        )
        return DatabaseUnavailableError(
            f"user '{user}' may not create or change cardlab's tables in the database '{database}' on {server}; "
            f'make the user its owner (ALTER DATABASE "{database}" OWNER TO "{user}") or grant it the rights ({grant})'
        )
    if any(
        s in low
        for s in (
            "connection refused",
            "no such file or directory",
            "could not translate host name",
            "name or service not known",
            "timeout expired",
            "could not connect",
            "connection failed",
            "is the server running",
            "network is unreachable",
            "no route to host",
        )
    ):
        return DatabaseUnavailableError(
            f"cannot reach the PostgreSQL server at {server} ({shown}); start the server, or fix the host and port in the URL"
        )
    if any(s in low for s in ("terminating connection", "server closed the connection", "connection is lost", "connection is closed")):
        return DatabaseUnavailableError(
            f"lost the connection to the PostgreSQL server at {server} ({shown}): it stopped or restarted; try again once it is running"
        )
    first = visible(hide_secrets(text.strip().splitlines()[0])) if text.strip() else type(err).__name__
    if connecting or low.startswith("connection is bad") or "invalid connection option" in low:
        return DatabaseUnavailableError(f"cannot connect with {shown}: {first}; fix the URL (postgresql+psycopg://USER@HOST/DATABASE)")
    return DataDirError(f"{what} {shown} failed: {first}")
