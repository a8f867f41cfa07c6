"""The ``cardlab`` root group: the language of a run, set before its arguments are parsed.

:class:`RootGroup` (``typer.Typer(cls=RootGroup)``) resolves the interface language from the
arguments before anything runs (``--lang`` when given, then ``CARDLAB_LANG``, then the locale:
:func:`cardlab.core.l10n.interface_language`) and, when it is not English, hands help and usage
errors to :mod:`cardlab.cli.helptext`, which says them in it (imported only then: a command run in
English, the everyday search, loads nothing more than this module).

A ``CARDLAB_LANG`` cardlab does not know is refused here (exit 2, the known languages listed) for
every command that has no preferred-language ``--lang``; the commands with one refuse it themselves
(:func:`cardlab.cli.options.langs_of`), with ``--output-format json`` as JSON too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click.core import Context  # typer vendors click
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from cardlab.core import l10n

HELP_NAMES = ("-h", "--help")
"""The help options of every command (``context_settings`` of the app)."""


def _said(err: UsageError) -> UsageError:
    """``err`` to be shown in the current language (:class:`cardlab.cli.helptext.SaidUsageError`)."""
    if isinstance(err, NoArgsIsHelpError) or l10n.current() == "en":
        return err
    from cardlab.cli.helptext import SaidUsageError  # lazy: only a usage error in another language

    return err if isinstance(err, SaidUsageError) else SaidUsageError(err)


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


def _take_root_lang(argv: list[str]) -> tuple[list[str], str | None]:
    """Take the root's own ``--lang X`` (before the command's name: ``cardlab --lang fr deck
    validate FILE``, ``cardlab --help --lang fr``) out of ``argv``; return the rest and its value (the
    last one given), or None. A ``--lang`` with no value is left for click to say so."""
    out: list[str] = []
    found: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--" or arg == "-" or not arg.startswith("-"):
            return out + argv[i:], found
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            found = arg.partition("=")[2]
        else:
            out.append(arg)
        i += 1
    return out, found


def _refuse(error: Exception) -> None:
    """Say ``error`` (a cardlab usage error) as every command does and end the run (exit 2)."""
    from cardlab.cli.errors import user_errors

    try:
        with user_errors():
            raise error
    except typer.Exit as done:
        raise SystemExit(done.exit_code) from None


def _unknown_lang_error(option: str) -> Exception | None:
    """The usage error of a ``--lang`` value naming a language cardlab does not know, or None."""
    from cardlab.core.config import parse_languages
    from cardlab.core.errors import UsageError as CardlabUsageError

    try:
        l10n.check_languages(parse_languages(option))
    except CardlabUsageError as err:
        return err
    return None


def prepare(root: Any, argv: list[str]) -> list[str]:
    """Set the interface language of this run from ``argv`` (the shared ``--lang`` of the
    preferred languages, or the root's ``--lang`` before the command's name; not ``i18n``'s target
    language) and the environment; refuse an unknown ``CARDLAB_LANG`` for a command without that
    ``--lang`` (the others refuse it themselves; with help asked, a warning); say the help texts in
    the language when help will be shown. Return the arguments to run.

    The root's ``--lang`` (``cardlab --lang fr deck validate FILE``) is the run's language, as
    ``CARDLAB_LANG`` is: taken out, and given to the command as its own ``--lang`` when it has the
    preferred-language one and none was given. With help asked of a command or group that has no
    ``--lang`` (``cardlab deck --help --lang fr``), that ``--lang`` is the help's and is taken out.
    An unknown language in an interface ``--lang`` is a usage error (exit 2, the known languages
    listed) with help asked too; the commands with the preferred-language ``--lang`` refuse it
    themselves (``--output-format json`` as JSON)."""
    argv, root_option = _take_root_lang(argv)
    command, rest, helped = resolve(root, argv)
    wants_help = helped or (hasattr(command, "commands") and not rest)
    preferred = command is not root and any(_preferred(p) for p in command.params)
    own = _argv_lang(argv)
    if own is not None and not wants_help and not preferred:
        own = None  # the --lang of i18n export or import names a target language, not the interface's
    option = own if own is not None else root_option
    if root_option is not None and preferred and _argv_lang(argv) is None:
        end = argv.index("--") if "--" in argv else len(argv)
        argv = [*argv[:end], "--lang", root_option, *argv[end:]]
    env = os.environ.get("CARDLAB_LANG", "")
    error = _cardlab_lang_error() if env.strip() and not (option and option.strip()) else None
    if error is not None:
        from cardlab.render import messages

        if wants_help:
            messages.warning(str(error))
        elif not preferred:
            _refuse(error)
    unknown = _unknown_lang_error(option) if option and option.strip() else None
    if option and option.strip() and unknown is None:
        wanted = option
    else:  # an unknown --lang is refused in the language the run would have had without it
        wanted = env if error is None else ""
    lang = l10n.interface_language([code for code in wanted.split(",") if code.strip()])
    l10n.use(lang)
    if unknown is not None and (wants_help or not preferred):
        _refuse(unknown)
    if lang != "en":
        from cardlab.cli import helptext  # lazy: the translation of help and usage errors

        helptext.speak_typer()
        if wants_help:
            helptext.translate_tree(root)
    if wants_help and own is not None and not any("--lang" in p.opts for p in command.params):
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
