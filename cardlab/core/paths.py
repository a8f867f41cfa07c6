"""Where things live: the shipped catalog and schemas, the index, the caches.

- Shipped data: inside the wheel at ``cardlab/_data/{cards,schema}``; in a checkout (editable
  install) at the repository root's ``cards/`` and ``schema/``.
- Catalog roots: ``--catalog`` or ``CARDLAB_CATALOG`` (several roots separated by ``os.pathsep``),
  else the shipped catalog.
- Index: ``--db`` or ``CARDLAB_DB``, else ``<user cache dir>/cardlab/index-<hash of roots>.sqlite``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PKG = Path(__file__).resolve().parents[1]


def _data_dir(name: str) -> Path:
    shipped = _PKG / "_data" / name
    return shipped if shipped.is_dir() else _PKG.parent / name


def shipped_catalog() -> Path:
    """Return the directory of the card data shipped with cardlab (``cards/``)."""
    return _data_dir("cards")


def installed_catalog_holding(path: Path) -> Path | None:
    """Return the catalog installed with the cardlab package (a wheel's
    ``site-packages/cardlab/_data/cards``) when ``path`` lies inside it, else None.

    Files there belong to the installed package: a card or translation written there alters the
    package, not a checkout, and an upgrade loses it. A checkout's (editable install's) shipped
    catalog is the repository's ``cards/`` and is not refused.
    """
    shipped = shipped_catalog().resolve()
    if "_data" in shipped.parts and Path(path).resolve().is_relative_to(shipped):
        return shipped
    return None


def schema_dir() -> Path:
    """Return the directory of the JSON Schemas shipped with cardlab (``schema/``)."""
    return _data_dir("schema")


def catalog_roots(option: list[Path] | Path | str | None = None) -> list[Path]:
    """Return the catalog roots to use, absolute.

    Args:
        option: what ``--catalog`` said (a path, several, or a pathsep-separated string), or None.

    Returns:
        The roots from ``option``, else from ``CARDLAB_CATALOG``, else ``[shipped_catalog()]``.
    """
    source = "--catalog"
    if option is None or option == []:
        option = os.environ.get("CARDLAB_CATALOG") or None
        source = "CARDLAB_CATALOG"
    if option is None:
        return [shipped_catalog()]
    if isinstance(option, str):
        option = [Path(p) for p in option.split(os.pathsep) if p.strip()]
        if not option:  # CARDLAB_CATALOG=":" names no folder; it must not mean the current one
            from cardlab.core.errors import UsageError

            raise UsageError(
                f"{source} names no folder; give catalog folders separated by '{os.pathsep}', "
                "or unset it to use the cards shipped with cardlab"
            )
    elif isinstance(option, Path):
        option = [option]
    return list(dict.fromkeys(Path(p).expanduser().resolve() for p in option))


def roots_of_option(values: list[Path] | None) -> list[Path]:
    """Return the catalog roots ``--catalog`` names, given once or more (``values``): one value
    holding ``:`` is a list of folders (as ``CARDLAB_CATALOG``); none is :func:`catalog_roots`'s default.

    Raises:
        UsageError: the one value names no folder (``:``).
    """
    if values and len(values) == 1 and ":" in str(values[0]):
        return catalog_roots(str(values[0]))
    return catalog_roots(values or None)


def cache_dir() -> Path:
    """Return cardlab's user cache directory (platformdirs), creating it when it can.

    A folder that cannot be created (read-only file system, a file in the way) is still returned:
    the caches then go unused (validation) or say why they cannot be written (the index).
    """
    override = os.environ.get("CARDLAB_CACHE_DIR")
    if override:
        path = Path(override)
    else:
        from platformdirs import user_cache_dir

        path = Path(user_cache_dir("cardlab", appauthor=False))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    return path


def roots_key(roots: list[Path]) -> str:
    """Return a short stable hash naming a list of catalog roots (for cache file names)."""
    return hashlib.sha1("\0".join(str(r) for r in roots).encode()).hexdigest()[:12]


def default_db(roots: list[Path], option: Path | str | None = None) -> Path | str:
    """Return the index: ``option``, else ``CARDLAB_DB``, else one file per catalog in the cache dir.

    A PostgreSQL URL (``postgresql+psycopg://user@host/db``) is returned as text (the index on that
    server: :mod:`cardlab.catalog.pgindex`); ``sqlite:///path`` as its file; anything else is a file path."""
    value = option or os.environ.get("CARDLAB_DB")
    if value:
        text = str(value)
        if isinstance(value, str) and is_database_url(text):
            scheme = text.partition("://")[0].lower()
            if scheme.startswith("sqlite"):
                return Path(text.partition("://")[2][1:] or ".").expanduser()
            return text.strip()
        return Path(value).expanduser()
    return cache_dir() / f"index-{roots_key(roots)}.sqlite"  # the cache folder exists (cache_dir makes it)


def is_database_url(text: str) -> bool:
    """Return True when ``text`` is a database URL (``scheme://...``, e.g. ``postgresql+psycopg://``
    or ``sqlite:///path``) rather than a file or folder path."""
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme.replace("+", "").replace("-", "").replace(".", "").isalnum()


def is_server(db: Path | str) -> bool:
    """True when ``db`` names an index on a database server (a URL, as text) rather than a file
    (:func:`default_db`); a path given as text is a file."""
    return isinstance(db, str) and is_database_url(db)


def data_dir() -> Path:
    """Return cardlab's user data folder: ``CARDLAB_DATA`` if set (and a path, not a database URL:
    see :func:`collection_location`), else the platform's user data dir (platformdirs
    ``user_data_dir("cardlab")``; not the cache dir: collections live there and are the user's own
    data). Not created here."""
    override = os.environ.get("CARDLAB_DATA")
    if override and not is_database_url(override):
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("cardlab", appauthor=False))


def collection_db() -> Path:
    """Return the SQLite collections database file: ``<data_dir()>/collection.sqlite``."""
    return data_dir() / "collection.sqlite"


def collection_location() -> str | Path:
    """Return where the collections database is: ``CARDLAB_DATA`` itself when it is a database URL
    (``postgresql+psycopg://user@host/db`` for a shared server, ``sqlite:///path/file.sqlite``),
    else the SQLite file :func:`collection_db` (a folder in ``CARDLAB_DATA``, or the default)."""
    override = os.environ.get("CARDLAB_DATA", "").strip()
    if override and is_database_url(override):
        return override
    return collection_db()
