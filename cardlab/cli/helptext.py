"""``--help`` and the command line's own words in the player's language.

typer fixes a command's help when the command is defined (its docstring, each ``help=``), in
English. When the run's language is not English (:class:`cardlab.cli.root.RootGroup` sets it
before parsing) and help is going to be shown, :func:`translate_tree` runs each help text,
paragraph by paragraph, and each option's help through the help catalog
(``cardlab/locale/<lang>/LC_MESSAGES/cardlab-help.mo``, then the interface's own: English string
by string). The words of the command-line framework (typer's vendored click prints ``Usage:``,
``Show this message and exit.``, ``Error: No such option: ...`` without gettext; typer's own
headings ``Options``, ``Arguments``, ``Commands`` through the standard ``gettext``) go through the
same catalog (:func:`speak_typer`, :class:`SaidUsageError`). This module is imported only then;
``tools/i18n_catalogs.py extract`` collects the same pieces (:func:`help_pieces`) for translators.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import IO, Any

import typer.core
from typer._click._compat import get_text_stderr  # typer vendors click: its words are plain English
from typer._click.core import Context
from typer._click.exceptions import UsageError
from typer._click.formatting import HelpFormatter
from typer._click.utils import echo

from cardlab.core import l10n

USAGE = "Usage: "
HELP_OPTION = "Show this message and exit."
TRY = "Try '{command} {option}' for help."
ERROR = "Error: {message}"

CLICK_MESSAGES = (
    "No such option: {name} (Possible options: {options})",
    "No such option: {name}",
    "Missing argument {name}.",
    "Missing option {name}.",
    "Missing parameter {name}.",
    "Invalid value for {hint}: {message}",
    "Invalid value: {message}",
    "Got unexpected extra argument ({args})",
    "Got unexpected extra arguments ({args})",
    "Option {name} requires an argument.",
    "Option {name} does not take a value.",
    "{value} is not a valid int.",
    "{value} is not a valid int range.",
    "{value} is not a valid float.",
    "{value} is not a valid float range.",
    "{value} is not in the range {range}.",
    "{value} is not one of {choices}.",
    "{value} is not {choice}.",
)
"""The error messages of typer's vendored click (f-strings there), as templates: a message is
matched against each and said through its translation, the values kept."""

CLICK_WORDS = (USAGE, HELP_OPTION, TRY, ERROR, *CLICK_MESSAGES)
"""The framework's fixed words the help catalog holds (typer's own gettext strings too:
``tools/i18n_catalogs.py`` reads them from ``typer/core.py``)."""


@cache
def _message_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """:data:`CLICK_MESSAGES` as patterns (compiled on the first usage error: not at start-up)."""
    return [
        (template, re.compile("".join(f"(?P<{p}>.+?)" if i % 2 else re.escape(p) for i, p in enumerate(re.split(r"\{(\w+)\}", template)))))
        for template in CLICK_MESSAGES
    ]


def tr(message: str) -> str:
    """Return ``message`` in the current interface language through the help catalog."""
    return l10n.help_gettext(message)


def translate_help(text: str, say: Callable[[str], str] = tr) -> str:
    """Return a help text (a docstring, a ``help=``, an epilog) with each piece through ``say``.

    Pieces are paragraphs (blank-line separated; click rewraps them, so a paragraph's white space
    is collapsed to single spaces in its msgid). A ``\\b`` paragraph (printed as written) is said
    block by block: its unindented lines together, one msgid with its line breaks; an indented
    line ``  term    meaning`` (a table row) keeps its term and says its meaning alone.
    """
    out = []
    for para in re.split(r"\n[ \t]*\n", _clean(text)):
        lines = para.split("\n")
        if lines[0].strip() == "\b":
            out.append("\n".join(["\b", *_raw_block(lines[1:], say)]))
        elif para.strip():
            msgid = " ".join(para.split())
            said = say(msgid)
            out.append(para if said == msgid else said)
        else:
            out.append(para)
    return "\n\n".join(out)


def _clean(text: str) -> str:
    import inspect

    return inspect.cleandoc(text).partition("\f")[0]


_ROW = re.compile(r"(\s+\S+\s+)(\S.*)")


def _raw_block(lines: list[str], say: Callable[[str], str]) -> list[str]:
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            msgid = "\n".join(run)
            out.extend(say(msgid).split("\n"))
            run.clear()

    for line in lines:
        row = _ROW.fullmatch(line)
        if line.strip() == "\b":  # another raw block starts (written without a blank line before)
            flush()
            out.append(line)
        elif row:
            flush()
            out.append(row.group(1) + say(row.group(2)))
        else:
            run.append(line)
    flush()
    return out


def help_pieces(command: Any) -> list[tuple[str, str]]:
    """Return every help piece of ``command`` and its subcommands, as (msgid, where): what
    :func:`translate_help` looks up, for the catalog template (``where`` is the callback's module
    and line, ``cardlab/cli/deck.py:42``)."""
    found: list[tuple[str, str]] = []

    def walk(cmd: Any) -> None:
        where = _where(cmd)

        def record(message: str) -> str:
            found.append((message, where))
            return message

        texts = [cmd.help, cmd.short_help, cmd.epilog] + [getattr(p, "help", None) for p in cmd.params]
        for text in texts:
            if text:
                translate_help(text, record)
        for sub in getattr(cmd, "commands", {}).values():
            walk(sub)

    walk(command)
    return found


def _where(cmd: Any) -> str:
    import inspect

    callback = getattr(cmd, "callback", None)
    code = getattr(inspect.unwrap(callback), "__code__", None) if callback is not None else None
    if code is None:
        return "cardlab/cli:0"
    path = code.co_filename.replace(os.sep, "/")
    return f"{path[path.rfind('cardlab/') :]}:{code.co_firstlineno}" if "cardlab/" in path else "cardlab/cli:0"


class _Formatter(HelpFormatter):
    """click's formatter with its two fixed words said in the current language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, tr(USAGE) if prefix is None else prefix)

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(term, tr(text) if text == HELP_OPTION else text) for term, text in rows], col_max, col_spacing)


