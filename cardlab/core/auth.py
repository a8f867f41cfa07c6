"""The token of ``cardlab serve --allow-writes``: where it is read from and what it must look like.

The one home of both, for the ``serve`` command (it refuses to start without a good token) and the
web app (it refuses to build with writes on and no good token): cardlab never makes a token up.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from cardlab.core.errors import InputError, UsageError
from cardlab.core.inputs import LoadError, read_text
from cardlab.core.l10n import N_

TOKEN_ENV = "CARDLAB_SERVE_TOKEN"
"""The environment variable holding the token."""

MIN_TOKEN, MAX_TOKEN = 16, 4096
"""A token's length bounds, in characters."""

TOKEN_PATTERN = re.compile(r"[!-~]+")
"""A token: visible ASCII characters only (no space), so it fits an ``Authorization`` header as written."""

EXAMPLE = "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
"""How to make a good token (shown in messages)."""


def check_token(token: str, source: str) -> str:
    """Return ``token`` without surrounding white space when it is a usable token.

    Args:
        token: the token as read; source: where it came from (for the message).

    Raises:
        UsageError: an empty token, one shorter than :data:`MIN_TOKEN` or longer than
            :data:`MAX_TOKEN` characters, or one with characters outside :data:`TOKEN_PATTERN` (exit 2).
    """
    token = token.strip()
    if not token:
        raise UsageError(f"the token in {source} is empty; make one with: {EXAMPLE}")
    if not TOKEN_PATTERN.fullmatch(token):
        raise UsageError(f"the token in {source} holds spaces or characters other than visible ASCII; make one with: {EXAMPLE}")
    if not MIN_TOKEN <= len(token) <= MAX_TOKEN:
        raise UsageError(
            f"the token in {source} has {len(token):,} characters; give {MIN_TOKEN} to {MAX_TOKEN:,} (make one with: {EXAMPLE})"
        )
    return token


def serve_token(token_file: Path | None, environ: Mapping[str, str] | None = None) -> str:
    """Return the token ``cardlab serve --allow-writes`` checks write requests against: the content of
    ``token_file`` when given (the command line wins), else :data:`TOKEN_ENV`.

    Raises:
        UsageError: neither is given (exit 2: cardlab never makes a token up), or the token is not
            usable (:func:`check_token`); InputError: the file cannot be read (exit 2).
    """

    environ = os.environ if environ is None else environ
    if token_file is not None:
        try:
            text = read_text(token_file, MAX_TOKEN + 64, N_("the token file"))
        except LoadError as err:
            raise InputError(f"{token_file}: {err.problem.message}") from None
        return check_token(text, str(token_file))
    if environ.get(TOKEN_ENV) is not None:
        return check_token(environ[TOKEN_ENV], TOKEN_ENV)
    raise UsageError(
        f"--allow-writes needs a token: set {TOKEN_ENV} or give --token-file PATH (cardlab makes none up; make one with: {EXAMPLE})"
    )
