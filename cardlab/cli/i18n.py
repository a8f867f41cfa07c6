"""``cardlab i18n``: translation coverage, PO export and import (library: cardlab.i18n.strings, cardlab.i18n.po_file)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardlab.cli.errors import finish, long_work, user_errors
from cardlab.cli.options import (
    CatalogOpt,
    OldFormatOpt,
    QuietOpt,
    ReportOutput,
    ReportOutputOpt,
    TableOutput,
    TableOutputOpt,
    output_format,
    roots_and_db,
)

i18n_app = typer.Typer(help="Translations: coverage, export to PO files for translators, import back.", no_args_is_help=True)

SetOpt = Annotated[Optional[list[str]], typer.Option("--set", help="Only this set (code or alias; repeatable).")]


def register(app: typer.Typer) -> None:
    """Mount the ``i18n`` command group on the main app."""
    app.add_typer(i18n_app, name="i18n")


def _roots(catalog: list[Path] | None) -> list[Path]:
    return roots_and_db(catalog, None)[0]


def _one_language(option: str | None) -> str:
    from cardlab.core.config import preferred_languages
    from cardlab.core.errors import UsageError

    langs = preferred_languages(option)
    if not langs:
        raise UsageError("say which language to translate into: --lang fr")
    if len(langs) > 1 and option:
        raise UsageError(f"one language at a time (got {', '.join(langs)})")
    return langs[0]


@i18n_app.command("status")
def status(
    lang: Annotated[
        Optional[str], typer.Option("--lang", help="Target language(s), comma-separated; default: every language present.")
    ] = None,
    sets: SetOpt = None,
    catalog: CatalogOpt = None,
    output_fmt: TableOutputOpt = TableOutput.table,
    fail_under: Annotated[
        Optional[float],
        typer.Option("--fail-under", metavar="PERCENT", min=0, max=100, help="Exit 1 when a language's coverage is below PERCENT (0-100)."),
    ] = None,
    old_fmt: OldFormatOpt = None,
) -> None:
    """Show translation coverage per set and field kind.  Example: cardlab i18n status --lang fr --set base1"""
    import json

    from cardlab.catalog.validate import validate
    from cardlab.core.config import parse_languages
    from cardlab.i18n import strings as i18n

    fmt = output_format(output_fmt, old_fmt, "i18n status", "--format")
    with user_errors(json_output=fmt is TableOutput.json):
        langs = parse_languages(lang) if lang else None
        cov = i18n.coverage(validate(_roots(catalog)).catalog, langs, sets)
    if fmt is TableOutput.json:
        typer.echo(json.dumps(cov.to_json(), ensure_ascii=False, indent=2))
    else:
        from cardlab.render import i18n as render

        render.coverage(cov)
    low = cov.below(fail_under) if fail_under is not None else []
    for code in low:
        typer.echo(f"{code}: coverage {cov.total(code).percent:.1f}% is under {fail_under:g}%", err=True)
    finish(not low)


@i18n_app.command("export")
def export(
    lang: Annotated[Optional[str], typer.Option("--lang", help="Target language; default: the first preferred language.")] = None,
    sets: SetOpt = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="PO file to write; default: standard output.")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace OUTPUT if it exists.")] = False,
    catalog: CatalogOpt = None,
) -> None:
    """Export translatable strings to a gettext PO file.  Example: cardlab i18n export --lang fr --set base1 -o fr.po"""
    from cardlab.catalog.validate import validate
    from cardlab.core.fs import check_output
    from cardlab.core.text import visible  # lazy: only this command prints user paths
    from cardlab.i18n import po_file as pofiles

    to_stdout = output is None or output == "-"
    with user_errors():
        target = _one_language(lang)
        roots = _roots(catalog)
        if output is not None and not to_stdout:
            check_output(output, overwrite, example="fr.po", protected=roots)
        po = pofiles.export(validate(roots).catalog, target, sets)
        if output is None or to_stdout:
            sys.stdout.write(str(po) + "\n")
        else:
            pofiles.save(po, Path(output), overwrite, protected=roots)
            typer.echo(visible(f"wrote {output}: {pofiles.export_summary(po, target)}"), err=True)


@i18n_app.command("import")
def import_(
    po_file: Annotated[Path, typer.Argument(help="The translated PO file.")],
    lang: Annotated[Optional[str], typer.Option("--lang", help="Target language; default: the PO file's Language header.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show a diff of the changes; write nothing.")] = False,
    replace: Annotated[
        bool, typer.Option("--replace", help="Let the PO file replace existing translations that differ (official names, earlier imports).")
    ] = False,
    catalog: CatalogOpt = None,
    output_fmt: ReportOutputOpt = ReportOutput.text,
    old_fmt: OldFormatOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Write a PO file's translations back into the card files.  Example: cardlab i18n import fr.po --dry-run"""
    import json

    from cardlab.i18n import po_import

    fmt = output_format(output_fmt, old_fmt, "i18n import", "--format")
    kept = "no card file was changed (or, if the files were being renamed, all of them were)"
    with user_errors(json_output=fmt is ReportOutput.json), long_work(quiet, kept):
        roots = _roots(catalog)
        report = po_import.import_po(roots, po_file, lang, dry_run=dry_run, replace=replace)
    if fmt is ReportOutput.json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        from cardlab.render import i18n as render

        render.import_report(report, roots, dry_run)
    finish(report.ok)


@i18n_app.command("hash")
def hash_(text: Annotated[str, typer.Argument(help="The source-language text.")]) -> None:
    """Print the short hash to store in _source for a source text.  Example: cardlab i18n hash "Fire Spin\""""
    from cardlab.i18n.strings import source_hash

    typer.echo(source_hash(text))
