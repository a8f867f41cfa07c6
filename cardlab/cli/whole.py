"""The whole ``cardlab`` command line as one typer app, every command and group mounted: what
typer's ``CliRunner`` drives in the tests. ``cardlab`` itself builds only the command it runs
(:func:`cardlab.cli.app.run`), importing no other command's module."""

from __future__ import annotations

from cardlab.cli.app import whole_app

app = whole_app()
"""The whole command line (:func:`cardlab.cli.app.whole_app`)."""
