"""Where things live: the shipped catalog and schemas, the index, the caches.

- Shipped data: inside the wheel at ``cardlab/_data/{cards,schema}``; in a checkout (editable
  install) at the repository root's ``cards/`` and ``schema/``.
- Catalog roots: ``--catalog`` or ``CARDLAB_CATALOG`` (several roots separated by ``os.pathsep``),
  else the shipped catalog; the word ``shipped`` among them is the shipped catalog (``--catalog
  shipped --catalog ~/mine``: a personal catalog layered over it; ``./shipped`` is a folder of
  that name).
- Index: ``--db`` or ``CARDLAB_DB``, else ``<user cache dir>/cardlab/index-<hash of roots>.sqlite``.
"""

from __future__ import annotations

import os

from cardlab.core.stamps import sha1_hex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

# No pathlib at import: the quick ``cardlab validate`` (:mod:`cardlab.cli.entry`) finds the catalog,
# the cache and the index with the text forms below (``*_folder``, :func:`root_folders`,
# :func:`index_location`); the Path forms wrap them.

SHIPPED = "shipped"
"""The word that names the shipped catalog among the catalog roots (``--catalog shipped``)."""

_PKG = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def _data_folder(name: str) -> str:
    shipped = os.path.join(_PKG, "_data", name)
    return shipped if os.path.isdir(shipped) else os.path.join(os.path.dirname(_PKG), name)


def _data_dir(name: str) -> Path:
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return Path(_data_folder(name))


def shipped_catalog_folder() -> str:
    """Return the folder of the card data shipped with cardlab (``cards/``), as text."""
    return _data_folder("cards")


def shipped_catalog() -> Path:
    """Return the directory of the card data shipped with cardlab (``cards/``)."""
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return Path(shipped_catalog_folder())


def installed_catalog_holding(path: Path) -> Path | None:
    """Return the catalog installed with the cardlab package (a wheel's
    ``site-packages/cardlab/_data/cards``) when ``path`` lies inside it, else None.

    Files there belong to the installed package: a card or translation written there alters the
    package, not a checkout, and an upgrade loses it. A checkout's (editable install's) shipped
    catalog is the repository's ``cards/`` and is not refused.
    """
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    shipped = shipped_catalog().resolve()
    if "_data" in shipped.parts and Path(path).resolve().is_relative_to(shipped):
        return shipped
    return None


def schema_folder() -> str:
    """Return the folder of the JSON Schemas shipped with cardlab (``schema/``), as text."""
    return _data_folder("schema")


def schema_dir() -> Path:
    """Return the directory of the JSON Schemas shipped with cardlab (``schema/``)."""
    return _data_dir("schema")


def root_folders(option: Sequence[str | os.PathLike[str]] | os.PathLike[str] | str | None = None) -> list[str]:
    """Return the catalog roots to use, absolute (symbolic links resolved), as text, each once.

    Args:
        option: what ``--catalog`` said (a path, several, or a pathsep-separated string), or None.

    Returns:
        The roots from ``option``, else from ``CARDLAB_CATALOG``, else the shipped catalog; the word
        :data:`SHIPPED` among them stands for the shipped catalog (issue 33: ``--catalog shipped
        --catalog ~/mine``).

    Raises:
        UsageError: the list names no folder (``:``).
    """
    source = "--catalog"
    if option is None or (not isinstance(option, (str, os.PathLike)) and len(option) == 0):
        option = os.environ.get("CARDLAB_CATALOG") or None
        source = "CARDLAB_CATALOG"
    if option is None:
        return [shipped_catalog_folder()]
    if isinstance(option, str):
        option = [p for p in option.split(os.pathsep) if p.strip()]
        if not option:  # CARDLAB_CATALOG=":" names no folder; it must not mean the current one
            from cardlab.core.errors import UsageError  # lazy: the quick `validate` runs without pathlib (78 ms)

            raise UsageError(
                f"{source} names no folder; give catalog folders separated by '{os.pathsep}', "
                "or unset it to use the cards shipped with cardlab"
            )
    elif isinstance(option, os.PathLike):
        option = [option]
    named = (shipped_catalog_folder() if os.fspath(p) == SHIPPED else os.fspath(p) for p in option)
    return list(dict.fromkeys(os.path.realpath(os.path.expanduser(p or ".")) for p in named))


def catalog_roots(option: Sequence[str | os.PathLike[str]] | os.PathLike[str] | str | None = None) -> list[Path]:
    """Return the catalog roots to use, absolute: :func:`root_folders` as paths.

    Raises:
        UsageError: the list names no folder (``:``).
    """
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return [Path(p) for p in root_folders(option)]


