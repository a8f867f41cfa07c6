"""The ``cardlab`` command's entry point (``[project.scripts]`` and ``python -m cardlab``).

``cardlab validate`` of a whole catalog, its line going to a file or a pipe (scripts, hooks, CI),
prints ``ok: N files, no problems`` without loading the CLI (typer and rich: about 60 ms of
imports) when the catalog is clean: from the record of the last clean run when nothing it depends on
changed (every file's stamp, the schemas, the checking code:
:func:`cardlab.catalog.freshness.unchanged_clean_run`), else from a validation of its own
(:func:`cardlab.index.access.validate_and_record`, what the full command runs). A terminal gets
rich's colours, so the full CLI. Everything else, a catalog with problems and anything unusual on
the way included, runs the full CLI (:func:`cardlab.cli.app.run`), which says what is wrong.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run the ``cardlab`` command with ``sys.argv``.

    At the edge, whatever a command does: arguments that are not valid text in the locale's encoding
    (lone surrogates from undecodable bytes) are a usage error (exit 2); standard output that cannot
    be written (closed, full disk) ends with one line on stderr (exit 2), a closed pipe silently;
    Ctrl-C ends with exit 130 and no traceback. Exit statuses: :class:`cardlab.core.errors.ExitStatus`.
    """
    argv = sys.argv[1:]
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            from cardlab.core.text import visible  # lazy: only for an argument that is not text

            shown = visible(arg.encode("utf-8", "backslashreplace").decode("ascii", "replace"))
            sys.stderr.write(f"error: the argument '{shown}' is not valid text (undecodable bytes); give names and paths in UTF-8\n")
            raise SystemExit(_USAGE) from None
    if sys.stdout is None:
        sys.stderr.write("error: standard output is closed\n")
        raise SystemExit(_USAGE)
    try:
        if not _plain_validate(argv):
            from cardlab.cli.app import run

            run(argv)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    except BrokenPipeError:
        _quiet_stdout()
        raise SystemExit(0) from None
    except OSError as err:
        if err.filename is not None:
            raise
        _quiet_stdout()
        sys.stderr.write(f"error: cannot write the output: {err.strerror or err}\n")
        raise SystemExit(_USAGE) from None


_USAGE = 2
""":attr:`cardlab.core.errors.ExitStatus.USAGE` (not imported: this module stays light)."""


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _catalog_values(args: list[str]) -> list[str] | None:
    """The values of ``--catalog`` when ``args`` (after ``validate``) hold nothing else; None when
    they hold anything else (paths, other options, a value that looks like an option)."""
    values = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("--catalog="):
            value = arg.partition("=")[2]
        elif arg == "--catalog" and i + 1 < len(args):
            i += 1
            value = args[i]
        else:
            return None
        if value.startswith("-"):
            return None
        values.append(value)
        i += 1
    return values


def _known_cardlab_lang() -> bool:
    """Whether ``CARDLAB_LANG`` is unset or names only languages cardlab knows (read as lightly as
    :func:`cardlab.core.l10n.base_of` reads a code); anything else goes to the full CLI, which
    refuses it as every command does (:mod:`cardlab.cli.root`)."""
    items = [item.strip() for item in os.environ.get("CARDLAB_LANG", "").split(",") if item.strip()]
    if not items:
        return True  # the everyday case imports nothing (l10n would bring pathlib)
    import re

    from cardlab.core.l10n import LANGUAGES, base_of

    return all(re.fullmatch(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*", item) and base_of(item) in LANGUAGES for item in items)


def _plain_validate(argv: list[str]) -> bool:
    """Print ``ok: N files, no problems`` and return True when ``argv`` is ``validate`` of the whole
    catalog (``--catalog`` at most), standard output is neither a terminal nor coloured, the index
    is a file, and the catalog is clean: its last whole validation found nothing and holds
    (:func:`cardlab.catalog.freshness.unchanged_clean_run`), else a validation here finds nothing
    (:func:`cardlab.index.access.validate_and_record`, as the full command does). Return False
    for everything else, an unknown ``CARDLAB_LANG`` and a catalog with problems included: the
    full CLI then runs and reports them
    (its validation reads this one's results back from the cache); with no validation cache
    (``CARDLAB_NO_CACHE``) a catalog not known clean goes to the full CLI at once, validated once."""
    if argv[:1] != ["validate"]:
        return False
    from cardlab.render.plain import clean_summary, plain_stdout

    values = _catalog_values(argv[1:])
    if values is None or not plain_stdout() or not _known_cardlab_lang():
        return False
    try:
        from cardlab.catalog.freshness import unchanged_clean_run
        from cardlab.core.paths import index_location, option_root_folders

        roots = option_root_folders(values)
        db, server = index_location(roots)
        if server:
            return False
        files = unchanged_clean_run(roots, db)
        if files is None:
            from cardlab.catalog.freshness import validation_cache

            if validation_cache(roots) is None:
                return False  # no cache: the full CLI could not read this validation back, it would run twice
            from pathlib import Path

            from cardlab.index.access import validate_and_record

            result = validate_and_record([], [Path(r) for r in roots], db)
            files = None if result.problems else result.files
    except Exception:  # noqa: BLE001 - whatever it is, the full CLI reports it (the same checks, with messages)
        return False
    if files is None:
        return False
    sys.stdout.write(clean_summary(files) + "\n")
    sys.stdout.flush()  # a closed pipe or a full disk: main's edge
    return True
