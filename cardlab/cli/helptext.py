"""``--help`` and the command line's own words in the player's language.

typer fixes a command's help when the command is defined (its docstring, each ``help=``), in
English. :class:`RootGroup`, the root group of ``cardlab`` (``typer.Typer(cls=RootGroup)``),
resolves the interface language from the arguments before anything runs (``--lang`` when given,
then ``CARDLAB_LANG``, then the locale: :func:`cardlab.core.l10n.interface_language`) and, when
help is going to be shown (``-h``/``--help``, no arguments, a group without its command), runs each
help text, paragraph by paragraph, and each option's help through the help catalog
(``cardlab/locale/<lang>/LC_MESSAGES/cardlab-help.mo``, then the interface's own: English string
by string). The words of the command-line framework (typer's vendored click prints ``Usage:``,
``Show this message and exit.``, ``Error: No such option: ...`` without gettext; typer's own
headings ``Options``, ``Arguments``, ``Commands`` through the standard ``gettext``) go through the
same catalog. Nothing here is read, and no catalog is loaded, when the command runs in English or
no help is asked for. ``tools/i18n_catalogs.py extract`` collects the same pieces
(:func:`help_pieces`) for translators.

A ``CARDLAB_LANG`` cardlab does not know is refused here (exit 2, the known languages listed) for
every command that has no preferred-language ``--lang``; the commands with one refuse it themselves
(:func:`cardlab.cli.options.langs_of`), with ``--output-format json`` as JSON too.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

import typer
import typer.core
from typer._click._compat import get_text_stderr  # typer vendors click: its words are plain English
from typer._click.core import Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer._click.formatting import HelpFormatter
from typer._click.utils import echo
from typer.core import TyperGroup

from cardlab.core import l10n

HELP_NAMES = ("-h", "--help")
"""The help options of every command (``context_settings`` of the app)."""

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

_MESSAGE_PATTERNS = [
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
    for template, pattern in _MESSAGE_PATTERNS:
        m = pattern.fullmatch(message)
        if m:
            values = m.groupdict()
            if "message" in values:
                values["message"] = translate_message(values["message"])
            said = tr(template)
            return message if said == template else said.format(**values)
    return message


class _SaidUsageError(UsageError):
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


def _said(err: UsageError) -> UsageError:
    if isinstance(err, NoArgsIsHelpError | _SaidUsageError) or l10n.current() == "en":
        return err
    return _SaidUsageError(err)


def _argv_lang(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (before a ``--``), or None."""
    for i, arg in enumerate(argv):
        if arg == "--":
            return None
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def resolve(command: Any, argv: Sequence[str]) -> tuple[Any, list[str], bool]:
    """Return the command ``argv`` names (following group names), the positional words left
    after it, and whether a help option was given (before a ``--``)."""
    rest: list[str] = []
    helped = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i + 1 :])
            break
        if arg in HELP_NAMES:
            helped = True
        elif arg.startswith("-") and arg != "-":
            opt = next((p for p in command.params if arg.partition("=")[0] in (*p.opts, *p.secondary_opts)), None)
            if (
                arg == "--lang"
                or opt is not None
                and "=" not in arg
                and not getattr(opt, "is_flag", False)
                and not getattr(opt, "count", False)
            ):
                i += 1  # its value
        elif not rest and arg in getattr(command, "commands", {}):
            command = command.commands[arg]
        else:
            rest.append(arg)
        i += 1
    return command, rest, helped


def _cardlab_lang_error() -> Exception | None:
    """The error of a ``CARDLAB_LANG`` cardlab does not know (as :func:`cardlab.cli.options.langs_of`
    says it), or None."""
    from cardlab.core.config import ENV_LANG, parse_languages
    from cardlab.core.errors import UsageError as CardlabUsageError

    try:
        l10n.check_languages(parse_languages(os.environ.get(ENV_LANG, "")), ENV_LANG)
    except CardlabUsageError as err:
        return err if str(err).startswith(ENV_LANG) else CardlabUsageError(f"{ENV_LANG}: {err}")
    return None


def _preferred(param: Any) -> bool:
    """Whether ``param`` is the shared ``--lang`` of the preferred languages (:data:`cardlab.cli.options.LangOpt`)."""
    from cardlab.cli.options import LANG_HELP

    return "--lang" in param.opts and param.help == LANG_HELP


def _known(option: str) -> bool:
    """Whether every language of a ``--lang`` value is one cardlab knows."""
    from cardlab.core.config import parse_languages
    from cardlab.core.errors import UsageError as CardlabUsageError

    try:
        l10n.check_languages(parse_languages(option))
    except CardlabUsageError:
        return False
    return True


def prepare(root: Any, argv: list[str]) -> list[str]:
    """Set the interface language of this run from ``argv`` (the shared ``--lang`` of the
    preferred languages, not ``i18n``'s target language) and the environment; refuse an unknown
    ``CARDLAB_LANG`` for a command without that ``--lang`` (the others refuse it themselves; with
    help asked, a warning); say the help texts in the language when help will be shown. Return the arguments to run: with help asked of a command or group that has no
    ``--lang`` (``cardlab --help --lang fr``), that ``--lang`` is the help's and is taken out."""
    command, rest, helped = resolve(root, argv)
    wants_help = helped or (hasattr(command, "commands") and not rest)
    option = _argv_lang(argv)
    env = os.environ.get("CARDLAB_LANG", "")
    error = _cardlab_lang_error() if env.strip() and not (option and option.strip()) else None
    if error is not None:
        from cardlab.cli.errors import user_errors
        from cardlab.render import messages

        if wants_help:
            messages.warning(str(error))
        elif not any(_preferred(p) for p in command.params):
            try:
                with user_errors():
                    raise error
            except typer.Exit as done:
                raise SystemExit(done.exit_code) from None
    if option is not None and not wants_help and not any(_preferred(p) for p in command.params):
        option = None  # the --lang of i18n export or import names a target language, not the interface's
    if option and option.strip() and _known(option):
        wanted = option
    else:  # an unknown --lang is refused by its command in the language it would have had without it
        wanted = env if error is None else ""
    lang = l10n.interface_language([code for code in wanted.split(",") if code.strip()])
    l10n.use(lang)
    if lang != "en":
        typer.core._ = tr  # typer's headings (Options, Arguments, Commands) and defaults
        if wants_help:
            translate_tree(root)
    if wants_help and option is not None and not any("--lang" in p.opts for p in command.params):
        at = next(i for i, a in enumerate(argv) if a == "--lang" or a.startswith("--lang="))
        argv = argv[:at] + argv[at + (2 if argv[at] == "--lang" else 1) :]
    return argv


class RootGroup(TyperGroup):
    """The ``cardlab`` group: the language of the run set before the arguments are parsed, help
    and usage errors said in it (:func:`prepare`)."""

    def main(self, args: Sequence[str] | None = None, *more: Any, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        return super().main(prepare(self, argv), *more, **extra)

    def make_context(self, *args: Any, **kwargs: Any) -> Context:
        try:
            return super().make_context(*args, **kwargs)
        except UsageError as err:
            raise _said(err) from None

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as err:
            raise _said(err) from None
