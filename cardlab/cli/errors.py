"""The one place a :class:`~cardlab.core.errors.CardlabError` becomes text and an exit status.

Every command runs its library call inside :func:`user_errors` and ends with :func:`finish` (or
returns, which is ``ExitStatus.OK``); no command raises a bare ``typer.Exit(1)``. The codes are
:class:`~cardlab.core.errors.ExitStatus`: 0 ok, 1 the input is valid but fails a check, 2 usage
or unreadable input. Imports only typer, the stdlib and cardlab.core.errors at start-up.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer

from cardlab.core.errors import CardlabError, DataError, ExitStatus


@contextmanager
def user_errors(json_output: bool = False) -> Iterator[None]:
    """Turn a :class:`CardlabError` into a message on stderr and its exit status, with no traceback.

    Args:
        json_output: also print the error on stdout as ``{"ok": false, "error": ..., "exit_code": ...}``
            (plus ``problems`` for a :class:`DataError`), for ``--output-format json``.

    Raises:
        typer.Exit: with the error's :class:`ExitStatus`.
    """
    try:
        yield
    except CardlabError as err:
        if json_output:
            data: dict[str, object] = {"ok": False, "error": str(err), "exit_code": int(err.exit_code)}
            if isinstance(err, DataError):
                data["problems"] = [p.to_json() for p in err.problems]
            typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        from cardlab.render import messages

        messages.user_error(err)
        raise typer.Exit(err.exit_code) from None


def finish(ok: bool) -> NoReturn:
    """End a command: ``ExitStatus.OK`` when ``ok``, else ``ExitStatus.CHECK_FAILED``."""
    raise typer.Exit(ExitStatus.of(ok))


INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it."""


@contextmanager
def long_work(quiet: bool, kept: str) -> Iterator[None]:
    """Run a long command's library call with a progress bar and a clean Ctrl-C.

    The bar (:class:`cardlab.render.progress.ProgressBar`, hearing :mod:`cardlab.core.progress`)
    is drawn on standard error only when it is a terminal and not ``quiet``, after a second of
    work; rich is not even imported otherwise. Ctrl-C (a ``KeyboardInterrupt``) ends the command
    with ``interrupted: <kept>`` on stderr and exit status 130, no traceback: ``kept`` says what
    the library left whole (``the index is unchanged``); every such write is atomic or one
    transaction.

    Raises:
        typer.Exit: 130 on Ctrl-C.
    """
    from cardlab.core.progress import reporting

    try:
        if quiet or not sys.stderr.isatty():
            yield
            return
        from cardlab.render.cards import stderr_console  # lazy: rich, only for a terminal
        from cardlab.render.progress import ProgressBar

        with ProgressBar(stderr_console()) as bar, reporting(bar):
            yield
    except KeyboardInterrupt:
        sys.stderr.write(f"interrupted: {kept}\n")
        raise typer.Exit(INTERRUPTED) from None
