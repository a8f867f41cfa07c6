"""The package's public face and the CLI's boundaries, read off the sources so they cannot regress:
typer only in cardlab/cli, rich only in cardlab/render, one module ``__getattr__`` (cardlab/__init__.py),
no bare ``typer.Exit(1)``, every CardlabError's exit code an ExitStatus, a light ``import cardlab.cli.app``."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import cardlab
from cardlab.core.errors import CardlabError, ExitStatus

PACKAGE = Path(cardlab.__file__).resolve().parent
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
ONLY_IN = {"typer": "cli", "click": "cli", "rich": "render"}  # module -> the one subpackage that may import it


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module a source imports, at any depth (lazy, TYPE_CHECKING), plus string arguments of
    importlib.import_module / __import__ calls: (line, top-level module name)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                found.append((node.lineno, node.args[0].value.split(".")[0]))
    return found


def test_the_sources_are_found():
    names = {p.relative_to(PACKAGE).as_posix() for p in SOURCES}
    assert {"cli/app.py", "cli/options.py", "cli/errors.py", "render/cards.py", "core/errors.py"} <= names


def test_typer_only_in_cli_and_rich_only_in_render():
    wrong = []
    for path in SOURCES:
        sub = path.relative_to(PACKAGE).parts[0]
        for line, module in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            if module in ONLY_IN and sub != ONLY_IN[module]:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line}: imports {module}")
    assert wrong == []


def test_the_layout_check_sees_lazy_imports():
    tree = ast.parse("def f():\n    from rich.table import Table\n    import importlib\n    importlib.import_module('typer')\n")
    assert _imported(tree) == [(2, "rich"), (3, "importlib"), (4, "typer")]


def test_one_module_getattr():
    owners = [
        p.relative_to(PACKAGE).as_posix()
        for p in SOURCES
        if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in ast.parse(p.read_text(encoding="utf-8")).body)
    ]
    assert owners == ["__init__.py"]


def test_no_command_exits_with_a_bare_number():
    bare = []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "Exit"
                and any(isinstance(a, ast.Constant) for a in [*node.args, *(k.value for k in node.keywords)])
            ):
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


def _subclasses(cls: type) -> list[type]:
    return [cls, *(s for sub in cls.__subclasses__() for s in _subclasses(sub))]


def _error_modules() -> list[str]:
    """The dotted names of the cardlab modules that define a class with an ``...Error`` base, read off
    the sources: importing them makes every CardlabError subclass known, whatever other tests imported."""
    names = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bases = (b for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for b in node.bases)
        if any((b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")).endswith("Error") for b in bases):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_error_exits_with_an_exit_status():
    modules = _error_modules()
    assert {"cardlab.core.errors", "cardlab.search.query.tree", "cardlab.core.fs", "cardlab.core.config"} <= set(modules)
    for name in modules:
        importlib.import_module(name)
    classes = {c.__name__: c.exit_code for c in _subclasses(CardlabError)}
    assert all(type(code) is ExitStatus for code in classes.values()), classes
    assert classes["CardlabError"] is ExitStatus.CHECK_FAILED and classes["DataError"] is ExitStatus.CHECK_FAILED
    assert classes["UsageError"] is ExitStatus.USAGE and classes["InputError"] is ExitStatus.USAGE
    assert classes["QueryError"] is ExitStatus.USAGE and classes["OutputPathError"] is ExitStatus.USAGE
    assert [int(s) for s in ExitStatus] == [0, 1, 2]


def test_an_exit_code_outside_the_enum_is_refused():
    with pytest.raises(ValueError, match="3 is not a valid ExitStatus"):
        type("Odd", (CardlabError,), {"exit_code": 3})


def test_cli_import_stays_light_with_the_public_api():
    code = (
        "import sys, cardlab, cardlab.cli.app; cardlab.__all__; "
        "print(sorted(m for m in ('sqlmodel', 'jsonschema', 'ruamel', 'pydantic', 'reportlab', 'rich', 'polib')"
        " if any(k == m or k.startswith(m + '.') for k in sys.modules)))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_public_api_names():
    assert cardlab.__all__ == [
        "__version__",
        "catalog_roots",
        "validate",
        "load_catalog",
        "open_index",
        "search_cards",
        "get_card",
        "check_deck_file",
        "open_deck",
        "deck_stats",
        "export_po",
        "import_po",
        "select_proxies",
        "make_proxies",
        "ProxyOptions",
        "CardlabError",
        "ExitStatus",
    ]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        cardlab.nope  # noqa: B018
    assert set(cardlab.__all__) <= set(dir(cardlab))


def test_public_api_takes_one_root_or_set_as_a_list_of_one(repo):
    """A single path or string where a list is expected is one item, never a list of its letters."""
    assert cardlab.catalog_roots() == [repo / "cards"]
    assert len(cardlab.validate(str(repo / "cards")).catalog.cards) == len(cardlab.validate([repo / "cards"]).catalog.cards)
    catalog = cardlab.load_catalog(repo / "cards")
    assert len(cardlab.export_po(catalog, "fr", "base1")) == len(cardlab.export_po(catalog, "fr", ["base1"]))


def test_public_api_end_to_end(repo, tmp_path):
    """Every entry point, called through ``cardlab.<name>`` on the shipped Base Set."""
    roots = [repo / "cards"]
    validation = cardlab.validate(roots)
    assert validation.problems == [] and validation.catalog.set_of("base1-4").code == "base1"
    catalog = cardlab.load_catalog(roots)

    con = cardlab.open_index(roots, tmp_path / "index.sqlite")
    assert [h.id for h in cardlab.search_cards(con, "set:base1 type:fire hp>=100")] == ["base1-4", "base1-23"]
    assert cardlab.get_card(con, "Dracaufeu").id == "base1-4"
    con.close()

    zap = repo / "examples" / "decks" / "zap-theme-deck.txt"
    report = cardlab.check_deck_file(zap, roots, "pokemon-base")
    assert report.legal and report.to_json()["cards"] == 60
    stats = cardlab.deck_stats(cardlab.open_deck(zap, roots, "pokemon-base"))
    assert stats.size == 60 and stats.game == "pokemon"

    po = cardlab.export_po(catalog, "fr", ["base1"])
    assert po.metadata["Language"] == "fr" and len(po) > 100
    po_path = tmp_path / "fr.po"
    po.save(str(po_path))
    imported = cardlab.import_po(roots, po_path, dry_run=True)
    assert imported.ok and imported.problems == []

    selection = cardlab.select_proxies(roots, None, zap, format_name="pokemon-base")
    out = cardlab.make_proxies(selection.catalog, selection.card_ids, tmp_path / "zap.pdf", cardlab.ProxyOptions(paper="a4"))
    assert (out.cards, out.pages) == (60, 7) and (tmp_path / "zap.pdf").read_bytes()[:5] == b"%PDF-"

    with pytest.raises(cardlab.CardlabError) as err:
        cardlab.check_deck_file(tmp_path / "missing.txt", roots, "pokemon-base")
    assert err.value.exit_code is cardlab.ExitStatus.USAGE