def option_root_folders(values: Sequence[str | os.PathLike[str]] | None) -> list[str]:
    """Return the catalog roots ``--catalog`` names, given once or more (``values``), as text: one
    value holding ``:`` is a list of folders (as ``CARDLAB_CATALOG``); none is :func:`root_folders`'s
    default.

    Raises:
        UsageError: the one value names no folder (``:``).
    """
    if values and len(values) == 1 and ":" in os.fspath(values[0]):
        return root_folders(os.fspath(values[0]))
    return root_folders(values or None)


def roots_of_option(values: Sequence[str | os.PathLike[str]] | None) -> list[Path]:
    """:func:`option_root_folders` as paths.

    Raises:
        UsageError: the one value names no folder (``:``).
    """
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return [Path(p) for p in option_root_folders(values)]


def cache_folder() -> str:
    """Return cardlab's user cache folder as text: ``CARDLAB_CACHE_DIR``, else the platform's
    (platformdirs), creating it when it can.

    A folder that cannot be created (read-only file system, a file in the way) is still returned:
    the caches then go unused (validation) or say why they cannot be written (the index).
    """
    path = os.environ.get("CARDLAB_CACHE_DIR")
    if not path:
        from platformdirs import user_cache_dir  # lazy: platformdirs (88 ms cold), only without CARDLAB_CACHE_DIR / CARDLAB_DATA_DIR

        path = user_cache_dir("cardlab", appauthor=False)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        pass
    return path


def cache_dir() -> Path:
    """Return cardlab's user cache directory (:func:`cache_folder`) as a path."""
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return Path(cache_folder())


def roots_key(roots: Sequence[str | os.PathLike[str]]) -> str:
    """Return a short stable hash naming a list of catalog roots (for cache file names)."""
    return sha1_hex("\0".join(os.fspath(r) for r in roots).encode())[:12]


def index_location(roots: Sequence[str | os.PathLike[str]], option: os.PathLike[str] | str | None = None) -> tuple[str, bool]:
    """Return where the index is, as text, and whether that is a database server:
    ``(url, True)`` for a PostgreSQL URL, else ``(file, False)``; see :func:`default_db`."""
    value = option or os.environ.get("CARDLAB_DB")
    if value:
        text = os.fspath(value)
        if isinstance(value, str) and is_database_url(text):
            scheme = text.partition("://")[0].lower()
            if scheme.startswith("sqlite"):
                return os.path.expanduser(text.partition("://")[2][1:] or "."), False
            return text.strip(), True
        return os.path.expanduser(text), False
    return os.path.join(cache_folder(), f"index-{roots_key(roots)}.sqlite"), False  # the cache folder exists (cache_folder makes it)


def default_db(roots: Sequence[str | os.PathLike[str]], option: os.PathLike[str] | str | None = None) -> Path | str:
    """Return the index: ``option``, else ``CARDLAB_DB``, else one file per catalog in the cache dir.

    A PostgreSQL URL (``postgresql+psycopg://user@host/db``) is returned as text (the index on that
    server: :mod:`cardlab.index.postgres`); ``sqlite:///path`` as its file; anything else is a file path."""
    text, server = index_location(roots, option)
    if server:
        return text
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    return Path(text)


def is_database_url(text: str) -> bool:
    """Return True when ``text`` is a database URL (``scheme://...``, e.g. ``postgresql+psycopg://``
    or ``sqlite:///path``) rather than a file or folder path."""
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme.replace("+", "").replace("-", "").replace(".", "").isalnum()


def is_server(db: str | os.PathLike[str]) -> bool:
    """True when ``db`` names an index on a database server (a URL, as text) rather than a file
    (:func:`default_db`); a path given as text is a file."""
    return isinstance(db, str) and is_database_url(db)


def data_dir() -> Path:
    """Return cardlab's user data folder: ``CARDLAB_DATA`` if set (and a path, not a database URL:
    see :func:`collection_location`), else the platform's user data dir (platformdirs
    ``user_data_dir("cardlab")``; not the cache dir: collections live there and are the user's own
    data). Not created here."""
    from pathlib import Path  # lazy: the quick `validate` runs without pathlib (78 ms cold)

    override = os.environ.get("CARDLAB_DATA")
    if override and not is_database_url(override):
        return Path(override).expanduser()
    from platformdirs import user_data_dir  # lazy: platformdirs (88 ms cold), only without CARDLAB_CACHE_DIR / CARDLAB_DATA_DIR

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
