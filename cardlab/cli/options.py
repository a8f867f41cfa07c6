"""Options shared by every command group, with one meaning per flag name across the CLI.

- ``--format``/``-f`` NAME: always the game's *deck format* (``pokemon-base``...; any case).
- ``--output-format``/``-O``: how results are printed; the choices of each command are an Enum.
- ``--output``/``-o`` PATH: always an output *file*.

The old spellings (``search --format json``, ``deck validate -o json``...) are kept for one release
as hidden, deprecated aliases: they still work and print one warning line on stderr
(:func:`output_format`). Imports only typer and the stdlib.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional, TypeVar

import typer

from cardlab.games import GAMES

CatalogOpt = Annotated[
    Optional[list[Path]],
    typer.Option(
        "--catalog",
        help="Catalog root(s) to read instead of the shipped cards (repeatable; env CARDLAB_CATALOG, ':'-separated); "
        "'shipped' names the shipped cards, so --catalog shipped --catalog ~/mine adds your own cards to them.",
    ),
]
DbOpt = Annotated[
    Optional[str],
    typer.Option(
        "--db",
        envvar="CARDLAB_DB",
        help="Index file to use (default: one per catalog in the user cache), or a PostgreSQL server: postgresql+psycopg://USER@HOST/DATABASE.",
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar (none is shown when standard error is not a terminal).")]
LANG_HELP = "Preferred language(s), e.g. fr or fr,de; falls back to the card's source language."
"""The help of :data:`LangOpt`: how :mod:`cardlab.cli.root` tells the preferred languages
(the interface's too) from another ``--lang`` (``i18n export``'s target language)."""
LangOpt = Annotated[Optional[str], typer.Option("--lang", help=LANG_HELP)]
DeckFormatOpt = Annotated[
    Optional[str],
    typer.Option(
        "--format",
        "-f",
        metavar="<name>",
        help="The deck format, e.g. pokemon-base (any case; see 'cardlab formats') [default: the one the file names].",
        show_default=False,
    ),
]


class SearchOutput(str, Enum):
    """``cardlab search --output-format``. In each of these Enums the first member is the default."""

    table = "table"
    json = "json"
    csv = "csv"
    ids = "ids"


class Unique(str, Enum):
    """``cardlab search --unique``: ``prints`` every printing (a reprint too), ``cards`` each card once."""

    prints = "prints"
    cards = "cards"


UniqueOpt = Annotated[
    Unique,
    typer.Option(
        "--unique",
        case_sensitive=False,
        help="prints: every printing (a reprint too); cards: each card once (its first printing when it matches).",
    ),
]


class ListOutput(str, Enum):
    """``cardlab collection list --output-format``."""

    text = "text"
    json = "json"
    csv = "csv"


class PostOutput(str, Enum):
    """``cardlab play ... --output-format``: a game as a forum post, or as data."""

    text = "text"
    markdown = "markdown"
    bbcode = "bbcode"
    json = "json"


ListOutputOpt = Annotated[ListOutput, typer.Option("--output-format", "-O", case_sensitive=False, help="How to print the results.")]
PostOutputOpt = Annotated[
    PostOutput, typer.Option("--output-format", "-O", case_sensitive=False, help="text, markdown, bbcode (forum posts) or json.")
]


class ReportOutput(str, Enum):
    """``--output-format`` of show, validate, formats, the deck commands and ``i18n import``."""

    text = "text"
    json = "json"


class TableOutput(str, Enum):
    """``cardlab i18n status --output-format``."""

    table = "table"
    json = "json"


Game = Enum("Game", {g: g for g in GAMES}, type=str)  # type: ignore[misc]
"""The games cardlab knows (:data:`cardlab.games.GAMES`), as ``--game`` choices."""
GameOpt = Annotated[Optional[Game], typer.Option("--game", case_sensitive=False, help="Only this game's formats.")]

_HELP = "How to print the results."
SearchOutputOpt = Annotated[SearchOutput, typer.Option("--output-format", "-O", case_sensitive=False, help=_HELP)]
ReportOutputOpt = Annotated[ReportOutput, typer.Option("--output-format", "-O", case_sensitive=False, help=_HELP)]
TableOutputOpt = Annotated[TableOutput, typer.Option("--output-format", "-O", case_sensitive=False, help=_HELP)]

# Deprecated spellings of --output-format, kept one release (hidden from --help).
OldFormatOpt = Annotated[Optional[str], typer.Option("--format", "-f", hidden=True, help="Deprecated: use --output-format.")]
OldOutputOpt = Annotated[Optional[str], typer.Option("--output", "-o", hidden=True, help="Deprecated: use --output-format.")]

E = TypeVar("E", bound=Enum)


def output_format(chosen: E, old: str | None, command: str, spelling: str) -> E:
    """Return the output format asked for, honouring a deprecated spelling.

    Args:
        chosen: the ``--output-format`` value (its default when not given).
        old: the value of the deprecated option (``None`` when not given).
        command: the command as typed after ``cardlab`` (``search``, ``deck validate``), for the warning.
        spelling: the deprecated option (``--format``, ``--output``).

    Returns:
        ``chosen``, or the member named by ``old``; a deprecated use prints one line on stderr:
        ``warning: 'search --format json' is deprecated; use --output-format json``.

    Raises:
        typer.BadParameter: ``old`` is not one of the choices (exit 2).
    """
    if old is None:
        return chosen
    kind = type(chosen)
    if chosen is not next(iter(kind)):  # every command's default is its Enum's first member
        raise typer.BadParameter(
            f"give the output format once: --output-format {chosen.value} and the deprecated {spelling} {old} were both given",
            param_hint="'--output-format'",
        )
    try:
        value = kind(old.lower())
    except ValueError:
        choices = ", ".join(m.value for m in kind)
        raise typer.BadParameter(f"choose one of {choices} (deprecated here; use --output-format)", param_hint=f"'{spelling}'") from None
    typer.echo(f"warning: '{command} {spelling} {old}' is deprecated; use --output-format {value.value}", err=True)
    return value


def roots_and_db(catalog: list[Path] | None, db: str | Path | None) -> tuple[list[Path], Path | str]:
    """Return the catalog roots and index the options (or environment) ask for: a path, or a
    PostgreSQL URL as text (:func:`cardlab.core.paths.default_db`).

    A cache folder that cannot be made (a file in its place, no permission) is a usage error (exit 2)."""
    from cardlab.cli.errors import user_errors
    from cardlab.core.errors import UsageError
    from cardlab.core.paths import default_db, roots_of_option

    with user_errors():
        try:
            roots = roots_of_option(catalog)
            return roots, default_db(roots, db)
        except OSError as err:
            where = f" {err.filename}" if err.filename else ""
            raise UsageError(
                f"cannot use the cache or index folder{where}: {err.strerror or err}; set CARDLAB_CACHE_DIR or --db to a writable place"
            ) from None


def langs_of(option: str | None) -> list[str]:
    """Return the preferred languages: ``--lang``, else the user's configuration (cardlab.core.config),
    else the locale's language when cardlab speaks it; and make the first one cardlab has an
    interface catalog for the language of the command's words (:mod:`cardlab.core.l10n`).

    A language cardlab does not know, from ``--lang``, ``CARDLAB_LANG`` or the config file, is a
    usage error (exit 2) naming the known ones."""
    import os

    from cardlab.cli.errors import user_errors
    from cardlab.core import l10n
    from cardlab.core.config import ENV_LANG, preferred_languages

    with user_errors():
        langs = preferred_languages(option)
        origin = "--lang" if option is not None and option.strip() else ENV_LANG if os.environ.get(ENV_LANG, "").strip() else "languages"
        l10n.check_languages(langs, origin)
        if not langs:
            found = l10n.locale_language()
            langs = [found] if found and found != "en" else []
        l10n.use(l10n.interface_language(langs))
        return langs