class _Context(Context):
    formatter_class = _Formatter


def translate_tree(command: Any) -> None:
    """Say every help text of ``command`` and its subcommands in the current language, in place
    (typer builds the click commands afresh for each run)."""
    command.context_class = _Context
    for attr in ("help", "short_help", "epilog"):
        if getattr(command, attr, None):
            setattr(command, attr, translate_help(getattr(command, attr)))
    for param in command.params:
        if getattr(param, "help", None):
            param.help = translate_help(param.help)
    for sub in getattr(command, "commands", {}).values():
        translate_tree(sub)


def translate_message(message: str) -> str:
    """Return one of click's error messages (:data:`CLICK_MESSAGES`) in the current language,
    the values it holds kept (an inner message said too); any other message as it is."""
    for template, pattern in _message_patterns():
        m = pattern.fullmatch(message)
        if m:
            values = m.groupdict()
            if "message" in values:
                values["message"] = translate_message(values["message"])
            said = tr(template)
            return message if said == template else said.format(**values)
    return message


class SaidUsageError(UsageError):
    """A usage error shown as click shows it, in the current language."""

    def __init__(self, err: UsageError) -> None:
        super().__init__(err.format_message(), err.ctx)
        self.exit_code = err.exit_code

    def show(self, file: IO[Any] | None = None) -> None:
        if file is None:
            file = get_text_stderr()
        ctx = self.ctx
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                hint = tr(TRY).format(command=ctx.command_path, option=ctx.help_option_names[0]) + "\n"
            usage = ctx.get_usage()
            if usage.startswith(USAGE) and not isinstance(ctx, _Context):
                usage = tr(USAGE) + usage[len(USAGE) :]
            echo(f"{usage}\n{hint}", file=file, color=ctx.color)
        echo(tr(ERROR).format(message=translate_message(self.message)), file=file, color=ctx.color if ctx else None)


def speak_typer() -> None:
    """Send typer's own gettext words (``Options``, ``Arguments``, ``Commands``, ``default:``,
    ``required``) through :func:`tr` (they use the standard ``gettext``, domain ``messages``)."""
    typer.core._ = tr
