"""The interface's gettext catalogs: extract the English strings, merge them into each language's
PO file, compile the ``.mo`` files cardlab reads (Babel).

    python tools/i18n_catalogs.py extract   # cardlab/locale/cardlab.pot and cardlab-help.pot from the code, templates, formats
    python tools/i18n_catalogs.py update    # merge the templates into every cardlab/locale/<lang>/LC_MESSAGES/<domain>.po
    python tools/i18n_catalogs.py compile   # write each .mo beside its .po (committed: `pip install -e` needs them)
    python tools/i18n_catalogs.py check     # exit 1 when a .mo is not the compiled form of its .po
    python tools/i18n_catalogs.py all       # extract, update, compile

Strings come from: the Python code (``_()``, ``N_()``, ``ngettext()``, ``pgettext()`` of
:mod:`cardlab.core.l10n`, as ``pybabel extract`` reads them), the web templates (``{{ _("...") }}``,
Jinja2's Babel extractor), and the format files (``cards/<game>/formats/*.yaml``: title,
description, rule labels, sources and reasons: data the interface shows), and the search fields'
meanings the syntax page lists (``cardlab.search.fields.FIELDS``). The command line's help is a
second domain, ``cardlab-help`` (loaded only when help is shown): every paragraph of every
command's docstring, ``help=`` and epilog, as ``--help`` looks them up (the whole command line is
built and walked: :func:`cardlab.cli.helptext.help_pieces`), and the framework's own words (typer's
gettext strings, read from ``typer/core.py`` with Babel, and its vendored click's fixed words);
a string the interface catalog already holds is left out of it (the help falls back to that
catalog). docs/TRANSLATING.md says how a contributor adds a language.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "cardlab" / "locale"
POT = LOCALE / "cardlab.pot"
HELP_POT = LOCALE / "cardlab-help.pot"
DOMAINS = ("cardlab", "cardlab-help")
KEYWORDS = {"_": None, "say": None, "tr": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "gettext": None}
METHODS = [("**/locale/**", "ignore"), ("**.py", "python")]
TEMPLATES = ROOT / "cardlab" / "web" / "templates"
"""The web templates, read with Jinja2's Babel extractor (their ``tr("...")`` calls)."""


def _languages() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from cardlab.core.l10n import LANGUAGES

    return [code for code in LANGUAGES if code != "en"]


def _format_strings() -> list[tuple[str, str]]:
    """(text, where) for every string of the format files the interface shows."""
    out: list[tuple[str, str]] = []
    for path in sorted(ROOT.glob("cards/*/formats/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for key in ("title", "description"):
            if data.get(key):
                out.append((data[key], where))
        for section in data.get("sections") or []:
            if isinstance(section, dict) and section.get("title"):
                out.append((section["title"], where))
        for rule in data.get("rules") or []:
            for key in ("label", "source", "why"):
                if isinstance(rule.get(key), str):
                    out.append((rule[key], where))
    return out


def extract() -> Catalog:
    """Write cardlab/locale/cardlab.pot; return it."""
    catalog = Catalog(project="cardlab", domain="cardlab", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT / "cardlab"), METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        catalog.add(message, None, [(f"cardlab/{filename}", lineno)], auto_comments=comments, context=context)
    for path in sorted(TEMPLATES.glob("*.html")):
        for lineno, message, comments, context in extract_from_file("jinja2.ext:babel_extract", str(path), KEYWORDS):
            catalog.add(message, None, [(str(path.relative_to(ROOT)), lineno)], auto_comments=comments, context=context)
    for text, where in _format_strings():
        catalog.add(text, None, [(where, 0)])
    from cardlab.proxies.faces import FACE_WORDS

    for word in FACE_WORDS:
        catalog.add(word, None, [("cardlab/proxies/faces.py", 0)], context="proxy")
    from cardlab.search.fields import FIELDS

    for _kind, meaning in FIELDS.values():  # the syntax page's field meanings (assembled from the games)
        catalog.add(meaning, None, [("cardlab/search/fields.py", 0)])
    _write_pot(catalog, POT)
    return catalog


def _write_pot(catalog: Catalog, path: Path) -> None:
    LOCALE.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, omit_header=False, sort_output=True, width=120)
    path.write_bytes(buf.getvalue())
    print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")


def extract_help(interface: Catalog) -> Catalog:
    """Write cardlab/locale/cardlab-help.pot (the command line's help, less what ``interface``,
    the interface's template, holds); return it."""
    sys.path.insert(0, str(ROOT))
    import typer.core
    import typer.main

    from cardlab.cli.app import whole_app
    from cardlab.cli.helptext import CLICK_WORDS, help_pieces

    catalog = Catalog(project="cardlab", domain="cardlab-help", charset="utf-8")
    for message, where in help_pieces(typer.main.get_command(whole_app())):
        path, _colon, line = where.rpartition(":")
        if interface.get(message) is None:
            catalog.add(message, None, [(path, int(line))])
    for message in CLICK_WORDS:
        catalog.add(message, None, [("cardlab/cli/helptext.py", 0)])
    for _lineno, message, _comments, _context in extract_from_file("python", typer.core.__file__, {"_": None}):
        catalog.add(message, None, [("typer/core.py", 0)])
    _write_pot(catalog, HELP_POT)
    return catalog


def _po_path(lang: str, domain: str = "cardlab") -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def update(template: Catalog | None = None, domain: str = "cardlab") -> None:
    """Merge a domain's template into every language's PO file (new strings empty, gone ones obsolete)."""
    if template is None:
        with (POT if domain == "cardlab" else HELP_POT).open("rb") as f:
            template = read_po(f)
    for lang in _languages():
        path = _po_path(lang, domain)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=lang)
        else:
            catalog = Catalog(locale=lang, project="cardlab", domain=domain, charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        buf = io.BytesIO()
        write_po(buf, catalog, sort_output=True, width=120, ignore_obsolete=True)
        path.write_bytes(buf.getvalue())
        done = sum(1 for m in catalog if m.id and m.string)
        print(f"{path.relative_to(ROOT)}: {done}/{len(catalog)} translated")


def compiled(lang: str, domain: str = "cardlab") -> bytes:
    """The .mo bytes of a language's PO file (fuzzy entries left out: English shows)."""
    with _po_path(lang, domain).open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def compile_all() -> None:
    for lang in _languages():
        for domain in DOMAINS:
            _po_path(lang, domain).with_suffix(".mo").write_bytes(compiled(lang, domain))


def check() -> int:
    stale = [
        _po_path(lang, domain).with_suffix(".mo")
        for lang in _languages()
        for domain in DOMAINS
        if _po_path(lang, domain).with_suffix(".mo").read_bytes() != compiled(lang, domain)
    ]
    for mo in stale:
        print(f"{mo.relative_to(ROOT)} is stale: run python tools/i18n_catalogs.py compile")
    return 1 if stale else 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "all"
    if command == "extract":
        extract_help(extract())
    elif command == "update":
        update()
        update(domain="cardlab-help")
    elif command == "compile":
        compile_all()
    elif command == "check":
        return check()
    elif command == "all":
        interface = extract()
        update(interface)
        update(extract_help(interface), "cardlab-help")
        compile_all()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
